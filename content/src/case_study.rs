//! A project's case study: how the work was done, on a page of its own (`/projects/<slug>/`).
//! Each is an entry of the content store of its own (kind [`KIND`], keyed by its project's id),
//! drafted, versioned and published apart from the page's document, which holds the project's
//! card. Its longer texts take a safe subset of Markdown (see [`super::markdown`]).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
#[cfg(test)]
use ts_rs::TS;

use super::document::{MediaItem, ID_PATTERN, LANGUAGE_TAG_PATTERN};

/// The kind of a case study's entries in the content store.
pub const KIND: &str = "case-study";
/// What a slug may be: lower case letters, digits and single dashes between them.
pub const SLUG_PATTERN: &str = "^[a-z0-9]+(-[a-z0-9]+)*$";

/// A project's case study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CaseStudy {
    /// The id of the project it tells of, in the page's `projects`: its title, picture and card
    /// are the project's.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub project: String,
    /// Its address, `/projects/<slug>/`: made from the project's title when the case study is
    /// begun, and kept when the title changes.
    #[schemars(regex(pattern = SLUG_PATTERN), length(min = 1, max = 80))]
    pub slug: String,
    /// The addresses it had before, newest first, each answering with a 301 to the current one.
    /// Kept by the server when a publish changes the slug.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 20), inner(regex(pattern = SLUG_PATTERN), length(min = 1, max = 80)))]
    #[cfg_attr(test, ts(as = "Option<Vec<String>>", optional))]
    pub former_slugs: Vec<String>,
    /// One or two sentences under the title: also the page's description and its link preview's.
    #[schemars(length(min = 1, max = 300))]
    pub summary: String,
    /// The problem the work solved (Markdown).
    #[schemars(length(min = 1, max = 4000))]
    pub problem: String,
    /// What the owner did (Markdown).
    #[schemars(length(min = 1, max = 1500))]
    pub role: String,
    /// Who else worked on it (Markdown; empty for none).
    #[serde(default)]
    #[schemars(length(max = 1500))]
    pub team: String,
    /// What the work had to live with: time, budget, legacy (Markdown; empty for none).
    #[serde(default)]
    #[schemars(length(max = 3000))]
    pub constraints: String,
    /// The decisions taken, each with why.
    #[serde(default)]
    #[schemars(length(max = 10))]
    pub decisions: Vec<Decision>,
    /// What came of it (Markdown).
    #[schemars(length(min = 1, max = 4000))]
    pub outcome: String,
    /// The outcome in figures.
    #[serde(default)]
    #[schemars(length(max = 6))]
    pub figures: Vec<Figure>,
    /// Pictures of the work, each with a caption; their descriptions for people who cannot see
    /// them are the images' `alt`.
    #[serde(default)]
    #[schemars(length(max = 12))]
    pub gallery: Vec<GalleryImage>,
    /// The code, the live site, write-ups.
    #[serde(default)]
    #[schemars(length(max = 8))]
    pub links: Vec<CaseLink>,
    /// The technologies used.
    #[serde(default)]
    #[schemars(length(max = 20), inner(length(min = 1, max = 40)))]
    pub technologies: Vec<String>,
    /// The images the gallery and the texts use, referred to by id (uploads of the owner's).
    #[serde(default)]
    #[schemars(length(max = 24))]
    pub media: Vec<MediaItem>,
    /// Its texts in the page's other languages, by path (`problem`, `decisions[1].why`). A
    /// language is shown once every text is translated; until then that language's pages leave
    /// the case study out.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 10))]
    #[cfg_attr(test, ts(as = "Option<Vec<CaseStudyTranslation>>", optional))]
    pub translations: Vec<CaseStudyTranslation>,
}

/// A decision and why it was taken.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Decision {
    #[schemars(length(min = 1, max = 120))]
    pub title: String,
    /// Why (Markdown).
    #[schemars(length(min = 1, max = 2000))]
    pub why: String,
}

/// A result as a number: `38` `%` "faster checkout".
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Figure {
    /// Written in the page's language's way (`1,200.5` in English, `1.200,5` in German).
    #[schemars(range(min = -1.0e12, max = 1.0e12))]
    pub value: f64,
    /// After the number: `%`, `ms`, `×`, `k users` (empty for none).
    #[serde(default)]
    #[schemars(length(max = 16))]
    pub unit: String,
    /// What it measures.
    #[schemars(length(min = 1, max = 80))]
    pub label: String,
}

