//! Passkeys over HTTP: the owner registers them (start, then finish with the browser's answer),
//! lists, renames and removes them; anyone may sign in with one (a discoverable credential, so the
//! login page needs no e-mail, and its e-mail field can offer them as autofill); and a signed-in
//! owner may prove it is them with one instead of the password. Each ceremony's options carry a
//! `challengeId` that its finish sends back; the ceremony's state waits sealed in a cookie of its
//! own for five minutes (nothing is stored when it begins), and its finish records the id as
//! used, so it works once. Adding or removing a passkey asks for the password or a passkey
//! within the last five minutes (`POST /api/session/reauth`, or the passkey re-authentication
//! here).

use axum::extract::State;
use axum::http::header::SET_COOKIE;
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::{AppendHeaders, IntoResponse, Response};
use axum_extra::extract::CookieJar;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;
use webauthn_rs::prelude::{Passkey, PublicKeyCredential, RegisterPublicKeyCredential, Webauthn};

use super::responses::{
    CrossSite, CrossSiteOrReauth, InvalidPasskeyName, JsonBody, NoSession, NoSuchPasskey,
    PasskeyAnswer,
};
use super::session::{complete_sign_in, notify_owner, require_recent_authentication, OwnerView};
use crate::auth::ceremony::{self, Kind};
use crate::auth::passkey;
use crate::auth::session::Method;
use crate::auth::Owner;
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::layers::no_store::no_store;
use crate::http::state::AppState;
use crate::store::auth::PasskeyRow;
use crate::store::Db;

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

/// Passkeys need a relying party: a public URL with a domain name, or `localhost`.
fn relying_party(state: &AppState) -> Result<&Webauthn, ApiError> {
    state.auth.relying_party().ok_or_else(|| {
        ApiError::Conflict(
            "Passkeys need the site's public URL to be a domain name (set --public-url).".into(),
        )
    })
}

/// Begins a ceremony: its state sealed into a cookie of its own (nothing is stored), and its
/// options answered with its id. A browser keeps a few ceremonies at once (the login page's
/// autofill and its button); the start drops the oldest beyond [`ceremony::MAX_OPEN`].
fn begin(
    state: &AppState,
    jar: &CookieJar,
    begun: Begun<'_>,
    options: &impl Serialize,
) -> Result<Response, ApiError> {
    let options =
        serde_json::to_value(options).map_err(|e| ApiError::from(anyhow::Error::from(e)))?;
    let sealer = state.auth.ceremonies()?;
    let id = passkey::new_challenge_id();
    let sealed = sealer.seal(
        &id,
        &ceremony::Ceremony {
            kind: begun.kind,
            session: begun.session.map(str::to_owned),
            name: begun.name,
            expires_at: state.auth.now_ms() + ceremony::CEREMONY_MS,
            state: begun.state,
        },
    )?;
    if sealed.len() > ceremony::MAX_SEALED {
        // Only a registration's state grows (with the passkeys it excludes): about 40 of them.
        return Err(ApiError::Conflict(
            "There are too many passkeys to add another: remove one first.".into(),
        ));
    }
    let settings = &state.settings;
    let mut cookies: Vec<(HeaderName, HeaderValue)> = ceremony::to_drop(jar, settings, sealer)
        .iter()
        .map(|old| (SET_COOKIE, ceremony::clear_cookie(settings, old)))
        .collect();
    cookies.push((SET_COOKIE, ceremony::set_cookie(settings, &id, &sealed)));
    Ok((
        AppendHeaders(cookies),
        ApiJson(Ceremony {
            challenge_id: id,
            options,
        }),
    )
        .into_response())
}

/// What a ceremony's start keeps for its finish, besides its expiry.
struct Begun<'a> {
    kind: Kind,
    /// The session that began it, which alone may finish it (registration, re-authentication).
    session: Option<&'a str>,
    /// The passkey's name (registration).
    name: Option<String>,
    /// webauthn-rs's state, serialised.
    state: String,
}

/// What every ceremony's finish begins with: passkeys on, the ceremony's id and the browser's
/// answer well formed, and the ceremony of its kind, from its cookie, used up.
struct Finish<'a, T> {
    webauthn: &'a Webauthn,
    /// The browser's answer.
    credential: T,
    ceremony: ceremony::Ceremony,
    now: i64,
}

