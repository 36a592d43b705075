//! The site's content as data, and what is made from it without the server: the page's document
//! ([`document`]) and its checks ([`validate`]), case studies and posts, their pages' heads,
//! languages, Markdown, the posts' articles and feeds, the link previews, the resume in each of
//! its forms; and the leaves they share with the server ([`domain`], [`addresses`], [`clock`]).
//!
//! A crate of its own so that it compiles beside the server's dependencies and the server's own
//! crate, rather than as part of the last, single-threaded step of a cold build
//! (docs/benchmarks.md). The server's `content` module re-exports it beside what needs the store,
//! the render engine or the API's errors (`live`, `render`, `engine`, the case studies' and
//! posts' entries).

pub mod addresses;
pub mod appearance;
pub mod article;
pub mod case_study;
pub mod clock;
pub mod composed;
pub mod document;
pub mod domain;
pub mod feeds;
pub mod first_day;
pub mod front_matter;
mod glyphs;
pub mod head;
pub mod language;
pub mod markdown;
pub mod migrate;
pub mod post;
pub mod post_page;
pub mod preview;
pub mod resume;
mod schema;
pub mod validate;

pub use document::{default_document, ContentDocument, DEFAULT_DOCUMENT_JSON};
pub use schema::{case_study_schema_file, schema_file, schema_value, NO_CONTROL_PATTERN};

/// The title of the project `id` on `document`'s page, if it is there.
pub fn project_title(document: &ContentDocument, id: &str) -> Option<String> {
    document
        .projects
        .iter()
        .find(|project| project.id == id)
        .map(|project| project.title.clone())
}

/// The title and address of the published post `id` as readers reach it (published, in the
/// page's language or a published one), if it is served.
pub fn post_title_and_path(
    document: &ContentDocument,
    posts: &post::Posts,
    id: &str,
) -> Option<(String, String)> {
    let post = &posts.get(id)?.document;
    let tag = language::published_tags(document)
        .into_iter()
        .find(|tag| tag.eq_ignore_ascii_case(&post.language))?;
    let home = language::href(document, &tag);
    Some((post.title.clone(), post_page::path(&home, &post.slug)))
}

/// Published versions kept for revert; older ones are deleted at each publish.
pub const KEPT_VERSIONS: i64 = 20;

/// The largest document the API takes, as JSON.
pub const MAX_DOCUMENT_BYTES: usize = 256 * 1024;

#[cfg(test)]
mod tests {
    use super::schema::typescript_file;
    use super::*;
    use std::path::Path;

    /// The generated files are committed; this fails when they no longer match the types.
    #[test]
    fn the_generated_schema_and_types_are_up_to_date() {
        let web = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/src/content");
        let update = std::env::var_os("UPDATE_CONTENT_SCHEMA").is_some();
        for (name, expected) in [
            ("document.schema.json", schema_file()),
            ("case-study.schema.json", case_study_schema_file()),
            ("document.generated.ts", typescript_file()),
            ("markdown.generated.ts", markdown::typescript_file()),
        ] {
            let path = web.join(name);
            if update {
                std::fs::write(&path, &expected).expect("the generated file is written");
                continue;
            }
            let committed = std::fs::read_to_string(&path).unwrap_or_default();
            assert!(
                committed == expected,
                "web/src/content/{name} is stale: regenerate it with `make generate` \
                 (UPDATE_CONTENT_SCHEMA=1 cargo test --locked --workspace --lib) and commit it"
            );
        }
    }

    #[test]
    fn the_default_document_keeps_the_ids_insights_count() {
        let document = default_document();
        let ids: Vec<&str> = document.projects.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(
            ids,
            [
                "portfolio",
                "food-recipes",
                "elegant-context",
                "tuk-tuk-cambodia"
            ]
        );
        let social: Vec<&str> = document.social.iter().map(|s| s.id.as_str()).collect();
        assert_eq!(social, ["github", "linkedin", "twitter"]);
    }

    #[test]
    fn the_api_description_carries_the_document_schema() {
        let mut schemas = Vec::new();
        <ContentDocument as utoipa::ToSchema>::schemas(&mut schemas);
        let names: Vec<&str> = schemas.iter().map(|(n, _)| n.as_str()).collect();
        for name in [
            "ContentDocument",
            "Project",
            "MediaItem",
            "Stack",
            "Appearance",
            "Scheme",
            "Sections",
            "Language",
        ] {
            assert!(names.contains(&name), "{name} missing from {names:?}");
        }
        let definitions = schema_value()["$defs"].as_object().map_or(0, |d| d.len());
        assert_eq!(
            schemas.len(),
            definitions + 1,
            "every definition is carried"
        );
    }
}
