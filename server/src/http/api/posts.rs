//! `/api/content/posts`: the owner's writing, each post an entry of the content store drafted,
//! published and reverted through the same code path as the page's document and the case
//! studies ([`super::entries`]).

use axum::extract::{DefaultBodyLimit, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::entries;
use super::entries::{Version, VersionList};
use super::responses::{CrossSite, DraftBody, NoSession};
use crate::auth::Owner;
use crate::content::document::ID_PATTERN;
use crate::content::post::{self, key, Post, KIND};
use crate::content::{validate, KEPT_VERSIONS, MAX_DOCUMENT_BYTES};
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::extract::query::ApiQuery;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(draft, save_draft))
        .routes(routes!(publish))
        .routes(routes!(unpublish))
        .routes(routes!(cancel_schedule))
        .routes(routes!(versions))
        .routes(routes!(revert))
        .routes(routes!(preview))
        .layer(DefaultBodyLimit::max(MAX_DOCUMENT_BYTES))
        .layer(crate::http::layers::no_store::no_store())
}

/// Where a post stands, as the Writing view lists it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostState {
    id: String,
    /// The draft's title (else the published one's).
    title: String,
    slug: String,
    language: String,
    /// The draft's revision; 0 when none was saved.
    revision: i64,
    /// The newest published version; 0 while it was never published.
    version: i64,
    /// When that version was published (Unix milliseconds, UTC).
    published_at: Option<i64>,
    /// When the post was first published (Unix milliseconds, UTC): its date.
    date: Option<i64>,
    /// When its newest version is scheduled to be published (Unix milliseconds, UTC), while that
    /// is still to come.
    scheduled_at: Option<i64>,
    /// Whether its newest version unpublishes it (from `scheduledAt`, when that is to come).
    unpublished: bool,
}

#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostList {
    /// Every post begun, the newest first (by its date, else its last change).
    posts: Vec<PostState>,
    /// The owner's time zone (IANA), in which a moment without an offset is read (`?at=`).
    time_zone: String,
}

/// A post's draft. Its `revision` (also its ETag) goes with the next save as `If-Match`.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PostDraft {
    /// 0 while nothing was saved since the last publish: the document is then the published one.
    revision: i64,
    document: Post,
}

/// A new post.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct NewPost {
    /// Its title: its id and first slug are made from it.
    #[schema(min_length = 1, max_length = 160)]
    title: String,
    /// The language it is written in: the page's (the default), or one of its languages.
    #[serde(default)]
    #[schema(max_length = 35)]
    language: Option<String>,
}

#[derive(Debug, Deserialize)]
pub struct PostPath {
    id: String,
}

#[derive(Debug, Deserialize)]
pub struct PostVersionPath {
    id: String,
    n: i64,
}

/// The post's id from the path, checked: the entry's key.
fn post_id(id: &str) -> Result<&str, ApiError> {
    static PATTERN: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    let pattern = PATTERN.get_or_init(|| regex::Regex::new(ID_PATTERN).expect("a valid pattern"));
    if pattern.is_match(id) {
        Ok(id)
    } else {
        Err(ApiError::field(
            "id",
            "must be a post's id: lower case letters, digits and dashes",
        ))
    }
}

/// The draft, else the published post; `None` for a post never begun. What the server keeps
/// (the date of the first publish, the former slugs) is the published version's.
async fn read_draft(state: &AppState, id: &str) -> Result<Option<PostDraft>, ApiError> {
    let published = post::published(&state.db, id).await?;
    if let Some(row) = state.db.content_draft(key(id)).await? {
        let mut document: Post =
            serde_json::from_str(&row.document).map_err(anyhow::Error::from)?;
        if let Some(published) = published {
            document.withdrawn = false;
            document.date = published.date.or(document.date);
            document.former_slugs = post::former_slugs(Some(&published), &document.slug);
        }
        return Ok(Some(PostDraft {
            revision: row.revision,
            document,
        }));
    }
    Ok(published.map(|mut document| {
        document.withdrawn = false;
        PostDraft {
            revision: 0,
            document,
        }
    }))
}

/// Every post begun: its title, slug and language as drafted, its draft's revision and its
/// newest version.
#[utoipa::path(get, path = "/content/posts", tag = "content",
    operation_id = "listPosts", security(("session" = [])),
    responses((status = 200, body = PostList), NoSession))]
