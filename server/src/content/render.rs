//! `/` rendered from a content document on the server: the build's render bundle run by QuickJS
//! (`content::engine`), and the pages composed from the build's templates and handed to the site
//! through its [`PageSink`]. The published pages are rendered at start-up and at each publish,
//! never per request.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use anyhow::Context as _;
use tokio::sync::Mutex;

use sha2::{Digest, Sha256};

use super::appearance::{accent_style, Appearance, Scheme};
use super::case_study_entry::CaseStudies;
use super::case_study_page;
use super::composed::{
    Composed, ComposedFiles, ComposedPage, PageSink, PAGE_DATA_FILE, PUBLIC_URL_PLACEHOLDER,
};
use super::document::ContentDocument;
use super::engine::{build_file, Engine};
use super::head::{self, PageLanguage, PREVIEW_PATH};
use super::language;
use super::post::Posts;
use super::post_page;

/// The markers of the build's page templates, filled in this order (as `web/scripts/prerender.mjs` fills them).
const HEAD: &str = "<!--seo-head-->";
const HINTS: &str = "<!--render-hints-->";
const HTML: &str = "<!--app-html-->";
const DATA: &str = "<!--page-data-->";
const JSON_LD: &str = "<!--json-ld-->";
/// Where a page with a language besides English gets the rules of the language switch and of
/// right to left (`languages.css` of the build), an inline sheet the default page goes without.
const LANGUAGE_STYLE: &str = "<!--language-style-->";

/// The build's templates for `/`, for the app shell and for the error page of unknown addresses
/// (the shell with the scheme script), and where its bundled images are served.
struct Templates {
    index: String,
    shell: String,
    missing: String,
    /// The rules only a page with languages draws, as an inline `<style>` (see [`LANGUAGE_STYLE`]).
    language_style: String,
    /// A case study's page: `/`'s head and markers, its own inline sheet.
    case_study: String,
    /// A post's page and a page of the writing index: the same head and markers.
    post: String,
    writing: String,
    /// `images/avatar-640.webp` -> `/assets/avatar-640-<hash>.webp`.
    media: HashMap<String, String>,
}

impl Templates {
    fn from_build() -> anyhow::Result<Self> {
        let file = |name: &str| {
            build_file(name)
                .with_context(|| format!("web/dist/.render/{name} was not built into this binary"))
        };
        Ok(Self {
            index: file("index.html")?,
            shell: file("app.html")?,
            missing: file("missing.html")?,
            language_style: format!("\n    <style>{}</style>", file("languages.css")?),
            case_study: file("case-study.html")?,
            post: file("post.html")?,
            writing: file("writing.html")?,
            media: serde_json::from_str(&file("media.json")?)
                .context("web/dist/.render/media.json is not a map of image sources")?,
        })
    }
}

/// A JSON data block, which browsers never run (so the CSP needs nothing for it): `<` is escaped
/// so no text in it can end the element.
fn json_block(id: &str, json: &str) -> String {
    format!(
        "\n    <script type=\"application/json\" id=\"{id}\">{}</script>",
        json.replace('<', "\\u003c")
    )
}

/// The id of the page's data block (see `web/src/content/embedded.ts`).
const PAGE_DATA_ID: &str = "page-data";

/// A page's data, `{"document": …, "locale": …}`: what its script hydrates from (`locale` is
/// `null` for the plain default page, see [`super::language::locale`]).
pub fn page_data(document_json: &str, locale_json: Option<&str>) -> String {
    format!(
        r#"{{"document":{document_json},"locale":{}}}"#,
        locale_json.unwrap_or("null")
    )
}

