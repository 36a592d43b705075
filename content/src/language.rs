//! The page in several languages: which texts of the document are translated (one list,
//! [`text_fields`]), the page's fixed texts per language (the built-in tables of
//! `web/src/i18n/`, under the owner's own), the document of one language's page ([`localize`]),
//! its direction, and the locale the render bundle and the page's script read.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use serde::Serialize;

use super::document::ContentDocument;

/// The built-in tables of the page's fixed texts, by tag: flat `{"key": "text"}` objects.
/// `en` defines the keys.
pub const BUILT_IN: &[(&str, &str)] = &[
    ("en", include_str!("../../web/src/i18n/en.json")),
    ("de", include_str!("../../web/src/i18n/de.json")),
    ("fr", include_str!("../../web/src/i18n/fr.json")),
    ("es", include_str!("../../web/src/i18n/es.json")),
    ("pt", include_str!("../../web/src/i18n/pt.json")),
    ("ar", include_str!("../../web/src/i18n/ar.json")),
    ("he", include_str!("../../web/src/i18n/he.json")),
];

/// The CLDR plural categories: a key `k#other` of the English table allows `k#<category>`.
const PLURAL_CATEGORIES: [&str; 6] = ["zero", "one", "two", "few", "many", "other"];

pub type Table = BTreeMap<String, String>;

/// The built-in tables, parsed once; a table that does not parse counts as empty (a unit test
/// fails on it), so no request ever panics on one.
fn built_in() -> &'static [(&'static str, Table)] {
    static TABLES: OnceLock<Vec<(&'static str, Table)>> = OnceLock::new();
    TABLES.get_or_init(|| {
        BUILT_IN
            .iter()
            .map(|(tag, json)| {
                let table = serde_json::from_str(json).unwrap_or_else(|error| {
                    tracing::error!(%tag, %error, "a built-in table of the page's texts does not parse");
                    Table::new()
                });
                (*tag, table)
            })
            .collect()
    })
}

/// The English table, whose keys are the page's fixed texts.
fn english() -> &'static Table {
    built_in()
        .iter()
        .find(|(tag, _)| *tag == "en")
        .map(|(_, table)| table)
        .expect("the English table is built in")
}

/// The built-in table for `tag`: its own, else its primary language's (`de-AT` -> `de`).
pub fn built_in_table(tag: &str) -> Option<&'static Table> {
    let tag = tag.to_ascii_lowercase();
    let primary = tag.split('-').next().unwrap_or_default();
    let find = |wanted: &str| {
        built_in()
            .iter()
            .find(|(tag, _)| *tag == wanted)
            .map(|(_, table)| table)
    };
    find(&tag).or_else(|| find(primary))
}

/// Whether `key` is one of the page's fixed texts: a key of the English table, or another plural
/// category of one (`projects.shown#few` where `projects.shown#other` exists).
pub fn is_known_key(key: &str) -> bool {
    if english().contains_key(key) {
        return true;
    }
    match key.rsplit_once('#') {
        Some((base, category)) => {
            PLURAL_CATEGORIES.contains(&category)
                && english().contains_key(&format!("{base}#other"))
        }
        None => false,
    }
}

/// The keys every language needs: the English table's, but plural categories other than `other`
/// (a language's rules may not use them; a missing one falls back to `other`).
pub fn required_keys() -> impl Iterator<Item = &'static str> {
    english().keys().map(String::as_str).filter(|key| {
        key.rsplit_once('#')
            .is_none_or(|(_, category)| category == "other")
    })
}

