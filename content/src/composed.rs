//! What `content/` renders for the site to serve, and the narrow sink it renders into
//! ([`PageSink`]): the site (`crate::site`) implements it, and nothing in `content/` names the
//! site. A document's pages are one list by path (`/`, `/de/`), so a new kind of page is one more
//! entry, not a new field.

/// What the build writes wherever the public URL belongs (canonical link, `og:url`, `og:image`,
/// JSON-LD); replaced by the real one at start-up. `.invalid` can never resolve (RFC 2606).
pub const PUBLIC_URL_PLACEHOLDER: &str = "https://portfolio.invalid";

/// The file a published page's data is served from, under the page's path (`/page-data.json`,
/// `/de/page-data.json`): see `content::render`.
pub const PAGE_DATA_FILE: &str = "page-data.json";

/// The pages for one document and the case studies published beside it, ready to serve but for
/// the public URL.
pub struct Composed {
    /// Each published page by the path it is served at: `/` (the default language's) first, then
    /// each other published language's (`/de/`, `/pt-br/`).
    pub pages: Vec<(String, ComposedPage)>,
    /// Every published language's tag and path (`/`, `/de/`), the default first: the sitemap.
    pub published: Vec<(String, String)>,
    /// Each case study's address in every language that shows it, the default's first
    /// (`/projects/<slug>/`, `/de/projects/<slug>/`): the sitemap's, with their alternates.
    pub case_studies: Vec<Vec<(String, String)>>,
    /// Addresses that answer with a 301 to another: a case study's former slugs, each to its
    /// current address in the same language.
    pub redirects: Vec<(String, String)>,
}

/// A published page: its HTML, its data (`page-data.json` beside it), which the HTML names, the
/// app shell in its language with its data, and the error page of the addresses under its path
/// that do not exist (`/de/no-such-page`): the shell with the scheme script and the document's
/// appearance. `/`'s shell is the app's own pages' (sign-in, dashboard), dark, with the default
/// language's texts; another language's is its error page.
pub struct ComposedPage {
    pub html: String,
    pub data: String,
    pub shell: String,
    pub missing: String,
}

/// The files made from a document: the manifest, and the link preview of each page that has
/// one, by the page's path (`/` always, `/de/` when the preview's font can draw its texts).
pub struct ComposedFiles {
    pub manifest: String,
    /// The link previews by the page's path, each drawn when first wanted.
    pub previews: Vec<(String, std::sync::Arc<super::preview::Drawing>)>,
    /// The resume of each published page by its path, each made when first wanted.
    pub resumes: Vec<(String, super::resume::Draft)>,
}

/// Where rendered pages go: the site, which serves them.
pub trait PageSink: Send + Sync {
    /// Serves a newly published document's pages and files in place of the last ones.
    fn show(&self, composed: Composed, files: ComposedFiles);

    /// Serves the feeds of the published posts in place of the last ones (none: every feed's
    /// address answers 404).
    fn show_feeds(&self, feeds: Vec<ComposedFeed>);

    /// A file of the built site (the default photo a document names), to draw the link preview.
    fn built_file(&self, path: &str) -> Option<Vec<u8>>;
}

/// A feed as the site serves it: its path (`/feed.xml`, `/de/rss.xml`), type, text (with the
/// public URL's placeholder) and last change (Unix ms), for `Last-Modified`.
pub struct ComposedFeed {
    pub path: String,
    pub content_type: &'static str,
    pub text: String,
    pub modified: i64,
}
