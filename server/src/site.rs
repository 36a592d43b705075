//! The React site, embedded in the binary at build time and served with the right caching
//! and a precompressed body chosen by `Accept-Encoding`.

use axum::body::Body;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use rust_embed::{EmbeddedFile, RustEmbed};

use crate::error::ApiError;

#[derive(RustEmbed)]
#[folder = "../web/dist/"]
#[exclude = ".vite/*"]
struct Site;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

/// The fallback handler: an asset when one exists, `index.html` for a client route,
/// a JSON 404 under `/api`, and a plain 404 for a missing file.
pub async fn serve(method: Method, uri: Uri, headers: HeaderMap) -> Response {
    let path = uri.path();
    if path == "/api" || path.starts_with("/api/") {
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
    let name = if name.is_empty() { "index.html" } else { name };
    if let Some(response) = asset(name, &headers) {
        return response;
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
    asset("index.html", &headers).unwrap_or_else(|| {
        (
            StatusCode::INTERNAL_SERVER_ERROR,
            "The site was not built into this binary.",
        )
            .into_response()
    })
}

/// Whether the built site holds a file of this name (used by tests and the pre-renderer checks).
pub fn contains(name: &str) -> bool {
    Site::get(name).is_some()
}

/// The original bytes of an embedded file.
pub fn file(name: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    Site::get(name).map(|f| f.data)
}

fn asset(name: &str, headers: &HeaderMap) -> Option<Response> {
    let original = Site::get(name)?;
    let mime = original.metadata.mimetype().to_owned();
    let etag = format!(
        "\"{}\"",
        hex::encode(&original.metadata.sha256_hash()[..16])
    );
    let cache = if name.starts_with("assets/") {
        IMMUTABLE
    } else {
        REVALIDATE
    };

    let mut builder = Response::builder()
        .header(header::CONTENT_TYPE, mime)
        .header(header::CACHE_CONTROL, cache)
        .header(header::VARY, "Accept-Encoding")
        .header(header::ETAG, &etag);

    if headers
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| tags.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
    {
        return builder
            .status(StatusCode::NOT_MODIFIED)
            .body(Body::empty())
            .ok();
    }

    let (file, encoding) = choose_encoding(name, headers).unwrap_or((original, None));
    if let Some(encoding) = encoding {
        builder = builder.header(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
    }
    builder
        .header(header::CONTENT_LENGTH, file.data.len())
        .body(Body::from(file.data))
        .ok()
}

/// The best precompressed variant the client accepts: Brotli, then gzip.
fn choose_encoding(
    name: &str,
    headers: &HeaderMap,
) -> Option<(EmbeddedFile, Option<&'static str>)> {
    let accepted = headers.get(header::ACCEPT_ENCODING)?.to_str().ok()?;
    for (token, suffix) in [("br", "br"), ("gzip", "gz")] {
        if accepts(accepted, token) {
            if let Some(file) = Site::get(&format!("{name}.{suffix}")) {
                return Some((file, Some(token)));
            }
        }
    }
    None
}

/// Whether an `Accept-Encoding` value accepts `token` (present, and not with `q=0`).
fn accepts(header_value: &str, token: &str) -> bool {
    header_value.split(',').any(|part| {
        let mut pieces = part.split(';').map(str::trim);
        let name = pieces.next().unwrap_or_default();
        let refused = pieces.any(|p| {
            p.strip_prefix("q=")
                .and_then(|q| q.parse::<f32>().ok())
                .is_some_and(|q| q <= 0.0)
        });
        name.eq_ignore_ascii_case(token) && !refused
    })
}

#[cfg(test)]
mod tests {
    use super::accepts;

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts("gzip, deflate, br", "br"));
        assert!(accepts("br;q=0.5, gzip", "br"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(!accepts("gzip", "br"));
        assert!(accepts("GZIP", "gzip"));
    }
}
