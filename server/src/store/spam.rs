//! What the contact form's spam checks need from storage: the proof-of-work challenges already
//! used (so none is accepted twice, on any instance) and the site-wide count of real messages.

use async_trait::async_trait;

#[async_trait]
pub trait SpamStore {
    /// Records a solved challenge (by its signature) as used until `expires_at`, forgetting those
    /// that expired before `now`. True when it was not used before; false for a replay, on every
    /// instance sharing this database.
    async fn use_challenge(
        &self,
        signature: &str,
        expires_at: i64,
        now: i64,
    ) -> anyhow::Result<bool>;

    /// How many messages created at or after `since` were not judged spam when they arrived.
    async fn count_real_messages_since(&self, since: i64) -> anyhow::Result<i64>;
}
