//! The second factor: its key (sealed) and its recovery codes.

use anyhow::Context;
use async_trait::async_trait;

use super::steps::AuthSteps;
use crate::store::engines::{both_engines, Pools};
use crate::store::sealed::{second_factor_aad, HoldsSealer};

row! {
    /// The owner's time-based one-time codes' key.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct SecondFactorRow {
        /// The key, opened (the table holds it sealed: see `store::sealed`).
        pub secret: Vec<u8>,
        /// `None` while the setup awaits its first code.
        pub enabled_at: Option<i64>,
        pub last_step: i64,
    }
}

/// The second factor's key and its recovery codes.
#[async_trait]
pub trait SecondFactorStore: Send + Sync + 'static {
    async fn second_factor(&self, owner_id: i64) -> anyhow::Result<Option<SecondFactorRow>>;

    /// Stores a new key awaiting its first code, replacing one that awaits its own; false (and
    /// nothing changed) when the second factor is on.
    async fn begin_second_factor(
        &self,
        owner_id: i64,
        secret: &[u8],
        now: i64,
    ) -> anyhow::Result<bool>;

    /// Turns the awaiting key on with the first code's `step` and stores the recovery codes'
    /// hashes (replacing any), in one transaction; false when it was not awaiting, its secret
    /// has changed meanwhile, or a code of `step` was used already.
    async fn enable_second_factor(
        &self,
        owner_id: i64,
        secret: &[u8],
        step: i64,
        code_hashes: &[String],
        now: i64,
    ) -> anyhow::Result<bool>;

    /// Accepts the code of `step` once: true when no code of this step or a later one was
    /// accepted before (and now none can be again).
    async fn use_code_step(&self, owner_id: i64, step: i64) -> anyhow::Result<bool>;

    /// Turns the second factor off: its key and recovery codes are deleted; whether it existed.
    async fn delete_second_factor(&self, owner_id: i64) -> anyhow::Result<bool>;

    /// Replaces the recovery codes with these hashes.
    async fn replace_recovery_codes(
        &self,
        owner_id: i64,
        code_hashes: &[String],
        now: i64,
    ) -> anyhow::Result<()>;

    /// Uses the recovery code with this hash: true for the one request that used it.
    async fn use_recovery_code(
        &self,
        owner_id: i64,
        code_hash: &str,
        now: i64,
    ) -> anyhow::Result<bool>;

    async fn recovery_codes_left(&self, owner_id: i64) -> anyhow::Result<i64>;
}

