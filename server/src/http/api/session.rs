//! `/api/session`: the owner signs in and out, everywhere at once, and changes the password.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{device, owner, password, session, throttle, Owner};
use crate::clock::now_ms;
use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::layers::no_store::no_store;
use crate::http::state::AppState;

/// The one answer to every failed sign-in, whatever was wrong.
const SIGN_IN_FAILED: &str = "The email or password is incorrect.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(current, sign_in, sign_out))
        .routes(routes!(sign_out_everywhere))
        .routes(routes!(change_password))
        .layer(no_store())
}

/// The signed-in owner, as the pages see it.
#[derive(Debug, Serialize, ToSchema)]
pub struct OwnerView {
    pub email: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignIn {
    #[schema(example = "you@example.com")]
    email: String,
    #[schema(value_type = String, format = Password)]
    password: SecretString,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangePassword {
    #[schema(value_type = String, format = Password)]
    current_password: SecretString,
    #[schema(value_type = String, format = Password)]
    new_password: SecretString,
}

/// The owner this session belongs to.
#[utoipa::path(get, path = "/session", tag = "session",
    responses(
        (status = 200, description = "Signed in", body = OwnerView),
        (status = 401, description = "No valid session", body = ErrorBody),
    ))]
async fn current(owner: Owner) -> ApiJson<OwnerView> {
    ApiJson(OwnerView { email: owner.email })
}

/// Signs the owner in: a new session (and cookie) at every sign-in.
#[utoipa::path(post, path = "/session", tag = "session", request_body = SignIn,
    responses(
        (status = 200, description = "Signed in; the session cookie is set", body = OwnerView),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "The email or password is incorrect", body = ErrorBody),
        (status = 403, description = "Not from the site's own pages", body = ErrorBody),
        (status = 413, description = "Body over 16 KB", body = ErrorBody),
        (status = 415, description = "Not JSON", body = ErrorBody),
        (status = 422, description = "A field is missing or too long", body = ErrorBody),
        (status = 429, description = "Too many failures; see Retry-After", body = ErrorBody),
        (status = 503, description = "Every password-hashing slot is busy; see Retry-After", body = ErrorBody),
    ))]
async fn sign_in(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    ApiJson(form): ApiJson<SignIn>,
) -> Result<Response, ApiError> {
    use secrecy::ExposeSecret;
    if form.email.len() > 254 {
        return Err(ApiError::field(
            "email",
            "must be at most 254 characters long",
        ));
    }
    if form.password.expose_secret().len() > 4 * password::MAX_LENGTH {
        return Err(ApiError::field("password", "is too long"));
    }

    let db = &state.db;
    let attempt = Attempt::new(&state, &jar, &form.email, ip);
    let keys = attempt.keys();
    count_attempt(
        &state,
        &keys,
        "Too many failed sign-ins.",
        "sign-in refused: locked after repeated failures",
        crate::ops::metrics::sign_in_locked,
    )
    .await?;

    let owner = db.find_owner_by_email(form.email.trim()).await?;
    let stored = owner.as_ref().map(|o| o.password_hash.clone());
    let valid = password::verify(form.password, stored)
        .await
        .map_err(hashing_error)?;
    let owner = match owner {
        Some(owner) if valid => owner,
        _ => {
            crate::ops::metrics::sign_in_failed();
            tracing::info!("a sign-in failed");
            return Ok(sign_in_failed());
        }
    };

    // Success clears this browser's counters, and for a known browser the account's too.
    let mut cleared = keys.clone();
    if attempt.device.is_some() {
        cleared.push(&attempt.account);
    }
    db.clear_sign_in_failures(&cleared).await?;
    // Rotation: whatever session the browser had is ended, and a new one begins.
    if let Some(old) = session::token_from(&jar, &state.settings) {
        db.delete_session(&session::token_hash(&old)).await?;
    }
    let token = session::start(db, &state.settings, owner.id).await?;
    tracing::info!(
        known_browser = attempt.device.is_some(),
        "the owner signed in"
    );
    let mut response = (
        session::set_cookie(&state.settings, &token),
        ApiJson(OwnerView { email: owner.email }),
    )
        .into_response();
    if attempt.device.is_none() {
        let value = device::issue(state.auth.device_key());
        response.headers_mut().append(
            axum::http::header::SET_COOKIE,
            device::set_cookie(&state.settings, &value),
        );
        notify_owner(
            &state,
            "New sign-in to your portfolio",
            "Someone signed in to your portfolio's dashboard from a browser that had not signed in before.\n\n\
             If it was you, there is nothing to do. If not, change your password at once \
             (Account, Change password), which signs out every other session.\n",
        );
    }
    Ok(response)
}

