//! The React site, embedded in the binary at build time and served with the right caching
//! and a precompressed body chosen by `Accept-Encoding`. The two HTML pages, `robots.txt` and
//! `sitemap.xml` carry the public URL, rendered into them once at start-up. The client routes
//! come from the build (`routes.json`), so a path that is neither a route nor a file is a 404.
//! The landing page's stylesheet and the head's scheme script are inline: each HTML page's inline
//! styles and scripts are hashed here when the page is made, and the hashes go with every answer
//! that serves it, so the CSP on that answer allows exactly them.

use std::io::Write;
use std::sync::Arc;

use arc_swap::ArcSwap;
use axum::body::Bytes;
use axum::http::Request;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use axum::response::{IntoResponse, Response};
use base64::Engine as _;
use rust_embed::RustEmbed;
use sha2::{Digest, Sha256};
use url::Url;

use crate::conditional::is_fresh;
use crate::config::Effort;
use crate::error::ApiError;
use crate::http::layers::security::{InlineHashes, PagePolicy};

#[derive(RustEmbed)]
#[folder = "../web/dist/"]
#[exclude = ".vite/*"]
// The render bundle and the page templates: the server's own (`content::render`), never served.
#[exclude = ".render/*"]
struct Site;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";

/// What the build writes wherever the public URL belongs (canonical link, `og:url`, `og:image`,
/// JSON-LD); replaced by the real one at start-up. `.invalid` can never resolve (RFC 2606).
pub const PUBLIC_URL_PLACEHOLDER: &str = "https://portfolio.invalid";

/// The file a published page's data is served from, under the page's path (`/page-data.json`,
/// `/de/page-data.json`): see `content::render`.
pub const PAGE_DATA_FILE: &str = "page-data.json";

/// The pages for one document: `/` around its render, each published language's page, and the
/// app shell (its data inline).
pub struct Composed {
    pub index: ComposedPage,
    pub shell: String,
    /// Each published language's page but the default one, by its path segment (`de`, `pt-br`).
    pub languages: Vec<(String, ComposedLanguage)>,
    /// Every published language's tag and path (`/`, `/de/`), the default first: the sitemap.
    pub published: Vec<(String, String)>,
}

/// A published language's page, and the app shell in that language: the error page of the
/// addresses under its path that do not exist (`/de/no-such-page`), with its `lang`, `dir` and
/// texts.
pub struct ComposedLanguage {
    pub page: ComposedPage,
    pub shell: String,
}

/// A published page: its HTML, and its data (`page-data.json` beside it), which the HTML names.
pub struct ComposedPage {
    pub html: String,
    pub data: String,
}

/// The pages whose text depends on the public URL, rendered and compressed once at start-up.
pub struct Pages {
    /// The base URL without a trailing slash, e.g. `https://example.com`.
    base: String,
    /// How hard the pages and their data are compressed.
    effort: Effort,
    /// `/`: the pre-rendered landing page, replaced at once when a new version is published.
    index: ArcSwap<Page>,
    /// Every other client route: the same head and scripts around an empty root.
    shell: ArcSwap<Page>,
    /// `/page-data.json`: what `/` is hydrated from.
    data: ArcSwap<Asset>,
    /// `/<tag>/` and `/<tag>/page-data.json`: each published language's page but the default
    /// one's, by its path segment, with its error page.
    languages: ArcSwap<std::collections::HashMap<String, Arc<LanguagePages>>>,
    robots: Page,
    /// `/sitemap.xml`: `/` and each published language's page.
    sitemap: ArcSwap<Page>,
    /// `/manifest.webmanifest`, `/og-image.png` and each language's `/<tag>/og-image.png`: made
    /// from the published document at start-up and at each publish (see `content::render`).
    manifest: ArcSwap<Asset>,
    preview: ArcSwap<Asset>,
    language_previews: ArcSwap<std::collections::HashMap<String, Asset>>,
    /// The client routes, as the build listed them.
    routes: Routes,
    /// Every embedded file, its headers made once (no work per request but a lookup).
    assets: std::collections::HashMap<&'static str, Asset>,
}