async fn list(State(state): State<AppState>, _owner: Owner) -> Result<ApiJson<PostList>, ApiError> {
    let mut posts = Vec::new();
    let now = crate::clock::Clock::ahead_by(state.settings.clock.clock_offset).now_ms();
    for entry in state.db.content_entries(KIND).await? {
        let Some(draft) = read_draft(&state, &entry.entry).await? else {
            continue;
        };
        let unpublished = post::published(&state.db, &entry.entry)
            .await?
            .is_some_and(|p| p.withdrawn);
        let document = draft.document;
        posts.push(PostState {
            id: entry.entry,
            title: document.title,
            slug: document.slug,
            language: document.language,
            revision: entry.revision,
            version: entry.version,
            published_at: entry.published_at,
            date: document.date,
            scheduled_at: entry.published_at.filter(|at| *at > now),
            unpublished,
        });
    }
    posts.sort_by_key(|p| std::cmp::Reverse(p.date.or(p.published_at).unwrap_or(i64::MAX)));
    Ok(ApiJson(PostList {
        posts,
        time_zone: state.settings.insights.time_zone.name().to_owned(),
    }))
}

/// Begins a post with a title: its id and slug are made from the title (numbered when another
/// post has them), its body a line to write over. The draft comes back with its revision.
#[utoipa::path(post, path = "/content/posts", tag = "content",
    request_body = NewPost, operation_id = "createPost", security(("session" = [])),
    responses(
        (status = 201, body = PostDraft, headers(("ETag" = String, description = "The revision, quoted"))),
        (status = 422, description = "The title is empty or too long, or the language is not the page's", body = ErrorBody),
        NoSession, CrossSite, DraftBody,
    ))]
async fn create(
    State(state): State<AppState>,
    _owner: Owner,
    ApiJson(new): ApiJson<NewPost>,
) -> Result<Response, ApiError> {
    let title = new.title.trim().to_owned();
    if title.is_empty() || title.chars().count() > 160 {
        return Err(ApiError::field(
            "title",
            "must be between 1 and 160 characters",
        ));
    }
    let page = super::content::read_draft(&state).await?.document;
    let language = new.language.unwrap_or_else(|| page.language.clone());
    let taken: Vec<String> = state
        .db
        .content_entries(KIND)
        .await?
        .into_iter()
        .map(|e| e.entry)
        .collect();
    let mut base = crate::content::case_study::slug_from_title(&title);
    base.truncate(36);
    let base = base.trim_end_matches('-').to_owned();
    let id = std::iter::once(base.clone())
        .chain((2..).map(|n| format!("{base}-{n}")))
        .find(|id| !taken.contains(id))
        .expect("an endless supply of ids");
    let mut document = post::begun(id.clone(), title, language);
    let published = state.content.posts();
    let mut n = 1;
    while post::slug_problem(&document, &published).is_some() {
        n += 1;
        document.slug = format!("{id}-{n}");
    }
    validate::check_post(&document, &page).map_err(ApiError::Validation)?;
    let revision = entries::save_draft(&state, key(&id), &document, 0).await?;
    let mut response = entries::with_revision_etag(revision, PostDraft { revision, document });
    *response.status_mut() = StatusCode::CREATED;
    Ok(response.into_response())
}

/// The post as the owner edits it, with its revision (also its ETag) for the next save's
/// `If-Match`: the draft, else the published post (revision 0).
#[utoipa::path(get, path = "/content/posts/{id}/draft", tag = "content",
    operation_id = "readPostDraft", security(("session" = [])),
    params(("id" = String, Path, description = "The post's id")),
    responses(
        (status = 200, body = PostDraft, headers(("ETag" = String, description = "The revision, quoted"))),
        (status = 404, description = "No post has this id", body = ErrorBody),
        (status = 422, description = "The path names no post id", body = ErrorBody),
        NoSession,
    ))]
async fn draft(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(PostPath { id }): ApiPath<PostPath>,
) -> Result<Response, ApiError> {
    let id = post_id(&id)?;
    let draft = read_draft(&state, id).await?.ok_or(ApiError::NotFound)?;
    Ok(entries::with_revision_etag(draft.revision, draft))
}

/// Saves the post if its draft is still at the revision in `If-Match`, and only if it is valid
/// (each problem named by its path; the body's first problem with its line); a save made
/// elsewhere since is a 409 and nothing is overwritten. Its former slugs and date are the
/// server's.
#[utoipa::path(put, path = "/content/posts/{id}/draft", tag = "content",
    request_body = Post, operation_id = "savePostDraft", security(("session" = [])),
    params(
        ("id" = String, Path, description = "The post's id"),
        ("If-Match" = String, Header, description = "The revision the edit started from (the draft's ETag)"),
    ),
    responses(
        (status = 200, body = PostDraft, headers(("ETag" = String, description = "The new revision, quoted"))),
        (status = 404, description = "No post has this id", body = ErrorBody),
        (status = 409, description = "The draft was saved since that revision; nothing was written", body = ErrorBody),
        (status = 412, description = "If-Match is a weak tag, which strong comparison never matches", body = ErrorBody),
        (status = 422, description = "A field is not valid, each named by its path", body = ErrorBody),
        (status = 428, description = "If-Match is missing", body = ErrorBody),
        NoSession, CrossSite, DraftBody,
    ))]
