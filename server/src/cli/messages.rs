//! `portfolio messages ...`: export the contact messages.

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum MessagesCommand {}

pub async fn run(command: MessagesCommand, _database_url: &str) -> anyhow::Result<()> {
    match command {}
}
