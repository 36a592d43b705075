//! The store on PostgreSQL: one database that several instances share, on a host whose own disk
//! may be thrown away. A 201 still means committed: the server keeps PostgreSQL's default
//! `synchronous_commit = on`, so a commit is flushed to the server's WAL before it returns.

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use rand::RngCore;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{PgPool, Postgres, QueryBuilder};

use super::model::*;
use super::{DatabaseUrl, Engine, Store};
use crate::contact::rate_limit::RateLimit;
use crate::domain::FORM_NAME;

pub struct PgStore {
    pub(super) pool: PgPool,
    /// When this instance next forgets the contact counts whose windows have ended (Unix ms).
    next_limit_purge: std::sync::atomic::AtomicI64,
    pub(super) health: super::health::StorageHealth,
}

/// How often an instance forgets the contact counts whose windows have ended.
const LIMIT_PURGE_EVERY_MS: i64 = 60_000;

impl PgStore {
    /// Connects and applies the embedded migrations (sqlx holds an advisory lock meanwhile, so
    /// instances starting together migrate once).
    pub async fn connect(url: &DatabaseUrl) -> anyhow::Result<Self> {
        let shown = url.redacted();
        let options = PgConnectOptions::from_str(url.expose()).map_err(|error| {
            anyhow::anyhow!(
                "database-url: {shown:?} is not a valid PostgreSQL URL ({})",
                scrub(&error.to_string(), url)
            )
        })?;
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(10))
            // A connection is given back to the pool only with no transaction left open on it.
            .after_release(|connection, _| {
                Box::pin(async move {
                    use sqlx::Connection;
                    Ok(!connection.is_in_transaction())
                })
            })
            .connect_with(options)
            .await
            .map_err(|error| {
                anyhow::anyhow!(
                    "database-url: cannot connect to {shown}: {}",
                    scrub(&error.to_string(), url)
                )
            })?;
        sqlx::migrate!("./migrations/postgres")
            .run(&pool)
            .await
            .context("Failed to apply the database migrations")?;
        Ok(Self {
            pool,
            next_limit_purge: std::sync::atomic::AtomicI64::new(0),
            health: Default::default(),
        })
    }

    /// Forgets the contact counts whose windows have ended, at most once a minute per instance
    /// and off the request's path: a request waits for no scan of the table. Rows another
    /// transaction holds are skipped (left for the next purge) rather than waited for: with every
    /// request deleting the ended windows in its own transaction, concurrent submissions from
    /// many clients queued on each other's row locks, and a minute into a burst the rate fell
    /// from about 1,000 to a few a second.
    fn purge_ended_limits(&self, now: i64) {
        use std::sync::atomic::Ordering;
        let due = self.next_limit_purge.load(Ordering::Relaxed);
        if now < due
            || self
                .next_limit_purge
                .compare_exchange(
                    due,
                    now + LIMIT_PURGE_EVERY_MS,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                )
                .is_err()
        {
            return;
        }
        let pool = self.pool.clone();
        tokio::spawn(async move {
            let purged = sqlx::query(
                "DELETE FROM contact_rate_limits WHERE (key, window_ms) IN ( \
                     SELECT key, window_ms FROM contact_rate_limits \
                     WHERE window_start + window_ms < $1 FOR UPDATE SKIP LOCKED)",
            )
            .bind(now)
            .execute(&pool)
            .await;
            if let Err(error) = purged {
                tracing::warn!(%error, "cannot forget ended contact counts; trying again in a minute");
            }
        });
    }
}

/// The driver's own messages, with the URL's password taken out should one quote it.
fn scrub(message: &str, url: &DatabaseUrl) -> String {
    match url::Url::parse(url.expose())
        .ok()
        .and_then(|u| u.password().map(str::to_owned))
    {
        Some(password) if !password.is_empty() => message.replace(&password, "***"),
        _ => message.to_owned(),
    }
}

#[async_trait]
impl Store for PgStore {
    fn engine(&self) -> Engine {
        Engine::Postgres
    }

    async fn ping(&self) -> anyhow::Result<()> {
        sqlx::query("SELECT 1")
            .execute(&self.pool)
            .await
            .context("PostgreSQL does not answer")?;
        Ok(())
    }

    async fn close(&self) {
        self.pool.close().await;
    }

    fn is_closed(&self) -> bool {
        self.pool.is_closed()
    }

    // --- Contact messages and the notification outbox ---