async fn save_draft(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(PostPath { id }): ApiPath<PostPath>,
    headers: HeaderMap,
    ApiJson(document): ApiJson<serde_json::Value>,
) -> Result<Response, ApiError> {
    let id = post_id(&id)?;
    let mut document = validate::read_post(document)?;
    let expected = entries::expected_revision(&headers)?;
    if document.id != id {
        return Err(ApiError::field(
            "id",
            format!("must be {id:?}, the id of this post's address"),
        ));
    }
    if read_draft(&state, id).await?.is_none() {
        return Err(ApiError::NotFound);
    }
    let page = super::content::read_draft(&state).await?.document;
    validate::check_post(&document, &page).map_err(ApiError::Validation)?;
    if let Some(problem) = post::slug_problem(&document, &state.content.posts()) {
        return Err(ApiError::field("slug", problem));
    }
    document.withdrawn = false;
    let published = post::published(&state.db, id).await?;
    // As the draft reads back: the addresses it had, the published one among them.
    document.former_slugs = post::former_slugs(published.as_ref(), &document.slug);
    document.date = published.and_then(|p| p.date).or(document.date);
    let revision = entries::save_draft(&state, key(id), &document, expected).await?;
    Ok(entries::with_revision_etag(
        revision,
        PostDraft { revision, document },
    ))
}

/// Publishes `document` as the post's next version, now or at `at` (see
/// `LiveContent::publish_post`).
async fn publish_post(
    state: &AppState,
    document: Post,
    at: Option<i64>,
    as_draft: bool,
) -> Result<Version, ApiError> {
    let page = state.content.current();
    let notice = crate::content::post_page::LiveNotice::of(&document, &page.document);
    let row = state
        .content
        .publish_post(&state.db, document, (at, KEPT_VERSIONS), as_draft)
        .await?;
    tell_when_live(state, &notice, row.published_at).await?;
    Ok(Version {
        version: row.version,
        published_at: row.published_at,
    })
}

/// A post scheduled for later tells the owner when it goes live: a notice queued now on each
/// channel, due at its moment (`at`), which the outbox sends once (whichever instance is up
/// then); a publish now, or another moment, replaces the one not sent yet.
async fn tell_when_live(
    state: &AppState,
    notice: &crate::content::post_page::LiveNotice,
    at: i64,
) -> Result<(), ApiError> {
    let entry = entries::notice_entry(key(&notice.id));
    if at <= state.content.now_ms() || !state.contact.notifications_on {
        state.db.drop_notices(&entry).await?;
        return Ok(());
    }
    let (subject, text) = notice.words(state.pages.base(), at, state.settings.insights.time_zone);
    let notice = crate::store::delivery::Notice {
        entry: &entry,
        subject: &subject,
        text: &text,
        due: at,
    };
    state
        .db
        .queue_notice(&notice, &state.contact.channels, crate::clock::now_ms())
        .await?;
    state.contact.outbox_wake.notify_one();
    Ok(())
}

