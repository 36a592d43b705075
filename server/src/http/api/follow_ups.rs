//! Follow-ups: `/api/follow-ups` lists the links due for one, each with a follow-up drafted in
//! its language; `/api/links/{id}/follow-up` sends the owner's (through the outbox, to the
//! link's recipient), and `.../dismiss` and `.../snooze` put it away for good or for some days.
//! Every endpoint needs a session.

use std::collections::BTreeMap;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{header, HeaderMap, StatusCode};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::delivery::Delivery;
use super::responses::{CrossSite, InvalidFields, JsonBody, NoSession, NoSuchLink};
use crate::auth::Owner;
use crate::clock::now_ms;
use crate::contact::conversation::Refusal;
use crate::domain::FieldErrors;
use crate::error::{ApiError, ErrorBody, Result};
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::state::AppState;
use crate::links::follow_up::{self, MAX_SNOOZE_DAYS};
use crate::store::follow_ups::{FollowUpRow, DAY_MS, STATE_SENT};

/// A follow-up's body: 10,000 characters of any script and a subject fit.
const MAX_FOLLOW_UP_BYTES: usize = 64 * 1024;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(due))
        .routes(routes!(send))
        .routes(routes!(dismiss))
        .routes(routes!(snooze))
        .layer(DefaultBodyLimit::max(MAX_FOLLOW_UP_BYTES))
        .layer(crate::http::layers::no_store::no_store())
}

/// A follow-up's words, as drafted or as sent.
#[derive(Debug, Serialize, ToSchema)]
pub struct FollowUpDraft {
    subject: String,
    body: String,
}

/// A link due for a follow-up.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DueFollowUp {
    link_id: i64,
    company: String,
    role: String,
    /// The link's address: `/a/<slug>`.
    path: String,
    /// The link's language, which the draft is written in.
    language: String,
    recipient_email: String,
    first_opened_at: i64,
    /// When it came up: the first open and the link's days (or the end of a snooze), Unix ms.
    due_at: i64,
    /// A follow-up in the link's language, signed with the page's name, to edit and send.
    draft: FollowUpDraft,
}

/// The links due for a follow-up, and whether one can be sent.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowUpList {
    /// The longest waiting first.
    follow_ups: Vec<DueFollowUp>,
    /// Whether the server sends e-mail (`--smtp-url`), so a follow-up can be sent.
    can_send: bool,
    /// Where the recipient's answers go (the follow-ups' Reply-To).
    reply_address: Option<String>,
}

/// What the owner did with a link's follow-up.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FollowUpState {
    /// `sent`, `dismissed` or `snoozed`.
    state: String,
    /// When, Unix milliseconds.
    at: i64,
    /// A snoozed follow-up comes up again then (Unix milliseconds).
    snoozed_until: Option<i64>,
    /// A sent follow-up's address, subject and text.
    sent_to: Option<String>,
    subject: Option<String>,
    body: Option<String>,
    /// A sent follow-up's delivery.
    delivery: Option<Delivery>,
}

/// The follow-ups as the owner left them, by link (of every link, or of `only` that one), each
/// sent one with its delivery.
pub(super) async fn states(
    state: &AppState,
    only: Option<i64>,
) -> Result<BTreeMap<i64, FollowUpState>> {
    let mut rows = state.db.follow_ups().await?;
    rows.retain(|row| only.is_none_or(|link_id| row.link_id == link_id));
    let sent: Vec<i64> = rows
        .iter()
        .filter(|row| row.state == STATE_SENT)
        .map(|row| row.id)
        .collect();
    let mut deliveries: BTreeMap<i64, Delivery> = BTreeMap::new();
    let now = now_ms();
    for delivery in state.db.deliveries_for_follow_ups(&sent).await? {
        if let Some(id) = delivery.follow_up_id {
            deliveries
                .entry(id)
                .or_insert_with(|| Delivery::from_row(delivery, now));
        }
    }
    Ok(rows
        .into_iter()
        .map(|row| {
            let delivery = deliveries.remove(&row.id);
            (row.link_id, FollowUpState::new(row, delivery))
        })
        .collect())
}

