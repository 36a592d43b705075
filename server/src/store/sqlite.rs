//! The store on SQLite: one file on one machine, for one instance. WAL with `synchronous = FULL`,
//! so a committed transaction survives a crash of the process and of the machine. Every write
//! goes through one connection, contact messages with group commit ([`writer`]); reads use a
//! pool of their own.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::OnceLock;
use std::time::Duration;

use anyhow::Context;
use async_trait::async_trait;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::{QueryBuilder, Sqlite, SqlitePool};

use super::model::*;
use super::{DatabaseUrl, Engine, Store};
use crate::contact::rate_limit::{RateLimit, SubmissionLimiter};

mod writer;

pub struct SqliteStore {
    /// Reads (`query_only`), several at a time.
    pub(super) pool: SqlitePool,
    /// The one connection that writes.
    pub(super) writer: SqlitePool,
    /// Contact messages, committed in batches through `writer`.
    group_commit: writer::GroupCommit,
    /// A SQLite database serves one instance, so the contact limits can stay in its memory.
    limiter: OnceLock<SubmissionLimiter>,
    /// The database file and its identity when opened (none in memory), for readiness.
    pub(super) file: Option<(PathBuf, FileId)>,
    pub(super) health: super::health::StorageHealth,
}

/// A file's identity: a file moved away and another put in its place differ.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct FileId {
    device: u64,
    inode: u64,
    is_file: bool,
}

impl FileId {
    pub(super) fn of(metadata: &std::fs::Metadata) -> Self {
        use std::os::unix::fs::MetadataExt;
        Self {
            device: metadata.dev(),
            inode: metadata.ino(),
            is_file: metadata.is_file(),
        }
    }
}

/// How the SQLite store is opened beyond its URL.
#[derive(Debug, Clone, Copy, Default)]
pub struct SqliteTuning {
    /// `PRAGMA max_page_count` on the connection that writes, once the migrations are applied:
    /// a database that cannot grow past it (nor past its size then, when that is larger), as on
    /// a full disk (for the fault tests).
    pub max_page_count: Option<u64>,
}

/// Stops start-up with one line when the database file, its WAL files or its folder exist but
/// cannot be written: SQLite would open the file read-only and fail at the first write.
fn check_writable(file: &Path) -> anyhow::Result<()> {
    use std::io::ErrorKind;
    let read_only = |error: &std::io::Error| {
        matches!(
            error.kind(),
            ErrorKind::PermissionDenied | ErrorKind::ReadOnlyFilesystem
        )
    };
    let mut names = vec![file.to_path_buf()];
    for suffix in ["-wal", "-shm"] {
        let mut name = file.as_os_str().to_owned();
        name.push(suffix);
        names.push(PathBuf::from(name));
    }
    for name in names.iter().filter(|name| name.exists()) {
        if let Err(error) = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(name)
        {
            if read_only(&error) {
                anyhow::bail!(
                    "database-url: {} is read-only ({error}): the server must be able to write it",
                    name.display()
                );
            }
        }
    }
    let folder = match file.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let probe = folder.join(format!(".portfolio-write-check-{}", std::process::id()));
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .open(&probe)
    {
        Ok(_) => {
            let _ = std::fs::remove_file(&probe);
        }
        Err(error) if read_only(&error) => anyhow::bail!(
            "database-url: the folder {} is read-only ({error}): the server must be able to \
             create the database's files there",
            folder.display()
        ),
        Err(_) => {}
    }
    Ok(())
}

/// Creates the database file, empty and readable by its owner alone, before SQLite opens it:
/// SQLite gives its `-wal` and `-shm` files the same mode.
fn create_private(file: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::OpenOptionsExt;
    match std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(file)
    {
        Ok(_) => Ok(()),
        Err(error) if error.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(error) => {
            Err(error).with_context(|| format!("database-url: cannot create {}", file.display()))
        }
    }
}

