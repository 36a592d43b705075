//! The [`Store`] trait's own queries (messages, the owner, sessions, the sign-in throttle,
//! secrets, `db copy`), written once for both engines ([`both_engines!`]); a branch only where
//! the dialects differ, and each engine's own way of storing a contact message and counting
//! submissions.

use std::time::Duration;

use anyhow::Context;
use rand::RngCore;
use sqlx::QueryBuilder;

use super::dump::*;
use super::engines::{both_engines, Pools};
use super::message::{PendingMessage, StoreMessage};
use super::model::*;
use super::{Engine, Store};
use crate::rate_limit::{RateLimit, SubmissionLimiter};

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

/// Reads every copied table ([`copied_tables!`]) in the transaction `tx`, into a [`Dump`].
macro_rules! read_tables {
    (($tx:ident) $($table:ident: $row:ident [$($column:ident),+] by $order:literal $(fixed $fixed:ident = $value:literal)?;)+) => {
        Dump {
            $($table: sqlx::query_as(concat!("SELECT * FROM ", stringify!($table), " ORDER BY ", $order))
                .fetch_all(&mut *$tx)
                .await
                .context(concat!("Failed to read ", stringify!($table)))?,)+
        }
    };
}

/// Writes every copied table of `dump` in the transaction `tx`, a hundred rows a statement.
macro_rules! write_tables {
    (($tx:ident, $dump:ident) $($table:ident: $row:ident [$first:ident $(, $column:ident)*] by $order:literal $(fixed $fixed:ident = $value:literal)?;)+) => {
        $(for rows in $dump.$table.chunks(100) {
            let mut query: QueryBuilder<<Self as Pools>::Db> = QueryBuilder::new(concat!(
                "INSERT INTO ", stringify!($table), " (", stringify!($first),
                $(", ", stringify!($column),)* $(", ", stringify!($fixed),)? ") "
            ));
            query.push_values(rows, |mut values, row| {
                values.push_bind(&row.$first);
                $(values.push_bind(&row.$column);)*
                $(values.push(stringify!($value));)?
            });
            query
                .build()
                .execute(&mut *$tx)
                .await
                .context(concat!("Failed to copy ", stringify!($table)))?;
        })+
    };
}

