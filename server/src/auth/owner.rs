//! Setting the owner's password: the one function that the API's password change, `portfolio
//! owner set` and the start-up bootstrap call, so the rules, the hash and the end of every
//! session are the same whichever way a password is set.

use anyhow::Context;
use secrecy::{ExposeSecret, SecretString};

use super::password;
use crate::clock::now_ms;
use crate::store::Db;

/// Whose password is set.
#[derive(Debug, Clone, Copy)]
pub enum Whose<'a> {
    /// The owner with this id (the signed-in owner changing the password).
    Owner(i64),
    /// The owner, created or given this e-mail (`portfolio owner set`).
    Email(&'a str),
    /// A first owner with this e-mail, only when there is none yet (start-up).
    FirstOwner(&'a str),
}

/// What setting the password did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PasswordSet {
    /// The owner `id` has the new password; `ended` sessions were signed out.
    Set { id: i64, ended: u64 },
    /// [`Whose::FirstOwner`] created the owner (who has no session yet).
    Created,
    /// [`Whose::FirstOwner`] found an owner already: nothing changed.
    OwnerExists,
}

#[derive(Debug)]
pub enum SetPasswordError {
    /// The password breaks a rule; the text completes "the password …".
    Weak(String),
    /// Hashing (possibly [`password::Busy`]) or storing failed.
    Failed(anyhow::Error),
}

impl From<anyhow::Error> for SetPasswordError {
    fn from(error: anyhow::Error) -> Self {
        Self::Failed(error)
    }
}

/// Checks `secret` against the password rules, hashes it and stores it for `whose`. Every session
/// of that owner ends, and every sign-in waiting for its second factor: setting a password is
/// also the answer to a stolen one.
pub async fn set_password(
    db: &Db,
    whose: Whose<'_>,
    secret: SecretString,
) -> Result<PasswordSet, SetPasswordError> {
    let hash = checked_hash(secret).await?;
    store_password(db, whose, &hash).await
}

/// The first half of [`set_password`]: the rules checked, the password hashed (for a caller with
/// something to do between the two, such as using up a reset link).
pub async fn checked_hash(secret: SecretString) -> Result<String, SetPasswordError> {
    if let Some(problem) = password::weakness(secret.expose_secret()) {
        return Err(SetPasswordError::Weak(problem));
    }
    Ok(password::hash(secret).await?)
}

/// The second half of [`set_password`]: a hash from [`checked_hash`] stored for `whose`, and
/// every session, pending sign-in and outstanding reset link of that owner ended.
pub async fn store_password(
    db: &Db,
    whose: Whose<'_>,
    hash: &str,
) -> Result<PasswordSet, SetPasswordError> {
    let id = match whose {
        Whose::Owner(id) => {
            db.set_owner_password(id, hash, now_ms()).await?;
            id
        }
        Whose::Email(email) => db
            .save_owner(email, hash, now_ms(), true)
            .await?
            .context("the owner was not saved")?,
        Whose::FirstOwner(email) => {
            return Ok(match db.save_owner(email, hash, now_ms(), false).await? {
                Some(_) => PasswordSet::Created,
                None => PasswordSet::OwnerExists,
            });
        }
    };
    let ended = db.delete_owner_sessions(id, None).await?;
    db.delete_pending_sign_ins(id).await?;
    // A link asked for before the change must not set the password again afterwards.
    db.delete_password_resets(id).await?;
    Ok(PasswordSet::Set { id, ended })
}