/// The data of a language's page whose project cards link to case studies or that has posts:
/// [`page_data`], `caseStudies` (the links by project id) and `writing` (the latest posts), as
/// `web/src/content/embedded.ts` reads it.
fn page_data_with(
    document_json: &str,
    locale_json: Option<&str>,
    links: Option<&str>,
    writing: Option<&str>,
) -> String {
    let mut data = page_data(document_json, locale_json);
    data.pop();
    if let Some(links) = links {
        data.push_str(&format!(r#","caseStudies":{links}"#));
    }
    if let Some(writing) = writing {
        data.push_str(&format!(r#","writing":{writing}"#));
    }
    data.push('}');
    data
}

/// The page's data inline, as its data block: the app shell and the draft preview.
pub fn data_block(page_data: &str) -> String {
    json_block(PAGE_DATA_ID, page_data)
}

/// The data block of a published page: it names the file that holds the data (a browser fetches
/// nothing for a data block; the page's script fetches it once the first screen is drawn), so
/// the HTML of the first round trip holds only what is drawn.
fn data_link(page_path: &str) -> String {
    format!(
        "\n    <script type=\"application/json\" id=\"{PAGE_DATA_ID}\" data-src=\"{page_path}{PAGE_DATA_FILE}\"></script>"
    )
}

/// React's resource hints (the hero photo's preload), which it emits ahead of the markup when
/// it renders a fragment: they go into the head. Returns the hints as the head takes them, and
/// the markup.
fn split_hints(rendered: &str) -> (String, &str) {
    static HINTS: OnceLock<regex::Regex> = OnceLock::new();
    let hints = HINTS
        .get_or_init(|| regex::Regex::new(r"^(?:<link [^>]*/>)+").expect("a valid pattern"))
        .find(rendered)
        .map_or("", |m| m.as_str());
    let head = if hints.is_empty() {
        String::new()
    } else {
        format!("\n    {hints}")
    };
    (head, &rendered[hints.len()..])
}

/// The head of the app shell: the page's, without the canonical link, and kept out of search results.
fn shell_head(head: &str) -> String {
    static CANONICAL: OnceLock<regex::Regex> = OnceLock::new();
    let head = CANONICAL
        .get_or_init(|| {
            regex::Regex::new(r#"\s*<link rel="canonical"[^>]*>"#).expect("a valid pattern")
        })
        .replace(head, "");
    head.replacen(
        "<meta name=\"description\"",
        "<meta name=\"robots\" content=\"noindex\" />\n    <meta name=\"description\"",
        1,
    )
}

/// Where the owner's photo is served, at its largest: a bundled image's hashed URL, or an upload's path.
pub fn photo_path(document: &ContentDocument, media: &HashMap<String, String>) -> Option<String> {
    let item = document
        .media
        .iter()
        .find(|item| item.id == document.profile.photo)?;
    let largest = item.sources.iter().max_by_key(|source| source.width)?;
    if largest.src.starts_with("/media/") {
        Some(largest.src.clone())
    } else {
        media.get(&largest.src).cloned()
    }
}

/// What the build's template for `/` says of the colour scheme: dark, the page as it was made.
const DARK_SCHEME: &str = "<meta name=\"color-scheme\" content=\"dark\" />";
/// The start of the build's root element, whose other attributes (`class="h-card"`: the page is
/// its owner's h-card) are kept after those the scheme and the language add.
const ROOT_ELEMENT: &str = "<html lang=\"en\"";
/// The browser's toolbar colour: the dark page's, or the light page's for a light default.
const DARK_THEME_COLOR: &str = "<meta name=\"theme-color\" content=\"#030712\" />";
pub(crate) const LIGHT_THEME_COLOR: &str = "<meta name=\"theme-color\" content=\"#f9fafb\" />";

/// The template for `/` as the document's appearance wants it: the scheme a visitor sees until
/// they choose one (the `color-scheme` meta, which the head's script reads, and for light
/// `data-scheme` on `<html>` already), and the accent's shades as an inline `<style>` last in the
/// head. The default appearance leaves the template as it is, byte for byte. Applied to the
/// template, which holds no text of the document's, so no text of the owner's can be taken for
/// these tags.
fn with_appearance<'a>(template: &'a str, appearance: &Appearance) -> std::borrow::Cow<'a, str> {
    let scheme = match appearance.scheme {
        Scheme::Dark => None,
        Scheme::Light => Some(("light", "<html lang=\"en\" data-scheme=\"light\"")),
        Scheme::System => Some(("light dark", ROOT_ELEMENT)),
    };
    let style = accent_style(appearance);
    if scheme.is_none() && style.is_none() {
        return std::borrow::Cow::Borrowed(template);
    }
    let mut page = template.to_owned();
    if let Some((content, root)) = scheme {
        page = page
            .replacen(
                DARK_SCHEME,
                &format!("<meta name=\"color-scheme\" content=\"{content}\" />"),
                1,
            )
            .replacen(ROOT_ELEMENT, root, 1);
        if appearance.scheme == Scheme::Light {
            page = page.replacen(DARK_THEME_COLOR, LIGHT_THEME_COLOR, 1);
        }
    }
    if let Some(css) = style {
        // On its own line, indented as the head's other elements are.
        page = match page.find("\n  </head>") {
            Some(at) => format!("{}\n    <style>{css}</style>{}", &page[..at], &page[at..]),
            None => page.replacen("</head>", &format!("<style>{css}</style></head>"), 1),
        };
    }
    std::borrow::Cow::Owned(page)
}

/// What the build's template for `/` says of the language, and what a page in another language
/// (or a document with several) replaces it with: its tag and direction. Applied after
/// [`with_appearance`], whose root element begins the same way, so the two compose.
const ROOT_LANGUAGE: &str = "<html lang=\"en\"";

fn with_language<'a>(
    template: std::borrow::Cow<'a, str>,
    tag: &str,
    dir: &str,
) -> std::borrow::Cow<'a, str> {
    let root = format!(
        "<html lang=\"{}\" dir=\"{}\"",
        head::escape_html(tag),
        head::escape_html(dir)
    );
    std::borrow::Cow::Owned(template.replacen(ROOT_LANGUAGE, &root, 1))
}

/// What the head of the page in `tag` says of languages (see [`PageLanguage`]).
fn page_language(document: &ContentDocument, page: &ContentDocument, tag: &str) -> PageLanguage {
    let default = document.language.eq_ignore_ascii_case(tag);
    let published = language::published_tags(document);
    PageLanguage {
        tag: page.language.clone(),
        path: language::href(document, tag),
        preview: if !default && super::preview::can_draw(page) {
            format!("/{}{PREVIEW_PATH}", language::segment(tag))
        } else {
            PREVIEW_PATH.to_owned()
        },
        alternates: if published.len() > 1 {
            published
                .iter()
                .map(|tag| (tag.clone(), language::href(document, tag)))
                .collect()
        } else {
            Vec::new()
        },
    }
}

/// One language's page: its HTML, and the head and data blocks the app shell takes from the
/// default language's; and the pages of the case studies it shows.
struct LanguagePage {
    html: String,
    head: String,
    data: String,
    studies: Vec<StudyPage>,
    /// Its posts' pages (each with its link preview) and its pages of the writing index.
    posts: Vec<StudyPage>,
    index: Vec<(String, String, String)>,
}

/// A case study's page in one language, and what its link preview is drawn from.
struct StudyPage {
    path: String,
    html: String,
    data: String,
    preview: StudyPreview,
}

/// What a case study's link preview shows: the page's name and accent (its document in the page's
/// language), the word for a case study, the project's title, the summary and its first picture.
struct StudyPreview {
    page: Arc<ContentDocument>,
    label: String,
    title: String,
    summary: String,
    /// Where the picture is served: a bundled file's hashed path, or an upload's `/media/` path.
    image: Option<String>,
}

/// What a language's writing pages are composed with.
struct WritingContext<'a> {
    document: &'a ContentDocument,
    /// The document in the page's language.
    page: &'a Arc<ContentDocument>,
    /// `page` as JSON.
    json: &'a str,
    texts: &'a post_page::Texts<'a>,
    posts: &'a Posts,
    /// The `<link>`s of the language's feeds.
    feeds: &'a str,
    /// The language's word for the writing.
    title: &'a str,
}

/// What a render is looked up by in the renderer's cache: its function and arguments, hashed.
type RenderKey = [u8; 32];

fn render_key(function: &str, args: &[Option<String>]) -> RenderKey {
    let mut hash = Sha256::new();
    hash.update(function.as_bytes());
    for arg in args {
        match arg {
            Some(text) => {
                hash.update([1]);
                hash.update((text.len() as u64).to_le_bytes());
                hash.update(text.as_bytes());
            }
            None => hash.update([0]),
        }
    }
    hash.finalize().into()
}

fn fill(template: &str, parts: &[(&str, &str)]) -> String {
    let mut page = template.to_owned();
    for (marker, value) in parts {
        page = page.replacen(marker, value, 1);
    }
    page
}

