//! Checks a content document at the boundary. The shape is checked by deserialising (serde names
//! the path of a missing or mistyped field); the bounds (lengths, counts, patterns, URLs) by
//! walking the document beside the JSON Schema generated from its types, so they are written
//! once, in `document.rs`; then what a schema cannot say: ids unique, references that resolve,
//! an accent colour that text can be read on.

use std::collections::{BTreeMap, HashSet};

use serde_json::Value;

use super::case_study::CaseStudy;
use super::document::ContentDocument;
use crate::domain::FieldErrors;

/// Checks a typed document: its bounds against the schema, then its ids and references.
pub fn check(document: &ContentDocument) -> Result<(), FieldErrors> {
    let value = serde_json::to_value(document).expect("a document serialises");
    let schema = super::schema::schema_value();
    let mut errors = FieldErrors::new();
    walk(&value, schema, schema, String::new(), &mut errors);
    check_ids(document, &mut errors);
    check_accent(document, &mut errors);
    // Each language's page is checked as a document of its own: a translation keeps within the
    // bounds of the text it translates.
    let check_page = |page: &ContentDocument| {
        let mut problems = FieldErrors::new();
        let value = serde_json::to_value(page).expect("a document serialises");
        walk(&value, schema, schema, String::new(), &mut problems);
        problems
    };
    super::language::check(document, check_page, &mut errors);
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Checks a post beside `page` (the page's document): its bounds against its schema, its
/// language one of the page's, its media ids unique and its cover one of them, its tags unique,
/// and its body's Markdown (the first problem, with its line).
pub fn check_post(post: &super::post::Post, page: &ContentDocument) -> Result<(), FieldErrors> {
    let schema = super::schema::post_schema_value();
    let mut errors = FieldErrors::new();
    let value = serde_json::to_value(post).expect("a post serialises");
    walk(&value, schema, schema, String::new(), &mut errors);
    let language_known = page.language.eq_ignore_ascii_case(&post.language)
        || page
            .languages
            .iter()
            .any(|l| l.tag.eq_ignore_ascii_case(&post.language));
    if !language_known {
        errors.entry("language".into()).or_insert_with(|| {
            format!(
                "{:?} is not the page's language nor one of its languages",
                post.language
            )
        });
    }
    let mut media = HashSet::new();
    for (i, item) in post.media.iter().enumerate() {
        if !media.insert(item.id.as_str()) {
            errors
                .entry(format!("media[{i}].id"))
                .or_insert_with(|| format!("{:?} is already the id of another item", item.id));
        }
    }
    if let Some(cover) = &post.cover {
        if !media.contains(cover.as_str()) {
            errors
                .entry("cover".into())
                .or_insert_with(|| format!("{cover:?} is not the id of an item in media"));
        }
    }
    let mut tags = HashSet::new();
    for (i, tag) in post.tags.iter().enumerate() {
        if !tags.insert(super::post::tag_slug(tag)) {
            errors
                .entry(format!("tags[{i}]"))
                .or_insert_with(|| format!("{tag:?} is already a tag of the post"));
        }
    }
    if post.translation_of.as_deref() == Some(post.id.as_str()) {
        errors
            .entry("translationOf".into())
            .or_insert_with(|| "a post cannot translate itself".into());
    }
    if !errors.contains_key("body") {
        if let Err(problem) =
            super::article::check(&post.body, |src| super::post::own_image(post, src))
        {
            errors.insert("body".into(), problem.to_string());
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Checks a case study of `page`'s project: its bounds against its schema, its ids and
/// references, its project and languages the page's, its longer texts' Markdown (in every
/// language), and each translation within the bounds of the text it translates.
pub fn check_case_study(study: &CaseStudy, page: &ContentDocument) -> Result<(), FieldErrors> {
    let schema = super::schema::case_study_schema_value();
    let mut errors = FieldErrors::new();
    let value = serde_json::to_value(study).expect("a case study serialises");
    walk(&value, schema, schema, String::new(), &mut errors);
    if !page.projects.iter().any(|p| p.id == study.project) {
        errors.entry("project".into()).or_insert_with(|| {
            format!("{:?} is not the id of a project of the page", study.project)
        });
    }
    let mut media = HashSet::new();
    for (i, item) in study.media.iter().enumerate() {
        if !media.insert(item.id.as_str()) {
            errors
                .entry(format!("media[{i}].id"))
                .or_insert_with(|| format!("{:?} is already the id of another item", item.id));
        }
    }
    for (i, picture) in study.gallery.iter().enumerate() {
        if !media.contains(picture.image.as_str()) {
            errors
                .entry(format!("gallery[{i}].image"))
                .or_insert_with(|| {
                    format!("{:?} is not the id of an item in media", picture.image)
                });
        }
    }
    let mut tags = HashSet::new();
    for (i, translation) in study.translations.iter().enumerate() {
        let tag = translation.tag.to_ascii_lowercase();
        if !page
            .languages
            .iter()
            .any(|l| l.tag.eq_ignore_ascii_case(&tag))
        {
            errors
                .entry(format!("translations[{i}].tag"))
                .or_insert_with(|| {
                    format!("{:?} is not one of the page's languages", translation.tag)
                });
        } else if !tags.insert(tag) {
            errors
                .entry(format!("translations[{i}].tag"))
                .or_insert_with(|| format!("{:?} is translated twice", translation.tag));
        }
        if let Some(path) = translation
            .texts
            .keys()
            .chain(&translation.same)
            .find(|path| super::case_study::text_at(study, path).is_none())
        {
            errors
                .entry(format!("translations[{i}].texts"))
                .or_insert_with(|| format!("{path:?} is not a text of the case study"));
        }
    }
    // The longer texts in Markdown, in every language.
    for (path, text) in super::case_study::markdown_texts(study) {
        if let Err(problem) = super::markdown::check(text, is_upload) {
            errors.entry(path).or_insert(problem);
        }
    }
    // The texts as each language shows them, each within its own bounds.
    for (i, translation) in study.translations.iter().enumerate() {
        let translated = super::case_study::translated(study, &translation.tag);
        let value = serde_json::to_value(&translated).expect("a case study serialises");
        let mut problems = FieldErrors::new();
        walk(&value, schema, schema, String::new(), &mut problems);
        for (path, problem) in problems {
            errors
                .entry(format!("translations[{i}].texts.{path}"))
                .or_insert(problem);
        }
    }
    if errors.is_empty() {
        Ok(())
    } else {
        Err(errors)
    }
}

/// Whether an image's address is one of the owner's uploads, which this server serves under
/// `/media/` (a remote image would be a third party's tracker).
fn is_upload(src: &str) -> bool {
    src.strip_prefix("/media/").is_some_and(|name| {
        !name.is_empty()
            && !name.starts_with('.')
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
    })
}

fn walk(value: &Value, schema: &Value, root: &Value, path: String, errors: &mut FieldErrors) {
    let Some(schema) = schema.as_object() else {
        return;
    };
    if let Some(reference) = schema.get("$ref").and_then(Value::as_str) {
        let name = reference.rsplit('/').next().unwrap_or_default();
        if let Some(target) = root.pointer(&format!("/$defs/{name}")) {
            walk(value, target, root, path.clone(), errors);
        }
    }
    let number = |key: &str| schema.get(key).and_then(Value::as_u64);
    let mut fail = |problem: String| {
        let name = if path.is_empty() {
            "body".to_owned()
        } else {
            path.clone()
        };
        errors.entry(name).or_insert(problem);
    };
    match value {
        Value::String(text) => {
            let chars = text.chars().count() as u64;
            if let Some(min) = number("minLength").filter(|&min| chars < min) {
                fail(if min == 1 {
                    "must not be empty".to_owned()
                } else {
                    format!("must be at least {min} characters")
                });
            }
            if let Some(max) = number("maxLength").filter(|&max| chars > max) {
                fail(format!("must be at most {max} characters"));
            }
            if let Some(pattern) = schema.get("pattern").and_then(Value::as_str) {
                if !pattern_matches(pattern, text) {
                    fail(if pattern == super::schema::NO_CONTROL_PATTERN {
                        "must not contain control characters".to_owned()
                    } else {
                        format!("must match {pattern}")
                    });
                }
            }
            match schema.get("format").and_then(Value::as_str) {
                Some("uri") if !is_link(text) => {
                    fail("must be an http, https or mailto URL".to_owned());
                }
                Some("email") if !is_email(text) => fail("must be an e-mail address".to_owned()),
                _ => {}
            }
        }
        Value::Number(n) => {
            let n = n.as_f64().unwrap_or_default();
            let bound = |key: &str| schema.get(key).and_then(Value::as_f64);
            if let Some(min) = bound("minimum").filter(|&min| n < min) {
                fail(format!("must be at least {min}"));
            }
            if let Some(max) = bound("maximum").filter(|&max| n > max) {
                fail(format!("must be at most {max}"));
            }
        }
        Value::Array(items) => {
            let count = items.len() as u64;
            if let Some(min) = number("minItems").filter(|&min| count < min) {
                fail(format!("must have at least {min} item{}", plural(min)));
            }
            if let Some(max) = number("maxItems").filter(|&max| count > max) {
                fail(format!("must have at most {max} item{}", plural(max)));
            }
            if let Some(item_schema) = schema.get("items") {
                for (i, item) in items.iter().enumerate() {
                    walk(item, item_schema, root, format!("{path}[{i}]"), errors);
                }
            }
        }
        Value::Object(fields) => {
            let count = fields.len() as u64;
            if let Some(max) = number("maxProperties").filter(|&max| count > max) {
                fail(format!(
                    "must have at most {max} entr{}",
                    if max == 1 { "y" } else { "ies" }
                ));
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            // A map's entries: its keys by `propertyNames`, its values by `additionalProperties`.
            let names = schema.get("propertyNames");
            let values = schema.get("additionalProperties").filter(|s| s.is_object());
            for (key, field) in fields {
                let field_path = if path.is_empty() {
                    key.clone()
                } else {
                    format!("{path}.{key}")
                };
                match properties.and_then(|properties| properties.get(key)) {
                    Some(field_schema) => walk(field, field_schema, root, field_path, errors),
                    None => {
                        if let Some(names) = names {
                            let name = Value::String(key.clone());
                            walk(&name, names, root, field_path.clone(), errors);
                        }
                        if let Some(values) = values {
                            walk(field, values, root, field_path, errors);
                        }
                    }
                }
            }
        }
        Value::Null | Value::Bool(_) => {}
    }
}

fn plural(n: u64) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

/// The document's few patterns, compiled once each.
fn pattern_matches(pattern: &str, text: &str) -> bool {
    use std::sync::{Mutex, OnceLock};
    static CACHE: OnceLock<Mutex<BTreeMap<String, regex::Regex>>> = OnceLock::new();
    let mut cache = CACHE
        .get_or_init(Default::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if !cache.contains_key(pattern) {
        match regex::Regex::new(pattern) {
            Ok(re) => {
                cache.insert(pattern.to_owned(), re);
            }
            Err(_) => return false,
        }
    }
    cache[pattern].is_match(text)
}

/// An absolute `http` or `https` URL with a host, or a `mailto:` address.
pub fn is_link(text: &str) -> bool {
    match url::Url::parse(text) {
        Ok(url) => match url.scheme() {
            "http" | "https" => url.host_str().is_some_and(|h| !h.is_empty()),
            "mailto" => is_email(url.path()),
            _ => false,
        },
        Err(_) => false,
    }
}

fn is_email(text: &str) -> bool {
    crate::domain::EmailAddress::parse(text).is_ok()
}

/// Ids unique within their list, and every reference to a media item names one.
fn check_ids(document: &ContentDocument, errors: &mut FieldErrors) {
    fn unique<'a>(
        list: &'static str,
        ids: impl Iterator<Item = &'a str>,
        errors: &mut FieldErrors,
    ) -> HashSet<&'a str> {
        let mut seen = HashSet::new();
        for (i, id) in ids.enumerate() {
            if !seen.insert(id) {
                errors
                    .entry(format!("{list}[{i}].id"))
                    .or_insert_with(|| format!("{id:?} is already the id of another item"));
            }
        }
        seen
    }
    let media = unique(
        "media",
        document.media.iter().map(|m| m.id.as_str()),
        errors,
    );
    unique(
        "projects",
        document.projects.iter().map(|p| p.id.as_str()),
        errors,
    );
    unique(
        "social",
        document.social.iter().map(|s| s.id.as_str()),
        errors,
    );
    let mut reference = |path: String, id: &str| {
        if !media.contains(id) {
            errors
                .entry(path)
                .or_insert_with(|| format!("{id:?} is not the id of an item in media"));
        }
    };
    reference("profile.photo".into(), &document.profile.photo);
    for (i, skill) in document.skills.iter().enumerate() {
        reference(format!("skills[{i}].logo"), &skill.logo);
    }
    for (i, project) in document.projects.iter().enumerate() {
        reference(format!("projects[{i}].image"), &project.image);
    }
    for (list, entries) in [
        ("experience", &document.experience),
        ("education", &document.education),
    ] {
        for (i, entry) in entries.iter().enumerate() {
            for (j, award) in entry.awards.iter().enumerate() {
                reference(
                    format!("{list}[{i}].awards[{j}].certificate"),
                    &award.certificate,
                );
            }
        }
    }
}

/// The accent's contrast with the text and the backgrounds it meets, in either scheme (see
/// [`super::appearance::accent_problems`]); an accent that is not `#rrggbb` already failed its pattern.
fn check_accent(document: &ContentDocument, errors: &mut FieldErrors) {
    use super::appearance::{hex, nearest_passing, parse_hex};
    let mut problems = super::appearance::accent_problems(&document.appearance);
    if !problems.is_empty() {
        // The editor offers the shade in one click: it reads it from this last clause.
        if let Some(shade) = parse_hex(&document.appearance.accent).and_then(nearest_passing) {
            problems.push(format!("the nearest shade that passes is {}", hex(shade)));
        }
        errors
            .entry("appearance.accent".to_owned())
            .or_insert_with(|| problems.join("; "));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn errors_of(edit: impl FnOnce(&mut ContentDocument)) -> FieldErrors {
        let mut document = crate::document::default_document().clone();
        edit(&mut document);
        check(&document).expect_err("the edit makes it invalid")
    }

    #[test]
    fn the_default_document_passes() {
        check(crate::document::default_document()).expect("the default document is valid");
    }

    #[test]
    fn bounds_name_the_field_by_its_path() {
        let errors = errors_of(|d| {
            d.projects[2].title = "x".repeat(101);
            d.typewriter_phrases[1] = String::new();
            d.social[0].url = "javascript:alert(1)".into();
            d.projects[0].id = "Not An Id".into();
        });
        assert_eq!(
            errors["projects[2].title"],
            "must be at most 100 characters"
        );
        assert_eq!(errors["typewriterPhrases[1]"], "must not be empty");
        assert_eq!(
            errors["social[0].url"],
            "must be an http, https or mailto URL"
        );
        assert!(errors.contains_key("projects[0].id"), "{errors:?}");
    }

    #[test]
    fn ids_are_unique_and_references_resolve() {
        let errors = errors_of(|d| {
            d.projects[1].id = d.projects[0].id.clone();
            d.skills[3].logo = "nowhere".into();
        });
        assert!(errors.contains_key("projects[1].id"), "{errors:?}");
        assert!(errors.contains_key("skills[3].logo"), "{errors:?}");
    }

    #[test]
    fn an_accent_without_contrast_is_refused_with_its_ratio() {
        let errors = errors_of(|d| d.appearance.accent = "#ffcc00".into());
        assert_eq!(
            errors["appearance.accent"],
            "white text on the accent #ffcc00 has a contrast of 1.5:1; it needs at least 4.5:1; \
             the light scheme's focus ring #ffcc00 on #f9fafb has a contrast of 1.4:1; it needs at least 3:1; \
             the nearest shade that passes is #917300"
        );
        assert_eq!(errors.len(), 1, "{errors:?}");
        // Not `#rrggbb`: the pattern says so, once.
        let errors = errors_of(|d| d.appearance.accent = "blue".into());
        assert_eq!(
            errors["appearance.accent"],
            format!("must match {}", crate::document::ACCENT_PATTERN)
        );
        let mut document = crate::document::default_document().clone();
        document.appearance.accent = "#0F766E".into();
        check(&document).expect("a teal accent passes");
    }

    #[test]
    fn links_are_http_https_or_mailto() {
        assert!(is_link("https://example.com/x"));
        assert!(is_link("mailto:a@example.com"));
        for bad in [
            "javascript:alert(1)",
            "ftp://example.com",
            "/relative",
            "https://",
        ] {
            assert!(!is_link(bad), "{bad}");
        }
    }

    #[test]
    fn a_media_path_never_climbs_out() {
        let pattern = crate::document::MEDIA_SRC_PATTERN;
        assert!(pattern_matches(pattern, "images/projects/a-400.webp"));
        assert!(pattern_matches(pattern, "/media/abc123.webp"));
        for bad in [
            "images/../secret.webp",
            "/../etc/passwd",
            "https://x.dev/a.webp",
            "images/a.exe",
        ] {
            assert!(!pattern_matches(pattern, bad), "{bad}");
        }
    }

    use crate::document::Language;
    use crate::language::with_language;

    #[test]
    fn a_complete_published_language_passes() {
        check(&with_language("de", true)).expect("German, complete, is valid");
        check(&with_language("ar", true)).expect("Arabic, complete, is valid");
        let mut unpublished = with_language("fr", false);
        unpublished.languages[0].texts.clear();
        check(&unpublished).expect("an unpublished language may be incomplete");
    }

    #[test]
    fn a_published_language_names_each_missing_translation() {
        let mut document = with_language("fr", true);
        let texts = &mut document.languages[0].texts;
        texts.remove("profile.role");
        texts.insert("projects[1].title".into(), String::new());
        let errors = check(&document).expect_err("incomplete");
        assert_eq!(errors["languages[0].texts.profile.role"], "is missing");
        assert_eq!(errors["languages[0].texts.projects[1].title"], "is missing");
        assert_eq!(errors.len(), 2, "{errors:?}");

        // More texts than are named one by one.
        for i in 0..10 {
            let mut project = document.projects[0].clone();
            project.id = format!("extra-{i}");
            document.projects.push(project);
        }
        document.languages[0].texts.clear();
        let errors = check(&document).expect_err("nothing translated");
        let named = errors
            .keys()
            .filter(|k| k.starts_with("languages[0].texts."))
            .count();
        assert_eq!(named, 50, "{errors:?}");
        let total = crate::language::text_fields(&document)
            .iter()
            .filter(|(_, text)| !text.is_empty())
            .count();
        assert!(total > 50);
        // In document order: the first ones are named.
        assert!(errors.contains_key("languages[0].texts.profile.role"));
        assert!(!errors.contains_key("languages[0].texts.media[6].alt"));
        assert_eq!(
            errors["languages[0].texts"],
            format!("{} more are missing", total - 50)
        );
    }

    #[test]
    fn a_text_marked_the_same_counts_as_translated_and_names_a_text_the_document_has() {
        let mut document = with_language("de", true);
        let german = &mut document.languages[0];
        for path in ["experience[0].date", "education[1].place"] {
            german.texts.remove(path);
            german.same.insert(path.into());
        }
        check(&document).expect("complete with the dates and places the same");
        let german = &mut document.languages[0];
        german.same.remove("education[1].place");
        german.same.insert("profile.name".into());
        german.same.insert("projects[99].title".into());
        let errors = check(&document).expect_err("a missing place, unknown paths");
        assert_eq!(
            errors["languages[0].texts.education[1].place"],
            "is missing"
        );
        // Sorted: experience[0].date, profile.name, projects[99].title.
        assert_eq!(
            errors["languages[0].same[1]"],
            "\"profile.name\" is not a text of the document"
        );
        assert_eq!(
            errors["languages[0].same[2]"],
            "\"projects[99].title\" is not a text of the document"
        );
        assert_eq!(errors.len(), 3, "{errors:?}");
        document.languages[0].same = (0..2001).map(|i| format!("p{i}")).collect();
        let errors = check(&document).expect_err("too many");
        assert_eq!(errors["languages[0].same"], "must have at most 2000 items");
    }

    #[test]
    fn a_translation_keeps_within_its_fields_bounds_and_names_a_text_the_document_has() {
        let mut document = with_language("de", false);
        let texts = &mut document.languages[0].texts;
        texts.insert("profile.role".into(), "x".repeat(101));
        texts.insert("media[0].alt".into(), "bell\u{7}".into());
        texts.insert("projects[99].title".into(), "Nirgends".into());
        texts.insert("profile.name".into(), "Name".into());
        texts.insert("k".repeat(101), "x".into());
        texts.insert("about.paragraphs[0]".into(), "y".repeat(1501));
        let errors = check(&document).expect_err("invalid translations");
        assert_eq!(
            errors["languages[0].texts.profile.role"],
            "must be at most 100 characters"
        );
        assert_eq!(
            errors["languages[0].texts.media[0].alt"],
            "must not contain control characters"
        );
        assert_eq!(
            errors["languages[0].texts.projects[99].title"],
            "is not a text of the document"
        );
        assert_eq!(
            errors["languages[0].texts.profile.name"],
            "is not a text of the document"
        );
        assert_eq!(
            errors[&format!("languages[0].texts.{}", "k".repeat(101))],
            "must be at most 100 characters"
        );
        assert_eq!(
            errors["languages[0].texts.about.paragraphs[0]"],
            "must be at most 1500 characters"
        );
    }

    #[test]
    fn tags_are_unique_never_the_default_and_never_a_route() {
        let mut document = with_language("de", false);
        for tag in ["DE", "en", "api"] {
            document.languages.push(Language {
                tag: tag.into(),
                published: false,
                texts: Default::default(),
                strings: Default::default(),
                same: Default::default(),
            });
        }
        document.languages.push(Language {
            tag: "not a tag".into(),
            published: false,
            texts: Default::default(),
            strings: Default::default(),
            same: Default::default(),
        });
        let errors = check(&document).expect_err("bad tags");
        assert!(errors["languages[1].tag"].contains("already"), "{errors:?}");
        assert!(errors["languages[2].tag"].contains("default"), "{errors:?}");
        assert!(errors["languages[3].tag"].contains("/api/"), "{errors:?}");
        assert!(
            errors["languages[4].tag"].starts_with("must match"),
            "{errors:?}"
        );
        assert!(!errors.contains_key("languages[0].tag"));
        for _ in 0..6 {
            document.languages.push(document.languages[0].clone());
        }
        let errors = check(&document).expect_err("too many");
        assert_eq!(errors["languages"], "must have at most 10 items");
    }

    #[test]
    fn fixed_texts_are_the_pages_and_a_language_without_built_in_ones_brings_them_all() {
        let mut document = with_language("de", true);
        document.languages[0]
            .strings
            .insert("foo".into(), "x".into());
        document.strings.insert("nav.homee".into(), "x".into());
        document
            .strings
            .insert("projects.shown#few".into(), "{count} shown".into());
        let errors = check(&document).expect_err("unknown keys");
        assert_eq!(
            errors["languages[0].strings.foo"],
            "is not a text of the page"
        );
        assert_eq!(errors["strings.nav.homee"], "is not a text of the page");
        assert_eq!(errors.len(), 2, "{errors:?}");

        let mut swahili = with_language("sw", true);
        let errors = check(&swahili).expect_err("no built-in texts");
        assert_eq!(errors["languages[0].strings.languageName"], "is missing");
        assert!(errors.contains_key("languages[0].strings.projects.shown#other"));
        assert!(!errors.contains_key("languages[0].strings.projects.shown#one"));
        let english: BTreeMap<String, String> =
            serde_json::from_str(crate::language::BUILT_IN[0].1).unwrap();
        swahili.languages[0].strings = english
            .into_iter()
            .filter(|(key, _)| !key.ends_with("#one"))
            .collect();
        check(&swahili).expect("complete");
        swahili.languages[0].published = false;
        swahili.languages[0].strings.clear();
        check(&swahili).expect("an unpublished language may lack them");

        // The default language too, when it has no built-in texts.
        let mut default = crate::document::default_document().clone();
        default.language = "sw".into();
        let errors = check(&default).expect_err("the default language's texts");
        assert_eq!(errors["strings.languageName"], "is missing");
        default.language = "de-CH".into();
        check(&default).expect("German is built in");
    }

    #[test]
    fn a_document_stored_without_a_response_time_says_the_placeholders() {
        use super::super::document::default_document;
        let mut stored = serde_json::to_value(default_document()).expect("a document serialises");
        stored["contact"]
            .as_object_mut()
            .expect("contact is an object")
            .remove("responseTime");
        let document: ContentDocument = serde_json::from_value(stored).expect("it still loads");
        assert_eq!(
            document.contact.response_time,
            default_document().contact.response_time
        );
        assert!(check(&document).is_ok());
    }

    /// A case study of the default document's first project, every field used.
    pub(crate) fn case_study() -> CaseStudy {
        let page = crate::document::default_document();
        serde_json::from_value(serde_json::json!({
            "project": page.projects[0].id,
            "slug": "e-commerce-platform",
            "summary": "A checkout that stopped losing carts.",
            "problem": "Carts were *lost* at payment.",
            "role": "I led the rewrite.",
            "team": "",
            "constraints": "Six weeks.",
            "decisions": [{ "title": "One service", "why": "Fewer hops." }],
            "outcome": "Sales went up.",
            "figures": [{ "value": 38, "unit": "%", "label": "fewer abandoned carts" }],
            "gallery": [{ "image": "shot", "caption": "The new checkout" }],
            "links": [{ "kind": "code", "label": "Source", "url": "https://example.com/code" }],
            "technologies": ["Rust"],
            "media": [{ "id": "shot", "alt": "The checkout page", "width": 640, "height": 400,
                        "sources": [{ "src": "/media/upload-1-640.webp", "width": 640 }] }]
        }))
        .expect("a case study")
    }

    #[test]
    fn a_case_study_is_checked_against_its_schema_its_page_and_its_references() {
        let page = crate::language::with_language("de", false);
        let study = case_study();
        check_case_study(&study, &page).expect("valid");

        let mut bad = study.clone();
        bad.project = "nope".into();
        bad.summary = "x".repeat(301);
        bad.gallery[0].image = "missing".into();
        bad.figures[0].label.clear();
        bad.slug = "Not A Slug".into();
        bad.links[0].url = "javascript:alert(1)".into();
        bad.problem = "Click [here](javascript:alert(1)).".into();
        bad.decisions[0].why = "<b>Bold</b> move.".into();
        bad.outcome = "![chart](https://tracker.example/pixel.png)".into();
        let errors = check_case_study(&bad, &page).expect_err("invalid");
        for path in ["problem", "decisions[0].why", "outcome"] {
            assert!(errors.contains_key(path), "{path} in {errors:?}");
        }
        let mut own = study.clone();
        own.outcome = "Before and after:\n\n![The new checkout](/media/upload-1-640.webp)".into();
        check_case_study(&own, &page).expect("an upload of the owner's may be shown");
        for path in [
            "project",
            "summary",
            "gallery[0].image",
            "figures[0].label",
            "slug",
            "links[0].url",
        ] {
            assert!(errors.contains_key(path), "{path} in {errors:?}");
        }
        assert!(
            errors["project"].contains("not the id of a project"),
            "{errors:?}"
        );
    }

    #[test]
    fn the_default_case_studies_are_valid_and_tell_of_two_projects_of_the_default_document() {
        let page = crate::document::default_document();
        let studies = crate::case_study::default_case_studies();
        assert_eq!(studies.len(), 2);
        let mut projects = std::collections::HashSet::new();
        for study in studies {
            if let Err(errors) = check_case_study(study, page) {
                panic!("{}: {errors:?}", study.project);
            }
            assert!(projects.insert(study.project.as_str()), "{}", study.project);
            let project = page
                .projects
                .iter()
                .find(|p| p.id == study.project)
                .expect("a project of the default document");
            assert_eq!(
                study.slug,
                crate::case_study::slug_from_title(&project.title)
            );
            assert!(study.former_slugs.is_empty() && study.translations.is_empty());
            // What a case study shows: every part written, figures and two pictures.
            assert!(!study.team.is_empty() && !study.constraints.is_empty());
            assert_eq!(study.decisions.len(), 3, "{}", study.project);
            assert!((3..=4).contains(&study.figures.len()), "{}", study.project);
            assert_eq!(study.gallery.len(), 2, "{}", study.project);
            assert!(!study.links.is_empty() && !study.technologies.is_empty());
        }
        assert_eq!(
            projects,
            std::collections::HashSet::from(["portfolio", "food-recipes"])
        );
    }

    #[test]
    fn a_case_studys_translations_are_of_the_pages_languages_and_its_texts() {
        use crate::case_study::{is_translated, translated, CaseStudyTranslation};
        let page = crate::language::with_language("de", true);
        let mut study = case_study();
        let mut german = CaseStudyTranslation {
            tag: "de".into(),
            texts: Default::default(),
            same: Default::default(),
        };
        german
            .texts
            .insert("problem".into(), "Warenkörbe gingen verloren.".into());
        study.translations.push(german);
        check_case_study(&study, &page).expect("valid");
        assert!(!is_translated(&study, "de"), "the other texts are not");
        assert_eq!(
            translated(&study, "de").problem,
            "Warenkörbe gingen verloren."
        );
        assert_eq!(translated(&study, "de").summary, study.summary);
        assert!(translated(&study, "de").translations.is_empty());
        let others: Vec<String> = crate::case_study::texts(&study)
            .into_iter()
            .map(|(path, _)| path)
            .filter(|path| path != "problem")
            .collect();
        study.translations[0].same.extend(others);
        assert!(is_translated(&study, "de"));
        assert!(!is_translated(&study, "fr"));

        let mut bad = study.clone();
        bad.translations[0].same.remove("summary");
        bad.translations[0]
            .texts
            .insert("summary".into(), "x".repeat(301));
        bad.translations[0]
            .texts
            .insert("nowhere".into(), "?".into());
        bad.translations.push(CaseStudyTranslation {
            tag: "fr".into(),
            texts: Default::default(),
            same: Default::default(),
        });
        let errors = check_case_study(&bad, &page).expect_err("invalid");
        assert!(
            errors.contains_key("translations[0].texts.summary"),
            "{errors:?}"
        );
        assert!(
            errors["translations[0].texts"].contains("nowhere"),
            "{errors:?}"
        );
        assert!(
            errors["translations[1].tag"].contains("not one of the page's languages"),
            "{errors:?}"
        );
    }
}
