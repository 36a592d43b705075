//! The steps the auth queries share, written once for both engines: the tables of single-use
//! tokens, forgetting what expired, and the recovery codes' rows.

use anyhow::Context;
use async_trait::async_trait;

use crate::store::engines::{both_engines, Pools};

/// A table of single-use tokens, each a hash for an owner until it expires: the pending sign-ins
/// and the password-reset links.
pub(super) struct Tokens {
    pub(super) table: &'static str,
    /// One of them, as an error names it.
    pub(super) one: &'static str,
}

pub(super) const PENDING_SIGN_INS: Tokens = Tokens {
    table: "pending_sign_ins",
    one: "a pending sign-in",
};

pub(super) const PASSWORD_RESETS: Tokens = Tokens {
    table: "password_resets",
    one: "a password-reset link",
};

pub(super) const SIGN_OUT_LINKS: Tokens = Tokens {
    table: "sign_out_links",
    one: "a sign-out link",
};

/// The steps the queries share, written once for both engines.
#[async_trait]
pub(super) trait AuthSteps: Pools {
    /// Deletes the rows of `table` whose `expires_at` has passed; `what` names them in errors.
    async fn forget_expired(&self, table: &str, what: &str, now: i64) -> anyhow::Result<()>;

    /// Deletes every row of `table` that belongs to the owner; how many. `what` names them in
    /// errors.
    async fn delete_owners(&self, table: &str, what: &str, owner_id: i64) -> anyhow::Result<u64>;

    /// The owner behind the unexpired token with this hash. From the writer: the token was
    /// stored a moment ago, maybe by this instance.
    async fn token_owner(
        &self,
        tokens: &Tokens,
        token_hash: &str,
        now: i64,
    ) -> anyhow::Result<Option<i64>>;

    /// Uses the token up: its owner, for the one request that deleted it before it expired.
    async fn take_token(
        &self,
        tokens: &Tokens,
        token_hash: &str,
        now: i64,
    ) -> anyhow::Result<Option<i64>>;

    /// Deletes the owner's recovery codes.
    async fn delete_recovery_codes(
        connection: &mut <Self::Db as sqlx::Database>::Connection,
        owner_id: i64,
    ) -> anyhow::Result<()>;

    /// Replaces the owner's recovery codes with these hashes.
    async fn store_recovery_codes(
        connection: &mut <Self::Db as sqlx::Database>::Connection,
        owner_id: i64,
        code_hashes: &[String],
        now: i64,
    ) -> anyhow::Result<()>;
}

both_engines! {
    impl AuthSteps {
        async fn forget_expired(&self, table: &str, what: &str, now: i64) -> anyhow::Result<()> {
            sqlx::query(&format!("DELETE FROM {table} WHERE expires_at <= $1"))
                .bind(now)
                .execute(self.writer())
                .await
                .with_context(|| format!("Failed to forget expired {what}"))?;
            Ok(())
        }

        async fn delete_owners(
            &self,
            table: &str,
            what: &str,
            owner_id: i64,
        ) -> anyhow::Result<u64> {
            let result = sqlx::query(&format!("DELETE FROM {table} WHERE owner_id = $1"))
                .bind(owner_id)
                .execute(self.writer())
                .await
                .with_context(|| format!("Failed to delete {what}"))?;
            Ok(result.rows_affected())
        }

        async fn token_owner(
            &self,
            tokens: &Tokens,
            token_hash: &str,
            now: i64,
        ) -> anyhow::Result<Option<i64>> {
            sqlx::query_scalar(&format!(
                "SELECT owner_id FROM {} WHERE token_hash = $1 AND expires_at > $2",
                tokens.table
            ))
            .bind(token_hash)
            .bind(now)
            .fetch_optional(self.writer())
            .await
            .with_context(|| format!("Failed to read {}", tokens.one))
        }

        async fn take_token(
            &self,
            tokens: &Tokens,
            token_hash: &str,
            now: i64,
        ) -> anyhow::Result<Option<i64>> {
            sqlx::query_scalar(&format!(
                "DELETE FROM {} WHERE token_hash = $1 AND expires_at > $2 RETURNING owner_id",
                tokens.table
            ))
            .bind(token_hash)
            .bind(now)
            .fetch_optional(self.writer())
            .await
            .with_context(|| format!("Failed to use {}", tokens.one))
        }

        async fn delete_recovery_codes(
            connection: &mut <<Self as Pools>::Db as sqlx::Database>::Connection,
            owner_id: i64,
        ) -> anyhow::Result<()> {
            sqlx::query("DELETE FROM recovery_codes WHERE owner_id = $1")
                .bind(owner_id)
                .execute(&mut *connection)
                .await
                .context("Failed to delete the recovery codes")?;
            Ok(())
        }

        async fn store_recovery_codes(
            connection: &mut <<Self as Pools>::Db as sqlx::Database>::Connection,
            owner_id: i64,
            code_hashes: &[String],
            now: i64,
        ) -> anyhow::Result<()> {
            Self::delete_recovery_codes(&mut *connection, owner_id).await?;
            for hash in code_hashes {
                sqlx::query(
                    "INSERT INTO recovery_codes (code_hash, owner_id, created_at) VALUES ($1, $2, $3)",
                )
                .bind(hash)
                .bind(owner_id)
                .bind(now)
                .execute(&mut *connection)
                .await
                .context("Failed to store a recovery code")?;
            }
            Ok(())
        }
    }
}
