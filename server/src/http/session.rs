//! `/api/session`: the owner signs in and out, everywhere at once, and changes the password.

use axum::extract::State;
use axum::http::header::{HeaderValue, CACHE_CONTROL};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use tower_http::set_header::SetResponseHeaderLayer;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::auth::{device, password, session, throttle, Owner};
use crate::clock::now_ms;
use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::http::client_ip::ClientIp;
use crate::http::json::ApiJson;
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

/// Answers that carry private data must not be kept by any cache.
pub fn no_store() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(CACHE_CONTROL, HeaderValue::from_static("no-store"))
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
    let now = now_ms();
    // A browser that has signed in before is judged by its own counter; any other by the
    // account's and its address's. Either way the attempt is counted before the password is
    // checked.
    let device = device::known(&jar, &state.settings, state.auth.device_key());
    let account = throttle::account_key(&form.email);
    let client = throttle::client_key(state.auth.client_salt(), ip);
    let keys: Vec<&str> = match &device {
        Some(device) => vec![device.as_str()],
        None => vec![account.as_str(), client.as_str()],
    };
    if let Err(wait_ms) = throttle::admit(db, &keys, now).await? {
        let secs = u64::try_from((wait_ms + 999) / 1000).unwrap_or(1);
        crate::ops::metrics::sign_in_locked();
        let salt = state.auth.client_salt();
        let logged: Vec<String> = keys.iter().map(|k| throttle::logged_key(salt, k)).collect();
        tracing::warn!(keys = ?logged, "sign-in refused: locked after repeated failures");
        return Err(ApiError::TooManyRequests {
            retry_after_secs: secs,
            message: format!(
                "Too many failed sign-ins. Try again in {}.",
                human_wait(secs)
            ),
        });
    }

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
    if device.is_some() {
        cleared.push(&account);
    }
    db.clear_sign_in_failures(&cleared).await?;
    // Rotation: whatever session the browser had is ended, and a new one begins.
    if let Some(old) = session::token_from(&jar, &state.settings) {
        db.delete_session(&session::token_hash(&old)).await?;
    }
    let token = session::start(db, &state.settings, owner.id).await?;
    tracing::info!(known_browser = device.is_some(), "the owner signed in");
    let mut response = (
        session::set_cookie(&state.settings, &token),
        ApiJson(OwnerView { email: owner.email }),
    )
        .into_response();
    if device.is_none() {
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

fn human_wait(secs: u64) -> String {
    match secs {
        0..=1 => "1 second".into(),
        2..=90 => format!("{secs} seconds"),
        _ => format!("{} minutes", secs.div_ceil(60)),
    }
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
    let device = device::known(&jar, &state.settings, state.auth.device_key());
    let account = throttle::account_key(&row.email);
    let client = throttle::client_key(state.auth.client_salt(), ip);
    let keys: Vec<&str> = match &device {
        Some(device) => vec![device.as_str()],
        None => vec![account.as_str(), client.as_str()],
    };
    if let Err(wait_ms) = throttle::admit(db, &keys, now_ms()).await? {
        let secs = u64::try_from((wait_ms + 999) / 1000).unwrap_or(1);
        let salt = state.auth.client_salt();
        let logged: Vec<String> = keys.iter().map(|k| throttle::logged_key(salt, k)).collect();
        tracing::warn!(keys = ?logged, "password change refused: locked after repeated failures");
        return Err(ApiError::TooManyRequests {
            retry_after_secs: secs,
            message: format!(
                "Too many wrong passwords. Try again in {}.",
                human_wait(secs)
            ),
        });
    }
    if !password::verify(form.current_password, Some(row.password_hash))
        .await
        .map_err(hashing_error)?
    {
        return Err(ApiError::field("currentPassword", "is not correct"));
    }
    db.clear_sign_in_failures(&keys).await?;
    let hash = password::hash(form.new_password)
        .await
        .map_err(hashing_error)?;
    db.set_owner_password(owner.id, &hash, now_ms()).await?;
    // Every session ends, this one included; this browser gets a fresh one.
    db.delete_owner_sessions(owner.id, None).await?;
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