/// A security notice to the owner, when e-mail is configured.
fn notify_owner(state: &AppState, subject: &str, body: &str) {
    if let Some(mailer) = state.contact.mailer.get() {
        mailer.send_notice_in_background(subject, body.to_owned());
    }
}

/// A password check that found every hashing slot taken is 503, not 500.
fn hashing_error(error: anyhow::Error) -> ApiError {
    if error.is::<password::Busy>() {
        ApiError::ServiceUnavailable {
            retry_after_secs: 1,
            message: "The server is busy checking other sign-ins. Try again in a moment.".into(),
        }
    } else {
        ApiError::from(error)
    }
}

/// 401 with the same body whatever was wrong (`ApiError::Unauthorized` reads "sign in to
/// continue", which suits a missing session, not a failed sign-in).
fn sign_in_failed() -> Response {
    let body = ErrorBody {
        error: ErrorDetail {
            code: "invalid_credentials".into(),
            message: SIGN_IN_FAILED.into(),
            fields: None,
        },
    };
    (StatusCode::UNAUTHORIZED, axum::Json(body)).into_response()
}

/// The throttle's keys for one attempt at the owner's password (signing in or changing it).
struct Attempt {
    /// The browser's own key, when it has signed in before.
    device: Option<String>,
    /// The account's key (a hash of the e-mail typed).
    account: String,
    /// The client's key (its network hashed with the server's salt).
    client: String,
}

impl Attempt {
    fn new(state: &AppState, jar: &CookieJar, email: &str, ip: std::net::IpAddr) -> Self {
        Self {
            device: device::known(jar, &state.settings, state.auth.device_key()),
            account: throttle::account_key(email),
            client: throttle::client_key(state.auth.client_salt(), ip),
        }
    }

    /// A browser that has signed in before is judged by its own counter; any other by the
    /// account's and its address's.
    fn keys(&self) -> Vec<&str> {
        match &self.device {
            Some(device) => vec![device.as_str()],
            None => vec![self.account.as_str(), self.client.as_str()],
        }
    }
}

/// Counts an attempt on `keys` before any password is checked. While a key is locked the answer
/// is a 429 starting with `refused` and saying how long to wait; `log` goes to the log with the
/// keys (hashed), and `on_locked` counts the refusal where a metric does.
async fn count_attempt(
    state: &AppState,
    keys: &[&str],
    refused: &str,
    log: &str,
    on_locked: fn(),
) -> Result<(), ApiError> {
    let Err(wait_ms) = throttle::admit(&state.db, keys, now_ms()).await? else {
        return Ok(());
    };
    let secs = u64::try_from((wait_ms + 999) / 1000).unwrap_or(1);
    on_locked();
    let salt = state.auth.client_salt();
    let logged: Vec<String> = keys.iter().map(|k| throttle::logged_key(salt, k)).collect();
    tracing::warn!(keys = ?logged, "{log}");
    Err(ApiError::TooManyRequests {
        retry_after_secs: secs,
        message: format!("{refused} Try again in {}.", crate::error::human_wait(secs)),
    })
}

/// Signs out: the session is deleted on the server and the cookie removed.
#[utoipa::path(delete, path = "/session", tag = "session",
    responses((status = 204, description = "Signed out (also when there was no session)")))]
