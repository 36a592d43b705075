//! Signing in: with the e-mail and password, then the second factor's code when it is on; and
//! what every way in ends with (a passkey's too): the new session, a new browser made known and
//! the owner told of it.

use std::net::IpAddr;

use axum::http::header::HeaderValue;
use axum::response::AppendHeaders;
use axum_extra::extract::CookieJar;
use secrecy::{ExposeSecret, SecretString};
use serde::Serialize;
use utoipa::ToSchema;

use super::attempt::{count_attempt, Attempt};
use super::context::{hashing_error, Ctx};
use super::notify::notify_owner;
use crate::auth::second_factor::{self, CodeCheck};
use crate::auth::session::{self, Method};
use crate::auth::{device, password};
use crate::error::ApiError;
use crate::store::OwnerRow;

/// The signed-in owner, as the pages see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OwnerView {
    pub email: String,
}

/// A sign-in done: the owner, and the `Set-Cookie` values of the answer, in order (the session's
/// and its hint's; the device's for a browser new to signing in; the pending sign-in's removal
/// after a code).
pub struct SignedIn {
    pub owner: OwnerView,
    pub cookies: Vec<HeaderValue>,
}

/// How a password sign-in ended.
pub enum PasswordSignIn {
    /// The e-mail or password is wrong: one answer, whatever was wrong.
    Failed,
    /// The password is right and the second factor is on: only a pending sign-in, whose cookie
    /// this is, that the code completes.
    Pending {
        cookie: HeaderValue,
    },
    SignedIn(SignedIn),
}

/// Signs the owner in with the e-mail and password (throttled on the browser's, the account's and
/// the address's counters): a new session at every sign-in; with the second factor on, only a
/// pending sign-in that [`with_code`] completes.
pub async fn with_password(
    ctx: &Ctx<'_>,
    jar: &CookieJar,
    ip: IpAddr,
    user_agent: &str,
    email: &str,
    typed: SecretString,
) -> Result<PasswordSignIn, ApiError> {
    if email.len() > 254 {
        return Err(ApiError::field(
            "email",
            "must be at most 254 characters long",
        ));
    }
    if typed.expose_secret().len() > 4 * password::MAX_LENGTH {
        return Err(ApiError::field("password", "is too long"));
    }
    let db = ctx.db;
    let attempt = Attempt::new(ctx, jar, email, ip);
    count_attempt(
        ctx,
        &attempt.keys(),
        "Too many failed sign-ins.",
        "sign-in refused: locked after repeated failures",
        ctx.counters.sign_in_locked,
    )
    .await?;

    let owner = db.find_owner_by_email(email.trim()).await?;
    let stored = owner.as_ref().map(|o| o.password_hash.clone());
    let valid = password::verify(typed, stored)
        .await
        .map_err(hashing_error)?;
    let owner = match owner {
        Some(owner) if valid => owner,
        _ => {
            (ctx.counters.sign_in_failed)();
            tracing::info!("a sign-in failed");
            return Ok(PasswordSignIn::Failed);
        }
    };
    db.clear_sign_in_failures(&attempt.cleared()).await?;

    let now = ctx.now_ms();
    if second_factor::is_on(db, owner.id).await? {
        // The password alone signs no one in: a pending sign-in waits for the code.
        let token = session::new_token();
        db.insert_pending_sign_in(
            &session::token_hash(&token),
            owner.id,
            now + session::PENDING_MS,
            now,
        )
        .await?;
        tracing::info!("a password sign-in waits for its second factor");
        let cookie = session::set_pending_cookie(ctx.settings, &token);
        return Ok(PasswordSignIn::Pending { cookie });
    }
    let signed_in = complete(ctx, jar, user_agent, &owner, Method::Password, None).await?;
    Ok(PasswordSignIn::SignedIn(signed_in))
}

/// Completes a password sign-in with the second factor's code (one-time or recovery), when the
/// request carries the pending sign-in's cookie, within its five minutes, once. The pending
/// sign-in's cookie is removed.
pub async fn with_code(
    ctx: &Ctx<'_>,
    jar: &CookieJar,
    ip: IpAddr,
    user_agent: &str,
    code: &str,
) -> Result<SignedIn, ApiError> {
    let db = ctx.db;
    let token = session::pending_token_from(jar, ctx.settings).ok_or_else(pending_expired)?;
    let hash = session::token_hash(&token);
    let owner_id = db
        .find_pending_sign_in(&hash, ctx.now_ms())
        .await?
        .ok_or_else(pending_expired)?;
    let owner = db
        .find_owner_by_id(owner_id)
        .await?
        .ok_or_else(pending_expired)?;
    checked_code(ctx, jar, ip, &owner, code).await?;
    if !db.take_pending_sign_in(&hash, ctx.now_ms()).await? {
        return Err(pending_expired());
    }
    let method = Method::PasswordAndCode;
    let mut signed_in = complete(ctx, jar, user_agent, &owner, method, None).await?;
    signed_in
        .cookies
        .push(session::clear_pending_cookie(ctx.settings));
    Ok(signed_in)
}

