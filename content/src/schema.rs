//! The document's JSON Schema and TypeScript types, generated from its Rust types ([`super::document`]):
//! the API checks documents against the schema, the OpenAPI description carries it, and the
//! committed copies under `web/src/content/` are made from it (`make generate`).

use std::borrow::Cow;
use std::sync::OnceLock;

use serde_json::Value;

use super::case_study::CaseStudy;
use super::document::ContentDocument;

/// The pattern every text of the document without a pattern of its own must match: no control
/// characters (C0 but tab, line feed and carriage return; DEL; C1). XML has no place for most of
/// them, so the page's link preview could not be drawn, and none belongs on a page.
pub const NO_CONTROL_PATTERN: &str =
    "^[^\\u0000-\\u0008\\u000B\\u000C\\u000E-\\u001F\\u007F-\\u009F]*$";

/// The JSON Schema of the document, generated from its Rust types, every text without a pattern
/// given [`NO_CONTROL_PATTERN`].
pub fn schema_value() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(generated::<ContentDocument>)
}

/// The JSON Schema of a case study ([`super::case_study`]), made the same way.
pub fn case_study_schema_value() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(generated::<CaseStudy>)
}

/// The JSON Schema of a post ([`super::post`]), made the same way.
pub fn post_schema_value() -> &'static Value {
    static SCHEMA: OnceLock<Value> = OnceLock::new();
    SCHEMA.get_or_init(generated::<super::post::Post>)
}

fn generated<T: schemars::JsonSchema>() -> Value {
    let mut schema = serde_json::to_value(schemars::schema_for!(T)).expect("a schema is JSON");
    refuse_control_characters(&mut schema);
    schema
}

fn refuse_control_characters(schema: &mut Value) {
    match schema {
        Value::Object(map) => {
            if map.get("type").and_then(Value::as_str) == Some("string")
                && !map.contains_key("pattern")
            {
                map.insert("pattern".into(), Value::from(NO_CONTROL_PATTERN));
            }
            map.values_mut().for_each(refuse_control_characters);
        }
        Value::Array(items) => items.iter_mut().for_each(refuse_control_characters),
        _ => {}
    }
}

/// The schema as committed under `web/src/content/document.schema.json`, with a `$comment`
/// saying how it is made (a keyword every JSON Schema validator ignores; the API's copy has none).
pub fn schema_file() -> String {
    committed(schema_value(), "document.rs")
}

/// A case study's schema as committed under `web/src/content/case-study.schema.json` (the
/// editor's case study validator is compiled from it), made like [`schema_file`].
pub fn case_study_schema_file() -> String {
    committed(case_study_schema_value(), "case_study.rs")
}

fn committed(schema: &Value, source: &str) -> String {
    let mut schema = schema.clone();
    if let Value::Object(map) = &mut schema {
        map.insert(
            "$comment".into(),
            Value::from(format!(
                "Generated from content/src/{source}: do not edit. Regenerate with \
                 `make generate` (UPDATE_CONTENT_SCHEMA=1 cargo test --locked --workspace --lib)."
            )),
        );
    }
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema is JSON");
    text.push('\n');
    text
}

/// The TypeScript types as committed under `web/src/content/document.generated.ts` (made by a
/// test: ts-rs is a dev-dependency, so the release build compiles none of it).
#[cfg(test)]
pub fn typescript_file() -> String {
    use super::case_study::*;
    use super::document::*;
    use ts_rs::TS;
    let declarations = [
        ContentDocument::decl(),
        Profile::decl(),
        Location::decl(),
        About::decl(),
        Contact::decl(),
        Phone::decl(),
        SocialLink::decl(),
        Skill::decl(),
        Stack::decl(),
        Project::decl(),
        TimelineEntry::decl(),
        Award::decl(),
        MediaItem::decl(),
        MediaSource::decl(),
        Resume::decl(),
        ResumeSource::decl(),
        PaperSize::decl(),
        SectionKind::decl(),
        SectionTexts::decl(),
        SectionText::decl(),
        Footer::decl(),
        Appearance::decl(),
        Scheme::decl(),
        Sections::decl(),
        Language::decl(),
        CaseStudy::decl(),
        Decision::decl(),
        Figure::decl(),
        GalleryImage::decl(),
        CaseLinkKind::decl(),
        CaseLink::decl(),
        CaseStudyTranslation::decl(),
    ];
    let mut text = String::from(
        "// Generated from content/src/document.rs: do not edit. Regenerate with\n\
         // `make generate` (UPDATE_CONTENT_SCHEMA=1 cargo test --locked --workspace --lib).\n",
    );
    for declaration in declarations {
        text.push_str("\nexport ");
        text.push_str(declaration.trim());
        text.push('\n');
    }
    text
}

// The document and a case study in the OpenAPI description: the same schemas, their
// definitions moved under `components/schemas`, so the API and the files cannot disagree.
macro_rules! described_by_its_schema {
    ($type:ident, $schema:ident) => {
        impl utoipa::PartialSchema for $type {
            fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::schema::Schema> {
                utoipa::openapi::Ref::from_schema_name(stringify!($type)).into()
            }
        }

        impl utoipa::ToSchema for $type {
            fn name() -> Cow<'static, str> {
                Cow::Borrowed(stringify!($type))
            }

            fn schemas(
                schemas: &mut Vec<(
                    String,
                    utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
                )>,
            ) {
                components(stringify!($type), $schema(), schemas);
            }
        }
    };
}
described_by_its_schema!(ContentDocument, schema_value);
described_by_its_schema!(CaseStudy, case_study_schema_value);
use super::post::Post;
described_by_its_schema!(Post, post_schema_value);

/// A schema's root as `name` and its definitions, each a component of its own.
fn components(
    name: &str,
    schema: &Value,
    schemas: &mut Vec<(
        String,
        utoipa::openapi::RefOr<utoipa::openapi::schema::Schema>,
    )>,
) {
    let text = serde_json::to_string(schema)
        .expect("a schema is JSON")
        .replace("#/$defs/", "#/components/schemas/");
    let mut root: serde_json::Map<String, Value> =
        serde_json::from_str(&text).expect("a schema is a JSON object");
    let defs = root.remove("$defs").and_then(|d| match d {
        Value::Object(map) => Some(map),
        _ => None,
    });
    for key in ["$schema", "title"] {
        root.remove(key);
    }
    let mut all = vec![(name.to_owned(), Value::Object(root))];
    all.extend(defs.into_iter().flatten());
    for (name, schema) in all {
        match serde_json::from_value(schema) {
            Ok(schema) => schemas.push((name, schema)),
            Err(error) => {
                tracing::warn!(%name, %error, "a content schema is left out of the API description")
            }
        }
    }
}