impl SqliteStore {
    /// Opens (creating when missing) the database file and applies the embedded migrations.
    pub async fn connect(url: &DatabaseUrl, tuning: SqliteTuning) -> anyhow::Result<Self> {
        let options = SqliteConnectOptions::from_str(url.expose())
            .with_context(|| {
                format!(
                    "database-url: {:?} is not a valid SQLite URL (try sqlite://data/portfolio.db)",
                    url.redacted()
                )
            })?
            .create_if_missing(true)
            .journal_mode(SqliteJournalMode::Wal)
            .synchronous(SqliteSynchronous::Full)
            .foreign_keys(true)
            .busy_timeout(Duration::from_secs(5));

        let filename = options.get_filename().to_path_buf();
        if filename.as_path() != Path::new(":memory:") {
            if let Some(parent) = filename.parent().filter(|p| !p.as_os_str().is_empty()) {
                std::fs::create_dir_all(parent).with_context(|| {
                    format!(
                        "database-url: cannot create the folder {}",
                        parent.display()
                    )
                })?;
            }
            check_writable(&filename)?;
            create_private(&filename)?;
        }

        let open = |options: SqliteConnectOptions| async {
            writer::open_writer(options)
                .await
                .with_context(|| format!("database-url: cannot open {}", filename.display()))
        };
        let mut writer = open(options.clone()).await?;
        sqlx::migrate!("./migrations/sqlite")
            .run(&writer)
            .await
            .context("Failed to apply the database migrations")?;
        if let Some(pages) = tuning.max_page_count {
            // After the migrations: a limit below the file's size holds it at that size.
            writer.close().await;
            writer = open(options.clone().pragma("max_page_count", pages.to_string())).await?;
        }
        // An in-memory database exists for one connection only: it reads through the writer.
        let pool = if writer::in_memory(url.expose()) {
            writer.clone()
        } else {
            writer::open_readers(options, 8)
                .await
                .with_context(|| format!("database-url: cannot open {}", filename.display()))?
        };
        let file = if writer::in_memory(url.expose()) {
            None
        } else {
            let metadata = std::fs::metadata(&filename)
                .with_context(|| format!("database-url: cannot read {}", filename.display()))?;
            Some((filename.clone(), FileId::of(&metadata)))
        };
        let store = Self {
            pool,
            group_commit: writer::GroupCommit::start(writer.clone()),
            writer,
            limiter: OnceLock::new(),
            file,
            health: Default::default(),
        };
        store.fill_search_text().await?;
        Ok(store)
    }

    /// Messages stored before the search column existed get it now, folded by Rust's rules.
    async fn fill_search_text(&self) -> anyhow::Result<()> {
        let rows: Vec<(i64, String, String, String, String)> = sqlx::query_as(
            "SELECT id, name, email, subject, message FROM contact_messages WHERE search_text = ''",
        )
        .fetch_all(&self.writer)
        .await
        .context("Failed to read messages without search text")?;
        for (id, name, email, subject, message) in rows {
            sqlx::query("UPDATE contact_messages SET search_text = ? WHERE id = ?")
                .bind(search_text(&name, &email, &subject, &message))
                .bind(id)
                .execute(&self.writer)
                .await
                .context("Failed to fill in a message's search text")?;
        }
        Ok(())
    }
}

#[async_trait]
impl Store for SqliteStore {
    fn engine(&self) -> Engine {
        Engine::Sqlite
    }

    async fn ping(&self) -> anyhow::Result<()> {
        sqlx::query("SELECT 1")
            .execute(&self.pool)
            .await
            .context("SQLite does not answer")?;
        Ok(())
    }

    async fn close(&self) {
        self.pool.close().await;
        self.writer.close().await;
    }

    fn is_closed(&self) -> bool {
        self.writer.is_closed()
    }

    // --- Contact messages and the notification outbox ---

    #[tracing::instrument(skip_all)]
    async fn insert_message(&self, new: &NewMessage<'_>) -> anyhow::Result<Inserted> {
        self.group_commit.insert(new).await
    }

    fn group_commit_stats(&self) -> Option<GroupCommitStats> {
        Some(self.group_commit.stats())
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

    async fn take_submission_slot(
        &self,
        client_key: &str,
        limits: &[RateLimit],
        _now: i64,
    ) -> anyhow::Result<Option<Duration>> {
        let limiter = self.limiter.get_or_init(|| SubmissionLimiter::new(limits));
        Ok(limiter.check(client_key).err())
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
        let mut query: QueryBuilder<Sqlite> = QueryBuilder::new("SELECT ");
        query.push(MESSAGE_COLUMNS);
        query.push(" FROM contact_messages WHERE ");
        query.push(folder.condition());
        if let Some(search) = search {
            query.push(" AND instr(search_text, ");
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
            "SELECT {MESSAGE_COLUMNS} FROM contact_messages WHERE id = ?"
        ))
        .bind(id)
        .fetch_optional(&self.pool)
        .await
        .context("Failed to read a contact message")
    }

