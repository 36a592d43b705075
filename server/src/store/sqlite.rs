//! The store on SQLite: one file on one machine, for one instance. WAL with `synchronous = FULL`,
//! so a committed transaction survives a crash of the process and of the machine. Every write
//! goes through one connection, contact messages with group commit (`group_commit`); reads use a
//! pool of their own.

use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::OnceLock;
use std::time::Duration;

use anyhow::Context;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

use super::engines::Pools;
use super::group_commit::GroupCommit;
use super::model::*;
use crate::config::database::{DatabaseUrl, Engine};
use crate::rate_limit::SubmissionLimiter;

pub struct SqliteStore {
    /// Reads (`query_only`), several at a time.
    pub(super) pool: SqlitePool,
    /// The one connection that writes.
    pub(super) writer: SqlitePool,
    /// Contact messages, committed in batches through `writer`.
    pub(super) group_commit: GroupCommit,
    /// A SQLite database serves one instance, so the contact limits can stay in its memory.
    pub(super) limiter: OnceLock<SubmissionLimiter>,
    /// The database file and its identity when opened (none in memory), for readiness.
    pub(super) file: Option<(PathBuf, FileId)>,
    pub(super) health: super::health::StorageHealth,
    /// Seals and opens the secrets once start-up has checked the key (see `sealed`).
    pub(super) sealer: OnceLock<super::sealed::Sealer>,
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
        // An in-memory database exists for one connection only: it reads through the writer.
        let in_memory = filename.as_path() == Path::new(":memory:");
        if !in_memory {
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
            open_writer(options)
                .await
                .with_context(|| format!("database-url: cannot open {}", filename.display()))
        };
        let mut writer = open(options.clone()).await?;
        Self::migrator()
            .run(&writer)
            .await
            .context("Failed to apply the database migrations")?;
        if let Some(pages) = tuning.max_page_count {
            // After the migrations, compacted first (a migration that moves a table leaves free
            // pages, which a full disk would not have): a limit below the file's size holds it
            // at that size.
            sqlx::query("VACUUM")
                .execute(&writer)
                .await
                .context("Failed to compact the database before limiting its size")?;
            writer.close().await;
            writer = open(options.clone().pragma("max_page_count", pages.to_string())).await?;
        }
        let pool = if in_memory {
            writer.clone()
        } else {
            open_readers(options, 8)
                .await
                .with_context(|| format!("database-url: cannot open {}", filename.display()))?
        };
        let file = if in_memory {
            None
        } else {
            let metadata = std::fs::metadata(&filename)
                .with_context(|| format!("database-url: cannot read {}", filename.display()))?;
            Some((filename.clone(), FileId::of(&metadata)))
        };
        let store = Self {
            pool,
            group_commit: GroupCommit::start::<Self>(writer.clone()),
            writer,
            limiter: OnceLock::new(),
            file,
            health: Default::default(),
            sealer: OnceLock::new(),
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

// SQLite has one write lock per database; several connections that write meet `SQLITE_BUSY` and
// wait their turn in `busy_timeout`'s sleeps, which makes the latency's tail. So every write of
// the store goes through one connection (a pool of one, [`open_writer`]), contact messages with
// group commit (`group_commit`, which both engines share), and the reads through a pool of their
// own that cannot write (`query_only`).

/// The pool of one connection through which every write goes; kept open for the process's life,
/// unless a failed transaction leaves it unclean (see [`clean_or_replace`]).
pub(super) async fn open_writer(options: SqliteConnectOptions) -> sqlx::Result<SqlitePool> {
    SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .after_release(|connection, _| Box::pin(clean_or_replace(connection)))
        .connect_with(options)
        .await
}

/// Keeps a connection given back to its pool only when no transaction is left open on it.
///
/// When a write fails for lack of room or an I/O error, SQLite may roll the transaction back by
/// itself (`SQLITE_FULL`, `SQLITE_IOERR`); the driver does not know, its `ROLLBACK` then fails
/// ("no transaction is active") and it goes on counting a transaction that is gone, so every
/// later `BEGIN` on that connection failed until a restart. The ping waits for the rollback a
/// dropped transaction queued; a connection still counting one is closed, and the pool opens a
/// fresh one for the next write.
async fn clean_or_replace(connection: &mut sqlx::SqliteConnection) -> sqlx::Result<bool> {
    use sqlx::Connection;
    connection.ping().await?;
    let clean = !connection.is_in_transaction();
    if !clean {
        tracing::warn!("a failed transaction left the SQLite connection unclean: replacing it");
    }
    Ok(clean)
}

/// The pool that reads: `query_only`, so a write sent to it by mistake fails at once (a test
/// would see it) instead of competing with the writer for the lock.
pub(super) async fn open_readers(
    options: SqliteConnectOptions,
    connections: u32,
) -> sqlx::Result<SqlitePool> {
    SqlitePoolOptions::new()
        .max_connections(connections)
        .after_release(|connection, _| Box::pin(clean_or_replace(connection)))
        .connect_with(options.create_if_missing(false).pragma("query_only", "ON"))
        .await
}

impl super::sealed::HoldsSealer for SqliteStore {
    fn sealer_cell(&self) -> &OnceLock<super::sealed::Sealer> {
        &self.sealer
    }
}

impl Pools for SqliteStore {
    type Db = sqlx::Sqlite;
    type List<'a, T: 'a> = String;
    const ENGINE: Engine = Engine::Sqlite;

    fn reader(&self) -> &sqlx::SqlitePool {
        &self.pool
    }

    fn writer(&self) -> &sqlx::SqlitePool {
        &self.writer
    }

    fn list<T: serde::Serialize>(items: &[T]) -> String {
        serde_json::to_string(items).unwrap_or_else(|_| "[]".to_owned())
    }

    fn migrator() -> &'static sqlx::migrate::Migrator {
        static MIGRATOR: std::sync::OnceLock<sqlx::migrate::Migrator> = std::sync::OnceLock::new();
        super::migrations::migrator(&crate::embedded::SQLITE_MIGRATIONS, &MIGRATOR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite ends a transaction by itself on some errors (`SQLITE_FULL` or `SQLITE_IOERR` at
    /// commit): the driver's rollback then fails and it goes on counting the transaction. A
    /// `ROLLBACK` sent inside the transaction puts the connection in that state on purpose.
    #[tokio::test]
    async fn a_transaction_sqlite_ended_itself_does_not_stop_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let options = SqliteConnectOptions::new()
            .filename(dir.path().join("test.db"))
            .create_if_missing(true);
        let writer = open_writer(options).await.unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&writer)
            .await
            .unwrap();
        {
            let mut tx = writer.begin_with("BEGIN IMMEDIATE").await.unwrap();
            sqlx::query("INSERT INTO t VALUES (1)")
                .execute(&mut *tx)
                .await
                .unwrap();
            sqlx::query("ROLLBACK").execute(&mut *tx).await.unwrap();
            // Dropped without a commit, as after a failed one.
        }
        for n in 0..3 {
            let mut tx = writer
                .begin_with("BEGIN IMMEDIATE")
                .await
                .expect("the next transaction begins");
            sqlx::query("INSERT INTO t VALUES (?)")
                .bind(n)
                .execute(&mut *tx)
                .await
                .unwrap();
            tx.commit().await.unwrap();
        }
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t")
            .fetch_one(&writer)
            .await
            .unwrap();
        assert_eq!(count, 3);
    }
}