/// Each translatable text of a document with its path, in document order, as `&` or `&mut`
/// fields: the one list of what is translated.
macro_rules! each_text {
    ($document:expr, $($mutability:tt)?) => {{
        let document = $document;
        let mut fields = Vec::new();
        let mut visit = |path: String, text| fields.push((path, text));
        visit("profile.role".to_owned(), & $($mutability)? document.profile.role);
        visit("profile.summary".to_owned(), & $($mutability)? document.profile.summary);
        visit("profile.intro".to_owned(), & $($mutability)? document.profile.intro);
        visit(
            "profile.location.display".to_owned(),
            & $($mutability)? document.profile.location.display,
        );
        for (i, phrase) in (& $($mutability)? document.typewriter_phrases).into_iter().enumerate() {
            visit(format!("typewriterPhrases[{i}]"), phrase);
        }
        for (i, paragraph) in (& $($mutability)? document.about.paragraphs).into_iter().enumerate() {
            visit(format!("about.paragraphs[{i}]"), paragraph);
        }
        visit(
            "contact.responseTime".to_owned(),
            & $($mutability)? document.contact.response_time,
        );
        for (i, project) in (& $($mutability)? document.projects).into_iter().enumerate() {
            visit(format!("projects[{i}].title"), & $($mutability)? project.title);
            visit(format!("projects[{i}].description"), & $($mutability)? project.description);
        }
        for (list, entries) in [
            ("experience", & $($mutability)? document.experience),
            ("education", & $($mutability)? document.education),
        ] {
            for (i, entry) in entries.into_iter().enumerate() {
                visit(format!("{list}[{i}].title"), & $($mutability)? entry.title);
                visit(format!("{list}[{i}].place"), & $($mutability)? entry.place);
                visit(format!("{list}[{i}].date"), & $($mutability)? entry.date);
                visit(format!("{list}[{i}].description"), & $($mutability)? entry.description);
                for (j, award) in (& $($mutability)? entry.awards).into_iter().enumerate() {
                    visit(format!("{list}[{i}].awards[{j}].title"), & $($mutability)? award.title);
                }
            }
        }
        for (i, item) in (& $($mutability)? document.media).into_iter().enumerate() {
            visit(format!("media[{i}].alt"), & $($mutability)? item.alt);
        }
        let sections = & $($mutability)? document.sections;
        for (name, section) in [
            ("about", & $($mutability)? sections.about),
            ("skills", & $($mutability)? sections.skills),
            ("projects", & $($mutability)? sections.projects),
            ("experience", & $($mutability)? sections.experience),
            ("contact", & $($mutability)? sections.contact),
        ] {
            visit(format!("sections.{name}.title"), & $($mutability)? section.title);
            visit(format!("sections.{name}.lead"), & $($mutability)? section.lead);
        }
        visit("footer.title".to_owned(), & $($mutability)? document.footer.title);
        visit("footer.line".to_owned(), & $($mutability)? document.footer.line);
        fields
    }};
}

/// Every translatable text of `document` by its path (as validation names paths), with its
/// value in the default language, in document order.
pub fn text_fields(document: &ContentDocument) -> Vec<(String, &str)> {
    each_text!(document,)
        .into_iter()
        .map(|(path, text): (String, &String)| (path, text.as_str()))
        .collect()
}

/// The page's document for the language `tag` (the default one or one of `languages`, matched
/// ignoring case): every translatable text in that language (one marked `same`, or with an empty
/// or missing translation, keeps the default text), `language` set to the tag, and no `strings` or `languages`, so a page
/// carries its own language's texts alone. `None` for a tag the document does not have.
pub fn localize(document: &ContentDocument, tag: &str) -> Option<ContentDocument> {
    let language = if document.language.eq_ignore_ascii_case(tag) {
        None
    } else {
        Some(
            document
                .languages
                .iter()
                .find(|language| language.tag.eq_ignore_ascii_case(tag))?,
        )
    };
    let mut page = document.clone();
    page.strings = BTreeMap::new();
    page.languages = Vec::new();
    if let Some(language) = language {
        page.language = language.tag.clone();
        // The resume made in this language, beside its page (`/de/resume.pdf`).
        if page.resume.path == crate::addresses::RESUME_PATH {
            page.resume.path = format!("/{}{}", segment(&language.tag), page.resume.path);
        }
        let fields: Vec<(String, &mut String)> = each_text!(&mut page, mut);
        for (path, text) in fields {
            if language.same.contains(&path) {
                continue;
            }
            if let Some(translation) = language.texts.get(&path).filter(|t| !t.is_empty()) {
                text.clone_from(translation);
            }
        }
    }
    Some(page)
}

/// The document as anyone may read it: without the languages that are not published.
pub fn published_only(document: &ContentDocument) -> std::borrow::Cow<'_, ContentDocument> {
    if document.languages.iter().all(|language| language.published) {
        return std::borrow::Cow::Borrowed(document);
    }
    let mut public = document.clone();
    public.languages.retain(|language| language.published);
    std::borrow::Cow::Owned(public)
}