both_engines! {
    impl Store {
        async fn close(&self) {
            // On PostgreSQL both are the one pool: closing it twice is harmless.
            self.reader().close().await;
            self.writer().close().await;
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

        #[tracing::instrument(skip_all)]
        async fn messages_for_export(&self) -> anyhow::Result<Vec<ExportRow>> {
            sqlx::query_as(
                "SELECT name, email, subject, message, form_name, created_at FROM contact_messages \
                 WHERE is_spam = FALSE AND deleted_at IS NULL ORDER BY created_at, id",
            )
            .fetch_all(self.reader())
            .await
            .context("Failed to read the contact messages")
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
            let mut query: QueryBuilder<<Self as Pools>::Db> = QueryBuilder::new("SELECT ");
            query.push(MESSAGE_COLUMNS);
            query.push(" FROM contact_messages WHERE ");
            query.push(folder.condition());
            if let Some(search) = search {
                query.push(Self::dialect(
                    " AND instr(search_text, ",
                    " AND strpos(search_text, ",
                ));
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
                .fetch_all(self.reader())
                .await
                .context("Failed to list contact messages")
        }

        #[tracing::instrument(skip(self))]
        async fn unread_count(&self) -> anyhow::Result<i64> {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM contact_messages \
                 WHERE is_spam = FALSE AND deleted_at IS NULL AND is_read = FALSE",
            )
            .fetch_one(self.reader())
            .await
            .context("Failed to count unread messages")
        }

        #[tracing::instrument(skip(self))]
        async fn find_message(&self, id: i64) -> anyhow::Result<Option<MessageRow>> {
            sqlx::query_as(&format!(
                "SELECT {MESSAGE_COLUMNS} FROM contact_messages WHERE id = $1"
            ))
            .bind(id)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read a contact message")
        }

        #[tracing::instrument(skip(self))]
        async fn update_message(&self, id: i64, change: MessageChange) -> anyhow::Result<bool> {
            let mut query: QueryBuilder<<Self as Pools>::Db> =
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
                .execute(self.writer())
                .await
                .context("Failed to update a contact message")?;
            Ok(result.rows_affected() == 1)
        }

        #[tracing::instrument(skip(self))]
        async fn delete_message(&self, id: i64) -> anyhow::Result<bool> {
            let result = sqlx::query("DELETE FROM contact_messages WHERE id = $1")
                .bind(id)
                .execute(self.writer())
                .await
                .context("Failed to delete a contact message")?;
            Ok(result.rows_affected() == 1)
        }

        // --- The owner account ---

        #[tracing::instrument(skip(self))]
        async fn owner_exists(&self) -> anyhow::Result<bool> {
            let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM owner")
                .fetch_one(self.reader())
                .await
                .context("Failed to count owners")?;
            Ok(count > 0)
        }

        #[tracing::instrument(skip_all)]
        async fn find_owner_by_email(&self, email: &str) -> anyhow::Result<Option<OwnerRow>> {
            // Compared folded by Rust's rules on both sides: the table holds one row.
            let owner: Option<OwnerRow> =
                sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE id = 1")
                    .fetch_optional(self.reader())
                    .await
                    .context("Failed to look up the owner by e-mail")?;
            Ok(owner.filter(|o| o.email.to_lowercase() == email.to_lowercase()))
        }

        #[tracing::instrument(skip(self))]
        async fn find_owner_by_id(&self, id: i64) -> anyhow::Result<Option<OwnerRow>> {
            sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE id = $1")
                .bind(id)
                .fetch_optional(self.reader())
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
            .execute(self.writer())
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
            .execute(self.writer())
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
                .execute(self.writer())
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
            .execute(self.writer())
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
            .fetch_optional(self.reader())
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
                Self::dialect(
                    "UPDATE sessions SET last_seen_at = $1, idle_expires_at = min($2, absolute_expires_at) \
                     WHERE token_hash = $3",
                    "UPDATE sessions SET last_seen_at = $1, idle_expires_at = LEAST($2, absolute_expires_at) \
                     WHERE token_hash = $3",
                ),
            )
            .bind(now)
            .bind(idle_expires_at)
            .bind(token_hash)
            .execute(self.writer())
            .await
            .context("Failed to renew a session")?;
            Ok(())
        }

        #[tracing::instrument(skip_all)]
        async fn delete_session(&self, token_hash: &str) -> anyhow::Result<()> {
            sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
                .bind(token_hash)
                .execute(self.writer())
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
            .execute(self.writer())
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
            .execute(self.writer())
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
            .fetch_optional(self.reader())
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

        #[tracing::instrument(skip(self))]
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

        #[tracing::instrument(skip(self, keys))]
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

        #[tracing::instrument(skip(self))]
        async fn clear_all_sign_in_failures(&self) -> anyhow::Result<()> {
            sqlx::query("DELETE FROM sign_in_failures")
                .execute(self.writer())
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
            .execute(self.writer())
            .await
            .context("Failed to create a server secret")?;
            sqlx::query_scalar("SELECT value FROM auth_secrets WHERE name = $1")
                .bind(name)
                .fetch_one(self.writer())
                .await
                .context("Failed to read a server secret")
        }

        // --- Moving data ---

        async fn tables(&self) -> anyhow::Result<Vec<String>> {
            sqlx::query_scalar(
                Self::dialect(
                    "SELECT name FROM sqlite_master WHERE type = 'table' \
                     AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_sqlx\\_%' ESCAPE '\\' \
                     ORDER BY name",
                    "SELECT table_name::text FROM information_schema.tables \
                     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
                     AND table_name NOT LIKE '\\_sqlx\\_%' ORDER BY table_name",
                ),
            )
            .fetch_all(self.reader())
            .await
            .context("Failed to list the tables")
        }

        async fn is_empty(&self) -> anyhow::Result<bool> {
            for table in COPIED_TABLES {
                let any: bool = sqlx::query_scalar(&format!("SELECT EXISTS (SELECT 1 FROM {table})"))
                    .fetch_one(self.reader())
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
                .reader()
                .begin()
                .await
                .context("Failed to begin the dump")?;
            // One snapshot for every table, so that a dump taken while others write is consistent.
            if Self::ENGINE == Engine::Postgres {
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(&mut *tx)
                    .await
                    .context("Failed to begin the dump")?;
            }
            let dump = copied_tables!(read_tables, tx);
            tx.commit().await.context("Failed to end the dump")?;
            Ok(dump)
        }

        async fn load(&self, dump: &Dump, replace: bool) -> anyhow::Result<()> {
            let mut tx = self
                .writer()
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
            copied_tables!(write_tables, tx, dump);
            // Ids made from now on continue after the highest one copied (on SQLite,
            // AUTOINCREMENT's counters follow the highest ids inserted by themselves).
            if Self::ENGINE == Engine::Postgres {
                for table in ["contact_messages", "notification_outbox"] {
                    sqlx::query(&format!(
                        "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                         COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                    ))
                    .execute(&mut *tx)
                    .await
                    .with_context(|| format!("Failed to move the id sequence of {table}"))?;
                }
            }
            tx.commit().await.context("Failed to commit the copy")?;
            Ok(())
        }
    }
    sqlite {
        fn engine(&self) -> Engine {
            Engine::Sqlite
        }

        #[tracing::instrument(skip_all)]
        async fn insert_message(&self, new: &NewMessage<'_>) -> anyhow::Result<Inserted> {
            self.group_commit.insert(new).await
        }

        fn group_commit_stats(&self) -> Option<GroupCommitStats> {
            Some(self.group_commit.stats())
        }

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
        fn engine(&self) -> Engine {
            Engine::Postgres
        }

        #[tracing::instrument(skip_all)]
        async fn insert_message(&self, new: &NewMessage<'_>) -> anyhow::Result<Inserted> {
            let mut tx = self
                .pool
                .begin()
                .await
                .context("Failed to begin the contact transaction")?;
            let stored = Self::store_message(&mut tx, &PendingMessage::new(new)).await?;
            tx.commit()
                .await
                .context("Failed to commit the contact message")?;
            Ok(stored)
        }

        #[tracing::instrument(skip_all)]
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
