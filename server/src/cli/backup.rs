//! `portfolio backup --output FILE`: a consistent snapshot while the server runs.

use std::path::PathBuf;

use clap::Args;

use crate::config::DatabaseSettings;

#[derive(Debug, Args)]
pub struct BackupCommand {
    /// The file to write: a SQLite database that `serve --database-url sqlite://FILE` runs as
    /// is. It must not exist yet.
    #[arg(long, short, value_name = "FILE")]
    pub output: PathBuf,
    #[command(flatten)]
    pub database: DatabaseSettings,
}

pub async fn run(command: BackupCommand) -> anyhow::Result<()> {
    let output = command.output;
    if output.exists() {
        anyhow::bail!(
            "output: {} already exists; name a new file (nothing was written)",
            output.display()
        );
    }
    require_existing(&command.database.url)?;
    let db = crate::store::connect(&command.database.url).await?;
    let result = crate::ops::backup::write(&db, &output).await;
    db.close().await;
    result?;
    let bytes = std::fs::metadata(&output).map(|m| m.len()).unwrap_or(0);
    println!(
        "Backed up to {} ({bytes} bytes). Restore: stop the server, put this file in place of \
         the database (or copy it into PostgreSQL with `db copy`), start the server.",
        output.display()
    );
    Ok(())
}

/// A maintenance command must not create an empty SQLite database where a typo points.
pub fn require_existing(database_url: &str) -> anyhow::Result<()> {
    use std::str::FromStr;
    let url = crate::store::DatabaseUrl::parse(database_url)?;
    if url.engine() != crate::store::Engine::Sqlite {
        return Ok(());
    }
    let Ok(options) = sqlx::sqlite::SqliteConnectOptions::from_str(url.expose()) else {
        return Ok(()); // connecting names the problem
    };
    let path = options.get_filename();
    if path != std::path::Path::new(":memory:") && !path.exists() {
        anyhow::bail!(
            "database-url: there is no database at {} (nothing was written)",
            path.display()
        );
    }
    Ok(())
}
