//! `/api/content/draft/resume`: the resume the draft would make, for the editor's Resume part:
//! what it says (its plain text), how many pages it takes and what does not fit; and its PDF.

use axum::extract::State;
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::HeaderValue;
use axum::response::{IntoResponse, Response};
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::content::{preview_language, read_draft, PreviewQuery};
use super::responses::NoSession;
use crate::auth::Owner;
use crate::content::resume::{self, Draft, Made};
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::query::ApiQuery;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(draft_resume))
        .routes(routes!(draft_resume_pdf))
        .layer(crate::http::layers::no_store::no_store())
}

/// The resume the draft makes in one language.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ResumePreview {
    /// The language it is in: the one asked for, or the default one when the resume's fonts
    /// cannot set that language's texts.
    language: String,
    /// The pages it takes.
    pages: usize,
    /// What did not fit in the pages chosen, as "section: item", in the resume's order.
    left_out: Vec<String>,
    /// The resume as plain text (what `/resume.txt` serves once it is published).
    text: String,
}

/// The resume the draft makes in `language` (its default one when absent).
async fn made(state: &AppState, language: Option<String>) -> Result<Made, ApiError> {
    let draft = read_draft(state).await?;
    let tag = preview_language(&draft.document, language)?;
    let document = &draft.document;
    let made = Draft::of(document, &tag, &resume::choice(document), None)
        .ok_or_else(|| ApiError::field("language", "is not a language of the draft"))?;
    let base = state.pages.base().to_owned();
    let made = tokio::task::spawn_blocking(move || made.make(&base))
        .await
        .map_err(anyhow::Error::from)??;
    Ok(made)
}

/// What the draft's resume says, how many pages it takes and what does not fit.
#[utoipa::path(get, path = "/content/draft/resume", tag = "content",
    operation_id = "previewDraftResume", security(("session" = [])),
    params(PreviewQuery),
    responses(
        (status = 200, description = "The draft's resume in that language", body = ResumePreview),
        (status = 422, description = "The draft has no such language, or the query names an unknown parameter", body = ErrorBody),
        NoSession,
    ))]
async fn draft_resume(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<PreviewQuery>,
) -> Result<axum::Json<ResumePreview>, ApiError> {
    let made = made(&state, query.language).await?;
    Ok(axum::Json(ResumePreview {
        language: made.language,
        pages: made.pdf.pages,
        left_out: made.pdf.left_out,
        text: made.text,
    }))
}

/// The draft's resume as a PDF, as `/resume.pdf` would serve it once published.
#[utoipa::path(get, path = "/content/draft/resume.pdf", tag = "content",
    operation_id = "previewDraftResumePdf", security(("session" = [])),
    params(PreviewQuery),
    responses(
        (status = 200, description = "The draft's resume in that language", content_type = "application/pdf", body = Vec<u8>),
        (status = 422, description = "The draft has no such language, or the query names an unknown parameter", body = ErrorBody),
        NoSession,
    ))]
async fn draft_resume_pdf(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<PreviewQuery>,
) -> Result<Response, ApiError> {
    let made = made(&state, query.language).await?;
    Ok((
        [
            (CONTENT_TYPE, HeaderValue::from_static("application/pdf")),
            (
                CONTENT_DISPOSITION,
                HeaderValue::from_static("inline; filename=\"resume-draft.pdf\""),
            ),
        ],
        made.pdf.pdf,
    )
        .into_response())
}
