//! Passkeys' flows: each ceremony (adding one, signing in with one, proving it is the owner with
//! one) begins with options whose state waits sealed in a cookie of its own for five minutes
//! (nothing is stored), and finishes with the browser's answer, recording the ceremony as used so
//! that it works once. Removing a passkey ends the sessions it signed in.

use axum::http::header::HeaderValue;
use axum_extra::extract::CookieJar;
use serde::Serialize;
use webauthn_rs::prelude::{Passkey, PublicKeyCredential, RegisterPublicKeyCredential, Webauthn};

use super::context::{require_recent_authentication, Ctx};
use super::notify::notify_owner;
use super::sign_in::{self, SignedIn};
use crate::auth::ceremony::{self, Kind};
use crate::auth::passkey;
use crate::auth::session::{Method, Owner};
use crate::error::ApiError;
use crate::store::auth::PasskeyRow;
use crate::store::Db;

/// A ceremony begun: the options to hand the browser (WebAuthn's JSON form), the id its answer
/// sends back, and the `Set-Cookie` values (the older ceremonies' removal, then its own).
pub struct Started {
    pub challenge_id: String,
    pub options: serde_json::Value,
    pub cookies: Vec<HeaderValue>,
}

/// The browser's answer to a ceremony: its id and the credential in its JSON form.
pub struct Answer {
    pub challenge_id: String,
    pub credential: serde_json::Value,
}

/// Passkeys need a relying party: a public URL with a domain name, or `localhost`.
fn relying_party<'a>(ctx: &Ctx<'a>) -> Result<&'a Webauthn, ApiError> {
    ctx.auth.relying_party().ok_or_else(|| {
        ApiError::Conflict(
            "Passkeys need the site's public URL to be a domain name (set --public-url).".into(),
        )
    })
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

/// Begins a ceremony: its state sealed into a cookie of its own (nothing is stored), and its
/// options answered with its id. A browser keeps a few ceremonies at once (the login page's
/// autofill and its button); the start drops the oldest beyond [`ceremony::MAX_OPEN`].
fn begin(
    ctx: &Ctx<'_>,
    jar: &CookieJar,
    begun: Begun<'_>,
    options: &impl Serialize,
) -> Result<Started, ApiError> {
    let options =
        serde_json::to_value(options).map_err(|e| ApiError::from(anyhow::Error::from(e)))?;
    let sealer = ctx.auth.ceremonies()?;
    let id = passkey::new_challenge_id();
    let sealed = sealer.seal(
        &id,
        &ceremony::Ceremony {
            kind: begun.kind,
            session: begun.session.map(str::to_owned),
            name: begun.name,
            expires_at: ctx.now_ms() + ceremony::CEREMONY_MS,
            state: begun.state,
        },
    )?;
    if sealed.len() > ceremony::MAX_SEALED {
        // Only a registration's state grows (with the passkeys it excludes): about 40 of them.
        return Err(ApiError::Conflict(
            "There are too many passkeys to add another: remove one first.".into(),
        ));
    }
    let settings = ctx.settings;
    let mut cookies: Vec<HeaderValue> = ceremony::to_drop(jar, settings, sealer)
        .iter()
        .map(|old| ceremony::clear_cookie(settings, old))
        .collect();
    cookies.push(ceremony::set_cookie(settings, &id, &sealed));
    Ok(Started {
        challenge_id: id,
        options,
        cookies,
    })
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
    ctx: &Ctx<'a>,
    jar: &CookieJar,
    answer: Answer,
    kind: Kind,
    session: Option<&str>,
) -> Result<Finish<'a, T>, ApiError> {
    let webauthn = relying_party(ctx)?;
    too_long(&answer.challenge_id)?;
    let credential = parse(answer.credential)?;
    let now = ctx.now_ms();
    let id = &answer.challenge_id;
    let sealed = ceremony::from_jar(jar, ctx.settings, id).ok_or_else(ceremony_gone)?;
    let ceremony = ctx
        .auth
        .ceremonies()?
        .open(id, sealed)
        .filter(|c| c.kind == kind && c.expires_at > now)
        .filter(|c| session.is_none_or(|session| c.session.as_deref() == Some(session)))
        .ok_or_else(ceremony_gone)?;
    if !ctx.db.use_challenge(id, ceremony.expires_at, now).await? {
        return Err(ceremony_gone());
    }
    Ok(Finish {
        webauthn,
        credential,
        ceremony,
        now,
    })
}

