//! `/api/messages`: the owner's inbox of contact messages. Every endpoint needs a session.

use axum::extract::State;
use axum::http::header::{HeaderValue, CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{CrossSite, IdNotWhole, InvalidQuery, JsonBody, NoSession, NoSuchMessage};
use crate::auth::Owner;
use crate::clock::now_ms;
use crate::contact::export::{export_all, Format};
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::extract::query::{ApiQuery, QueryParams};
use crate::http::state::AppState;
use crate::store::{Cursor, Folder, MessageChange, MessageRow};

pub const DEFAULT_PAGE: i64 = 50;
pub const MAX_PAGE: i64 = 100;
pub const MAX_SEARCH_CHARS: usize = 200;
/// How much of a message the list shows.
const PREVIEW_CHARS: usize = 160;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(export))
        .routes(routes!(read, update, delete))
        .layer(crate::http::layers::no_store::no_store())
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// `inbox` (default), `spam` or `trash`.
    folder: Option<String>,
    /// Text to find in the name, e-mail, subject or message.
    q: Option<String>,
    /// `nextCursor` of the previous page.
    cursor: Option<String>,
    /// Messages per page, 1 to 100 (default 50).
    #[param(value_type = Option<i64>, minimum = 1, maximum = 100)]
    limit: Option<String>,
}

impl QueryParams for ListQuery {}

/// The application link a message was sent through.
#[derive(Debug, Serialize, ToSchema)]
pub struct Via {
    id: i64,
    company: String,
    role: String,
}

fn via(row: &MessageRow) -> Option<Via> {
    Some(Via {
        id: row.link_id?,
        company: row.link_company.clone()?,
        role: row.link_role.clone()?,
    })
}

/// A message as the list shows it: the text cut to a preview.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessageSummary {
    id: i64,
    name: String,
    email: String,
    subject: String,
    preview: String,
    /// Unix milliseconds, UTC.
    created_at: i64,
    is_read: bool,
    is_spam: bool,
    /// When it was moved to the trash (Unix milliseconds), if it was.
    deleted_at: Option<i64>,
    /// The application link it was sent through, while the link exists; `null` otherwise.
    via: Option<Via>,
}

/// A message in full.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    id: i64,
    name: String,
    email: String,
    subject: String,
    message: String,
    created_at: i64,
    is_read: bool,
    is_spam: bool,
    spam_reason: Option<String>,
    deleted_at: Option<i64>,
    /// The application link it was sent through, while the link exists; `null` otherwise.
    via: Option<Via>,
}

impl From<MessageRow> for Message {
    fn from(row: MessageRow) -> Self {
        let via = via(&row);
        Self {
            via,
            id: row.id,
            name: row.name,
            email: row.email,
            subject: row.subject,
            message: row.message,
            created_at: row.created_at,
            is_read: row.is_read,
            is_spam: row.is_spam,
            spam_reason: row.spam_reason,
            deleted_at: row.deleted_at,
        }
    }
}

impl From<MessageRow> for MessageSummary {
    fn from(row: MessageRow) -> Self {
        let mut preview: String = row.message.chars().take(PREVIEW_CHARS).collect();
        if preview.len() < row.message.len() {
            preview.push('…');
        }
        let via = via(&row);
        Self {
            via,
            id: row.id,
            name: row.name,
            email: row.email,
            subject: row.subject,
            preview,
            created_at: row.created_at,
            is_read: row.is_read,
            is_spam: row.is_spam,
            deleted_at: row.deleted_at,
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MessagePage {
    messages: Vec<MessageSummary>,
    /// Pass as `cursor` for the next page; absent on the last page.
    next_cursor: Option<String>,
    /// Unread messages in the inbox folder (not spam, not in the trash).
    unread: i64,
}

fn parse_folder(folder: Option<&str>) -> Result<Folder, ApiError> {
    match folder.unwrap_or("inbox") {
        "inbox" => Ok(Folder::Inbox),
        "spam" => Ok(Folder::Spam),
        "trash" => Ok(Folder::Trash),
        _ => Err(ApiError::field("folder", "must be inbox, spam or trash")),
    }
}

fn parse_cursor(cursor: &str) -> Result<Cursor, ApiError> {
    let invalid = || ApiError::field("cursor", "is not a cursor this server gave");
    let (created_at, id) = cursor.split_once('.').ok_or_else(invalid)?;
    Ok(Cursor {
        created_at: created_at.parse().map_err(|_| invalid())?,
        id: id.parse().map_err(|_| invalid())?,
    })
}

/// One page of a folder, newest first, with the inbox's unread count.
#[utoipa::path(get, path = "/messages", tag = "inbox", params(ListQuery),
    operation_id = "listMessages", security(("session" = [])),
    responses(
        (status = 200, body = MessagePage),
        NoSession, InvalidQuery,
    ))]
async fn list(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> Result<ApiJson<MessagePage>, ApiError> {
    let folder = parse_folder(query.folder.as_deref())?;
    let search = query.q.as_deref().map(str::trim).filter(|q| !q.is_empty());
    if search.is_some_and(|q| q.chars().count() > MAX_SEARCH_CHARS) {
        return Err(ApiError::field(
            "q",
            format!("must be at most {MAX_SEARCH_CHARS} characters long"),
        ));
    }
    let cursor = query.cursor.as_deref().map(parse_cursor).transpose()?;
    let limit = match query.limit.as_deref() {
        None => DEFAULT_PAGE,
        Some(text) => text.parse().unwrap_or(0),
    };
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::field(
            "limit",
            format!("must be between 1 and {MAX_PAGE}"),
        ));
    }