    #[tracing::instrument(skip_all)]
    async fn insert_message(&self, new: &NewMessage<'_>) -> anyhow::Result<Inserted> {
        let form = new.form;
        let mut tx = self
            .pool
            .begin()
            .await
            .context("Failed to begin the contact transaction")?;
        let replayed =
            crate::store::spam::use_up::<sqlx::Postgres>(&mut tx, &new.proofs, new.created_at)
                .await?;
        let reason = new.spam_reason.or(replayed.map(|reason| reason.code()));
        let id: i64 = sqlx::query_scalar(
            "INSERT INTO contact_messages \
             (name, email, subject, message, form_name, created_at, is_spam, spam_reason, user_agent, search_text) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) RETURNING id",
        )
        .bind(form.name.as_str())
        .bind(form.email.as_str())
        .bind(form.subject.as_str())
        .bind(form.message.as_str())
        .bind(FORM_NAME)
        .bind(new.created_at)
        .bind(reason.is_some())
        .bind(reason)
        .bind(new.user_agent)
        .bind(search_text(
            form.name.as_str(),
            form.email.as_str(),
            form.subject.as_str(),
            form.message.as_str(),
        ))
        .fetch_one(&mut *tx)
        .await
        .context("Failed to insert the contact message")?;
        let channels: &[String] = if new.notify { new.channels } else { &[] };
        if reason.is_none() {
            for channel in channels {
                sqlx::query(
                    "INSERT INTO notification_outbox (message_id, channel, next_attempt_at, created_at) \
                     VALUES ($1, $2, $3, $4)",
                )
                .bind(id)
                .bind(channel)
                .bind(new.created_at)
                .bind(new.created_at)
                .execute(&mut *tx)
                .await
                .context("Failed to queue the notification")?;
            }
        } else if reason == Some(crate::domain::SpamReason::Ceiling.code()) {
            crate::store::spam::queue_ceiling_notice::<sqlx::Postgres>(
                &mut tx,
                ceiling_hour(new.created_at),
                channels,
                new.created_at,
            )
            .await?;
        }
        tx.commit()
            .await
            .context("Failed to commit the contact message")?;
        Ok(Inserted {
            id,
            replayed: replayed.filter(|_| new.spam_reason.is_none()),
        })
    }

    #[tracing::instrument(skip_all)]
    async fn messages_for_export(&self) -> anyhow::Result<Vec<ExportRow>> {
        sqlx::query_as(
            "SELECT name, email, subject, message, form_name, created_at FROM contact_messages \
             WHERE is_spam = FALSE AND deleted_at IS NULL ORDER BY created_at, id",
        )
        .fetch_all(&self.pool)
        .await
        .context("Failed to read the contact messages")
    }

    #[tracing::instrument(skip_all)]
    async fn take_submission_slot(
        &self,
        client_key: &str,
        limits: &[RateLimit],
        now: i64,
    ) -> anyhow::Result<Option<Duration>> {
        // Fixed windows per limit, each counted in one statement, in one transaction.
        let mut tx = self
            .pool
            .begin()
            .await
            .context("Failed to begin counting a submission")?;
        for limit in limits {
            let window = i64::try_from(limit.window.as_millis()).unwrap_or(i64::MAX);
            let start = now - now.rem_euclid(window);
            let hits: i64 = sqlx::query_scalar(
                "INSERT INTO contact_rate_limits (key, window_ms, window_start, hits) VALUES ($1, $2, $3, 1) \
                 ON CONFLICT (key, window_ms) DO UPDATE SET \
                     hits = CASE WHEN contact_rate_limits.window_start = excluded.window_start \
                                 THEN contact_rate_limits.hits + 1 ELSE 1 END, \
                     window_start = excluded.window_start \
                 RETURNING hits",
            )
            .bind(client_key)
            .bind(window)
            .bind(start)
            .fetch_one(&mut *tx)
            .await
            .context("Failed to count a submission")?;
            if hits > i64::from(limit.max) {
                tx.commit()
                    .await
                    .context("Failed to commit the submission count")?;
                let wait = u64::try_from(start + window - now).unwrap_or(1);
                return Ok(Some(Duration::from_millis(wait.max(1))));
            }
        }
        tx.commit()
            .await
            .context("Failed to commit the submission count")?;
        self.purge_ended_limits(now);
        Ok(None)
    }

    // --- The owner's inbox ---

