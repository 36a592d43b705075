//! The throttle around every guess at a secret of the owner's (a password or a code): the keys it
//! counts on, the count before the check, and the password check of a signed-in owner.

use std::net::IpAddr;

use axum_extra::extract::CookieJar;
use secrecy::SecretString;

use super::context::{hashing_error, Ctx};
use crate::auth::session::Owner;
use crate::auth::{device, password, throttle};
use crate::error::ApiError;

/// The throttle's keys for one attempt at the owner's password (signing in or changing it).
pub struct Attempt {
    /// The browser's own key, when it has signed in before.
    device: Option<String>,
    /// The account's key (a hash of the e-mail typed).
    account: String,
    /// The client's key (its network hashed with the server's salt).
    client: String,
}

impl Attempt {
    pub fn new(ctx: &Ctx<'_>, jar: &CookieJar, email: &str, ip: IpAddr) -> Self {
        Self {
            device: device::known(jar, ctx.settings, ctx.auth.device_key()),
            account: throttle::account_key(email),
            client: throttle::client_key(ctx.auth.client_salt(), ip),
        }
    }

    /// A browser that has signed in before is judged by its own counter; any other by the
    /// account's and its address's.
    pub fn keys(&self) -> Vec<&str> {
        match &self.device {
            Some(device) => vec![device.as_str()],
            None => vec![self.account.as_str(), self.client.as_str()],
        }
    }

    /// The keys a success clears: this browser's counters, and for a known browser the
    /// account's too.
    pub fn cleared(&self) -> Vec<&str> {
        let mut cleared = self.keys();
        if self.device.is_some() {
            cleared.push(&self.account);
        }
        cleared
    }

    /// The same keys for the second factor's codes, counted apart from the password's.
    pub fn for_codes(&self) -> Self {
        let code = |key: &str| format!("code:{key}");
        Self {
            device: self.device.as_deref().map(code),
            account: code(&self.account),
            client: code(&self.client),
        }
    }
}

/// Counts an attempt on `keys` before any password is checked. While a key is locked the answer
/// is a 429 starting with `refused` and saying how long to wait; `log` goes to the log with the
/// keys (hashed), and `on_locked` counts the refusal where a metric does.
pub async fn count_attempt(
    ctx: &Ctx<'_>,
    keys: &[&str],
    refused: &str,
    log: &str,
    on_locked: fn(),
) -> Result<(), ApiError> {
    let Err(wait_ms) = throttle::admit(ctx.db, keys, ctx.now_ms()).await? else {
        return Ok(());
    };
    let secs = u64::try_from((wait_ms + 999) / 1000).unwrap_or(1);
    on_locked();
    let salt = ctx.auth.client_salt();
    let logged: Vec<String> = keys.iter().map(|k| throttle::logged_key(salt, k)).collect();
    tracing::warn!(keys = ?logged, "{log}");
    Err(ApiError::TooManyRequests {
        retry_after_secs: secs,
        message: format!("{refused} Try again in {}.", crate::error::human_wait(secs)),
    })
}

/// Checks the signed-in owner's password (typed in the form's `field`), throttled like sign-in: a
/// stolen session must not become a way to guess the password. `locked` is what the log says when
/// the throttle refuses.
pub async fn check_password(
    ctx: &Ctx<'_>,
    owner: &Owner,
    jar: &CookieJar,
    ip: IpAddr,
    typed: SecretString,
    field: &str,
    locked: &str,
) -> Result<(), ApiError> {
    let row = ctx
        .db
        .find_owner_by_id(owner.id)
        .await?
        .ok_or(ApiError::Unauthorized)?;
    let attempt = Attempt::new(ctx, jar, &row.email, ip);
    let keys = attempt.keys();
    count_attempt(ctx, &keys, "Too many wrong passwords.", locked, || {}).await?;
    if !password::verify(typed, Some(row.password_hash))
        .await
        .map_err(hashing_error)?
    {
        return Err(ApiError::field(field, "is not correct"));
    }
    ctx.db.clear_sign_in_failures(&keys).await?;
    Ok(())
}
