//! Password-reset links.

use anyhow::Context;
use async_trait::async_trait;

use super::steps::{AuthSteps, PASSWORD_RESETS};
use crate::store::engines::{both_engines, Pools};

/// Password-reset links: one at a time for the owner, each used once.
#[async_trait]
pub trait PasswordResetStore: Send + Sync + 'static {
    /// Stores a new link's token hash for the owner, replacing the previous link, unless that
    /// one was made after `not_since` (at most one e-mail so often): then false and nothing
    /// changed.
    async fn begin_password_reset(
        &self,
        owner_id: i64,
        token_hash: &str,
        now: i64,
        expires_at: i64,
        not_since: i64,
    ) -> anyhow::Result<bool>;

    /// The owner whose unexpired link has this token hash.
    async fn find_password_reset(&self, token_hash: &str, now: i64) -> anyhow::Result<Option<i64>>;

    /// Uses the link up: true for the one request that deleted it before it expired.
    async fn take_password_reset(&self, token_hash: &str, now: i64) -> anyhow::Result<bool>;

    /// Deletes every outstanding reset link of the owner (the password was set another way).
    async fn delete_password_resets(&self, owner_id: i64) -> anyhow::Result<u64>;
}

both_engines! {
    impl PasswordResetStore {
        async fn begin_password_reset(
            &self,
            owner_id: i64,
            token_hash: &str,
            now: i64,
            expires_at: i64,
            not_since: i64,
        ) -> anyhow::Result<bool> {
            let stored: Option<i64> = sqlx::query_scalar(
                "INSERT INTO password_resets (owner_id, token_hash, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4) \
                 ON CONFLICT (owner_id) DO UPDATE SET token_hash = excluded.token_hash, \
                     created_at = excluded.created_at, expires_at = excluded.expires_at \
                 WHERE password_resets.created_at <= $5 RETURNING owner_id",
            )
            .bind(owner_id)
            .bind(token_hash)
            .bind(now)
            .bind(expires_at)
            .bind(not_since)
            .fetch_optional(self.writer())
            .await
            .context("Failed to store a password-reset link")?;
            Ok(stored.is_some())
        }

        async fn find_password_reset(
            &self,
            token_hash: &str,
            now: i64,
        ) -> anyhow::Result<Option<i64>> {
            self.token_owner(&PASSWORD_RESETS, token_hash, now).await
        }

        async fn take_password_reset(&self, token_hash: &str, now: i64) -> anyhow::Result<bool> {
            Ok(self
                .take_token(&PASSWORD_RESETS, token_hash, now)
                .await?
                .is_some())
        }

        async fn delete_password_resets(&self, owner_id: i64) -> anyhow::Result<u64> {
            self.delete_owners(PASSWORD_RESETS.table, "the password-reset links", owner_id)
                .await
        }
    }
}
