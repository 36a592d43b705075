//! `/api/session`: the owner signs in (with the password, then a code when the second factor is
//! on) and out, everywhere at once or one session of the list at a time, changes the password,
//! and proves the password again before the changes that ask for it. What the other ways in
//! share (the throttle's keys, completing a sign-in, checking a code) is here too.

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{
    CrossSite, HashingBusy, JsonBody, NoSession, TooManyWrongCodes, TooManyWrongPasswords,
};
use crate::auth::second_factor::{self, CodeCheck};
use crate::auth::session::Method;
use crate::auth::{device, notice, owner, password, session, throttle, Owner};
use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::layers::no_store::no_store;
use crate::http::state::AppState;
use crate::store::OwnerRow;

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

    let now = state.auth.now_ms();
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
        let mut response = (
            StatusCode::ACCEPTED,
            ApiJson(PendingView {
                second_factor_required: true,
            }),
        )
            .into_response();
        response.headers_mut().append(
            axum::http::header::SET_COOKIE,
            session::set_pending_cookie(&state.settings, &token),
        );
        return Ok(response);
    }
    complete_sign_in(&state, &jar, &headers, &owner, Method::Password, None).await
}

/// Signs the owner in once every factor is proven: this browser's previous session ends, a new
/// one begins (described for the session list; `passkey` names the passkey it signed in with, so
/// that removing the passkey ends it), and a browser that had not signed in before becomes known
/// (its device cookie) and the owner is told of it.
pub(super) async fn complete_sign_in(
    state: &AppState,
    jar: &CookieJar,
    headers: &HeaderMap,
    owner: &OwnerRow,
    method: Method,
    passkey: Option<&str>,
) -> Result<Response, ApiError> {
    let db = &state.db;
    // Rotation: whatever session the browser had is ended, and a new one begins.
    if let Some(old) = session::token_from(jar, &state.settings) {
        db.delete_session(&session::token_hash(&old)).await?;
    }
    let mut origin = session_origin(headers, method);
    origin.passkey_id = passkey.map(str::to_owned);
    let token = session::start(db, &state.settings, state.auth.now_ms(), owner.id, &origin).await?;
    let known = device::known(jar, &state.settings, state.auth.device_key()).is_some();
    tracing::info!(
        known_browser = known,
        method = method.as_str(),
        "the owner signed in"
    );
    let mut response = (
        session::set_cookie(&state.settings, &token),
        ApiJson(OwnerView {
            email: owner.email.clone(),
        }),
    )
        .into_response();
    if !known {
        let value = device::issue(state.auth.device_key());
        response.headers_mut().append(
            axum::http::header::SET_COOKIE,
            device::set_cookie(&state.settings, &value),
        );
        notify_owner(
            state,
            owner.id,
            "New sign-in to your portfolio",
            "Someone signed in to your portfolio's dashboard from a browser that had not signed in before.\n\n\
             If it was you, there is nothing to do. If not, someone knows your password: sign \
             every session out, then change the password (Account, Change password, or \
             \"Forgot password?\" on the login page).\n",
        )
        .await;
    }
    Ok(response)
}

/// A security notice to the owner, when e-mail is configured, with its way out: a single-use link
/// that signs every session out (when a public URL is set to build it from). The notice goes
/// even when the link could not be stored, without it.
pub(super) async fn notify_owner(state: &AppState, owner_id: i64, subject: &str, body: &str) {
    let Some(mailer) = state.contact.mailer.get() else {
        return;
    };
    let mut link = None;
    if let Some(public_url) = state.settings.public_url.as_ref() {
        let token = session::new_token();
        let now = state.auth.now_ms();
        match state
            .db
            .insert_sign_out_link(
                &session::token_hash(&token),
                owner_id,
                now,
                now + notice::VALID_MS,
            )
            .await
        {
            Ok(()) => link = Some(notice::link(public_url, &token)),
            Err(error) => tracing::warn!(
                error = %format!("{error:#}"),
                "a security notice goes without its sign-out link"
            ),
        }
    }
    mailer.send_notice_in_background(subject, notice::with_way_out(body, link.as_deref()));
}

