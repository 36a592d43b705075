//! `/api/content`: the page's content as data. The published document is public; the draft,
//! publishing, the versions and revert are the owner's.

use std::sync::OnceLock;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::{CACHE_CONTROL, CONTENT_TYPE, ETAG};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::entries::{self, Version, VersionList, VersionNumber};
use super::responses::{CrossSite, DraftBody, NoSession};
use crate::auth::Owner;
use crate::clock::now_ms;
use crate::conditional::is_fresh;
use crate::content::live::Published;
use crate::content::{migrate, validate, ContentDocument, KEPT_VERSIONS, MAX_DOCUMENT_BYTES};
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::extract::query::{ApiQuery, QueryParams};
use crate::http::layers::security::{FramedBySelf, PagePolicy};
use crate::http::state::AppState;
use crate::store::content::EntryKey;

pub fn router() -> OpenApiRouter<AppState> {
    let owner = OpenApiRouter::new()
        .routes(routes!(draft, save_draft))
        .routes(routes!(preview))
        .routes(routes!(publish))
        .routes(routes!(cancel_schedule))
        .routes(routes!(versions))
        .routes(routes!(revert))
        .layer(DefaultBodyLimit::max(MAX_DOCUMENT_BYTES))
        .layer(crate::http::layers::no_store::no_store());
    OpenApiRouter::new().routes(routes!(published)).merge(owner)
}

/// The published document, as visitors' pages get it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishedContent {
    /// 0 for the default document, served until something is published.
    version: i64,
    /// Unix milliseconds, UTC; null for the default document.
    published_at: Option<i64>,
    document: ContentDocument,
}

/// The draft the owner edits. Its `revision` (also its ETag) goes with the next save as
/// `If-Match`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Draft {
    /// 0 while nothing was saved (the document is then the published one).
    revision: i64,
    pub(super) document: ContentDocument,
}

/// The published document, as visitors' pages get it (the default one until something is
/// published), with its version as the ETag: `If-None-Match` makes it a 304.
#[utoipa::path(get, path = "/content", tag = "content",
    operation_id = "readPublishedContent",
    responses(
        (status = 200, body = PublishedContent, headers(("ETag" = String))),
        (status = 304, description = "Unchanged since the ETag sent in If-None-Match"),
    ))]
async fn published(State(state): State<AppState>, headers: HeaderMap) -> Response {
    let current = state.content.current();
    let etag = HeaderValue::from_str(&current.etag).expect("an ETag is a header value");
    let cache = HeaderValue::from_static("no-cache");
    if is_fresh(&headers, &current.etag) {
        return (
            StatusCode::NOT_MODIFIED,
            [(ETAG, etag), (CACHE_CONTROL, cache)],
        )
            .into_response();
    }
    (
        [
            (CONTENT_TYPE, HeaderValue::from_static("application/json")),
            (ETAG, etag),
            (CACHE_CONTROL, cache),
        ],
        current.body.clone(),
    )
        .into_response()
}

pub(super) async fn read_draft(state: &AppState) -> Result<Draft, ApiError> {
    match state.db.content_draft(EntryKey::PAGE).await? {
        Some(row) => Ok(Draft {
            revision: row.revision,
            document: migrate::read(&row.document).map_err(anyhow::Error::from)?,
        }),
        None => Ok(Draft {
            revision: 0,
            document: state.content.current().document.clone(),
        }),
    }
}

fn with_revision_etag(draft: Draft) -> Response {
    entries::with_revision_etag(draft.revision, draft)
}

/// The owner's draft, with its revision (also its ETag) for the next save's `If-Match`; the
/// published document at revision 0 while nothing was saved.
#[utoipa::path(get, path = "/content/draft", tag = "content",
    operation_id = "readContentDraft", security(("session" = [])),
    responses(
        (status = 200, body = Draft, headers(("ETag" = String, description = "The revision, quoted"))),
        NoSession,
    ))]
async fn draft(State(state): State<AppState>, _owner: Owner) -> Result<Response, ApiError> {
    Ok(with_revision_etag(read_draft(&state).await?))
}