/// The languages written right to left, by their primary subtag, and the right-to-left scripts.
/// The page editor keeps the same two lists (`directionOf` in
/// `web/src/dashboard/page-editor/languages-form.tsx`); a test here compares them.
const RTL_LANGUAGES: [&str; 10] = ["ar", "he", "fa", "ur", "ps", "sd", "ug", "yi", "dv", "ckb"];
const RTL_SCRIPTS: [&str; 7] = ["arab", "hebr", "thaa", "syrc", "nkoo", "adlm", "rohg"];

/// `rtl` for a language written right to left (by its primary language, or a right-to-left
/// script subtag such as `-Arab`), else `ltr`.
pub fn direction(tag: &str) -> &'static str {
    let tag = tag.to_ascii_lowercase();
    let mut subtags = tag.split('-');
    let primary = subtags.next().unwrap_or_default();
    let script = subtags.any(|subtag| RTL_SCRIPTS.contains(&subtag));
    if RTL_LANGUAGES.contains(&primary) || script {
        "rtl"
    } else {
        "ltr"
    }
}

/// The fixed texts of the page in the language `tag` of `document`: the built-in table for the
/// tag (if any) with the owner's own texts for that language over it. Empty for a tag the
/// document does not have.
pub fn table(document: &ContentDocument, tag: &str) -> Table {
    let own = if document.language.eq_ignore_ascii_case(tag) {
        Some(&document.strings)
    } else {
        document
            .languages
            .iter()
            .find(|language| language.tag.eq_ignore_ascii_case(tag))
            .map(|language| &language.strings)
    };
    let Some(own) = own else {
        return Table::new();
    };
    let mut table = built_in_table(tag).cloned().unwrap_or_default();
    table.extend(own.iter().map(|(key, text)| (key.clone(), text.clone())));
    table
}

/// The tags served: the default language first, then the published languages in document order.
pub fn published_tags(document: &ContentDocument) -> Vec<String> {
    std::iter::once(document.language.clone())
        .chain(
            document
                .languages
                .iter()
                .filter(|language| language.published)
                .map(|language| language.tag.clone()),
        )
        .collect()
}

/// Whether the document is in one language only, English, with the built-in texts: its page is
/// then the build's, without a locale.
pub fn is_plain(document: &ContentDocument) -> bool {
    document.languages.is_empty()
        && document.strings.is_empty()
        && document.language == super::document::DEFAULT_LANGUAGE
}

/// The path segment of a language's page: its tag in lower case.
pub fn segment(tag: &str) -> String {
    tag.to_ascii_lowercase()
}

/// Where the page in `tag` is served: `/` for the default language, `/<tag in lower case>/`.
pub fn href(document: &ContentDocument, tag: &str) -> String {
    if document.language.eq_ignore_ascii_case(tag) {
        "/".to_owned()
    } else {
        format!("/{}/", segment(tag))
    }
}

/// A published language as the language menu and the offer to switch show it.
#[derive(Debug, Serialize)]
pub struct LocaleLanguage {
    pub tag: String,
    pub name: String,
    pub href: String,
    pub dir: &'static str,
    /// That language's own `offer.text`, `offer.switch` and `offer.dismiss`.
    pub offer: Table,
}

/// What a page in one language knows of languages: its tag, direction, the fixed texts that differ
/// from the English built into the page's script, and every published language.
#[derive(Debug, Serialize)]
pub struct Locale {
    pub tag: String,
    pub dir: &'static str,
    pub strings: Table,
    pub languages: Vec<LocaleLanguage>,
}

/// The locale of the page in `tag`: `None` for a plain document (see [`is_plain`]) or a tag the
/// document does not have.
pub fn locale(document: &ContentDocument, tag: &str) -> Option<Locale> {
    if is_plain(document) || localize(document, tag).is_none() {
        return None;
    }
    let own_tag = if document.language.eq_ignore_ascii_case(tag) {
        document.language.clone()
    } else {
        document
            .languages
            .iter()
            .find(|language| language.tag.eq_ignore_ascii_case(tag))
            .map(|language| language.tag.clone())?
    };
    let languages = published_tags(document)
        .into_iter()
        .map(|tag| {
            let table = table(document, &tag);
            let offer = ["offer.text", "offer.switch", "offer.dismiss"]
                .into_iter()
                .filter_map(|key| table.get(key).map(|text| (key.to_owned(), text.clone())))
                .collect();
            LocaleLanguage {
                name: table
                    .get("languageName")
                    .cloned()
                    .unwrap_or_else(|| tag.clone()),
                href: href(document, &tag),
                dir: direction(&tag),
                offer,
                tag,
            }
        })
        .collect();
    // The page's script has the English texts built in and falls back to them: only the texts that
    // differ travel in the page (an English page carries the owner's changes alone).
    let english = built_in_table("en");
    let strings = table(document, &own_tag)
        .into_iter()
        .filter(|(key, text)| english.and_then(|table| table.get(key)) != Some(text))
        .collect();
    Some(Locale {
        dir: direction(&own_tag),
        strings,
        languages,
        tag: own_tag,
    })
}

