//! The [`Store`] trait, which every part of the server holds as a [`Db`], and opening one; and its
//! own queries (storing messages, the owner, sessions, the sign-in throttle, secrets), written
//! once for both engines ([`both_engines!`]), with a branch only where the dialects differ and
//! each engine's own way of counting submissions.

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use rand::RngCore;

use super::auth::AuthStore;
use super::content::ContentStore;
use super::delivery::DeliveryStore;
use super::digest::DigestStore;
use super::dump::CopyStore;
use super::engines::{both_engines, Pools};
use super::follow_ups::FollowUpStore;
use super::inbox::InboxStore;
use super::insights::InsightsStore;
use super::links::LinkStore;
use super::media::MediaStore;
use super::model::*;
use super::ops::OpsStore;
use super::replies::ReplyStore;
use super::sealed::{self, HoldsSealer, SealStore};
use super::{postgres, spam, sqlite};
use crate::config::database::{DatabaseUrl, Engine};
use crate::rate_limit::{RateLimit, SubmissionLimiter};

/// The store every part of the server shares.
pub type Db = Arc<dyn Store>;

/// Opens the database the URL names (creating a SQLite file and its folder when missing) and
/// applies that engine's embedded migrations. Errors name the `database-url` setting and never
/// show a password.
pub async fn connect(url: &str) -> anyhow::Result<Db> {
    connect_tuned(url, sqlite::SqliteTuning::default()).await
}

/// [`connect`], with SQLite opened as `tuning` says (ignored on PostgreSQL).
pub async fn connect_tuned(url: &str, tuning: sqlite::SqliteTuning) -> anyhow::Result<Db> {
    let url = DatabaseUrl::parse(url)?;
    Ok(match url.engine() {
        Engine::Sqlite => Arc::new(sqlite::SqliteStore::connect(&url, tuning).await?),
        Engine::Postgres => Arc::new(postgres::PgStore::connect(&url).await?),
    })
}

