//! The command line: `portfolio serve` and the owner's maintenance commands.

pub mod backup;
pub mod content;
pub mod db;
pub mod messages;
pub mod owner;
pub mod posts;
pub mod secrets;

use std::process::ExitCode;

use crate::app::Application;
use crate::config::Settings;
use clap::{Parser, Subcommand};
use db::DbCommand;
use messages::MessagesCommand;
use owner::OwnerCommand;

#[derive(Parser)]
#[command(
    name = "portfolio",
    version,
    about = "A developer's portfolio site with a private contact inbox"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the site and the API.
    Serve(Box<Settings>),
    /// Manage the owner account.
    #[command(subcommand)]
    Owner(OwnerCommand),
    /// Work with the stored contact messages.
    #[command(subcommand)]
    Messages(MessagesCommand),
    /// Move the data between databases.
    #[command(subcommand)]
    Db(DbCommand),
    /// Export the page's content as JSON, or import (and publish) it.
    #[command(subcommand)]
    Content(content::ContentCommand),
    /// The writing as Markdown files with YAML front matter (Hugo, Jekyll, Astro): import or
    /// export them.
    #[command(subcommand)]
    Posts(posts::PostsCommand),
    /// Write a consistent snapshot of the database to a SQLite file, while the server runs.
    Backup(backup::BackupCommand),
    /// The key that seals the server's secrets: make one, or discard the secrets it sealed.
    #[command(subcommand)]
    Secrets(secrets::SecretsCommand),
}

/// The binary's `main`: parses the command line and runs the command. It lives in the library so
/// that the binary is one call: compiled there, the command line's code and everything it
/// instantiates took the release build a serial 24 s after the library (issue 32).
pub fn main() -> ExitCode {
    // The database, its WAL files, backups, exports and `db copy` targets hold the messages and
    // the server's keys: whatever the umask it was started with, what this process creates is
    // readable by its owner alone (files 0600, folders 0700).
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
    crate::ops::memory::hand_large_blocks_back();
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            use clap::error::ErrorKind;
            if matches!(
                error.kind(),
                ErrorKind::DisplayHelp
                    | ErrorKind::DisplayVersion
                    | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
            ) {
                let _ = error.print();
                return ExitCode::SUCCESS;
            }
            // One line that names the setting; the full usage is one `--help` away.
            let rendered = error.to_string();
            eprintln!(
                "{}",
                rendered
                    .lines()
                    .next()
                    .unwrap_or("error: invalid arguments")
            );
            return ExitCode::from(2);
        }
    };

    let log_format = match &cli.command {
        Command::Serve(settings) => settings.ops.log_format,
        _ => crate::config::ops::LogFormat::Text,
    };
    // Held to the end of `main`: dropping it writes the last log lines.
    let _log = crate::telemetry::init(log_format);
    let runtime = match tokio::runtime::Runtime::new() {
        Ok(runtime) => runtime,
        Err(error) => {
            eprintln!("error: cannot start the async runtime: {error}");
            return ExitCode::FAILURE;
        }
    };
    let result = runtime.block_on(async {
        match cli.command {
            Command::Serve(settings) => run_server(*settings).await,
            Command::Owner(command) => owner::run(command).await,
            Command::Messages(command) => messages::run(command).await,
            Command::Db(command) => db::run(command).await,
            Command::Backup(command) => backup::run(command).await,
            Command::Content(command) => content::run(command).await,
            Command::Posts(command) => posts::run(command).await,
            Command::Secrets(command) => secrets::run(command).await,
        }
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error:#}");
            ExitCode::FAILURE
        }
    }
}

async fn run_server(settings: Settings) -> anyhow::Result<()> {
    crate::serve::raise_open_file_limit();
    Application::build(settings)
        .await?
        .run_until_stopped()
        .await
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_consistent() {
        super::Cli::command().debug_assert();
    }
}