/// A picture of the gallery.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct GalleryImage {
    /// Its id in the case study's `media`.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub image: String,
    /// Shown under it (empty for none).
    #[serde(default)]
    #[schemars(length(max = 200))]
    pub caption: String,
}

/// What a link of a case study leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase")]
pub enum CaseLinkKind {
    Code,
    Live,
    Article,
}

/// A link of a case study.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CaseLink {
    pub kind: CaseLinkKind,
    #[schemars(length(min = 1, max = 80))]
    pub label: String,
    #[schemars(url, length(max = 500))]
    pub url: String,
}

/// A case study's texts in another language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CaseStudyTranslation {
    #[schemars(regex(pattern = LANGUAGE_TAG_PATTERN), length(max = 35))]
    pub tag: String,
    /// The translations, by the path of the text they translate.
    #[serde(default)]
    #[schemars(schema_with = "texts_schema")]
    pub texts: BTreeMap<String, String>,
    /// The paths of the texts shown as the default language has them (names, figures' units).
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    #[schemars(length(max = 200), inner(length(max = 100)))]
    #[cfg_attr(test, ts(as = "Option<Vec<String>>", optional))]
    pub same: BTreeSet<String>,
}

/// The placeholder's case studies, shown by a fresh server beside the default document: two of
/// its four projects have one (`web/src/content/default-case-studies.json`, English only; their
/// gallery images are bundled from `web/src/content/images/case-studies/`).
pub const DEFAULT_CASE_STUDIES_JSON: &str =
    include_str!("../../web/src/content/default-case-studies.json");

/// The default case studies, parsed once.
pub fn default_case_studies() -> &'static [CaseStudy] {
    static STUDIES: OnceLock<Vec<CaseStudy>> = OnceLock::new();
    STUDIES.get_or_init(|| {
        serde_json::from_str(DEFAULT_CASE_STUDIES_JSON).expect("the default case studies parse")
    })
}

/// The texts a translation may translate, by path, with the case study's own wording.
pub fn texts(study: &CaseStudy) -> Vec<(String, &str)> {
    let mut texts = vec![
        ("summary".to_owned(), study.summary.as_str()),
        ("problem".to_owned(), study.problem.as_str()),
        ("role".to_owned(), study.role.as_str()),
        ("team".to_owned(), study.team.as_str()),
        ("constraints".to_owned(), study.constraints.as_str()),
        ("outcome".to_owned(), study.outcome.as_str()),
    ];
    for (i, decision) in study.decisions.iter().enumerate() {
        texts.push((format!("decisions[{i}].title"), &decision.title));
        texts.push((format!("decisions[{i}].why"), &decision.why));
    }
    for (i, figure) in study.figures.iter().enumerate() {
        texts.push((format!("figures[{i}].unit"), &figure.unit));
        texts.push((format!("figures[{i}].label"), &figure.label));
    }
    for (i, picture) in study.gallery.iter().enumerate() {
        texts.push((format!("gallery[{i}].caption"), &picture.caption));
    }
    for (i, link) in study.links.iter().enumerate() {
        texts.push((format!("links[{i}].label"), &link.label));
    }
    for (i, item) in study.media.iter().enumerate() {
        texts.push((format!("media[{i}].alt"), &item.alt));
    }
    texts
}

/// Whether the text at `path` takes Markdown.
pub fn is_markdown(path: &str) -> bool {
    matches!(
        path,
        "problem" | "role" | "team" | "constraints" | "outcome"
    ) || (path.starts_with("decisions[") && path.ends_with("].why"))
}

/// The texts in Markdown, by path, in the case study's own words and then in each translation's
/// (`translations[0].texts.problem`).
pub fn markdown_texts(study: &CaseStudy) -> Vec<(String, &str)> {
    let mut all: Vec<(String, &str)> = texts(study)
        .into_iter()
        .filter(|(path, _)| is_markdown(path))
        .collect();
    for (i, translation) in study.translations.iter().enumerate() {
        for (path, text) in &translation.texts {
            if is_markdown(path) {
                all.push((format!("translations[{i}].texts.{path}"), text));
            }
        }
    }
    all
}

/// The text at `path`, one a translation may translate.
pub fn text_at<'a>(study: &'a CaseStudy, path: &str) -> Option<&'a str> {
    texts(study)
        .into_iter()
        .find_map(|(p, text)| (p == path).then_some(text))
}

