//! `/api/media`: the owner uploads images and the resume, lists and deletes them; `/media/{file}`
//! serves the files made from them, and `/resume.pdf` the uploaded resume, from the database.
//! The body is read here, at most `--max-upload-bytes` of it (413 past that); what it is comes
//! from its bytes (see [`crate::media`]). Served files are held once, however many answers send
//! them (see [`FileCache`]).

use std::pin::Pin;
use std::task::{Context, Poll};

use axum::body::{Body, Bytes};
use axum::extract::{DefaultBodyLimit, Path, State};
use axum::http::header::{
    CACHE_CONTROL, CONTENT_LENGTH, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG,
    X_CONTENT_TYPE_OPTIONS,
};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use futures_util::StreamExt;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{CrossSite, NoSession, UploadBody};
use crate::auth::Owner;
use crate::clock::now_ms;
use crate::conditional::is_fresh;
use crate::content::document::ResumeSource;
use crate::error::{ApiError, ErrorBody};
use crate::http::extract::json::ApiJson;
use crate::http::extract::query::{ApiQuery, QueryParams};
use crate::http::extract::site_host::site_host;
use crate::http::state::AppState;
use crate::links::visit::Sender;
use crate::media::{self, PreparedFile};
use crate::store::media::{sources_of, MediaFileRow, MediaRow, MediaSourceRow};

pub use crate::media::cache::FileCache;

/// Where files made from uploads are served.
pub use crate::addresses::MEDIA_PREFIX;

/// Where the uploaded resume is served.
pub use crate::addresses::RESUME_PATH;

/// Uploaded files never change under their name.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

/// An uploaded SVG opened on its own: nothing runs, nothing is fetched, and it is sandboxed.
pub const SVG_CONTENT_SECURITY_POLICY: &str =
    "default-src 'none'; img-src data:; style-src 'unsafe-inline'; sandbox";

/// The longest file name kept from `?filename=`.
const MAX_NAME_CHARS: usize = 200;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(upload, list))
        .routes(routes!(upload_resume))
        .routes(routes!(delete))
        // The body is read by `read_body`, bounded by --max-upload-bytes.
        .layer(DefaultBodyLimit::disable())
        .layer(crate::http::layers::no_store::no_store())
}

/// The raw bytes of a file.
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct FileBytes(#[allow(dead_code)] Vec<u8>);

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UploadQuery {
    /// The file's name on the owner's computer, kept for the list; never used to serve it.
    filename: Option<String>,
}

impl QueryParams for UploadQuery {}

/// One file of an upload.
#[derive(Debug, Serialize, ToSchema)]
pub struct MediaSourceView {
    /// Where it is served, e.g. `/media/0123456789abcdef-640.webp`.
    src: String,
    /// Its width in pixels.
    width: i64,
}

/// An upload: its `width`, `height` and `sources` go into a document's `MediaItem` as they are.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MediaView {
    /// 12 hex digits of the upload's SHA-256: the same file uploaded again has the same id.
    id: String,
    /// `image` (served as WebP) or `svg` (served as cleaned SVG).
    kind: String,
    /// The name the file had when it was uploaded (may be empty).
    name: String,
    /// The widest source's size in pixels.
    width: i64,
    height: i64,
    /// The widest source's size in bytes.
    bytes: i64,
    /// Narrowest first.
    sources: Vec<MediaSourceView>,
    /// Unix milliseconds, UTC.
    created_at: i64,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct MediaList {
    /// Newest first.
    items: Vec<MediaView>,
}

/// The uploaded resume.
#[derive(Debug, Serialize, ToSchema)]
pub struct ResumeView {
    /// Where it is served: `/resume.pdf`.
    path: String,
    bytes: i64,
}

fn view(item: MediaRow, sources: &[MediaSourceRow]) -> MediaView {
    let sources = sources_of(&item, sources)
        .map(|s| MediaSourceView {
            src: format!("{MEDIA_PREFIX}{}", s.path),
            width: s.width,
        })
        .collect();
    MediaView {
        id: item.id,
        kind: item.kind,
        name: item.name,
        width: item.width,
        height: item.height,
        bytes: item.bytes,
        sources,
        created_at: item.created_at,
    }
}

/// Reads the whole body, refusing it with a 413 as soon as it is known to be over `max`.
async fn read_body(headers: &HeaderMap, body: Body, max: u64) -> Result<Bytes, ApiError> {
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > max) {
        return Err(ApiError::PayloadTooLarge);
    }
    let mut buffer = Vec::with_capacity(declared.unwrap_or(0).min(max) as usize);
    let mut stream = body.into_data_stream();
    while let Some(chunk) = stream.next().await {
        let chunk = chunk.map_err(|_| ApiError::BadRequest {
            code: "unreadable_body",
            message: "The request body could not be read.".into(),
        })?;
        if (buffer.len() + chunk.len()) as u64 > max {
            return Err(ApiError::PayloadTooLarge);
        }
        buffer.extend_from_slice(&chunk);
    }
    if buffer.is_empty() {
        return Err(ApiError::field(
            "file",
            "is empty: send the file's bytes as the body",
        ));
    }
    Ok(Bytes::from(buffer))
}