    let mut rows = state
        .db
        .list_messages(folder, search, cursor, limit)
        .await?;
    let next_cursor = if rows.len() as i64 > limit {
        rows.truncate(limit as usize);
        rows.last()
            .map(|last| format!("{}.{}", last.created_at, last.id))
    } else {
        None
    };
    Ok(ApiJson(MessagePage {
        messages: rows.into_iter().map(MessageSummary::from).collect(),
        next_cursor,
        unread: state.db.unread_count().await?,
    }))
}

/// The `{id}` of `/messages/{id}`.
#[derive(Debug, Deserialize)]
pub struct MessageId {
    id: i64,
}

/// One message in full; reading it marks it read.
#[utoipa::path(get, path = "/messages/{id}", tag = "inbox",
    operation_id = "readMessage", security(("session" = [])),
    params(("id" = i64, Path, description = "The message's id")),
    responses(
        (status = 200, body = Message),
        NoSession, IdNotWhole, NoSuchMessage,
    ))]
async fn read(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(MessageId { id }): ApiPath<MessageId>,
) -> Result<ApiJson<Message>, ApiError> {
    change_and_fetch(&state, id, Some(true), None, None).await
}

/// What to change; fields left out stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct MessageUpdate {
    is_read: Option<bool>,
    is_spam: Option<bool>,
    /// `true` moves the message to the trash, `false` brings it back.
    deleted: Option<bool>,
}

/// Marks a message read or unread, spam or not, or moves it to the trash and back.
#[utoipa::path(patch, path = "/messages/{id}", tag = "inbox", request_body = MessageUpdate,
    operation_id = "updateMessage", security(("session" = [])),
    params(("id" = i64, Path, description = "The message's id")),
    responses(
        (status = 200, body = Message),
        (status = 422, description = "The id or a field is not valid, each named", body = ErrorBody),
        NoSession, CrossSite, JsonBody, NoSuchMessage,
    ))]
async fn update(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(MessageId { id }): ApiPath<MessageId>,
    ApiJson(change): ApiJson<MessageUpdate>,
) -> Result<ApiJson<Message>, ApiError> {
    let deleted_at = change.deleted.map(|deleted| deleted.then(now_ms));
    change_and_fetch(&state, id, change.is_read, change.is_spam, deleted_at).await
}

/// Applies a change to one message and answers with the message as it now is (404 if there is none).
async fn change_and_fetch(
    state: &AppState,
    id: i64,
    is_read: Option<bool>,
    is_spam: Option<bool>,
    deleted_at: Option<Option<i64>>,
) -> Result<ApiJson<Message>, ApiError> {
    let change = MessageChange {
        is_read,
        is_spam,
        deleted_at,
    };
    if !state.db.update_message(id, change).await? {
        return Err(ApiError::NotFound);
    }
    let row = state.db.find_message(id).await?.ok_or(ApiError::NotFound)?;
    Ok(ApiJson(row.into()))
}

/// Deletes a message for good (the pages first move it to the trash, from where it can come back).
#[utoipa::path(delete, path = "/messages/{id}", tag = "inbox",
    operation_id = "deleteMessage", security(("session" = [])),
    params(("id" = i64, Path, description = "The message's id")),
    responses(
        (status = 204, description = "Deleted"),
        NoSession, CrossSite, IdNotWhole, NoSuchMessage,
    ))]
async fn delete(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(MessageId { id }): ApiPath<MessageId>,
) -> Result<StatusCode, ApiError> {
    if state.db.delete_message(id).await? {
        tracing::info!(id, "the owner deleted a message");
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound)
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ExportQuery {
    /// `csv` or `json`.
    format: String,
}

impl ExportQuery {
    fn bad_format() -> ApiError {
        ApiError::field("format", "must be csv or json")
    }
}

/// A missing format or a stray parameter both get the one message about the format.
impl QueryParams for ExportQuery {
    fn rejected(_: &axum::extract::rejection::QueryRejection) -> ApiError {
        Self::bad_format()
    }
}

/// Every message as a CSV or JSON download.
#[utoipa::path(get, path = "/messages/export", tag = "inbox", params(ExportQuery),
    operation_id = "exportMessages", security(("session" = [])),
    responses(
        (status = 200, description = "A CSV or JSON attachment", content(
            (String = "text/csv"),
            (Vec<serde_json::Value> = "application/json"),
        )),
        (status = 422, description = "Unknown format", body = ErrorBody),
        NoSession,
    ))]
async fn export(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<ExportQuery>,
) -> Result<Response, ApiError> {
    let format = match query.format.as_str() {
        "csv" => Format::Csv,
        "json" => Format::Json,
        _ => return Err(ExportQuery::bad_format()),
    };
    let (content_type, extension) = match format {
        Format::Csv => ("text/csv; charset=utf-8", "csv"),
        Format::Json => ("application/json", "json"),
    };
    let body = export_all(&state.db, format).await?;
    let date = crate::clock::now().format("%Y-%m-%d");
    let disposition = format!("attachment; filename=\"messages-{date}.{extension}\"");
    Ok((
        [
            (CONTENT_TYPE, HeaderValue::from_static(content_type)),
            (
                CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).expect("an ASCII file name"),
            ),
        ],
        body,
    )
        .into_response())
}