/// The year (UTC) of a moment in Unix milliseconds.
fn year_of(ms: i64) -> Option<u16> {
    use chrono::Datelike;
    let year = chrono::DateTime::from_timestamp_millis(ms)?.year();
    u16::try_from(year).ok()
}

/// Addresses with what goes with each: a language's tag, or where a redirect leads.
type Addresses = Vec<(String, String)>;

/// Every case study's address in each language that shows it (the default's first), for the
/// sitemap; and the addresses its former slugs answer with a 301 to it.
fn study_addresses(
    document: &ContentDocument,
    studies: &CaseStudies,
) -> (Vec<Addresses>, Addresses) {
    let mut groups = Vec::new();
    let mut redirects = Vec::new();
    for project in &document.projects {
        let Some(served) = studies.get(&project.id) else {
            continue;
        };
        let study = &served.document;
        let group = case_study_page::alternates(document, study);
        for (tag, path) in &group {
            let home = language::href(document, tag);
            for old in &study.former_slugs {
                redirects.push((case_study_page::path(&home, old), path.clone()));
            }
        }
        groups.push(group);
    }
    (groups, redirects)
}

/// Every post's address in each language that has it (its translations), the writing index's
/// first page of each language with posts, for the sitemap; and the addresses its former slugs
/// answer with a 301 to it.
fn post_addresses(document: &ContentDocument, posts: &Posts) -> (Vec<Addresses>, Addresses) {
    let mut groups: Vec<Addresses> = Vec::new();
    let mut redirects = Vec::new();
    for tag in language::published_tags(document) {
        let shown = super::feeds::posts_in(posts, &tag);
        if shown.is_empty() {
            continue;
        }
        let home = language::href(document, &tag);
        groups.push(vec![(tag.clone(), post_page::index_path(&home))]);
        for post in shown {
            let path = post_page::path(&home, &post.document.slug);
            for old in &post.document.former_slugs {
                redirects.push((post_page::path(&home, old), path.clone()));
            }
            let group = post_page::alternates(document, &post.document, posts);
            // A group of translations is listed once, from its first language's post.
            match group.first() {
                Some((_, first)) if first != &path => {}
                Some(_) => groups.push(group),
                None => groups.push(vec![(tag.clone(), path)]),
            }
        }
    }
    (groups, redirects)
}

/// A language's pages of the writing index added to its pages.
fn push_index(
    pages: &mut Vec<(String, ComposedPage)>,
    index: Vec<(String, String, String)>,
    missing: &str,
) {
    for (path, html, data) in index {
        pages.push((
            path,
            ComposedPage {
                html,
                data,
                shell: missing.to_owned(),
                missing: missing.to_owned(),
            },
        ));
    }
}

/// A language's case study pages added to its pages, each answering its unknown addresses with
/// the language's error page `missing`, and what their link previews are drawn from.
fn push_studies(
    pages: &mut Vec<(String, ComposedPage)>,
    previews: &mut Vec<(String, StudyPreview)>,
    studies: impl Iterator<Item = StudyPage>,
    missing: &str,
) {
    for study in studies {
        previews.push((study.path.clone(), study.preview));
        let page = ComposedPage {
            html: study.html,
            data: study.data,
            shell: missing.to_owned(),
            missing: missing.to_owned(),
        };
        pages.push((study.path, page));
    }
}

/// Renders documents into pages and keeps the served pages on the newest published version.
pub struct PageRenderer {
    engine: Engine,
    /// Where uploaded photos are read from, for the link preview.
    db: Option<crate::store::Db>,
    templates: Templates,
    /// Where the pages go: the site.
    pages: Arc<dyn PageSink>,
    /// The version on the served pages; -1 before the first.
    shown: Mutex<i64>,
    /// The pages and link previews the last composition made, by what they were made from: a
    /// publish draws again only what changed (a case study's publish, its own pages and its
    /// neighbours'; `/` only when its cards' links change).
    renders: std::sync::Mutex<HashMap<RenderKey, Arc<str>>>,
    previews: std::sync::Mutex<HashMap<RenderKey, Arc<super::preview::Drawing>>>,
}

impl PageRenderer {
    pub fn start(pages: Arc<dyn PageSink>, db: Option<crate::store::Db>) -> anyhow::Result<Self> {
        Ok(Self {
            engine: Engine::start()?,
            db,
            templates: Templates::from_build()?,
            pages,
            shown: Mutex::new(-1),
            renders: std::sync::Mutex::new(HashMap::new()),
            previews: std::sync::Mutex::new(HashMap::new()),
        })
    }

    /// The render bundle's `function` on `args`, from the last composition's renders when it
    /// made the same; noted in `used`, which the next cache keeps.
    async fn render_cached(
        &self,
        used: &mut HashMap<RenderKey, Arc<str>>,
        function: &'static str,
        args: Vec<Option<String>>,
    ) -> anyhow::Result<Arc<str>> {
        let key = render_key(function, &args);
        if let Some(html) = used.get(&key) {
            return Ok(html.clone());
        }
        let cached = self
            .renders
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(&key)
            .cloned();
        let html = match cached {
            Some(html) => html,
            None => Arc::from(self.engine.call(function, args).await?),
        };
        used.insert(key, html.clone());
        Ok(html)
    }

    /// Every page for `document` (`/`, each published language's, and the app shell), ready to
    /// serve but for the public URL; `modified` is when it was published (Unix ms), if it was.
    pub async fn compose(
        &self,
        document: &ContentDocument,
        (studies, posts): (&CaseStudies, &Posts),
        modified: Option<i64>,
    ) -> anyhow::Result<Composed> {
        Ok(self
            .compose_all(document, (studies, posts), modified)
            .await?
            .0)
    }

