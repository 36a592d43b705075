//! A way back in: which ways in this server offers (`GET /api/session/methods`), "Forgot
//! password?" (`POST /api/session/forgot`, the same answer whatever the address, admitted in
//! memory and worked through a bounded queue: see [`crate::auth::forgot`]) and setting a new
//! password from the e-mailed link (`POST /api/session/reset`), which never signs in, asks for a
//! code when the second factor is on, and ends every session.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use secrecy::SecretString;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{CrossSite, HashingBusy, JsonBody, TooManyWrongCodes};
use crate::auth::flows::password::{self, Reset};
use crate::auth::forgot::Admission;
use crate::auth::{reset, session};
use crate::contact::notify::Mailer;
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::auth_flows::flows;
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::layers::no_store::no_store;
use crate::http::state::AppState;
use crate::store::Db;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(methods))
        .routes(routes!(forgot))
        .routes(routes!(reset_password))
        .layer(no_store())
}

/// The ways in the login page may offer besides the e-mail and password.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Methods {
    /// "Sign in with a passkey" works here (the public URL is a domain name, or `localhost`).
    pub passkeys: bool,
    /// "Forgot password?" can e-mail a link (e-mail notifications and a public URL are set);
    /// without it, the page explains `portfolio owner set` instead.
    pub email_reset: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ForgotForm {
    #[schema(example = "you@example.com")]
    email: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ResetForm {
    /// The token from the link's fragment (after `#`).
    token: String,
    /// The new password (the rules of `portfolio owner set`).
    #[schema(value_type = String, format = Password)]
    password: SecretString,
    /// With the second factor on: a one-time or recovery code.
    #[serde(default)]
    code: Option<String>,
}

/// Whether e-mailed reset links are possible: a mailer and a public URL to build links from.
fn email_reset(state: &AppState) -> bool {
    state.contact.mailer.get().is_some() && state.settings.public_url.is_some()
}

/// The ways in this server offers besides the e-mail and password; no session needed.
#[utoipa::path(get, path = "/session/methods", tag = "session",
    operation_id = "listSignInMethods",
    responses((status = 200, description = "The ways in", body = Methods)))]
async fn methods(State(state): State<AppState>) -> ApiJson<Methods> {
    ApiJson(Methods {
        passkeys: state.auth.relying_party().is_some(),
        email_reset: email_reset(&state),
    })
}

/// "Forgot password?": when the address is the owner's and e-mail is set up, e-mails a link to
/// set a new password (to the notification address, where security notices go), at most one
/// every five minutes, a new one voiding the old. The answer is the same, at once, whatever the
/// address: the request is admitted in memory (no database work) and the link made and sent
/// after it, by a bounded queue. One network may ask a few times and then once every two
/// minutes, and every network together has a ceiling (`429` beyond either).
#[utoipa::path(post, path = "/session/forgot", tag = "session", request_body = ForgotForm,
    operation_id = "requestPasswordReset",
    responses(
        (status = 202, description = "Taken (the same answer whether or not a link is sent)"),
        (status = 422, description = "The e-mail is missing or too long", body = ErrorBody),
        (status = 429, description = "Too many requests from this network, or from everyone; see Retry-After", body = ErrorBody),
        CrossSite, JsonBody,
    ))]
async fn forgot(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    ApiJson(form): ApiJson<ForgotForm>,
) -> Result<StatusCode, ApiError> {
    let email = form.email.trim();
    if email.is_empty() {
        return Err(ApiError::field("email", "is required"));
    }
    if email.len() > 254 {
        return Err(ApiError::field(
            "email",
            "must be at most 254 characters long",
        ));
    }
    match state.auth.forgot.admit(ip, email, state.auth.now_ms()) {
        Admission::Queued | Admission::Cooling => {}
        Admission::Shed => {
            crate::ops::metrics::password_reset_shed();
            tracing::warn!("a password reset was not worked on: its queue is full");
        }
        Admission::Limited(wait) => {
            crate::ops::metrics::password_reset_limited();
            return Err(ApiError::TooManyRequests {
                retry_after_secs: wait.as_secs().clamp(1, 3600),
                message: "Too many requests for a reset link. Try again later.".into(),
            });
        }
    }
    Ok(StatusCode::ACCEPTED)
}

/// Starts the workers that make and e-mail reset links, when links can be e-mailed (a mailer and
/// a public URL): the queue of [`crate::auth::forgot`] then has somewhere to go.
pub fn start_reset_links(state: &AppState) {
    let (Some(mailer), Some(public_url)) = (
        state.contact.mailer.get().cloned(),
        state.settings.public_url.clone(),
    ) else {
        return;
    };
    let (db, clock) = (state.db.clone(), state.auth.clock.clone());
    state.auth.forgot.start(move |email| {
        let (db, mailer, public_url, now) = (
            db.clone(),
            mailer.clone(),
            public_url.clone(),
            clock.now_ms(),
        );
        async move {
            if let Err(error) = send_link(&db, &mailer, &public_url, now, &email).await {
                tracing::warn!(error = %format!("{error:#}"), "a password-reset link was not sent");
            }
        }
    });
}

/// Makes and e-mails a link when `email` is the owner's and none was sent within five minutes.
async fn send_link(
    db: &Db,
    mailer: &Mailer,
    public_url: &url::Url,
    now: i64,
    email: &str,
) -> anyhow::Result<()> {
    let Some(owner) = db.find_owner_by_email(email).await? else {
        tracing::info!("a password reset was asked for an address that is not the owner's");
        return Ok(());
    };
    let token = session::new_token();
    if !db
        .begin_password_reset(
            owner.id,
            &session::token_hash(&token),
            now,
            now + reset::VALID_MS,
            now - reset::EVERY_MS,
        )
        .await?
    {
        tracing::info!("a password reset was asked again within five minutes: no e-mail");
        return Ok(());
    }
    mailer.send_notice_in_background(
        reset::SUBJECT,
        reset::text(&reset::link(public_url, &token)),
    );
    tracing::info!("a password-reset link was e-mailed to the owner");
    Ok(())
}

/// Sets a new password with an e-mailed link's token: the link works once and for 30 minutes;
/// with the second factor on, a one-time or recovery code is needed too (a missing one is a 422
/// naming `code`, and the link still works). It never signs in: every session ends, and the owner
/// gets a notice.
#[utoipa::path(post, path = "/session/reset", tag = "session", request_body = ResetForm,
    operation_id = "resetPassword",
    responses(
        (status = 204, description = "The password is set; every session was signed out"),
        (status = 422, description = "The link has expired or was used (token), the password is too weak (password), or a code is needed or wrong (code)", body = ErrorBody),
        CrossSite, JsonBody, TooManyWrongCodes, HashingBusy,
    ))]
async fn reset_password(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    ApiJson(form): ApiJson<ResetForm>,
) -> Result<Response, ApiError> {
    let form = Reset {
        token: &form.token,
        password: form.password,
        code: form.code.as_deref(),
    };
    password::reset(&flows(&state), &jar, ip, form).await?;
    Ok((
        StatusCode::NO_CONTENT,
        session::clear_cookie(&state.settings),
    )
        .into_response())
}
