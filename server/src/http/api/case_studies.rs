//! `/api/content/case-studies`: each project's case study, the owner's to draft, publish and
//! revert, as entries of the content store through the same code path as the page's document
//! ([`super::entries`]).

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::entries;
use super::entries::{Version, VersionList};
use super::responses::{CrossSite, DraftBody, NoSession};
use crate::auth::Owner;
use crate::content::case_study::{self, CaseStudy, KIND};
use crate::content::case_study_entry::{self as entry, key};
use crate::content::document::ID_PATTERN;
use crate::content::{validate, ContentDocument, KEPT_VERSIONS, MAX_DOCUMENT_BYTES};
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::extract::query::ApiQuery;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    let owner = OpenApiRouter::new()
        .routes(routes!(list))
        .routes(routes!(draft, save_draft))
        .routes(routes!(publish))
        .routes(routes!(cancel_schedule))
        .routes(routes!(versions))
        .routes(routes!(revert))
        .routes(routes!(preview))
        .layer(DefaultBodyLimit::max(MAX_DOCUMENT_BYTES))
        .layer(crate::http::layers::no_store::no_store());
    OpenApiRouter::new()
        .routes(routes!(published_case_study))
        .merge(owner)
}

/// A published case study, as visitors' pages get it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishedCaseStudy {
    /// 0 for the placeholder's, served with the default document until the page is published.
    version: i64,
    /// Unix milliseconds, UTC; null for the placeholder's.
    published_at: Option<i64>,
    /// Its translations only into the page's published languages.
    document: CaseStudy,
}

/// The project's published case study: only while its project is on the published page.
#[utoipa::path(get, path = "/content/case-studies/{project}", tag = "content",
    operation_id = "readPublishedCaseStudy",
    params(("project" = String, Path, description = "The project's id")),
    responses(
        (status = 200, body = PublishedCaseStudy),
        (status = 404, description = "The project has no published case study, or is not on the published page", body = ErrorBody),
        (status = 422, description = "The path names no project id", body = ErrorBody),
    ))]
async fn published_case_study(
    State(state): State<AppState>,
    ApiPath(ProjectPath { project }): ApiPath<ProjectPath>,
) -> Result<ApiJson<PublishedCaseStudy>, ApiError> {
    let project = project_id(&project)?;
    let page = state.content.current();
    if !page.document.projects.iter().any(|p| p.id == project) {
        return Err(ApiError::NotFound);
    }
    let studies = state.content.case_studies();
    let study = studies.get(project).ok_or(ApiError::NotFound)?;
    let mut document = study.document.clone();
    document.translations.retain(|t| {
        page.document
            .languages
            .iter()
            .any(|l| l.published && l.tag.eq_ignore_ascii_case(&t.tag))
    });
    Ok(ApiJson(PublishedCaseStudy {
        version: study.version,
        published_at: study.published_at,
        document,
    }))
}

/// Where a project's case study stands.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaseStudyState {
    /// The project's id.
    project: String,
    /// The draft's revision; 0 when none was saved.
    revision: i64,
    /// The newest published version; 0 when none was published.
    version: i64,
    /// When that was published (Unix milliseconds, UTC).
    published_at: Option<i64>,
    /// The placeholder's example for a placeholder project, never saved: shown beside the
    /// placeholder page, and where its draft begins.
    placeholder: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaseStudyList {
    /// Every case study begun, by project id, and the placeholder's for each placeholder
    /// project that has none of the owner's.
    case_studies: Vec<CaseStudyState>,
}

/// A case study's draft. Its `revision` (also its ETag) goes with the next save as `If-Match`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CaseStudyDraft {
    /// 0 while nothing was saved: the document is then the published one, or a new one.
    revision: i64,
    document: CaseStudy,
}

#[derive(Debug, Deserialize)]
pub struct ProjectPath {
    project: String,
}

#[derive(Debug, Deserialize)]
pub struct ProjectVersionPath {
    project: String,
    n: i64,
}

/// The project's id from the path, checked: the entry's key.
fn project_id(project: &str) -> Result<&str, ApiError> {
    static PATTERN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pattern = PATTERN.get_or_init(|| regex::Regex::new(ID_PATTERN).expect("a valid pattern"));
    if pattern.is_match(project) {
        Ok(project)
    } else {
        Err(ApiError::field(
            "project",
            "must be a project's id: lower case letters, digits and dashes",
        ))
    }
}