    #[tracing::instrument(skip(self))]
    async fn update_message(&self, id: i64, change: MessageChange) -> anyhow::Result<bool> {
        let mut query: QueryBuilder<Sqlite> =
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
            .execute(&self.writer)
            .await
            .context("Failed to update a contact message")?;
        Ok(result.rows_affected() == 1)
    }

    #[tracing::instrument(skip(self))]
    async fn delete_message(&self, id: i64) -> anyhow::Result<bool> {
        let result = sqlx::query("DELETE FROM contact_messages WHERE id = ?")
            .bind(id)
            .execute(&self.writer)
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
        sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE id = ?")
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
            "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (1, ?, ?, ?, ?)
             ON CONFLICT (id) DO UPDATE SET email = excluded.email,
                 password_hash = excluded.password_hash, updated_at = excluded.updated_at",
        )
        .bind(email)
        .bind(password_hash)
        .bind(now)
        .bind(now)
        .execute(&self.writer)
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
            "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (1, ?, ?, ?, ?)
             ON CONFLICT (id) DO NOTHING",
        )
        .bind(email)
        .bind(password_hash)
        .bind(now)
        .bind(now)
        .execute(&self.writer)
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
        sqlx::query("UPDATE owner SET password_hash = ?, updated_at = ? WHERE id = ?")
            .bind(password_hash)
            .bind(now)
            .bind(id)
            .execute(&self.writer)
            .await
            .context("Failed to change the owner's password")?;
        Ok(())
    }

    // --- Sessions ---

    #[tracing::instrument(skip_all)]
    async fn insert_session(&self, session: &NewSession<'_>) -> anyhow::Result<()> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, owner_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at)
             VALUES (?, ?, ?, ?, ?, ?)",
        )
        .bind(session.token_hash)
        .bind(session.owner_id)
        .bind(session.now)
        .bind(session.now)
        .bind(session.idle_expires_at)
        .bind(session.absolute_expires_at)
        .execute(&self.writer)
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
             WHERE s.token_hash = ? AND s.idle_expires_at > ? AND s.absolute_expires_at > ?",
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
            "UPDATE sessions SET last_seen_at = ?, idle_expires_at = min(?, absolute_expires_at)
             WHERE token_hash = ?",
        )
        .bind(now)
        .bind(idle_expires_at)
        .bind(token_hash)
        .execute(&self.writer)
        .await
        .context("Failed to renew a session")?;
        Ok(())
    }

    #[tracing::instrument(skip_all)]
    async fn delete_session(&self, token_hash: &str) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = ?")
            .bind(token_hash)
            .execute(&self.writer)
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
        let result = sqlx::query("DELETE FROM sessions WHERE owner_id = ? AND token_hash IS NOT ?")
            .bind(owner_id)
            .bind(keep)
            .execute(&self.writer)
            .await
            .context("Failed to delete the owner's sessions")?;
        Ok(result.rows_affected())
    }

    #[tracing::instrument(skip(self))]
    async fn delete_expired_sessions(&self, now: i64) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM sessions WHERE idle_expires_at <= ? OR absolute_expires_at <= ?")
            .bind(now)
            .bind(now)
            .execute(&self.writer)
            .await
            .context("Failed to delete expired sessions")?;
        Ok(())
    }

    // --- The sign-in throttle ---

    #[tracing::instrument(skip(self, key))]
    async fn sign_in_failures(&self, key: &str) -> anyhow::Result<Option<FailureRow>> {
        sqlx::query_as(
            "SELECT failures, last_failure_at, locked_until FROM sign_in_failures WHERE key = ?",
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
             VALUES (?1, 1, ?2, CASE WHEN 1 >= ?4 THEN ?2 + ?5 ELSE 0 END, 0) \
             ON CONFLICT (key) DO UPDATE SET \
                 failures = CASE WHEN sign_in_failures.locked_until > ?2 THEN sign_in_failures.failures ELSE CASE WHEN ?2 - sign_in_failures.last_failure_at >= ?3 THEN 1 ELSE sign_in_failures.failures + 1 END END, \
                 last_failure_at = CASE WHEN sign_in_failures.locked_until > ?2 THEN sign_in_failures.last_failure_at ELSE ?2 END, \
                 prev_locked_until = sign_in_failures.locked_until, \
                 locked_until = CASE WHEN sign_in_failures.locked_until > ?2 THEN sign_in_failures.locked_until \
                     WHEN CASE WHEN ?2 - sign_in_failures.last_failure_at >= ?3 THEN 1 ELSE sign_in_failures.failures + 1 END >= ?4 THEN ?2 + min(?6, ?5 * (1 << min(CASE WHEN ?2 - sign_in_failures.last_failure_at >= ?3 THEN 1 ELSE sign_in_failures.failures + 1 END - ?4, 20))) \
                     ELSE sign_in_failures.locked_until END \
             RETURNING failures, locked_until, prev_locked_until",
        )
        .bind(key)
        .bind(now)
        .bind(policy.forget_after_ms)
        .bind(policy.free_failures)
        .bind(policy.first_lock_ms)
        .bind(policy.max_lock_ms)
        .fetch_one(&self.writer)
        .await
        .context("Failed to count a sign-in attempt")?;
        count.admitted = count.prev_locked_until <= now;
        Ok(count)
    }

    #[tracing::instrument(skip(self))]
    async fn purge_sign_in_failures(&self, before: i64, now: i64) -> anyhow::Result<u64> {
        let result = sqlx::query(
            "DELETE FROM sign_in_failures WHERE last_failure_at < ?1 AND locked_until <= ?2",
        )
        .bind(before)
        .bind(now)
        .execute(&self.writer)
        .await
        .context("Failed to forget old sign-in failures")?;
        Ok(result.rows_affected())
    }

    #[tracing::instrument(skip(self, keys))]
    async fn clear_sign_in_failures(&self, keys: &[&str]) -> anyhow::Result<()> {
        for key in keys {
            sqlx::query("DELETE FROM sign_in_failures WHERE key = ?")
                .bind(key)
                .execute(&self.writer)
                .await
                .context("Failed to clear sign-in failures")?;
        }
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn clear_all_sign_in_failures(&self) -> anyhow::Result<()> {
        sqlx::query("DELETE FROM sign_in_failures")
            .execute(&self.writer)
            .await
            .context("Failed to clear sign-in failures")?;
        Ok(())
    }

    // --- Secrets ---

    #[tracing::instrument(skip(self))]
    async fn secret(&self, name: &str) -> anyhow::Result<Vec<u8>> {
        sqlx::query(
            "INSERT INTO auth_secrets (name, value) VALUES (?, randomblob(32)) ON CONFLICT (name) DO NOTHING",
        )
        .bind(name)
        .execute(&self.writer)
        .await
        .context("Failed to create a server secret")?;
        sqlx::query_scalar("SELECT value FROM auth_secrets WHERE name = ?")
            .bind(name)
            .fetch_one(&self.writer)
            .await
            .context("Failed to read a server secret")
    }

    // --- Moving data ---

    async fn tables(&self) -> anyhow::Result<Vec<String>> {
        sqlx::query_scalar(
            "SELECT name FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_sqlx\\_%' ESCAPE '\\' \
             ORDER BY name",
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
            .writer
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
                "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (?, ?, ?, ?, ?)",
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
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                 leased_until, last_error, sent_at, gave_up_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
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
                 absolute_expires_at) VALUES (?, ?, ?, ?, ?, ?)",
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
                 VALUES (?, ?, ?, ?, ?)",
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
            sqlx::query("INSERT INTO auth_secrets (name, value) VALUES (?, ?)")
                .bind(&s.name)
                .bind(&s.value)
                .execute(&mut *tx)
                .await
                .context("Failed to copy a server secret")?;
        }
        for d in &dump.insights_daily {
            sqlx::query(
                "INSERT INTO insights_daily (day, page_views, visitors, resume_downloads) VALUES (?, ?, ?, ?)",
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
            sqlx::query("INSERT INTO insights_counts (day, kind, key, count) VALUES (?, ?, ?, ?)")
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
                "INSERT INTO content_draft (id, document, revision, updated_at) VALUES (1, ?, ?, ?)",
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
                "INSERT INTO content_versions (version, document, published_at) VALUES (?, ?, ?)",
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
                 VALUES (?, ?, ?, ?, ?, ?, ?)",
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
                "INSERT INTO media_files (path, media_id, content_type, width, data) VALUES (?, ?, ?, ?, ?)",
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
                "INSERT INTO media_resume (id, data, sha256, uploaded_at) VALUES (1, ?, ?, ?)",
            )
            .bind(&r.data)
            .bind(&r.sha256)
            .bind(r.uploaded_at)
            .execute(&mut *tx)
            .await
            .context("Failed to copy the resume")?;
        }
        // AUTOINCREMENT's counters (sqlite_sequence) follow the highest ids inserted.
        tx.commit().await.context("Failed to commit the copy")?;
        Ok(())
    }
}
