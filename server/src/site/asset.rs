//! The site's files as sent: each made once with its headers and its precompressed variants
//! ([`Asset`]), the body chosen by `Accept-Encoding`, revalidated by its ETag.

use std::io::Write;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{mpsc, Arc, Mutex, OnceLock};

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
    variants: Variants,
}

/// A file's compressed variants (none, for an embedded file the build did not compress).
#[derive(Default)]
pub(super) struct Encoded {
    pub(super) brotli: Option<Body>,
    pub(super) gzip: Option<Body>,
}

/// A file's compressed variants as served. What a publish makes is compressed quickly first, so
/// that the new pages are served at once, and then at the best effort by [`refine_later`], which
/// swaps the smaller variants in: the same bytes once decoded, so the ETag stays.
pub(super) struct Variants {
    encoded: arc_swap::ArcSwap<Encoded>,
    /// Whether they are already as small as they will get.
    refined: AtomicBool,
}

impl Variants {
    /// `data`'s variants made with `effort`.
    pub(super) fn of(data: &[u8], effort: Effort) -> Self {
        let (brotli, gzip) = compress(data, effort);
        Self {
            encoded: arc_swap::ArcSwap::from_pointee(Encoded {
                brotli: Some(Body::new(Bytes::from(brotli))),
                gzip: Some(Body::new(Bytes::from(gzip))),
            }),
            refined: AtomicBool::new(effort == Effort::Best),
        }
    }

    /// Variants made elsewhere (the build's), final as they are.
    fn made(encoded: Encoded) -> Self {
        Self {
            encoded: arc_swap::ArcSwap::from_pointee(encoded),
            refined: AtomicBool::new(true),
        }
    }

    pub(super) fn load(&self) -> arc_swap::Guard<Arc<Encoded>> {
        self.encoded.load()
    }

    /// Makes `data`'s variants at the best effort in place of the quick ones, once.
    pub(super) fn refine(&self, data: &[u8]) {
        if self.refined.swap(true, Ordering::AcqRel) {
            return;
        }
        let Self { encoded, .. } = Self::of(data, Effort::Best);
        self.encoded.store(encoded.load_full());
    }
}

/// What one publish made quickly, for [`refine_later`].
pub(super) type Refinements = Vec<Arc<dyn Refine>>;

/// A file whose variants [`refine_later`] makes smaller.
pub(super) trait Refine: Send + Sync {
    fn refine(&self);
}

impl Refine for Asset {
    fn refine(&self) {
        self.variants.refine(&self.identity.bytes);
    }
}

