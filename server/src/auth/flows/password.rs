//! The password's own flows: changing it (the current one is required), proving it again before
//! the changes that ask for it, and setting a new one with an e-mailed reset link.

use std::net::IpAddr;

use axum_extra::extract::CookieJar;
use secrecy::{ExposeSecret, SecretString};

use super::attempt::check_password;
use super::context::{hashing_error, Ctx};
use super::notify::{notify_owner, passkey_names};
use super::sign_in::{checked_code, session_origin};
use crate::auth::session::{self, Method, Owner};
use crate::auth::{notice, owner, password, reset, second_factor, throttle};
use crate::error::ApiError;

/// Changes the password once the current one is proven (throttled like sign-in): every session
/// ends, this one included, and this browser gets a new one, whose token is the answer. The owner
/// gets a notice.
pub async fn change(
    ctx: &Ctx<'_>,
    owner: &Owner,
    jar: &CookieJar,
    ip: IpAddr,
    user_agent: &str,
    current: SecretString,
    new: SecretString,
) -> Result<String, ApiError> {
    if current.expose_secret().len() > 4 * password::MAX_LENGTH {
        return Err(ApiError::field("currentPassword", "is not correct"));
    }
    if let Some(problem) = password::weakness(new.expose_secret()) {
        return Err(ApiError::field("newPassword", problem));
    }
    let locked = "password change refused: locked after repeated failures";
    check_password(ctx, owner, jar, ip, current, "currentPassword", locked).await?;
    let db = ctx.db;
    // Every session ends, this one included; this browser gets a fresh one.
    owner::set_password(db, owner::Whose::Owner(owner.id), new)
        .await
        .map_err(|error| match error {
            owner::SetPasswordError::Weak(problem) => ApiError::field("newPassword", problem),
            owner::SetPasswordError::Failed(error) => hashing_error(error),
        })?;
    let origin = session_origin(user_agent, Method::Password);
    db.delete_pending_sign_ins(owner.id).await?;
    let token = session::start(db, ctx.settings, ctx.now_ms(), owner.id, &origin).await?;
    tracing::info!("the owner changed the password");
    let passkeys = passkey_names(ctx, owner.id).await?;
    notify_owner(
        ctx,
        owner.id,
        "Your portfolio's password was changed",
        &format!(
            "The password of your portfolio's dashboard was just changed, and every other session was signed out.\n\n{}\n\
             If it was not you, sign every session out, then set a new password on the server with \
             `portfolio owner set`.\n",
            notice::passkey_lines(&passkeys)
        ),
    )
    .await;
    Ok(token)
}

/// Proves the password again (throttled like the password change): the changes that ask for it
/// are allowed for five minutes.
pub async fn reauthenticate(
    ctx: &Ctx<'_>,
    owner: &Owner,
    jar: &CookieJar,
    ip: IpAddr,
    typed: SecretString,
) -> Result<(), ApiError> {
    if typed.expose_secret().len() > 4 * password::MAX_LENGTH {
        return Err(ApiError::field("password", "is not correct"));
    }
    let locked = "re-authentication refused: locked after repeated failures";
    check_password(ctx, owner, jar, ip, typed, "password", locked).await?;
    ctx.db
        .set_session_reauthenticated(&owner.session, ctx.now_ms())
        .await?;
    tracing::info!("the owner confirmed the password");
    Ok(())
}

/// What an e-mailed link's reset sends: its token, the new password and, with the second factor
/// on, a one-time or recovery code.
pub struct Reset<'a> {
    pub token: &'a str,
    pub password: SecretString,
    pub code: Option<&'a str>,
}

/// Sets a new password with an e-mailed link's token: the link works once and for 30 minutes;
/// with the second factor on, a code is needed too (a missing one is a 422 naming `code`, and the
/// link still works). It never signs in: every session ends, and the owner gets a notice.
pub async fn reset(
    ctx: &Ctx<'_>,
    jar: &CookieJar,
    ip: IpAddr,
    form: Reset<'_>,
) -> Result<(), ApiError> {
    let gone = || ApiError::field("token", "has expired or was used; ask for a new link");
    if form.token.is_empty() || form.token.len() > 128 {
        return Err(gone());
    }
    if let Some(problem) = password::weakness(form.password.expose_secret()) {
        return Err(ApiError::field("password", problem));
    }
    let db = ctx.db;
    let hash = session::token_hash(form.token);
    let owner_id = db
        .find_password_reset(&hash, ctx.now_ms())
        .await?
        .ok_or_else(gone)?;
    let owner_row = db.find_owner_by_id(owner_id).await?.ok_or_else(gone)?;
    if second_factor::is_on(db, owner_id).await? {
        let code = form.code.unwrap_or_default();
        checked_code(ctx, jar, ip, &owner_row, code).await?;
    }
    // Hashed before the link is used up, so that a busy server (503) leaves the link working.
    let new_hash = owner::checked_hash(form.password)
        .await
        .map_err(|error| match error {
            owner::SetPasswordError::Weak(problem) => ApiError::field("password", problem),
            owner::SetPasswordError::Failed(error) => hashing_error(error),
        })?;
    if !db.take_password_reset(&hash, ctx.now_ms()).await? {
        return Err(gone());
    }
    let ended = match owner::store_password(db, owner::Whose::Owner(owner_id), &new_hash).await {
        Ok(owner::PasswordSet::Set { ended, .. }) => ended,
        Ok(_) => 0,
        Err(owner::SetPasswordError::Weak(problem)) => {
            return Err(ApiError::field("password", problem))
        }
        Err(owner::SetPasswordError::Failed(error)) => return Err(error.into()),
    };
    // The owner proved the mailbox: the account's sign-in lock is lifted, as `owner set` does.
    db.clear_sign_in_failures(&[&throttle::account_key(&owner_row.email)])
        .await?;
    tracing::info!(ended, "the owner set a new password with a reset link");
    let passkeys = passkey_names(ctx, owner_id).await?;
    notify_owner(
        ctx,
        owner_id,
        reset::DONE_SUBJECT,
        &reset::done_text(&passkeys),
    )
    .await;
    Ok(())
}
