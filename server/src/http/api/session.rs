//! `/api/session`: the owner signs in (with the password, then a code when the second factor is
//! on) and out, everywhere at once or one session of the list at a time, changes the password,
//! and proves the password again before the changes that ask for it. The flows themselves are
//! in `auth::flows`.

use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{AppendHeaders, IntoResponse, Response};
use axum_extra::extract::CookieJar;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{
    CrossSite, HashingBusy, JsonBody, NoSession, TooManyWrongCodes, TooManyWrongPasswords,
};
use crate::auth::flows::password;
use crate::auth::flows::sign_in::{self, PasswordSignIn};
use crate::auth::{session, Owner};
use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::http::extract::auth_flows::{flows, user_agent};
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::layers::no_store::no_store;
use crate::http::state::AppState;

use crate::auth::flows::sign_in::OwnerView;

/// The one answer to every failed sign-in, whatever was wrong.
const SIGN_IN_FAILED: &str = "The email or password is incorrect.";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(current, sign_in, sign_out))
        .routes(routes!(submit_code))
        .routes(routes!(list_sessions, sign_out_everywhere))
        .routes(routes!(sign_out_one))
        .routes(routes!(change_password))
        .routes(routes!(reauthenticate))
        .routes(routes!(sign_out_with_link))
        .layer(no_store())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignIn {
    #[schema(example = "you@example.com")]
    email: String,
    #[schema(value_type = String, format = Password)]
    password: SecretString,
}

/// A password sign-in that waits for the second factor's code.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PendingView {
    /// Always true: send a one-time or recovery code to `POST /api/session/code`.
    pub second_factor_required: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CodeForm {
    /// Six digits from the authenticator app, or a recovery code (`xxxx-xxxx-xxxx-xxxx`).
    #[schema(example = "123456")]
    code: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SignOutLinkForm {
    /// The token from the notice's link (after `#`).
    token: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PasswordForm {
    #[schema(value_type = String, format = Password)]
    password: SecretString,
}

/// One signed-in browser.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionView {
    /// Opaque: names the session for `DELETE /api/sessions/{id}` (never its token).
    pub id: String,
    /// The browser's family (`Chrome`, `Firefox`, `Safari`, …) or `Other`.
    pub browser: String,
    /// `desktop`, `phone`, `tablet` or `other`.
    pub device: String,
    /// How it signed in: `password`, `password+code` or `passkey`.
    pub method: String,
    /// When it signed in (Unix milliseconds, UTC).
    pub signed_in_at: i64,
    /// When it was last used (Unix milliseconds; renewed at most once a minute).
    pub last_active_at: i64,
    /// Whether it is the session of this request.
    pub current: bool,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct SessionList {
    /// The most recently active first.
    pub sessions: Vec<SessionView>,
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
    operation_id = "readSession", security(("session" = [])),
    responses(
        (status = 200, description = "Signed in", body = OwnerView),
        NoSession,
    ))]
async fn current(owner: Owner) -> ApiJson<OwnerView> {
    ApiJson(OwnerView { email: owner.email })
}

/// Signs the owner in with the e-mail and password: a new session (and cookie) at every
/// sign-in; with the second factor on, only a pending sign-in (its own five-minute cookie) that
/// `POST /api/session/code` completes.
#[utoipa::path(post, path = "/session", tag = "session", request_body = SignIn,
    operation_id = "signIn",
    responses(
        (status = 200, description = "Signed in; the session cookie is set", body = OwnerView),
        (status = 202, description = "The password is right and the second factor is on: the pending sign-in's cookie is set; send a code", body = PendingView),
        (status = 401, description = "The email or password is incorrect", body = ErrorBody),
        (status = 422, description = "A field is missing or too long", body = ErrorBody),
        (status = 429, description = "Too many failures; see Retry-After", body = ErrorBody),
        CrossSite, JsonBody, HashingBusy,
    ))]
