//! `/api/messages/{id}/conversation` and what hangs off it: a message with the owner's replies
//! and the visitor's answers in order, a new reply (sent through the outbox), an answer's
//! attachment as a download; and `/api/mailbox`, how reading the site's mailbox goes and the mail
//! it could not file. Every endpoint needs a session.

use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::{HeaderValue, CONTENT_DISPOSITION, CONTENT_SECURITY_POLICY, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::delivery::Delivery;
use super::inbox::Message;
use super::responses::{CrossSite, IdNotWhole, NoSession, NoSuchMessage};
use crate::auth::Owner;
use crate::clock::now_ms;
use crate::contact::conversation::{Refusal, MAX_REPLY_CHARS};
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::state::AppState;
use crate::store::replies::{AttachmentRow, ReplyRow, DIRECTION_REPLY};

/// A reply's body: 10,000 characters of any script fit.
const MAX_REPLY_BYTES: usize = 64 * 1024;
/// The most unmatched mails `/api/mailbox` lists.
const MAX_UNMATCHED: i64 = 50;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(conversation))
        .routes(routes!(reply))
        .routes(routes!(attachment))
        .routes(routes!(mailbox))
        .layer(DefaultBodyLimit::max(MAX_REPLY_BYTES))
        .layer(crate::http::layers::no_store::no_store())
}

/// A part of an answer as the inbox shows it: what the visitor wrote (`text`), and what it
/// folds away (`quote`, the earlier mail quoted; `signature`). Joined, the parts are the whole.
#[derive(Debug, Serialize, ToSchema)]
pub struct Part {
    /// `text`, `quote` or `signature`.
    kind: &'static str,
    text: String,
}

/// An answer's attachment, listed.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Attachment {
    id: i64,
    /// The file's name as the mail gave it, made safe.
    name: String,
    /// Its type as the mail declared it (it is always served as a download).
    content_type: String,
    /// Bytes.
    size: i64,
    /// Whether its bytes were kept: not over the size limit (10 MB).
    stored: bool,
}

impl From<AttachmentRow> for Attachment {
    fn from(row: AttachmentRow) -> Self {
        Self {
            id: row.id,
            name: row.name,
            content_type: row.content_type,
            size: row.size,
            stored: row.stored,
        }
    }
}

/// A reply of the owner's or an answer of the visitor's.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Item {
    id: i64,
    /// `reply` (the owner's, sent to the visitor) or `answer` (the visitor's, read from the
    /// site's mailbox).
    kind: String,
    /// When it was written (a reply) or filed (an answer), Unix milliseconds.
    created_at: i64,
    /// A reply: the owner's words. An answer: its whole text (its text part, or its HTML made
    /// text; never HTML).
    text: String,
    /// The text in parts, the quoted mail and the signature marked to be folded.
    parts: Vec<Part>,
    /// An answer's sender.
    from: Option<String>,
    /// An answer's subject.
    subject: Option<String>,
    /// An answer that had only HTML, shown as text.
    from_html: bool,
    /// An answer too long to keep whole: its text was cut.
    cut: bool,
    attachments: Vec<Attachment>,
    /// A reply's delivery to the visitor.
    delivery: Option<Delivery>,
}

/// A message and its conversation.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conversation {
    message: Message,
    /// Replies and answers, oldest first.
    items: Vec<Item>,
    /// Whether a reply can be sent now; else `replyBlocked` says why: `mail_off` (the server
    /// sends no e-mail) or `spam` (the message is in Spam).
    can_reply: bool,
    reply_blocked: Option<&'static str>,
    /// Where the visitor's answers go (the replies' Reply-To).
    reply_address: Option<String>,
    /// Whether the server reads that mailbox, so answers come back into the conversation.
    reads_answers: bool,
}

/// The `{id}` of `/messages/{id}/...`.
#[derive(Debug, Deserialize)]
pub struct MessageId {
    id: i64,
}

/// A message with its replies and answers, oldest first; reading it marks it read.
#[utoipa::path(get, path = "/messages/{id}/conversation", tag = "inbox",
    operation_id = "readConversation", security(("session" = [])),
    params(("id" = i64, Path, description = "The message's id")),
    responses(
        (status = 200, body = Conversation),
        NoSession, IdNotWhole, NoSuchMessage,
    ))]