/// Every case study begun: its draft's revision and its newest version; and the placeholder's
/// example of each placeholder project still without one.
#[utoipa::path(get, path = "/content/case-studies", tag = "content",
    operation_id = "listCaseStudies", security(("session" = [])),
    responses((status = 200, body = CaseStudyList), NoSession))]
async fn list(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<ApiJson<CaseStudyList>, ApiError> {
    let mut case_studies: Vec<CaseStudyState> = state
        .db
        .content_entries(KIND)
        .await?
        .into_iter()
        .map(|entry| CaseStudyState {
            project: entry.entry,
            revision: entry.revision,
            version: entry.version,
            published_at: entry.published_at,
            placeholder: false,
        })
        .collect();
    let page = super::content::read_draft(&state).await?.document;
    for study in case_study::default_case_studies() {
        let begun = case_studies.iter().any(|s| s.project == study.project);
        if !begun && placeholder_project(&page, &study.project) {
            case_studies.push(CaseStudyState {
                project: study.project.clone(),
                revision: 0,
                version: 0,
                published_at: None,
                placeholder: true,
            });
        }
    }
    Ok(ApiJson(CaseStudyList { case_studies }))
}

/// Whether `page` has the placeholder's project `project` as the placeholder has it.
fn placeholder_project(page: &ContentDocument, project: &str) -> bool {
    let placeholder = crate::content::document::default_document();
    page.projects.iter().any(|card| {
        card.id == project
            && placeholder
                .projects
                .iter()
                .any(|p| p.id == project && p.title == card.title)
    })
}

/// The draft, else the published case study, else the placeholder's for a placeholder project,
/// else a new one for the project of `page`, its slug made from the project's title (and
/// numbered when another case study has it).
async fn read_draft(
    state: &AppState,
    project: &str,
    page: &ContentDocument,
) -> Result<CaseStudyDraft, ApiError> {
    if let Some(row) = state.db.content_draft(key(project)).await? {
        let document = serde_json::from_str(&row.document).map_err(anyhow::Error::from)?;
        return Ok(CaseStudyDraft {
            revision: row.revision,
            document,
        });
    }
    if let Some(document) = entry::published(&state.db, project).await? {
        return Ok(CaseStudyDraft {
            revision: 0,
            document,
        });
    }
    let Some(card) = page.projects.iter().find(|p| p.id == project) else {
        return Err(ApiError::NotFound);
    };
    // A placeholder project still as the placeholder has it begins from the placeholder's case
    // study, the one a fresh server shows, rather than from nothing.
    if let Some(study) = case_study::default_case_studies()
        .iter()
        .find(|study| study.project == project && placeholder_project(page, project))
    {
        return Ok(CaseStudyDraft {
            revision: 0,
            document: study.clone(),
        });
    }
    let taken = entry::others_slugs(&state.db, project).await?;
    let base = case_study::slug_from_title(&card.title);
    let slug = std::iter::once(base.clone())
        .chain((2..).map(|n| format!("{base}-{n}")))
        .find(|slug| !taken.contains(slug))
        .expect("an endless supply of slugs");
    Ok(CaseStudyDraft {
        revision: 0,
        document: case_study::begun(project, slug),
    })
}

/// The project's case study as the owner edits it, with its revision (also its ETag) for the
/// next save's `If-Match`: the draft, else the published one, else a new one (revision 0), its
/// slug made from the project's title.
#[utoipa::path(get, path = "/content/case-studies/{project}/draft", tag = "content",
    operation_id = "readCaseStudyDraft", security(("session" = [])),
    params(("project" = String, Path, description = "The project's id")),
    responses(
        (status = 200, body = CaseStudyDraft, headers(("ETag" = String, description = "The revision, quoted"))),
        (status = 404, description = "The page's draft has no such project", body = ErrorBody),
        (status = 422, description = "The path names no project id", body = ErrorBody),
        NoSession,
    ))]
