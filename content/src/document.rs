//! The content document: everything the page says about its owner, as one typed value. These
//! types are the one definition of its shape and bounds: the JSON Schema
//! (`web/src/content/document.schema.json`) and the TypeScript types
//! (`web/src/content/document.generated.ts`) are generated from them, and the server's
//! validation walks that same schema (see [`super::validate`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
#[cfg(test)]
use ts_rs::TS;

pub use super::appearance::{Appearance, Scheme, Sections, ACCENT_PATTERN, DEFAULT_ACCENT};

/// A stable id: lower case letters, digits and dashes, starting with a letter or digit.
pub const ID_PATTERN: &str = "^[a-z0-9][a-z0-9-]{0,40}$";
/// Where an image's file is: a file bundled with the site (`images/…`, under
/// `web/src/content/`) or a path this server serves (`/…`, for uploads to come). Each segment
/// starts with a letter or digit, so `..` never appears.
pub const MEDIA_SRC_PATTERN: &str = "^(images(/[a-z0-9][a-z0-9_.-]*)+\\.(webp|avif|png|jpg|jpeg|svg)|(/[A-Za-z0-9][A-Za-z0-9_.-]*)+)$";
/// A path this server serves, e.g. `/resume.pdf`.
pub const SITE_PATH_PATTERN: &str = "^(/[A-Za-z0-9][A-Za-z0-9_.-]*)+$";
/// How a phone number is dialled: `+` and digits.
pub const DIAL_PATTERN: &str = "^\\+?[0-9]{3,20}$";
/// A BCP 47 language tag, as the page's `lang` takes it: a primary language subtag of two or
/// three letters, then subtags of two to eight letters or digits (`de`, `pt-BR`, `zh-Hant-TW`).
pub const LANGUAGE_TAG_PATTERN: &str = "^[A-Za-z]{2,3}(-[A-Za-z0-9]{2,8})*$";
/// The default language when a document names none.
pub const DEFAULT_LANGUAGE: &str = "en";
/// Languages besides the default one.
pub const MAX_LANGUAGES: usize = 10;

/// The whole page's content.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ContentDocument {
    pub profile: Profile,
    /// The phrases the hero's typewriter cycles through.
    #[schemars(length(min = 1, max = 10), inner(length(min = 1, max = 60)))]
    pub typewriter_phrases: Vec<String>,
    pub about: About,
    pub contact: Contact,
    /// Links to the owner's profiles elsewhere; clicks are counted as `social:<id>`.
    #[schemars(length(max = 10))]
    pub social: Vec<SocialLink>,
    /// The technologies of the Skills section, in order.
    #[schemars(length(max = 60))]
    pub skills: Vec<Skill>,
    /// The projects of the Projects section, in order.
    #[schemars(length(max = 30))]
    pub projects: Vec<Project>,
    /// Work experience, newest first.
    #[schemars(length(max = 30))]
    pub experience: Vec<TimelineEntry>,
    /// Education, newest first.
    #[schemars(length(max = 30))]
    pub education: Vec<TimelineEntry>,
    /// Every image the document uses, referred to by its id.
    #[schemars(length(max = 200))]
    pub media: Vec<MediaItem>,
    pub resume: Resume,
    /// Each section's heading and the line below it.
    pub sections: SectionTexts,
    /// The footer's title and line, and the copyright's first year.
    pub footer: Footer,
    /// How the page looks; a document stored without it looks as the page did before it existed.
    #[serde(default)]
    pub appearance: Appearance,
    /// The BCP 47 tag of the language the document's texts are written in, served at `/`.
    #[serde(
        default = "default_language",
        skip_serializing_if = "is_default_language"
    )]
    #[schemars(regex(pattern = LANGUAGE_TAG_PATTERN), length(max = 35))]
    #[cfg_attr(test, ts(as = "Option<String>", optional))]
    pub language: String,
    /// The owner's own wording of the page's fixed texts in the default language (`nav.about`,
    /// `projects.shown#other` …), over the built-in ones of `web/src/i18n/`.
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    #[schemars(schema_with = "strings_schema")]
    #[cfg_attr(test, ts(as = "Option<BTreeMap<String, String>>", optional))]
    pub strings: BTreeMap<String, String>,
    /// The page in other languages, each served at `/<tag in lower case>/` once published.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 10))]
    #[cfg_attr(test, ts(as = "Option<Vec<Language>>", optional))]
    pub languages: Vec<Language>,
}

