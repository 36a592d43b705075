//! `/api/notifications`: what became of the owner's notifications. Each message's delivery on
//! every channel, whether notifications keep failing, a test e-mail through the real outbox, and
//! "Retry now". Every endpoint needs a session.

use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{IdNotNumber, NoSession, NoSuchNotification};
use crate::auth::Owner;
use crate::clock::now_ms;
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::json::ApiJson;
use crate::http::extract::query::{ApiQuery, QueryParams};
use crate::http::state::AppState;
use crate::store::delivery::{DeliveryRow, RetryOutcome, EMAIL_CHANNEL};

/// At most this many messages per status request (a page of the inbox).
pub const MAX_STATUS_IDS: usize = 100;
/// Notifications "keep failing" once one has failed this many times...
pub const ALERT_ATTEMPTS: i64 = 5;
/// ...or once the oldest has waited this long (milliseconds).
pub const ALERT_AGE_MS: i64 = 10 * 60 * 1000;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(status))
        .routes(routes!(health))
        .routes(routes!(send_test))
        .routes(routes!(find))
        .routes(routes!(retry))
        .layer(crate::http::layers::no_store::no_store())
}

/// One notification on one channel.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    id: i64,
    /// The message it tells about; absent for a test e-mail.
    message_id: Option<i64>,
    /// `email` or `webhook`.
    channel: String,
    /// `message`, `test` for a test e-mail, `ceiling` for the notice that the hourly ceiling
    /// held messages in Spam, or `link` for an application link's alert.
    kind: String,
    /// `sent`; `pending` (not tried yet); `sending` (being tried now); `retrying` (failed, will
    /// be tried again at `nextAttemptAt`); `failed` (a test e-mail that failed: not tried again).
    status: String,
    /// Attempts made so far.
    attempts: i64,
    /// Why the last attempt failed, in words.
    last_error: Option<String>,
    /// When it will be tried next (Unix milliseconds), while it waits.
    next_attempt_at: Option<i64>,
    /// When it was sent (Unix milliseconds).
    sent_at: Option<i64>,
    /// When it was queued (Unix milliseconds).
    created_at: i64,
}

impl Delivery {
    pub(super) fn from_row(row: DeliveryRow, now: i64) -> Self {
        let in_flight = row.leased_until.is_some_and(|until| until > now);
        let status = if row.sent_at.is_some() {
            "sent"
        } else if row.gave_up_at.is_some() {
            "failed"
        } else if in_flight {
            "sending"
        } else if row.attempts > 0 {
            "retrying"
        } else {
            "pending"
        };
        let waiting = matches!(status, "retrying" | "pending");
        Self {
            id: row.id,
            message_id: row.message_id,
            channel: if row.channel == EMAIL_CHANNEL {
                "email".to_owned()
            } else {
                "webhook".to_owned()
            },
            kind: row.kind,
            status: status.to_owned(),
            attempts: row.attempts,
            last_error: row.last_error,
            next_attempt_at: waiting.then_some(row.next_attempt_at),
            sent_at: row.sent_at,
            created_at: row.created_at,
        }
    }
}

/// The notification of one message, on every channel.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageDelivery {
    message_id: i64,
    /// `not_requested` (spam, or notifications were off when it came), `sent` (on every
    /// channel), `retrying` (a channel failed and will try again) or `pending`.
    status: String,
    deliveries: Vec<Delivery>,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryStatuses {
    /// In the order asked for.
    messages: Vec<MessageDelivery>,
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
#[into_params(parameter_in = Query, rename_all = "camelCase")]
pub struct StatusQuery {
    /// Message ids, separated by commas (1 to 100).
    message_ids: Option<String>,
}

impl QueryParams for StatusQuery {}

fn parse_ids(text: Option<&str>) -> Result<Vec<i64>, ApiError> {
    let invalid = || {
        ApiError::field(
            "messageIds",
            format!("must be 1 to {MAX_STATUS_IDS} message ids separated by commas"),
        )
    };
    let text = text
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .ok_or_else(invalid)?;
    let ids = text
        .split(',')
        .map(|id| id.trim().parse::<i64>().ok().filter(|id| *id > 0))
        .collect::<Option<Vec<i64>>>()
        .ok_or_else(invalid)?;
    if ids.len() > MAX_STATUS_IDS {
        return Err(invalid());
    }
    Ok(ids)
}

/// What became of the notification of each message: sent, retrying (with the error and the next
/// try), or not asked for.
#[utoipa::path(get, path = "/notifications/status", tag = "notifications", params(StatusQuery),
    operation_id = "listNotificationStatuses", security(("session" = [])),
    responses(
        (status = 200, body = DeliveryStatuses),
        (status = 422, description = "`messageIds` is missing or invalid", body = ErrorBody),
        NoSession,
    ))]