/// The locale as the render bundle takes it: JSON, or `null` (see [`locale`]).
pub fn locale_json(document: &ContentDocument, tag: &str) -> String {
    match locale(document, tag) {
        Some(locale) => serde_json::to_string(&locale).expect("a locale serialises"),
        None => "null".to_owned(),
    }
}

/// The most missing translations named one by one for one language; the rest are counted.
const MAX_NAMED: usize = 50;

/// What only code can check of the languages: tags unique, never the default language's nor a
/// route's; translations, and texts marked the same as the default language's, of texts the
/// document has, within their fields' bounds (checked by
/// `check_page`, the schema's check of a page's document); fixed texts the page has; and a
/// published language complete.
pub fn check(
    document: &ContentDocument,
    check_page: impl Fn(&ContentDocument) -> BTreeMap<String, String>,
    errors: &mut BTreeMap<String, String>,
) {
    check_strings(
        "strings",
        &document.language,
        &document.strings,
        true,
        errors,
    );
    let paths: BTreeSet<String> = text_fields(document)
        .into_iter()
        .map(|(path, _)| path)
        .collect();
    let mut seen = BTreeSet::new();
    for (i, language) in document.languages.iter().enumerate() {
        let at = format!("languages[{i}]");
        let lower = language.tag.to_ascii_lowercase();
        if lower == document.language.to_ascii_lowercase() {
            errors.entry(format!("{at}.tag")).or_insert_with(|| {
                format!(
                    "{:?} is the default language (the document's language)",
                    language.tag
                )
            });
        } else if !seen.insert(lower.clone()) {
            errors
                .entry(format!("{at}.tag"))
                .or_insert_with(|| format!("{:?} is already another language", language.tag));
        } else if crate::addresses::is_reserved(&lower) {
            errors
                .entry(format!("{at}.tag"))
                .or_insert_with(|| format!("/{lower}/ is the address of the server's own pages"));
        }
        for key in language.texts.keys() {
            if !paths.contains(key) {
                errors
                    .entry(format!("{at}.texts.{key}"))
                    .or_insert_with(|| "is not a text of the document".to_owned());
            }
        }
        for (n, path) in language.same.iter().enumerate() {
            if !paths.contains(path) {
                errors
                    .entry(format!("{at}.same[{n}]"))
                    .or_insert_with(|| format!("{path:?} is not a text of the document"));
            }
        }
        if let Some(page) = localize(document, &language.tag) {
            for (path, problem) in check_page(&page) {
                if language.texts.get(&path).is_some_and(|t| !t.is_empty()) {
                    errors
                        .entry(format!("{at}.texts.{path}"))
                        .or_insert(problem);
                }
            }
        }
        if language.published {
            let missing = text_fields(document)
                .into_iter()
                .filter(|(path, text)| {
                    !text.is_empty()
                        && !language.same.contains(path)
                        && language.texts.get(path).is_none_or(|t| t.is_empty())
                })
                .map(|(path, _)| path);
            name_missing(&format!("{at}.texts"), missing, errors);
        }
        check_strings(
            &format!("{at}.strings"),
            &language.tag,
            &language.strings,
            language.published,
            errors,
        );
    }
}

/// Unknown keys of a language's fixed texts, and, for a served language without built-in
/// texts, the missing ones.
fn check_strings(
    at: &str,
    tag: &str,
    strings: &Table,
    served: bool,
    errors: &mut BTreeMap<String, String>,
) {
    for key in strings.keys() {
        if !is_known_key(key) {
            errors
                .entry(format!("{at}.{key}"))
                .or_insert_with(|| "is not a text of the page".to_owned());
        }
    }
    if served && built_in_table(tag).is_none() {
        // Each one named: they are as many as the English table's keys, not the document's.
        for key in required_keys().filter(|key| !strings.contains_key(*key)) {
            errors
                .entry(format!("{at}.{key}"))
                .or_insert_with(|| "is missing".to_owned());
        }
    }
}

