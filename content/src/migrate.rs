//! Documents from before the page's own words were fields: the hero's paragraph, each section's
//! heading and lead and the footer's title and line were fixed texts of the page (keys of the
//! built-in tables of `web/src/i18n/`, which the owner could only override through `strings`).
//! [`upgrade`] brings such a document to today's shape before it is read, so the page it showed
//! stays as it was: each text becomes its field, with the owner's wording when they had one, else
//! the built-in text of the document's language (kept in `moved-texts.json`, as the tables had
//! them); each other language's wording, or its built-in text, becomes the field's translation,
//! so a published language stays publishable. Every place that reads a document that may be
//! older than this release reads it through [`read`] or [`upgrade`].

use std::collections::BTreeMap;
use std::sync::OnceLock;

use serde_json::{Map, Value};

use super::document::{ContentDocument, DEFAULT_LANGUAGE};

/// Each text that moved, by its key in the built-in tables, and the path of its field.
pub const MOVED: [(&str, &str); 11] = [
    ("hero.lead", "profile.intro"),
    ("about.title", "sections.about.title"),
    ("skills.title", "sections.skills.title"),
    ("skills.lead", "sections.skills.lead"),
    ("projects.title", "sections.projects.title"),
    ("projects.lead", "sections.projects.lead"),
    ("experience.title", "sections.experience.title"),
    ("contact.title", "sections.contact.title"),
    ("contact.lead", "sections.contact.lead"),
    ("footer.title", "footer.title"),
    ("footer.blurb", "footer.line"),
];

/// The year the copyright line named while it was a fixed text.
const FIRST_YEAR: u16 = 2025;

/// The fixed text that names the copyright's years since it has a first one.
const COPYRIGHT: &str = "footer.copyright";

type Tables = BTreeMap<String, BTreeMap<String, String>>;

/// The moved texts as each built-in table had them, by tag.
fn moved_texts() -> &'static Tables {
    static TEXTS: OnceLock<Tables> = OnceLock::new();
    TEXTS.get_or_init(|| {
        serde_json::from_str(include_str!("moved-texts.json")).unwrap_or_else(|error| {
            tracing::error!(%error, "the moved texts do not parse");
            Tables::new()
        })
    })
}

/// The built-in text `key` had for `tag` (its own table, else its primary language's).
fn built_in(tag: &str, key: &str) -> Option<String> {
    let tag = tag.to_ascii_lowercase();
    let primary = tag.split('-').next().unwrap_or_default();
    let tables = moved_texts();
    tables
        .get(&tag)
        .or_else(|| tables.get(primary))
        .and_then(|table| table.get(key))
        .cloned()
}

/// Reads a stored or sent document, older ones brought to today's shape first.
pub fn read(json: &str) -> serde_json::Result<ContentDocument> {
    let mut value: Value = serde_json::from_str(json)?;
    upgrade(&mut value);
    serde_json::from_value(value)
}

/// Brings a document from before the page's own words were fields to today's shape (a document
/// that has `sections` is left as it is, as is anything that is not a document: reading it fails
/// as it would have).
pub fn upgrade(document: &mut Value) {
    let Some(root) = document.as_object_mut() else {
        return;
    };
    if root.contains_key("sections") {
        return;
    }
    let tag = root
        .get("language")
        .and_then(Value::as_str)
        .unwrap_or(DEFAULT_LANGUAGE)
        .to_owned();
    let mut own = take_moved(root.get_mut("strings"));
    for (key, path) in MOVED {
        let text = own
            .remove(key)
            .or_else(|| built_in(&tag, key))
            .or_else(|| built_in(DEFAULT_LANGUAGE, key))
            .unwrap_or_default();
        set_if_absent(root, path, Value::String(text));
    }
    for path in ["sections.about.lead", "sections.experience.lead"] {
        set_if_absent(root, path, Value::String(String::new()));
    }
    set_if_absent(root, "footer.since", Value::from(FIRST_YEAR));
    name_the_years(root.get_mut("strings"));
    let Some(languages) = root.get_mut("languages").and_then(Value::as_array_mut) else {
        return;
    };
    for language in languages.iter_mut().filter_map(Value::as_object_mut) {
        let tag = language
            .get("tag")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_owned();
        let mut own = take_moved(language.get_mut("strings"));
        name_the_years(language.get_mut("strings"));
        let texts = language
            .entry("texts")
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(texts) = texts.as_object_mut() else {
            continue;
        };
        for (key, path) in MOVED {
            if texts.contains_key(path) {
                continue;
            }
            if let Some(text) = own.remove(key).or_else(|| built_in(&tag, key)) {
                texts.insert(path.to_owned(), Value::String(text));
            }
        }
    }
}

/// Removes the moved keys from a table of fixed texts, returning the owner's wording of each.
fn take_moved(strings: Option<&mut Value>) -> BTreeMap<&'static str, String> {
    let Some(strings) = strings.and_then(Value::as_object_mut) else {
        return BTreeMap::new();
    };
    MOVED
        .iter()
        .filter_map(|(key, _)| match strings.remove(*key)? {
            Value::String(text) => Some((*key, text)),
            _ => None,
        })
        .collect()
}