/// Saves the draft if it is still at the revision in `If-Match`, and only if the document is
/// valid (each problem named by its path); a save made elsewhere since is a 409 and nothing is
/// overwritten.
#[utoipa::path(put, path = "/content/draft", tag = "content", request_body = ContentDocument,
    operation_id = "saveContentDraft", security(("session" = [])),
    params(("If-Match" = String, Header, description = "The revision the edit started from (the draft's ETag)")),
    responses(
        (status = 200, body = Draft, headers(("ETag" = String, description = "The new revision, quoted"))),
        (status = 409, description = "The draft was saved since that revision; nothing was written", body = ErrorBody),
        (status = 422, description = "A field is not valid, each named by its path", body = ErrorBody),
        (status = 412, description = "If-Match is a weak tag, which strong comparison never matches", body = ErrorBody),
        (status = 428, description = "If-Match is missing", body = ErrorBody),
        NoSession, CrossSite, DraftBody,
    ))]
async fn save_draft(
    State(state): State<AppState>,
    _owner: Owner,
    headers: HeaderMap,
    ApiJson(document): ApiJson<serde_json::Value>,
) -> Result<Response, ApiError> {
    // A tab opened before an upgrade may send a document of the older shape.
    let document = validate::read_document(document)?;
    let expected = entries::expected_revision(&headers)?;
    validate::check(&document).map_err(ApiError::Validation)?;
    let revision = entries::save_draft(&state, EntryKey::PAGE, &document, expected).await?;
    Ok(with_revision_etag(Draft { revision, document }))
}

async fn publish_document(
    state: &AppState,
    document: &ContentDocument,
    as_draft: bool,
    at: Option<i64>,
) -> Result<Version, ApiError> {
    // A draft was checked when saved; checked again, as the rules may have grown since.
    validate::check(document).map_err(ApiError::Validation)?;
    let json = serde_json::to_string(document).map_err(anyhow::Error::from)?;
    let _publishing = state.content.publishing().await;
    let now = state.content.now_ms();
    let scheduled = at.filter(|at| *at > now);
    // Rendered before it is stored: a document the page cannot be drawn from is never
    // published, and visitors keep the last good page. A scheduled one is drawn again when due
    // (with the case studies and posts of then), by every instance's next look.
    let prepared = state
        .content
        .prepare(document, Some(scheduled.unwrap_or(now)))
        .await
        .map_err(|error| {
            tracing::error!(error = %format!("{error:#}"), "the page could not be rendered from the document to publish");
            ApiError::field(
                "document",
                "The page could not be rendered from this document, so nothing was published; \
                 visitors still see the version published before. Undo the last change and try again.",
            )
        })?;
    // A publish scheduled for later is replaced by this one.
    state.db.drop_scheduled_content(EntryKey::PAGE, now).await?;
    let row = state
        .db
        .publish_content(
            EntryKey::PAGE,
            &json,
            scheduled.unwrap_or(now),
            KEPT_VERSIONS,
            as_draft,
        )
        .await?;
    let version = Version::from(&row);
    if scheduled.is_none() {
        let published = Published::new(row.version, Some(row.published_at), document.clone());
        state.content.show_published(published, prepared).await;
    }
    Ok(version)
}

