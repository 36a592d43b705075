//! `portfolio owner ...`: create the owner or replace the owner's password.

use clap::Subcommand;

#[derive(Debug, Subcommand)]
pub enum OwnerCommand {}

pub async fn run(command: OwnerCommand, _database_url: &str) -> anyhow::Result<()> {
    match command {}
}
