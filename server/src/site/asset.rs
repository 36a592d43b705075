//! The site's files as sent: each made once with its headers and its precompressed variants
//! ([`Asset`]), the body chosen by `Accept-Encoding`, revalidated by its ETag.

use std::io::Write;

use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::Response;
use sha2::{Digest, Sha256};

use super::built::{Site, IMMUTABLE, REVALIDATE};
use crate::conditional::is_fresh;
use crate::config::Effort;

/// An embedded file ready to send: its headers made and its precompressed variants found once.
pub(super) struct Asset {
    content_type: HeaderValue,
    cache: HeaderValue,
    etag: HeaderValue,
    pub(super) identity: Body,
    brotli: Option<Body>,
    gzip: Option<Body>,
}

/// A body ready to send, with its `Content-Length` made once.
#[derive(Clone)]
pub(super) struct Body {
    pub(super) bytes: Bytes,
    pub(super) length: HeaderValue,
}

impl Body {
    pub(super) fn new(bytes: Bytes) -> Self {
        Self {
            length: HeaderValue::from(bytes.len()),
            bytes,
        }
    }

    pub(super) fn len(&self) -> usize {
        self.bytes.len()
    }
}

/// An embedded file's bytes, borrowed from the binary when they are in it (release builds).
fn bytes(data: std::borrow::Cow<'static, [u8]>) -> Body {
    Body::new(match data {
        std::borrow::Cow::Borrowed(data) => Bytes::from_static(data),
        std::borrow::Cow::Owned(data) => Bytes::from(data),
    })
}

/// How many headers a response from here ends up with: its own six, the security headers, the
/// request id and hyper's `Date`. Reserved at once, the map never grows (and rehashes) on the way.
const HEADERS_SENT: usize = 18;

/// A response with `body` and room for every header it will carry.
pub(super) fn new_response(body: axum::body::Body) -> Response {
    let mut response = Response::new(body);
    response.headers_mut().reserve(HEADERS_SENT);
    response
}

pub(super) const VARY: HeaderValue = HeaderValue::from_static("Accept-Encoding");
pub(super) const BR: HeaderValue = HeaderValue::from_static("br");
pub(super) const GZIP: HeaderValue = HeaderValue::from_static("gzip");

/// A file the server makes once, outside the site's build (the API's description): compressed
/// with Brotli and gzip, chosen by `Accept-Encoding`, with an ETag of its bytes and its own
/// `Cache-Control`. Made at its first request, not at start-up: compressing 100 KB at Brotli's
/// best took a third of each start's CPU, for a file few clients ask for.
pub struct GeneratedFile {
    content_type: &'static str,
    cache: &'static str,
    make: Box<dyn Fn() -> Vec<u8> + Send + Sync>,
    made: std::sync::OnceLock<Asset>,
}

impl GeneratedFile {
    pub fn new(
        content_type: &'static str,
        cache: &'static str,
        make: impl Fn() -> Vec<u8> + Send + Sync + 'static,
    ) -> Self {
        Self {
            content_type,
            cache,
            make: Box::new(make),
            made: std::sync::OnceLock::new(),
        }
    }

    /// The answer to a GET (or HEAD) with these headers: a 304 when `If-None-Match` names it.
    pub fn respond(&self, headers: &HeaderMap) -> Response {
        self.made
            .get_or_init(|| {
                let mut asset =
                    Asset::generated(self.content_type, (self.make)(), Some(Effort::Best));
                asset.cache = HeaderValue::from_static(self.cache);
                asset
            })
            .respond(headers)
    }
}

