//! `POST /api/contact`: a visitor's message, stored before it is acknowledged.

use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{CrossSite, InvalidFields, JsonBody};
use crate::contact::send::{Proofs, Sent, Submission};
use crate::contact::spam;
use crate::domain::ContactForm;
use crate::error::{ApiError, ErrorBody, Result};
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::state::AppState;
use crate::store::LinkVisit;

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
    // The link is kept only for a visit that may be counted; a message is never refused for it.
    let day = state.insights.today().to_string();
    let link = request
        .link
        .as_deref()
        .filter(|slug| crate::links::slug::is_well_formed(slug))
        .filter(|_| state.insights.may_count_links(&headers))
        .map(|slug| LinkVisit { slug, day: &day });
    let message = Submission {
        form: &form,
        client_key: &client_key,
        proofs: Proofs {
            token: request.token.as_deref(),
            altcha: request.altcha.as_deref(),
            honeypot: request.website.as_deref(),
        },
        user_agent: headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok()),
        link,
    };
    let now = crate::clock::now();
    match state
        .contact
        .send(&state.db, &state.settings, &message, now)
        .await?
    {
        Sent::Stored { id, created_at } => Ok((
            StatusCode::CREATED,
            ApiJson(ContactCreated { id, created_at }),
        )),
        Sent::TooMany { wait_secs } => Err(too_many_messages(wait_secs)),
    }
}

/// The 429 of a client over its limits, which may send again in `wait_secs` seconds.
fn too_many_messages(wait_secs: u64) -> ApiError {
    ApiError::TooManyRequests {
        retry_after_secs: wait_secs,
        message: format!(
            "Too many messages from your connection. Please wait {} and try again.",
            crate::error::human_wait(wait_secs)
        ),
    }
}
