//! What the site answers a request: the published page its path maps to (one map, see
//! [`Pages`]), a link's page (its language's page), a file, the app shell, or a 404.

use std::sync::Arc;

use axum::http::{header, HeaderMap, HeaderValue, Method, Request, StatusCode};
use axum::response::{IntoResponse, Response};

use super::asset::new_response;
use super::built::REVALIDATE;
use super::page::noindex;
use super::pages::{Pages, Published, PublishedPages, ResumeFiles};
use crate::addresses::{Routed, API, LINK_PREFIX};
use crate::content::composed::PAGE_DATA_FILE;
use crate::content::head::PREVIEW_PATH;
use crate::content::resume;
use crate::error::ApiError;

/// The fallback's answer: an asset when one exists, the pre-rendered page of a published path
/// (`/`, `/de/`), a link's page, the app shell (marked `noindex`) for any other client route, a
/// JSON 404 under `/api`, a plain 404 for a missing file, and the error page (the app shell in
/// the visitor's scheme) with a 404 for any other path, so that the client draws the designed
/// error page while search engines and link checkers see a real 404.
pub fn answer<B>(pages: &Pages, links: &crate::links::Directory, request: &Request<B>) -> Response {
    let path = request.uri().path();
    if let Some(slug) = link_slug(path) {
        if matches!(*request.method(), Method::GET | Method::HEAD) {
            return link_page(
                pages,
                request.headers(),
                links.page_language_of(slug).as_deref(),
            );
        }
    }
    respond(pages, request)
}

/// The slug of an application link's address, `/a/<slug>` (one segment, not empty).
fn link_slug(path: &str) -> Option<&str> {
    path.strip_prefix(LINK_PREFIX)
        .filter(|slug| !slug.is_empty() && !slug.contains('/'))
}

/// An application link's page: the published page of the link's language (the same bytes,
/// ETag and encodings as at its own path, with that page's canonical and CSP), or `/`'s when
/// the language is no longer published or the slug is unknown. A revoked or expired link answers
/// exactly as it did while live (its language's page), so that its address does not give away
/// that it was revoked; it counts nothing (the beacons check it is live). Never indexed; nothing
/// is counted here, as a link-preview fetcher or a mail scanner fetches the page and nothing more
/// (the page's beacon counts).
fn link_page(pages: &Pages, headers: &HeaderMap, language: Option<&str>) -> Response {
    let published = pages.published.load();
    let page = language
        .and_then(|tag| published.get(&format!("/{}/", tag.to_ascii_lowercase())))
        .unwrap_or_else(|| root(&published));
    page.page.respond(headers, Some(noindex()))
}

/// `/`'s entry, which every map of published pages has (see [`Pages::show`]).
fn root(published: &PublishedPages) -> &Arc<Published> {
    published.get("/").expect("/ is always published")
}

/// What [`answer`] answers to a request that is not a link's page.
pub fn respond<B>(pages: &Pages, request: &Request<B>) -> Response {
    respond_at(pages, request, request.uri().path())
}

/// What [`respond`] answers to `request` as if it asked for `path` (a link's resume is its
/// language's).
pub fn respond_at<B>(pages: &Pages, request: &Request<B>, path: &str) -> Response {
    let (method, headers) = (request.method(), request.headers());
    if Routed::Tree(API).matches(path) {
        return ApiError::NotFound.into_response();
    }
    if method != Method::GET && method != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
        )
            .into_response();
    }

    let name = path.trim_start_matches('/');
    let published = pages.published.load();
    match name {
        "" | "index.html" => return root(&published).page.respond(headers, None),
        "app.html" => return root(&published).shell.respond(headers, Some(noindex())),
        "robots.txt" => return pages.robots.respond(headers, None),
        "sitemap.xml" => return pages.sitemap.load().respond(headers, None),
        "manifest.webmanifest" => return pages.manifest.load().respond(headers),
        _ => {}
    }
    // The path with its leading slashes made one (`//de/` is `/de/`).
    let key = path
        .len()
        .checked_sub(name.len() + 1)
        .map_or(path, |start| &path[start..]);
    if let Some(feed) = pages.feeds.load().get(key) {
        return feed.respond(headers);
    }
    if let Some(response) = published_file(pages, &published, key, headers) {
        return response;
    }
    if let Some(asset) = pages.assets.get(name) {
        return asset.respond(headers);
    }
    if let Some(response) = to_published_page(&published, key, request.uri().query()) {
        return response;
    }
    if let Some(response) = moved(pages, key, request.uri().query()) {
        return response;
    }
    // /login, /dashboard: useful to people, not to search engines.
    if pages.routes.matches(path) {
        return root(&published).shell.respond(headers, Some(noindex()));
    }
    let last_segment = name.rsplit('/').next().unwrap_or_default();
    if last_segment.contains('.') {
        return (
            StatusCode::NOT_FOUND,
            [(header::CACHE_CONTROL, REVALIDATE)],
            "Not found",
        )
            .into_response();
    }
    // Under a published page's path, its own error page (in its language); `/`'s elsewhere.
    let under = name
        .split_once('/')
        .and_then(|(segment, _)| published.get(&format!("/{segment}/")));
    under
        .unwrap_or_else(|| root(&published))
        .missing
        .not_found(headers, Some(noindex()))
}