/// Names each missing translation under `at` (`at.<path>`: `is missing`), the first
/// [`MAX_NAMED`] one by one and the rest as one count on `at`.
fn name_missing(
    at: &str,
    missing: impl Iterator<Item = String>,
    errors: &mut BTreeMap<String, String>,
) {
    let mut more = 0;
    for (n, path) in missing.enumerate() {
        if n < MAX_NAMED {
            errors
                .entry(format!("{at}.{path}"))
                .or_insert_with(|| "is missing".to_owned());
        } else {
            more += 1;
        }
    }
    if more > 0 {
        errors
            .entry(at.to_owned())
            .or_insert_with(|| format!("{more} more are missing"));
    }
}

/// The default document with a language `tag` whose every text is translated (`<tag> 0`,
/// `<tag> 1` … in document order): for the tests, here and in the server's.
pub fn with_language(tag: &str, published: bool) -> ContentDocument {
    let mut document = crate::document::default_document().clone();
    let texts = text_fields(&document)
        .into_iter()
        .filter(|(_, text)| !text.is_empty())
        .enumerate()
        .map(|(i, (path, _))| (path, format!("{tag} {i}")))
        .collect();
    document.languages.push(crate::document::Language {
        tag: tag.to_owned(),
        published,
        texts,
        strings: BTreeMap::new(),
        same: BTreeSet::new(),
    });
    document
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{default_document, Language};

    #[test]
    fn every_translatable_text_is_listed_by_its_path_in_document_order() {
        let document = default_document();
        let fields = text_fields(document);
        let paths: Vec<&str> = fields.iter().map(|(path, _)| path.as_str()).collect();
        assert_eq!(
            &paths[..5],
            [
                "profile.role",
                "profile.summary",
                "profile.intro",
                "profile.location.display",
                "typewriterPhrases[0]"
            ]
        );
        assert_eq!(fields[0].1, document.profile.role);
        assert!(paths.contains(&"about.paragraphs[0]"));
        assert!(paths.contains(&"contact.responseTime"));
        assert!(paths.contains(&"projects[2].description"));
        assert!(paths.contains(&"experience[0].date"));
        assert!(paths.contains(&"education[0].place"));
        assert!(paths.contains(&&*format!("media[{}].alt", document.media.len() - 1)));
        assert!(paths.contains(&"sections.projects.lead"));
        assert_eq!(&paths[paths.len() - 2..], ["footer.title", "footer.line"]);
        let awards: usize = document
            .experience
            .iter()
            .chain(&document.education)
            .map(|entry| entry.awards.len())
            .sum();
        assert!(awards > 0, "the default document has awards");
        assert!(paths.iter().any(|p| p.contains(".awards[0].title")));
        let expected = 4
            + 2 * 5
            + 2
            + document.typewriter_phrases.len()
            + document.about.paragraphs.len()
            + 1 // contact.responseTime
            + 2 * document.projects.len()
            + 4 * (document.experience.len() + document.education.len())
            + awards
            + document.media.len();
        assert_eq!(fields.len(), expected);
        // Names, ids, URLs and technologies are never translated.
        assert!(!paths.iter().any(|p| p.contains("name")
            || p.contains("url")
            || p.contains("Url")
            || p.contains("technologies")
            || p.contains(".id")));
    }

    #[test]
    fn a_page_carries_its_own_languages_texts_alone() {
        let mut document = with_language("de", true);
        document.languages[0]
            .texts
            .insert("profile.summary".into(), String::new());
        document.languages[0]
            .strings
            .insert("nav.home".into(), "Start".into());
        document.strings.insert("nav.home".into(), "Top".into());
        let german = localize(&document, "DE").expect("a language of the document");
        assert_eq!(german.language, "de");
        assert_eq!(german.profile.role, "de 0");
        // Empty: the default text stays.
        assert_eq!(german.profile.summary, document.profile.summary);
        assert_eq!(german.profile.name, document.profile.name);
        assert_eq!(german.projects[0].code_url, document.projects[0].code_url);
        assert!(german.languages.is_empty() && german.strings.is_empty());
        let json = serde_json::to_string(&german).unwrap();
        assert!(!json.contains("\"languages\"") && !json.contains("Top"));

        let default = localize(&document, "en").expect("the default language");
        assert_eq!(default.profile.role, document.profile.role);
        assert_eq!(default.language, "en");
        assert!(default.languages.is_empty() && default.strings.is_empty());
        assert!(localize(&document, "fr").is_none());
        assert_eq!(
            localize(default_document(), "en").as_ref(),
            Some(default_document())
        );
    }

    #[test]
    fn a_text_marked_the_same_shows_the_default_languages_and_follows_it() {
        let mut document = with_language("de", true);
        let german = &mut document.languages[0];
        german.same.insert("experience[0].date".into());
        german.same.insert("profile.location.display".into());
        // A translation of a text marked the same is not shown.
        german
            .texts
            .insert("profile.location.display".into(), "Irgendwo".into());
        german.texts.remove("experience[0].date");
        document.experience[0].date = "2024 - now".into();
        let page = localize(&document, "de").expect("German");
        assert_eq!(page.experience[0].date, "2024 - now");
        assert_eq!(
            page.profile.location.display,
            document.profile.location.display
        );
        assert_eq!(page.profile.role, "de 0");
    }

    #[test]
    fn the_page_editor_knows_the_same_right_to_left_languages_and_scripts() {
        let editor = include_str!("../../web/src/dashboard/page-editor/languages-form.tsx");
        let languages = regex::Regex::new(r"const RTL = new Set\(\[([^\]]*)\]\)")
            .unwrap()
            .captures(editor)
            .expect("the editor's RTL set")[1]
            .split(',')
            .map(|item| item.trim().trim_matches('\'').to_owned())
            .collect::<std::collections::BTreeSet<_>>();
        let scripts = regex::Regex::new(r"const RTL_SCRIPTS = /-\(([a-z|]*)\)")
            .unwrap()
            .captures(editor)
            .expect("the editor's RTL_SCRIPTS pattern")[1]
            .split('|')
            .map(str::to_owned)
            .collect::<std::collections::BTreeSet<_>>();
        let own = |list: &[&str]| list.iter().map(|s| (*s).to_owned()).collect();
        assert_eq!(languages, own(&RTL_LANGUAGES));
        assert_eq!(scripts, own(&RTL_SCRIPTS));
    }

    #[test]
    fn scripts_and_languages_written_right_to_left_are_rtl() {
        for tag in [
            "ar",
            "he",
            "he-IL",
            "fa",
            "ur",
            "ckb",
            "yi",
            "az-Arab",
            "pa-Arab-PK",
            "AR-eg",
        ] {
            assert_eq!(direction(tag), "rtl", "{tag}");
        }
        for tag in ["en", "de", "pt-BR", "az-Latn", "arn", "zh-Hant-TW", "sw"] {
            assert_eq!(direction(tag), "ltr", "{tag}");
        }
    }

    #[test]
    fn a_languages_table_is_the_built_in_one_with_the_owners_over_it() {
        let mut document = with_language("de-AT", true);
        document.languages[0]
            .strings
            .insert("nav.home".into(), "Startseite".into());
        let german = table(&document, "de-at");
        let built_in = built_in_table("de").expect("German is built in");
        assert_eq!(german["nav.home"], "Startseite");
        assert_eq!(german["nav.about"], built_in["nav.about"]);
        assert_eq!(german.len(), built_in.len());
        assert!(built_in_table("pt-BR").is_some());
        assert!(built_in_table("sw").is_none());
        assert!(built_in_table("e").is_none());

        document.strings.insert("nav.about".into(), "Me".into());
        let english = table(&document, "en");
        assert_eq!(english["nav.about"], "Me");
        assert_eq!(english.len(), english_keys());

        let mut swahili = with_language("sw", false);
        swahili.languages[0]
            .strings
            .insert("nav.home".into(), "Nyumbani".into());
        assert_eq!(table(&swahili, "sw").len(), 1);
        assert!(table(&swahili, "fr").is_empty());
    }

    fn english_keys() -> usize {
        english().len()
    }

    #[test]
    fn the_built_in_tables_parse_and_name_only_the_pages_texts() {
        for (tag, json) in BUILT_IN {
            let table: Table = serde_json::from_str(json).unwrap_or_else(|e| panic!("{tag}: {e}"));
            assert!(!table.is_empty(), "{tag}");
            for key in table.keys() {
                assert!(is_known_key(key), "{tag}: {key}");
            }
            assert!(table.contains_key("languageName"), "{tag}");
        }
        assert!(is_known_key("projects.shown#few"));
        assert!(is_known_key("projects.shown#one"));
        assert!(!is_known_key("nav.home#few"));
        assert!(!is_known_key("projects.shown#several"));
        assert!(!is_known_key("foo"));
        assert!(required_keys().any(|k| k == "projects.shown#other"));
        assert!(!required_keys().any(|k| k == "projects.shown#one"));
    }

    #[test]
    fn the_published_languages_follow_the_default_one() {
        let mut document = with_language("de", true);
        document.languages.push(Language {
            tag: "fr".into(),
            published: false,
            texts: BTreeMap::new(),
            strings: BTreeMap::new(),
            same: BTreeSet::new(),
        });
        document.languages.push(Language {
            tag: "pt-BR".into(),
            published: true,
            texts: BTreeMap::new(),
            strings: BTreeMap::new(),
            same: BTreeSet::new(),
        });
        assert_eq!(published_tags(&document), ["en", "de", "pt-BR"]);
        assert_eq!(href(&document, "pt-BR"), "/pt-br/");
        assert_eq!(href(&document, "en"), "/");
        assert_eq!(published_tags(default_document()), ["en"]);
    }

    #[test]
    fn the_locale_lists_each_published_language_with_its_own_offer() {
        assert!(locale(default_document(), "en").is_none());
        assert_eq!(locale_json(default_document(), "en"), "null");
        let mut document = with_language("ar", true);
        document.languages[0]
            .strings
            .insert("offer.switch".into(), "اقرأها بالعربية".into());
        let json: serde_json::Value = serde_json::from_str(&locale_json(&document, "ar")).unwrap();
        assert_eq!(json["tag"], "ar");
        assert_eq!(json["dir"], "rtl");
        assert_eq!(json["strings"]["offer.switch"], "اقرأها بالعربية");
        let languages = json["languages"].as_array().unwrap();
        assert_eq!(languages.len(), 2);
        assert_eq!(languages[0]["tag"], "en");
        assert_eq!(languages[0]["href"], "/");
        assert_eq!(languages[0]["dir"], "ltr");
        assert_eq!(languages[0]["name"], english()["languageName"].as_str());
        assert_eq!(
            languages[0]["offer"]["offer.text"],
            english()["offer.text"].as_str()
        );
        assert_eq!(languages[1]["href"], "/ar/");
        assert_eq!(languages[1]["offer"]["offer.switch"], "اقرأها بالعربية");
        let keys: Vec<&String> = json.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 4);
        let english_page: serde_json::Value =
            serde_json::from_str(&locale_json(&document, "en")).unwrap();
        assert_eq!(english_page["tag"], "en");
        assert_eq!(english_page["languages"], json["languages"]);
        // Only the texts that differ from the English the page's script has built in.
        assert_eq!(english_page["strings"], serde_json::json!({}));
        assert_eq!(json["strings"]["nav.home"], "الرئيسية");
        document
            .strings
            .insert("nav.home".into(), "Start here".into());
        let changed: serde_json::Value =
            serde_json::from_str(&locale_json(&document, "en")).unwrap();
        assert_eq!(
            changed["strings"],
            serde_json::json!({ "nav.home": "Start here" })
        );
    }

    #[test]
    fn a_language_can_never_take_the_address_of_the_servers_own_pages_or_links() {
        for tag in ["a", "api", "Dashboard"] {
            let mut document = default_document().clone();
            document.languages.push(Language {
                tag: tag.into(),
                published: false,
                texts: BTreeMap::new(),
                strings: BTreeMap::new(),
                same: BTreeSet::new(),
            });
            let mut errors = BTreeMap::new();
            check(&document, |_| BTreeMap::new(), &mut errors);
            let lower = tag.to_ascii_lowercase();
            assert_eq!(
                errors.get("languages[0].tag").map(String::as_str),
                Some(format!("/{lower}/ is the address of the server's own pages").as_str()),
                "{tag}: {errors:?}"
            );
        }
    }
}