    /// [`Self::compose`], and what the case studies' link previews are drawn from, by path.
    async fn compose_all(
        &self,
        document: &ContentDocument,
        (studies, posts): (&CaseStudies, &Posts),
        modified: Option<i64>,
    ) -> anyhow::Result<(Composed, Vec<(String, StudyPreview)>)> {
        let mut used = HashMap::new();
        let mut default = self
            .compose_language(
                document,
                &document.language,
                false,
                modified,
                studies,
                posts,
                &mut used,
            )
            .await?;
        let mut study_pages = std::mem::take(&mut default.studies);
        let default_posts = std::mem::take(&mut default.posts);
        let default_index = std::mem::take(&mut default.index);
        // The app's own pages (the shell: sign-in, dashboard, error page) keep the build's look,
        // with the default language's texts, their data inline.
        let shell = fill(
            &self.templates.shell,
            &[
                (HEAD, &shell_head(&default.head)),
                (DATA, &data_block(&default.data)),
            ],
        );
        // Its unknown addresses answer the error page in the visitor's scheme, else the owner's.
        let missing = fill(
            &with_appearance(&self.templates.missing, &document.appearance),
            &[
                (HEAD, &shell_head(&default.head)),
                (DATA, &data_block(&default.data)),
            ],
        );
        let mut previews = Vec::new();
        let mut pages = vec![(
            "/".to_owned(),
            ComposedPage {
                html: default.html,
                data: default.data,
                shell,
                missing: missing.clone(),
            },
        )];
        push_studies(&mut pages, &mut previews, study_pages.drain(..), &missing);
        push_studies(
            &mut pages,
            &mut previews,
            default_posts.into_iter(),
            &missing,
        );
        push_index(&mut pages, default_index, &missing);
        for other in document.languages.iter().filter(|l| l.published) {
            let mut page = self
                .compose_language(
                    document, &other.tag, false, modified, studies, posts, &mut used,
                )
                .await?;
            study_pages = std::mem::take(&mut page.studies);
            let other_posts = std::mem::take(&mut page.posts);
            let other_index = std::mem::take(&mut page.index);
            let path = language::href(document, &other.tag);
            // Its unknown addresses answer the error page in the language and the visitor's
            // scheme, drawn from the language's data (the file its page names); it is the
            // language's shell too, which nothing else uses.
            let missing = fill(
                &with_language(
                    with_appearance(&self.templates.missing, &document.appearance),
                    &other.tag,
                    language::direction(&other.tag),
                ),
                &[(HEAD, &shell_head(&page.head)), (DATA, &data_link(&path))],
            );
            pages.push((
                path,
                ComposedPage {
                    html: page.html,
                    data: page.data,
                    shell: missing.clone(),
                    missing: missing.clone(),
                },
            ));
            push_studies(&mut pages, &mut previews, study_pages.drain(..), &missing);
            push_studies(&mut pages, &mut previews, other_posts.into_iter(), &missing);
            push_index(&mut pages, other_index, &missing);
        }
        *self.renders.lock().unwrap_or_else(|e| e.into_inner()) = used;
        let published = language::published_tags(document)
            .into_iter()
            .map(|tag| {
                let path = language::href(document, &tag);
                (tag, path)
            })
            .collect();
        let (mut case_studies, mut redirects) = study_addresses(document, studies);
        let (post_groups, post_redirects) = post_addresses(document, posts);
        case_studies.extend(post_groups);
        redirects.extend(post_redirects);
        Ok((
            Composed {
                pages,
                published,
                case_studies,
                redirects,
            },
            previews,
        ))
    }

    /// The page of `document` in the language `tag` (the default one or any of its languages,
    /// published or not), ready to serve but for the public URL: the draft preview, as a publish
    /// at `now` (Unix ms) would show it.
    pub async fn compose_page(
        &self,
        document: &ContentDocument,
        tag: &str,
        now: i64,
    ) -> anyhow::Result<String> {
        // The preview draws the cards as they are: without the case studies' links.
        let mut used = HashMap::new();
        Ok(self
            .compose_language(
                document,
                tag,
                true,
                Some(now),
                &CaseStudies::new(),
                &Posts::new(),
                &mut used,
            )
            .await?
            .html)
    }

    /// The page of `study` in the language `tag`, beside `document` (the page's draft) and the
    /// case studies `others` published beside it (its neighbours), ready to serve but for the
    /// public URL: the case study draft's preview, as a publish at `now` (Unix ms) would show it.
    /// `None` when the page in `tag` would not show it (its project is not on the page, or it is
    /// not translated into `tag`).
    pub async fn compose_study_page(
        &self,
        document: &ContentDocument,
        study: super::case_study::CaseStudy,
        others: &CaseStudies,
        tag: &str,
        now: i64,
    ) -> anyhow::Result<Option<String>> {
        let mut page = language::localize(document, tag)
            .with_context(|| format!("the document has no language {tag:?}"))?;
        page.footer.until = year_of(now);
        let json = serde_json::to_string(&page).context("Failed to serialise the document")?;
        let project = study.project.clone();
        let mut studies = others.clone();
        studies.insert(
            project.clone(),
            Arc::new(super::case_study_entry::PublishedCaseStudy {
                version: i64::MAX,
                published_at: Some(now),
                document: study,
            }),
        );
        let home = language::href(document, tag);
        let shown = case_study_page::shown(document, &page, tag, &studies);
        let Some(index) = shown.iter().position(|s| s.study.project == project) else {
            return Ok(None);
        };
        // Drawn afresh and kept out of the cache of what is served.
        let mut used = HashMap::new();
        let page = Arc::new(page);
        let study = self
            .compose_study(
                document, &page, tag, &home, &shown, index, None, &json, &mut used,
            )
            .await?;
        Ok(Some(study.html))
    }

    /// The page of `post` beside `document` (the page's draft) and the posts `others` published
    /// beside it (its neighbours), as a publish at `now` (Unix ms) would show it, ready to serve
    /// but for the public URL: the post editor's preview. `None` when the document has no such
    /// language.
    pub async fn compose_post_page(
        &self,
        document: &ContentDocument,
        mut post: super::post::Post,
        others: &Posts,
        now: i64,
    ) -> anyhow::Result<Option<String>> {
        let tag = post.language.clone();
        let Some(mut page) = language::localize(document, &tag) else {
            return Ok(None);
        };
        page.footer.until = year_of(now);
        let json = serde_json::to_string(&page).context("Failed to serialise the document")?;
        let table = language::table(document, &tag);
        let texts = post_page::Texts::new(&table);
        let id = post.id.clone();
        post.date = post.date.or(Some(now));
        let mut posts = others.clone();
        posts.insert(
            id.clone(),
            Arc::new(super::post::PublishedPost {
                version: i64::MAX,
                published_at: now,
                document: post,
            }),
        );
        let writing = post_page::language(document, &tag, &posts, &texts);
        let Some(index) = writing.posts.iter().position(|(p, _)| p.document.id == id) else {
            return Ok(None);
        };
        let page = Arc::new(page);
        let title = texts.get("writing.title", "Writing");
        let context = WritingContext {
            document,
            page: &page,
            json: &json,
            texts: &texts,
            posts: &posts,
            feeds: "",
            title: &title,
        };
        // Drawn afresh and kept out of the cache of what is served.
        let mut used = HashMap::new();
        Ok(Some(
            self.compose_post(&context, &writing, index, &mut used)
                .await?
                .html,
        ))
    }