fn default_language() -> String {
    DEFAULT_LANGUAGE.to_owned()
}

fn is_default_language(tag: &String) -> bool {
    tag == DEFAULT_LANGUAGE
}

/// The page in another language: the document's texts translated, keyed by their paths
/// (`profile.role`, `projects[2].description`), and the page's fixed texts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Language {
    /// Its BCP 47 tag (`de`, `pt-BR`); the page is served at the tag in lower case (`/pt-br/`).
    #[schemars(regex(pattern = LANGUAGE_TAG_PATTERN), length(max = 35))]
    pub tag: String,
    /// Served, listed in the alternates and the sitemap; a published language has every text
    /// translated.
    #[serde(default)]
    pub published: bool,
    /// The translations of the document's texts, by the path of the text they translate. A
    /// missing or empty one shows the default language's text (allowed until published).
    #[serde(default)]
    #[schemars(schema_with = "texts_schema")]
    pub texts: BTreeMap<String, String>,
    /// The page's fixed texts in this language, over the built-in ones for its tag; a language
    /// without built-in texts needs all of them.
    #[serde(default)]
    #[schemars(schema_with = "strings_schema")]
    pub strings: BTreeMap<String, String>,
    /// The paths of the texts this language shows as the default language has them (dates,
    /// names and places that rarely change): each follows the default text when it changes, and
    /// counts as translated. A translation of the same path is not shown.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    #[schemars(length(max = 2000), inner(length(max = 100)))]
    #[cfg_attr(test, ts(as = "Option<Vec<String>>", optional))]
    pub same: BTreeSet<String>,
}

/// Translations by path: at most 2000, each key at most 100 characters, each text at most 1500.
fn texts_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "maxProperties": 2000,
        "propertyNames": { "type": "string", "maxLength": 100 },
        "additionalProperties": { "type": "string", "maxLength": 1500 }
    })
}

/// Fixed texts by key: at most 300, each key at most 100 characters, each text at most 1500.
fn strings_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "maxProperties": 300,
        "propertyNames": { "type": "string", "maxLength": 100 },
        "additionalProperties": { "type": "string", "maxLength": 1500 }
    })
}

/// Who the site is about.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Profile {
    /// Full name: the hero, the about section, the footer and link previews.
    #[schemars(length(min = 1, max = 100))]
    pub name: String,
    /// Job title: the about section, link previews and search engines.
    #[schemars(length(min = 1, max = 100))]
    pub role: String,
    /// One or two sentences for the meta description and link previews.
    #[schemars(length(min = 1, max = 300))]
    pub summary: String,
    /// The hero's paragraph below the typewriter: who they are and what they build.
    #[schemars(length(min = 1, max = 600))]
    pub intro: String,
    pub location: Location,
    /// The id of the owner's photo in `media`.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub photo: String,
}

/// Where the owner is: as shown, and what a maps search looks for.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Location {
    #[schemars(length(min = 1, max = 100))]
    pub display: String,
    #[schemars(length(min = 1, max = 200))]
    pub maps_query: String,
}

/// The about section's text.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct About {
    #[schemars(length(min = 1, max = 6), inner(length(min = 1, max = 1500)))]
    pub paragraphs: Vec<String>,
}

/// How to reach the owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Contact {
    #[schemars(email, length(min = 3, max = 254))]
    pub email: String,
    pub phone: Phone,
    /// When a visitor may expect an answer, said once their message is sent ("I usually reply
    /// within a day or two."); translated with the page. A document stored before it existed
    /// says the placeholder's sentence.
    #[serde(default = "default_response_time")]
    #[schemars(length(min = 1, max = 200))]
    pub response_time: String,
}

/// The placeholder's `contact.responseTime`, for a document stored before it existed.
fn default_response_time() -> String {
    "I usually reply within a day or two.".to_owned()
}

