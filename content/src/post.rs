//! A post of the owner's writing: an entry of the content store of its own (kind [`KIND`], keyed
//! by its id), drafted, versioned and published apart from the page's document, like a case
//! study. Its body is Markdown ([`super::article`]), written to HTML once, at publish; its page
//! is `/writing/<slug>/` under its language's prefix.

use std::collections::BTreeMap;
use std::sync::Arc;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::case_study::SLUG_PATTERN;
use super::document::{MediaItem, ID_PATTERN, LANGUAGE_TAG_PATTERN};

/// The kind of a post's entries in the content store.
pub const KIND: &str = "post";
/// What the path of the writing index is under a language's page.
pub const WRITING: &str = "writing/";

/// A post.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Post {
    /// Its entry's key, made from its first title and kept: the slug may change, the id never.
    #[schemars(regex(pattern = ID_PATTERN))]
    pub id: String,
    #[schemars(length(min = 1, max = 160))]
    pub title: String,
    /// Its address, `/writing/<slug>/`: made from the title when the post is begun, and kept when
    /// the title changes.
    #[schemars(regex(pattern = SLUG_PATTERN), length(min = 1, max = 80))]
    pub slug: String,
    /// The addresses it had before, newest first, each answering with a 301 to the current one.
    /// Kept by the server when a publish changes the slug.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(length(max = 20), inner(regex(pattern = SLUG_PATTERN), length(min = 1, max = 80)))]
    pub former_slugs: Vec<String>,
    /// A sentence or two: the lists', the feeds' and the link preview's description.
    #[serde(default)]
    #[schemars(length(max = 300))]
    pub summary: String,
    /// The text, in Markdown (CommonMark with tables, footnotes and fenced code).
    #[schemars(length(min = 1, max = 100000))]
    pub body: String,
    /// What it is about: each also a page of the index (`/writing/tags/<tag>/`).
    #[serde(default)]
    #[schemars(length(max = 10), inner(length(min = 1, max = 40)))]
    pub tags: Vec<String>,
    /// The id of the picture in `media` shown above the text and in the link preview.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = ID_PATTERN))]
    pub cover: Option<String>,
    /// The images the cover and the text use (uploads of the owner's).
    #[serde(default)]
    #[schemars(length(max = 40))]
    pub media: Vec<MediaItem>,
    /// The language it is written in: the page's, or one of its languages.
    #[schemars(regex(pattern = LANGUAGE_TAG_PATTERN), length(max = 35))]
    pub language: String,
    /// The id of the post it translates: the two list each other as alternates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(regex(pattern = ID_PATTERN))]
    pub translation_of: Option<String>,
    /// When it was first published (Unix ms): set by its first publish, or by an import from the
    /// front matter's date.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schemars(range(min = 0, max = 32503680000000_i64))]
    pub date: Option<i64>,
    /// Set by the server on a version that unpublishes the post: from that version's moment no
    /// address shows it. Never a draft's.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub withdrawn: bool,
}

/// A new post, begun with `title` in `language`.
pub fn begun(id: String, title: String, language: String) -> Post {
    Post {
        slug: id.clone(),
        id,
        title,
        former_slugs: Vec::new(),
        summary: String::new(),
        body: "Write here.\n".into(),
        tags: Vec::new(),
        cover: None,
        media: Vec::new(),
        language,
        translation_of: None,
        date: None,
        withdrawn: false,
    }
}

/// A tag's part of an address: [`super::case_study::slug_from_title`] of it, or, for a tag
/// without a Latin letter or digit, `tag-` and a short hash of it in lower case.
pub fn tag_slug(tag: &str) -> String {
    use sha2::Digest;
    if tag.chars().any(|c| c.is_ascii_alphanumeric()) {
        return super::case_study::slug_from_title(tag);
    }
    let digest = sha2::Sha256::digest(tag.trim().to_lowercase().as_bytes());
    format!("tag-{}", hex::encode(&digest[..4]))
}

/// A published post, as this instance serves it.
#[derive(Debug)]
pub struct PublishedPost {
    pub version: i64,
    /// When this version was published (Unix ms): the post's "updated" when later than its date.
    pub published_at: i64,
    pub document: Post,
}

impl PublishedPost {
    /// When it was first published (Unix ms).
    pub fn date(&self) -> i64 {
        self.document.date.unwrap_or(self.published_at)
    }
}

/// The published posts, by id.
pub type Posts = BTreeMap<String, Arc<PublishedPost>>;

/// The slug `post` would take on the same language's pages as another published post (its
/// current slug or a former one), for the field `slug`.
pub fn slug_problem(post: &Post, posts: &Posts) -> Option<String> {
    let taken = posts.values().any(|other| {
        other.document.id != post.id
            && other.document.language.eq_ignore_ascii_case(&post.language)
            && (other.document.slug == post.slug
                || other.document.former_slugs.contains(&post.slug))
    });
    taken.then(|| {
        format!(
            "\"{}\" is the address of another post (or was): choose another",
            post.slug
        )
    })
}

/// The slugs the post answered at before `slug`, newest first (see [`super::case_study::former_slugs`]).
pub fn former_slugs(before: Option<&Post>, slug: &str) -> Vec<String> {
    before.map_or_else(Vec::new, |before| {
        super::case_study::kept_slugs(&before.slug, &before.former_slugs, slug)
    })
}

/// Whether `src` is the address of one of `post`'s uploads.
pub fn own_image(post: &Post, src: &str) -> bool {
    post.media
        .iter()
        .any(|item| item.sources.iter().any(|source| source.src == src))
}

/// An upload's width, height and `srcset` by one of its addresses.
pub fn image_size(post: &Post, src: &str) -> Option<(u32, u32, String)> {
    let item = post
        .media
        .iter()
        .find(|item| item.sources.iter().any(|source| source.src == src))?;
    let srcset = item
        .sources
        .iter()
        .map(|source| format!("{} {}w", source.src, source.width))
        .collect::<Vec<_>>()
        .join(", ");
    Some((item.width, item.height, srcset))
}