/// The answer when a pending sign-in has expired, was used, or never was.
fn pending_expired() -> ApiError {
    ApiError::SignInRefused {
        code: "sign_in_expired",
        message: "This sign-in has expired. Sign in again with your password.".into(),
    }
}

/// Signs the owner in once every factor is proven: this browser's previous session ends, a new
/// one begins (described for the session list; `passkey` names the passkey it signed in with, so
/// that removing the passkey ends it), and a browser that had not signed in before becomes known
/// (its device cookie) and the owner is told of it.
pub async fn complete(
    ctx: &Ctx<'_>,
    jar: &CookieJar,
    user_agent: &str,
    owner: &OwnerRow,
    method: Method,
    passkey: Option<&str>,
) -> Result<SignedIn, ApiError> {
    let db = ctx.db;
    // Rotation: whatever session the browser had is ended, and a new one begins.
    if let Some(old) = session::token_from(jar, ctx.settings) {
        db.delete_session(&session::token_hash(&old)).await?;
    }
    let mut origin = session_origin(user_agent, method);
    origin.passkey_id = passkey.map(str::to_owned);
    let token = session::start(db, ctx.settings, ctx.now_ms(), owner.id, &origin).await?;
    let known = device::known(jar, ctx.settings, ctx.auth.device_key()).is_some();
    tracing::info!(
        known_browser = known,
        method = method.as_str(),
        "the owner signed in"
    );
    let AppendHeaders(session_cookies) = session::set_cookie(ctx.settings, &token);
    let mut cookies: Vec<HeaderValue> = session_cookies.into_iter().map(|(_, v)| v).collect();
    if !known {
        let value = device::issue(ctx.auth.device_key());
        cookies.push(device::set_cookie(ctx.settings, &value));
        notify_owner(
            ctx,
            owner.id,
            "New sign-in to your portfolio",
            "Someone signed in to your portfolio's dashboard from a browser that had not signed in before.\n\n\
             If it was you, there is nothing to do. If not, someone knows your password: sign \
             every session out, then change the password (Account, Change password, or \
             \"Forgot password?\" on the login page).\n",
        )
        .await;
    }
    Ok(SignedIn {
        owner: OwnerView {
            email: owner.email.clone(),
        },
        cookies,
    })
}

/// What a new session of this request is: its browser (from the User-Agent) and how it signed in.
pub fn session_origin(user_agent: &str, method: Method) -> session::Origin {
    let (browser, device) = crate::insights::visitor::browser_and_device(user_agent);
    session::Origin {
        browser,
        device,
        method,
        passkey_id: None,
    }
}

/// Checks a second-factor code (one-time or recovery) of the owner's, throttled like passwords
/// (on counters of their own), and uses it up when it is right. A wrong code is a 422 naming
/// `code`; too many, a 429.
pub async fn checked_code(
    ctx: &Ctx<'_>,
    jar: &CookieJar,
    ip: IpAddr,
    owner: &OwnerRow,
    code: &str,
) -> Result<CodeCheck, ApiError> {
    if code.trim().is_empty() {
        return Err(ApiError::field("code", "is required"));
    }
    if code.len() > 64 {
        return Err(ApiError::field("code", second_factor::CODE_MISMATCH));
    }
    let attempt = Attempt::new(ctx, jar, &owner.email, ip).for_codes();
    count_attempt(
        ctx,
        &attempt.keys(),
        "Too many wrong codes.",
        "code refused: locked after repeated failures",
        ctx.counters.sign_in_locked,
    )
    .await?;
    let (issuer, now) = (ctx.auth.issuer(), ctx.now_ms());
    let check =
        second_factor::check_code(ctx.db, owner.id, issuer, &owner.email, code, now).await?;
    if check == CodeCheck::Wrong {
        (ctx.counters.sign_in_failed)();
        tracing::info!("a second-factor code was refused");
        return Err(ApiError::field("code", second_factor::CODE_MISMATCH));
    }
    ctx.db.clear_sign_in_failures(&attempt.cleared()).await?;
    if check == CodeCheck::Recovery {
        let left = ctx.db.recovery_codes_left(owner.id).await?;
        tracing::info!(left, "a recovery code was used");
        notify_owner(
            ctx,
            owner.id,
            "A recovery code of your portfolio was used",
            &format!(
                "One of the recovery codes of your portfolio's dashboard was just used to sign in \
                 or to set a password; {left} are left. Each works once.\n\n\
                 If it was not you, change your password at once and make new recovery codes \
                 (Account, Second factor).\n"
            ),
        )
        .await;
    }
    Ok(check)
}
