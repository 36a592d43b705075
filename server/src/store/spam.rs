//! What the contact form's spam checks need from storage: the site-wide count of real messages.
//! The used proofs and the ceiling's notice are written in the transaction that stores a message
//! (see [`super::proofs`]).

use anyhow::Context;
use async_trait::async_trait;

use crate::store::engines::{both_engines, Pools};

#[async_trait]
pub trait SpamStore {
    /// How many messages created at or after `since` were not judged spam when they arrived.
    async fn count_real_messages_since(&self, since: i64) -> anyhow::Result<i64>;
}

both_engines! {
    impl SpamStore {
        async fn count_real_messages_since(&self, since: i64) -> anyhow::Result<i64> {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM contact_messages WHERE created_at >= $1 AND spam_reason IS NULL",
            )
            .bind(since)
            .fetch_one(self.reader())
            .await
            .context("Failed to count recent messages")
        }
    }
}