    /// The page of `document` in `tag`, with its data inline or (published pages) in its file.
    #[allow(clippy::too_many_arguments)]
    async fn compose_language(
        &self,
        document: &ContentDocument,
        tag: &str,
        inline: bool,
        modified: Option<i64>,
        studies: &CaseStudies,
        posts: &Posts,
        used: &mut HashMap<RenderKey, Arc<str>>,
    ) -> anyhow::Result<LanguagePage> {
        let mut page = language::localize(document, tag)
            .with_context(|| format!("the document has no language {tag:?}"))?;
        // The copyright runs to the year of the publish.
        page.footer.until = modified.and_then(year_of);
        let json = serde_json::to_string(&page).context("Failed to serialise the document")?;
        let locale = language::locale(document, tag)
            .map(|locale| serde_json::to_string(&locale))
            .transpose()
            .context("Failed to serialise the locale")?;
        let home = language::href(document, tag);
        let shown = case_study_page::shown(document, &page, tag, studies);
        let links = (!shown.is_empty()).then(|| {
            let links: std::collections::BTreeMap<&str, String> = shown
                .iter()
                .map(|s| {
                    (
                        s.study.project.as_str(),
                        case_study_page::path(&home, &s.study.slug),
                    )
                })
                .collect();
            serde_json::to_string(&links).expect("links serialise")
        });
        let table = language::table(document, tag);
        let texts = post_page::Texts::new(&table);
        let writing = post_page::language(document, tag, posts, &texts);
        // The header's Writing item of the language's case studies, as the home page has it.
        let writing_item = post_page::header_item(&writing, &page);
        let teaser = post_page::teaser(&writing, &texts)
            .filter(|_| page.appearance.sections.writing)
            .map(|teaser| serde_json::to_string(&teaser).expect("a teaser serialises"));
        let rendered = self
            .render_cached(
                used,
                "renderLanding",
                vec![
                    Some(json.clone()),
                    locale.clone(),
                    links.clone(),
                    teaser.clone(),
                ],
            )
            .await?;
        let (hints, body) = split_hints(&rendered);
        let data = page_data_with(
            &json,
            locale.as_deref(),
            links.as_deref(),
            teaser.as_deref(),
        );
        let block = if inline {
            data_block(&data)
        } else {
            data_link(&language::href(document, tag))
        };
        let t = &self.templates;
        // Written with the build's placeholder URL, which the site replaces with the public one.
        let base = PUBLIC_URL_PLACEHOLDER;
        let about = page_language(document, &page, tag);
        let writing_title = texts.get("writing.title", "Writing");
        // Every page of a language with posts names its feeds.
        let feeds = (!writing.posts.is_empty()).then(|| {
            post_page::feed_links(
                base,
                &home,
                &format!("{} \u{b7} {writing_title}", page.profile.name),
            )
        });
        let mut head = head::head_tags(&page, base, &about);
        if let Some(feeds) = &feeds {
            head.push_str("\n    ");
            head.push_str(feeds);
        }
        let photo = photo_path(&page, &t.media);
        let json_ld = head::json_ld_tag(&page, base, photo.as_deref(), &about, modified);
        let mut index = with_appearance(&t.index, &page.appearance);
        // `<html lang="en">` as built, unless the page says otherwise.
        let plain =
            document.language == super::document::DEFAULT_LANGUAGE && document.languages.is_empty();
        if !plain {
            index = with_language(index, &about.tag, language::direction(&about.tag));
        }
        let html = fill(
            &index,
            &[
                (LANGUAGE_STYLE, if plain { "" } else { &t.language_style }),
                (HEAD, &head),
                (HINTS, &hints),
                (HTML, body),
                (DATA, &block),
                (JSON_LD, &json_ld),
            ],
        );
        let mut study_pages = Vec::new();
        let mut post_pages = Vec::new();
        let mut index_pages = Vec::new();
        if !inline {
            let page = Arc::new(page);
            for index in 0..shown.len() {
                let mut study = self
                    .compose_study(
                        document,
                        &page,
                        tag,
                        &home,
                        &shown,
                        index,
                        writing_item.as_deref(),
                        &json,
                        used,
                    )
                    .await?;
                if let Some(feeds) = &feeds {
                    study.html =
                        study
                            .html
                            .replacen("\n  </head>", &format!("\n    {feeds}\n  </head>"), 1);
                }
                study_pages.push(study);
            }
            let feeds = feeds.unwrap_or_default();
            let context = WritingContext {
                document,
                page: &page,
                json: &json,
                texts: &texts,
                posts,
                feeds: &feeds,
                title: &writing_title,
            };
            for index in 0..writing.posts.len() {
                post_pages.push(self.compose_post(&context, &writing, index, used).await?);
            }
            for view in post_page::index_views(&writing, &texts) {
                index_pages.push(self.compose_index(&context, view, used).await?);
            }
        }
        Ok(LanguagePage {
            html,
            head,
            data,
            studies: study_pages,
            posts: post_pages,
            index: index_pages,
        })
    }