async fn draft(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(ProjectPath { project }): ApiPath<ProjectPath>,
) -> Result<Response, ApiError> {
    let project = project_id(&project)?;
    let page = super::content::read_draft(&state).await?.document;
    let draft = read_draft(&state, project, &page).await?;
    Ok(entries::with_revision_etag(draft.revision, draft))
}

/// Saves the project's case study if its draft is still at the revision in `If-Match`, and only
/// if it is valid against the page's draft (each problem named by its path); a save made
/// elsewhere since is a 409 and nothing is overwritten. Its former slugs are the server's.
#[utoipa::path(put, path = "/content/case-studies/{project}/draft", tag = "content",
    request_body = CaseStudy, operation_id = "saveCaseStudyDraft", security(("session" = [])),
    params(
        ("project" = String, Path, description = "The project's id"),
        ("If-Match" = String, Header, description = "The revision the edit started from (the draft's ETag)"),
    ),
    responses(
        (status = 200, body = CaseStudyDraft, headers(("ETag" = String, description = "The new revision, quoted"))),
        (status = 409, description = "The draft was saved since that revision; nothing was written", body = ErrorBody),
        (status = 422, description = "A field is not valid, each named by its path", body = ErrorBody),
        (status = 412, description = "If-Match is a weak tag, which strong comparison never matches", body = ErrorBody),
        (status = 428, description = "If-Match is missing", body = ErrorBody),
        NoSession, CrossSite, DraftBody,
    ))]
async fn save_draft(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(ProjectPath { project }): ApiPath<ProjectPath>,
    headers: HeaderMap,
    ApiJson(document): ApiJson<serde_json::Value>,
) -> Result<Response, ApiError> {
    let project = project_id(&project)?;
    let mut document = validate::read_case_study(document)?;
    let expected = entries::expected_revision(&headers)?;
    if document.project != project {
        return Err(ApiError::field(
            "project",
            format!("must be {project:?}, the project of this case study's address"),
        ));
    }
    let page = super::content::read_draft(&state).await?.document;
    validate::check_case_study(&document, &page).map_err(ApiError::Validation)?;
    if let Some(problem) = entry::slug_problem(&state.db, &document).await? {
        return Err(ApiError::field("slug", problem));
    }
    document.former_slugs = entry::published(&state.db, project)
        .await?
        .map(|p| p.former_slugs)
        .unwrap_or_default();
    let revision = entries::save_draft(&state, key(project), &document, expected).await?;
    Ok(entries::with_revision_etag(
        revision,
        CaseStudyDraft { revision, document },
    ))
}

/// Publishes `document` as its project's next version (see `LiveContent::publish_case_study`).
async fn publish_case_study(
    state: &AppState,
    document: CaseStudy,
    as_draft: bool,
    at: Option<i64>,
) -> Result<Version, ApiError> {
    let row = state
        .content
        .publish_case_study(&state.db, document, (at, KEPT_VERSIONS), as_draft)
        .await?;
    Ok(Version {
        version: row.version,
        published_at: row.published_at,
    })
}

