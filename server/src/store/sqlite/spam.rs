//! [`SpamStore`] on SQLite.

use anyhow::Context;
use async_trait::async_trait;

use super::SqliteStore;
use crate::store::spam::SpamStore;

#[async_trait]
impl SpamStore for SqliteStore {
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
