//! `POST /api/contact`: a visitor's message, stored before it is acknowledged.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{CrossSite, InvalidFields, JsonBody};
use crate::contact::spam;
use crate::domain::ContactForm;
use crate::error::{ApiError, ErrorBody, Result};
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::state::AppState;
use crate::store::{LinkVisit, NewMessage, UsedProofs};

/// The longest User-Agent kept with a message, in characters.
const MAX_USER_AGENT_CHARS: usize = 512;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(send_message))
        .routes(routes!(new_challenge))
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
    /// Ignored: the start time is now the signed `token`. Still accepted from older pages.
    #[serde(rename = "elapsedMs", default)]
    #[schema(deprecated)]
    pub elapsed_ms: Option<u64>,
    /// The form token from `GET /api/contact/challenge`, as given. Without it, when it is
    /// younger than 3 seconds, older than an hour or used by an earlier message, the message is
    /// stored as spam.
    #[serde(default)]
    pub token: Option<String>,
    /// The solved proof-of-work challenge: base64 of the JSON `{algorithm, challenge, number,
    /// salt, signature}` (the ALTCHA payload). Without it the message is stored as spam.
    #[serde(default)]
    pub altcha: Option<String>,
    /// The application link the visit came through: its slug, from the page's address
    /// `/a/<slug>` (at most 64 characters). A message sent through a live link, by a visitor
    /// without `DNT: 1` or `Sec-GPC: 1`, is stored with it (the owner's inbox shows it); any
    /// other value is ignored, and the message stored as without it.
    #[serde(default)]
    #[schema(example = "acme-3q2-7wX1b_kPz9QeL")]
    pub link: Option<String>,
}

/// A form token and a proof-of-work challenge, fetched when the form is first used.
#[derive(Debug, Serialize, ToSchema)]
pub struct ContactChallenge {
    /// Signed by the server, good for one message within an hour: send it back as `token`.
    pub token: String,
    /// Solve it in the background and send the solution back as `altcha`.
    pub challenge: spam::Challenge,
}

