//! `POST /api/contact`: a visitor's message, stored before it is acknowledged.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::contact::spam;
use crate::domain::ContactForm;
use crate::error::{ApiError, ErrorBody, Result};
use crate::http::client_ip::ClientIp;
use crate::http::json::ApiJson;
use crate::state::AppState;
use crate::store::NewMessage;

/// The longest User-Agent kept with a message, in characters.
const MAX_USER_AGENT_CHARS: usize = 512;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(send_message))
}

/// A message from the contact form.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ContactRequest {
    /// 1 to 100 characters once trimmed.
    #[schema(example = "Ada Lovelace")]
    pub name: String,
    /// A valid address of at most 254 characters.
    #[schema(example = "ada@example.com")]
    pub email: String,
    /// Required, at most 200 characters.
    pub subject: String,
    /// Required, at most 5,000 characters.
    pub message: String,
    /// Always `contact`.
    #[serde(rename = "form-name")]
    #[schema(example = "contact")]
    pub form_name: String,
    /// The honeypot: a field hidden from people. Leave it empty.
    #[serde(default)]
    pub website: Option<String>,
    /// How long the form was on screen before it was sent, in milliseconds.
    #[serde(rename = "elapsedMs", default)]
    pub elapsed_ms: Option<u64>,
}

/// The stored message: its id and the server's time of receipt.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContactCreated {
    pub id: i64,
    /// RFC 3339, UTC.
    #[serde(rename = "createdAt")]
    pub created_at: chrono::DateTime<chrono::Utc>,
}

/// Stores a contact message. Answers 201 only once the message is committed to disk.
#[utoipa::path(
    post,
    path = "/contact",
    tag = "contact",
    request_body = ContactRequest,
    responses(
        (status = 201, description = "Stored", body = ContactCreated),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 403, description = "Not from the site's own pages", body = ErrorBody),
        (status = 413, description = "Body over 16 KB", body = ErrorBody),
        (status = 415, description = "Not JSON", body = ErrorBody),
        (status = 422, description = "Fields not valid, each named", body = ErrorBody),
        (status = 429, description = "Too many messages; see Retry-After", body = ErrorBody),
    )
)]
async fn send_message(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    ApiJson(request): ApiJson<ContactRequest>,
) -> Result<(StatusCode, ApiJson<ContactCreated>)> {
    let form = ContactForm::parse(
        &request.name,
        &request.email,
        &request.subject,
        &request.message,
        &request.form_name,
    )
    .map_err(ApiError::Validation)?;

    let client_key = crate::auth::throttle::client_key(state.auth.client_salt(), client);
    let now = chrono::Utc::now();
    if let Some(wait) = state
        .db
        .take_submission_slot(&client_key, now.timestamp_millis())
        .await?
    {
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        return Err(ApiError::TooManyRequests {
            retry_after_secs: secs.max(1),
            message: format!(
                "Too many messages from your connection. Please wait {} and try again.",
                human_wait(secs.max(1))
            ),
        });
    }

    let spam_reason = spam::verdict(request.website.as_deref(), request.elapsed_ms);
    let user_agent: Option<String> = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|ua| ua.chars().take(MAX_USER_AGENT_CHARS).collect());
    let created_at = now.timestamp_millis();
    let id = state
        .db
        .insert_message(&NewMessage {
            form: &form,
            spam_reason,
            user_agent: user_agent.as_deref(),
            created_at,
            notify: state.contact.notifications_on,
            channels: &state.contact.channels,
        })
        .await?;
    if let Some(reason) = spam_reason {
        tracing::info!(id, reason, "contact message stored as spam");
    } else if state.contact.notifications_on {
        state.contact.outbox_wake.notify_one();
    }
    let created_at = chrono::DateTime::from_timestamp_millis(created_at).unwrap_or(now);
    Ok((
        StatusCode::CREATED,
        ApiJson(ContactCreated { id, created_at }),
    ))
}

fn human_wait(secs: u64) -> String {
    match secs {
        1 => "1 second".to_owned(),
        s if s < 90 => format!("{s} seconds"),
        s => format!("{} minutes", s.div_ceil(60)),
    }
}
