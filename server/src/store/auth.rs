//! What the owner's other ways in need from storage: the session list, pending sign-ins (a
//! password that waits for its code), the second factor and its recovery codes, passkeys, the
//! WebAuthn ceremonies finished, and password-reset links. Each single-use
//! thing is used up by one statement whose answer says whether this request was the one that
//! used it (`DELETE … RETURNING`, or an `UPDATE` that counts its rows), so that two requests on
//! two instances can never both use it.

use anyhow::Context;
use async_trait::async_trait;

use crate::store::engines::{both_engines, Pools};
use crate::store::sealed::{second_factor_aad, HoldsSealer};

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

/// A table of single-use tokens, each a hash for an owner until it expires: the pending sign-ins
/// and the password-reset links.
struct Tokens {
    table: &'static str,
    /// One of them, as an error names it.
    one: &'static str,
}

const PENDING_SIGN_INS: Tokens = Tokens {
    table: "pending_sign_ins",
    one: "a pending sign-in",
};

const PASSWORD_RESETS: Tokens = Tokens {
    table: "password_resets",
    one: "a password-reset link",
};

const SIGN_OUT_LINKS: Tokens = Tokens {
    table: "sign_out_links",
    one: "a sign-out link",
};

#[async_trait]
pub trait AuthStore: Send + Sync + 'static {
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

    // --- The second factor ---

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

    // --- Password-reset links ---

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

/// The steps the queries below share, written once for both engines.
#[async_trait]
trait AuthSteps: Pools {
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

both_engines! {
    impl AuthStore {
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

        // --- The second factor ---

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

        // --- Password-reset links ---

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
