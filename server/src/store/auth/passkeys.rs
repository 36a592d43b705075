//! Passkeys, and the WebAuthn ceremonies finished.

use anyhow::Context;
use async_trait::async_trait;

use super::steps::AuthSteps;
use crate::store::engines::{both_engines, Pools};

row! {
    /// A passkey, every column.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct PasskeyRow {
        pub id: String,
        pub owner_id: i64,
        /// The credential id, base64url.
        pub credential_id: String,
        pub name: String,
        /// The credential as the WebAuthn library serialises it (JSON).
        pub credential: String,
        pub created_at: i64,
        pub last_used_at: Option<i64>,
    }
}

/// The columns of [`PasskeyRow`], in order.
const PASSKEY_COLUMNS: &str =
    "id, owner_id, credential_id, name, credential, created_at, last_used_at";

/// The owner's passkeys, and the WebAuthn ceremonies finished.
#[async_trait]
pub trait PasskeyStore: Send + Sync + 'static {
    // --- Passkeys ---

    /// The owner's passkeys, oldest first.
    async fn passkeys(&self, owner_id: i64) -> anyhow::Result<Vec<PasskeyRow>>;

    async fn find_passkey_by_credential(
        &self,
        credential_id: &str,
    ) -> anyhow::Result<Option<PasskeyRow>>;

    /// Stores a new passkey; false when its credential is stored already.
    async fn insert_passkey(&self, row: &PasskeyRow) -> anyhow::Result<bool>;

    /// Renames the owner's passkey; the passkey as it is now, if it exists.
    async fn rename_passkey(
        &self,
        owner_id: i64,
        id: &str,
        name: &str,
    ) -> anyhow::Result<Option<PasskeyRow>>;

    /// Records a sign-in with the passkey and its credential as updated (its counter).
    async fn passkey_used(&self, id: &str, credential: &str, now: i64) -> anyhow::Result<()>;

    /// Deletes the owner's passkey; whether it existed.
    async fn delete_passkey(&self, owner_id: i64, id: &str) -> anyhow::Result<bool>;

    /// Deletes every passkey of the owner; how many.
    async fn delete_all_passkeys(&self, owner_id: i64) -> anyhow::Result<u64>;

    // --- WebAuthn ceremonies ---

    /// Records the ceremony `challenge_id` as finished (forgetting those that expired first),
    /// remembered until `expires_at`: true for the one request that recorded it, false when it
    /// was finished before, on any instance.
    async fn use_challenge(
        &self,
        challenge_id: &str,
        expires_at: i64,
        now: i64,
    ) -> anyhow::Result<bool>;
}

both_engines! {
    impl PasskeyStore {
        // --- Passkeys ---

        async fn passkeys(&self, owner_id: i64) -> anyhow::Result<Vec<PasskeyRow>> {
            sqlx::query_as(&format!(
                "SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE owner_id = $1 ORDER BY created_at, id"
            ))
            .bind(owner_id)
            .fetch_all(self.writer())
            .await
            .context("Failed to list the passkeys")
        }

        async fn find_passkey_by_credential(
            &self,
            credential_id: &str,
        ) -> anyhow::Result<Option<PasskeyRow>> {
            sqlx::query_as(&format!(
                "SELECT {PASSKEY_COLUMNS} FROM passkeys WHERE credential_id = $1"
            ))
            .bind(credential_id)
            .fetch_optional(self.writer())
            .await
            .context("Failed to look up a passkey")
        }

        async fn insert_passkey(&self, row: &PasskeyRow) -> anyhow::Result<bool> {
            let result = sqlx::query(&format!(
                "INSERT INTO passkeys ({PASSKEY_COLUMNS}) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (credential_id) DO NOTHING"
            ))
            .bind(&row.id)
            .bind(row.owner_id)
            .bind(&row.credential_id)
            .bind(&row.name)
            .bind(&row.credential)
            .bind(row.created_at)
            .bind(row.last_used_at)
            .execute(self.writer())
            .await
            .context("Failed to store a passkey")?;
            Ok(result.rows_affected() == 1)
        }

        async fn rename_passkey(
            &self,
            owner_id: i64,
            id: &str,
            name: &str,
        ) -> anyhow::Result<Option<PasskeyRow>> {
            sqlx::query_as(&format!(
                "UPDATE passkeys SET name = $1 WHERE owner_id = $2 AND id = $3 \
                 RETURNING {PASSKEY_COLUMNS}"
            ))
            .bind(name)
            .bind(owner_id)
            .bind(id)
            .fetch_optional(self.writer())
            .await
            .context("Failed to rename a passkey")
        }

        async fn passkey_used(&self, id: &str, credential: &str, now: i64) -> anyhow::Result<()> {
            sqlx::query("UPDATE passkeys SET credential = $1, last_used_at = $2 WHERE id = $3")
                .bind(credential)
                .bind(now)
                .bind(id)
                .execute(self.writer())
                .await
                .context("Failed to note a passkey's use")?;
            Ok(())
        }

        async fn delete_passkey(&self, owner_id: i64, id: &str) -> anyhow::Result<bool> {
            let result = sqlx::query("DELETE FROM passkeys WHERE owner_id = $1 AND id = $2")
                .bind(owner_id)
                .bind(id)
                .execute(self.writer())
                .await
                .context("Failed to delete a passkey")?;
            Ok(result.rows_affected() == 1)
        }

        async fn delete_all_passkeys(&self, owner_id: i64) -> anyhow::Result<u64> {
            self.delete_owners("passkeys", "the passkeys", owner_id).await
        }

        // --- WebAuthn ceremonies ---

        async fn use_challenge(
            &self,
            challenge_id: &str,
            expires_at: i64,
            now: i64,
        ) -> anyhow::Result<bool> {
            self.forget_expired("webauthn_used_challenges", "used passkey challenges", now)
                .await?;
            // One statement: of two requests finishing the same ceremony at once, one inserts.
            let result = sqlx::query(
                "INSERT INTO webauthn_used_challenges (challenge_id, expires_at) VALUES ($1, $2) \
                 ON CONFLICT (challenge_id) DO NOTHING",
            )
            .bind(challenge_id)
            .bind(expires_at)
            .execute(self.writer())
            .await
            .context("Failed to record a used passkey challenge")?;
            Ok(result.rows_affected() == 1)
        }
    }
}