    /// The page of the `index`th post of `writing` (a language's posts).
    async fn compose_post(
        &self,
        context: &WritingContext<'_>,
        writing: &post_page::Language<'_>,
        index: usize,
        used: &mut HashMap<RenderKey, Arc<str>>,
    ) -> anyhow::Result<StudyPage> {
        let (post, _) = &writing.posts[index];
        let view = post_page::post_view(writing, index, context.texts);
        let path = post_page::path(&writing.home, &post.document.slug);
        let alternates = post_page::alternates(context.document, &post.document, context.posts);
        let locale = self.locale_with(context.document, &writing.tag, &alternates)?;
        let view_json = serde_json::to_string(&view).context("Failed to serialise a post")?;
        let data = format!(
            r#"{{"document":{},"locale":{},"post":{view_json}}}"#,
            context.json,
            locale.as_deref().unwrap_or("null")
        );
        let rendered = self
            .render_cached(used, "renderPost", vec![Some(data.clone())])
            .await
            .with_context(|| format!("the post {:?}", post.document.id))?;
        let (hints, body) = split_hints(&rendered);
        let cover = post_page::cover_source(&post.document);
        let preview_key = {
            let mut hash = Sha256::new();
            for part in [&post.document.title, &post.document.summary] {
                hash.update(part.as_bytes());
                hash.update([0]);
            }
            hash.update(cover.as_deref().unwrap_or_default().as_bytes());
            hex::encode(&hash.finalize()[..6])
        };
        let preview = format!("{}?v={preview_key}", case_study_page::preview_path(&path));
        let base = PUBLIC_URL_PLACEHOLDER;
        let head = post_page::Head {
            page: context.page,
            title: &post.document.title,
            description: &post.document.summary,
            tag: &context.page.language,
            path: &path,
            preview: &preview,
            alternates: &alternates,
            kind: "article",
            feeds: context.feeds,
        };
        let json_ld = post_page::json_ld_tag(
            &head,
            post,
            (&writing.home, context.title),
            cover.as_deref(),
            base,
        );
        let html = self.fill_page(
            context,
            &self.templates.post,
            &post_page::head_tags(&head, base),
            (&hints, body),
            &path,
            &json_ld,
        );
        Ok(StudyPage {
            path,
            html,
            data,
            preview: StudyPreview {
                page: context.page.clone(),
                label: context.title.to_owned(),
                title: post.document.title.clone(),
                summary: post.document.summary.clone(),
                image: cover,
            },
        })
    }

    /// A page of the writing index: its path, HTML and data.
    async fn compose_index(
        &self,
        context: &WritingContext<'_>,
        view: post_page::WritingView,
        used: &mut HashMap<RenderKey, Arc<str>>,
    ) -> anyhow::Result<(String, String, String)> {
        let path = view.path().to_owned();
        let view_json = serde_json::to_string(&view).context("Failed to serialise the index")?;
        let locale = self.locale_with(context.document, &context.page.language, &[])?;
        let data = format!(
            r#"{{"document":{},"locale":{},"writingIndex":{view_json}}}"#,
            context.json,
            locale.as_deref().unwrap_or("null")
        );
        let rendered = self
            .render_cached(used, "renderWriting", vec![Some(data.clone())])
            .await
            .context("the writing index")?;
        let (hints, body) = split_hints(&rendered);
        let title = match view.tag() {
            Some(tag) => context
                .texts
                .get("writing.tagged", "Posts tagged \u{201c}{tag}\u{201d}")
                .replace("{tag}", tag),
            None => context.title.to_owned(),
        };
        let home = language::href(context.document, &context.page.language);
        let preview = format!("{home}{}", head::PREVIEW_PATH.trim_start_matches('/'));
        let head = post_page::Head {
            page: context.page,
            title: &title,
            description: &context.page.profile.summary,
            tag: &context.page.language,
            path: &path,
            preview: &preview,
            alternates: &[],
            kind: "website",
            feeds: context.feeds,
        };
        let base = PUBLIC_URL_PLACEHOLDER;
        let html = self.fill_page(
            context,
            &self.templates.writing,
            &post_page::head_tags(&head, base),
            (&hints, body),
            &path,
            "",
        );
        Ok((path, html, data))
    }

    /// The locale of the page in `tag`, its language menu leading to `alternates` where they
    /// are given (a post's translations), as JSON.
    fn locale_with(
        &self,
        document: &ContentDocument,
        tag: &str,
        alternates: &[(String, String)],
    ) -> anyhow::Result<Option<String>> {
        let locale = language::locale(document, tag).map(|mut locale| {
            for language in &mut locale.languages {
                if let Some((_, there)) = alternates
                    .iter()
                    .find(|(other, _)| other.eq_ignore_ascii_case(&language.tag))
                {
                    language.href.clone_from(there);
                }
            }
            locale
        });
        locale
            .map(|locale| serde_json::to_string(&locale))
            .transpose()
            .context("Failed to serialise the locale")
    }

    /// A writing page's template filled: the scheme, the language, the head, the markup, its
    /// data's file and its JSON-LD.
    fn fill_page(
        &self,
        context: &WritingContext<'_>,
        template: &str,
        head_tags: &str,
        (hints, body): (&str, &str),
        path: &str,
        json_ld: &str,
    ) -> String {
        let page = context.page;
        let mut template = with_appearance(template, &page.appearance);
        let plain = context.document.language == super::document::DEFAULT_LANGUAGE
            && context.document.languages.is_empty();
        if !plain {
            template = with_language(
                template,
                &page.language,
                language::direction(&page.language),
            );
        }
        let t = &self.templates;
        fill(
            &template,
            &[
                (LANGUAGE_STYLE, if plain { "" } else { &t.language_style }),
                (HEAD, head_tags),
                (HINTS, hints),
                (HTML, body),
                (DATA, &data_link(path)),
                (JSON_LD, json_ld),
            ],
        )
    }