async fn conversation(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(MessageId { id }): ApiPath<MessageId>,
) -> Result<ApiJson<Conversation>, ApiError> {
    let change = crate::store::MessageChange {
        is_read: Some(true),
        is_spam: None,
        deleted_at: None,
    };
    if !state.db.update_message(id, change).await? {
        return Err(ApiError::NotFound);
    }
    let message = state.db.find_message(id).await?.ok_or(ApiError::NotFound)?;
    let rows = state.db.conversation(id).await?;
    let items = items(&state, rows).await?;
    let mailer = state.contact.mailer.get();
    let reply_blocked = match (mailer, message.is_spam) {
        (None, _) => Some("mail_off"),
        (Some(_), true) => Some("spam"),
        (Some(_), false) => None,
    };
    Ok(ApiJson(Conversation {
        message: message.into(),
        items,
        can_reply: reply_blocked.is_none(),
        reply_blocked,
        reply_address: mailer.map(|mailer| mailer.reply_to().email.to_string()),
        reads_answers: state.settings.mail.imap_url.is_some(),
    }))
}

/// The conversation's rows as the inbox shows them: each answer with its attachments and its
/// text in parts, each reply with its delivery.
async fn items(state: &AppState, rows: Vec<ReplyRow>) -> Result<Vec<Item>, ApiError> {
    let ids: Vec<i64> = rows.iter().map(|row| row.id).collect();
    let mut attachments = state.db.reply_attachments(&ids).await?;
    let mut deliveries = state.db.deliveries_for_replies(&ids).await?;
    let now = now_ms();
    Ok(rows
        .into_iter()
        .map(|row| {
            let reply = row.direction == DIRECTION_REPLY;
            let parts = if reply {
                vec![Part {
                    kind: "text",
                    text: row.body.clone(),
                }]
            } else {
                crate::mail::fold(&row.body)
                    .into_iter()
                    .map(|part| Part {
                        kind: part.kind.as_str(),
                        text: part.text,
                    })
                    .collect()
            };
            let own: Vec<Attachment> = take_where(&mut attachments, |a| a.reply_id == row.id)
                .into_iter()
                .map(Attachment::from)
                .collect();
            let delivery = take_where(&mut deliveries, |d| d.reply_id == Some(row.id))
                .into_iter()
                .next()
                .map(|d| Delivery::from_row(d, now));
            Item {
                id: row.id,
                kind: row.direction,
                created_at: row.created_at,
                text: row.body,
                parts,
                from: row.from_address,
                subject: (!reply).then_some(row.subject),
                from_html: row.from_html,
                cut: row.cut,
                attachments: own,
                delivery,
            }
        })
        .collect())
}

/// Moves the items that match out of `items`, in order.
fn take_where<T>(items: &mut Vec<T>, matches: impl Fn(&T) -> bool) -> Vec<T> {
    let (taken, kept) = std::mem::take(items)
        .into_iter()
        .partition(|item| matches(item));
    *items = kept;
    taken
}

/// The owner's reply: plain text.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NewReply {
    /// 1 to 10,000 characters once trimmed; sent as typed, the visitor's latest words quoted below.
    body: String,
}

/// Sends a reply to the visitor of a message, by e-mail through the outbox (retried until it
/// goes); answers with the reply as the conversation shows it.
#[utoipa::path(post, path = "/messages/{id}/replies", tag = "inbox", request_body = NewReply,
    operation_id = "replyToMessage", security(("session" = [])),
    params(("id" = i64, Path, description = "The message's id")),
    responses(
        (status = 201, body = Item),
        (status = 400, description = "Malformed JSON", body = ErrorBody),
        (status = 409, description = "The server sends no e-mail, or the message is in Spam", body = ErrorBody),
        (status = 413, description = "Body over 64 KB", body = ErrorBody),
        (status = 415, description = "Not JSON", body = ErrorBody),
        (status = 422, description = "The id or the body is not valid, each named", body = ErrorBody),
        NoSession, CrossSite, NoSuchMessage,
    ))]
async fn reply(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(MessageId { id }): ApiPath<MessageId>,
    ApiJson(new): ApiJson<NewReply>,
) -> Result<(StatusCode, ApiJson<Item>), ApiError> {
    let body = new.body.trim_end();
    if body.trim().is_empty() {
        return Err(ApiError::field("body", "is required"));
    }
    if body.chars().count() > MAX_REPLY_CHARS {
        return Err(ApiError::field(
            "body",
            format!("must be at most {MAX_REPLY_CHARS} characters long"),
        ));
    }
    let message = state.db.find_message(id).await?.ok_or(ApiError::NotFound)?;
    let reply_id =
        match state
            .contact
            .reply(&state.db, &message, body, now_ms())
            .await?
        {
            Ok(reply_id) => reply_id,
            Err(Refusal::MailOff) => return Err(ApiError::Conflict(
                "Replies are sent by e-mail: start the server with --smtp-url and --notify-email."
                    .to_owned(),
            )),
            Err(Refusal::Spam) => {
                return Err(ApiError::Conflict(
                    "This message is in Spam: move it to the inbox before replying.".to_owned(),
                ))
            }
        };
    let rows = state.db.conversation(id).await?;
    let item = items(
        &state,
        rows.into_iter().filter(|row| row.id == reply_id).collect(),
    )
    .await?
    .pop()
    .ok_or(ApiError::NotFound)?;
    Ok((StatusCode::CREATED, ApiJson(item)))
}