/// Publishes the draft: checked again and rendered first, so visitors keep the last good page
/// when it cannot be; the last 20 versions are kept. At once, or at the moment `at` names
/// (scheduled: until then every address shows the version published before, and every instance
/// serves this one within seconds after it; a later publish replaces it).
#[utoipa::path(post, path = "/content/publish", tag = "content",
    operation_id = "publishContent", security(("session" = [])),
    params(entries::PublishQuery),
    responses(
        (status = 200, description = "The draft is now the published version (or is scheduled to be, from `publishedAt`)", body = Version),
        (status = 422, description = "The draft is not valid (each field named by its path), the page could not be rendered from it, or `at` is no moment; nothing was published", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn publish(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<entries::PublishQuery>,
) -> Result<ApiJson<Version>, ApiError> {
    let at = entries::requested_moment(&state, &query)?;
    let draft = read_draft(&state).await?;
    Ok(ApiJson(
        publish_document(&state, &draft.document, false, at).await?,
    ))
}

/// Cancels the page's publish scheduled for later: the published page stays as it is.
#[utoipa::path(delete, path = "/content/schedule", tag = "content",
    operation_id = "cancelContentSchedule", security(("session" = [])),
    responses(
        (status = 204, description = "Nothing is scheduled for the page any more"),
        (status = 404, description = "Nothing was scheduled for the page", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn cancel_schedule(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<StatusCode, ApiError> {
    entries::cancel_schedule(&state, EntryKey::PAGE).await
}

/// Which language of the draft to preview.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct PreviewQuery {
    /// The tag of one of the draft's languages (published or not), or of its default language;
    /// the default language when absent.
    #[param(max_length = 35, pattern = r"^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$")]
    pub(super) language: Option<String>,
}

impl QueryParams for PreviewQuery {}

/// The draft rendered as its page in one of its languages would show it, without scripts, for
/// the editor's preview.
#[utoipa::path(get, path = "/content/draft/preview", tag = "content",
    operation_id = "previewContentDraft", security(("session" = [])),
    params(PreviewQuery),
    responses(
        (status = 200, description = "The draft rendered as its page in that language would show \
            it, without scripts; only the site's own pages may frame it", content_type = "text/html", body = String),
        (status = 422, description = "The draft has no such language, or the query names an unknown parameter", body = ErrorBody),
        NoSession,
    ))]
async fn preview(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<PreviewQuery>,
) -> Result<Response, ApiError> {
    let draft = read_draft(&state).await?;
    let tag = preview_language(&draft.document, query.language)?;
    let page = renderer(&state)?
        .compose_page(&draft.document, &tag, now_ms())
        .await?;
    Ok(preview_response(&state, &page))
}

/// The language a preview of `page`'s draft asks for (its default one when none), if the draft
/// has it.
pub(super) fn preview_language(
    page: &ContentDocument,
    language: Option<String>,
) -> Result<String, ApiError> {
    match language {
        Some(tag) if crate::content::language::localize(page, &tag).is_none() => Err(
            ApiError::field("language", "is not a language of the draft"),
        ),
        Some(tag) => Ok(tag),
        None => Ok(page.language.clone()),
    }
}

/// What draws the editors' previews: the served page's renderer.
pub(super) fn renderer(
    state: &AppState,
) -> Result<&crate::content::render::PageRenderer, ApiError> {
    Ok(state
        .content
        .page()
        .ok_or_else(|| anyhow::anyhow!("this server renders no page"))?)
}

/// A page composed for the editor's preview, as it is answered: without its scripts (they would
/// take the preview's address for an unknown route, and count a visit), with the public URL in,
/// framed only by the site's own pages, under a policy that lists its inline styles and scripts.
pub(super) fn preview_response(state: &AppState, page: &str) -> Response {
    let html = state
        .pages
        .with_base(&module_scripts().replace_all(page, ""));
    // Its inline styles and scripts (the accent's shades, the scheme script), for its policy.
    let policy = PagePolicy::for_page(&crate::site::inline_hashes(html.as_bytes()));
    let mut response = (
        [(
            CONTENT_TYPE,
            HeaderValue::from_static("text/html; charset=utf-8"),
        )],
        html,
    )
        .into_response();
    response.extensions_mut().insert(FramedBySelf);
    if let Some(policy) = policy {
        response.extensions_mut().insert(policy);
    }
    response
}

/// The page's module scripts and their preloads.
fn module_scripts() -> &'static regex::Regex {
    static SCRIPTS: OnceLock<regex::Regex> = OnceLock::new();
    SCRIPTS.get_or_init(|| {
        regex::Regex::new(
            r#"\s*(?:<script type="module"[^>]*></script>|<link rel="modulepreload"[^>]*>)"#,
        )
        .expect("a valid pattern")
    })
}

/// The kept published versions, newest first.
#[utoipa::path(get, path = "/content/versions", tag = "content",
    operation_id = "listContentVersions", security(("session" = [])),
    responses(
        (status = 200, body = VersionList),
        NoSession,
    ))]
async fn versions(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<ApiJson<VersionList>, ApiError> {
    Ok(ApiJson(entries::versions(&state, EntryKey::PAGE).await?))
}

/// Publishes version `n`'s document again, as a new version, and makes it the draft.
#[utoipa::path(post, path = "/content/versions/{n}/revert", tag = "content",
    operation_id = "revertContentVersion", security(("session" = [])),
    params(("n" = i64, Path, description = "The version to publish again")),
    responses(
        (status = 200, description = "Version n's document is published as a new version and is the draft", body = Version),
        (status = 404, description = "No such version is kept", body = ErrorBody),
        (status = 422, description = "n is not a whole number, or that version is not valid or the page could not be rendered from it", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn revert(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(VersionNumber { n }): ApiPath<VersionNumber>,
) -> Result<ApiJson<Version>, ApiError> {
    let row = state
        .db
        .content_version(EntryKey::PAGE, n)
        .await?
        .ok_or(ApiError::NotFound)?;
    let document = migrate::read(&row.document).map_err(anyhow::Error::from)?;
    Ok(ApiJson(
        publish_document(&state, &document, true, None).await?,
    ))
}