    /// The page of the `index`th case study `page` (the document in `tag`, as JSON `json`) shows,
    /// its header's Writing item leading to `writing` (`None`: no item).
    #[allow(clippy::too_many_arguments)]
    async fn compose_study(
        &self,
        document: &ContentDocument,
        page: &Arc<ContentDocument>,
        tag: &str,
        home: &str,
        shown: &[case_study_page::Shown<'_>],
        index: usize,
        writing: Option<&str>,
        json: &str,
        used: &mut HashMap<RenderKey, Arc<str>>,
    ) -> anyhow::Result<StudyPage> {
        let entry = &shown[index];
        let view = case_study_page::view(shown, index, tag, home, &self.templates.media)
            .with_writing(writing.map(str::to_owned));
        let path = case_study_page::path(home, &entry.study.slug);
        let alternates = case_study_page::alternates(document, entry.study);
        // The language menu of a case study leads to the same case study in each language that has it.
        let locale = language::locale(document, tag).map(|mut locale| {
            for language in &mut locale.languages {
                if let Some((_, there)) = alternates
                    .iter()
                    .find(|(other, _)| other.eq_ignore_ascii_case(&language.tag))
                {
                    language.href.clone_from(there);
                }
            }
            locale
        });
        let locale = locale
            .map(|locale| serde_json::to_string(&locale))
            .transpose()
            .context("Failed to serialise the locale")?;
        let view_json = serde_json::to_string(&view).context("Failed to serialise a case study")?;
        let data = format!(
            r#"{{"document":{json},"locale":{},"caseStudy":{view_json}}}"#,
            locale.as_deref().unwrap_or("null")
        );
        let rendered = self
            .render_cached(used, "renderCaseStudy", vec![Some(data.clone())])
            .await
            .with_context(|| format!("the case study of {:?}", entry.study.project))?;
        let (hints, body) = split_hints(&rendered);
        let table = language::table(document, tag);
        let text = |key: &str, fallback: &str| {
            table
                .get(key)
                .cloned()
                .or_else(|| language::built_in_table("en").and_then(|t| t.get(key).cloned()))
                .unwrap_or_else(|| fallback.to_owned())
        };
        let label = text("caseStudy.label", "Case study");
        let projects = text("nav.projects", "Projects");
        let preview = case_study_page::preview_path(&path);
        let translated = super::case_study::translated(entry.study, tag);
        let head = case_study_page::Head {
            page,
            shown: entry,
            summary: &translated.summary,
            tag: &page.language,
            path: &path,
            preview: &preview,
            label: &label,
            alternates: &alternates,
        };
        let base = PUBLIC_URL_PLACEHOLDER;
        let image = self.study_image(page, entry.study);
        let json_ld = case_study_page::json_ld_tag(
            &case_study_page::JsonLd {
                head: &head,
                home,
                projects: &projects,
                image: image.as_deref(),
                technologies: &entry.study.technologies,
            },
            base,
        );
        let head_tags = case_study_page::head_tags(&head, base);
        let t = &self.templates;
        let mut template = with_appearance(&t.case_study, &page.appearance);
        let plain =
            document.language == super::document::DEFAULT_LANGUAGE && document.languages.is_empty();
        if !plain {
            template = with_language(
                template,
                &page.language,
                language::direction(&page.language),
            );
        }
        let html = fill(
            &template,
            &[
                (LANGUAGE_STYLE, if plain { "" } else { &t.language_style }),
                (HEAD, &head_tags),
                (HINTS, &hints),
                (HTML, body),
                (DATA, &data_link(&path)),
                (JSON_LD, &json_ld),
            ],
        );
        Ok(StudyPage {
            path,
            html,
            data,
            preview: StudyPreview {
                page: page.clone(),
                label,
                title: entry.title.clone(),
                summary: translated.summary,
                image,
            },
        })
    }

    /// Where a case study's first picture is served (its gallery's first, else its project's
    /// card's), at its largest: a bundled file's hashed path, or an upload's path.
    fn study_image(
        &self,
        page: &ContentDocument,
        study: &super::case_study::CaseStudy,
    ) -> Option<String> {
        let largest = |item: &super::document::MediaItem| {
            let source = item.sources.iter().max_by_key(|source| source.width)?;
            if source.src.starts_with("/media/") {
                Some(source.src.clone())
            } else {
                self.templates.media.get(&source.src).cloned()
            }
        };
        let gallery = study
            .gallery
            .first()
            .and_then(|picture| study.media.iter().find(|m| m.id == picture.image))
            .and_then(largest);
        gallery.or_else(|| {
            let project = page.projects.iter().find(|p| p.id == study.project)?;
            let item = page.media.iter().find(|m| m.id == project.image)?;
            largest(item)
        })
    }

    /// The manifest and the link previews for `document` (the default language's, and each
    /// published language's whose texts the preview's font can draw), and the case studies' and
    /// posts' from `studies`: each kept from the last publish when what it shows is the same,
    /// else to be drawn (by resvg) once it is served.
    async fn files(
        &self,
        document: &ContentDocument,
        studies: Vec<(String, StudyPreview)>,
        modified: Option<i64>,
    ) -> anyhow::Result<ComposedFiles> {
        let default = language::localize(document, &document.language)
            .context("the document has its own language")?;
        let photo = match photo_path(&default, &self.templates.media) {
            Some(path) if path.starts_with("/media/") => match &self.db {
                Some(db) => db
                    .media_file(path.trim_start_matches("/media/"))
                    .await?
                    .map(|file| file.data),
                None => None,
            },
            Some(path) => self.pages.built_file(path.trim_start_matches('/')),
            None => None,
        };
        let manifest = head::manifest(&default);
        let mut study_previews = Vec::new();
        for (path, preview) in studies {
            let image = match &preview.image {
                Some(image) => self.image_bytes(image).await?,
                None => None,
            };
            study_previews.push((path, preview, image));
        }
        let mut pages = Vec::new();
        for other in document.languages.iter().filter(|l| l.published) {
            if let Some(page) = language::localize(document, &other.tag) {
                if super::preview::can_draw(&page) {
                    pages.push((language::href(document, &other.tag), page));
                }
            }
        }
        use super::preview::{CaseStudyCard, Drawing, Sketch};
        let mut sketches = vec![("/".to_owned(), Sketch::page(&default, photo.as_deref()))];
        for (path, page) in pages {
            sketches.push((path, Sketch::page(&page, photo.as_deref())));
        }
        for (path, preview, image) in study_previews {
            let card = CaseStudyCard {
                page: &preview.page,
                label: &preview.label,
                title: &preview.title,
                summary: &preview.summary,
                image: image.as_deref(),
            };
            sketches.push((path, card.sketch()));
        }
        // A preview is drawn again only when what it shows changed (a post's publish changes
        // none of the page's, nor a case study's), and then after the publish is answered.
        let drawn = self
            .previews
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone();
        let mut kept: HashMap<RenderKey, Arc<Drawing>> = HashMap::new();
        let mut previews = Vec::with_capacity(sketches.len());
        for (path, sketch) in sketches {
            let key = sketch.key();
            let drawing = match drawn.get(&key).or_else(|| kept.get(&key)) {
                Some(drawing) => Arc::clone(drawing),
                None => {
                    sketch
                        .check()
                        .with_context(|| format!("the link preview of {path}"))?;
                    Arc::new(Drawing::new(sketch))
                }
            };
            previews.push((path, Arc::clone(&drawing)));
            kept.insert(drawing.key(), drawing);
        }
        let files = ComposedFiles {
            manifest,
            previews,
            resumes: super::resume::drafts(document, modified),
        };
        *self.previews.lock().unwrap_or_else(|e| e.into_inner()) = kept;
        Ok(files)
    }

    /// The bytes of an image the pages serve at `path`: an upload (`/media/…`) from the store, or
    /// a file of the build.
    async fn image_bytes(&self, path: &str) -> anyhow::Result<Option<Vec<u8>>> {
        Ok(match path.strip_prefix("/media/") {
            Some(name) => match &self.db {
                Some(db) => db.media_file(name).await?.map(|file| file.data),
                None => None,
            },
            None => self.pages.built_file(path.trim_start_matches('/')),
        })
    }

    /// Serves the feeds of `posts` beside `document` (the served page) in place of the last ones.
    pub fn show_feeds(&self, document: &ContentDocument, posts: &super::post::Posts, now: i64) {
        self.pages
            .show_feeds(super::feeds::compose(document, posts, now));
    }

    /// Renders `document` (published as `version`) and serves it, unless the pages already show
    /// that version or a newer one. Returns once the new pages are served.
    pub async fn show(
        &self,
        version: i64,
        document: &ContentDocument,
        entries: (&CaseStudies, &Posts),
        modified: Option<i64>,
    ) -> anyhow::Result<()> {
        if version <= *self.shown.lock().await {
            return Ok(());
        }
        let prepared = self.prepare(document, entries, modified).await?;
        self.show_prepared(version, prepared).await;
        Ok(())
    }

    /// Everything served for `document` (both pages, the manifest, the link preview), made
    /// without serving it: a publish renders before it stores, so a document that cannot be
    /// rendered is never published and the served page stays the last good one.
    pub async fn prepare(
        &self,
        document: &ContentDocument,
        entries: (&CaseStudies, &Posts),
        modified: Option<i64>,
    ) -> anyhow::Result<Prepared> {
        let started = Instant::now();
        let (composed, previews) = self.compose_all(document, entries, modified).await?;
        let render = started.elapsed();
        let files = self.files(document, previews, modified).await?;
        Ok(Prepared {
            composed,
            files,
            render,
            draw: started.elapsed() - render,
        })
    }

    /// Serves what [`Self::prepare`] made for `version`, unless the pages already show a newer
    /// version (the same version again is served: its case studies changed).
    pub async fn show_prepared(&self, version: i64, prepared: Prepared) {
        let mut shown = self.shown.lock().await;
        if version < *shown {
            return;
        }
        let started = Instant::now();
        self.pages.show(prepared.composed, prepared.files);
        *shown = version;
        drop(shown);
        tracing::info!(
            version,
            render_ms = prepared.render.as_secs_f64() * 1000.0,
            preview_ms = prepared.draw.as_secs_f64() * 1000.0,
            compress_ms = started.elapsed().as_secs_f64() * 1000.0,
            "serving the published page"
        );
        crate::ops::memory::release_free_memory();
    }
}

/// A document's pages and files, rendered and ready to serve.
pub struct Prepared {
    composed: Composed,
    files: ComposedFiles,
    render: std::time::Duration,
    draw: std::time::Duration,
}

#[cfg(test)]
mod tests {
    use super::{build_file, data_block, split_hints, with_appearance};
    use crate::content::appearance::{Appearance, Scheme};