/// The case study as the language `tag` shows it: each text translated where a translation has
/// it (an empty one, or one the language keeps as it is, shows the default wording). Its
/// `translations` are left out.
pub fn translated(study: &CaseStudy, tag: &str) -> CaseStudy {
    let mut page = study.clone();
    page.translations.clear();
    let Some(translation) = study
        .translations
        .iter()
        .find(|t| t.tag.eq_ignore_ascii_case(tag))
    else {
        return page;
    };
    let text = |path: String, own: &mut String| {
        if translation.same.contains(&path) {
            return;
        }
        if let Some(words) = translation
            .texts
            .get(&path)
            .filter(|w| !w.trim().is_empty())
        {
            own.clone_from(words);
        }
    };
    text("summary".into(), &mut page.summary);
    text("problem".into(), &mut page.problem);
    text("role".into(), &mut page.role);
    text("team".into(), &mut page.team);
    text("constraints".into(), &mut page.constraints);
    text("outcome".into(), &mut page.outcome);
    for (i, decision) in page.decisions.iter_mut().enumerate() {
        text(format!("decisions[{i}].title"), &mut decision.title);
        text(format!("decisions[{i}].why"), &mut decision.why);
    }
    for (i, figure) in page.figures.iter_mut().enumerate() {
        text(format!("figures[{i}].unit"), &mut figure.unit);
        text(format!("figures[{i}].label"), &mut figure.label);
    }
    for (i, picture) in page.gallery.iter_mut().enumerate() {
        text(format!("gallery[{i}].caption"), &mut picture.caption);
    }
    for (i, link) in page.links.iter_mut().enumerate() {
        text(format!("links[{i}].label"), &mut link.label);
    }
    for (i, item) in page.media.iter_mut().enumerate() {
        text(format!("media[{i}].alt"), &mut item.alt);
    }
    page
}

/// Whether the language `tag` has every text of the case study: translated, or kept as it is;
/// an empty text needs nothing. Until it has, that language's pages leave the case study out.
pub fn is_translated(study: &CaseStudy, tag: &str) -> bool {
    let Some(translation) = study
        .translations
        .iter()
        .find(|t| t.tag.eq_ignore_ascii_case(tag))
    else {
        return false;
    };
    texts(study).into_iter().all(|(path, own)| {
        own.trim().is_empty()
            || translation.same.contains(&path)
            || translation
                .texts
                .get(&path)
                .is_some_and(|words| !words.trim().is_empty())
    })
}

/// A case study begun for `project`: its slug, every text still to write.
pub fn begun(project: &str, slug: String) -> CaseStudy {
    CaseStudy {
        project: project.to_owned(),
        slug,
        former_slugs: Vec::new(),
        summary: String::new(),
        problem: String::new(),
        role: String::new(),
        team: String::new(),
        constraints: String::new(),
        decisions: Vec::new(),
        outcome: String::new(),
        figures: Vec::new(),
        gallery: Vec::new(),
        links: Vec::new(),
        technologies: Vec::new(),
        media: Vec::new(),
        translations: Vec::new(),
    }
}

/// The slugs a case study published at `slug` keeps answering at: the one it had before, if
/// another, then those it had before that, newest first, never `slug` itself, at most 20.
pub fn former_slugs(before: Option<&CaseStudy>, slug: &str) -> Vec<String> {
    before.map_or_else(Vec::new, |before| {
        kept_slugs(&before.slug, &before.former_slugs, slug)
    })
}

/// The slugs an entry that answered at `before` (and its `former` ones) keeps answering at once
/// its slug is `slug`: newest first, without `slug`, at most 20. A case study's and a post's.
pub fn kept_slugs(before: &str, former: &[String], slug: &str) -> Vec<String> {
    let mut slugs: Vec<String> = Vec::new();
    for old in std::iter::once(before).chain(former.iter().map(String::as_str)) {
        if old != slug && !slugs.iter().any(|s| s == old) {
            slugs.push(old.to_owned());
        }
    }
    slugs.truncate(20);
    slugs
}

/// Translations by path: at most 200, each key at most 100 characters, each text at most 4000.
fn texts_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": "object",
        "maxProperties": 200,
        "propertyNames": { "type": "string", "maxLength": 100 },
        "additionalProperties": { "type": "string", "maxLength": 4000 }
    })
}

