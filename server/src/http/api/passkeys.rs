//! Passkeys over HTTP: the owner registers them (start, then finish with the browser's answer),
//! lists, renames and removes them; anyone may sign in with one (a discoverable credential, so the
//! login page needs no e-mail, and its e-mail field can offer them as autofill); and a signed-in
//! owner may prove it is them with one instead of the password. Each ceremony's options carry a
//! `challengeId` that its finish sends back; the ceremony's state waits sealed in a cookie of its
//! own for five minutes (nothing is stored when it begins), and its finish records the id as
//! used, so it works once. Adding or removing a passkey asks for the password or a passkey
//! within the last five minutes (`POST /api/session/reauth`, or the passkey re-authentication
//! here). The ceremonies themselves are in `auth::flows::passkeys`.

use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{AppendHeaders, IntoResponse, Response};
use axum_extra::extract::CookieJar;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{
    CrossSite, CrossSiteOrReauth, InvalidPasskeyName, JsonBody, NoSession, NoSuchPasskey,
    PasskeyAnswer,
};
use crate::auth::flows::passkeys::{self as flow, Answer, Started};
use crate::auth::flows::sign_in::OwnerView;
use crate::auth::{ceremony, passkey, Owner};
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::auth_flows::{flows, user_agent};
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::layers::no_store::no_store;
use crate::http::state::AppState;
use crate::store::auth::PasskeyRow;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(register_start))
        .routes(routes!(register_finish))
        .routes(routes!(rename, remove))
        .routes(routes!(sign_in_start))
        .routes(routes!(sign_in_finish))
        .routes(routes!(reauth_start))
        .routes(routes!(reauth_finish))
        .layer(no_store())
}

/// A passkey as the account page shows it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PasskeyView {
    pub id: String,
    pub name: String,
    /// When it was added (Unix milliseconds, UTC).
    pub created_at: i64,
    /// When it last signed in or confirmed a change (Unix milliseconds), if ever.
    pub last_used_at: Option<i64>,
}

impl From<PasskeyRow> for PasskeyView {
    fn from(row: PasskeyRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            created_at: row.created_at,
            last_used_at: row.last_used_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct PasskeyList {
    /// The oldest first.
    pub passkeys: Vec<PasskeyView>,
}

/// A ceremony begun: what to hand the browser, and the id to send back with its answer.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ceremony {
    /// Send it back with the browser's answer, within five minutes; it works once.
    pub challenge_id: String,
    /// WebAuthn's options in their JSON form, `{"publicKey": {...}}` (binary fields base64url),
    /// for `PublicKeyCredential.parseCreationOptionsFromJSON` / `parseRequestOptionsFromJSON`;
    /// a sign-in's also say `"mediation": "conditional"` (drop it for a button's sign-in).
    #[schema(value_type = Object)]
    pub options: serde_json::Value,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NameForm {
    /// 1 to 60 characters, e.g. "Phone" or "Laptop".
    #[schema(example = "Laptop")]
    name: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct FinishForm {
    /// The `challengeId` of the ceremony's start.
    challenge_id: String,
    /// The browser's answer: the `PublicKeyCredential` in its JSON form (`credential.toJSON()`).
    #[schema(value_type = Object)]
    credential: serde_json::Value,
}

#[derive(Debug, Deserialize)]
pub struct PasskeyId {
    /// A passkey's `id`.
    id: String,
}

/// A ceremony begun, as its answer: its cookies (the oldest ceremonies' removal, its own), its id
/// and its options.
fn started(started: Started) -> Response {
    let cookies = started.cookies.into_iter().map(|value| (SET_COOKIE, value));
    let ceremony = Ceremony {
        challenge_id: started.challenge_id,
        options: started.options,
    };
    (AppendHeaders(cookies), ApiJson(ceremony)).into_response()
}

/// The browser's answer of a finish's form.
fn answer(form: FinishForm) -> Answer {
    Answer {
        challenge_id: form.challenge_id,
        credential: form.credential,
    }
}

/// `Set-Cookie` that removes the ceremony's cookie, when the request carries it: every finish's
/// answer has it, whatever the outcome.
fn cookie_cleared(
    state: &AppState,
    jar: &CookieJar,
    form: &FinishForm,
) -> Option<AppendHeaders<[(HeaderName, HeaderValue); 1]>> {
    ceremony::from_jar(jar, &state.settings, &form.challenge_id)?;
    Some(AppendHeaders([(
        SET_COOKIE,
        ceremony::clear_cookie(&state.settings, &form.challenge_id),
    )]))
}

/// The owner's passkeys.
#[utoipa::path(get, path = "/session/passkeys", tag = "session",
    operation_id = "listPasskeys", security(("session" = [])),
    responses(
        (status = 200, description = "The passkeys", body = PasskeyList),
        NoSession,
    ))]
async fn list(
    State(state): State<AppState>,
    owner: Owner,
) -> Result<ApiJson<PasskeyList>, ApiError> {
    let rows = state.db.passkeys(owner.id).await?;
    Ok(ApiJson(PasskeyList {
        passkeys: rows.into_iter().map(PasskeyView::from).collect(),
    }))
}

/// Begins adding a passkey named `name`: the options for `navigator.credentials.create`. Asks
/// for the password or a passkey within the last five minutes.
#[utoipa::path(post, path = "/session/passkeys/register/start", tag = "session", request_body = NameForm,
    operation_id = "startPasskeyRegistration", security(("session" = [])),
    responses(
        (status = 200, description = "The options, and the ceremony's id", body = Ceremony),
        (status = 409, description = "Passkeys are off: the public URL is not a domain name; or there are too many passkeys to add another", body = ErrorBody),
        NoSession, CrossSiteOrReauth, JsonBody, InvalidPasskeyName,
    ))]
