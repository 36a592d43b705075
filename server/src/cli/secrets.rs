//! `portfolio secrets ...`: the key that seals the secrets the database keeps (see
//! `store::sealed`): make a key file, or discard the sealed secrets when the key is lost.

use std::path::PathBuf;

use clap::Subcommand;

use crate::config::DatabaseSettings;
use crate::store::sealed::SecretKey;

#[derive(Debug, Subcommand)]
pub enum SecretsCommand {
    /// Write a new random key to FILE (readable by its owner alone; an existing file is
    /// refused), for --secret-key-file. Give every instance on one PostgreSQL database the same
    /// file, and keep it apart from the backups.
    NewKey {
        #[arg(long, value_name = "FILE")]
        output: PathBuf,
    },
    /// For a database whose key file is lost: delete the sealed secrets and the key's id. The
    /// second factor goes off (its key and recovery codes are deleted), known browsers are
    /// forgotten, every session ends; the next start makes new secrets, sealed with the key
    /// file it is given. Nothing else discards them.
    Discard {
        #[command(flatten)]
        database: DatabaseSettings,
    },
}

pub async fn run(command: SecretsCommand) -> anyhow::Result<()> {
    match command {
        SecretsCommand::NewKey { output } => {
            let key = SecretKey::generate()?;
            key.create(&output)?;
            println!(
                "Wrote a new secret key (id {}) to {}. Keep it apart from the backups.",
                key.id(),
                output.display()
            );
            Ok(())
        }
        SecretsCommand::Discard { database } => {
            let db = crate::store::connect(&database.url).await?;
            let result = db.discard_secrets().await;
            db.close().await;
            let discarded = result?;
            println!(
                "Discarded {} sealed secrets and the key's id{}; {} sessions ended. Known \
                 browsers are forgotten. The next start makes new secrets, sealed with the key \
                 file it is given.",
                discarded.secrets,
                if discarded.second_factor {
                    ", and the second factor (the password alone signs in; set it up again from the dashboard)"
                } else {
                    ""
                },
                discarded.sessions
            );
            Ok(())
        }
    }
}
