//! The pages whose text depends on the public URL and the published document, by path.

use std::collections::HashMap;
use std::sync::Arc;

use arc_swap::ArcSwap;
use url::Url;

use super::asset::{page_data, refine_later, Asset, Refine, Refinements};
use super::built::{contains, file, Site};
use super::page::Page;
use super::routes::Routes;
use crate::config::Effort;
use crate::content::composed::{
    Composed, ComposedFiles, ComposedPage, PageSink, PAGE_DATA_FILE, PUBLIC_URL_PLACEHOLDER,
};
use crate::content::preview::Drawing;

const HTML: &str = "text/html; charset=utf-8";
const MANIFEST_TYPE: &str = "application/manifest+json";

/// A published page as served: the page, its data (`page-data.json` beside it), the app shell in
/// its language, and the error page that answers the addresses under its path that do not exist
/// (the same page as the shell but for `/`, whose shell answers the app's own pages, `/login`,
/// `/dashboard`, and keeps their dark look).
pub(super) struct Published {
    pub(super) page: Arc<Page>,
    pub(super) data: Arc<Asset>,
    pub(super) shell: Arc<Page>,
    pub(super) missing: Arc<Page>,
}

/// The published pages by path (`/`, `/de/`); `/` is always there.
pub(super) type PublishedPages = HashMap<String, Arc<Published>>;

/// The pages whose text depends on the public URL, rendered and compressed once at start-up.
pub struct Pages {
    /// The base URL without a trailing slash, e.g. `https://example.com`.
    base: String,
    /// How hard the pages and their data are compressed.
    effort: Effort,
    /// The one map a published page is answered from, by its path: `/` (the pre-rendered
    /// landing page) and each published language's `/<tag>/`, each with its data and its error
    /// page, replaced at once when a new version is published. At start-up, `/` as built.
    pub(super) published: ArcSwap<PublishedPages>,
    /// Each published page's link preview by the page's path (`/og-image.png`,
    /// `/de/og-image.png`), and `/manifest.webmanifest`: made from the published document at
    /// start-up and at each publish (see `content::render`).
    pub(super) previews: ArcSwap<HashMap<String, Arc<Preview>>>,
    /// Each published page's resume by the page's path (`/` serves `/resume.json`, `/de/`
    /// `/de/resume.pdf`): made after each publish that changes what it says.
    pub(super) resumes: ArcSwap<HashMap<String, Arc<Resume>>>,
    /// The resumes of application links with a choice of their own, by what they are made from:
    /// made at their first request, kept while the published document says the same (at most
    /// [`LINK_RESUMES`]).
    link_resumes: std::sync::Mutex<HashMap<[u8; 32], Arc<Resume>>>,
    pub(super) manifest: ArcSwap<Asset>,
    pub(super) robots: Page,
    /// `/sitemap.xml`: `/`, each published language's page, and each case study's.
    pub(super) sitemap: ArcSwap<Page>,
    /// The feeds of the published posts by path (`/feed.xml`, `/de/rss.xml`): only a language
    /// with a post has them.
    pub(super) feeds: ArcSwap<HashMap<String, Feed>>,
    /// The addresses that answer with a 301 to another (a case study's former slugs), by path.
    pub(super) redirects: ArcSwap<HashMap<String, String>>,
    /// The client routes, as the build listed them.
    pub(super) routes: Routes,
    /// Every embedded file, its headers made once (no work per request but a lookup).
    pub(super) assets: HashMap<&'static str, Asset>,
}