async fn sign_in(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    headers: HeaderMap,
    ApiJson(form): ApiJson<SignIn>,
) -> Result<Response, ApiError> {
    let ctx = flows(&state);
    let agent = user_agent(&headers);
    let outcome = sign_in::with_password(&ctx, &jar, ip, agent, &form.email, form.password);
    Ok(match outcome.await? {
        PasswordSignIn::Failed => sign_in_failed(),
        PasswordSignIn::Pending { cookie } => (
            StatusCode::ACCEPTED,
            AppendHeaders([(SET_COOKIE, cookie)]),
            ApiJson(PendingView {
                second_factor_required: true,
            }),
        )
            .into_response(),
        PasswordSignIn::SignedIn(signed_in) => signed_in.into_response(),
    })
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

/// Signs out: the session is deleted on the server and the cookie removed.
#[utoipa::path(delete, path = "/session", tag = "session",
    operation_id = "signOut",
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
    operation_id = "signOutEverywhere", security(("session" = [])),
    responses(
        (status = 204, description = "Every session ended"),
        NoSession,
    ))]
async fn sign_out_everywhere(
    State(state): State<AppState>,
    owner: Owner,
) -> Result<Response, ApiError> {
    let ended = state.db.delete_owner_sessions(owner.id, None).await?;
    state.db.delete_pending_sign_ins(owner.id).await?;
    tracing::info!(ended, "the owner signed out everywhere");
    Ok((
        StatusCode::NO_CONTENT,
        session::clear_cookie(&state.settings),
    )
        .into_response())
}

/// Changes the password (the current one is required) and ends every other session.
#[utoipa::path(put, path = "/session/password", tag = "session", request_body = ChangePassword,
    operation_id = "changePassword", security(("session" = [])),
    responses(
        (status = 204, description = "Changed; this browser gets a new session, the others are signed out"),
        (status = 422, description = "The current password is wrong or the new one is too weak", body = ErrorBody),
        NoSession, CrossSite, JsonBody, TooManyWrongPasswords, HashingBusy,
    ))]
async fn change_password(
    State(state): State<AppState>,
    owner: Owner,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    headers: HeaderMap,
    ApiJson(form): ApiJson<ChangePassword>,
) -> Result<Response, ApiError> {
    let (current, new) = (form.current_password, form.new_password);
    let agent = user_agent(&headers);
    let ctx = flows(&state);
    let token = password::change(&ctx, &owner, &jar, ip, agent, current, new).await?;
    Ok((
        StatusCode::NO_CONTENT,
        session::set_cookie(&state.settings, &token),
    )
        .into_response())
}

/// Completes a password sign-in with the second factor's code: a one-time code from the
/// authenticator app or a recovery code. Only the pending sign-in's cookie (from `POST
/// /api/session`) allows it; it lasts five minutes and works once.
#[utoipa::path(post, path = "/session/code", tag = "session", request_body = CodeForm,
    operation_id = "submitSignInCode",
    responses(
        (status = 200, description = "Signed in; the session cookie is set and the pending one removed", body = OwnerView),
        (status = 401, description = "No pending sign-in, or it has expired or was used (sign_in_expired)", body = ErrorBody),
        (status = 422, description = "The code is missing, wrong or used already", body = ErrorBody),
        CrossSite, JsonBody, TooManyWrongCodes,
    ))]
async fn submit_code(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    headers: HeaderMap,
    ApiJson(form): ApiJson<CodeForm>,
) -> Result<Response, ApiError> {
    let agent = user_agent(&headers);
    let signed_in = sign_in::with_code(&flows(&state), &jar, ip, agent, &form.code).await?;
    Ok(signed_in.into_response())
}

/// The owner's signed-in browsers, the most recently active first: browser family, device
/// class, how and when each signed in and when it was last used (never an address).
#[utoipa::path(get, path = "/sessions", tag = "session",
    operation_id = "listSessions", security(("session" = [])),
    responses(
        (status = 200, description = "The sessions", body = SessionList),
        NoSession,
    ))]
