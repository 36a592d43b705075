//! Sessions: a random 256-bit token in an HttpOnly, SameSite=Strict cookie; only its SHA-256
//! is stored. [`owner_from`] turns a valid cookie into the signed-in owner (the `Owner`
//! extractor in http/ calls it).

use axum::http::header::{HeaderValue, SET_COOKIE};
use axum::response::AppendHeaders;
use axum_extra::extract::CookieJar;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use sha2::{Digest, Sha256};

use crate::config::Settings;
use crate::error::ApiError;
use crate::store::{Db, NewSession};

use crate::clock::now_ms;

/// Renewing the idle expiry at most this often spares a write on every request.
const TOUCH_EVERY_MS: i64 = 60_000;

/// A new session token: 32 random bytes from the OS generator, URL-safe base64.
pub fn new_token() -> String {
    let bytes: [u8; 32] = rand::random();
    URL_SAFE_NO_PAD.encode(bytes)
}

pub fn token_hash(token: &str) -> String {
    hex::encode(Sha256::digest(token.as_bytes()))
}

/// The cookie's name: with the `__Host-` prefix over HTTPS, which browsers only accept when
/// it is Secure, has Path=/ and no Domain.
pub fn cookie_name(settings: &Settings) -> &'static str {
    if settings.is_https() {
        "__Host-portfolio_session"
    } else {
        "portfolio_session"
    }
}

/// The name of the hint cookie that tells the pages someone is signed in. It carries no
/// secret (its value is `1`), so scripts may read it: the pages skip asking the server about a
/// session when it is absent, and a visitor never gets a 401.
pub fn hint_name(settings: &Settings) -> &'static str {
    if settings.is_https() {
        "__Host-portfolio_signed_in"
    } else {
        "portfolio_signed_in"
    }
}

fn cookie(
    name: &str,
    value: &str,
    http_only: bool,
    max_age_secs: u64,
    settings: &Settings,
) -> HeaderValue {
    let secure = if settings.is_https() { "; Secure" } else { "" };
    let http_only = if http_only { "; HttpOnly" } else { "" };
    HeaderValue::from_str(&format!(
        "{name}={value}; Path=/{http_only}; SameSite=Strict; Max-Age={max_age_secs}{secure}"
    ))
    .expect("a cookie of URL-safe characters is a valid header")
}

/// Appended, not inserted: both cookies need their own `Set-Cookie` line.
type SetCookies = AppendHeaders<[(axum::http::HeaderName, HeaderValue); 2]>;

/// `Set-Cookie` for a new session, and its hint.
pub fn set_cookie(settings: &Settings, token: &str) -> SetCookies {
    let max_age = settings.session_absolute().as_secs();
    AppendHeaders([
        (
            SET_COOKIE,
            cookie(cookie_name(settings), token, true, max_age, settings),
        ),
        (
            SET_COOKIE,
            cookie(hint_name(settings), "1", false, max_age, settings),
        ),
    ])
}

/// `Set-Cookie` that removes the session cookie and its hint.
pub fn clear_cookie(settings: &Settings) -> SetCookies {
    AppendHeaders([
        (
            SET_COOKIE,
            cookie(cookie_name(settings), "", true, 0, settings),
        ),
        (
            SET_COOKIE,
            cookie(hint_name(settings), "", false, 0, settings),
        ),
    ])
}

/// The session token the request carries, if any.
pub fn token_from(jar: &CookieJar, settings: &Settings) -> Option<String> {
    jar.get(cookie_name(settings))
        .map(|c| c.value().to_owned())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// Starts a session for the owner; returns its token.
pub async fn start(db: &Db, settings: &Settings, owner_id: i64) -> anyhow::Result<String> {
    let now = now_ms();
    db.delete_expired_sessions(now).await?;
    // Failure counters past their window are forgotten at the same time.
    db.purge_sign_in_failures(now - super::throttle::FORGET_AFTER_MS, now)
        .await?;
    let token = new_token();
    let idle = millis(settings.session_idle());
    let absolute = now + millis(settings.session_absolute());
    db.insert_session(&NewSession {
        token_hash: &token_hash(&token),
        owner_id,
        now,
        idle_expires_at: (now + idle).min(absolute),
        absolute_expires_at: absolute,
    })
    .await?;
    Ok(token)
}

fn millis(duration: std::time::Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX / 4)
}

/// The signed-in owner, taken from the session cookie. Using it renews the idle expiry.
#[derive(Debug, Clone)]
pub struct Owner {
    pub id: i64,
    pub email: String,
    /// The hash of this request's session token.
    pub session: String,
}

/// The owner whose session cookie is in `jar`, renewing the session's idle expiry; Unauthorized
/// without a valid one.
pub async fn owner_from(db: &Db, settings: &Settings, jar: &CookieJar) -> Result<Owner, ApiError> {
    let token = token_from(jar, settings).ok_or(ApiError::Unauthorized)?;
    let hash = token_hash(&token);
    let now = now_ms();
    let session = db
        .find_valid_session(&hash, now)
        .await?
        .ok_or(ApiError::Unauthorized)?;
    if now - session.last_seen_at >= TOUCH_EVERY_MS {
        let idle = now + millis(settings.session_idle());
        db.touch_session(&hash, now, idle.min(session.absolute_expires_at))
            .await?;
    }
    Ok(Owner {
        id: session.owner_id,
        email: session.email,
        session: hash,
    })
}