async fn status(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<StatusQuery>,
) -> Result<ApiJson<DeliveryStatuses>, ApiError> {
    let ids = parse_ids(query.message_ids.as_deref())?;
    let rows = state.db.deliveries_for_messages(&ids).await?;
    let now = now_ms();
    let messages = ids
        .iter()
        .map(|&message_id| {
            let deliveries: Vec<Delivery> = rows
                .iter()
                .filter(|row| row.message_id == Some(message_id))
                .map(|row| Delivery::from_row(row.clone(), now))
                .collect();
            let status = if deliveries.is_empty() {
                "not_requested"
            } else if deliveries.iter().all(|d| d.status == "sent") {
                "sent"
            } else if deliveries.iter().any(|d| d.status == "retrying") {
                "retrying"
            } else {
                "pending"
            };
            MessageDelivery {
                message_id,
                status: status.to_owned(),
                deliveries,
            }
        })
        .collect();
    Ok(ApiJson(DeliveryStatuses { messages }))
}

/// Whether notifications keep failing, for the dashboard's banner.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DeliveryHealth {
    /// Whether any notification channel is configured.
    notifications_on: bool,
    /// Whether e-mail notifications are configured (so a test e-mail can be sent).
    email_on: bool,
    /// Notifications of messages not yet delivered.
    pending: i64,
    /// Of those, the ones that failed at least once.
    failing: i64,
    /// When the oldest waiting notification was queued (Unix milliseconds).
    oldest_pending_at: Option<i64>,
    /// The most attempts any waiting notification has failed.
    max_attempts: i64,
    /// The last error of the notification that failed most often.
    last_error: Option<String>,
    /// True when notifications keep failing: one failed 5 times, or one has waited 10 minutes.
    alert: bool,
}

/// Whether notifications keep failing.
#[utoipa::path(get, path = "/notifications/health", tag = "notifications",
    operation_id = "readNotificationHealth", security(("session" = [])),
    responses(
        (status = 200, body = DeliveryHealth),
        NoSession,
    ))]
async fn health(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<ApiJson<DeliveryHealth>, ApiError> {
    let channels = &state.contact.channels;
    let backlog = state.db.delivery_backlog(channels).await?;
    let last_error = if backlog.failing > 0 {
        state.db.worst_delivery_error(channels).await?
    } else {
        None
    };
    let now = now_ms();
    let alert = backlog.max_attempts >= ALERT_ATTEMPTS
        || backlog
            .oldest_pending_at
            .is_some_and(|oldest| now - oldest >= ALERT_AGE_MS);
    Ok(ApiJson(DeliveryHealth {
        notifications_on: state.contact.notifications_on,
        email_on: state.contact.email_on,
        pending: backlog.pending,
        failing: backlog.failing,
        oldest_pending_at: backlog.oldest_pending_at,
        max_attempts: backlog.max_attempts,
        last_error,
        alert,
    }))
}

/// Queues a test e-mail to the owner through the outbox (one attempt); follow it with
/// `GET /notifications/{id}`.
#[utoipa::path(post, path = "/notifications/test", tag = "notifications",
    operation_id = "sendTestNotification", security(("session" = [])),
    responses(
        (status = 202, description = "Queued", body = Delivery),
        (status = 409, description = "E-mail notifications are not configured", body = ErrorBody),
        NoSession,
    ))]