/// Checks a discoverable ceremony's answer (a sign-in's or a re-authentication's) against the
/// stored passkey it names, of `owner_id` when given, and records its use: the passkey's row.
async fn checked_passkey(
    ctx: &Ctx<'_>,
    finished: &Finish<'_, PublicKeyCredential>,
    owner_id: Option<i64>,
) -> Result<PasskeyRow, ApiError> {
    let (webauthn, credential) = (finished.webauthn, &finished.credential);
    let Some((user, credential_id)) = passkey::identify(webauthn, credential) else {
        return Err(passkey_refused());
    };
    if user != ctx.auth.webauthn_user() {
        tracing::info!("a passkey answer named another user");
        return Err(passkey_refused());
    }
    let Some(row) = ctx
        .db
        .find_passkey_by_credential(&credential_id)
        .await?
        .filter(|row| owner_id.is_none_or(|owner| row.owner_id == owner))
    else {
        tracing::info!("a passkey answer used an unknown passkey");
        return Err(passkey_refused());
    };
    let key = passkey::parse_passkey(&row.credential)?;
    let state = &finished.ceremony.state;
    let key = match passkey::finish_sign_in(webauthn, credential, state, key)? {
        Ok(key) => key,
        Err(reason) => {
            tracing::info!(reason, "a passkey answer was refused");
            return Err(passkey_refused());
        }
    };
    ctx.db
        .passkey_used(&row.id, &stored_passkey(&key)?, finished.now)
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

/// The answer to every refused passkey sign-in.
fn passkey_refused() -> ApiError {
    ApiError::SignInRefused {
        code: "passkey_refused",
        message: "This passkey could not sign you in.".into(),
    }
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

/// Begins adding a passkey named `name` (asks for the password or a passkey within the last
/// five minutes): the options for `navigator.credentials.create`.
pub async fn start_registration(
    ctx: &Ctx<'_>,
    owner: &Owner,
    jar: &CookieJar,
    name: &str,
) -> Result<Started, ApiError> {
    let name = passkey::clean_name(name).map_err(|problem| ApiError::field("name", problem))?;
    let webauthn = relying_party(ctx)?;
    require_recent_authentication(ctx, owner)?;
    let existing = owner_passkeys(ctx.db, owner.id).await?;
    let user = ctx.auth.webauthn_user();
    let (options, state) = passkey::start_registration(webauthn, user, &owner.email, &existing)?;
    let begun = Begun {
        kind: Kind::Register,
        session: Some(&owner.session),
        name: Some(name),
        state,
    };
    begin(ctx, jar, begun, &options)
}

/// Adds the passkey of the browser's answer to a registration; the owner gets a notice.
pub async fn finish_registration(
    ctx: &Ctx<'_>,
    owner: &Owner,
    jar: &CookieJar,
    answer: Answer,
) -> Result<PasskeyRow, ApiError> {
    let session = Some(owner.session.as_str());
    let Finish {
        webauthn,
        credential,
        ceremony,
        now,
    } = finish::<RegisterPublicKeyCredential>(ctx, jar, answer, Kind::Register, session).await?;
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
    if !ctx.db.insert_passkey(&row).await? {
        return Err(ApiError::Conflict("This passkey is added already.".into()));
    }
    tracing::info!("the owner added a passkey");
    notify_owner(
        ctx,
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
    Ok(row)
}

/// Removes a passkey (asks for the password or a passkey within the last five minutes): it signs
/// no one in from now on, and the sessions it signed in end. `NotFound` when there is no such
/// passkey.
pub async fn remove(ctx: &Ctx<'_>, owner: &Owner, id: &str) -> Result<(), ApiError> {
    require_recent_authentication(ctx, owner)?;
    if !ctx.db.delete_passkey(owner.id, id).await? {
        return Err(ApiError::NotFound);
    }
    // What it signed in ends with it (this session too, when it signed in with that passkey).
    let ended = ctx.db.delete_passkey_sessions(owner.id, id).await?;
    tracing::info!(ended, "the owner removed a passkey");
    notify_owner(
        ctx,
        owner.id,
        "A passkey was removed from your portfolio",
        "A passkey of your portfolio's dashboard was removed; it signs no one in any more, and \
         the sessions it had signed in were signed out.\n\n\
         If it was not you, sign every session out, then change your password.\n",
    )
    .await;
    Ok(())
}

/// Begins a sign-in with a passkey: options that name no credential, so the browser offers this
/// site's passkeys.
pub fn start_sign_in(ctx: &Ctx<'_>, jar: &CookieJar) -> Result<Started, ApiError> {
    let webauthn = relying_party(ctx)?;
    let (options, state) = passkey::start_sign_in(webauthn)?;
    let begun = Begun {
        kind: Kind::SignIn,
        session: None,
        name: None,
        state,
    };
    begin(ctx, jar, begun, &options)
}

/// Signs in with the passkey of the browser's answer to a sign-in: it counts as both factors
/// (the authenticator verified the user), so the session begins at once.
pub async fn finish_sign_in(
    ctx: &Ctx<'_>,
    jar: &CookieJar,
    user_agent: &str,
    answer: Answer,
) -> Result<SignedIn, ApiError> {
    let finished = finish::<PublicKeyCredential>(ctx, jar, answer, Kind::SignIn, None).await?;
    let row = checked_passkey(ctx, &finished, None).await?;
    let owner = ctx
        .db
        .find_owner_by_id(row.owner_id)
        .await?
        .ok_or_else(passkey_refused)?;
    let passkey = Some(row.id.as_str());
    sign_in::complete(ctx, jar, user_agent, &owner, Method::Passkey, passkey).await
}

/// Begins proving it is the owner with one of their passkeys (instead of the password): options
/// naming the owner's passkeys; a conflict when there are none.
pub async fn start_reauth(
    ctx: &Ctx<'_>,
    owner: &Owner,
    jar: &CookieJar,
) -> Result<Started, ApiError> {
    let webauthn = relying_party(ctx)?;
    let keys = owner_passkeys(ctx.db, owner.id).await?;
    if keys.is_empty() {
        return Err(ApiError::Conflict(
            "There is no passkey to use: use the password.".into(),
        ));
    }
    let (options, state) = passkey::start_reauth(webauthn, &keys)?;
    let begun = Begun {
        kind: Kind::Reauth,
        session: Some(&owner.session),
        name: None,
        state,
    };
    begin(ctx, jar, begun, &options)
}

/// Proves it is the owner with the passkey of the browser's answer to a re-authentication: the
/// changes that ask for it are allowed for five minutes.
pub async fn finish_reauth(
    ctx: &Ctx<'_>,
    owner: &Owner,
    jar: &CookieJar,
    answer: Answer,
) -> Result<(), ApiError> {
    let session = Some(owner.session.as_str());
    let finished = finish::<PublicKeyCredential>(ctx, jar, answer, Kind::Reauth, session).await?;
    checked_passkey(ctx, &finished, Some(owner.id)).await?;
    ctx.db
        .set_session_reauthenticated(&owner.session, finished.now)
        .await?;
    tracing::info!("the owner confirmed it is them with a passkey");
    Ok(())
}