both_engines! {
    impl SecondFactorStore {
        async fn second_factor(&self, owner_id: i64) -> anyhow::Result<Option<SecondFactorRow>> {
            let row: Option<SecondFactorRow> = sqlx::query_as(
                "SELECT secret, enabled_at, last_step FROM second_factor WHERE owner_id = $1",
            )
            .bind(owner_id)
            .fetch_optional(self.writer())
            .await
            .context("Failed to read the second factor")?;
            let Some(mut row) = row else {
                return Ok(None);
            };
            row.secret = self.sealer()?.open(&second_factor_aad(owner_id), &row.secret)?;
            Ok(Some(row))
        }

        async fn begin_second_factor(
            &self,
            owner_id: i64,
            secret: &[u8],
            now: i64,
        ) -> anyhow::Result<bool> {
            let sealed = self.sealer()?.seal(&second_factor_aad(owner_id), secret)?;
            let stored: Option<i64> = sqlx::query_scalar(
                "INSERT INTO second_factor (owner_id, secret, created_at, enabled_at, last_step) \
                 VALUES ($1, $2, $3, NULL, 0) \
                 ON CONFLICT (owner_id) DO UPDATE SET secret = excluded.secret, \
                     created_at = excluded.created_at, last_step = 0 \
                 WHERE second_factor.enabled_at IS NULL RETURNING owner_id",
            )
            .bind(owner_id)
            .bind(sealed)
            .bind(now)
            .fetch_optional(self.writer())
            .await
            .context("Failed to store a second factor's key")?;
            Ok(stored.is_some())
        }

        async fn enable_second_factor(
            &self,
            owner_id: i64,
            secret: &[u8],
            step: i64,
            code_hashes: &[String],
            now: i64,
        ) -> anyhow::Result<bool> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin turning the second factor on")?;
            // The key is sealed with a fresh nonce each time: the one awaiting is compared
            // opened, and the update takes the very sealed value read.
            let awaiting: Option<Vec<u8>> = sqlx::query_scalar(
                "SELECT secret FROM second_factor WHERE owner_id = $1 AND enabled_at IS NULL",
            )
            .bind(owner_id)
            .fetch_optional(&mut *tx)
            .await
            .context("Failed to read the second factor's key")?;
            let Some(sealed) = awaiting else {
                return Ok(false);
            };
            if self.sealer()?.open(&second_factor_aad(owner_id), &sealed)? != secret {
                return Ok(false);
            }
            let enabled = sqlx::query(
                "UPDATE second_factor SET enabled_at = $1, last_step = $2 \
                 WHERE owner_id = $3 AND secret = $4 AND enabled_at IS NULL AND last_step < $2",
            )
            .bind(now)
            .bind(step)
            .bind(owner_id)
            .bind(&sealed)
            .execute(&mut *tx)
            .await
            .context("Failed to turn the second factor on")?;
            if enabled.rows_affected() != 1 {
                return Ok(false);
            }
            Self::store_recovery_codes(&mut tx, owner_id, code_hashes, now).await?;
            tx.commit()
                .await
                .context("Failed to commit turning the second factor on")?;
            Ok(true)
        }

        async fn use_code_step(&self, owner_id: i64, step: i64) -> anyhow::Result<bool> {
            let result = sqlx::query(
                "UPDATE second_factor SET last_step = $1 \
                 WHERE owner_id = $2 AND enabled_at IS NOT NULL AND last_step < $1",
            )
            .bind(step)
            .bind(owner_id)
            .execute(self.writer())
            .await
            .context("Failed to use a code")?;
            Ok(result.rows_affected() == 1)
        }

        async fn delete_second_factor(&self, owner_id: i64) -> anyhow::Result<bool> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin turning the second factor off")?;
            Self::delete_recovery_codes(&mut tx, owner_id).await?;
            let deleted = sqlx::query("DELETE FROM second_factor WHERE owner_id = $1")
                .bind(owner_id)
                .execute(&mut *tx)
                .await
                .context("Failed to turn the second factor off")?;
            tx.commit()
                .await
                .context("Failed to commit turning the second factor off")?;
            Ok(deleted.rows_affected() == 1)
        }

        async fn replace_recovery_codes(
            &self,
            owner_id: i64,
            code_hashes: &[String],
            now: i64,
        ) -> anyhow::Result<()> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin replacing the recovery codes")?;
            Self::store_recovery_codes(&mut tx, owner_id, code_hashes, now).await?;
            tx.commit()
                .await
                .context("Failed to commit the recovery codes")?;
            Ok(())
        }

        async fn use_recovery_code(
            &self,
            owner_id: i64,
            code_hash: &str,
            now: i64,
        ) -> anyhow::Result<bool> {
            let result = sqlx::query(
                "UPDATE recovery_codes SET used_at = $1 \
                 WHERE owner_id = $2 AND code_hash = $3 AND used_at IS NULL",
            )
            .bind(now)
            .bind(owner_id)
            .bind(code_hash)
            .execute(self.writer())
            .await
            .context("Failed to use a recovery code")?;
            Ok(result.rows_affected() == 1)
        }

        async fn recovery_codes_left(&self, owner_id: i64) -> anyhow::Result<i64> {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM recovery_codes WHERE owner_id = $1 AND used_at IS NULL",
            )
            .bind(owner_id)
            .fetch_one(self.writer())
            .await
            .context("Failed to count the recovery codes")
        }
    }
}
