//! `/api/digest`: the weekly digest's day and hour (in the owner's time zone), on or off, and
//! when the next one is due. Every endpoint needs a session.

use axum::extract::State;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{CrossSite, InvalidFields, JsonBody, NoSession};
use crate::auth::Owner;
use crate::digest::schedule;
use crate::domain::FieldErrors;
use crate::error::{ApiError, Result};
use crate::http::extract::json::ApiJson;
use crate::http::state::AppState;
use crate::store::digest::{DigestSettingsRow, WeeklyDigestRow};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(read, change))
        .layer(crate::http::layers::no_store::no_store())
}

/// The weekly digest as the owner set it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DigestSettings {
    enabled: bool,
    /// ISO weekday: 1 for Monday to 7 for Sunday.
    #[schema(minimum = 1, maximum = 7, example = 1)]
    weekday: i64,
    /// 0 to 23, in `timeZone`.
    #[schema(minimum = 0, maximum = 23, example = 9)]
    hour: i64,
    /// The owner's time zone (`--insights-time-zone`), IANA.
    #[schema(example = "Europe/Berlin")]
    time_zone: String,
    /// When the next digest is due, Unix ms; `null` while it is off.
    next_at: Option<i64>,
    /// When the last digest was sent (not skipped as an empty week), Unix ms.
    last_sent_at: Option<i64>,
    /// Whether the server has somewhere to send it (e-mail or a webhook).
    can_send: bool,
}

/// The weekly digest's settings, all three given.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DigestChange {
    enabled: bool,
    /// 1 (Monday) to 7 (Sunday).
    weekday: i64,
    /// 0 to 23, in the owner's time zone.
    hour: i64,
}

fn settings(state: &AppState, row: &DigestSettingsRow, sent: &[WeeklyDigestRow]) -> DigestSettings {
    let tz = state.settings.insights.time_zone;
    let now = state.links.now_ms();
    let next_at = row
        .enabled
        .then(|| {
            let (weekday, hour) = (
                u32::try_from(row.weekday).ok()?,
                u32::try_from(row.hour).ok()?,
            );
            schedule::next_slot(tz, weekday, hour, now)
        })
        .flatten();
    DigestSettings {
        enabled: row.enabled,
        weekday: row.weekday,
        hour: row.hour,
        time_zone: tz.name().to_owned(),
        next_at,
        last_sent_at: sent
            .iter()
            .find(|digest| !digest.skipped)
            .map(|digest| digest.created_at),
        can_send: state.contact.notifications_on,
    }
}

/// The weekly digest's day, hour and state.
#[utoipa::path(get, path = "/digest", tag = "insights",
    operation_id = "readDigest", security(("session" = [])),
    responses((status = 200, body = DigestSettings), NoSession))]
async fn read(State(state): State<AppState>, _owner: Owner) -> Result<ApiJson<DigestSettings>> {
    let row = state.db.digest_settings(state.links.now_ms()).await?;
    let sent = state.db.weekly_digests(20).await?;
    Ok(ApiJson(settings(&state, &row, &sent)))
}

/// Sets the weekly digest's day and hour, or turns it off; a time already past this week is
/// first sent next week.
#[utoipa::path(put, path = "/digest", tag = "insights", request_body = DigestChange,
    operation_id = "changeDigest", security(("session" = [])),
    responses(
        (status = 200, body = DigestSettings),
        NoSession, CrossSite, JsonBody, InvalidFields,
    ))]
async fn change(
    State(state): State<AppState>,
    _owner: Owner,
    ApiJson(change): ApiJson<DigestChange>,
) -> Result<ApiJson<DigestSettings>> {
    let mut errors = FieldErrors::new();
    if !(1..=7).contains(&change.weekday) {
        errors.insert(
            "weekday".into(),
            "must be a day of the week from 1 (Monday) to 7 (Sunday)".into(),
        );
    }
    if !(0..=23).contains(&change.hour) {
        errors.insert("hour".into(), "must be an hour from 0 to 23".into());
    }
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let row = state
        .db
        .set_digest_settings(&DigestSettingsRow {
            enabled: change.enabled,
            weekday: change.weekday,
            hour: change.hour,
            updated_at: state.links.now_ms(),
        })
        .await?;
    let sent = state.db.weekly_digests(20).await?;
    Ok(ApiJson(settings(&state, &row, &sent)))
}