/// The name as shown: no control characters, at most [`MAX_NAME_CHARS`].
fn clean_name(name: Option<String>) -> String {
    name.unwrap_or_default()
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_NAME_CHARS)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// Uploads an image: JPEG, PNG, WebP or GIF (re-encoded as WebP at the page's widths, metadata
/// gone) or SVG (cleaned). The type is read from the bytes; the name and Content-Type are
/// ignored.
#[utoipa::path(post, path = "/media", tag = "media",
    operation_id = "uploadMedia", security(("session" = [])),
    params(("filename" = Option<String>, Query, description = "The file's name, kept for the list")),
    request_body(content = FileBytes, content_type = "application/octet-stream",
        description = "The file's bytes, whatever their Content-Type"),
    responses(
        (status = 201, description = "Stored (or stored before: the same bytes have the same id)", body = MediaView),
        (status = 422, description = "`file` is empty, of no accepted type, unreadable or too large an image; or an unknown query parameter", body = ErrorBody),
        NoSession, CrossSite, UploadBody,
    ))]
async fn upload(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<UploadQuery>,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = read_body(&headers, body, state.settings.limits.max_upload_bytes).await?;
    let prepared = media::prepare_off_thread(bytes)
        .await?
        .map_err(|refused| ApiError::field("file", refused.0))?;
    let widest = prepared.files.last().map_or(0, |f| f.data.len());
    let row = MediaRow {
        id: prepared.id.clone(),
        kind: prepared.kind.to_owned(),
        name: clean_name(query.filename),
        width: i64::from(prepared.width),
        height: i64::from(prepared.height),
        bytes: widest as i64,
        created_at: now_ms(),
    };
    let files: Vec<MediaFileRow> = prepared
        .files
        .into_iter()
        .map(
            |PreparedFile {
                 name,
                 content_type,
                 width,
                 data,
             }| MediaFileRow {
                path: name,
                media_id: prepared.id.clone(),
                content_type: content_type.to_owned(),
                width: i64::from(width),
                data,
            },
        )
        .collect();
    state.db.insert_media(&row, &files).await?;
    let (item, sources) = state
        .db
        .find_media(&prepared.id)
        .await?
        .ok_or_else(|| anyhow::anyhow!("an upload just stored is missing"))?;
    Ok((StatusCode::CREATED, ApiJson(view(item, &sources))).into_response())
}

/// Every upload, newest first.
#[utoipa::path(get, path = "/media", tag = "media",
    operation_id = "listMedia", security(("session" = [])),
    responses(
        (status = 200, body = MediaList),
        NoSession,
    ))]
async fn list(
    State(state): State<AppState>,
    _owner: Owner,
) -> Result<ApiJson<MediaList>, ApiError> {
    let (items, sources) = state.db.media_items().await?;
    Ok(ApiJson(MediaList {
        items: items.into_iter().map(|item| view(item, &sources)).collect(),
    }))
}

#[derive(Debug, Deserialize)]
pub struct MediaId {
    id: String,
}

/// Deletes an upload and its files: pages that still name them show a broken image.
#[utoipa::path(delete, path = "/media/{id}", tag = "media",
    operation_id = "deleteMedia", security(("session" = [])),
    params(("id" = String, Path, description = "The upload's id")),
    responses(
        (status = 204, description = "Deleted"),
        (status = 404, description = "No such upload", body = ErrorBody),
        NoSession, CrossSite,
    ))]