async fn register_start(
    State(state): State<AppState>,
    owner: Owner,
    jar: CookieJar,
    ApiJson(form): ApiJson<NameForm>,
) -> Result<Response, ApiError> {
    let ctx = flows(&state);
    Ok(started(
        flow::start_registration(&ctx, &owner, &jar, &form.name).await?,
    ))
}

/// Finishes adding a passkey with the browser's answer; the ceremony's cookie is removed.
#[utoipa::path(post, path = "/session/passkeys/register/finish", tag = "session", request_body = FinishForm,
    operation_id = "finishPasskeyRegistration", security(("session" = [])),
    responses(
        (status = 201, description = "Added", body = PasskeyView),
        (status = 409, description = "Passkeys are off, or this passkey is added already", body = ErrorBody),
        (status = 422, description = "The ceremony has expired or was used, or the credential was refused", body = ErrorBody),
        NoSession, CrossSite, JsonBody,
    ))]
async fn register_finish(
    State(state): State<AppState>,
    owner: Owner,
    jar: CookieJar,
    ApiJson(form): ApiJson<FinishForm>,
) -> Response {
    let cleared = cookie_cleared(&state, &jar, &form);
    let added = flow::finish_registration(&flows(&state), &owner, &jar, answer(form)).await;
    let added = added.map(|row| (StatusCode::CREATED, ApiJson(PasskeyView::from(row))));
    (cleared, added).into_response()
}

/// Renames a passkey.
#[utoipa::path(patch, path = "/session/passkeys/{id}", tag = "session", request_body = NameForm,
    operation_id = "renamePasskey", security(("session" = [])),
    params(("id" = String, Path, description = "The passkey's id")),
    responses(
        (status = 200, description = "Renamed", body = PasskeyView),
        NoSession, CrossSite, JsonBody, NoSuchPasskey, InvalidPasskeyName,
    ))]
async fn rename(
    State(state): State<AppState>,
    owner: Owner,
    ApiPath(PasskeyId { id }): ApiPath<PasskeyId>,
    ApiJson(form): ApiJson<NameForm>,
) -> Result<ApiJson<PasskeyView>, ApiError> {
    let name =
        passkey::clean_name(&form.name).map_err(|problem| ApiError::field("name", problem))?;
    let row = state
        .db
        .rename_passkey(owner.id, &id, &name)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ApiJson(PasskeyView::from(row)))
}

