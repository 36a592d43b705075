//! What every entry of the content store (the page's document, each case study) shares over
//! HTTP, one code path for all: the draft's revision as its ETag and the next save's `If-Match`,
//! a save that never overwrites a newer draft, the list of kept versions, and a publish's moment
//! to come (`?at=`) and its cancelling.

use axum::http::header::{ETAG, IF_MATCH};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::clock::now_ms;
use crate::error::ApiError;
use crate::http::extract::json::ApiJson;
use crate::http::state::AppState;
use crate::store::content::{EntryKey, VersionRow};

/// A published version.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Version {
    pub(super) version: i64,
    /// Unix milliseconds, UTC.
    pub(super) published_at: i64,
}

impl From<&VersionRow> for Version {
    fn from(row: &VersionRow) -> Self {
        Self {
            version: row.version,
            published_at: row.published_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VersionList {
    /// The kept versions (the last 20), newest first.
    pub(super) versions: Vec<Version>,
}

#[derive(Debug, Deserialize)]
pub struct VersionNumber {
    pub(super) n: i64,
}

/// `body` with the draft's revision as its ETag, for the next save's `If-Match`.
pub fn with_revision_etag(revision: i64, body: impl Serialize) -> Response {
    let etag = HeaderValue::from_str(&format!("\"{revision}\"")).expect("a number");
    ([(ETAG, etag)], ApiJson(body)).into_response()
}

/// The revision in `If-Match`: `"3"` (as the ETag came) or `3`. `If-Match` compares strongly
/// (RFC 9110, 13.1.1): a weak tag such as `W/"3"` never matches, so it is 412.
pub fn expected_revision(headers: &HeaderMap) -> Result<i64, ApiError> {
    let raw = headers.get(IF_MATCH).ok_or_else(|| {
        ApiError::PreconditionRequired(
            "Send the draft's revision in If-Match (its ETag), so a newer draft is never overwritten."
                .into(),
        )
    })?;
    if raw.as_bytes().trim_ascii_start().starts_with(b"W/") {
        return Err(ApiError::PreconditionFailed(
            "If-Match compares strongly, so a weak tag (W/…) never matches: send the draft's ETag \
             as it came."
                .into(),
        ));
    }
    raw.to_str()
        .ok()
        .map(|v| v.trim().trim_matches('"'))
        .and_then(|v| v.parse::<i64>().ok())
        .filter(|n| *n >= 0)
        .ok_or_else(|| {
            ApiError::field(
                "If-Match",
                "must be the draft's revision, as its ETag gave it",
            )
        })
}

/// Stores `document` (checked already) as the entry's draft if the draft is still at revision
/// `expected`; the new revision. A save made elsewhere since is a 409 and nothing is written.
pub async fn save_draft(
    state: &AppState,
    key: EntryKey<'_>,
    document: &impl Serialize,
    expected: i64,
) -> Result<i64, ApiError> {
    let json = serde_json::to_string(document).map_err(anyhow::Error::from)?;
    match state
        .db
        .save_content_draft(key, &json, expected, now_ms())
        .await?
    {
        Some(revision) => Ok(revision),
        None => {
            let now = state
                .db
                .content_draft(key)
                .await?
                .map_or(0, |row| row.revision);
            Err(ApiError::Conflict(format!(
                "The draft was saved elsewhere since revision {expected} (it is now at revision {now}); \
                 nothing was overwritten. Reload the draft, then make your change again."
            )))
        }
    }
}

/// Kept version `n` of the entry, read as a `T` (a post, a case study): a revert publishes it
/// again. 404 when no such version is kept.
pub async fn kept_version<T: serde::de::DeserializeOwned>(
    state: &AppState,
    key: EntryKey<'_>,
    n: i64,
) -> Result<T, ApiError> {
    let row = state
        .db
        .content_version(key, n)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(serde_json::from_str(&row.document).map_err(anyhow::Error::from)?)
}

/// The entry's kept versions, newest first.
pub async fn versions(state: &AppState, key: EntryKey<'_>) -> Result<VersionList, ApiError> {
    let versions = state
        .db
        .content_versions(key)
        .await?
        .into_iter()
        .map(|v| Version {
            version: v.version,
            published_at: v.published_at,
        })
        .collect();
    Ok(VersionList { versions })
}

/// When to publish: at once, or at a moment to come.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PublishQuery {
    /// A moment to come, RFC 3339 (`2026-12-24T09:00:00+01:00`), or a date and time without an
    /// offset (`2026-12-24T09:00`), read in the owner's time zone (`--time-zone`). Until then
    /// no address shows this version; a moment past publishes at once.
    #[param(max_length = 40)]
    at: Option<String>,
}

impl crate::http::extract::query::QueryParams for PublishQuery {}

/// The moment a publish or an unpublishing asks for (`at`), if any, read in the owner's zone.
pub fn requested_moment(state: &AppState, query: &PublishQuery) -> Result<Option<i64>, ApiError> {
    query
        .at
        .as_deref()
        .map(|at| moment(at, state.settings.insights.time_zone))
        .transpose()
}

/// The moment `at` names (Unix ms), read in `zone` when it has no offset.
pub fn moment(at: &str, zone: chrono_tz::Tz) -> Result<i64, ApiError> {
    use chrono::TimeZone;
    let problem = || {
        ApiError::field(
            "at",
            "must be a date and time such as 2026-12-24T09:00 (in your time zone) or \
             2026-12-24T09:00:00+01:00",
        )
    };
    if at.len() > 40 {
        return Err(problem());
    }
    if let Ok(moment) = chrono::DateTime::parse_from_rfc3339(at) {
        return Ok(moment.timestamp_millis());
    }
    let naive = chrono::NaiveDateTime::parse_from_str(at, "%Y-%m-%dT%H:%M")
        .or_else(|_| chrono::NaiveDateTime::parse_from_str(at, "%Y-%m-%dT%H:%M:%S"))
        .map_err(|_| problem())?;
    zone.from_local_datetime(&naive)
        .earliest()
        .map(|moment| moment.timestamp_millis())
        .ok_or_else(problem)
}

/// Cancels what is scheduled for the entry (a publish, or a post's unpublishing, still to come),
/// and the notice that would have said it went live: what is published now stays as it is. 404
/// when nothing was scheduled.
pub async fn cancel_schedule(state: &AppState, key: EntryKey<'_>) -> Result<StatusCode, ApiError> {
    let _publishing = state.content.publishing().await;
    let dropped = state
        .db
        .drop_scheduled_content(key, state.content.now_ms())
        .await?;
    state.db.drop_notices(&notice_entry(key)).await?;
    match dropped {
        0 => Err(ApiError::NotFound),
        _ => Ok(StatusCode::NO_CONTENT),
    }
}

/// What the outbox's notices about the entry are filed under: `post/<id>`.
pub fn notice_entry(key: EntryKey<'_>) -> String {
    format!("{}/{}", key.kind, key.entry)
}