    const TEMPLATE: &str = "<!doctype html>\n<html lang=\"en\" class=\"h-card\">\n  <head>\n    \
        <meta name=\"color-scheme\" content=\"dark\" />\n    <style>a{}</style>\n  </head>\n  \
        <body></body>\n</html>\n";

    #[test]
    fn the_default_appearance_leaves_the_template_as_it_is() {
        let page = with_appearance(TEMPLATE, &Appearance::default());
        assert!(matches!(page, std::borrow::Cow::Borrowed(_)));
        assert_eq!(page, TEMPLATE);
        let upper = Appearance {
            accent: "#155DFC".into(),
            ..Appearance::default()
        };
        assert_eq!(with_appearance(TEMPLATE, &upper), TEMPLATE);
    }

    #[test]
    fn the_scheme_sets_the_meta_and_light_marks_the_root() {
        let light = Appearance {
            scheme: Scheme::Light,
            ..Appearance::default()
        };
        assert_eq!(
            with_appearance(TEMPLATE, &light),
            TEMPLATE
                .replace("content=\"dark\"", "content=\"light\"")
                .replace(
                    "<html lang=\"en\" class=\"h-card\">",
                    "<html lang=\"en\" data-scheme=\"light\" class=\"h-card\">"
                )
        );
        let system = Appearance {
            scheme: Scheme::System,
            ..Appearance::default()
        };
        assert_eq!(
            with_appearance(TEMPLATE, &system),
            TEMPLATE.replace("content=\"dark\"", "content=\"light dark\"")
        );
    }

    #[test]
    fn another_accent_adds_its_style_last_in_the_head() {
        let teal = Appearance {
            accent: "#0f766e".into(),
            ..Appearance::default()
        };
        let css = crate::content::appearance::accent_style(&teal).unwrap();
        assert_eq!(
            with_appearance(TEMPLATE, &teal),
            TEMPLATE.replace(
                "<style>a{}</style>\n  </head>",
                &format!("<style>a{{}}</style>\n    <style>{css}</style>\n  </head>")
            )
        );
    }

    #[test]
    fn the_builds_template_says_what_the_scheme_replaces() {
        let template = build_file("index.html").expect("the build's template for /");
        for expected in [
            super::DARK_SCHEME,
            super::ROOT_ELEMENT,
            super::DARK_THEME_COLOR,
            "\n  </head>",
        ] {
            assert_eq!(template.matches(expected).count(), 1, "{expected}");
        }
    }

    #[test]
    fn the_data_block_cannot_be_ended_by_the_text_inside_it() {
        let block = data_block(r#"{"name":"</script><script>alert(1)</script><!--"}"#);
        assert_eq!(block.matches("</script>").count(), 1);
        assert!(!block.contains("<!--"));
        assert!(block.contains(r"\u003c/script>"));
    }

    #[test]
    fn leading_link_hints_are_split_from_the_markup() {
        let (hints, body) = split_hints(r#"<link rel="preload" as="image"/><div>x</div>"#);
        assert_eq!(hints, "\n    <link rel=\"preload\" as=\"image\"/>");
        assert_eq!(body, "<div>x</div>");
        assert_eq!(split_hints("<div>x</div>"), (String::new(), "<div>x</div>"));
    }
}