async fn sign_out(State(state): State<AppState>, jar: CookieJar) -> Result<Response, ApiError> {
    if let Some(token) = session::token_from(&jar, &state.settings) {
        state
            .db
            .delete_session(&session::token_hash(&token))
            .await?;
    }
    Ok((
        StatusCode::NO_CONTENT,
        session::clear_cookie(&state.settings),
    )
        .into_response())
}

/// Signs out everywhere: every session of the owner is deleted.
#[utoipa::path(delete, path = "/sessions", tag = "session",
    responses(
        (status = 204, description = "Every session ended"),
        (status = 401, description = "No valid session", body = ErrorBody),
    ))]
async fn sign_out_everywhere(
    State(state): State<AppState>,
    owner: Owner,
) -> Result<Response, ApiError> {
    let ended = state.db.delete_owner_sessions(owner.id, None).await?;
    tracing::info!(ended, "the owner signed out everywhere");
    Ok((
        StatusCode::NO_CONTENT,
        session::clear_cookie(&state.settings),
    )
        .into_response())
}

/// Changes the password (the current one is required) and ends every other session.
#[utoipa::path(put, path = "/session/password", tag = "session", request_body = ChangePassword,
    responses(
        (status = 204, description = "Changed; this browser gets a new session, the others are signed out"),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 401, description = "No valid session", body = ErrorBody),
        (status = 403, description = "Not from the site's own pages", body = ErrorBody),
        (status = 413, description = "Body over 16 KB", body = ErrorBody),
        (status = 415, description = "Not JSON", body = ErrorBody),
        (status = 422, description = "The current password is wrong or the new one is too weak", body = ErrorBody),
        (status = 429, description = "Too many wrong passwords; see Retry-After", body = ErrorBody),
        (status = 503, description = "Every password-hashing slot is busy; see Retry-After", body = ErrorBody),
    ))]
async fn change_password(
    State(state): State<AppState>,
    owner: Owner,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    ApiJson(form): ApiJson<ChangePassword>,
) -> Result<Response, ApiError> {
    use secrecy::ExposeSecret;
    if form.current_password.expose_secret().len() > 4 * password::MAX_LENGTH {
        return Err(ApiError::field("currentPassword", "is not correct"));
    }
    if let Some(problem) = password::weakness(form.new_password.expose_secret()) {
        return Err(ApiError::field("newPassword", problem));
    }
    let db = &state.db;
    let row = db
        .find_owner_by_id(owner.id)
        .await?
        .ok_or(ApiError::Unauthorized)?;
    // Throttled like sign-in: a stolen session must not become a way to guess the password.
    let attempt = Attempt::new(&state, &jar, &row.email, ip);
    let keys = attempt.keys();
    count_attempt(
        &state,
        &keys,
        "Too many wrong passwords.",
        "password change refused: locked after repeated failures",
        || {},
    )
    .await?;
    if !password::verify(form.current_password, Some(row.password_hash))
        .await
        .map_err(hashing_error)?
    {
        return Err(ApiError::field("currentPassword", "is not correct"));
    }
    db.clear_sign_in_failures(&keys).await?;
    // Every session ends, this one included; this browser gets a fresh one.
    owner::set_password(db, owner::Whose::Owner(owner.id), form.new_password)
        .await
        .map_err(|error| match error {
            owner::SetPasswordError::Weak(problem) => ApiError::field("newPassword", problem),
            owner::SetPasswordError::Failed(error) => hashing_error(error),
        })?;
    let token = session::start(db, &state.settings, owner.id).await?;
    tracing::info!("the owner changed the password");
    notify_owner(
        &state,
        "Your portfolio's password was changed",
        "The password of your portfolio's dashboard was just changed, and every other session was signed out.\n\n\
         If it was not you, set a new password on the server with `portfolio owner set`.\n",
    );
    Ok((
        StatusCode::NO_CONTENT,
        session::set_cookie(&state.settings, &token),
    )
        .into_response())
}
