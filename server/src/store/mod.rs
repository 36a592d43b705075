//! All SQL lives below here: the connection pool, the embedded migrations, and small named queries.

pub mod inbox;
pub mod owner;
pub mod sessions;

use std::path::Path;
use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::SqlitePool;

pub mod contact;

pub type Db = SqlitePool;

/// Opens (creating when missing) the SQLite database and applies the embedded migrations.
///
/// WAL with `synchronous = FULL`: a committed transaction survives a crash of the process
/// and of the machine, which is what lets a 201 promise that a message is stored.
pub async fn connect(url: &str) -> anyhow::Result<Db> {
    let options = SqliteConnectOptions::from_str(url)
        .with_context(|| {
            format!(
                "database-url: {url:?} is not a valid SQLite URL (try sqlite://data/portfolio.db)"
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
    }

    let pool = SqlitePoolOptions::new()
        .max_connections(8)
        .connect_with(options)
        .await
        .with_context(|| format!("database-url: cannot open {}", filename.display()))?;

    sqlx::migrate!("./migrations")
        .run(&pool)
        .await
        .context("Failed to apply the database migrations")?;
    Ok(pool)
}