async fn delete(
    State(state): State<AppState>,
    _owner: Owner,
    Path(MediaId { id }): Path<MediaId>,
) -> Result<StatusCode, ApiError> {
    if state.db.delete_media(&id).await? {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound)
    }
}

/// Uploads the resume (a PDF): `/resume.pdf` serves it from then on, on every instance.
#[utoipa::path(post, path = "/media/resume", tag = "media",
    operation_id = "uploadResume", security(("session" = [])),
    request_body(content = FileBytes, content_type = "application/octet-stream",
        description = "The PDF's bytes, whatever their Content-Type"),
    responses(
        (status = 201, description = "Stored; served at /resume.pdf", body = ResumeView),
        (status = 422, description = "`file` is empty or not a PDF", body = ErrorBody),
        NoSession, CrossSite, UploadBody,
    ))]
async fn upload_resume(
    State(state): State<AppState>,
    _owner: Owner,
    headers: HeaderMap,
    body: Body,
) -> Result<Response, ApiError> {
    let bytes = read_body(&headers, body, state.settings.limits.max_upload_bytes).await?;
    if media::sniff(&bytes) != media::Sniffed::Pdf {
        return Err(ApiError::field(
            "file",
            "is not a PDF (its bytes do not start with %PDF-, whatever its name)",
        ));
    }
    let sha256 = media::sha256_hex(&bytes);
    state.db.save_resume(&bytes, &sha256, now_ms()).await?;
    Ok((
        StatusCode::CREATED,
        ApiJson(ResumeView {
            path: RESUME_PATH.into(),
            bytes: bytes.len() as i64,
        }),
    )
        .into_response())
}

/// Whether `name` can be the name of a file made from an upload: 16 hex digits, then a width
/// and `.webp`, or `.svg`.
fn is_media_name(name: &str) -> bool {
    let (stem, ext) = match name.rsplit_once('.') {
        Some(parts) => parts,
        None => return false,
    };
    let (hash, width) = match stem.split_once('-') {
        Some((hash, width)) => (hash, Some(width)),
        None => (stem, None),
    };
    let hex = hash.len() == 16 && hash.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    let width_ok = |w: &str| (1..=5).contains(&w.len()) && w.bytes().all(|b| b.is_ascii_digit());
    hex && match (ext, width) {
        ("webp", Some(w)) => width_ok(w),
        ("svg", None) => true,
        _ => false,
    }
}

fn not_found() -> Response {
    (
        StatusCode::NOT_FOUND,
        [(CACHE_CONTROL, HeaderValue::from_static("no-cache"))],
        "Not found",
    )
        .into_response()
}

/// The largest piece of a file handed to the connection at once: it takes the next as the
/// client reads, so a client that stops reading is seen to stop.
const SLICE: usize = 64 * 1024;

/// A file's shared bytes as an answer's body, in slices of it (no copy).
struct Slices(Bytes);

impl http_body::Body for Slices {
    type Data = Bytes;
    type Error = std::convert::Infallible;

    fn poll_frame(
        mut self: Pin<&mut Self>,
        _cx: &mut Context<'_>,
    ) -> Poll<Option<Result<http_body::Frame<Bytes>, Self::Error>>> {
        if self.0.is_empty() {
            return Poll::Ready(None);
        }
        let len = self.0.len().min(SLICE);
        let slice = self.0.split_to(len);
        Poll::Ready(Some(Ok(http_body::Frame::data(slice))))
    }

    fn is_end_stream(&self) -> bool {
        self.0.is_empty()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        http_body::SizeHint::with_exact(self.0.len() as u64)
    }
}

fn shared_body(bytes: Bytes) -> Body {
    Body::new(Slices(bytes))
}

/// The headers of a file made from an upload, named `name`, of `content_type`.
fn file_headers(name: &str, content_type: &str, etag: &str) -> HeaderMap {
    let content_type = HeaderValue::from_str(content_type)
        .unwrap_or(HeaderValue::from_static("application/octet-stream"));
    let mut out = HeaderMap::new();
    out.insert(CONTENT_TYPE, content_type);
    out.insert(CACHE_CONTROL, HeaderValue::from_static(IMMUTABLE));
    out.insert(
        ETAG,
        HeaderValue::from_str(etag).expect("hex digits in quotes"),
    );
    out.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    if name.ends_with(".svg") {
        out.insert(
            CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(SVG_CONTENT_SECURITY_POLICY),
        );
    }
    out
}

