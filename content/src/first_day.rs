//! What the first-day checklist learns from the documents: whether the draft still shows the
//! placeholder document's name, photo and intro, or its projects, and whether the draft's name
//! is live. Documents are read as JSON values (upgraded, see [`super::migrate`]), so a field a
//! document does not have counts as the placeholder's.

use std::sync::OnceLock;

use serde_json::Value;

use super::document::DEFAULT_DOCUMENT_JSON;

/// The document's side of the checklist.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageProgress {
    /// The draft's name, photo and intro all differ from the placeholder's.
    pub profile: bool,
    /// None of the draft's projects is one of the placeholder's (or the section is hidden).
    pub projects: bool,
    /// A version was published and it carries the draft's name.
    pub published: bool,
}

/// The placeholder document, as JSON.
fn placeholder() -> &'static Value {
    static PLACEHOLDER: OnceLock<Value> = OnceLock::new();
    PLACEHOLDER.get_or_init(|| {
        serde_json::from_str(DEFAULT_DOCUMENT_JSON).expect("the default document parses")
    })
}

/// The files of the photo the document shows: the sources of the media item `profile.photo`
/// names, so that a new upload differs even where it kept the placeholder's id.
fn photo(document: &Value) -> Option<&Value> {
    let id = document.pointer("/profile/photo")?;
    document["media"]
        .as_array()?
        .iter()
        .find(|item| &item["id"] == id)
        .map(|item| &item["sources"])
}

/// The hero's paragraph (a document from before it was a field is read upgraded, see
/// [`super::migrate`]).
fn intro(document: &Value) -> Option<&Value> {
    document.pointer("/profile/intro")
}

fn profile_is_theirs(draft: &Value) -> bool {
    let placeholder = placeholder();
    let name = draft.pointer("/profile/name");
    name.is_some()
        && name != placeholder.pointer("/profile/name")
        && photo(draft).is_some_and(|files| Some(files) != photo(placeholder))
        && intro(draft).is_some_and(|text| Some(text) != intro(placeholder))
}

/// No project keeps a placeholder project's title or description; a hidden Projects section
/// shows none.
fn projects_are_theirs(draft: &Value) -> bool {
    if draft.pointer("/appearance/sections/projects") == Some(&Value::Bool(false)) {
        return true;
    }
    let placeholder = placeholder()["projects"]
        .as_array()
        .map_or(&[][..], Vec::as_slice);
    let is_placeholder = |project: &Value| {
        placeholder.iter().any(|sample| {
            ["title", "description"]
                .iter()
                .any(|field| project[field] == sample[field])
        })
    };
    draft["projects"]
        .as_array()
        .is_none_or(|projects| !projects.iter().any(is_placeholder))
}

/// The checklist's document items, from the draft and the published version (`live_version` 0:
/// nothing published, the placeholder served).
pub fn page_progress(draft: &Value, live_version: i64, live_name: &str) -> PageProgress {
    PageProgress {
        profile: profile_is_theirs(draft),
        projects: projects_are_theirs(draft),
        published: live_version >= 1
            && draft.pointer("/profile/name").and_then(Value::as_str) == Some(live_name),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn draft() -> Value {
        placeholder().clone()
    }

    #[test]
    fn the_placeholder_document_leaves_every_item_open() {
        let progress = page_progress(&draft(), 0, "Alex Morgan");
        assert_eq!(
            progress,
            PageProgress {
                profile: false,
                projects: false,
                published: false
            }
        );
    }

    #[test]
    fn the_profile_is_theirs_once_name_photo_and_intro_all_differ() {
        let mut document = draft();
        document["profile"]["name"] = json!("Sam Rivera");
        assert!(
            !profile_is_theirs(&document),
            "the photo and intro are still the placeholder's"
        );
        // The photo: a new upload, under a new id.
        let mut upload = document["media"][0].clone();
        upload["id"] = json!("upload-1");
        upload["sources"] = json!([{ "src": "/media/upload-1-320.webp", "width": 320 }]);
        document["media"].as_array_mut().unwrap().push(upload);
        document["profile"]["photo"] = json!("upload-1");
        assert!(
            !profile_is_theirs(&document),
            "the intro is still the placeholder's"
        );
        document["profile"]["intro"] = json!("I make maps that load fast.");
        assert!(profile_is_theirs(&document));

        // Another placeholder picture is still the placeholder's photo only if it is the same file.
        let mut same_files = document.clone();
        same_files["media"][1]["sources"] = placeholder()["media"][0]["sources"].clone();
        same_files["profile"]["photo"] = same_files["media"][1]["id"].clone();
        assert!(!profile_is_theirs(&same_files));
        // A photo the media list lacks is no photo of theirs.
        let mut missing = document.clone();
        missing["profile"]["photo"] = json!("nowhere");
        assert!(!profile_is_theirs(&missing));
    }

    #[test]
    fn an_older_documents_intro_is_the_owners_wording_of_the_fixed_text_once_upgraded() {
        let mut document = draft();
        document.as_object_mut().unwrap().remove("sections");
        document["profile"].as_object_mut().unwrap().remove("intro");
        document["strings"] = json!({ "hero.lead": "Mine." });
        super::super::migrate::upgrade(&mut document);
        assert_eq!(intro(&document), Some(&json!("Mine.")));
        assert_eq!(intro(&json!({ "profile": {} })), None);
    }

    #[test]
    fn projects_are_theirs_once_no_placeholder_title_or_description_is_left() {
        let mut document = draft();
        document["projects"][0]["title"] = json!("Tide tables");
        assert!(
            !projects_are_theirs(&document),
            "three placeholder projects remain"
        );
        let mut mine = document["projects"][0].clone();
        mine["description"] = json!("Tide tables for every harbour, offline.");
        document["projects"] = json!([mine.clone()]);
        assert!(projects_are_theirs(&document));
        // A kept description is the placeholder's project under a new name.
        mine["description"] = placeholder()["projects"][0]["description"].clone();
        document["projects"] = json!([mine]);
        assert!(!projects_are_theirs(&document));
        document["appearance"]["sections"]["projects"] = json!(false);
        assert!(
            projects_are_theirs(&document),
            "a hidden section shows no projects"
        );
        assert!(projects_are_theirs(&json!({ "projects": [] })));
    }

    #[test]
    fn published_means_a_version_carrying_the_drafts_name() {
        let mut document = draft();
        assert!(!page_progress(&document, 0, "Alex Morgan").published);
        document["profile"]["name"] = json!("Sam Rivera");
        assert!(!page_progress(&document, 3, "Alex Morgan").published);
        assert!(page_progress(&document, 3, "Sam Rivera").published);
    }
}