async fn list_sessions(
    State(state): State<AppState>,
    owner: Owner,
) -> Result<ApiJson<SessionList>, ApiError> {
    let rows = state
        .db
        .owner_sessions(owner.id, state.auth.now_ms())
        .await?;
    let sessions = rows
        .into_iter()
        .map(|row| SessionView {
            id: session::public_id(&row.token_hash),
            current: row.token_hash == owner.session,
            browser: row.browser,
            device: row.device,
            method: row.method,
            signed_in_at: row.created_at,
            last_active_at: row.last_seen_at,
        })
        .collect();
    Ok(ApiJson(SessionList { sessions }))
}

#[derive(Debug, Deserialize)]
pub struct SessionId {
    /// A session's `id` from the list.
    id: String,
}

/// Signs one session out (its `id` from the list); signing out this request's own session
/// removes its cookie too.
#[utoipa::path(delete, path = "/sessions/{id}", tag = "session",
    operation_id = "signOutSession", security(("session" = [])),
    params(("id" = String, Path, description = "The session's id from the list")),
    responses(
        (status = 204, description = "Signed out"),
        (status = 404, description = "No such session", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn sign_out_one(
    State(state): State<AppState>,
    owner: Owner,
    ApiPath(SessionId { id }): ApiPath<SessionId>,
) -> Result<Response, ApiError> {
    let rows = state
        .db
        .owner_sessions(owner.id, state.auth.now_ms())
        .await?;
    let row = rows
        .into_iter()
        .find(|row| session::public_id(&row.token_hash) == id)
        .ok_or(ApiError::NotFound)?;
    state.db.delete_session(&row.token_hash).await?;
    let current = row.token_hash == owner.session;
    tracing::info!(current, "the owner signed a session out");
    Ok(if current {
        (
            StatusCode::NO_CONTENT,
            session::clear_cookie(&state.settings),
        )
            .into_response()
    } else {
        StatusCode::NO_CONTENT.into_response()
    })
}

/// Proves the password again, for the changes that ask for it within five minutes (adding or
/// removing a passkey, turning the second factor off, new recovery codes). Throttled like the
/// password change. A passkey does the same through `/api/session/reauth/passkey/*`.
#[utoipa::path(post, path = "/session/reauth", tag = "session", request_body = PasswordForm,
    operation_id = "reauthenticate", security(("session" = [])),
    responses(
        (status = 204, description = "Confirmed for five minutes"),
        (status = 422, description = "The password is wrong", body = ErrorBody),
        NoSession, CrossSite, JsonBody, TooManyWrongPasswords, HashingBusy,
    ))]
async fn reauthenticate(
    State(state): State<AppState>,
    owner: Owner,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    ApiJson(form): ApiJson<PasswordForm>,
) -> Result<StatusCode, ApiError> {
    password::reauthenticate(&flows(&state), &owner, &jar, ip, form.password).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// The way out a security notice carries: signs every session of the owner out (and every sign-in
/// waiting for its code), with the notice's single-use link; changes nothing else. No session is
/// needed: it is for an owner whose session was taken and who may be locked out of the dashboard.
#[utoipa::path(post, path = "/session/sign-out-link", tag = "session", request_body = SignOutLinkForm,
    operation_id = "signOutWithLink",
    responses(
        (status = 204, description = "Every session was signed out; this browser's cookie is removed"),
        (status = 422, description = "The link has expired or was used (token)", body = ErrorBody),
        CrossSite, JsonBody,
    ))]
async fn sign_out_with_link(
    State(state): State<AppState>,
    ApiJson(form): ApiJson<SignOutLinkForm>,
) -> Result<Response, ApiError> {
    let gone = || ApiError::field("token", "has expired or was used");
    if form.token.is_empty() || form.token.len() > 128 {
        return Err(gone());
    }
    let owner_id = state
        .db
        .take_sign_out_link(&session::token_hash(&form.token), state.auth.now_ms())
        .await?
        .ok_or_else(gone)?;
    let ended = state.db.delete_owner_sessions(owner_id, None).await?;
    state.db.delete_pending_sign_ins(owner_id).await?;
    tracing::info!(
        ended,
        "the owner signed every session out with a notice's link"
    );
    Ok((
        StatusCode::NO_CONTENT,
        session::clear_cookie(&state.settings),
    )
        .into_response())
}