/// What the application needs from storage.
#[async_trait]
pub trait Store:
    spam::SpamStore
    + AuthStore
    + CopyStore
    + OpsStore
    + DeliveryStore
    + InboxStore
    + InsightsStore
    + LinkStore
    + FollowUpStore
    + DigestStore
    + ContentStore
    + MediaStore
    + ReplyStore
    + SealStore
    + Send
    + Sync
    + 'static
{
    /// `sqlite` or `postgres`, for logs and messages.
    fn engine(&self) -> Engine;

    /// Answers when the database does.
    async fn ping(&self) -> anyhow::Result<()>;

    /// Waits for open work and closes every connection.
    async fn close(&self);

    /// Whether [`Store::close`] has run.
    fn is_closed(&self) -> bool;

    // --- Contact messages and the notification outbox ---

    /// Stores a message and, when asked and unless it is spam, its notification in the outbox, in
    /// one transaction that also uses up its proofs ([`UsedProofs`]) and, for the first
    /// message the ceiling holds in an hour, queues the owner's notice of it (kind `ceiling`).
    /// Returns the new message's id once the transaction is committed (on disk).
    async fn insert_message(&self, new: &NewMessage<'_>) -> anyhow::Result<Inserted>;

    /// What group commit has done (see `store::group_commit`); both engines batch contact
    /// messages.
    fn group_commit_stats(&self) -> Option<GroupCommitStats> {
        None
    }

    /// Counts one contact submission from a client (a salted hash of its address) against
    /// `limits` (the same on every call of a process); when over one, how long until the next
    /// submission is allowed. Counted where every instance on this database sees it: in memory
    /// for SQLite (one instance), in a table for PostgreSQL.
    async fn take_submission_slot(
        &self,
        client_key: &str,
        limits: &[RateLimit],
        now: i64,
    ) -> anyhow::Result<Option<Duration>>;

    // --- The owner account ---

    async fn owner_exists(&self) -> anyhow::Result<bool>;

    /// The owner, found by e-mail ignoring case.
    async fn find_owner_by_email(&self, email: &str) -> anyhow::Result<Option<OwnerRow>>;

    async fn find_owner_by_id(&self, id: i64) -> anyhow::Result<Option<OwnerRow>>;

    /// Creates the owner or, with `replace`, replaces the owner's e-mail and password. The
    /// owner's id when written; `None` when an owner exists and `replace` is false.
    async fn save_owner(
        &self,
        email: &str,
        password_hash: &str,
        now: i64,
        replace: bool,
    ) -> anyhow::Result<Option<i64>>;

    async fn set_owner_password(
        &self,
        id: i64,
        password_hash: &str,
        now: i64,
    ) -> anyhow::Result<()>;

    // --- Sessions (stored by the hash of their token) ---

    async fn insert_session(&self, session: &NewSession<'_>) -> anyhow::Result<()>;

    /// The session with this token hash, with its owner, if it has expired in neither way.
    async fn find_valid_session(
        &self,
        token_hash: &str,
        now: i64,
    ) -> anyhow::Result<Option<SessionRow>>;

    /// Pushes the idle expiry forward (never past the absolute one).
    async fn touch_session(
        &self,
        token_hash: &str,
        now: i64,
        idle_expires_at: i64,
    ) -> anyhow::Result<()>;

    async fn delete_session(&self, token_hash: &str) -> anyhow::Result<()>;

    /// Deletes every session of the owner but `keep` (when given); returns how many.
    async fn delete_owner_sessions(&self, owner_id: i64, keep: Option<&str>)
        -> anyhow::Result<u64>;

    async fn delete_expired_sessions(&self, now: i64) -> anyhow::Result<()>;

    // --- The sign-in throttle's counters ---

    async fn sign_in_failures(&self, key: &str) -> anyhow::Result<Option<FailureRow>>;

    /// Counts one sign-in attempt for the key in one statement, before its password is checked.
    /// While the key is locked, nothing changes and the attempt is not admitted. Otherwise it is
    /// admitted and the count goes up by one (starting again from one when the last attempt is
    /// `forget_after_ms` old); from `free_failures` on, the key is locked for
    /// `first_lock_ms << (count - free_failures)`, at most `max_lock_ms`, from this attempt on.
    /// Parallel calls each count, on every instance, so at most the free ones are admitted.
    async fn count_sign_in_attempt(
        &self,
        key: &str,
        now: i64,
        policy: &ThrottlePolicy,
    ) -> anyhow::Result<AttemptCount>;

    /// Forgets the counters whose last attempt is older than `before` and that lock nothing.
    async fn purge_sign_in_failures(&self, before: i64, now: i64) -> anyhow::Result<u64>;

    async fn clear_sign_in_failures(&self, keys: &[&str]) -> anyhow::Result<()>;

    async fn clear_all_sign_in_failures(&self) -> anyhow::Result<()>;

    // --- The server's own secrets ---

    /// The named secret, made from 32 random bytes the first time any instance asks for it;
    /// stored sealed under the secret key, the name as associated data (see [`sealed`]), but for
    /// the few values that are no secret ([`sealed::NOT_SEALED`]). An error before start-up has
    /// given the store its key.
    async fn secret(&self, name: &str) -> anyhow::Result<Vec<u8>>;
}

/// The sign-in throttle's one statement, in each dialect: SQLite's two-argument `min` is
/// PostgreSQL's `LEAST`, and PostgreSQL shifts a `bigint` by an `int`.
macro_rules! attempt_sql {
    ($least:literal, $one:literal, $int:literal) => {
        concat!(
            "INSERT INTO sign_in_failures (key, failures, last_failure_at, locked_until, prev_locked_until) \
             VALUES ($1, 1, $2, CASE WHEN 1 >= $4 THEN $2 + $5 ELSE 0 END, 0) \
             ON CONFLICT (key) DO UPDATE SET \
                 failures = CASE WHEN sign_in_failures.locked_until > $2 THEN sign_in_failures.failures ELSE CASE WHEN $2 - sign_in_failures.last_failure_at >= $3 THEN 1 ELSE sign_in_failures.failures + 1 END END, \
                 last_failure_at = CASE WHEN sign_in_failures.locked_until > $2 THEN sign_in_failures.last_failure_at ELSE $2 END, \
                 prev_locked_until = sign_in_failures.locked_until, \
                 locked_until = CASE WHEN sign_in_failures.locked_until > $2 THEN sign_in_failures.locked_until \
                     WHEN CASE WHEN $2 - sign_in_failures.last_failure_at >= $3 THEN 1 ELSE sign_in_failures.failures + 1 END >= $4 THEN $2 + ",
            $least,
            "($6, $5 * (",
            $one,
            " << ",
            $least,
            "(CASE WHEN $2 - sign_in_failures.last_failure_at >= $3 THEN 1 ELSE sign_in_failures.failures + 1 END - $4, 20)",
            $int,
            ")) \
                     ELSE sign_in_failures.locked_until END \
             RETURNING failures, locked_until, prev_locked_until"
        )
    };
}

both_engines! {
    impl Store {
        async fn close(&self) {
            // On PostgreSQL both are the one pool: closing it twice is harmless.
            self.reader().close().await;
            self.writer().close().await;
        }

        fn engine(&self) -> Engine {
            Self::ENGINE
        }

        async fn ping(&self) -> anyhow::Result<()> {
            sqlx::query("SELECT 1")
                .execute(self.reader())
                .await
                .with_context(|| format!("{} does not answer", Self::ENGINE))?;
            Ok(())
        }

        fn is_closed(&self) -> bool {
            self.writer().is_closed()
        }

        async fn insert_message(&self, new: &NewMessage<'_>) -> anyhow::Result<Inserted> {
            self.group_commit.insert(new).await
        }

        fn group_commit_stats(&self) -> Option<GroupCommitStats> {
            Some(self.group_commit.stats())
        }

        // --- The owner account ---

        async fn owner_exists(&self) -> anyhow::Result<bool> {
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM owner")
                .fetch_one(self.reader())
                .await
                .context("Failed to count owners")?;
            Ok(count > 0)
        }

        async fn find_owner_by_email(&self, email: &str) -> anyhow::Result<Option<OwnerRow>> {
            // Compared folded by Rust's rules on both sides: the table holds one row.
            let owner: Option<OwnerRow> =
                sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE id = 1")
                    .fetch_optional(self.reader())
                    .await
                    .context("Failed to look up the owner by e-mail")?;
            Ok(owner.filter(|o| o.email.to_lowercase() == email.to_lowercase()))
        }

        async fn find_owner_by_id(&self, id: i64) -> anyhow::Result<Option<OwnerRow>> {
            sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE id = $1")
                .bind(id)
                .fetch_optional(self.reader())
                .await
                .context("Failed to look up the owner")
        }

        async fn save_owner(
            &self,
            email: &str,
            password_hash: &str,
            now: i64,
            replace: bool,
        ) -> anyhow::Result<Option<i64>> {
            sqlx::query_scalar(if replace {
                "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (1, $1, $2, $3, $3) \
                 ON CONFLICT (id) DO UPDATE SET email = excluded.email, \
                     password_hash = excluded.password_hash, updated_at = excluded.updated_at RETURNING id"
            } else {
                "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (1, $1, $2, $3, $3) \
                 ON CONFLICT (id) DO NOTHING RETURNING id"
            })
            .bind(email)
            .bind(password_hash)
            .bind(now)
            .fetch_optional(self.writer())
            .await
            .context("Failed to save the owner")
        }

        async fn set_owner_password(
            &self,
            id: i64,
            password_hash: &str,
            now: i64,
        ) -> anyhow::Result<()> {
            sqlx::query("UPDATE owner SET password_hash = $1, updated_at = $2 WHERE id = $3")
                .bind(password_hash)
                .bind(now)
                .bind(id)
                .execute(self.writer())
                .await
                .context("Failed to change the owner's password")?;
            Ok(())
        }

        // --- Sessions ---

        async fn insert_session(&self, session: &NewSession<'_>) -> anyhow::Result<()> {
            sqlx::query(
                "INSERT INTO sessions (token_hash, owner_id, created_at, last_seen_at, idle_expires_at, \
                     absolute_expires_at, browser, device, method, reauthenticated_at, passkey_id)
                 VALUES ($1, $2, $3, $3, $4, $5, $6, $7, $8, $3, $9)",
            )
            .bind(session.token_hash)
            .bind(session.owner_id)
            .bind(session.now)
            .bind(session.idle_expires_at)
            .bind(session.absolute_expires_at)
            .bind(session.browser)
            .bind(session.device)
            .bind(session.method)
            .bind(session.passkey_id)
            .execute(self.writer())
            .await
            .context("Failed to store a session")?;
            Ok(())
        }

        async fn find_valid_session(
            &self,
            token_hash: &str,
            now: i64,
        ) -> anyhow::Result<Option<SessionRow>> {
            sqlx::query_as(
                "SELECT s.owner_id, o.email, s.last_seen_at, s.absolute_expires_at, s.reauthenticated_at
                 FROM sessions s JOIN owner o ON o.id = s.owner_id
                 WHERE s.token_hash = $1 AND s.idle_expires_at > $2 AND s.absolute_expires_at > $3",
            )
            .bind(token_hash)
            .bind(now)
            .bind(now)
            .fetch_optional(self.reader())
            .await
            .context("Failed to look up a session")
        }

        async fn touch_session(
            &self,
            token_hash: &str,
            now: i64,
            idle_expires_at: i64,
        ) -> anyhow::Result<()> {
            sqlx::query(
                "UPDATE sessions SET last_seen_at = $1, idle_expires_at = \
                 CASE WHEN $2 < absolute_expires_at THEN $2 ELSE absolute_expires_at END \
                 WHERE token_hash = $3",
            )
            .bind(now)
            .bind(idle_expires_at)
            .bind(token_hash)
            .execute(self.writer())
            .await
            .context("Failed to renew a session")?;
            Ok(())
        }

        async fn delete_session(&self, token_hash: &str) -> anyhow::Result<()> {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .execute(self.writer())
                .await
                .context("Failed to delete a session")?;
            Ok(())
        }

        async fn delete_owner_sessions(
            &self,
            owner_id: i64,
            keep: Option<&str>,
        ) -> anyhow::Result<u64> {
            let result = sqlx::query(
                "DELETE FROM sessions WHERE owner_id = $1 AND token_hash IS DISTINCT FROM $2",
            )
            .bind(owner_id)
            .bind(keep)
            .execute(self.writer())
            .await
            .context("Failed to delete the owner's sessions")?;
            Ok(result.rows_affected())
        }

        async fn delete_expired_sessions(&self, now: i64) -> anyhow::Result<()> {
            sqlx::query(
                "DELETE FROM sessions WHERE idle_expires_at <= $1 OR absolute_expires_at <= $2",
            )
            .bind(now)
            .bind(now)
            .execute(self.writer())
            .await
            .context("Failed to delete expired sessions")?;
            Ok(())
        }

        // --- The sign-in throttle ---

        async fn sign_in_failures(&self, key: &str) -> anyhow::Result<Option<FailureRow>> {
            sqlx::query_as(
                "SELECT failures, last_failure_at, locked_until FROM sign_in_failures WHERE key = $1",
            )
            .bind(key)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read the sign-in failures")
        }

        async fn count_sign_in_attempt(
            &self,
            key: &str,
            now: i64,
            policy: &ThrottlePolicy,
        ) -> anyhow::Result<AttemptCount> {
            let mut count: AttemptCount = sqlx::query_as(Self::dialect(
                attempt_sql!("min", "1", ""),
                attempt_sql!("LEAST", "1::bigint", "::int"),
            ))
            .bind(key)
            .bind(now)
            .bind(policy.forget_after_ms)
            .bind(policy.free_failures)
            .bind(policy.first_lock_ms)
            .bind(policy.max_lock_ms)
            .fetch_one(self.writer())
            .await
            .context("Failed to count a sign-in attempt")?;
            count.admitted = count.prev_locked_until <= now;
            Ok(count)
        }

        async fn purge_sign_in_failures(&self, before: i64, now: i64) -> anyhow::Result<u64> {
            let result = sqlx::query(
                "DELETE FROM sign_in_failures WHERE last_failure_at < $1 AND locked_until <= $2",
            )
            .bind(before)
            .bind(now)
            .execute(self.writer())
            .await
            .context("Failed to forget old sign-in failures")?;
            Ok(result.rows_affected())
        }

        async fn clear_sign_in_failures(&self, keys: &[&str]) -> anyhow::Result<()> {
            for key in keys {
                sqlx::query("DELETE FROM sign_in_failures WHERE key = $1")
                    .bind(key)
                    .execute(self.writer())
                    .await
                    .context("Failed to clear sign-in failures")?;
            }
            Ok(())
        }

        async fn clear_all_sign_in_failures(&self) -> anyhow::Result<()> {
            sqlx::query("DELETE FROM sign_in_failures")
                .execute(self.writer())
                .await
                .context("Failed to clear sign-in failures")?;
            Ok(())
        }

        // --- Secrets ---

        async fn secret(&self, name: &str) -> anyhow::Result<Vec<u8>> {
            let sealer = self.sealer()?;
            let sealed = sealed::is_sealed(name);
            let aad = sealed::secret_aad(name);
            let mut fresh = vec![0u8; 32];
            rand::thread_rng().fill_bytes(&mut fresh);
            let fresh = if sealed { sealer.seal(&aad, &fresh)? } else { fresh };
            sqlx::query(
                "INSERT INTO auth_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
            )
            .bind(name)
            .bind(fresh)
            .execute(self.writer())
            .await
            .context("Failed to create a server secret")?;
            let value: Vec<u8> = sqlx::query_scalar("SELECT value FROM auth_secrets WHERE name = $1")
                .bind(name)
                .fetch_one(self.writer())
                .await
                .context("Failed to read a server secret")?;
            if sealed {
                sealer.open(&aad, &value)
            } else {
                Ok(value)
            }
        }
    }
    sqlite {
        async fn take_submission_slot(
            &self,
            client_key: &str,
            limits: &[RateLimit],
            _now: i64,
        ) -> anyhow::Result<Option<Duration>> {
            let limiter = self.limiter.get_or_init(|| SubmissionLimiter::new(limits));
            Ok(limiter.check(client_key).err())
        }
    }
    postgres {
        async fn take_submission_slot(
            &self,
            client_key: &str,
            limits: &[RateLimit],
            now: i64,
        ) -> anyhow::Result<Option<Duration>> {
            self.count_submission(client_key, limits, now).await
        }
    }
}

/// Probes the store (its readiness, then a small write) every
/// [`super::health::PROBE_EVERY_WHILE_READY`], and every
/// [`super::health::PROBE_EVERY_WHILE_FAILING`] while it fails, until the store closes.
pub fn start_probe(db: Db) {
    tokio::spawn(async move {
        loop {
            let health = db.health();
            let wait = if health.is_ready() {
                super::health::PROBE_EVERY_WHILE_READY
            } else {
                super::health::PROBE_EVERY_WHILE_FAILING
            };
            tokio::select! {
                () = tokio::time::sleep(wait) => {}
                // A failed write: start probing at the faster pace now.
                () = health.failed.notified() => {
                    tokio::time::sleep(super::health::PROBE_EVERY_WHILE_FAILING).await;
                }
            }
            if db.is_closed() {
                break;
            }
            let result = probe(&db).await;
            if db.is_closed() {
                break;
            }
            db.health().probed(result);
        }
    });
}

async fn probe(db: &Db) -> anyhow::Result<()> {
    let checks = async {
        db.readiness().await?;
        db.probe_write().await
    };
    tokio::time::timeout(Duration::from_secs(5), checks)
        .await
        .map_err(|_| anyhow::anyhow!("the database did not answer within 5 s"))?
}