/// The owner's wording of the copyright named the year itself: `{years}` takes its place, so the
/// line runs to the year of the publish as the built-in one does.
fn name_the_years(strings: Option<&mut Value>) {
    let Some(Value::String(line)) = strings
        .and_then(Value::as_object_mut)
        .and_then(|strings| strings.get_mut(COPYRIGHT))
    else {
        return;
    };
    let year = FIRST_YEAR.to_string();
    if !line.contains("{years}") && line.contains(&year) {
        *line = line.replacen(&year, "{years}", 1);
    }
}

/// Sets the field at the dotted `path`, making the objects on the way, unless it is there (or
/// something on the way is not an object, which reading then names).
fn set_if_absent(root: &mut Map<String, Value>, path: &str, value: Value) {
    let mut parts = path.split('.').peekable();
    let mut here = root;
    while let Some(part) = parts.next() {
        if parts.peek().is_none() {
            here.entry(part).or_insert(value);
            return;
        }
        let next = here
            .entry(part)
            .or_insert_with(|| Value::Object(Map::new()));
        let Some(next) = next.as_object_mut() else {
            return;
        };
        here = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::{default_document, DEFAULT_DOCUMENT_JSON};
    use serde_json::json;

    /// The placeholder document as a release before this one stored it: no `profile.intro`,
    /// `sections` or `footer`.
    fn older() -> Value {
        let mut document: Value = serde_json::from_str(DEFAULT_DOCUMENT_JSON).unwrap();
        let root = document.as_object_mut().unwrap();
        root.remove("sections");
        root.remove("footer");
        root["profile"].as_object_mut().unwrap().remove("intro");
        document
    }

    #[test]
    fn the_placeholder_from_an_older_release_reads_as_todays_placeholder() {
        let mut document = read(&older().to_string()).unwrap();
        // But for the contact section's lead, which said when the owner replies, as it did then.
        assert_eq!(
            Some(document.sections.contact.lead.clone()),
            built_in("en", "contact.lead")
        );
        document.sections.contact.lead = default_document().sections.contact.lead.clone();
        assert_eq!(&document, default_document());
    }

    #[test]
    fn the_moved_texts_are_the_placeholders_and_every_table_has_each() {
        let placeholder = serde_json::to_value(default_document()).unwrap();
        for (key, path) in MOVED {
            let pointer = format!("/{}", path.replace('.', "/"));
            // The contact section's lead no longer says when the owner replies: a field of its
            // own does (`contact.responseTime`).
            if path != "sections.contact.lead" {
                assert_eq!(
                    placeholder.pointer(&pointer).and_then(Value::as_str),
                    built_in("en", key).as_deref(),
                    "{path}"
                );
            }
            for (tag, _) in super::super::language::BUILT_IN {
                assert!(built_in(tag, key).is_some(), "{tag} lacks {key}");
                assert!(
                    !super::super::language::is_known_key(key),
                    "{key} is still a fixed text"
                );
            }
        }
    }

    #[test]
    fn the_owners_wording_and_each_languages_become_fields_and_translations() {
        let mut document = older();
        document["language"] = json!("de");
        document["strings"] = json!({
            "hero.lead": "Ich baue Dinge.",
            "footer.copyright": "(c) 2025 {name}",
            "nav.about": "Über"
        });
        document["languages"] = json!([
            { "tag": "en", "published": true, "texts": { "footer.title": "Kept" },
              "strings": { "skills.title": "My tools" } },
            { "tag": "ar-EG", "texts": {} },
            { "tag": "x-other", "strings": { "contact.lead": "Write." } }
        ]);
        upgrade(&mut document);
        assert_eq!(document["profile"]["intro"], "Ich baue Dinge.");
        assert_eq!(
            document["sections"]["skills"]["title"],
            built_in("de", "skills.title").unwrap()
        );
        assert_eq!(document["sections"]["about"]["lead"], "");
        assert_eq!(document["footer"]["since"], 2025);
        assert_eq!(
            document["strings"],
            json!({ "footer.copyright": "(c) {years} {name}", "nav.about": "Über" })
        );
        let english = &document["languages"][0];
        assert_eq!(english["texts"]["sections.skills.title"], "My tools");
        assert_eq!(
            english["texts"]["footer.title"], "Kept",
            "a translation is kept"
        );
        assert_eq!(
            english["texts"]["profile.intro"],
            built_in("en", "hero.lead").unwrap()
        );
        assert_eq!(english["strings"], json!({}));
        assert_eq!(
            document["languages"][1]["texts"]["sections.contact.title"],
            built_in("ar", "contact.title").unwrap(),
            "a regional tag takes its language's table"
        );
        let other = &document["languages"][2]["texts"];
        assert_eq!(other["sections.contact.lead"], "Write.");
        assert!(other.get("profile.intro").is_none(), "no table, no text");
    }

    #[test]
    fn a_document_of_today_and_what_is_no_document_are_left_alone() {
        let mut today: Value = serde_json::from_str(DEFAULT_DOCUMENT_JSON).unwrap();
        today["strings"] = json!({ "hero.lead": "not a fixed text any more" });
        let before = today.clone();
        upgrade(&mut today);
        assert_eq!(today, before);
        for mut other in [json!([1]), json!("x"), json!({ "profile": 3 })] {
            let before = other.clone();
            upgrade(&mut other);
            if before.is_object() {
                assert_eq!(other["profile"], 3, "a field that is not an object stays");
            } else {
                assert_eq!(other, before);
            }
        }
    }
}