impl Pages {
    /// Renders the pages for a site reached at `public_url`, compressed with `effort`.
    pub fn render(public_url: &Url, effort: Effort) -> Self {
        let base = base_url(public_url);
        let html = |name: &str| {
            let template = Site
                .get(name)
                .map(|file| String::from_utf8_lossy(file).into_owned())
                .unwrap_or_else(|| "<!doctype html><title>Portfolio</title><p>The site was not built into this binary.".to_owned());
            Page::new(
                HTML,
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
            sitemap(&base, &[], &[]),
            effort,
        );
        let routes = Routes::from_build();
        let data = page_data(
            Site.get(PAGE_DATA_FILE)
                .map_or_else(Vec::new, <[u8]>::to_vec),
            effort,
        );
        // Until the first document is rendered (at start-up), the error page is the shell.
        let shell = Arc::new(shell);
        let root = Published {
            page: Arc::new(index),
            data: Arc::new(data),
            missing: shell.clone(),
            shell,
        };
        Self {
            base,
            effort,
            published: ArcSwap::from_pointee(HashMap::from([("/".to_owned(), Arc::new(root))])),
            previews: ArcSwap::from_pointee(HashMap::new()),
            resumes: ArcSwap::from_pointee(HashMap::new()),
            link_resumes: std::sync::Mutex::new(HashMap::new()),
            manifest: ArcSwap::from_pointee(Asset::generated(MANIFEST_TYPE, Vec::new(), None)),
            robots,
            sitemap: ArcSwap::from_pointee(sitemap),
            redirects: ArcSwap::from_pointee(HashMap::new()),
            feeds: ArcSwap::from_pointee(HashMap::new()),
            routes,
            assets: Asset::all(),
        }
    }

    /// The answer with the resume of an application link made from `draft` (made now if it was
    /// not yet, else kept from before); `None` if it cannot be made (logged).
    pub fn link_resume(
        &self,
        draft: crate::content::resume::Draft,
        headers: &axum::http::HeaderMap,
    ) -> Option<axum::response::Response> {
        let key = draft.key();
        let resume = {
            let mut kept = self.link_resumes.lock().unwrap_or_else(|e| e.into_inner());
            if kept.len() >= LINK_RESUMES && !kept.contains_key(&key) {
                kept.clear();
            }
            kept.entry(key)
                .or_insert_with(|| Arc::new(Resume::new(draft, self.base.clone(), self.effort)))
                .clone()
        };
        Some(resume.files()?.pdf.respond(headers))
    }

    /// An HTML page composed on demand (the draft preview), with the public URL in.
    pub fn with_base(&self, html: &str) -> String {
        html.replace(PUBLIC_URL_PLACEHOLDER, &self.base)
    }

    /// The public URL the pages were rendered for, without a trailing slash.
    pub fn base(&self) -> &str {
        &self.base
    }

    /// The map of published pages for `composed`: each part made (compressed) again only when it
    /// changed, as at start-up with the build's own document, whose pages are already these
    /// (compressing them again, Brotli at its best, would only delay start-up). `/` stays
    /// whatever happens, so that every address has its page.
    fn published(
        &self,
        composed: Vec<(String, ComposedPage)>,
        refine: &mut Refinements,
    ) -> PublishedPages {
        let served = self.published.load_full();
        // The error pages many paths share (a language's, its case studies') made once.
        let mut made: Vec<Arc<Page>> = Vec::new();
        let mut published = PublishedPages::new();
        for (path, page) in composed {
            let html = page.html.replace(PUBLIC_URL_PLACEHOLDER, &self.base);
            let shell = page.shell.replace(PUBLIC_URL_PLACEHOLDER, &self.base);
            let missing = page.missing.replace(PUBLIC_URL_PLACEHOLDER, &self.base);
            let served = served.get(&path);
            let mut page_again = |served: Option<&Arc<Page>>, text: String| {
                if let Some(page) = served.filter(|page| page.identity.bytes == text.as_bytes()) {
                    return page.clone();
                }
                if let Some(page) = made
                    .iter()
                    .find(|page| page.identity.bytes == text.as_bytes())
                {
                    return page.clone();
                }
                let page = Arc::new(Page::new(HTML, text, Effort::Quick));
                made.push(page.clone());
                page
            };
            let data = match served {
                Some(served) if served.data.identity.bytes == page.data.as_bytes() => {
                    served.data.clone()
                }
                _ => {
                    let data = Arc::new(page_data(page.data.into_bytes(), Effort::Quick));
                    refine.push(data.clone());
                    data
                }
            };
            let missing_is_shell = missing == shell;
            let shell = page_again(served.map(|served| &served.shell), shell);
            let missing = if missing_is_shell {
                shell.clone()
            } else {
                page_again(served.map(|served| &served.missing), missing)
            };
            let entry = Published {
                page: page_again(served.map(|served| &served.page), html),
                data,
                shell,
                missing,
            };
            published.insert(path, Arc::new(entry));
        }
        if let Some(root) = served.get("/") {
            published
                .entry("/".to_owned())
                .or_insert_with(|| root.clone());
        }
        refine.extend(made.into_iter().map(|page| page as Arc<dyn Refine>));
        published
    }

    /// Compresses what a publish made quickly at the pages' own effort, after it is served (see
    /// [`refine_later`]); the server's own tests, which compress quickly anyway, skip it.
    fn refine(&self, files: Refinements) {
        if self.effort == Effort::Best {
            refine_later(files);
        }
    }
}

/// Where `content::render` puts a newly published document's pages.
impl PageSink for Pages {
    /// Serves the pages, the manifest and the link previews composed for a newly published
    /// document; the hashes of the pages' inline styles and scripts are taken with them, so the
    /// CSP served with a page is always that page's. The map is swapped whole: a new page never
    /// hydrates from old data, nor the data runs ahead of its page.
    fn show(&self, composed: Composed, files: ComposedFiles) {
        let mut refine: Refinements = Vec::new();
        let manifest = files.manifest.into_bytes();
        if self.manifest.load().identity.bytes != manifest {
            let manifest = Arc::new(Asset::generated(
                MANIFEST_TYPE,
                manifest,
                Some(Effort::Quick),
            ));
            refine.push(manifest.clone());
            self.manifest.store(manifest);
        }
        // Each preview not served yet is drawn after the publish is answered, before the pages
        // are compressed again: a link shared at once is fetched first.
        let served = self.previews.load();
        let mut drawings: Refinements = Vec::new();
        let previews = files
            .previews
            .into_iter()
            .map(|(path, drawing)| {
                let same = served.get(&path).filter(|old| old.is(&drawing)).cloned();
                let preview = same.unwrap_or_else(|| {
                    let preview = Arc::new(Preview::new(drawing));
                    drawings.push(preview.clone());
                    preview
                });
                (path, preview)
            })
            .collect();
        self.previews.store(Arc::new(previews));
        refine.splice(0..0, drawings);
        let served = self.resumes.load();
        let resumes = files
            .resumes
            .into_iter()
            .map(|(path, draft)| {
                let same = served
                    .get(&path)
                    .filter(|old| old.draft.key() == draft.key())
                    .cloned();
                let resume = same.unwrap_or_else(|| {
                    let resume = Arc::new(Resume::new(draft, self.base.clone(), self.effort));
                    refine.push(resume.clone());
                    resume
                });
                (path, resume)
            })
            .collect();
        self.resumes.store(Arc::new(resumes));
        let published = self.published(composed.pages, &mut refine);
        let sitemap = sitemap(&self.base, &composed.published, &composed.case_studies);
        self.redirects
            .store(Arc::new(composed.redirects.into_iter().collect()));
        if self.sitemap.load().identity.bytes != sitemap.as_bytes() {
            let sitemap = Arc::new(Page::new(
                "application/xml; charset=utf-8",
                sitemap,
                Effort::Quick,
            ));
            refine.push(sitemap.clone());
            self.sitemap.store(sitemap);
        }
        self.published.store(Arc::new(published));
        self.refine(refine);
    }

