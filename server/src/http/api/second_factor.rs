//! `/api/session/second-factor`: the owner sets up time-based one-time codes (a key shown as a QR
//! code this server draws, confirmed with a first code, which turns it on and gives ten recovery
//! codes), sees whether it is on, turns it off, and makes new recovery codes. Setting it up,
//! confirming it, turning it off and new recovery codes each ask for the password or a passkey
//! again (see `POST /api/session/reauth`): a stolen session must not turn on a second factor of
//! its own and lock the owner out. Turning it on signs every other session out.

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum_extra::extract::CookieJar;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{CrossSiteOrReauth, JsonBody, NoSession, TooManyWrongCodes};
use crate::auth::flows::second_factor as flow;
use crate::auth::{second_factor, Owner};
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::auth_flows::flows;
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::layers::no_store::no_store;
use crate::http::state::AppState;

/// Where the setup's QR code is served.
const QR_PATH: &str = "/api/session/second-factor/qr.svg";

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(status, turn_off))
        .routes(routes!(set_up))
        .routes(routes!(qr_code))
        .routes(routes!(confirm))
        .routes(routes!(new_recovery_codes))
        .layer(no_store())
}

/// Whether the second factor is on.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SecondFactorStatus {
    pub enabled: bool,
    /// Recovery codes not used yet (0 while it is off).
    pub recovery_codes_left: i64,
}

/// A setup begun: the key, for the owner's authenticator app.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Setup {
    /// The key in base32, for typing it in.
    pub secret: String,
    /// The `otpauth://totp/…` address the QR code carries.
    pub uri: String,
    /// Where this server serves the QR code (an SVG image, same origin).
    #[schema(example = "/api/session/second-factor/qr.svg")]
    pub qr_code: String,
}

/// Recovery codes, shown this once (only their hashes are kept).
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RecoveryCodes {
    /// Ten codes, `xxxx-xxxx-xxxx-xxxx`; each works once, in place of a one-time code.
    pub recovery_codes: Vec<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ConfirmForm {
    /// The six digits the authenticator app shows for the new key.
    #[schema(example = "123456")]
    code: String,
}

/// Whether the second factor is on, and how many recovery codes are left.
#[utoipa::path(get, path = "/session/second-factor", tag = "session",
    operation_id = "readSecondFactor", security(("session" = [])),
    responses(
        (status = 200, description = "The second factor's state", body = SecondFactorStatus),
        NoSession,
    ))]
async fn status(
    State(state): State<AppState>,
    owner: Owner,
) -> Result<ApiJson<SecondFactorStatus>, ApiError> {
    let enabled = second_factor::is_on(&state.db, owner.id).await?;
    let recovery_codes_left = if enabled {
        state.db.recovery_codes_left(owner.id).await?
    } else {
        0
    };
    Ok(ApiJson(SecondFactorStatus {
        enabled,
        recovery_codes_left,
    }))
}

/// Begins setting the second factor up: a new key (replacing one whose setup was not
/// confirmed), its `otpauth://` address and the QR code's address. Nothing changes at sign-in
/// until `POST /api/session/second-factor/confirm` confirms it with a first code. Asks for the
/// password or a passkey within the last five minutes.
#[utoipa::path(post, path = "/session/second-factor/setup", tag = "session",
    operation_id = "setUpSecondFactor", security(("session" = [])),
    responses(
        (status = 200, description = "The new key", body = Setup),
        (status = 409, description = "The second factor is on already (turn it off first)", body = ErrorBody),
        NoSession, CrossSiteOrReauth,
    ))]
async fn set_up(State(state): State<AppState>, owner: Owner) -> Result<ApiJson<Setup>, ApiError> {
    let totp = flow::set_up(&flows(&state), &owner).await?;
    Ok(ApiJson(Setup {
        secret: second_factor::secret_base32(&totp),
        uri: second_factor::otpauth_uri(&totp),
        qr_code: QR_PATH.to_owned(),
    }))
}

/// The setup's QR code (the `otpauth://` address), drawn by this server as SVG, while a setup
/// awaits its first code.
#[utoipa::path(get, path = "/session/second-factor/qr.svg", tag = "session",
    operation_id = "readSecondFactorQrCode", security(("session" = [])),
    responses(
        (status = 200, description = "The QR code", content_type = "image/svg+xml", body = String),
        (status = 404, description = "No setup awaits its first code", body = ErrorBody),
        NoSession,
    ))]
async fn qr_code(State(state): State<AppState>, owner: Owner) -> Result<Response, ApiError> {
    let row = state
        .db
        .second_factor(owner.id)
        .await?
        .filter(|row| row.enabled_at.is_none())
        .ok_or(ApiError::NotFound)?;
    let totp = second_factor::totp(&row.secret, state.auth.issuer(), &owner.email)?;
    let svg = second_factor::qr_svg(&second_factor::otpauth_uri(&totp))?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], svg).into_response())
}

/// Confirms the setup with the first code the app shows: the second factor is on from now on,
/// every other session is signed out, and the answer holds the ten recovery codes, shown this
/// once. Wrong codes are throttled like passwords. Asks for the password or a passkey within the
/// last five minutes.
#[utoipa::path(post, path = "/session/second-factor/confirm", tag = "session", request_body = ConfirmForm,
    operation_id = "confirmSecondFactor", security(("session" = [])),
    responses(
        (status = 200, description = "On; the recovery codes", body = RecoveryCodes),
        (status = 409, description = "No setup awaits a code (it is on already, or was never begun)", body = ErrorBody),
        (status = 422, description = "The code is wrong", body = ErrorBody),
        NoSession, CrossSiteOrReauth, JsonBody, TooManyWrongCodes,
    ))]
async fn confirm(
    State(state): State<AppState>,
    owner: Owner,
    ClientIp(ip): ClientIp,
    jar: CookieJar,
    ApiJson(form): ApiJson<ConfirmForm>,
) -> Result<ApiJson<RecoveryCodes>, ApiError> {
    let codes = flow::confirm(&flows(&state), &owner, &jar, ip, &form.code).await?;
    Ok(ApiJson(RecoveryCodes {
        recovery_codes: codes,
    }))
}

/// Turns the second factor off (its key and recovery codes are deleted). Asks for the password
/// or a passkey within the last five minutes.
#[utoipa::path(delete, path = "/session/second-factor", tag = "session",
    operation_id = "turnOffSecondFactor", security(("session" = [])),
    responses(
        (status = 204, description = "Off (also when it was off)"),
        NoSession, CrossSiteOrReauth,
    ))]
async fn turn_off(State(state): State<AppState>, owner: Owner) -> Result<StatusCode, ApiError> {
    flow::turn_off(&flows(&state), &owner).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// New recovery codes, replacing the old ones (which stop working), shown this once. Asks for
/// the password or a passkey within the last five minutes.
#[utoipa::path(post, path = "/session/second-factor/recovery-codes", tag = "session",
    operation_id = "renewRecoveryCodes", security(("session" = [])),
    responses(
        (status = 200, description = "The new codes", body = RecoveryCodes),
        (status = 409, description = "The second factor is off", body = ErrorBody),
        NoSession, CrossSiteOrReauth,
    ))]
async fn new_recovery_codes(
    State(state): State<AppState>,
    owner: Owner,
) -> Result<ApiJson<RecoveryCodes>, ApiError> {
    let codes = flow::renew_recovery_codes(&flows(&state), &owner).await?;
    Ok(ApiJson(RecoveryCodes {
        recovery_codes: codes,
    }))
}