/// Begins a ceremony's finish ([`Finish`]): only the session that began it may finish it, when
/// `session` names one. The ceremony is recorded as used before the answer is checked, in one
/// statement, so that it works once on any instance.
async fn finish<'a, T: serde::de::DeserializeOwned>(
    state: &'a AppState,
    jar: &CookieJar,
    form: FinishForm,
    kind: Kind,
    session: Option<&str>,
) -> Result<Finish<'a, T>, ApiError> {
    let webauthn = relying_party(state)?;
    too_long(&form.challenge_id)?;
    let credential = parse(form.credential)?;
    let now = state.auth.now_ms();
    let sealed =
        ceremony::from_jar(jar, &state.settings, &form.challenge_id).ok_or_else(ceremony_gone)?;
    let ceremony = state
        .auth
        .ceremonies()?
        .open(&form.challenge_id, sealed)
        .filter(|c| c.kind == kind && c.expires_at > now)
        .filter(|c| session.is_none_or(|session| c.session.as_deref() == Some(session)))
        .ok_or_else(ceremony_gone)?;
    if !state
        .db
        .use_challenge(&form.challenge_id, ceremony.expires_at, now)
        .await?
    {
        return Err(ceremony_gone());
    }
    Ok(Finish {
        webauthn,
        credential,
        ceremony,
        now,
    })
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

/// Checks a discoverable ceremony's answer (a sign-in's or a re-authentication's) against the
/// stored passkey it names, of `owner_id` when given, and records its use: the passkey's row.
async fn checked_passkey(
    state: &AppState,
    webauthn: &Webauthn,
    credential: &PublicKeyCredential,
    ceremony_state: &str,
    owner_id: Option<i64>,
    now: i64,
) -> Result<PasskeyRow, ApiError> {
    let db = &state.db;
    let Some((user, credential_id)) = passkey::identify(webauthn, credential) else {
        return Err(passkey_refused());
    };
    if user != state.auth.webauthn_user() {
        tracing::info!("a passkey answer named another user");
        return Err(passkey_refused());
    }
    let Some(row) = db
        .find_passkey_by_credential(&credential_id)
        .await?
        .filter(|row| owner_id.is_none_or(|owner| row.owner_id == owner))
    else {
        tracing::info!("a passkey answer used an unknown passkey");
        return Err(passkey_refused());
    };
    let key = passkey::parse_passkey(&row.credential)?;
    let key = match passkey::finish_sign_in(webauthn, credential, ceremony_state, key)? {
        Ok(key) => key,
        Err(reason) => {
            tracing::info!(reason, "a passkey answer was refused");
            return Err(passkey_refused());
        }
    };
    db.passkey_used(&row.id, &stored_passkey(&key)?, now)
        .await?;
    Ok(row)
}

/// A passkey as it is stored (the library's JSON).
fn stored_passkey(key: &Passkey) -> Result<String, ApiError> {
    serde_json::to_string(key).map_err(|e| ApiError::from(anyhow::Error::from(e)))
}

/// A ceremony that has expired, was used, or never was.
fn ceremony_gone() -> ApiError {
    ApiError::field("challengeId", "has expired or was used; start again")
}

fn parse<T: serde::de::DeserializeOwned>(credential: serde_json::Value) -> Result<T, ApiError> {
    serde_json::from_value(credential)
        .map_err(|_| ApiError::field("credential", "is not a WebAuthn credential"))
}

fn too_long(challenge_id: &str) -> Result<(), ApiError> {
    if challenge_id.len() > 64 {
        return Err(ceremony_gone());
    }
    Ok(())
}

/// The owner's passkeys, as the WebAuthn library reads them.
async fn owner_passkeys(db: &Db, owner_id: i64) -> Result<Vec<Passkey>, ApiError> {
    let rows = db.passkeys(owner_id).await?;
    let mut out = Vec::with_capacity(rows.len());
    for row in rows {
        out.push(passkey::parse_passkey(&row.credential)?);
    }
    Ok(out)
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
    let name =
        passkey::clean_name(&form.name).map_err(|problem| ApiError::field("name", problem))?;
    let webauthn = relying_party(&state)?;
    require_recent_authentication(&state, &owner)?;
    let existing = owner_passkeys(&state.db, owner.id).await?;
    let (options, ceremony) = passkey::start_registration(
        webauthn,
        state.auth.webauthn_user(),
        &owner.email,
        &existing,
    )?;
    let begun = Begun {
        kind: Kind::Register,
        session: Some(&owner.session),
        name: Some(name),
        state: ceremony,
    };
    begin(&state, &jar, begun, &options)
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
    (cleared, add_passkey(state, owner, &jar, form).await).into_response()
}