    #[tracing::instrument(skip(self, search))]
    async fn list_messages(
        &self,
        folder: Folder,
        search: Option<&str>,
        cursor: Option<Cursor>,
        limit: i64,
    ) -> anyhow::Result<Vec<MessageRow>> {
        let mut query: QueryBuilder<Postgres> = QueryBuilder::new("SELECT ");
        query.push(MESSAGE_COLUMNS);
        query.push(" FROM contact_messages WHERE ");
        query.push(folder.condition());
        if let Some(search) = search {
            query.push(" AND strpos(search_text, ");
            query.push_bind(search_needle(search));
            query.push(") > 0");
        }
        if let Some(cursor) = cursor {
            query.push(" AND (created_at < ");
            query.push_bind(cursor.created_at);
            query.push(" OR (created_at = ");
            query.push_bind(cursor.created_at);
            query.push(" AND id < ");
            query.push_bind(cursor.id);
            query.push("))");
        }
        query.push(" ORDER BY created_at DESC, id DESC LIMIT ");
        query.push_bind(limit + 1);
        query
            .build_query_as()
            .fetch_all(&self.pool)
            .await
            .context("Failed to list contact messages")
    }

    #[tracing::instrument(skip(self))]
    async fn unread_count(&self) -> anyhow::Result<i64> {
        sqlx::query_scalar(
            "SELECT COUNT(*) FROM contact_messages \
             WHERE is_spam = FALSE AND deleted_at IS NULL AND is_read = FALSE",
        )
        .fetch_one(&self.pool)
        .await
        .context("Failed to count unread messages")
    }

    #[tracing::instrument(skip(self))]
    async fn find_message(&self, id: i64) -> anyhow::Result<Option<MessageRow>> {
        sqlx::query_as(&format!(
            "SELECT {MESSAGE_COLUMNS} FROM contact_messages WHERE id = $1"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .context("Failed to read a contact message")
    }

    #[tracing::instrument(skip(self))]
    async fn update_message(&self, id: i64, change: MessageChange) -> anyhow::Result<bool> {
        let mut query: QueryBuilder<Postgres> =
            QueryBuilder::new("UPDATE contact_messages SET id = id");
        if let Some(is_read) = change.is_read {
            query.push(", is_read = ");
            query.push_bind(is_read);
        }
        if let Some(is_spam) = change.is_spam {
            query.push(", is_spam = ");
            query.push_bind(is_spam);
        }
        if let Some(deleted_at) = change.deleted_at {
            query.push(", deleted_at = ");
            query.push_bind(deleted_at);
        }
        query.push(" WHERE id = ");
        query.push_bind(id);
        let result = query
            .build()
            .execute(&self.pool)
            .await
            .context("Failed to update a contact message")?;
        Ok(result.rows_affected() == 1)
    }

    #[tracing::instrument(skip(self))]
    async fn delete_message(&self, id: i64) -> anyhow::Result<bool> {
        let result = sqlx::query("DELETE FROM contact_messages WHERE id = $1")
            .bind(id)
            .execute(&self.pool)
            .await
            .context("Failed to delete a contact message")?;
        Ok(result.rows_affected() == 1)
    }

    // --- The owner account ---

    #[tracing::instrument(skip(self))]
    async fn owner_exists(&self) -> anyhow::Result<bool> {
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM owner")
            .fetch_one(&self.pool)
            .await
            .context("Failed to count owners")?;
        Ok(count > 0)
    }

    #[tracing::instrument(skip_all)]
    async fn find_owner_by_email(&self, email: &str) -> anyhow::Result<Option<OwnerRow>> {
        // Compared folded by Rust's rules on both sides: the table holds one row.
        let owner: Option<OwnerRow> =
            sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE id = 1")
                .fetch_optional(&self.pool)
                .await
                .context("Failed to look up the owner by e-mail")?;
        Ok(owner.filter(|o| o.email.to_lowercase() == email.to_lowercase()))
    }

    #[tracing::instrument(skip(self))]
    async fn find_owner_by_id(&self, id: i64) -> anyhow::Result<Option<OwnerRow>> {
        sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE id = $1")
            .bind(id)
            .fetch_optional(&self.pool)
            .await
            .context("Failed to look up the owner")
    }

    #[tracing::instrument(skip_all)]
    async fn upsert_owner(
        &self,
        email: &str,
        password_hash: &str,
        now: i64,
    ) -> anyhow::Result<i64> {
        sqlx::query(
            "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (1, $1, $2, $3, $4)
             ON CONFLICT (id) DO UPDATE SET email = excluded.email,
                 password_hash = excluded.password_hash, updated_at = excluded.updated_at",
        )
        .bind(email)
        .bind(password_hash)
        .bind(now)
        .bind(now)
        .execute(&self.pool)
        .await
        .context("Failed to save the owner")?;
        Ok(1)
    }

    #[tracing::instrument(skip_all)]
    async fn insert_owner_if_none(
        &self,
        email: &str,
        password_hash: &str,
        now: i64,
    ) -> anyhow::Result<bool> {
        let result = sqlx::query(
            "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (1, $1, $2, $3, $4)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(email)
        .bind(password_hash)
        .bind(now)
        .bind(now)
        .execute(&self.pool)
        .await
        .context("Failed to create the owner")?;
        Ok(result.rows_affected() == 1)
    }

    #[tracing::instrument(skip(self, password_hash))]
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
            .execute(&self.pool)
            .await
            .context("Failed to change the owner's password")?;
        Ok(())
    }

    // --- Sessions ---

    #[tracing::instrument(skip_all)]
    async fn insert_session(&self, session: &NewSession<'_>) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, owner_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at)
             VALUES ($1, $2, $3, $4, $5, $6)",
        )
        .bind(session.token_hash)
        .bind(session.owner_id)
        .bind(session.now)
        .bind(session.now)
        .bind(session.idle_expires_at)
        .bind(session.absolute_expires_at)
        .execute(&self.pool)
        .await
        .context("Failed to store a session")?;
        Ok(())
    }

    #[tracing::instrument(skip(self, token_hash))]
    async fn find_valid_session(
        &self,
        token_hash: &str,
        now: i64,
    ) -> anyhow::Result<Option<SessionRow>> {
        sqlx::query_as(
            "SELECT s.owner_id, o.email, s.last_seen_at, s.absolute_expires_at
             FROM sessions s JOIN owner o ON o.id = s.owner_id
             WHERE s.token_hash = $1 AND s.idle_expires_at > $2 AND s.absolute_expires_at > $3",
        )
        .bind(token_hash)
        .bind(now)
        .bind(now)
        .fetch_optional(&self.pool)
        .await
        .context("Failed to look up a session")
    }

    #[tracing::instrument(skip(self, token_hash))]
    async fn touch_session(
        &self,
        token_hash: &str,
        now: i64,
        idle_expires_at: i64,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE sessions SET last_seen_at = $1, idle_expires_at = LEAST($2, absolute_expires_at)
             WHERE token_hash = $3",
        )
        .bind(now)
        .bind(idle_expires_at)
        .bind(token_hash)
        .execute(&self.pool)
        .await
        .context("Failed to renew a session")?;
        Ok(())
    }