/// What the map of published pages holds at `key` (`/de/`, `/de/page-data.json`,
/// `/og-image.png`, `/de/resume.pdf`): a page, its data, its link preview or its resume; `None`
/// for any other path.
fn published_file(
    pages: &Pages,
    published: &PublishedPages,
    key: &str,
    headers: &HeaderMap,
) -> Option<Response> {
    let under = |file: &str| key.strip_suffix(file).filter(|page| page.ends_with('/'));
    if key.ends_with('/') {
        return published
            .get(key)
            .map(|page| page.page.respond(headers, None));
    }
    if let Some(page) = under(PAGE_DATA_FILE) {
        return published.get(page).map(|page| page.data.respond(headers));
    }
    for (file, pick) in RESUME_FILES {
        if let Some(page) = under(file) {
            return pages
                .resumes
                .load()
                .get(page)
                .and_then(|resume| resume.files().map(|files| pick(files).respond(headers)));
        }
    }
    if let Some(page) = under(PREVIEW_PATH.trim_start_matches('/')) {
        return pages
            .previews
            .load()
            .get(page)
            .and_then(|preview| preview.asset().map(|asset| asset.respond(headers)));
    }
    None
}

/// A page's resume files by their name under the page's path. `/resume.pdf` itself is the
/// router's (the uploaded resume or this one: `http::api::media::resume`).
type PickFile = fn(&ResumeFiles) -> &super::asset::Asset;
const RESUME_FILES: [(&str, PickFile); 3] = [
    (resume::PDF_FILE, |files| &files.pdf),
    (resume::JSON_FILE, |files| &files.json),
    (resume::TEXT_FILE, |files| &files.text),
];

/// A redirect from a published page's path without its slash (`/de`, 308 to `/de/`), the query
/// kept; `None` for any other path.
fn to_published_page(
    published: &PublishedPages,
    key: &str,
    query: Option<&str>,
) -> Option<Response> {
    let page = format!("{key}/");
    if key == "/" || !published.contains_key(&page) {
        return None;
    }
    let location = match query {
        Some(query) => format!("{page}?{query}"),
        None => page,
    };
    let mut response = new_response(axum::body::Body::empty());
    *response.status_mut() = StatusCode::PERMANENT_REDIRECT;
    let out = response.headers_mut();
    out.insert(header::LOCATION, HeaderValue::from_str(&location).ok()?);
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
    Some(response)
}

/// A 301 from an address a page had (a case study's former slug, `/projects/old/`, with or
/// without its last slash) to the page's address now, the query kept; `None` for any other path.
fn moved(pages: &Pages, key: &str, query: Option<&str>) -> Option<Response> {
    let redirects = pages.redirects.load();
    if redirects.is_empty() {
        return None;
    }
    let to = redirects
        .get(key)
        .or_else(|| redirects.get(&format!("{key}/")))?;
    let location = match query {
        Some(query) => format!("{to}?{query}"),
        None => to.clone(),
    };
    let mut response = new_response(axum::body::Body::empty());
    *response.status_mut() = StatusCode::MOVED_PERMANENTLY;
    let out = response.headers_mut();
    out.insert(header::LOCATION, HeaderValue::from_str(&location).ok()?);
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
    Some(response)
}