/// A signed form token and a fresh proof-of-work challenge (ALTCHA protocol) for one message:
/// each is good for one message and an hour. A network that asks for many gets larger challenges
/// (`--spam-challenge-free-per-hour`).
#[utoipa::path(
    get,
    path = "/contact/challenge",
    operation_id = "getContactChallenge",
    tag = "contact",
    responses(
        (status = 200, description = "A token and a challenge, never cached", body = ContactChallenge),
    )
)]
async fn new_challenge(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
) -> Result<(
    [(header::HeaderName, &'static str); 1],
    ApiJson<ContactChallenge>,
)> {
    let keys = crate::contact::spam_keys(&state.db, &state.contact).await?;
    let now = crate::clock::now_ms();
    let max_number =
        state
            .contact
            .challenge_load
            .max_number(client, now, state.settings.spam.challenge_max);
    Ok((
        [(header::CACHE_CONTROL, "no-store")],
        ApiJson(ContactChallenge {
            token: spam::issue_token(&keys.form, now),
            challenge: spam::issue_challenge(&keys.challenge, now, max_number),
        }),
    ))
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
    operation_id = "sendContactMessage",
    tag = "contact",
    request_body = ContactRequest,
    responses(
        (status = 201, description = "Stored", body = ContactCreated),
        (status = 429, description = "Too many messages; see Retry-After", body = ErrorBody),
        CrossSite, JsonBody, InvalidFields,
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
    let now = crate::clock::now();
    if let Some(wait) = state
        .db
        .take_submission_slot(
            &client_key,
            &crate::rate_limit::submission_limits(
                state.settings.limits.contact_per_minute,
                state.settings.limits.contact_per_hour,
            ),
            now.timestamp_millis(),
        )
        .await?
    {
        let secs = wait.as_secs() + u64::from(wait.subsec_nanos() > 0);
        return Err(ApiError::TooManyRequests {
            retry_after_secs: secs.max(1),
            message: format!(
                "Too many messages from your connection. Please wait {} and try again.",
                crate::error::human_wait(secs.max(1))
            ),
        });
    }

    let verdict = judge(&state, &request, &form, now.timestamp_millis()).await?;
    let user_agent: Option<String> = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .map(|ua| ua.chars().take(MAX_USER_AGENT_CHARS).collect());
    let created_at = now.timestamp_millis();
    // The link is kept only for a visit that may be counted; a message is never refused for it.
    let day = state.insights.today().to_string();
    let link = request
        .link
        .as_deref()
        .filter(|slug| crate::links::slug::is_well_formed(slug))
        .filter(|_| state.insights.may_count_links(&headers))
        .map(|slug| LinkVisit { slug, day: &day });
    let stored = state
        .db
        .insert_message(&NewMessage {
            form: &form,
            spam_reason: verdict.reason.map(spam::SpamReason::code),
            user_agent: user_agent.as_deref(),
            created_at,
            notify: state.contact.notifications_on,
            channels: &state.contact.channels,
            proofs: UsedProofs {
                token: verdict
                    .token
                    .as_ref()
                    .map(|t| (t.id.as_str(), t.expires_at)),
                challenge: verdict
                    .challenge
                    .as_ref()
                    .map(|c| (c.signature.as_str(), c.expires_at)),
            },
            link,
        })
        .await?;
    let id = stored.id;
    let spam_reason = verdict
        .reason
        .or(stored.replayed)
        .map(spam::SpamReason::code);
    crate::ops::metrics::message_stored(spam_reason.is_some());
    if let Some(reason) = spam_reason {
        tracing::info!(id, reason, "contact message stored as spam");
        if verdict.reason == Some(spam::SpamReason::Ceiling) && state.contact.notifications_on {
            // The first message the ceiling holds in an hour queues the owner's notice.
            state.contact.outbox_wake.notify_one();
        }
    } else if state.contact.notifications_on {
        state.contact.outbox_wake.notify_one();
    }
    let created_at = chrono::DateTime::from_timestamp_millis(created_at).unwrap_or(now);
    Ok((
        StatusCode::CREATED,
        ApiJson(ContactCreated { id, created_at }),
    ))
}

/// What the spam checks found before the message is stored: the first check it fails, if any,
/// and the proofs that passed theirs (used up with the message, where a replay is caught).
struct Verdict {
    reason: Option<spam::SpamReason>,
    token: Option<spam::TokenUse>,
    challenge: Option<spam::Solved>,
}

/// Runs the spam checks in order; the first one failed decides the reason.
async fn judge(
    state: &AppState,
    request: &ContactRequest,
    form: &ContactForm,
    now: i64,
) -> Result<Verdict> {
    let keys = crate::contact::spam_keys(&state.db, &state.contact).await?;
    let min_fill = std::time::Duration::from_millis(state.settings.spam.min_fill_ms);
    let token = spam::check_token(&keys.form, request.token.as_deref(), now, min_fill);
    let challenge = spam::verify_solution(&keys.challenge, request.altcha.as_deref(), now);
    let reason = match (&token, &challenge) {
        _ if spam::honeypot(request.website.as_deref()).is_some() => {
            Some(spam::SpamReason::Honeypot)
        }
        (Err(reason), _) | (Ok(_), Err(reason)) => Some(*reason),
        (Ok(_), Ok(_)) => match spam::content(form.subject.as_str(), form.message.as_str()) {
            Some(reason) => Some(reason),
            None => {
                let hour_ago = now - 60 * 60 * 1000;
                let recent = state.db.count_real_messages_since(hour_ago).await?;
                (recent >= i64::from(state.settings.spam.ceiling_per_hour))
                    .then_some(spam::SpamReason::Ceiling)
            }
        },
    };
    Ok(Verdict {
        reason,
        token: token.ok(),
        challenge: challenge.ok(),
    })
}