/// Removes a passkey: it signs no one in from now on, and the sessions it signed in end. Asks
/// for the password or a passkey within the last five minutes.
#[utoipa::path(delete, path = "/session/passkeys/{id}", tag = "session",
    operation_id = "deletePasskey", security(("session" = [])),
    params(("id" = String, Path, description = "The passkey's id")),
    responses(
        (status = 204, description = "Removed"),
        NoSession, CrossSiteOrReauth, NoSuchPasskey,
    ))]
async fn remove(
    State(state): State<AppState>,
    owner: Owner,
    ApiPath(PasskeyId { id }): ApiPath<PasskeyId>,
) -> Result<StatusCode, ApiError> {
    flow::remove(&flows(&state), &owner, &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// Begins a sign-in with a passkey: options for `navigator.credentials.get` that name no
/// credential, so the browser offers this site's passkeys (from a button, or as the e-mail
/// field's autofill with `mediation: "conditional"`). No session needed.
#[utoipa::path(post, path = "/session/passkey/start", tag = "session",
    operation_id = "startPasskeySignIn",
    responses(
        (status = 200, description = "The options, and the ceremony's id", body = Ceremony),
        (status = 409, description = "Passkeys are off: the public URL is not a domain name", body = ErrorBody),
        CrossSite,
    ))]
async fn sign_in_start(
    State(state): State<AppState>,
    jar: CookieJar,
) -> Result<Response, ApiError> {
    Ok(started(flow::start_sign_in(&flows(&state), &jar)?))
}

/// Finishes a sign-in with a passkey: it counts as both factors (the authenticator verified the
/// user), so the session begins at once. The ceremony's cookie is removed.
#[utoipa::path(post, path = "/session/passkey/finish", tag = "session", request_body = FinishForm,
    operation_id = "finishPasskeySignIn",
    responses(
        (status = 200, description = "Signed in; the session cookie is set", body = OwnerView),
        (status = 401, description = "The passkey is unknown (removed?) or its answer was refused (passkey_refused)", body = ErrorBody),
        CrossSite, JsonBody, PasskeyAnswer,
    ))]
async fn sign_in_finish(
    State(state): State<AppState>,
    jar: CookieJar,
    headers: HeaderMap,
    ApiJson(form): ApiJson<FinishForm>,
) -> Response {
    let cleared = cookie_cleared(&state, &jar, &form);
    let agent = user_agent(&headers);
    let signed_in = flow::finish_sign_in(&flows(&state), &jar, agent, answer(form)).await;
    (cleared, signed_in).into_response()
}

/// Begins proving it is the owner with one of their passkeys (instead of the password), for the
/// changes that ask for it: options naming the owner's passkeys.
#[utoipa::path(post, path = "/session/reauth/passkey/start", tag = "session",
    operation_id = "startPasskeyReauthentication", security(("session" = [])),
    responses(
        (status = 200, description = "The options, and the ceremony's id", body = Ceremony),
        (status = 409, description = "Passkeys are off, or the owner has none", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn reauth_start(
    State(state): State<AppState>,
    owner: Owner,
    jar: CookieJar,
) -> Result<Response, ApiError> {
    Ok(started(
        flow::start_reauth(&flows(&state), &owner, &jar).await?,
    ))
}

/// Finishes proving it is the owner with a passkey: the changes that ask for it are allowed for
/// five minutes. The ceremony's cookie is removed.
#[utoipa::path(post, path = "/session/reauth/passkey/finish", tag = "session", request_body = FinishForm,
    operation_id = "finishPasskeyReauthentication", security(("session" = [])),
    responses(
        (status = 204, description = "Confirmed for five minutes"),
        (status = 401, description = "No valid session, or the passkey's answer was refused (passkey_refused)", body = ErrorBody),
        CrossSite, JsonBody, PasskeyAnswer,
    ))]
async fn reauth_finish(
    State(state): State<AppState>,
    owner: Owner,
    jar: CookieJar,
    ApiJson(form): ApiJson<FinishForm>,
) -> Response {
    let cleared = cookie_cleared(&state, &jar, &form);
    let confirmed = flow::finish_reauth(&flows(&state), &owner, &jar, answer(form)).await;
    (cleared, confirmed.map(|()| StatusCode::NO_CONTENT)).into_response()
}