    fn show_feeds(&self, feeds: Vec<crate::content::feeds::ComposedFeed>) {
        let served = self.feeds.load();
        let mut refine: Refinements = Vec::new();
        let feeds = feeds
            .into_iter()
            .map(|feed| {
                let text = feed.text.replace(PUBLIC_URL_PLACEHOLDER, &self.base);
                // Compressed again only when it changed.
                let same = served
                    .get(&feed.path)
                    .filter(|old| old.asset.identity.bytes == text.as_bytes());
                let asset = match same {
                    Some(old) => old.asset.clone(),
                    None => {
                        let asset = Arc::new(Asset::generated(
                            feed.content_type,
                            text.into_bytes(),
                            Some(Effort::Quick),
                        ));
                        refine.push(asset.clone());
                        asset
                    }
                };
                (feed.path, Feed::new(asset, feed.modified))
            })
            .collect();
        self.feeds.store(Arc::new(feeds));
        self.refine(refine);
    }

    fn built_file(&self, path: &str) -> Option<Vec<u8>> {
        file(path).map(<[u8]>::to_vec)
    }
}

/// A published page's link preview as served: drawn at its first request or by the background
/// thread after the publish (see [`refine_later`]), whichever comes first.
pub(super) struct Preview {
    drawing: Arc<Drawing>,
    asset: std::sync::OnceLock<Option<Asset>>,
}

impl Preview {
    fn new(drawing: Arc<Drawing>) -> Self {
        Self {
            drawing,
            asset: std::sync::OnceLock::new(),
        }
    }

