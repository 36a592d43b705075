//! The page's content: the data and what is made from it without the server are the
//! `portfolio-content` crate's (`content/`: the document and its checks, case studies, posts,
//! languages, Markdown, heads, feeds, link previews, the resume), re-exported here; what needs the
//! server is here: stored as drafts and published versions (`store::ContentStore`; the case
//! studies' and posts' entries), read with the API's errors ([`validate`]), kept in memory as
//! published ([`live`]), and `/` rendered from it by the render engine ([`render`], [`engine`])
//! into the site through [`composed::PageSink`].

pub use portfolio_content::{
    appearance, article, case_study, case_study_schema_file, composed, default_document, document,
    feeds, first_day, front_matter, head, language, markdown, migrate, post_page,
    post_title_and_path, preview, project_title, resume, schema_file, schema_value,
    ContentDocument, DEFAULT_DOCUMENT_JSON, KEPT_VERSIONS, MAX_DOCUMENT_BYTES, NO_CONTROL_PATTERN,
};

pub mod case_study_entry;
pub mod case_study_page;
pub mod engine;
pub mod live;
pub mod post;
pub mod render;
pub mod validate;