/// `/media/{file}`: a file made from an upload, cached for good (its name changes with it).
pub async fn serve_file(
    State(state): State<AppState>,
    Path(name): Path<String>,
    headers: HeaderMap,
) -> Response {
    if !is_media_name(&name) {
        return not_found();
    }
    let etag = format!(
        "\"{}\"",
        name.rsplit_once('.').map_or(&*name, |(stem, _)| stem)
    );
    // Asked each time, without the bytes, so that a deleted file is gone on every instance.
    let content_type = match state.db.media_file_type(&name).await {
        Ok(Some(content_type)) => content_type,
        Ok(None) => return not_found(),
        Err(error) => return ApiError::from(error).into_response(),
    };
    let out = file_headers(&name, &content_type, &etag);
    if is_fresh(&headers, &etag) {
        return (StatusCode::NOT_MODIFIED, out).into_response();
    }
    // The name holds the file's hash: the same name is always the same bytes.
    let data = state
        .files
        .get(&format!("media:{name}"), || async {
            Ok(state.db.media_file(&name).await?.map(|file| file.data))
        })
        .await;
    match data {
        Ok(Some(data)) => (out, shared_body(data)).into_response(),
        Ok(None) => not_found(),
        Err(error) => ApiError::from(error).into_response(),
    }
}

/// `/resume.pdf` when one was uploaded: from the database, revalidated by its hash. `None` when
/// none was, so the bundled one is served.
pub async fn uploaded_resume(
    state: &AppState,
    files: &FileCache,
    headers: &HeaderMap,
) -> Option<Response> {
    let answer = async {
        let Some(sha256) = state.db.resume_sha256().await? else {
            return Ok(None);
        };
        let etag = format!("\"{}\"", &sha256[..32.min(sha256.len())]);
        let mut out = HeaderMap::new();
        out.insert(CONTENT_TYPE, HeaderValue::from_static("application/pdf"));
        out.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        out.insert(ETAG, HeaderValue::from_str(&etag)?);
        out.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
        if is_fresh(headers, &etag) {
            return Ok(Some((StatusCode::NOT_MODIFIED, out).into_response()));
        }
        let cached = files
            .get(&format!("resume:{sha256}"), || async {
                let resume = state.db.resume().await?;
                Ok(resume.filter(|r| r.sha256 == sha256).map(|r| r.data))
            })
            .await?;
        let data = match cached {
            Some(data) => data,
            None => {
                // Replaced since the hash was read: the newer file, under its own hash.
                let Some(resume) = state.db.resume().await? else {
                    return Ok(None);
                };
                let etag = format!("\"{}\"", &resume.sha256[..32.min(resume.sha256.len())]);
                out.insert(ETAG, HeaderValue::from_str(&etag)?);
                Bytes::from(resume.data)
            }
        };
        Ok::<_, anyhow::Error>(Some((out, shared_body(data)).into_response()))
    }
    .await;
    match answer {
        Ok(response) => response,
        Err(error) => Some(ApiError::from(error).into_response()),
    }
}

/// `/resume.pdf`: the uploaded one when the published document chooses it (or chooses nothing)
/// and there is one, else the one made from the published document (the site's, as
/// `/de/resume.pdf` is), else the bundled file; counted as a download when it is sent in full to
/// a visitor who may be counted, and for the application link of `?via=<slug>`.
pub async fn resume(State(state): State<AppState>, request: axum::extract::Request) -> Response {
    // Without its body (empty for a GET), the request is shared across the awaits below.
    let request = request.map(|_| ());
    let via = via(request.uri().query());
    serve_resume(&state, &request, RESUME_PATH, via, None).await
}

/// `/<tag>/resume.pdf`: a published language's resume (the uploaded one in every language when
/// the document chooses it), counted as `/resume.pdf` is; a 404 for any other segment.
pub async fn language_resume(
    State(state): State<AppState>,
    Path(_language): Path<String>,
    request: axum::extract::Request,
) -> Response {
    let request = request.map(|_| ());
    let via = via(request.uri().query());
    let path = request.uri().path().to_owned();
    serve_resume(&state, &request, &path, via, None).await
}