    /// Whether it serves `drawing`.
    fn is(&self, drawing: &Arc<Drawing>) -> bool {
        Arc::ptr_eq(&self.drawing, drawing)
    }

    /// The picture, drawn now if it was not yet; `None` if it cannot be drawn (logged).
    pub(super) fn asset(&self) -> Option<&Asset> {
        self.asset
            .get_or_init(|| {
                let png = self.drawing.png()?;
                Some(Asset::generated("image/png", png, None))
            })
            .as_ref()
    }
}

impl Refine for Preview {
    fn refine(&self) {
        self.asset();
    }
}

/// The most application links' own resumes kept at once.
const LINK_RESUMES: usize = 64;

/// A published page's resume as served: made at its first request or by the background thread
/// after the publish (see [`refine_later`]), whichever comes first.
pub(super) struct Resume {
    draft: crate::content::resume::Draft,
    base: String,
    /// How hard the JSON and the text are compressed (the PDF's streams are already).
    effort: Effort,
    files: std::sync::OnceLock<Option<ResumeFiles>>,
}

/// A resume's three files, ready to serve.
pub(super) struct ResumeFiles {
    pub(super) pdf: Asset,
    pub(super) json: Asset,
    pub(super) text: Asset,
}

impl Resume {
    fn new(draft: crate::content::resume::Draft, base: String, effort: Effort) -> Self {
        Self {
            draft,
            base,
            effort,
            files: std::sync::OnceLock::new(),
        }
    }

    /// The files, made now if they were not yet; `None` if they cannot be made (logged).
    pub(super) fn files(&self) -> Option<&ResumeFiles> {
        self.files
            .get_or_init(|| match self.draft.make(&self.base) {
                Ok(made) => Some(ResumeFiles {
                    pdf: Asset::generated("application/pdf", made.pdf.pdf, None),
                    json: Asset::generated(
                        "application/json",
                        made.json.into_bytes(),
                        Some(self.effort),
                    ),
                    text: Asset::generated(
                        "text/plain; charset=utf-8",
                        made.text.into_bytes(),
                        Some(self.effort),
                    ),
                }),
                Err(error) => {
                    tracing::error!(
                        error = %format!("{error:#}"),
                        language = %self.draft.language(),
                        "the resume could not be made"
                    );
                    None
                }
            })
            .as_ref()
    }
}

impl Refine for Resume {
    fn refine(&self) {
        self.files();
    }
}

/// A feed as served: its file, and its last change for `Last-Modified` and `If-Modified-Since`
/// (feed readers poll; most send both validators back).
pub(super) struct Feed {
    asset: Arc<Asset>,
    /// Whole seconds, as HTTP dates have them.
    modified: i64,
    last_modified: axum::http::HeaderValue,
}

impl Feed {
    fn new(asset: Arc<Asset>, modified_ms: i64) -> Self {
        let modified = modified_ms.div_euclid(1000);
        let date = chrono::DateTime::from_timestamp(modified, 0).unwrap_or_default();
        let last_modified = axum::http::HeaderValue::from_str(
            &date.format("%a, %d %b %Y %H:%M:%S GMT").to_string(),
        )
        .expect("a date is a header value");
        Self {
            asset,
            modified,
            last_modified,
        }
    }