/// Publishes the post's draft, checked again against the published page: at once, or at the
/// moment `at` names (scheduled: until then every address answers as if it were not published).
#[utoipa::path(post, path = "/content/posts/{id}/publish", tag = "content",
    operation_id = "publishPost", security(("session" = [])),
    params(("id" = String, Path, description = "The post's id"), entries::PublishQuery),
    responses(
        (status = 200, description = "The draft is now the published version", body = Version),
        (status = 404, description = "The post has no draft", body = ErrorBody),
        (status = 422, description = "The draft is not valid (each field named by its path), its language is not the published page's, its slug is taken, or `at` is no moment; nothing was published", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn publish(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(PostPath { id }): ApiPath<PostPath>,
    ApiQuery(query): ApiQuery<entries::PublishQuery>,
) -> Result<ApiJson<Version>, ApiError> {
    let id = post_id(&id)?;
    let at = entries::requested_moment(&state, &query)?;
    let row = state
        .db
        .content_draft(key(id))
        .await?
        .ok_or(ApiError::NotFound)?;
    let document: Post = serde_json::from_str(&row.document).map_err(anyhow::Error::from)?;
    Ok(ApiJson(publish_post(&state, document, at, false).await?))
}

/// Unpublishes the post: at once, or at the moment `at` names (scheduled: until then it stays
/// served). From then on every address that showed it answers as if it never had; its slug stays
/// its own, and a publish of its draft brings it back.
#[utoipa::path(post, path = "/content/posts/{id}/unpublish", tag = "content",
    operation_id = "unpublishPost", security(("session" = [])),
    params(("id" = String, Path, description = "The post's id"), entries::PublishQuery),
    responses(
        (status = 200, description = "A version that unpublishes the post is stored (and, unless scheduled, served)", body = Version),
        (status = 404, description = "The post was never published", body = ErrorBody),
        (status = 409, description = "The post is already unpublished, or its unpublishing is scheduled", body = ErrorBody),
        (status = 422, description = "The path names no post id, or `at` is no moment", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn unpublish(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(PostPath { id }): ApiPath<PostPath>,
    ApiQuery(query): ApiQuery<entries::PublishQuery>,
) -> Result<ApiJson<Version>, ApiError> {
    let id = post_id(&id)?;
    let at = entries::requested_moment(&state, &query)?;
    let row = state
        .content
        .unpublish_post(&state.db, id, (at, KEPT_VERSIONS))
        .await?;
    // An unpublishing replaces a publish still to come, and its notice.
    state
        .db
        .drop_notices(&entries::notice_entry(key(id)))
        .await?;
    Ok(ApiJson(Version {
        version: row.version,
        published_at: row.published_at,
    }))
}

/// Cancels what is scheduled for the post (a publish or an unpublishing still to come): what is
/// published now stays as it is.
#[utoipa::path(delete, path = "/content/posts/{id}/schedule", tag = "content",
    operation_id = "cancelPostSchedule", security(("session" = [])),
    params(("id" = String, Path, description = "The post's id")),
    responses(
        (status = 204, description = "Nothing is scheduled for the post any more"),
        (status = 404, description = "Nothing was scheduled for the post", body = ErrorBody),
        (status = 422, description = "The path names no post id", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn cancel_schedule(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(PostPath { id }): ApiPath<PostPath>,
) -> Result<StatusCode, ApiError> {
    entries::cancel_schedule(&state, key(post_id(&id)?)).await
}

/// The post's kept versions, newest first.
#[utoipa::path(get, path = "/content/posts/{id}/versions", tag = "content",
    operation_id = "listPostVersions", security(("session" = [])),
    params(("id" = String, Path, description = "The post's id")),
    responses(
        (status = 200, body = VersionList),
        (status = 422, description = "The path names no post id", body = ErrorBody),
        NoSession,
    ))]
async fn versions(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(PostPath { id }): ApiPath<PostPath>,
) -> Result<ApiJson<VersionList>, ApiError> {
    let id = post_id(&id)?;
    Ok(ApiJson(entries::versions(&state, key(id)).await?))
}

/// Publishes version `n` of the post again, as a new version, and makes it the draft.
#[utoipa::path(post, path = "/content/posts/{id}/versions/{n}/revert", tag = "content",
    operation_id = "revertPostVersion", security(("session" = [])),
    params(
        ("id" = String, Path, description = "The post's id"),
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
    ApiPath(PostVersionPath { id, n }): ApiPath<PostVersionPath>,
) -> Result<ApiJson<Version>, ApiError> {
    let document = entries::kept_version(&state, key(post_id(&id)?), n).await?;
    Ok(ApiJson(publish_post(&state, document, None, true).await?))
}

/// The post as its draft stands (else as published), rendered as its page would show it once
/// published, without scripts, for the editor's preview: the server's own renderer, so what the
/// owner sees is what readers get.
#[utoipa::path(get, path = "/content/posts/{id}/preview", tag = "content",
    operation_id = "previewPostDraft", security(("session" = [])),
    params(("id" = String, Path, description = "The post's id")),
    responses(
        (status = 200, description = "The post's page as a publish would show it, without \
            scripts; only the site's own pages may frame it", content_type = "text/html", body = String),
        (status = 404, description = "No post has this id", body = ErrorBody),
        (status = 422, description = "The path names no post id, or the post's language is not the page's", body = ErrorBody),
        NoSession,
    ))]
async fn preview(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(PostPath { id }): ApiPath<PostPath>,
) -> Result<Response, ApiError> {
    let id = post_id(&id)?;
    let post = read_draft(&state, id)
        .await?
        .ok_or(ApiError::NotFound)?
        .document;
    let page = super::content::read_draft(&state).await?.document;
    let mut others = crate::content::post::Posts::clone(&state.content.posts());
    others.remove(id);
    let html = super::content::renderer(&state)?
        .compose_post_page(&page, post, &others, state.content.now_ms())
        .await?
        .ok_or_else(|| ApiError::field("language", "is not a language of the page's draft"))?;
    Ok(super::content::preview_response(&state, &html))
}
