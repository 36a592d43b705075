//! The second factor's flows: setting it up, confirming it with a first code (which turns it on,
//! signs every other session out and makes the recovery codes), turning it off and new recovery
//! codes. Each asks for the password or a passkey within the last five minutes.

use std::net::IpAddr;

use axum_extra::extract::CookieJar;

use super::attempt::{count_attempt, Attempt};
use super::context::{require_recent_authentication, Ctx};
use super::notify::notify_owner;
use crate::auth::second_factor;
use crate::auth::session::Owner;
use crate::error::ApiError;

/// A setup begun: the new key's TOTP (for its base32 form and its `otpauth://` address).
pub async fn set_up(ctx: &Ctx<'_>, owner: &Owner) -> Result<totp_rs::TOTP, ApiError> {
    require_recent_authentication(ctx, owner)?;
    let secret = second_factor::new_secret();
    if !ctx
        .db
        .begin_second_factor(owner.id, &secret, ctx.now_ms())
        .await?
    {
        return Err(ApiError::Conflict(
            "The second factor is on already; turn it off to set it up again.".into(),
        ));
    }
    let totp = second_factor::totp(&secret, ctx.auth.issuer(), &owner.email)?;
    tracing::info!("the owner began setting up a second factor");
    Ok(totp)
}

/// Confirms the setup with the first code the app shows (wrong codes throttled like passwords):
/// the second factor is on from now on, every other session is signed out, and the answer is the
/// ten recovery codes.
pub async fn confirm(
    ctx: &Ctx<'_>,
    owner: &Owner,
    jar: &CookieJar,
    ip: IpAddr,
    typed: &str,
) -> Result<Vec<String>, ApiError> {
    require_recent_authentication(ctx, owner)?;
    let db = ctx.db;
    let row = db
        .second_factor(owner.id)
        .await?
        .filter(|row| row.enabled_at.is_none())
        .ok_or_else(|| {
            ApiError::Conflict("No setup awaits a code: begin the setup first.".into())
        })?;
    let Some(code) = second_factor::as_totp_code(typed) else {
        return Err(ApiError::field(
            "code",
            "must be the six digits the app shows",
        ));
    };
    let attempt = Attempt::new(ctx, jar, &owner.email, ip).for_codes();
    let keys = attempt.keys();
    count_attempt(
        ctx,
        &keys,
        "Too many wrong codes.",
        "second-factor setup refused: locked after repeated failures",
        || {},
    )
    .await?;
    let totp = second_factor::totp(&row.secret, ctx.auth.issuer(), &owner.email)?;
    let now = ctx.now_ms();
    let Some(step) = second_factor::matching_step(&totp, &code, now) else {
        return Err(ApiError::field("code", second_factor::CODE_MISMATCH));
    };
    let (codes, hashes) = recovery_codes();
    if !db
        .enable_second_factor(owner.id, &row.secret, step, &hashes, now)
        .await?
    {
        return Err(ApiError::Conflict(
            "The setup changed meanwhile: begin it again.".into(),
        ));
    }
    db.clear_sign_in_failures(&keys).await?;
    // From now on a session is two factors' worth: the others, signed in with less, end.
    let ended = db
        .delete_owner_sessions(owner.id, Some(&owner.session))
        .await?;
    db.delete_pending_sign_ins(owner.id).await?;
    tracing::info!(ended, "the owner turned the second factor on");
    notify_owner(
        ctx,
        owner.id,
        "A second factor now protects your portfolio",
        "Signing in to your portfolio's dashboard with the password now also asks for a code \
         from your authenticator app (or one of your recovery codes), and every other session \
         was signed out.\n\n\
         If it was not you, someone has your password and a session: sign every session out, \
         then turn the second factor off on the server (`portfolio owner second-factor off`) \
         and set a new password there (`portfolio owner set`).\n",
    )
    .await;
    Ok(codes)
}

/// New recovery codes and their hashes.
fn recovery_codes() -> (Vec<String>, Vec<String>) {
    let codes = second_factor::new_recovery_codes();
    let hashes = codes
        .iter()
        .map(|c| second_factor::recovery_code_hash(c))
        .collect();
    (codes, hashes)
}

/// Turns the second factor off (its key and recovery codes are deleted); the owner gets a
/// notice when it was on.
pub async fn turn_off(ctx: &Ctx<'_>, owner: &Owner) -> Result<(), ApiError> {
    require_recent_authentication(ctx, owner)?;
    if ctx.db.delete_second_factor(owner.id).await? {
        tracing::info!("the owner turned the second factor off");
        notify_owner(
            ctx,
            owner.id,
            "The second factor of your portfolio was turned off",
            "Signing in to your portfolio's dashboard with the password no longer asks for a code.\n\n\
             If it was not you, sign every session out, then change your password (\"Forgot \
             password?\" on the login page) and set the second factor up again.\n",
        )
        .await;
    }
    Ok(())
}

/// New recovery codes, replacing the old ones (which stop working); the owner gets a notice.
pub async fn renew_recovery_codes(ctx: &Ctx<'_>, owner: &Owner) -> Result<Vec<String>, ApiError> {
    require_recent_authentication(ctx, owner)?;
    if !second_factor::is_on(ctx.db, owner.id).await? {
        return Err(ApiError::Conflict("The second factor is off.".into()));
    }
    let (codes, hashes) = recovery_codes();
    ctx.db
        .replace_recovery_codes(owner.id, &hashes, ctx.now_ms())
        .await?;
    tracing::info!("the owner made new recovery codes");
    notify_owner(
        ctx,
        owner.id,
        "New recovery codes were made for your portfolio",
        "New recovery codes were made for your portfolio's dashboard; the old ones no longer work.\n\n\
         If it was not you, sign every session out, then change your password (\"Forgot \
         password?\" on the login page).\n",
    )
    .await;
    Ok(codes)
}