/// A phone number as dialled (`+919000000000`) and as shown (`+91 90000 00000`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Phone {
    #[schemars(regex(pattern = DIAL_PATTERN))]
    pub dial: String,
    #[schemars(length(min = 1, max = 40))]
    pub display: String,
}

/// A profile elsewhere (GitHub, LinkedIn, X …).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SocialLink {
    /// Stable id (`github`, `linkedin`, `twitter` …): clicks are counted by it.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub id: String,
    /// The site's name, e.g. `GitHub`.
    #[schemars(length(min = 1, max = 40))]
    pub label: String,
    #[schemars(url, length(max = 500))]
    pub url: String,
}

/// A technology of the Skills section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Skill {
    #[schemars(length(min = 1, max = 40))]
    pub name: String,
    /// The id of its logo in `media`.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub logo: String,
}

/// Which filter of the Projects section shows a project.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum Stack {
    Frontend,
    Backend,
    Fullstack,
}

/// A project of the Projects section.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Project {
    /// Stable id: clicks on its links are counted as `project:<id>:code` and `project:<id>:demo`,
    /// so keep it when the title changes.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub id: String,
    #[schemars(length(min = 1, max = 100))]
    pub title: String,
    #[schemars(length(min = 1, max = 600))]
    pub description: String,
    /// The id of its screenshot in `media`.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub image: String,
    /// Code repository.
    #[schemars(url, length(max = 500))]
    pub code_url: String,
    /// Live demo.
    #[schemars(url, length(max = 500))]
    pub demo_url: String,
    #[schemars(length(max = 12), inner(length(min = 1, max = 40)))]
    pub technologies: Vec<String>,
    pub stack: Stack,
}

/// A job or a school.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TimelineEntry {
    #[schemars(length(min = 1, max = 120))]
    pub title: String,
    #[schemars(length(min = 1, max = 120))]
    pub place: String,
    /// As shown, e.g. `2021 - 2023`.
    #[schemars(length(min = 1, max = 40))]
    pub date: String,
    #[schemars(length(min = 1, max = 1000))]
    pub description: String,
    /// Each becomes a link that opens its certificate.
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub awards: Vec<Award>,
}

/// An award and its certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Award {
    #[schemars(length(min = 1, max = 100))]
    pub title: String,
    /// The id of the certificate's image in `media`.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub certificate: String,
}

/// An image in one or more widths.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MediaItem {
    #[schemars(regex(pattern = ID_PATTERN))]
    pub id: String,
    /// What the image shows, for people who cannot see it (empty for a decorative one).
    #[schemars(length(max = 200))]
    pub alt: String,
    /// The largest width, in pixels; with `height`, the aspect ratio the page reserves.
    #[schemars(range(min = 1, max = 10000))]
    pub width: u32,
    #[schemars(range(min = 1, max = 10000))]
    pub height: u32,
    /// The files, smallest first.
    #[schemars(length(min = 1, max = 6))]
    pub sources: Vec<MediaSource>,
}

/// One file of an image.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct MediaSource {
    #[schemars(regex(pattern = MEDIA_SRC_PATTERN), length(max = 300))]
    pub src: String,
    /// Its width in pixels.
    #[schemars(range(min = 1, max = 10000))]
    pub width: u32,
}