/// `/a/<slug>/resume.pdf`: the resume of an application link's page (its language's, with the
/// link's own choice of sections, projects and jobs while it is live), counted for the link. An
/// unknown, revoked or expired link's is the page's own, counted for no link, as its page
/// answers.
pub async fn link_resume(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    request: axum::extract::Request,
) -> Response {
    let request = request.map(|_| ());
    let published = state.content.current();
    let document = &published.document;
    let (tag, own) = state
        .links
        .directory
        .resume_of(&slug)
        .unwrap_or_else(|| (document.language.clone(), None));
    let tag = crate::content::language::published_tags(document)
        .into_iter()
        .find(|published| published.eq_ignore_ascii_case(&tag))
        .unwrap_or_else(|| document.language.clone());
    let path = match crate::content::language::href(document, &tag).as_str() {
        "/" => RESUME_PATH.to_owned(),
        page => format!("{}{}", page.trim_end_matches('/'), RESUME_PATH),
    };
    let made = own.and_then(|own| {
        let choice = own.over(&crate::content::resume::choice(document));
        crate::content::resume::Draft::of(document, &tag, &choice, published.published_at)
    });
    serve_resume(&state, &request, &path, Some(slug), made).await
}

/// The resume at the site's `path` (`/resume.pdf`, `/de/resume.pdf`), or a link's `own`, or the
/// uploaded one, as the published document chooses; a full download is counted, and for the
/// link `via` if any.
async fn serve_resume(
    state: &AppState,
    request: &axum::http::Request<()>,
    path: &str,
    via: Option<String>,
    own: Option<crate::content::resume::Draft>,
) -> Response {
    let source = state.content.current().document.resume.source;
    let uploaded = match source {
        Some(ResumeSource::Generated) => None,
        Some(ResumeSource::Uploaded) | None => {
            uploaded_resume(state, &state.files, request.headers()).await
        }
    };
    let response = match (uploaded, own) {
        (Some(uploaded), _) => uploaded,
        (None, Some(own)) => {
            let (pages, headers) = (state.pages.clone(), request.headers().clone());
            tokio::task::spawn_blocking(move || pages.link_resume(own, &headers))
                .await
                .ok()
                .flatten()
                .unwrap_or_else(|| crate::site::respond_at(&state.pages, request, path))
        }
        (None, None) => crate::site::respond_at(&state.pages, request, path),
    };
    if request.method() == Method::GET && response.status() == StatusCode::OK {
        let client = client_of(state, request);
        state.insights.record_download(request.headers(), client);
        if let Some(slug) = via {
            let site = site_host(state, request.headers());
            let from = Sender {
                client,
                headers: request.headers(),
                site: &site,
            };
            let (insights, contact) = (&state.insights, &state.contact);
            state
                .links
                .count_resume(insights, contact, from, &slug)
                .await;
        }
    }
    response
}

/// The application link a download came through: `?via=<slug>`.
fn via(query: Option<&str>) -> Option<String> {
    url::form_urlencoded::parse(query?.as_bytes())
        .find(|(name, _)| name == "via")
        .map(|(_, slug)| slug.into_owned())
}

/// The client of a request, as [`ClientIp`] reads it (for the download count, whose handler
/// takes the whole request).
fn client_of(state: &AppState, request: &axum::http::Request<()>) -> std::net::IpAddr {
    let peer = request
        .extensions()
        .get::<axum::extract::ConnectInfo<std::net::SocketAddr>>()
        .map_or(std::net::IpAddr::from([0, 0, 0, 0]), |info| info.0.ip());
    let trusted: &[ipnet::IpNet] = if state.settings.trust_proxy {
        &state.settings.limits.trusted_proxies
    } else {
        &[]
    };
    crate::http::extract::client_ip::client_address(peer, request.headers(), trusted)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_names_of_made_files_are_looked_up() {
        assert!(is_media_name("0123456789abcdef-640.webp"));
        assert!(is_media_name("0123456789abcdef.svg"));
        for bad in [
            "0123456789abcdef.webp",
            "0123456789abcdef-640.svg",
            "0123456789ABCDEF-640.webp",
            "0123456789abcde-640.webp",
            "../etc/passwd",
            "0123456789abcdef-.webp",
            "0123456789abcdef-123456.webp",
            "resume.pdf",
        ] {
            assert!(!is_media_name(bad), "{bad}");
        }
    }
}