/// Publishes the project's case study draft, checked again against the published page: at once,
/// or at the moment `at` names (scheduled: until then its addresses show the version published
/// before, or answer 404 for a first publish; a later publish replaces it).
#[utoipa::path(post, path = "/content/case-studies/{project}/publish", tag = "content",
    operation_id = "publishCaseStudy", security(("session" = [])),
    params(("project" = String, Path, description = "The project's id"), entries::PublishQuery),
    responses(
        (status = 200, description = "The draft is now the published version (or is scheduled to be, from `publishedAt`)", body = Version),
        (status = 404, description = "The project has no case study drafted", body = ErrorBody),
        (status = 422, description = "The draft is not valid (each field named by its path), its project is not on the published page, its slug is taken, or `at` is no moment; nothing was published", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn publish(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(ProjectPath { project }): ApiPath<ProjectPath>,
    ApiQuery(query): ApiQuery<entries::PublishQuery>,
) -> Result<ApiJson<Version>, ApiError> {
    let project = project_id(&project)?;
    let at = entries::requested_moment(&state, &query)?;
    let row = state
        .db
        .content_draft(key(project))
        .await?
        .ok_or(ApiError::NotFound)?;
    let document: CaseStudy = serde_json::from_str(&row.document).map_err(anyhow::Error::from)?;
    Ok(ApiJson(
        publish_case_study(&state, document, false, at).await?,
    ))
}

/// Cancels the case study's publish scheduled for later: what is published stays as it is.
#[utoipa::path(delete, path = "/content/case-studies/{project}/schedule", tag = "content",
    operation_id = "cancelCaseStudySchedule", security(("session" = [])),
    params(("project" = String, Path, description = "The project's id")),
    responses(
        (status = 204, description = "Nothing is scheduled for the case study any more"),
        (status = 404, description = "Nothing was scheduled for the case study", body = ErrorBody),
        (status = 422, description = "The path names no project id", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn cancel_schedule(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(ProjectPath { project }): ApiPath<ProjectPath>,
) -> Result<StatusCode, ApiError> {
    entries::cancel_schedule(&state, key(project_id(&project)?)).await
}

/// The project's case study's kept versions, newest first.
#[utoipa::path(get, path = "/content/case-studies/{project}/versions", tag = "content",
    operation_id = "listCaseStudyVersions", security(("session" = [])),
    params(("project" = String, Path, description = "The project's id")),
    responses(
        (status = 200, body = VersionList),
        (status = 422, description = "The path names no project id", body = ErrorBody),
        NoSession,
    ))]
async fn versions(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(ProjectPath { project }): ApiPath<ProjectPath>,
) -> Result<ApiJson<VersionList>, ApiError> {
    let project = project_id(&project)?;
    Ok(ApiJson(entries::versions(&state, key(project)).await?))
}

/// Publishes version `n` of the project's case study again, as a new version, and makes it the
/// draft.
#[utoipa::path(post, path = "/content/case-studies/{project}/versions/{n}/revert", tag = "content",
    operation_id = "revertCaseStudyVersion", security(("session" = [])),
    params(
        ("project" = String, Path, description = "The project's id"),
        ("n" = i64, Path, description = "The version to publish again"),
    ),
    responses(
        (status = 200, description = "Version n is published as a new version and is the draft", body = Version),
        (status = 404, description = "No such version is kept", body = ErrorBody),
        (status = 422, description = "That version is no longer valid against the published page, or its slug is taken", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn revert(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(ProjectVersionPath { project, n }): ApiPath<ProjectVersionPath>,
) -> Result<ApiJson<Version>, ApiError> {
    let document = entries::kept_version(&state, key(project_id(&project)?), n).await?;
    Ok(ApiJson(
        publish_case_study(&state, document, true, None).await?,
    ))
}

/// The project's case study as its draft stands (else as published, else as begun), rendered
/// as its page in one of the page draft's languages would show it, without scripts, for the
/// editor's preview.
#[utoipa::path(get, path = "/content/case-studies/{project}/preview", tag = "content",
    operation_id = "previewCaseStudyDraft", security(("session" = [])),
    params(
        ("project" = String, Path, description = "The project's id"),
        super::content::PreviewQuery,
    ),
    responses(
        (status = 200, description = "The case study's page as a publish would show it, without \
            scripts; only the site's own pages may frame it", content_type = "text/html", body = String),
        (status = 404, description = "The page's draft has no such project", body = ErrorBody),
        (status = 422, description = "The page's draft has no such language, the case study is not \
            translated into it, or the query names an unknown parameter", body = ErrorBody),
        NoSession,
    ))]
async fn preview(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(ProjectPath { project }): ApiPath<ProjectPath>,
    crate::http::extract::query::ApiQuery(query): crate::http::extract::query::ApiQuery<
        super::content::PreviewQuery,
    >,
) -> Result<Response, ApiError> {
    let project = project_id(&project)?;
    let page = super::content::read_draft(&state).await?.document;
    let study = read_draft(&state, project, &page).await?.document;
    let tag = super::content::preview_language(&page, query.language)?;
    let mut others =
        crate::content::case_study_entry::CaseStudies::clone(&state.content.case_studies());
    others.remove(project);
    let html = super::content::renderer(&state)?
        .compose_study_page(&page, study, &others, &tag, state.content.now_ms())
        .await?
        .ok_or_else(|| {
            ApiError::field(
                "language",
                "the case study is not translated into this language yet, so its page there does not show it",
            )
        })?;
    Ok(super::content::preview_response(&state, &html))
}
