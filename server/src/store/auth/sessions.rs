//! The session list and re-authentication, pending sign-ins (a password that waits for its
//! code), the sessions a passkey signed in, and the notices' sign-out links.

use anyhow::Context;
use async_trait::async_trait;

use super::steps::{AuthSteps, PENDING_SIGN_INS, SIGN_OUT_LINKS};
use crate::store::engines::{both_engines, Pools};

row! {
    /// A signed-in session as the session list shows it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct SessionListRow {
        pub token_hash: String,
        pub created_at: i64,
        pub last_seen_at: i64,
        pub browser: String,
        pub device: String,
        pub method: String,
    }
}

/// What the session list, re-authentication, pending sign-ins and the notices' sign-out links
/// need.
#[async_trait]
pub trait SessionStore: Send + Sync + 'static {
    // --- Sessions ---

    /// The owner's sessions that have expired in neither way, the most recently active first.
    async fn owner_sessions(&self, owner_id: i64, now: i64) -> anyhow::Result<Vec<SessionListRow>>;

    /// Records what the session list shows of a new session and when it last authenticated.
    async fn describe_session(
        &self,
        token_hash: &str,
        browser: &str,
        device: &str,
        method: &str,
        reauthenticated_at: i64,
    ) -> anyhow::Result<()>;

    /// The session's last re-authentication (0 when never), if the session exists.
    async fn session_reauthenticated_at(&self, token_hash: &str) -> anyhow::Result<Option<i64>>;

    /// Notes that the session proved the password or a passkey again at `at`.
    async fn set_session_reauthenticated(&self, token_hash: &str, at: i64) -> anyhow::Result<()>;

    // --- Pending sign-ins ---

    /// Stores a pending sign-in (forgetting the expired ones first).
    async fn insert_pending_sign_in(
        &self,
        token_hash: &str,
        owner_id: i64,
        expires_at: i64,
        now: i64,
    ) -> anyhow::Result<()>;

    /// The owner waiting behind this pending sign-in, if it has not expired.
    async fn find_pending_sign_in(&self, token_hash: &str, now: i64)
        -> anyhow::Result<Option<i64>>;

    /// Uses the pending sign-in up: true for the one request that deleted it before it expired.
    async fn take_pending_sign_in(&self, token_hash: &str, now: i64) -> anyhow::Result<bool>;

    async fn delete_pending_sign_ins(&self, owner_id: i64) -> anyhow::Result<()>;

    // --- Sessions ended with a passkey, and the notices' sign-out links ---

    /// Deletes the owner's sessions that signed in with this passkey; how many.
    async fn delete_passkey_sessions(&self, owner_id: i64, passkey_id: &str)
        -> anyhow::Result<u64>;

    /// Stores a notice's sign-out link (forgetting the expired ones first).
    async fn insert_sign_out_link(
        &self,
        token_hash: &str,
        owner_id: i64,
        now: i64,
        expires_at: i64,
    ) -> anyhow::Result<()>;

    /// Uses the link up: its owner, for the one request that deleted it before it expired.
    async fn take_sign_out_link(&self, token_hash: &str, now: i64) -> anyhow::Result<Option<i64>>;
}