/// The `{id}` and `{attachment}` of an attachment's address.
#[derive(Debug, Deserialize)]
pub struct AttachmentPath {
    id: i64,
    attachment: i64,
}

/// An answer's attachment, only ever as a download: `Content-Disposition: attachment`, as
/// `application/octet-stream`, under a sandboxing policy, so no browser shows or runs it here.
#[utoipa::path(get, path = "/messages/{id}/attachments/{attachment}", tag = "inbox",
    operation_id = "downloadAttachment", security(("session" = [])),
    params(
        ("id" = i64, Path, description = "The message's id"),
        ("attachment" = i64, Path, description = "The attachment's id"),
    ),
    responses(
        (status = 200, description = "The file, as a download", content_type = "application/octet-stream", body = Vec<u8>),
        (status = 404, description = "No such attachment in this conversation, or its bytes were not kept (over the size limit)", body = ErrorBody),
        NoSession, IdNotWhole,
    ))]
async fn attachment(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(AttachmentPath { id, attachment }): ApiPath<AttachmentPath>,
) -> Result<Response, ApiError> {
    let Some((name, _, Some(bytes))) = state.db.attachment(id, attachment).await? else {
        return Err(ApiError::NotFound);
    };
    Ok((
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("application/octet-stream"),
            ),
            (CONTENT_DISPOSITION, disposition(&name)),
            (
                CONTENT_SECURITY_POLICY,
                HeaderValue::from_static("sandbox; default-src 'none'"),
            ),
        ],
        bytes,
    )
        .into_response())
}

/// `attachment` with the name: plain ASCII in `filename` (others made `_`), and whole in
/// `filename*` (RFC 6266, percent-encoded UTF-8).
fn disposition(name: &str) -> HeaderValue {
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_graphic() && c != '"' && c != '\\' || c == ' ' {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded =
        percent_encoding::utf8_percent_encode(name, percent_encoding::NON_ALPHANUMERIC).to_string();
    HeaderValue::from_str(&format!(
        "attachment; filename=\"{ascii}\"; filename*=UTF-8''{encoded}"
    ))
    .unwrap_or_else(|_| HeaderValue::from_static("attachment"))
}

/// A mail of the site's mailbox that belongs to no conversation, left there untouched.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Unmatched {
    id: i64,
    from: Option<String>,
    subject: String,
    /// Its Date header, Unix milliseconds.
    date: Option<i64>,
    /// `no-reference` (it answers no reply of the site's) or `other-sender` (it does, but from
    /// another address than the conversation's).
    reason: String,
    /// When the server read it, Unix milliseconds.
    seen_at: i64,
}

/// How reading the site's mailbox goes.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MailboxStatus {
    /// Whether the server reads a mailbox (`--imap-url`).
    configured: bool,
    /// Where visitors' answers go (the replies' Reply-To), when the server sends e-mail.
    reply_address: Option<String>,
    /// When it was last read well, Unix milliseconds.
    read_at: Option<i64>,
    /// Why the last read failed, in words, while it keeps failing.
    last_error: Option<String>,
    /// The mail it could not file, newest first (at most 50).
    unmatched: Vec<Unmatched>,
}

/// Whether the site's mailbox is read, how the last read went, and the mail it could not file.
#[utoipa::path(get, path = "/mailbox", tag = "inbox",
    operation_id = "readMailbox", security(("session" = [])),
    responses((status = 200, body = MailboxStatus), NoSession))]
async fn mailbox(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<ApiJson<MailboxStatus>, ApiError> {
    let states = state.db.mailbox_states().await?;
    let unmatched = state.db.unmatched_mail(MAX_UNMATCHED).await?;
    Ok(ApiJson(MailboxStatus {
        configured: state.settings.mail.imap_url.is_some(),
        reply_address: state
            .contact
            .mailer
            .get()
            .map(|mailer| mailer.reply_to().email.to_string()),
        read_at: states.iter().filter_map(|s| s.read_at).max(),
        last_error: states.iter().find_map(|s| s.last_error.clone()),
        unmatched: unmatched
            .into_iter()
            .map(|row| Unmatched {
                id: row.id,
                from: row.from_address,
                subject: row.subject,
                date: row.mail_date,
                reason: row.reason,
                seen_at: row.created_at,
            })
            .collect(),
    }))
}
