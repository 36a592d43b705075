//! `portfolio owner ...`: create the owner or replace the owner's password; for an owner who lost
//! their devices, switch the second factor off and remove the passkeys.

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
    /// The second factor (codes from an authenticator app).
    #[command(subcommand)]
    SecondFactor(SecondFactorCommand),
    /// The owner's passkeys.
    #[command(subcommand)]
    Passkeys(PasskeysCommand),
}

#[derive(Debug, Subcommand)]
pub enum SecondFactorCommand {
    /// Switch the second factor off (its key and recovery codes are deleted): the password alone
    /// signs in again, for an owner who lost the phone and the recovery codes.
    Off {
        #[command(flatten)]
        database: DatabaseSettings,
    },
}

#[derive(Debug, Subcommand)]
pub enum PasskeysCommand {
    /// Remove passkeys so that they sign no one in (for an owner who lost a device).
    Remove {
        /// Remove every passkey of the owner.
        #[arg(long, required = true)]
        all: bool,
        #[command(flatten)]
        database: DatabaseSettings,
    },
}

pub async fn run(command: OwnerCommand) -> anyhow::Result<()> {
    match command {
        OwnerCommand::Set { email, database } => set(&email, &database.url).await,
        OwnerCommand::SecondFactor(SecondFactorCommand::Off { database }) => {
            second_factor_off(&database.url).await
        }
        OwnerCommand::Passkeys(PasskeysCommand::Remove { all: _, database }) => {
            remove_passkeys(&database.url).await
        }
    }
}

/// The owner's id, or an error saying how to create the owner.
async fn the_owner(db: &store::Db) -> anyhow::Result<i64> {
    match db.find_owner_by_id(1).await? {
        Some(owner) => Ok(owner.id),
        None => {
            anyhow::bail!("there is no owner yet: create one with `portfolio owner set --email …`")
        }
    }
}

async fn second_factor_off(database_url: &str) -> anyhow::Result<()> {
    let db = store::connect(database_url).await?;
    let id = the_owner(&db).await?;
    let was_on = db.delete_second_factor(id).await?;
    db.delete_pending_sign_ins(id).await?;
    // Whoever turned it on may hold a session: recovery starts with every one of them ended.
    let ended = db.delete_owner_sessions(id, None).await?;
    db.close().await;
    if was_on {
        println!(
            "The second factor is off: the password alone signs in. {}. Set it up again from the dashboard (Account).",
            sessions_ended(ended)
        );
    } else {
        println!("The second factor was not on. {}.", sessions_ended(ended));
    }
    Ok(())
}

async fn remove_passkeys(database_url: &str) -> anyhow::Result<()> {
    let db = store::connect(database_url).await?;
    let id = the_owner(&db).await?;
    let removed = db.delete_all_passkeys(id).await?;
    let ended = db.delete_owner_sessions(id, None).await?;
    db.close().await;
    let ended = sessions_ended(ended);
    match removed {
        0 => println!("The owner had no passkey. {ended}."),
        1 => println!("1 passkey was removed; it signs no one in any more. {ended}."),
        n => println!("{n} passkeys were removed; none of them signs in any more. {ended}."),
    }
    Ok(())
}

/// "N sessions were signed out", for the commands that end every session.
fn sessions_ended(ended: u64) -> String {
    match ended {
        1 => "1 session was signed out".to_owned(),
        n => format!("{n} sessions were signed out"),
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