both_engines! {
    impl SessionStore {
        async fn owner_sessions(
            &self,
            owner_id: i64,
            now: i64,
        ) -> anyhow::Result<Vec<SessionListRow>> {
            sqlx::query_as(
                "SELECT token_hash, created_at, last_seen_at, browser, device, method FROM sessions \
                 WHERE owner_id = $1 AND idle_expires_at > $2 AND absolute_expires_at > $2 \
                 ORDER BY last_seen_at DESC, created_at DESC, token_hash",
            )
            .bind(owner_id)
            .bind(now)
            .fetch_all(self.reader())
            .await
            .context("Failed to list the sessions")
        }

        async fn describe_session(
            &self,
            token_hash: &str,
            browser: &str,
            device: &str,
            method: &str,
            reauthenticated_at: i64,
        ) -> anyhow::Result<()> {
            sqlx::query(
                "UPDATE sessions SET browser = $1, device = $2, method = $3, reauthenticated_at = $4 \
                 WHERE token_hash = $5",
            )
            .bind(browser)
            .bind(device)
            .bind(method)
            .bind(reauthenticated_at)
            .bind(token_hash)
            .execute(self.writer())
            .await
            .context("Failed to describe a session")?;
            Ok(())
        }

        async fn session_reauthenticated_at(&self, token_hash: &str) -> anyhow::Result<Option<i64>> {
            sqlx::query_scalar("SELECT reauthenticated_at FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .fetch_optional(self.writer())
                .await
                .context("Failed to read a session's re-authentication")
        }

        async fn set_session_reauthenticated(&self, token_hash: &str, at: i64) -> anyhow::Result<()> {
            sqlx::query("UPDATE sessions SET reauthenticated_at = $1 WHERE token_hash = $2")
                .bind(at)
                .bind(token_hash)
                .execute(self.writer())
                .await
                .context("Failed to note a re-authentication")?;
            Ok(())
        }

        // --- Pending sign-ins ---

        async fn insert_pending_sign_in(
            &self,
            token_hash: &str,
            owner_id: i64,
            expires_at: i64,
            now: i64,
        ) -> anyhow::Result<()> {
            self.forget_expired("pending_sign_ins", "pending sign-ins", now)
                .await?;
            sqlx::query(
                "INSERT INTO pending_sign_ins (token_hash, owner_id, expires_at) VALUES ($1, $2, $3)",
            )
            .bind(token_hash)
            .bind(owner_id)
            .bind(expires_at)
            .execute(self.writer())
            .await
            .context("Failed to store a pending sign-in")?;
            Ok(())
        }

        async fn find_pending_sign_in(
            &self,
            token_hash: &str,
            now: i64,
        ) -> anyhow::Result<Option<i64>> {
            self.token_owner(&PENDING_SIGN_INS, token_hash, now).await
        }

        async fn take_pending_sign_in(&self, token_hash: &str, now: i64) -> anyhow::Result<bool> {
            Ok(self
                .take_token(&PENDING_SIGN_INS, token_hash, now)
                .await?
                .is_some())
        }

        async fn delete_pending_sign_ins(&self, owner_id: i64) -> anyhow::Result<()> {
            self.delete_owners(PENDING_SIGN_INS.table, "pending sign-ins", owner_id)
                .await?;
            Ok(())
        }

        // --- Sessions ended with a passkey, and the notices' sign-out links ---

        async fn delete_passkey_sessions(
            &self,
            owner_id: i64,
            passkey_id: &str,
        ) -> anyhow::Result<u64> {
            let result = sqlx::query("DELETE FROM sessions WHERE owner_id = $1 AND passkey_id = $2")
                .bind(owner_id)
                .bind(passkey_id)
                .execute(self.writer())
                .await
                .context("Failed to end the passkey's sessions")?;
            Ok(result.rows_affected())
        }

        async fn insert_sign_out_link(
            &self,
            token_hash: &str,
            owner_id: i64,
            now: i64,
            expires_at: i64,
        ) -> anyhow::Result<()> {
            self.forget_expired(SIGN_OUT_LINKS.table, "sign-out links", now)
                .await?;
            sqlx::query(
                "INSERT INTO sign_out_links (token_hash, owner_id, created_at, expires_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(token_hash)
            .bind(owner_id)
            .bind(now)
            .bind(expires_at)
            .execute(self.writer())
            .await
            .context("Failed to store a sign-out link")?;
            Ok(())
        }

        async fn take_sign_out_link(
            &self,
            token_hash: &str,
            now: i64,
        ) -> anyhow::Result<Option<i64>> {
            self.take_token(&SIGN_OUT_LINKS, token_hash, now).await
        }
    }
}