/// The slug made from a title: its letters and digits in lower case (accents dropped, other
/// scripts' letters left out), each run of anything else one dash, at most 60 characters;
/// `project` when nothing is left.
pub fn slug_from_title(title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars().flat_map(fold_latin) {
        if c.is_ascii_alphanumeric() {
            if slug.len() >= 60 {
                break;
            }
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let mut slug = slug.trim_end_matches('-').to_owned();
    if slug.len() > 60 {
        slug.truncate(60);
    }
    if slug.is_empty() {
        "project".to_owned()
    } else {
        slug
    }
}

/// A Latin letter with a diacritic as its base letter(s); anything else as it is.
fn fold_latin(c: char) -> Vec<char> {
    let base = match c {
        'À'..='Å' | 'à'..='å' | 'Ā' | 'ā' | 'Ă' | 'ă' | 'Ą' | 'ą' => "a",
        'Æ' | 'æ' => "ae",
        'Ç' | 'ç' | 'Ć' | 'ć' | 'Č' | 'č' => "c",
        'Ď' | 'ď' | 'Đ' | 'đ' | 'Ð' | 'ð' => "d",
        'È'..='Ë' | 'è'..='ë' | 'Ē' | 'ē' | 'Ę' | 'ę' | 'Ě' | 'ě' => "e",
        'Ì'..='Ï' | 'ì'..='ï' | 'Ī' | 'ī' | 'İ' | 'ı' => "i",
        'Ł' | 'ł' => "l",
        'Ñ' | 'ñ' | 'Ń' | 'ń' | 'Ň' | 'ň' => "n",
        'Ò'..='Ö' | 'Ø' | 'ò'..='ö' | 'ø' | 'Ō' | 'ō' | 'Ő' | 'ő' => "o",
        'Œ' | 'œ' => "oe",
        'Ř' | 'ř' => "r",
        'Ś' | 'ś' | 'Š' | 'š' | 'Ş' | 'ş' => "s",
        'ß' => "ss",
        'Ť' | 'ť' | 'Ţ' | 'ţ' => "t",
        'Ù'..='Ü' | 'ù'..='ü' | 'Ū' | 'ū' | 'Ů' | 'ů' | 'Ű' | 'ű' => "u",
        'Ý' | 'ý' | 'ÿ' | 'Ÿ' => "y",
        'Ź' | 'ź' | 'Ż' | 'ż' | 'Ž' | 'ž' => "z",
        'Þ' | 'þ' => "th",
        _ => return vec![c],
    };
    base.chars().collect()
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use super::{default_case_studies, slug_from_title};

    #[test]
    fn the_default_case_studies_images_are_bundled_files() {
        let content = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/src/content");
        for study in default_case_studies() {
            for picture in &study.gallery {
                let item = study
                    .media
                    .iter()
                    .find(|m| m.id == picture.image)
                    .expect("the picture is in media");
                assert!(!item.alt.is_empty(), "{} has a description", item.id);
                assert_eq!(
                    item.sources.last().map(|s| s.width),
                    Some(item.width),
                    "{}: the width is the largest file's",
                    item.id
                );
                for source in &item.sources {
                    assert!(
                        source.src.starts_with("images/case-studies/"),
                        "{}",
                        source.src
                    );
                    let file = content.join(&source.src);
                    assert!(file.is_file(), "{} is missing", file.display());
                }
            }
        }
    }

    #[test]
    fn a_slug_is_the_titles_words_in_lower_case_joined_by_dashes() {
        assert_eq!(
            slug_from_title("E-Commerce Platform"),
            "e-commerce-platform"
        );
        assert_eq!(
            slug_from_title("  Payments: the Rewrite (2024)! "),
            "payments-the-rewrite-2024"
        );
        assert_eq!(slug_from_title("Café Über Straße"), "cafe-uber-strasse");
        assert_eq!(slug_from_title("Łódź — Ørsted"), "lodz-orsted");
        assert_eq!(slug_from_title("見積もり"), "project");
        assert_eq!(slug_from_title("---"), "project");
        let long = slug_from_title(&"word ".repeat(40));
        assert!(long.len() <= 60 && !long.ends_with('-'), "{long}");
        let pattern = regex::Regex::new(super::SLUG_PATTERN).unwrap();
        for title in ["a", "A b", "x--y", "ü", "1 2 3", "Ab_Cd.Ef"] {
            assert!(pattern.is_match(&slug_from_title(title)), "{title}");
        }
    }
}
