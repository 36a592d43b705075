//! `/api/content/draft/import`: moving in. A JSON Resume or the ZIP of a LinkedIn data export
//! fills a new draft of the page (see [`crate::content::resume::import`]), saved with `If-Match`
//! as the editor saves it, never published; the answer lists what could not be placed.

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::content::read_draft;
use super::entries;
use super::media::FileBytes;
use super::responses::{CrossSite, NoSession};
use crate::auth::Owner;
use crate::content::resume::import::{self, ImportError, Imported, MAX_FILE_BYTES};
use crate::content::ContentDocument;
use crate::error::{ApiError, ErrorBody, ErrorDetail};
use crate::http::state::AppState;
use crate::store::content::EntryKey;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(import_resume))
        .layer(DefaultBodyLimit::max(MAX_FILE_BYTES))
        .layer(crate::http::layers::no_store::no_store())
}

/// A JSON Resume (schema 1.0.0): an object with `basics`, `work`, `education`, `awards`,
/// `skills`, `projects` and the like.
#[derive(ToSchema)]
#[schema(value_type = Object)]
pub struct JsonResumeFile(#[allow(dead_code)] serde_json::Value);

/// The draft the file filled, and what of the file it does not show.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportedDraft {
    /// The draft's new revision (also its ETag), for the next save's `If-Match`.
    revision: i64,
    document: ContentDocument,
    /// What could not be placed, each a short sentence naming it as the file does and why
    /// (`volunteer[0] (Red Cross): the page has no volunteering`).
    unplaced: Vec<String>,
}

/// What the body is, by its Content-Type.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Sent {
    Json,
    Zip,
}

/// The body's kind; `None` for any other Content-Type.
fn sent(headers: &HeaderMap) -> Option<Sent> {
    let mime = headers
        .get(CONTENT_TYPE)?
        .to_str()
        .ok()?
        .split(';')
        .next()?
        .trim()
        .to_ascii_lowercase();
    match mime.as_str() {
        "application/json" => Some(Sent::Json),
        // What browsers on Windows call a .zip file.
        "application/zip" | "application/x-zip-compressed" => Some(Sent::Zip),
        _ => None,
    }
}

/// The 415 of a body that is neither: the error contract's shape, with what to send.
fn unsupported_type() -> Response {
    let body = ErrorBody {
        error: ErrorDetail {
            code: "unsupported_media_type".into(),
            message: "file: send a JSON Resume as application/json, or the ZIP of a LinkedIn \
                      data export as application/zip"
                .into(),
            fields: None,
        },
    };
    (StatusCode::UNSUPPORTED_MEDIA_TYPE, axum::Json(body)).into_response()
}

/// The body's bytes: 413 past [`MAX_FILE_BYTES`].
fn file_bytes(body: Result<Bytes, BytesRejection>) -> Result<Bytes, ApiError> {
    body.map_err(crate::http::extract::json::body_rejected)
}

/// `file` placed in `base`, off the async threads (a ZIP is inflated); a file refused is a 422
/// naming `file`.
async fn imported(base: ContentDocument, file: Bytes, sent: Sent) -> Result<Imported, ApiError> {
    if sent == Sent::Zip && !import::is_zip(&file) {
        return Err(ApiError::field(
            "file",
            "is sent as application/zip but is not a ZIP (its bytes do not start with PK)",
        ));
    }
    let result = tokio::task::spawn_blocking(move || import::import(&base, &file))
        .await
        .map_err(anyhow::Error::from)?;
    result.map_err(|error| {
        if let ImportError::Invalid(fields) = &error {
            tracing::error!(?fields, "an imported resume made an invalid draft");
        }
        ApiError::field("file", error.to_string())
    })
}

/// Fills a new draft from a resume file: a JSON Resume, or the ZIP of a LinkedIn data export
/// (read in memory, its entries' count and sizes bounded). The draft must still be at the
/// revision in `If-Match`; it is saved, never published, and the answer lists what could not
/// be placed. A file refused leaves the draft as it was.
#[utoipa::path(post, path = "/content/draft/import", tag = "content",
    operation_id = "importResumeIntoDraft", security(("session" = [])),
    params(("If-Match" = String, Header, description = "The revision the draft is at (its ETag)")),
    request_body(description = "The file, at most 10 MB: a JSON Resume, or the ZIP of a LinkedIn data export",
        content((JsonResumeFile = "application/json"), (FileBytes = "application/zip"))),
    responses(
        (status = 200, description = "The imported draft (saved, not published) and what could not be placed", body = ImportedDraft,
            headers(("ETag" = String, description = "The new revision, quoted"))),
        (status = 400, description = "The body could not be read", body = ErrorBody),
        (status = 409, description = "The draft was saved since that revision; nothing was written", body = ErrorBody),
        (status = 412, description = "If-Match is a weak tag, which strong comparison never matches", body = ErrorBody),
        (status = 413, description = "Body over 10 MB", body = ErrorBody),
        (status = 415, description = "Neither application/json nor application/zip", body = ErrorBody),
        (status = 422, description = "`file` is malformed, no resume, a ZIP bomb or a ZIP of too many entries, or If-Match is no revision; the draft is unchanged", body = ErrorBody),
        (status = 428, description = "If-Match is missing", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn import_resume(
    State(state): State<AppState>,
    _owner: Owner,
    headers: HeaderMap,
    body: Result<Bytes, BytesRejection>,
) -> Result<Response, ApiError> {
    let Some(sent) = sent(&headers) else {
        return Ok(unsupported_type());
    };
    let file = file_bytes(body)?;
    let base = read_draft(&state).await?.document;
    // The file is read before If-Match, as a save reads its document first.
    let Imported { document, unplaced } = imported(base, file, sent).await?;
    let expected = entries::expected_revision(&headers)?;
    let revision = entries::save_draft(&state, EntryKey::PAGE, &document, expected).await?;
    Ok(entries::with_revision_etag(
        revision,
        ImportedDraft {
            revision,
            document,
            unplaced,
        },
    ))
}
