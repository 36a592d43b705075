//! `portfolio messages ...`: export the contact messages, purge what retention removes.

use std::io::Write;
use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;

use crate::config::DatabaseSettings;
use crate::contact::export::{export_all, Format};

#[derive(Debug, Subcommand)]
pub enum MessagesCommand {
    /// Write every message in the inbox (not spam, not deleted) as JSON or CSV.
    Export {
        /// `json` (the original product's document shape) or `csv` (safe to open in a spreadsheet).
        #[arg(long, value_enum, default_value = "json")]
        format: Format,
        /// Write to this file instead of standard output.
        #[arg(long, short, value_name = "FILE")]
        output: Option<PathBuf>,
        #[command(flatten)]
        database: DatabaseSettings,
    },
    /// Delete for good what retention removes (as `serve` does every hour): messages in Trash
    /// and Spam caught by a trap after --retention-days, sent notifications as old, expired
    /// sessions and old sign-in counters.
    Purge {
        /// Say what would be deleted, and delete nothing.
        #[arg(long)]
        dry_run: bool,
        #[command(flatten)]
        retention: crate::config::ops::RetentionSettings,
        #[command(flatten)]
        clock: crate::config::ClockSettings,
        #[command(flatten)]
        database: DatabaseSettings,
    },
}

pub async fn run(command: MessagesCommand) -> anyhow::Result<()> {
    match command {
        MessagesCommand::Export {
            format,
            output,
            database,
        } => {
            let db = crate::store::connect(&database.url).await?;
            let bytes = export_all(&db, format).await;
            db.close().await;
            let bytes = bytes?;
            match output {
                Some(path) => std::fs::write(&path, &bytes)
                    .with_context(|| format!("output: cannot write {}", path.display()))?,
                None => {
                    let mut stdout = std::io::stdout().lock();
                    stdout
                        .write_all(&bytes)
                        .and_then(|()| stdout.flush())
                        .context("cannot write to standard output")?;
                }
            }
            Ok(())
        }
        MessagesCommand::Purge {
            dry_run,
            retention,
            clock,
            database,
        } => {
            crate::cli::backup::require_existing(&database.url)?;
            let db = crate::store::connect(&database.url).await?;
            let report = crate::ops::retention::purge(
                &db,
                &retention,
                crate::clock::Clock::ahead_by(clock.clock_offset),
                dry_run,
            )
            .await;
            db.close().await;
            let report = report?;
            let kept = if retention.retention_days == 0 {
                " Messages and sent notifications are kept forever (--retention-days 0)."
            } else {
                ""
            };
            if dry_run {
                println!("Would delete {report}. Nothing was deleted.{kept}");
            } else {
                println!("Deleted {report}.{kept}");
            }
            Ok(())
        }
    }
}