    #[tracing::instrument(skip_all)]
    async fn delete_session(&self, token_hash: &str) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await
            .context("Failed to delete a session")?;
        Ok(())
    }

    #[tracing::instrument(skip(self, keep))]
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
        .execute(&self.pool)
        .await
        .context("Failed to delete the owner's sessions")?;
        Ok(result.rows_affected())
    }

    #[tracing::instrument(skip(self))]
    async fn delete_expired_sessions(&self, now: i64) -> anyhow::Result<()> {
        sqlx::query(
            "DELETE FROM sessions WHERE idle_expires_at <= $1 OR absolute_expires_at <= $2",
        )
        .bind(now)
        .bind(now)
        .execute(&self.pool)
        .await
        .context("Failed to delete expired sessions")?;
        Ok(())
    }

    // --- The sign-in throttle ---

    #[tracing::instrument(skip(self, key))]
    async fn sign_in_failures(&self, key: &str) -> anyhow::Result<Option<FailureRow>> {
        sqlx::query_as(
            "SELECT failures, last_failure_at, locked_until FROM sign_in_failures WHERE key = $1",
        )
        .bind(key)
        .fetch_optional(&self.pool)
        .await
        .context("Failed to read the sign-in failures")
    }

    #[tracing::instrument(skip(self, key, policy))]
    async fn count_sign_in_attempt(
        &self,
        key: &str,
        now: i64,
        policy: &ThrottlePolicy,
    ) -> anyhow::Result<AttemptCount> {
        let mut count: AttemptCount = sqlx::query_as(
            "INSERT INTO sign_in_failures (key, failures, last_failure_at, locked_until, prev_locked_until) \
             VALUES ($1, 1, $2, CASE WHEN 1 >= $4 THEN $2 + $5 ELSE 0 END, 0) \
             ON CONFLICT (key) DO UPDATE SET \
                 failures = CASE WHEN sign_in_failures.locked_until > $2 THEN sign_in_failures.failures ELSE CASE WHEN $2 - sign_in_failures.last_failure_at >= $3 THEN 1 ELSE sign_in_failures.failures + 1 END END, \
                 last_failure_at = CASE WHEN sign_in_failures.locked_until > $2 THEN sign_in_failures.last_failure_at ELSE $2 END, \
                 prev_locked_until = sign_in_failures.locked_until, \
                 locked_until = CASE WHEN sign_in_failures.locked_until > $2 THEN sign_in_failures.locked_until \
                     WHEN CASE WHEN $2 - sign_in_failures.last_failure_at >= $3 THEN 1 ELSE sign_in_failures.failures + 1 END >= $4 THEN $2 + LEAST($6, $5 * (1::bigint << LEAST(CASE WHEN $2 - sign_in_failures.last_failure_at >= $3 THEN 1 ELSE sign_in_failures.failures + 1 END - $4, 20)::int)) \
                     ELSE sign_in_failures.locked_until END \
             RETURNING failures, locked_until, prev_locked_until",
        )
        .bind(key)
        .bind(now)
        .bind(policy.forget_after_ms)
        .bind(policy.free_failures)
        .bind(policy.first_lock_ms)
        .bind(policy.max_lock_ms)
        .fetch_one(&self.pool)
        .await
        .context("Failed to count a sign-in attempt")?;
        count.admitted = count.prev_locked_until <= now;
        Ok(count)
    }

    #[tracing::instrument(skip(self))]
    async fn purge_sign_in_failures(&self, before: i64, now: i64) -> anyhow::Result<u64> {
        let result = sqlx::query(
            "DELETE FROM sign_in_failures WHERE last_failure_at < $1 AND locked_until <= $2",
        )
        .bind(before)
        .bind(now)
        .execute(&self.pool)
        .await
        .context("Failed to forget old sign-in failures")?;
        Ok(result.rows_affected())
    }

    #[tracing::instrument(skip(self, keys))]
    async fn clear_sign_in_failures(&self, keys: &[&str]) -> anyhow::Result<()> {
        for key in keys {
            sqlx::query("DELETE FROM sign_in_failures WHERE key = $1")
                .bind(key)
                .execute(&self.pool)
                .await
                .context("Failed to clear sign-in failures")?;
        }
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn clear_all_sign_in_failures(&self) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM sign_in_failures")
            .execute(&self.pool)
            .await
            .context("Failed to clear sign-in failures")?;
        Ok(())
    }

    // --- Secrets ---

    #[tracing::instrument(skip(self))]
    async fn secret(&self, name: &str) -> anyhow::Result<Vec<u8>> {
        let mut fresh = vec![0u8; 32];
        rand::thread_rng().fill_bytes(&mut fresh);
        sqlx::query(
            "INSERT INTO auth_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .bind(fresh)
        .execute(&self.pool)
        .await
        .context("Failed to create a server secret")?;
        sqlx::query_scalar("SELECT value FROM auth_secrets WHERE name = $1")
            .bind(name)
            .fetch_one(&self.pool)
            .await
            .context("Failed to read a server secret")
    }

    // --- Moving data ---

    async fn tables(&self) -> anyhow::Result<Vec<String>> {
        sqlx::query_scalar(
            "SELECT table_name::text FROM information_schema.tables \
             WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
             AND table_name NOT LIKE '\\_sqlx\\_%' ORDER BY table_name",
        )
        .fetch_all(&self.pool)
        .await
        .context("Failed to list the tables")
    }

    async fn is_empty(&self) -> anyhow::Result<bool> {
        for table in COPIED_TABLES {
            let any: bool = sqlx::query_scalar(&format!("SELECT EXISTS (SELECT 1 FROM {table})"))
                .fetch_one(&self.pool)
                .await
                .with_context(|| format!("Failed to read {table}"))?;
            if any {
                return Ok(false);
            }
        }
        Ok(true)
    }

    async fn dump(&self) -> anyhow::Result<Dump> {
        let mut tx = self
            .pool
            .begin()
            .await
            .context("Failed to begin the dump")?;
        // One snapshot for every table, so that a dump taken while others write is consistent.
        sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
            .execute(&mut *tx)
            .await
            .context("Failed to begin the dump")?;
        macro_rules! all {
            ($sql:expr) => {
                sqlx::query_as($sql)
                    .fetch_all(&mut *tx)
                    .await
                    .context(concat!("Failed to read: ", $sql))?
            };
        }
        let dump = Dump {
            owner: all!("SELECT id, email, password_hash, created_at, updated_at FROM owner ORDER BY id"),
            contact_messages: all!(
                "SELECT id, name, email, subject, message, form_name, created_at, is_read, is_spam, \
                 spam_reason, deleted_at, user_agent, search_text FROM contact_messages ORDER BY id"
            ),
            notification_outbox: all!(
                "SELECT id, message_id, channel, kind, attempts, next_attempt_at, leased_until, \
                 last_error, sent_at, gave_up_at, created_at FROM notification_outbox ORDER BY id"
            ),
            sessions: all!(
                "SELECT token_hash, owner_id, created_at, last_seen_at, idle_expires_at, \
                 absolute_expires_at FROM sessions ORDER BY token_hash"
            ),
            sign_in_failures: all!(
                "SELECT key, failures, last_failure_at, locked_until, prev_locked_until \
                 FROM sign_in_failures ORDER BY key"
            ),
            auth_secrets: all!("SELECT name, value FROM auth_secrets ORDER BY name"),
            insights_daily: all!(
                "SELECT day, page_views, visitors, resume_downloads FROM insights_daily ORDER BY day"
            ),
            insights_counts: all!(
                "SELECT day, kind, key, count FROM insights_counts ORDER BY day, kind, key"
            ),
            content_draft: all!("SELECT document, revision, updated_at FROM content_draft"),
            content_versions: all!(
                "SELECT version, document, published_at FROM content_versions ORDER BY version"
            ),
            media_items: all!(
                "SELECT id, kind, name, width, height, bytes, created_at FROM media_items ORDER BY id"
            ),
            media_files: all!(
                "SELECT path, media_id, content_type, width, data FROM media_files ORDER BY path"
            ),
            media_resume: all!("SELECT data, sha256, uploaded_at FROM media_resume"),
        };
        tx.commit().await.context("Failed to end the dump")?;
        Ok(dump)
    }

    async fn load(&self, dump: &Dump, replace: bool) -> anyhow::Result<()> {
        let mut tx = self
            .pool
            .begin()
            .await
            .context("Failed to begin the copy")?;
        if replace {
            for table in COPIED_TABLES.iter().rev() {
                sqlx::query(&format!("DELETE FROM {table}"))
                    .execute(&mut *tx)
                    .await
                    .with_context(|| format!("Failed to empty {table}"))?;
            }
        }
        for o in &dump.owner {
            sqlx::query(
                "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(o.id)
            .bind(&o.email)
            .bind(&o.password_hash)
            .bind(o.created_at)
            .bind(o.updated_at)
            .execute(&mut *tx)
            .await
            .context("Failed to copy the owner")?;
        }
        for m in &dump.contact_messages {
            sqlx::query(
                "INSERT INTO contact_messages (id, name, email, subject, message, form_name, created_at, \
                 is_read, is_spam, spam_reason, deleted_at, user_agent, search_text) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
            )
            .bind(m.id)
            .bind(&m.name)
            .bind(&m.email)
            .bind(&m.subject)
            .bind(&m.message)
            .bind(&m.form_name)
            .bind(m.created_at)
            .bind(m.is_read)
            .bind(m.is_spam)
            .bind(&m.spam_reason)
            .bind(m.deleted_at)
            .bind(&m.user_agent)
            .bind(&m.search_text)
            .execute(&mut *tx)
            .await
            .context("Failed to copy a contact message")?;
        }
        for o in &dump.notification_outbox {
            sqlx::query(
                "INSERT INTO notification_outbox (id, message_id, channel, kind, attempts, next_attempt_at, \
                 leased_until, last_error, sent_at, gave_up_at, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)",
            )
            .bind(o.id)
            .bind(o.message_id)
            .bind(&o.channel)
            .bind(&o.kind)
            .bind(o.attempts)
            .bind(o.next_attempt_at)
            .bind(o.leased_until)
            .bind(&o.last_error)
            .bind(o.sent_at)
            .bind(o.gave_up_at)
            .bind(o.created_at)
            .execute(&mut *tx)
            .await
            .context("Failed to copy a notification")?;
        }
        for s in &dump.sessions {
            sqlx::query(
                "INSERT INTO sessions (token_hash, owner_id, created_at, last_seen_at, idle_expires_at, \
                 absolute_expires_at) VALUES ($1, $2, $3, $4, $5, $6)",
            )
            .bind(&s.token_hash)
            .bind(s.owner_id)
            .bind(s.created_at)
            .bind(s.last_seen_at)
            .bind(s.idle_expires_at)
            .bind(s.absolute_expires_at)
            .execute(&mut *tx)
            .await
            .context("Failed to copy a session")?;
        }
        for f in &dump.sign_in_failures {
            sqlx::query(
                "INSERT INTO sign_in_failures (key, failures, last_failure_at, locked_until, prev_locked_until) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&f.key)
            .bind(f.failures)
            .bind(f.last_failure_at)
            .bind(f.locked_until)
            .bind(f.prev_locked_until)
            .execute(&mut *tx)
            .await
            .context("Failed to copy a sign-in counter")?;
        }
        for s in &dump.auth_secrets {
            sqlx::query("INSERT INTO auth_secrets (name, value) VALUES ($1, $2)")
                .bind(&s.name)
                .bind(&s.value)
                .execute(&mut *tx)
                .await
                .context("Failed to copy a server secret")?;
        }
        for d in &dump.insights_daily {
            sqlx::query(
                "INSERT INTO insights_daily (day, page_views, visitors, resume_downloads) VALUES ($1, $2, $3, $4)",
            )
            .bind(&d.day)
            .bind(d.page_views)
            .bind(d.visitors)
            .bind(d.resume_downloads)
            .execute(&mut *tx)
            .await
            .context("Failed to copy a day's insights")?;
        }
        for c in &dump.insights_counts {
            sqlx::query(
                "INSERT INTO insights_counts (day, kind, key, count) VALUES ($1, $2, $3, $4)",
            )
            .bind(&c.day)
            .bind(&c.kind)
            .bind(&c.key)
            .bind(c.count)
            .execute(&mut *tx)
            .await
            .context("Failed to copy an insights count")?;
        }
        for d in &dump.content_draft {
            sqlx::query(
                "INSERT INTO content_draft (id, document, revision, updated_at) VALUES (1, $1, $2, $3)",
            )
            .bind(&d.document)
            .bind(d.revision)
            .bind(d.updated_at)
            .execute(&mut *tx)
            .await
            .context("Failed to copy the content draft")?;
        }
        for v in &dump.content_versions {
            sqlx::query(
                "INSERT INTO content_versions (version, document, published_at) VALUES ($1, $2, $3)",
            )
            .bind(v.version)
            .bind(&v.document)
            .bind(v.published_at)
            .execute(&mut *tx)
            .await
            .context("Failed to copy a content version")?;
        }
        for m in &dump.media_items {
            sqlx::query(
                "INSERT INTO media_items (id, kind, name, width, height, bytes, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7)",
            )
            .bind(&m.id)
            .bind(&m.kind)
            .bind(&m.name)
            .bind(m.width)
            .bind(m.height)
            .bind(m.bytes)
            .bind(m.created_at)
            .execute(&mut *tx)
            .await
            .context("Failed to copy an upload")?;
        }
        for f in &dump.media_files {
            sqlx::query(
                "INSERT INTO media_files (path, media_id, content_type, width, data) VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(&f.path)
            .bind(&f.media_id)
            .bind(&f.content_type)
            .bind(f.width)
            .bind(&f.data)
            .execute(&mut *tx)
            .await
            .context("Failed to copy an uploaded file")?;
        }
        for r in &dump.media_resume {
            sqlx::query(
                "INSERT INTO media_resume (id, data, sha256, uploaded_at) VALUES (1, $1, $2, $3)",
            )
            .bind(&r.data)
            .bind(&r.sha256)
            .bind(r.uploaded_at)
            .execute(&mut *tx)
            .await
            .context("Failed to copy the resume")?;
        }
        // Ids made from now on continue after the highest one copied.
        for table in ["contact_messages", "notification_outbox"] {
            sqlx::query(&format!(
                "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                 COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
            ))
            .execute(&mut *tx)
            .await
            .with_context(|| format!("Failed to move the id sequence of {table}"))?;
        }
        tx.commit().await.context("Failed to commit the copy")?;
        Ok(())
    }
}