async fn send_test(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<(StatusCode, ApiJson<Delivery>), ApiError> {
    if !state.contact.email_on {
        return Err(ApiError::Conflict(
            "E-mail notifications are off: start the server with --smtp-url and --notify-email."
                .to_owned(),
        ));
    }
    let now = now_ms();
    let id = state.db.queue_test_email(now).await?;
    state.contact.outbox_wake.notify_one();
    tracing::info!(outbox_id = id, "the owner asked for a test e-mail");
    let row = state
        .db
        .find_delivery(id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("the test e-mail vanished"))?;
    Ok((StatusCode::ACCEPTED, ApiJson(Delivery::from_row(row, now))))
}

fn parse_id(text: &str) -> Result<i64, ApiError> {
    text.parse::<i64>()
        .ok()
        .filter(|id| *id > 0)
        .ok_or_else(|| ApiError::field("id", "must be a notification id (a positive number)"))
}

/// One notification: a test e-mail's result, or a message's delivery on one channel.
#[utoipa::path(get, path = "/notifications/{id}", tag = "notifications",
    operation_id = "readNotification", security(("session" = [])),
    params(("id" = i64, Path, description = "The notification's id")),
    responses(
        (status = 200, body = Delivery),
        NoSession, IdNotNumber, NoSuchNotification,
    ))]
async fn find(
    State(state): State<AppState>,
    _owner: Owner,
    Path(id): Path<String>,
) -> Result<ApiJson<Delivery>, ApiError> {
    let id = parse_id(&id)?;
    let row = state
        .db
        .find_delivery(id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok(ApiJson(Delivery::from_row(row, now_ms())))
}

/// Makes a waiting notification due at once ("Retry now").
#[utoipa::path(post, path = "/notifications/{id}/retry", tag = "notifications",
    operation_id = "retryNotification", security(("session" = [])),
    params(("id" = i64, Path, description = "The notification's id")),
    responses(
        (status = 202, description = "Due now", body = Delivery),
        (status = 409, description = "Sent already, given up, or being sent right now", body = ErrorBody),
        NoSession, IdNotNumber, NoSuchNotification,
    ))]
async fn retry(
    State(state): State<AppState>,
    _owner: Owner,
    Path(id): Path<String>,
) -> Result<(StatusCode, ApiJson<Delivery>), ApiError> {
    let id = parse_id(&id)?;
    let now = now_ms();
    match state.db.retry_delivery_now(id, now).await? {
        RetryOutcome::Scheduled => {}
        RetryOutcome::Missing => return Err(ApiError::NotFound),
        RetryOutcome::Finished => {
            return Err(ApiError::Conflict(
                "This notification is not waiting: it was sent, or it was a test e-mail."
                    .to_owned(),
            ))
        }
        RetryOutcome::InFlight => {
            return Err(ApiError::Conflict(
                "This notification is being sent right now.".to_owned(),
            ))
        }
    }
    state.contact.outbox_wake.notify_one();
    tracing::info!(
        outbox_id = id,
        "the owner asked to retry a notification now"
    );
    let row = state
        .db
        .find_delivery(id)
        .await?
        .ok_or(ApiError::NotFound)?;
    Ok((StatusCode::ACCEPTED, ApiJson(Delivery::from_row(row, now))))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_ids_are_a_short_list_of_positive_numbers() {
        assert_eq!(parse_ids(Some("1, 2,3")).unwrap(), [1, 2, 3]);
        for bad in [
            None,
            Some(""),
            Some("1,,2"),
            Some("x"),
            Some("0"),
            Some("-4"),
        ] {
            assert!(parse_ids(bad).is_err(), "{bad:?}");
        }
        let many = (1..=101)
            .map(|i| i.to_string())
            .collect::<Vec<_>>()
            .join(",");
        assert!(parse_ids(Some(&many)).is_err());
    }
}
