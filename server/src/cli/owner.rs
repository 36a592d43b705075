//! `portfolio owner ...`: create the owner or replace the owner's password.

use std::io::{IsTerminal, Read};

use anyhow::Context;
use clap::Subcommand;
use secrecy::{ExposeSecret, SecretString};

use crate::auth::{owner, password};
use crate::config::DatabaseSettings;
use crate::domain::EmailAddress;
use crate::store;

#[derive(Debug, Subcommand)]
pub enum OwnerCommand {
    /// Create the owner, or replace the owner's e-mail and password. The password is asked
    /// twice at a terminal, or read from the first line of standard input in a script.
    /// Existing sessions are signed out and sign-in locks are lifted.
    Set {
        /// The e-mail the owner signs in with.
        #[arg(long, value_name = "EMAIL")]
        email: String,
        #[command(flatten)]
        database: DatabaseSettings,
    },
}

pub async fn run(command: OwnerCommand) -> anyhow::Result<()> {
    match command {
        OwnerCommand::Set { email, database } => set(&email, &database.url).await,
    }
}

async fn set(email: &str, database_url: &str) -> anyhow::Result<()> {
    let email = email.trim();
    EmailAddress::parse(email).map_err(|problem| anyhow::anyhow!("--email {problem}"))?;
    let secret = read_password()?;
    if let Some(problem) = password::weakness(secret.expose_secret()) {
        anyhow::bail!(
            "the password {problem}. Use {}–{} characters (a few unrelated words make a good one).",
            password::MIN_LENGTH,
            password::MAX_LENGTH
        );
    }

    let db = store::connect(database_url).await?;
    let ended = match owner::set_password(&db, owner::Whose::Email(email), secret).await {
        Ok(owner::PasswordSet::Set { ended, .. }) => ended,
        // Only a first owner at start-up can find one already; by e-mail it is always set.
        Ok(_) => 0,
        Err(owner::SetPasswordError::Weak(problem)) => anyhow::bail!("the password {problem}."),
        Err(owner::SetPasswordError::Failed(error)) => return Err(error),
    };
    // The owner is never locked out: setting the password also lifts every lock.
    db.clear_all_sign_in_failures().await?;
    db.close().await;
    println!(
        "The owner is now {email}; sign in at /login. {ended} existing session{} signed out.",
        if ended == 1 { " was" } else { "s were" }
    );
    Ok(())
}

fn read_password() -> anyhow::Result<SecretString> {
    if std::io::stdin().is_terminal() {
        let first =
            rpassword::prompt_password("New password: ").context("Failed to read the password")?;
        let second = rpassword::prompt_password("Repeat the password: ")
            .context("Failed to read the password")?;
        if first != second {
            anyhow::bail!("the two passwords differ; nothing was changed");
        }
        return Ok(SecretString::from(first));
    }
    let mut input = String::new();
    std::io::stdin()
        .take(64 * 1024)
        .read_to_string(&mut input)
        .context("Failed to read the password from standard input")?;
    let line = input.lines().next().unwrap_or_default();
    if line.is_empty() {
        anyhow::bail!("no password on standard input: pipe it in, e.g. `printf '%s\\n' \"$PASSWORD\" | portfolio owner set --email ...`");
    }
    Ok(SecretString::from(line.to_owned()))
}