/// Compresses `files` at the best effort, one after another on a thread of its own, in the order
/// publishes made them. A file nobody serves by then (a later publish replaced it, and only this
/// queue still holds it) is skipped. A publish is answered once its pages are served, compressed
/// quickly (Brotli 4: a few milliseconds a page); Brotli 11 takes some 50 ms a page, which a post's
/// publish (the post, the index, the home page, the feeds, the sitemap) would otherwise wait for.
pub(super) fn refine_later(files: Refinements) {
    if files.is_empty() {
        return;
    }
    static QUEUE: OnceLock<Mutex<mpsc::Sender<Refinements>>> = OnceLock::new();
    // Publishes whose files are not refined yet; the log says when none is left (the browser tests
    // that weigh a published page wait for it).
    static PENDING: AtomicUsize = AtomicUsize::new(0);
    let queue = QUEUE.get_or_init(|| {
        let (send, receive) = mpsc::channel::<Refinements>();
        std::thread::Builder::new()
            .name("refine".to_owned())
            .spawn(move || {
                for files in receive {
                    let started = std::time::Instant::now();
                    let count = files.len();
                    let mut refined = 0;
                    for file in files {
                        if Arc::strong_count(&file) > 1 {
                            file.refine();
                            refined += 1;
                        }
                    }
                    crate::ops::memory::release_free_memory();
                    let pending = PENDING.fetch_sub(1, Ordering::AcqRel) - 1;
                    tracing::info!(
                        files = count,
                        refined,
                        ms = started.elapsed().as_secs_f64() * 1000.0,
                        pending,
                        "compressed a publish's files at the best effort"
                    );
                }
            })
            .expect("a thread can be started");
        Mutex::new(send)
    });
    PENDING.fetch_add(1, Ordering::AcqRel);
    // The thread lives as long as the process: sending cannot fail.
    let _ = queue
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
        .send(files);
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
fn bytes(data: &'static [u8]) -> Body {
    Body::new(Bytes::from_static(data))
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
        data: impl Into<Bytes>,
        effort: Option<Effort>,
    ) -> Self {
        let data: Bytes = data.into();
        let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&data)[..16]));
        let variants = match effort {
            Some(effort) => Variants::of(&data, effort),
            None => Variants::made(Encoded::default()),
        };
        Asset {
            content_type: HeaderValue::from_static(content_type),
            cache: HeaderValue::from_static(REVALIDATE),
            etag: HeaderValue::from_str(&etag).expect("hex digits in quotes make a header value"),
            identity: Body::new(data),
            variants,
        }
    }

    pub(super) fn all() -> std::collections::HashMap<&'static str, Asset> {
        Site.files()
            .filter_map(|(name, data)| {
                let etag = format!("\"{}\"", hex::encode(&Sha256::digest(data)[..16]));
                let content_type = mime_guess::from_path(name).first_or_octet_stream();
                let asset = Asset {
                    content_type: HeaderValue::from_str(content_type.as_ref()).ok()?,
                    cache: HeaderValue::from_static(if name.starts_with("assets/") {
                        IMMUTABLE
                    } else {
                        REVALIDATE
                    }),
                    etag: HeaderValue::from_str(&etag).ok()?,
                    identity: bytes(data),
                    variants: Variants::made(Encoded {
                        brotli: Site.get(&format!("{name}.br")).map(bytes),
                        gzip: Site.get(&format!("{name}.gz")).map(bytes),
                    }),
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
        let encoded = self.variants.load();
        let (body, encoding) = match (&encoded.brotli, &encoded.gzip) {
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
    use super::{accepts, Asset, Variants};
    use crate::config::Effort;
    use std::io::Read;

    fn unbrotli(bytes: &[u8]) -> Vec<u8> {
        let mut out = Vec::new();
        brotli::Decompressor::new(bytes, 4096)
            .read_to_end(&mut out)
            .expect("Brotli");
        out
    }

    #[test]
    fn quick_variants_are_refined_once_to_smaller_ones_of_the_same_bytes() {
        let text: Vec<u8> = (0..4000)
            .map(|i| format!("<li class=\"item-{}\">entry {i}</li>", i % 17))
            .collect::<String>()
            .into_bytes();
        let variants = Variants::of(&text, Effort::Quick);
        let quick = variants.load().brotli.clone().expect("a Brotli variant");
        variants.refine(&text);
        let best = variants.load().brotli.clone().expect("a Brotli variant");
        assert!(best.len() < quick.len(), "{} < {}", best.len(), quick.len());
        assert_eq!(unbrotli(&best.bytes), text);
        assert_eq!(unbrotli(&quick.bytes), text);
        // Refined already: a second call keeps what is there.
        variants.refine(b"other bytes");
        assert_eq!(
            unbrotli(&variants.load().brotli.clone().unwrap().bytes),
            text
        );
        // Made at the best effort, it is never made again.
        let best_first = Variants::of(&text, Effort::Best);
        best_first.refine(b"other bytes");
        assert_eq!(
            unbrotli(&best_first.load().brotli.clone().unwrap().bytes),
            text
        );
    }

    #[test]
    fn a_refined_asset_keeps_its_etag() {
        let asset = Asset::generated(
            "application/json",
            b"{\"a\":1}".repeat(500),
            Some(Effort::Quick),
        );
        let before = asset.etag.clone();
        super::Refine::refine(&asset);
        assert_eq!(asset.etag, before);
        assert!(asset.variants.load().gzip.is_some());
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts("gzip, deflate, br", "br"));
        assert!(accepts("br;q=0.5, gzip", "br"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(!accepts("gzip", "br"));
        assert!(accepts("GZIP", "gzip"));
    }
}
