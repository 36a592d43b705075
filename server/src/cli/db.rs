//! `portfolio db ...`: move the data from one store to another.

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum DbCommand {
    /// Copy every message, the owner, sessions, sign-in counters and the outbox's state from one
    /// database to another (SQLite to PostgreSQL or back). Ids are kept.
    Copy {
        /// The database to read, e.g. sqlite://data/portfolio.db
        #[arg(long, value_name = "URL")]
        from: String,
        /// The database to write, e.g. postgres://user:password@host:5432/portfolio
        #[arg(long, value_name = "URL")]
        to: String,
        /// Empty the target first when it already holds data.
        #[arg(long)]
        replace: bool,
    },
}

pub async fn run(command: DbCommand) -> anyhow::Result<()> {
    match command {
        DbCommand::Copy { from, to, replace } => {
            let report = crate::store::copy::copy(&from, &to, replace).await?;
            let summary: Vec<String> = report
                .counts
                .iter()
                .map(|(table, rows)| format!("{table}: {rows}"))
                .collect();
            println!("Copied ({}).", summary.join(", "));
            if let Some(id) = report.key_id {
                println!(
                    "Its secrets are sealed with the key {id}: start the server on --to with the \
                     key file of --from (--secret-key-file)."
                );
            }
            Ok(())
        }
    }
}