/// The resume every Download Resume button links to, and how the one made from this document is
/// set.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Resume {
    /// Path of the PDF served by the site.
    #[schemars(regex(pattern = SITE_PATH_PATTERN), length(max = 200))]
    pub path: String,
    /// Which PDF `/resume.pdf` serves: the one made from this document (`generated`), or the
    /// owner's own file (`uploaded`). Absent: the uploaded one while there is one, else the
    /// generated one (as a document stored before the choice existed had it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub source: Option<ResumeSource>,
    /// The generated resume's paper.
    #[serde(default, skip_serializing_if = "PaperSize::is_a4")]
    #[cfg_attr(test, ts(as = "Option<PaperSize>", optional))]
    pub paper: PaperSize,
    /// At most this many pages: what does not fit is left out whole.
    #[serde(default = "two_pages", skip_serializing_if = "is_two")]
    #[schemars(range(min = 1, max = 2))]
    #[cfg_attr(test, ts(as = "Option<u8>", optional))]
    pub pages: u8,
    /// Its sections, in order; absent or empty: all of them (summary, experience, projects,
    /// skills, education).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 5))]
    #[cfg_attr(test, ts(as = "Option<Vec<SectionKind>>", optional))]
    pub sections: Vec<SectionKind>,
    /// The projects it shows by id, in order; absent: every project in the page's order.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 30), inner(regex(pattern = ID_PATTERN)))]
    #[cfg_attr(test, ts(optional))]
    pub projects: Option<Vec<String>>,
    /// The jobs it shows by their place in `experience` (0 the first), in order; absent: every
    /// job.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(length(max = 30), inner(range(max = 29)))]
    #[cfg_attr(test, ts(optional))]
    pub jobs: Option<Vec<u8>>,
}

fn two_pages() -> u8 {
    2
}

fn is_two(pages: &u8) -> bool {
    *pages == 2
}

/// A resume's section, as the owner orders and picks them.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
    utoipa::ToSchema,
)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum SectionKind {
    /// The hero's paragraph (`profile.intro`), under the page's "About" heading.
    Summary,
    /// Work experience (`experience`).
    Experience,
    Projects,
    Skills,
    /// Education (`education`), with its awards.
    Education,
}

impl SectionKind {
    /// Every section, in the order a resume has them unless the owner orders them otherwise.
    pub const ALL: [SectionKind; 5] = [
        SectionKind::Summary,
        SectionKind::Experience,
        SectionKind::Projects,
        SectionKind::Skills,
        SectionKind::Education,
    ];

    /// The key of the page's fixed text that names the section (translated with the page).
    pub fn label_key(self) -> &'static str {
        match self {
            SectionKind::Summary => "nav.about",
            SectionKind::Experience => "experience.work",
            SectionKind::Projects => "nav.projects",
            SectionKind::Skills => "nav.skills",
            SectionKind::Education => "experience.education",
        }
    }
}

/// Which PDF the site serves as the resume.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum ResumeSource {
    /// Made from the published document, in each language.
    Generated,
    /// The owner's own PDF (`POST /api/media/resume`).
    Uploaded,
}

/// The generated resume's paper.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum PaperSize {
    #[default]
    A4,
    Letter,
}

impl PaperSize {
    fn is_a4(&self) -> bool {
        *self == PaperSize::A4
    }
}

/// The words around each section's content, in the page's order.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectionTexts {
    pub about: SectionText,
    pub skills: SectionText,
    pub projects: SectionText,
    /// Experience and education, one section.
    pub experience: SectionText,
    pub contact: SectionText,
}

/// A section's heading (`My Projects`) and the line below it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SectionText {
    #[schemars(length(min = 1, max = 80))]
    pub title: String,
    /// Empty for none.
    #[schemars(length(max = 400))]
    pub lead: String,
}

/// The page's footer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Footer {
    /// Its heading, e.g. `Portfolio`.
    #[schemars(length(min = 1, max = 60))]
    pub title: String,
    /// The line below it; empty for none.
    #[schemars(length(max = 300))]
    pub line: String,
    /// The copyright's first year: the line runs from it to the year of the publish.
    #[schemars(range(min = 1970, max = 2200))]
    pub since: u16,
    /// The year of the publish, which the server writes into the page it renders (`None` while
    /// nothing is published): never read from a document sent or stored.
    #[serde(default, skip_deserializing, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub until: Option<u16>,
}

/// Today's placeholder content: served as version 0 until something is published. The web
/// imports the same file.
pub const DEFAULT_DOCUMENT_JSON: &str = include_str!("../../web/src/content/default-document.json");

/// The default document, parsed once.
pub fn default_document() -> &'static ContentDocument {
    static DOCUMENT: OnceLock<ContentDocument> = OnceLock::new();
    DOCUMENT.get_or_init(|| {
        serde_json::from_str(DEFAULT_DOCUMENT_JSON).expect("the default document parses")
    })
}