impl FollowUpState {
    fn new(row: FollowUpRow, delivery: Option<Delivery>) -> Self {
        Self {
            state: row.state,
            at: row.updated_at,
            snoozed_until: row.snoozed_until,
            sent_to: row.recipient,
            subject: row.subject,
            body: row.body,
            delivery,
        }
    }
}

/// The site's origin as the owner reaches it: the public URL's, else this request's host.
fn origin(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(url) = &state.settings.public_url {
        return url.origin().ascii_serialization();
    }
    let scheme = if state.settings.tls_cert.is_some() {
        "https"
    } else {
        "http"
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("localhost");
    format!("{scheme}://{host}")
}

/// The links due for a follow-up now, the longest waiting first, each with a draft.
#[utoipa::path(get, path = "/follow-ups", tag = "links",
    operation_id = "listFollowUps", security(("session" = [])),
    responses((status = 200, body = FollowUpList), NoSession))]
async fn due(
    State(state): State<AppState>,
    _owner: Owner,
    headers: HeaderMap,
) -> Result<ApiJson<FollowUpList>> {
    let now = state.links.now_ms();
    let rows = state.db.due_follow_ups(now).await?;
    let snoozed: BTreeMap<i64, i64> = state
        .db
        .follow_ups()
        .await?
        .into_iter()
        .filter_map(|row| Some((row.link_id, row.snoozed_until?)))
        .collect();
    let name = state.content.current().document.profile.name.clone();
    let origin = origin(&state, &headers);
    let mailer = state.contact.mailer.get();
    Ok(ApiJson(FollowUpList {
        follow_ups: rows
            .into_iter()
            .map(|link| {
                let opened = link.first_opened_at.unwrap_or(link.created_at);
                let due_at = snoozed
                    .get(&link.id)
                    .copied()
                    .unwrap_or(opened.saturating_add(link.follow_up_days * DAY_MS));
                let draft = follow_up::draft(&link, &name, &origin);
                DueFollowUp {
                    link_id: link.id,
                    company: link.company,
                    role: link.role,
                    path: format!("/a/{}", link.slug),
                    language: link.language,
                    recipient_email: link.recipient_email.unwrap_or_default(),
                    first_opened_at: opened,
                    due_at,
                    draft: FollowUpDraft {
                        subject: draft.subject,
                        body: draft.body,
                    },
                }
            })
            .collect(),
        can_send: mailer.is_some(),
        reply_address: mailer.map(|mailer| mailer.reply_to().email.to_string()),
    }))
}

/// The `{id}` of `/links/{id}/follow-up`.
#[derive(Debug, Deserialize)]
pub struct LinkId {
    id: i64,
}

/// The follow-up as the owner sends it: plain text.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SendFollowUp {
    /// 1 to 200 characters on one line, trimmed.
    subject: String,
    /// 1 to 10,000 characters once trimmed, sent as typed.
    body: String,
}

/// The link's follow-up state after a change, read back.
async fn state_of(state: &AppState, link_id: i64) -> Result<FollowUpState> {
    states(state, Some(link_id))
        .await?
        .remove(&link_id)
        .ok_or(ApiError::NotFound)
}

/// Sends a follow-up to the link's recipient, by e-mail through the outbox (retried until it
/// goes): once; it never comes up again.
#[utoipa::path(post, path = "/links/{id}/follow-up", tag = "links", request_body = SendFollowUp,
    operation_id = "sendFollowUp", security(("session" = [])),
    params(("id" = i64, Path, description = "The link's id")),
    responses(
        (status = 201, body = FollowUpState),
        (status = 409, description = "The link has no recipient's address, the server sends no e-mail, or its follow-up was sent or dismissed already", body = ErrorBody),
        (status = 413, description = "Body over 64 KB", body = ErrorBody),
        NoSession, CrossSite, JsonBody, InvalidFields, NoSuchLink,
    ))]