    /// The feed, or a 304 when `If-None-Match` names it or (without `If-None-Match`, as RFC
    /// 9110 13.2.2 orders them) `If-Modified-Since` is not before its last change.
    pub(super) fn respond(&self, headers: &axum::http::HeaderMap) -> axum::response::Response {
        use axum::http::{header, StatusCode};
        let unchanged_since = !headers.contains_key(header::IF_NONE_MATCH)
            && headers
                .get(header::IF_MODIFIED_SINCE)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| chrono::DateTime::parse_from_rfc2822(v).ok())
                .is_some_and(|since| since.timestamp() >= self.modified);
        let mut response = self.asset.respond(headers);
        if unchanged_since && response.status() == StatusCode::OK {
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            *response.body_mut() = axum::body::Body::empty();
            response.headers_mut().remove(header::CONTENT_LENGTH);
            response.headers_mut().remove(header::CONTENT_ENCODING);
        }
        response
            .headers_mut()
            .insert(header::LAST_MODIFIED, self.last_modified.clone());
        response
    }
}

/// The sitemap: each page by its address. A page in one language is its address alone, as
/// before languages existed; one in several (the languages' pages, a translated case study) lists
/// each with its alternates and `x-default`, the default language's. `published` is the
/// languages' pages, `case_studies` each case study's addresses, the default language's first.
fn sitemap(
    base: &str,
    published: &[(String, String)],
    case_studies: &[Vec<(String, String)>],
) -> String {
    let escape = crate::content::head::escape_html;
    let root = [("en".to_owned(), "/".to_owned())];
    let languages: &[(String, String)] = if published.is_empty() {
        &root
    } else {
        published
    };
    let groups: Vec<&[(String, String)]> = std::iter::once(languages)
        .chain(case_studies.iter().map(Vec::as_slice))
        .filter(|group| !group.is_empty())
        .collect();
    let several = groups.iter().any(|group| group.len() > 1);
    let mut xml = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    if several {
        xml.push_str(
            "<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\" \
             xmlns:xhtml=\"http://www.w3.org/1999/xhtml\">\n",
        );
    } else {
        xml.push_str("<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n");
    }
    for group in groups {
        if group.len() < 2 {
            for (_, path) in group {
                xml.push_str(&format!("  <url><loc>{base}{}</loc></url>\n", escape(path)));
            }
            continue;
        }
        let mut alternates = String::new();
        for (tag, path) in group {
            alternates.push_str(&format!(
                "    <xhtml:link rel=\"alternate\" hreflang=\"{}\" href=\"{base}{}\"/>\n",
                escape(tag),
                escape(path)
            ));
        }
        alternates.push_str(&format!(
            "    <xhtml:link rel=\"alternate\" hreflang=\"x-default\" href=\"{base}{}\"/>\n",
            escape(&group[0].1)
        ));
        for (_, path) in group {
            xml.push_str(&format!(
                "  <url>\n    <loc>{base}{}</loc>\n{alternates}  </url>\n",
                escape(path)
            ));
        }
    }
    xml.push_str("</urlset>\n");
    xml
}

/// `scheme://host[:port][/path]` without a trailing slash, query or fragment, so that it can be
/// written into HTML, JSON and XML as it is (the `url` crate has already percent-encoded it).
pub(super) fn base_url(url: &Url) -> String {
    let mut url = url.clone();
    url.set_query(None);
    url.set_fragment(None);
    url.as_str().trim_end_matches('/').to_owned()
}
