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

/// How a session signed in, as the session list shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// The password alone (no second factor is on).
    Password,
    /// The password, then a one-time or recovery code.
    PasswordAndCode,
    /// A passkey (both factors at once).
    Passkey,
}

impl Method {
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Password => "password",
            Self::PasswordAndCode => "password+code",
            Self::Passkey => "passkey",
        }
    }
}

/// Where a new session comes from: its browser's family and device class (from the User-Agent;
/// never its address) and how it signed in.
#[derive(Debug, Clone)]
pub struct Origin {
    pub browser: String,
    pub device: &'static str,
    pub method: Method,
    /// The passkey it signed in with (its API id), for [`Method::Passkey`].
    pub passkey_id: Option<String>,
}

/// Starts a session for the owner at `now` (which also counts as its last re-authentication);
/// returns its token.
pub async fn start(
    db: &Db,
    settings: &Settings,
    now: i64,
    owner_id: i64,
    origin: &Origin,
) -> anyhow::Result<String> {
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
        browser: &origin.browser,
        device: origin.device,
        method: origin.method.as_str(),
        passkey_id: origin.passkey_id.as_deref(),
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
    /// When this session last proved the password or a passkey (its sign-in counts).
    pub reauthenticated_at: i64,
}

/// How long a re-authentication (or a sign-in) lets the owner make the changes that ask for one:
/// adding or removing a passkey, turning the second factor off, new recovery codes.
pub const REAUTH_WINDOW_MS: i64 = 5 * 60_000;

impl Owner {
    /// Whether this session proved the password or a passkey within [`REAUTH_WINDOW_MS`].
    pub fn recently_authenticated(&self, now: i64) -> bool {
        now - self.reauthenticated_at < REAUTH_WINDOW_MS && self.reauthenticated_at <= now
    }
}

/// The owner whose session cookie is in `jar` at `now`, renewing the session's idle expiry;
/// Unauthorized without a valid one.
pub async fn owner_from(
    db: &Db,
    settings: &Settings,
    jar: &CookieJar,
    now: i64,
) -> Result<Owner, ApiError> {
    let token = token_from(jar, settings).ok_or(ApiError::Unauthorized)?;
    let hash = token_hash(&token);
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
        reauthenticated_at: session.reauthenticated_at,
    })
}

/// A pending sign-in (the password was right; the second factor's code is still to come) lasts
/// this long, and its cookie as long.
pub const PENDING_MS: i64 = 5 * 60_000;

/// The pending sign-in's cookie: HttpOnly, SameSite=Strict, `__Host-` over HTTPS. It allows
/// nothing but sending a code (`POST /api/session/code`).
pub fn pending_cookie_name(settings: &Settings) -> &'static str {
    if settings.is_https() {
        "__Host-portfolio_pending"
    } else {
        "portfolio_pending"
    }
}

/// `Set-Cookie` for a pending sign-in's token.
pub fn set_pending_cookie(settings: &Settings, token: &str) -> HeaderValue {
    cookie(
        pending_cookie_name(settings),
        token,
        true,
        (PENDING_MS / 1000) as u64,
        settings,
    )
}

/// `Set-Cookie` that removes the pending sign-in's cookie.
pub fn clear_pending_cookie(settings: &Settings) -> HeaderValue {
    cookie(pending_cookie_name(settings), "", true, 0, settings)
}

/// The pending sign-in's token the request carries, if any.
pub fn pending_token_from(jar: &CookieJar, settings: &Settings) -> Option<String> {
    jar.get(pending_cookie_name(settings))
        .map(|c| c.value().to_owned())
        .filter(|v| !v.is_empty() && v.len() <= 128)
}

/// A session's id in the session list: a hash of its token's hash, so the list never shows
/// (and deleting one never takes) the token or the stored hash.
pub fn public_id(token_hash: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(b"session-id:");
    hasher.update(token_hash.as_bytes());
    hex::encode(&hasher.finalize()[..16])
}