async fn send(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(LinkId { id }): ApiPath<LinkId>,
    ApiJson(new): ApiJson<SendFollowUp>,
) -> Result<(StatusCode, ApiJson<FollowUpState>)> {
    let draft = follow_up::checked(&new.subject, &new.body).map_err(|problems| {
        let errors: FieldErrors = problems
            .into_iter()
            .map(|(field, problem)| (field.to_owned(), problem))
            .collect();
        ApiError::Validation(errors)
    })?;
    let link = state.db.find_link(id).await?.ok_or(ApiError::NotFound)?;
    let Some(recipient) = link.recipient_email else {
        return Err(ApiError::Conflict(
            "This link has no recipient's address: add it to the link first.".to_owned(),
        ));
    };
    let now = state.links.now_ms();
    match state
        .contact
        .follow_up(
            &state.db,
            id,
            &recipient,
            (&draft.subject, &draft.body),
            now,
        )
        .await?
    {
        Ok(Some(_)) => Ok((StatusCode::CREATED, ApiJson(state_of(&state, id).await?))),
        Ok(None) => Err(done_already()),
        Err(Refusal::MailOff | Refusal::Spam) => Err(ApiError::Conflict(
            "Follow-ups are sent by e-mail: start the server with --smtp-url and --notify-email."
                .to_owned(),
        )),
    }
}

fn done_already() -> ApiError {
    ApiError::Conflict("This link's follow-up was sent or dismissed already.".to_owned())
}

/// Puts the link's follow-up away for good.
#[utoipa::path(post, path = "/links/{id}/follow-up/dismiss", tag = "links",
    operation_id = "dismissFollowUp", security(("session" = [])),
    params(("id" = i64, Path, description = "The link's id")),
    responses(
        (status = 200, body = FollowUpState),
        (status = 409, description = "Its follow-up was sent or dismissed already", body = ErrorBody),
        (status = 422, description = "The id is not valid", body = ErrorBody),
        NoSession, CrossSite, NoSuchLink,
    ))]
async fn dismiss(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(LinkId { id }): ApiPath<LinkId>,
) -> Result<ApiJson<FollowUpState>> {
    set(&state, id, None).await
}

/// How long to snooze a follow-up.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Snooze {
    /// Whole days, 1 to 30.
    #[schema(minimum = 1, maximum = 30, example = 3)]
    days: i64,
}

/// Puts the link's follow-up away for some days, after which it comes up again.
#[utoipa::path(post, path = "/links/{id}/follow-up/snooze", tag = "links", request_body = Snooze,
    operation_id = "snoozeFollowUp", security(("session" = [])),
    params(("id" = i64, Path, description = "The link's id")),
    responses(
        (status = 200, body = FollowUpState),
        (status = 409, description = "Its follow-up was sent or dismissed already", body = ErrorBody),
        NoSession, CrossSite, JsonBody, InvalidFields, NoSuchLink,
    ))]
async fn snooze(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(LinkId { id }): ApiPath<LinkId>,
    ApiJson(snooze): ApiJson<Snooze>,
) -> Result<ApiJson<FollowUpState>> {
    if !(1..=MAX_SNOOZE_DAYS).contains(&snooze.days) {
        return Err(ApiError::field(
            "days",
            format!("must be a whole number of days from 1 to {MAX_SNOOZE_DAYS}"),
        ));
    }
    let until = state.links.now_ms().saturating_add(snooze.days * DAY_MS);
    set(&state, id, Some(until)).await
}

/// Dismisses (`until` `None`) or snoozes the link's follow-up.
async fn set(state: &AppState, id: i64, until: Option<i64>) -> Result<ApiJson<FollowUpState>> {
    if state.db.find_link(id).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    if !state
        .db
        .set_follow_up(id, until, state.links.now_ms())
        .await?
    {
        return Err(done_already());
    }
    Ok(ApiJson(state_of(state, id).await?))
}
