//! [`SpamStore`] on SQLite.

use anyhow::Context;
use async_trait::async_trait;

use super::SqliteStore;
use crate::store::spam::SpamStore;

#[async_trait]
impl SpamStore for SqliteStore {
    #[tracing::instrument(skip(self, signature))]
    async fn use_challenge(
        &self,
        signature: &str,
        expires_at: i64,
        now: i64,
    ) -> anyhow::Result<bool> {
        let mut tx = self.writer.begin().await?;
        sqlx::query("DELETE FROM spam_used_challenges WHERE expires_at < ?")
            .bind(now)
            .execute(&mut *tx)
            .await
            .context("Failed to forget expired challenges")?;
        let fresh = sqlx::query(
            "INSERT INTO spam_used_challenges (signature, expires_at) VALUES (?, ?) \
             ON CONFLICT (signature) DO NOTHING",
        )
        .bind(signature)
        .bind(expires_at)
        .execute(&mut *tx)
        .await
        .context("Failed to record a used challenge")?
        .rows_affected()
            == 1;
        tx.commit().await?;
        Ok(fresh)
    }

    #[tracing::instrument(skip(self))]
    async fn count_real_messages_since(&self, since: i64) -> anyhow::Result<i64> {
        sqlx::query_scalar(
            "SELECT COUNT(*) FROM contact_messages WHERE created_at >= ? AND spam_reason IS NULL",
        )
        .bind(since)
        .fetch_one(&self.pool)
        .await
        .context("Failed to count recent messages")
    }
}