impl Asset {
    /// A file the server makes from the document: revalidated, with an ETag of its bytes, and
    /// with its Brotli and gzip variants made with `effort` when it has one (text).
    pub(super) fn generated(
        content_type: &'static str,
        data: Vec<u8>,
        effort: Option<Effort>,
    ) -> Self {
        let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&data)[..16]));
        let compressed = effort.map(|effort| compress(&data, effort));
        let (brotli, gzip) = compressed.map_or((None, None), |(brotli, gzip)| {
            (
                Some(Body::new(Bytes::from(brotli))),
                Some(Body::new(Bytes::from(gzip))),
            )
        });
        Asset {
            content_type: HeaderValue::from_static(content_type),
            cache: HeaderValue::from_static(REVALIDATE),
            etag: HeaderValue::from_str(&etag).expect("hex digits in quotes make a header value"),
            identity: Body::new(Bytes::from(data)),
            brotli,
            gzip,
        }
    }

    pub(super) fn all() -> std::collections::HashMap<&'static str, Asset> {
        Site::iter()
            .filter_map(|name| {
                let std::borrow::Cow::Borrowed(name) = name else {
                    return None; // rust-embed names embedded files with static strings
                };
                let file = Site::get(name)?;
                let etag = format!("\"{}\"", hex::encode(&file.metadata.sha256_hash()[..16]));
                let asset = Asset {
                    content_type: HeaderValue::from_str(file.metadata.mimetype()).ok()?,
                    cache: HeaderValue::from_static(if name.starts_with("assets/") {
                        IMMUTABLE
                    } else {
                        REVALIDATE
                    }),
                    etag: HeaderValue::from_str(&etag).ok()?,
                    identity: bytes(file.data),
                    brotli: Site::get(&format!("{name}.br")).map(|f| bytes(f.data)),
                    gzip: Site::get(&format!("{name}.gz")).map(|f| bytes(f.data)),
                };
                Some((name, asset))
            })
            .collect()
    }

    pub(super) fn respond(&self, headers: &HeaderMap) -> Response {
        if is_fresh(headers, self.etag.as_bytes()) {
            let mut response = new_response(axum::body::Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            let out = response.headers_mut();
            out.insert(header::CONTENT_TYPE, self.content_type.clone());
            out.insert(header::CACHE_CONTROL, self.cache.clone());
            out.insert(header::VARY, VARY);
            out.insert(header::ETAG, self.etag.clone());
            return response;
        }
        let accepted = accepted_encodings(headers);
        let (body, encoding) = match (&self.brotli, &self.gzip) {
            (Some(brotli), _) if accepts(accepted, "br") => (brotli, Some(BR)),
            (_, Some(gzip)) if accepts(accepted, "gzip") => (gzip, Some(GZIP)),
            _ => (&self.identity, None),
        };
        let mut response = new_response(axum::body::Body::from(body.bytes.clone()));
        let out = response.headers_mut();
        out.insert(header::CONTENT_TYPE, self.content_type.clone());
        out.insert(header::CACHE_CONTROL, self.cache.clone());
        out.insert(header::VARY, VARY);
        out.insert(header::ETAG, self.etag.clone());
        if let Some(encoding) = encoding {
            out.insert(header::CONTENT_ENCODING, encoding);
        }
        out.insert(header::CONTENT_LENGTH, body.length.clone());
        response
    }
}

/// A page's data file, `page-data.json`: revalidated, with its ETag and compressed variants.
pub(super) fn page_data(json: Vec<u8>, effort: Effort) -> Asset {
    Asset::generated("application/json", json, Some(effort))
}

/// `data` compressed with Brotli and with gzip.
pub(super) fn compress(data: &[u8], effort: Effort) -> (Vec<u8>, Vec<u8>) {
    let (quality, level) = match effort {
        Effort::Best => (11, flate2::Compression::best()),
        Effort::Quick => (4, flate2::Compression::default()),
    };
    let mut brotli = Vec::new();
    {
        // A window just large enough for the file: the same compression, and the encoder's
        // tables stay small (with the largest window they take tens of megabytes, which the
        // allocator then keeps for the life of the process).
        let window = window_bits(data.len());
        let mut writer = brotli::CompressorWriter::new(&mut brotli, 4096, quality, window);
        writer
            .write_all(data)
            .expect("compressing into memory cannot fail");
    }
    let mut gzip = flate2::write::GzEncoder::new(Vec::new(), level);
    gzip.write_all(data)
        .expect("compressing into memory cannot fail");
    let gzip = gzip.finish().expect("compressing into memory cannot fail");
    (brotli, gzip)
}

/// The smallest Brotli window (10 to 24 bits) that holds `length` bytes, with the 16 bytes the
/// format keeps back.
fn window_bits(length: usize) -> u32 {
    (10..24).find(|bits| length + 16 <= 1 << bits).unwrap_or(24)
}

/// The request's `Accept-Encoding`, empty when absent or not text.
pub(super) fn accepted_encodings(headers: &HeaderMap) -> &str {
    headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// Whether an `Accept-Encoding` value accepts `token` (present, and not with `q=0`).
pub(super) fn accepts(header_value: &str, token: &str) -> bool {
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