/// An embedded file ready to send: its headers made and its precompressed variants found once.
struct Asset {
    content_type: HeaderValue,
    cache: HeaderValue,
    etag: HeaderValue,
    identity: Body,
    brotli: Option<Body>,
    gzip: Option<Body>,
}

/// A body ready to send, with its `Content-Length` made once.
#[derive(Clone)]
struct Body {
    bytes: Bytes,
    length: HeaderValue,
}

impl Body {
    fn new(bytes: Bytes) -> Self {
        Self {
            length: HeaderValue::from(bytes.len()),
            bytes,
        }
    }

    fn len(&self) -> usize {
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
fn new_response(body: axum::body::Body) -> Response {
    let mut response = Response::new(body);
    response.headers_mut().reserve(HEADERS_SENT);
    response
}

const VARY: HeaderValue = HeaderValue::from_static("Accept-Encoding");
const BR: HeaderValue = HeaderValue::from_static("br");
const GZIP: HeaderValue = HeaderValue::from_static("gzip");

const MANIFEST_TYPE: &str = "application/manifest+json";

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
    fn generated(content_type: &'static str, data: Vec<u8>, effort: Option<Effort>) -> Self {
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

    fn all() -> std::collections::HashMap<&'static str, Asset> {
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

    fn respond(&self, headers: &HeaderMap) -> Response {
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

/// What a published language serves: its page, the page's data, and the app shell in the
/// language, which answers its unknown addresses.
struct LanguagePages {
    page: Page,
    data: Asset,
    shell: Page,
}

struct Page {
    content_type: HeaderValue,
    /// The hash sources of an HTML page's inline styles and scripts; none for other pages. The
    /// answers carry the policy made of them; the tests read them.
    #[cfg_attr(not(test), expect(dead_code))]
    inline: InlineHashes,
    /// The CSP allowing them, made once with the page, which goes with every answer that
    /// serves it, in place of the default one (see `http::layers::security`).
    policy: Option<PagePolicy>,
    etag: HeaderValue,
    identity: Body,
    brotli: Body,
    gzip: Body,
}

impl Pages {
    /// Renders the pages for a site reached at `public_url`, compressed with `effort`.
    pub fn render(public_url: &Url, effort: Effort) -> Self {
        let base = base_url(public_url);
        let html = |name: &str| {
            let template = Site::get(name)
                .map(|file| String::from_utf8_lossy(&file.data).into_owned())
                .unwrap_or_else(|| "<!doctype html><title>Portfolio</title><p>The site was not built into this binary.".to_owned());
            Page::new(
                "text/html; charset=utf-8",
                template.replace(PUBLIC_URL_PLACEHOLDER, &base),
                effort,
            )
        };
        let index = html("index.html");
        let shell = if contains("app.html") {
            html("app.html")
        } else {
            html("index.html")
        };
        let robots = Page::new(
            "text/plain; charset=utf-8",
            format!("User-agent: *\nDisallow: /api/\n\nSitemap: {base}/sitemap.xml\n"),
            effort,
        );
        let sitemap = Page::new(
            "application/xml; charset=utf-8",
            sitemap(&base, &[]),
            effort,
        );
        let routes = Routes::from_build();
        let data = page_data(
            Site::get(PAGE_DATA_FILE).map_or_else(Vec::new, |file| file.data.into_owned()),
            effort,
        );
        Self {
            base,
            effort,
            index: ArcSwap::from_pointee(index),
            data: ArcSwap::from_pointee(data),
            shell: ArcSwap::from_pointee(shell),
            languages: ArcSwap::from_pointee(Default::default()),
            robots,
            sitemap: ArcSwap::from_pointee(sitemap),
            manifest: ArcSwap::from_pointee(Asset::generated(MANIFEST_TYPE, Vec::new(), None)),
            preview: ArcSwap::from_pointee(Asset::generated("image/png", Vec::new(), None)),
            language_previews: ArcSwap::from_pointee(Default::default()),
            routes,
            assets: Asset::all(),
        }
    }

    /// Serves `/` and the app shell as composed for a newly published document; the hashes of
    /// their inline styles and scripts are taken with them, so the CSP served with a page is
    /// always that page's.
    pub fn show(&self, composed: Composed) {
        // At start-up with the build's own document the pages are already these: compressing
        // them again (Brotli at its best, the slow part) would only delay start-up.
        let index = composed
            .index
            .html
            .replace(PUBLIC_URL_PLACEHOLDER, &self.base);
        let shell = composed.shell.replace(PUBLIC_URL_PLACEHOLDER, &self.base);
        if self.shell.load().identity.bytes != shell.as_bytes() {
            self.shell.store(Arc::new(Page::new(
                "text/html; charset=utf-8",
                shell,
                self.effort,
            )));
        }
        // Each language's page made again only when it or its data changed, as `/` is.
        let served = self.languages.load_full();
        let languages = composed
            .languages
            .into_iter()
            .map(|(segment, language)| {
                let html = language
                    .page
                    .html
                    .replace(PUBLIC_URL_PLACEHOLDER, &self.base);
                let shell = language.shell.replace(PUBLIC_URL_PLACEHOLDER, &self.base);
                let data = language.page.data;
                let served = served.get(&segment);
                let unchanged = |page: &Page, text: &[u8]| page.identity.bytes == text;
                let page = match served {
                    Some(served)
                        if unchanged(&served.page, html.as_bytes())
                            && served.data.identity.bytes == data.as_bytes()
                            && unchanged(&served.shell, shell.as_bytes()) =>
                    {
                        served.clone()
                    }
                    _ => Arc::new(LanguagePages {
                        page: Page::new("text/html; charset=utf-8", html, self.effort),
                        data: page_data(data.into_bytes(), self.effort),
                        shell: Page::new("text/html; charset=utf-8", shell, self.effort),
                    }),
                };
                (segment, page)
            })
            .collect();
        let sitemap = sitemap(&self.base, &composed.published);
        if self.sitemap.load().identity.bytes != sitemap.as_bytes() {
            self.sitemap.store(Arc::new(Page::new(
                "application/xml; charset=utf-8",
                sitemap,
                self.effort,
            )));
        }
        self.languages.store(Arc::new(languages));
        // Both made (compressed) first, then the data swapped in just before the page that
        // names it: a new page never hydrates from old data, nor the data runs ahead of its page.
        let data = (self.data.load().identity.bytes != composed.index.data.as_bytes())
            .then(|| page_data(composed.index.data.into_bytes(), self.effort));
        let index = (self.index.load().identity.bytes != index.as_bytes())
            .then(|| Page::new("text/html; charset=utf-8", index, self.effort));
        if let Some(data) = data {
            self.data.store(Arc::new(data));
        }
        if let Some(index) = index {
            self.index.store(Arc::new(index));
        }
    }

    /// Serves the manifest and the link previews made for a newly published document: the
    /// default language's, and each language's by its path segment.
    pub fn show_files(
        &self,
        manifest: String,
        preview: Vec<u8>,
        languages: Vec<(String, Vec<u8>)>,
    ) {
        self.manifest.store(Arc::new(Asset::generated(
            MANIFEST_TYPE,
            manifest.into_bytes(),
            Some(self.effort),
        )));
        self.language_previews.store(Arc::new(
            languages
                .into_iter()
                .map(|(segment, png)| (segment, Asset::generated("image/png", png, None)))
                .collect(),
        ));
        self.preview
            .store(Arc::new(Asset::generated("image/png", preview, None)));
    }

    /// An HTML page composed on demand (the draft preview), with the public URL in.
    pub fn with_base(&self, html: &str) -> String {
        html.replace(PUBLIC_URL_PLACEHOLDER, &self.base)
    }

    /// The public URL the pages were rendered for, without a trailing slash.
    pub fn base(&self) -> &str {
        &self.base
    }
}

/// The sitemap: `/` alone, as before languages existed, or, with more than one published
/// language, each language's page with its alternates and `x-default` (`/`).
fn sitemap(base: &str, published: &[(String, String)]) -> String {
    if published.len() < 2 {
        return format!(
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
             <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n\
             \x20 <url><loc>{base}/</loc></url>\n\
             </urlset>\n"
        );
    }
    let escape = crate::content::head::escape_html;
    let mut alternates = String::new();
    for (tag, path) in published {
        alternates.push_str(&format!(
            "    <xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{base}{}\"/>\n",
            escape(tag),
            escape(path)
        ));
    }
    alternates.push_str(&format!(
        "    <xhtml:link rel=\"alternate\" hreflang=\"x-default\" href=\"{base}/\"/>\n"
    ));
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n\
         <urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
         xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
    );
    for (_, path) in published {
        xml.push_str(&format!(
            "  <url>\n    <loc>{base}{}</loc>\n{alternates}  </url>\n",
            escape(path)
        ));
    }
    xml.push_str("</urlset>\n");
    xml
}

/// The hash sources of the inline `<style>` and `<script>` elements of `html`, each taken over
/// the element's exact text as the browser does, in the order they come, without repeats. The
/// pages are our build's output, which writes the elements in lower case.
pub fn inline_hashes(html: &[u8]) -> InlineHashes {
    let html = String::from_utf8_lossy(html);
    let mut hashes = InlineHashes::default();
    for (_, text) in elements(&html, "style") {
        push_hash(&mut hashes.styles, text);
    }
    for (attributes, text) in elements(&html, "script") {
        let runs = attribute(attributes, "src").is_none()
            && attribute(attributes, "type").is_none_or(|kind| {
                let kind = kind.trim().to_ascii_lowercase();
                kind.is_empty() || kind == "module" || kind == "text/javascript"
            });
        if runs {
            push_hash(&mut hashes.scripts, text);
        }
    }
    hashes
}

fn push_hash(hashes: &mut Vec<String>, text: &str) {
    let digest = Sha256::digest(text.as_bytes());
    let hash = format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    );
    if !hashes.contains(&hash) {
        hashes.push(hash);
    }
}

/// Each `<name …>…</name>` element of `html`: its opening tag's attributes and its text.
fn elements<'a>(html: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    let (open, close) = (format!("<{name}"), format!("</{name}"));
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(&open) {
        rest = &rest[start + open.len()..];
        if !rest.starts_with(['>', ' ', '\t', '\n', '\r', '/']) {
            continue; // another element whose name begins with this one's
        }
        let Some(open_end) = rest.find('>') else {
            break;
        };
        let attributes = &rest[..open_end];
        rest = &rest[open_end + 1..];
        let Some(end) = rest.find(&close) else {
            break;
        };
        found.push((attributes, &rest[..end]));
        rest = &rest[end..];
    }
    found
}

/// The value of the attribute `name` in an opening tag's attributes (empty for one without a
/// value), `None` when it is absent. Names are matched ignoring case, as HTML does.
fn attribute<'a>(attributes: &'a str, name: &str) -> Option<&'a str> {
    static ATTRIBUTE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    ATTRIBUTE
        .get_or_init(|| {
            regex::Regex::new(r#"([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?"#)
                .expect("a valid pattern")
        })
        .captures_iter(attributes)
        .find(|found| found[1].eq_ignore_ascii_case(name))
        .map(|found| {
            found
                .get(2)
                .or_else(|| found.get(3))
                .or_else(|| found.get(4))
                .map_or("", |value| value.as_str())
        })
}