/// Adds the passkey of the browser's answer to a registration.
async fn add_passkey(
    state: AppState,
    owner: Owner,
    jar: &CookieJar,
    form: FinishForm,
) -> Result<Response, ApiError> {
    let session = Some(owner.session.as_str());
    let Finish {
        webauthn,
        credential,
        ceremony,
        now,
    } = finish::<RegisterPublicKeyCredential>(&state, jar, form, Kind::Register, session).await?;
    let key = match passkey::finish_registration(webauthn, &credential, &ceremony.state)? {
        Ok(key) => key,
        Err(reason) => {
            tracing::info!(reason, "a passkey registration was refused");
            return Err(ApiError::field("credential", "was refused by the server"));
        }
    };
    let row = PasskeyRow {
        id: passkey::new_id(),
        owner_id: owner.id,
        credential_id: passkey::credential_key(key.cred_id().as_ref()),
        name: ceremony.name.unwrap_or_else(|| "Passkey".to_owned()),
        credential: stored_passkey(&key)?,
        created_at: now,
        last_used_at: None,
    };
    if !state.db.insert_passkey(&row).await? {
        return Err(ApiError::Conflict("This passkey is added already.".into()));
    }
    tracing::info!("the owner added a passkey");
    notify_owner(
        &state,
        owner.id,
        "A passkey was added to your portfolio",
        &format!(
            "A passkey named \"{}\" can now sign in to your portfolio's dashboard.\n\n\
             If it was not you, sign every session out, then remove it (Account, Sign-in and \
             security; or `portfolio owner passkeys remove --all` on the server) and change your \
             password.\n",
            row.name
        ),
    )
    .await;
    Ok((StatusCode::CREATED, ApiJson(PasskeyView::from(row))).into_response())
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
    require_recent_authentication(&state, &owner)?;
    if !state.db.delete_passkey(owner.id, &id).await? {
        return Err(ApiError::NotFound);
    }
    // What it signed in ends with it (this session too, when it signed in with that passkey).
    let ended = state.db.delete_passkey_sessions(owner.id, &id).await?;
    tracing::info!(ended, "the owner removed a passkey");
    notify_owner(
        &state,
        owner.id,
        "A passkey was removed from your portfolio",
        "A passkey of your portfolio's dashboard was removed; it signs no one in any more, and \
         the sessions it had signed in were signed out.\n\n\
         If it was not you, sign every session out, then change your password.\n",
    )
    .await;
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
    let webauthn = relying_party(&state)?;
    let (options, ceremony) = passkey::start_sign_in(webauthn)?;
    let begun = Begun {
        kind: Kind::SignIn,
        session: None,
        name: None,
        state: ceremony,
    };
    begin(&state, &jar, begun, &options)
}

/// The answer to every refused passkey sign-in.
fn passkey_refused() -> ApiError {
    ApiError::SignInRefused {
        code: "passkey_refused",
        message: "This passkey could not sign you in.".into(),
    }
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
    (cleared, sign_in(&state, &jar, &headers, form).await).into_response()
}

/// Signs in with the passkey of the browser's answer to a sign-in.
async fn sign_in(
    state: &AppState,
    jar: &CookieJar,
    headers: &HeaderMap,
    form: FinishForm,
) -> Result<Response, ApiError> {
    let Finish {
        webauthn,
        credential,
        ceremony,
        now,
    } = finish::<PublicKeyCredential>(state, jar, form, Kind::SignIn, None).await?;
    let row = checked_passkey(state, webauthn, &credential, &ceremony.state, None, now).await?;
    let owner = state
        .db
        .find_owner_by_id(row.owner_id)
        .await?
        .ok_or_else(passkey_refused)?;
    complete_sign_in(state, jar, headers, &owner, Method::Passkey, Some(&row.id)).await
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
    let webauthn = relying_party(&state)?;
    let keys = owner_passkeys(&state.db, owner.id).await?;
    if keys.is_empty() {
        return Err(ApiError::Conflict(
            "There is no passkey to use: use the password.".into(),
        ));
    }
    let (options, ceremony) = passkey::start_reauth(webauthn, &keys)?;
    let begun = Begun {
        kind: Kind::Reauth,
        session: Some(&owner.session),
        name: None,
        state: ceremony,
    };
    begin(&state, &jar, begun, &options)
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
    (cleared, reauthenticate(&state, &owner, &jar, form).await).into_response()
}

/// Proves it is the owner with the passkey of the browser's answer to a re-authentication.
async fn reauthenticate(
    state: &AppState,
    owner: &Owner,
    jar: &CookieJar,
    form: FinishForm,
) -> Result<StatusCode, ApiError> {
    let session = Some(owner.session.as_str());
    let Finish {
        webauthn,
        credential,
        ceremony,
        now,
    } = finish::<PublicKeyCredential>(state, jar, form, Kind::Reauth, session).await?;
    checked_passkey(
        state,
        webauthn,
        &credential,
        &ceremony.state,
        Some(owner.id),
        now,
    )
    .await?;
    state
        .db
        .set_session_reauthenticated(&owner.session, now)
        .await?;
    tracing::info!("the owner confirmed it is them with a passkey");
    Ok(StatusCode::NO_CONTENT)
}