/// The names of the owner's passkeys, for the notices that list them.
pub(super) async fn passkey_names(
    state: &AppState,
    owner_id: i64,
) -> Result<Vec<String>, ApiError> {
    Ok(state
        .db
        .passkeys(owner_id)
        .await?
        .into_iter()
        .map(|row| row.name)
        .collect())
}

/// A password check that found every hashing slot taken is 503, not 500.
pub(super) fn hashing_error(error: anyhow::Error) -> ApiError {
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
pub(super) struct Attempt {
    /// The browser's own key, when it has signed in before.
    device: Option<String>,
    /// The account's key (a hash of the e-mail typed).
    account: String,
    /// The client's key (its network hashed with the server's salt).
    client: String,
}

impl Attempt {
    pub(super) fn new(
        state: &AppState,
        jar: &CookieJar,
        email: &str,
        ip: std::net::IpAddr,
    ) -> Self {
        Self {
            device: device::known(jar, &state.settings, state.auth.device_key()),
            account: throttle::account_key(email),
            client: throttle::client_key(state.auth.client_salt(), ip),
        }
    }

    /// A browser that has signed in before is judged by its own counter; any other by the
    /// account's and its address's.
    pub(super) fn keys(&self) -> Vec<&str> {
        match &self.device {
            Some(device) => vec![device.as_str()],
            None => vec![self.account.as_str(), self.client.as_str()],
        }
    }

    /// The same keys for the second factor's codes, counted apart from the password's.
    pub(super) fn for_codes(&self) -> Self {
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
pub(super) async fn count_attempt(
    state: &AppState,
    keys: &[&str],
    refused: &str,
    log: &str,
    on_locked: fn(),
) -> Result<(), ApiError> {
    let Err(wait_ms) = throttle::admit(&state.db, keys, state.auth.now_ms()).await? else {
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
    use secrecy::ExposeSecret;
    if form.current_password.expose_secret().len() > 4 * password::MAX_LENGTH {
        return Err(ApiError::field("currentPassword", "is not correct"));
    }
    if let Some(problem) = password::weakness(form.new_password.expose_secret()) {
        return Err(ApiError::field("newPassword", problem));
    }
    check_password(
        &state,
        &owner,
        &jar,
        ip,
        form.current_password,
        "currentPassword",
        "password change refused: locked after repeated failures",
    )
    .await?;
    let db = &state.db;
    // Every session ends, this one included; this browser gets a fresh one.
    owner::set_password(db, owner::Whose::Owner(owner.id), form.new_password)
        .await
        .map_err(|error| match error {
            owner::SetPasswordError::Weak(problem) => ApiError::field("newPassword", problem),
            owner::SetPasswordError::Failed(error) => hashing_error(error),
        })?;
    let origin = session_origin(&headers, Method::Password);
    db.delete_pending_sign_ins(owner.id).await?;
    let token = session::start(db, &state.settings, state.auth.now_ms(), owner.id, &origin).await?;
    tracing::info!("the owner changed the password");
    let passkeys = passkey_names(&state, owner.id).await?;
    notify_owner(
        &state,
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
    Ok((
        StatusCode::NO_CONTENT,
        session::set_cookie(&state.settings, &token),
    )
        .into_response())
}

/// Checks the signed-in owner's password (typed in the form's `field`), throttled like sign-in: a
/// stolen session must not become a way to guess the password. `locked` is what the log says when
/// the throttle refuses.
async fn check_password(
    state: &AppState,
    owner: &Owner,
    jar: &CookieJar,
    ip: std::net::IpAddr,
    typed: SecretString,
    field: &str,
    locked: &str,
) -> Result<(), ApiError> {
    let row = state
        .db
        .find_owner_by_id(owner.id)
        .await?
        .ok_or(ApiError::Unauthorized)?;
    let attempt = Attempt::new(state, jar, &row.email, ip);
    let keys = attempt.keys();
    count_attempt(state, &keys, "Too many wrong passwords.", locked, || {}).await?;
    if !password::verify(typed, Some(row.password_hash))
        .await
        .map_err(hashing_error)?
    {
        return Err(ApiError::field(field, "is not correct"));
    }
    state.db.clear_sign_in_failures(&keys).await?;
    Ok(())
}

/// What a new session of this request is: its browser (from the User-Agent) and how it signed in.
pub(super) fn session_origin(headers: &HeaderMap, method: Method) -> session::Origin {
    let user_agent = headers
        .get(axum::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default();
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
pub(super) async fn checked_code(
    state: &AppState,
    jar: &CookieJar,
    ip: std::net::IpAddr,
    owner: &OwnerRow,
    code: &str,
) -> Result<CodeCheck, ApiError> {
    if code.trim().is_empty() {
        return Err(ApiError::field("code", "is required"));
    }
    if code.len() > 64 {
        return Err(ApiError::field("code", "is not correct"));
    }
    let attempt = Attempt::new(state, jar, &owner.email, ip).for_codes();
    let keys = attempt.keys();
    count_attempt(
        state,
        &keys,
        "Too many wrong codes.",
        "code refused: locked after repeated failures",
        crate::ops::metrics::sign_in_locked,
    )
    .await?;
    let check = second_factor::check_code(
        &state.db,
        owner.id,
        state.auth.issuer(),
        &owner.email,
        code,
        state.auth.now_ms(),
    )
    .await?;
    if check == CodeCheck::Wrong {
        crate::ops::metrics::sign_in_failed();
        tracing::info!("a second-factor code was refused");
        return Err(ApiError::field("code", "is not correct"));
    }
    let mut cleared = keys.clone();
    if attempt.device.is_some() {
        cleared.push(&attempt.account);
    }
    state.db.clear_sign_in_failures(&cleared).await?;
    if check == CodeCheck::Recovery {
        let left = state.db.recovery_codes_left(owner.id).await?;
        tracing::info!(left, "a recovery code was used");
        notify_owner(
            state,
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

/// The answer when a pending sign-in has expired, was used, or never was.
fn pending_expired() -> ApiError {
    ApiError::SignInRefused {
        code: "sign_in_expired",
        message: "This sign-in has expired. Sign in again with your password.".into(),
    }
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
    let db = &state.db;
    let token = session::pending_token_from(&jar, &state.settings).ok_or_else(pending_expired)?;
    let hash = session::token_hash(&token);
    let owner_id = db
        .find_pending_sign_in(&hash, state.auth.now_ms())
        .await?
        .ok_or_else(pending_expired)?;
    let owner = db
        .find_owner_by_id(owner_id)
        .await?
        .ok_or_else(pending_expired)?;
    checked_code(&state, &jar, ip, &owner, &form.code).await?;
    if !db.take_pending_sign_in(&hash, state.auth.now_ms()).await? {
        return Err(pending_expired());
    }
    let mut response = complete_sign_in(
        &state,
        &jar,
        &headers,
        &owner,
        Method::PasswordAndCode,
        None,
    )
    .await?;
    response.headers_mut().append(
        axum::http::header::SET_COOKIE,
        session::clear_pending_cookie(&state.settings),
    );
    Ok(response)
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
    use secrecy::ExposeSecret;
    if form.password.expose_secret().len() > 4 * password::MAX_LENGTH {
        return Err(ApiError::field("password", "is not correct"));
    }
    check_password(
        &state,
        &owner,
        &jar,
        ip,
        form.password,
        "password",
        "re-authentication refused: locked after repeated failures",
    )
    .await?;
    state
        .db
        .set_session_reauthenticated(&owner.session, state.auth.now_ms())
        .await?;
    tracing::info!("the owner confirmed the password");
    Ok(StatusCode::NO_CONTENT)
}

/// Refuses a change unless this session proved the password or a passkey within five minutes
/// (a sign-in counts).
pub(super) fn require_recent_authentication(
    state: &AppState,
    owner: &Owner,
) -> Result<(), ApiError> {
    if owner.recently_authenticated(state.auth.now_ms()) {
        Ok(())
    } else {
        Err(ApiError::ReauthenticationRequired)
    }
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