/// `scheme://host[:port][/path]` without a trailing slash, query or fragment, so that it can be
/// written into HTML, JSON and XML as it is (the `url` crate has already percent-encoded it).
fn base_url(url: &Url) -> String {
    let mut url = url.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.as_str().trim_end_matches('/').to_owned()
}

impl Page {
    fn new(content_type: &'static str, text: String, effort: Effort) -> Self {
        let inline = if content_type.starts_with("text/html") {
            inline_hashes(text.as_bytes())
        } else {
            InlineHashes::default()
        };
        let policy = PagePolicy::for_page(&inline);
        let identity = Bytes::from(text.into_bytes());
        let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&identity)[..16]));
        let (brotli, gzip) = compress(&identity, effort);
        Self {
            content_type: HeaderValue::from_static(content_type),
            inline,
            policy,
            etag: HeaderValue::from_str(&etag).expect("hex digits in quotes make a header value"),
            identity: Body::new(identity),
            brotli: Body::new(Bytes::from(brotli)),
            gzip: Body::new(Bytes::from(gzip)),
        }
    }

    fn respond(&self, headers: &HeaderMap, extra: Option<(HeaderName, HeaderValue)>) -> Response {
        if is_fresh(headers, self.etag.as_bytes()) {
            let mut response = new_response(axum::body::Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            self.headers(&mut response, extra);
            response
                .headers_mut()
                .insert(header::ETAG, self.etag.clone());
            return response;
        }
        let mut response = self.body(headers);
        self.headers(&mut response, extra);
        response
            .headers_mut()
            .insert(header::ETAG, self.etag.clone());
        response
    }

    /// The page as the body of a 404: no ETag, so a cache never turns it into a 304.
    fn not_found(&self, headers: &HeaderMap, extra: Option<(HeaderName, HeaderValue)>) -> Response {
        let mut response = self.body(headers);
        *response.status_mut() = StatusCode::NOT_FOUND;
        self.headers(&mut response, extra);
        response
    }

    fn headers(&self, response: &mut Response, extra: Option<(HeaderName, HeaderValue)>) {
        let out = response.headers_mut();
        if let Some(policy) = &self.policy {
            out.insert(header::CONTENT_SECURITY_POLICY, policy.value());
        }
        out.insert(header::CONTENT_TYPE, self.content_type.clone());
        out.insert(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
        out.insert(header::VARY, VARY);
        if let Some((name, value)) = extra {
            out.insert(name, value);
        }
    }

    /// The body in the best encoding the client accepts.
    fn body(&self, headers: &HeaderMap) -> Response {
        let accepted = accepted_encodings(headers);
        let (body, encoding) = if accepts(accepted, "br") && self.brotli.len() < self.identity.len()
        {
            (&self.brotli, Some(BR))
        } else if accepts(accepted, "gzip") && self.gzip.len() < self.identity.len() {
            (&self.gzip, Some(GZIP))
        } else {
            (&self.identity, None)
        };
        let mut response = new_response(axum::body::Body::from(body.bytes.clone()));
        let out = response.headers_mut();
        if let Some(encoding) = encoding {
            out.insert(header::CONTENT_ENCODING, encoding);
        }
        out.insert(header::CONTENT_LENGTH, body.length.clone());
        response
    }
}

/// A page's data file, `page-data.json`: revalidated, with its ETag and compressed variants.
fn page_data(json: Vec<u8>, effort: Effort) -> Asset {
    Asset::generated("application/json", json, Some(effort))
}

/// `data` compressed with Brotli and with gzip.
fn compress(data: &[u8], effort: Effort) -> (Vec<u8>, Vec<u8>) {
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

/// The fallback handler: an asset when one exists, the pre-rendered page at `/`, the app shell
/// (marked `noindex`) for any other client route, a JSON 404 under `/api`, a plain 404 for a
/// missing file, and the app shell with a 404 for any other path, so that the client draws the
/// designed error page while search engines and link checkers see a real 404.
pub fn serve<B>(pages: &Pages, links: &crate::links::Directory, request: &Request<B>) -> Response {
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
    path.strip_prefix("/a/")
        .filter(|slug| !slug.is_empty() && !slug.contains('/'))
}

/// An application link's page: the pre-rendered page of the link's language (the same bytes,
/// ETag and encodings as at its own path, with that page's canonical and CSP), or `/`'s when
/// the language is no longer published or the slug is unknown. A revoked or expired link answers
/// exactly as it did while live (its language's page), so that its address does not give away
/// that it was revoked; it counts nothing (the beacons check it is live). Never indexed; nothing is counted here, as a link-preview
/// fetcher or a mail scanner fetches the page and nothing more (the page's beacon counts).
pub fn link_page(pages: &Pages, headers: &HeaderMap, language: Option<&str>) -> Response {
    if let Some(tag) = language {
        if let Some(language) = pages.languages.load().get(&tag.to_ascii_lowercase()) {
            return language.page.respond(headers, Some(noindex()));
        }
    }
    pages.index.load().respond(headers, Some(noindex()))
}

/// What [`serve`] answers to `request`.
pub fn respond<B>(pages: &Pages, request: &Request<B>) -> Response {
    let (method, path, headers) = (request.method(), request.uri().path(), request.headers());
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
    match name {
        "" | "index.html" => return pages.index.load().respond(headers, None),
        "app.html" => return pages.shell.load().respond(headers, Some(noindex())),
        "robots.txt" => return pages.robots.respond(headers, None),
        "sitemap.xml" => return pages.sitemap.load().respond(headers, None),
        "manifest.webmanifest" => return pages.manifest.load().respond(headers),
        "og-image.png" => return pages.preview.load().respond(headers),
        PAGE_DATA_FILE => return pages.data.load().respond(headers),
        _ => {}
    }
    if let Some(response) = language_page(pages, request, name) {
        return response;
    }
    if let Some(asset) = pages.assets.get(name) {
        return asset.respond(headers);
    }
    // /login, /dashboard: useful to people, not to search engines.
    if pages.routes.matches(path) {
        return pages.shell.load().respond(headers, Some(noindex()));
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
    // Under a published language's path, its own error page; the default language's elsewhere.
    if let Some(language) = name
        .split_once('/')
        .and_then(|(segment, _)| pages.languages.load().get(segment).cloned())
    {
        return language.shell.not_found(headers, Some(noindex()));
    }
    pages.shell.load().not_found(headers, Some(noindex()))
}

/// A published language's page (`de/`), its link preview (`de/og-image.png`), or a redirect from
/// its path without the slash (`de`, 308 to `/de/`); `None` for any other path.
fn language_page<B>(pages: &Pages, request: &Request<B>, name: &str) -> Option<Response> {
    let headers = request.headers();
    if let Some(segment) = name.strip_suffix('/') {
        return pages
            .languages
            .load()
            .get(segment)
            .map(|language| language.page.respond(headers, None));
    }
    if let Some(segment) = name
        .strip_suffix(PAGE_DATA_FILE)
        .and_then(|rest| rest.strip_suffix('/'))
    {
        return pages
            .languages
            .load()
            .get(segment)
            .map(|language| language.data.respond(headers));
    }
    if let Some(segment) = name.strip_suffix(crate::content::head::PREVIEW_PATH) {
        return pages
            .language_previews
            .load()
            .get(segment)
            .map(|asset| asset.respond(headers));
    }
    if !pages.languages.load().contains_key(name) {
        return None;
    }
    let location = match request.uri().query() {
        Some(query) => format!("/{name}/?{query}"),
        None => format!("/{name}/"),
    };
    let mut response = new_response(axum::body::Body::empty());
    *response.status_mut() = StatusCode::PERMANENT_REDIRECT;
    let out = response.headers_mut();
    out.insert(header::LOCATION, HeaderValue::from_str(&location).ok()?);
    out.insert(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
    Some(response)
}

/// The client routes as URL patterns (`/`, `/login`, `/posts/:id`, `/docs/*`), listed by the
/// build from `web/src/routes.tsx` into `routes.json`, and matched as React Router matches them:
/// segment by segment, ignoring case, percent-decoding and a trailing slash.
#[derive(Debug)]
struct Routes {
    /// Each pattern, split into segments; `None` when the build has no list, which makes every
    /// path a route (the behaviour before the list existed) rather than a 404.
    patterns: Option<Vec<Vec<String>>>,
}

impl Routes {
    fn from_build() -> Self {
        let patterns = file("routes.json").and_then(|json| {
            serde_json::from_slice::<Vec<String>>(&json)
                .inspect_err(|e| tracing::warn!("routes.json is not a list of paths: {e}"))
                .ok()
        });
        if patterns.is_none() && contains("index.html") {
            tracing::warn!("the built site has no routes.json: every path is answered as a route");
        }
        Self::new(patterns)
    }

    fn new(patterns: Option<Vec<String>>) -> Self {
        let patterns = patterns.map(|patterns| {
            patterns
                .iter()
                .map(|pattern| segments(pattern).map(str::to_lowercase).collect())
                .collect()
        });
        Self { patterns }
    }

    fn matches(&self, path: &str) -> bool {
        let Some(patterns) = &self.patterns else {
            return true;
        };
        let path: Vec<String> = segments(path)
            .map(|segment| percent_decode(segment).to_lowercase())
            .collect();
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        patterns
            .iter()
            .any(|pattern| matches_segments(pattern, &path))
    }
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|segment| !segment.is_empty())
}

/// React Router's segments: `*` takes the rest (even nothing), `:name` any one segment, and a
/// trailing `?` makes a segment optional; anything else is literal.
fn matches_segments(pattern: &[String], path: &[&str]) -> bool {
    let Some((first, rest)) = pattern.split_first() else {
        return path.is_empty();
    };
    if first == "*" {
        return true;
    }
    let (segment, optional) = match first.strip_suffix('?') {
        Some(segment) => (segment, true),
        None => (first.as_str(), false),
    };
    let here = path
        .first()
        .is_some_and(|actual| segment.starts_with(':') || segment == *actual);
    (here && matches_segments(rest, &path[1..])) || (optional && matches_segments(rest, path))
}

/// `%XX` escapes decoded, as the browser's router decodes a path before matching it (a broken
/// escape is kept as it is).
fn percent_decode(segment: &str) -> String {
    percent_encoding::percent_decode_str(segment)
        .decode_utf8_lossy()
        .into_owned()
}

fn noindex() -> (HeaderName, HeaderValue) {
    (
        HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex"),
    )
}

/// The request's `Accept-Encoding`, empty when absent or not text.
fn accepted_encodings(headers: &HeaderMap) -> &str {
    headers
        .get(header::ACCEPT_ENCODING)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

/// Whether the built site holds a file of this name (used by tests and the pre-renderer checks).
pub fn contains(name: &str) -> bool {
    Site::get(name).is_some()
}

/// The original bytes of an embedded file.
pub fn file(name: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    Site::get(name).map(|f| f.data)
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
    use super::{accepts, base_url, inline_hashes, percent_decode, Page, Routes};

    fn routes(patterns: &[&str]) -> Routes {
        Routes::new(Some(patterns.iter().map(|p| (*p).to_owned()).collect()))
    }

    #[test]
    fn static_routes_match_as_the_client_router_matches_them() {
        let routes = routes(&["/", "/login", "/dashboard"]);
        for path in [
            "/",
            "/login",
            "/login/",
            "/Login",
            "/dashboard",
            "/log%69n",
            "//login",
        ] {
            assert!(routes.matches(path), "{path}");
        }
        for path in [
            "/no-such-page",
            "/login/extra",
            "/dashboard/x",
            "/logi",
            "/%",
        ] {
            assert!(!routes.matches(path), "{path}");
        }
    }

    #[test]
    fn parameters_optional_segments_and_splats_match() {
        let routes = routes(&["/posts/:id", "/docs/*", "/:lang?/about", "/shop/new?"]);
        assert!(routes.matches("/posts/42"));
        assert!(!routes.matches("/posts"));
        assert!(!routes.matches("/posts/42/comments"));
        assert!(routes.matches("/docs"));
        assert!(routes.matches("/docs/a/b/c"));
        assert!(routes.matches("/about"));
        assert!(routes.matches("/en/about"));
        assert!(!routes.matches("/en/fr/about"));
        assert!(routes.matches("/shop"));
        assert!(routes.matches("/shop/new"));
        assert!(!routes.matches("/shop/old"));
    }

    #[test]
    fn without_a_list_every_path_is_a_route() {
        assert!(Routes::new(None).matches("/anything/at/all"));
    }

    #[test]
    fn percent_escapes_are_decoded_and_broken_ones_kept() {
        assert_eq!(percent_decode("caf%C3%A9"), "café");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
    }

    #[test]
    fn each_inline_style_is_hashed_over_its_exact_text() {
        // Known values: `printf '%s' 'body{color:red}' | openssl dgst -sha256 -binary | base64`.
        let html = b"<head><style>body{color:red}</style><stylesheet></stylesheet>\
            <style media=\"print\">\n</style><style>body{color:red}</style></head>";
        assert_eq!(
            inline_hashes(html).styles,
            [
                "sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E=",
                "sha256-AbpHGcgLb+kRsJGnwFEktk7uzpZOCcBY74+YBdrKVGs=",
            ]
        );
        assert!(inline_hashes(b"<p>no style</p>").is_empty());
    }

    #[test]
    fn inline_scripts_that_run_are_hashed_and_data_blocks_and_files_are_not() {
        // `printf '%s' 'alert(1)' | openssl dgst -sha256 -binary | base64`
        let alert = "sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=";
        for script in [
            "<script>alert(1)</script>",
            "<script type=\"module\">alert(1)</script>",
            "<script type='text/javascript'>alert(1)</script>",
            "<script TYPE=\"Module\" nonce>alert(1)</script>",
            "<script type=\"\">alert(1)</script>",
        ] {
            let hashes = inline_hashes(script.as_bytes());
            assert_eq!(hashes.scripts, [alert], "{script}");
            assert!(hashes.styles.is_empty());
        }
        for script in [
            "<script type=\"application/json\" id=\"page-data\">alert(1)</script>",
            "<script type=\"application/json\" id=\"page-data\" src=\"/page-data.json\"></script>",
            "<script type=\"application/ld+json\">alert(1)</script>",
            "<script type=\"module\" crossorigin src=\"/assets/index.js\"></script>",
            "<script src=/a.js>alert(1)</script>",
            "<scripts>alert(1)</scripts>",
            "<noscript>alert(1)</noscript>",
        ] {
            assert!(inline_hashes(script.as_bytes()).is_empty(), "{script}");
        }
        // The text between the tags exactly, whitespace and all; one hash for repeats.
        let page = "<head><script>\nalert(1)\n</script><script>alert(1)</script>\
                    <script>alert(1)</script></head>";
        assert_eq!(inline_hashes(page.as_bytes()).scripts.len(), 2);
    }

    #[test]
    fn an_html_page_carries_its_hashes_and_other_pages_none() {
        let html = Page::new(
            "text/html; charset=utf-8",
            "<style>body{color:red}</style><script>alert(1)</script>".to_owned(),
            crate::config::Effort::Quick,
        );
        assert_eq!(html.inline.styles.len(), 1);
        assert_eq!(html.inline.scripts.len(), 1);
        let text = Page::new(
            "text/plain; charset=utf-8",
            "<style>x</style>".to_owned(),
            crate::config::Effort::Quick,
        );
        assert!(text.inline.is_empty());
    }

    #[test]
    fn accept_encoding_is_read_with_its_weights() {
        assert!(accepts("gzip, deflate, br", "br"));
        assert!(accepts("br;q=0.5, gzip", "br"));
        assert!(!accepts("br;q=0, gzip", "br"));
        assert!(!accepts("gzip", "br"));
        assert!(accepts("GZIP", "gzip"));
    }

    #[test]
    fn the_base_url_has_no_trailing_slash_query_or_fragment() {
        let base = |s: &str| base_url(&s.parse().unwrap());
        assert_eq!(base("https://example.com"), "https://example.com");
        assert_eq!(base("https://example.com/"), "https://example.com");
        assert_eq!(
            base("http://127.0.0.1:8080/?a=1&b=2#x"),
            "http://127.0.0.1:8080"
        );
        assert_eq!(base("https://example.com/me/"), "https://example.com/me");
    }
}
