//! The writing's pages: a post's (`/writing/<slug>/`), the index's (`/writing/`, a later page
//! `/writing/page/<n>/`, a tag's `/writing/tags/<tag>/`), each under its language's prefix, and
//! the home page's Writing section. What the render bundle draws each from (the views of
//! `web/src/content/post-view.ts`: the post's HTML written by [`super::article`], its dates and
//! reading time written the language's way, since the render bundle has no `Intl`), and their
//! heads (title, description, canonical, alternates, Open Graph, the feeds) and JSON-LD (a
//! `BlogPosting` by the owner, and the breadcrumbs). Rendered at publish, never per request.

use std::sync::Arc;

use serde::Serialize;

use super::document::ContentDocument;
use super::head::{
    alternate_link, escape_html, og_locale, og_locale_alternates, open_graph_tags,
    twitter_and_icon_tags, Preview,
};
use super::language::{self, Table};
use super::post::{tag_slug, Post, Posts, PublishedPost, WRITING};

/// Posts on a page of the index.
pub const PAGE_SIZE: usize = 10;
/// Posts in the home page's Writing section.
pub const TEASER_SIZE: usize = 3;

/// A language's texts for the writing: the language's table, else English's, else `fallback`.
pub struct Texts<'a> {
    table: &'a Table,
}

impl<'a> Texts<'a> {
    pub fn new(table: &'a Table) -> Self {
        Self { table }
    }

    pub fn get(&self, key: &str, fallback: &str) -> String {
        self.table
            .get(key)
            .cloned()
            .or_else(|| language::built_in_table("en").and_then(|t| t.get(key).cloned()))
            .unwrap_or_else(|| fallback.to_owned())
    }

    /// A day as the language writes it ("5 December 2026", "5. Dezember 2026").
    pub fn date(&self, ms: i64) -> String {
        use chrono::Datelike;
        let Some(day) = chrono::DateTime::from_timestamp_millis(ms) else {
            return String::new();
        };
        let months = self.get(
            "writing.months",
            "January,February,March,April,May,June,July,August,September,October,November,December",
        );
        let month = months
            .split(',')
            .nth(day.month0() as usize)
            .unwrap_or_default()
            .trim()
            .to_owned();
        self.get("writing.date", "{day} {month} {year}")
            .replace("{day}", &day.day().to_string())
            .replace("{month}", &month)
            .replace("{year}", &day.year().to_string())
    }

    /// "4 min read".
    pub fn reading(&self, minutes: usize) -> String {
        self.get("writing.minutes", "{minutes} min read")
            .replace("{minutes}", &minutes.to_string())
    }

    /// The screen readers' texts of a post's HTML.
    pub fn labels(&self) -> super::article::Labels {
        super::article::Labels {
            anchor: self.get("writing.anchor", "Link to this section"),
            footnotes: self.get("writing.footnotes", "Footnotes"),
            back: self.get("writing.footnoteBack", "Back to the text"),
        }
    }
}

/// The index's address in the language whose page is at `home` (`/writing/`, `/de/writing/`).
pub fn index_path(home: &str) -> String {
    format!("{home}{WRITING}")
}

/// A post's address in the language whose page is at `home`.
pub fn path(home: &str, slug: &str) -> String {
    format!("{home}{WRITING}{slug}/")
}

/// What the owner is told when a scheduled post goes live: the post, and its address in its
/// language (`/writing/<slug>/`, `/de/writing/<slug>/`), as published.
pub struct LiveNotice {
    pub id: String,
    title: String,
    path: String,
}

impl LiveNotice {
    /// `post` as it is published beside `page`, the published page's document.
    pub fn of(post: &Post, page: &ContentDocument) -> Self {
        let home = if post.language.eq_ignore_ascii_case(&page.language) {
            "/".to_owned()
        } else {
            format!("/{}/", post.language.to_ascii_lowercase())
        };
        Self {
            id: post.id.clone(),
            title: post.title.clone(),
            path: path(&home, &post.slug),
        }
    }

    /// Its subject and text, for a site at `base` and a post live from `at` (Unix ms), said in
    /// the owner's time zone.
    pub fn words(&self, base: &str, at: i64, zone: chrono_tz::Tz) -> (String, String) {
        let title = &self.title;
        let when = chrono::DateTime::from_timestamp_millis(at)
            .unwrap_or_default()
            .with_timezone(&zone)
            .format("%e %b %Y, %H:%M (%Z)");
        (
            format!("Your post is live: {title}"),
            format!(
                "Your post \u{201c}{title}\u{201d}, scheduled for {when}, is now live:\n{base}{}\n\n\
                 The writing index, the home page and the feeds show it too.\n",
                self.path
            ),
        )
    }
}

/// The address of a tag's page of the index.
pub fn tag_path(home: &str, tag: &str) -> String {
    format!("{home}{WRITING}tags/{}/", tag_slug(tag))
}

/// The `n`th page (from 1) of a list of the index whose first page is `first`.
fn page_path(first: &str, n: usize) -> String {
    if n <= 1 {
        first.to_owned()
    } else {
        format!("{first}page/{n}/")
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PostDate {
    iso: String,
    text: String,
}

fn post_date(ms: i64, texts: &Texts<'_>) -> PostDate {
    PostDate {
        iso: chrono::DateTime::from_timestamp_millis(ms)
            .unwrap_or_default()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        text: texts.date(ms),
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct PostTag {
    name: String,
    path: String,
}

#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostSummaryView {
    id: String,
    title: String,
    summary: String,
    path: String,
    published: PostDate,
    reading_time: String,
    tags: Vec<PostTag>,
}

#[derive(Debug, Clone, Serialize)]
pub struct PostImage {
    src: String,
    #[serde(rename = "srcSet")]
    src_set: String,
    width: u32,
    height: u32,
    alt: String,
}

#[derive(Debug, Clone, Serialize)]
pub struct Neighbour {
    title: String,
    path: String,
}

/// What the render bundle draws a post's page from (`PostView`).
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PostView {
    id: String,
    title: String,
    summary: String,
    path: String,
    home: String,
    writing: String,
    html: String,
    toc: Vec<super::article::TocEntry>,
    tags: Vec<PostTag>,
    cover: Option<PostImage>,
    published: PostDate,
    updated: Option<PostDate>,
    reading_time: String,
    newer: Option<Neighbour>,
    older: Option<Neighbour>,
}

#[derive(Debug, Clone, Serialize)]
pub struct TagCount {
    name: String,
    path: String,
    count: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct Feeds {
    atom: String,
    rss: String,
    json: String,
}

/// What the render bundle draws a page of the index from (`WritingView`).
#[derive(Debug, Clone, Serialize)]
pub struct WritingView {
    path: String,
    home: String,
    writing: String,
    tag: Option<String>,
    posts: Vec<PostSummaryView>,
    page: usize,
    pages: usize,
    newer: Option<String>,
    older: Option<String>,
    tags: Vec<TagCount>,
    feeds: Feeds,
}

impl WritingView {
    pub fn path(&self) -> &str {
        &self.path
    }

    pub fn tag(&self) -> Option<&str> {
        self.tag.as_deref()
    }
}

/// The home page's Writing section (`WritingTeaser`).
#[derive(Debug, Clone, Serialize)]
pub struct WritingTeaser {
    posts: Vec<PostSummaryView>,
    writing: String,
}

/// A post's cover, where it is served, at its sizes.
fn cover(post: &Post) -> Option<PostImage> {
    let id = post.cover.as_ref()?;
    let item = post.media.iter().find(|item| &item.id == id)?;
    let smallest = item.sources.first()?;
    Some(PostImage {
        src: smallest.src.clone(),
        src_set: item
            .sources
            .iter()
            .map(|s| format!("{} {}w", s.src, s.width))
            .collect::<Vec<_>>()
            .join(", "),
        width: item.width,
        height: item.height,
        alt: item.alt.clone(),
    })
}

/// The largest file of a post's cover, for its link preview.
pub fn cover_source(post: &Post) -> Option<String> {
    let id = post.cover.as_ref()?;
    let item = post.media.iter().find(|item| &item.id == id)?;
    item.sources
        .iter()
        .max_by_key(|s| s.width)
        .map(|s| s.src.clone())
}

/// A language's posts, newest first, each with its body written.
pub struct Language<'a> {
    pub tag: String,
    pub home: String,
    pub posts: Vec<(&'a Arc<PublishedPost>, super::article::Article)>,
}

/// The posts of `document`'s language `tag` (the default or a published one), written.
pub fn language<'a>(
    document: &ContentDocument,
    tag: &str,
    posts: &'a Posts,
    texts: &Texts<'_>,
) -> Language<'a> {
    let labels = texts.labels();
    let posts = super::feeds::posts_in(posts, tag)
        .into_iter()
        .map(|p| {
            let article = super::article::render(
                &p.document.body,
                |src| super::post::image_size(&p.document, src),
                &labels,
            );
            (p, article)
        })
        .collect();
    Language {
        tag: tag.to_owned(),
        home: language::href(document, tag),
        posts,
    }
}

fn tags_of(post: &Post, home: &str) -> Vec<PostTag> {
    post.tags
        .iter()
        .map(|tag| PostTag {
            name: tag.clone(),
            path: tag_path(home, tag),
        })
        .collect()
}

fn summary_view(
    post: &PublishedPost,
    article: &super::article::Article,
    home: &str,
    texts: &Texts<'_>,
) -> PostSummaryView {
    PostSummaryView {
        id: post.document.id.clone(),
        title: post.document.title.clone(),
        summary: post.document.summary.clone(),
        path: path(home, &post.document.slug),
        published: post_date(post.date(), texts),
        reading_time: texts.reading(article.minutes),
        tags: tags_of(&post.document, home),
    }
}

/// The home page's Writing section for `posts` (`None` without a post, or with the section
/// hidden).
pub fn teaser(posts: &Language<'_>, texts: &Texts<'_>) -> Option<WritingTeaser> {
    (!posts.posts.is_empty()).then(|| WritingTeaser {
        posts: posts
            .posts
            .iter()
            .take(TEASER_SIZE)
            .map(|(p, a)| summary_view(p, a, &posts.home, texts))
            .collect(),
        writing: index_path(&posts.home),
    })
}

/// Where the header's Writing item leads on the pages of a language besides the writing's own
/// (its home page, a case study's, its error page): the language's writing index, as the home
/// page shows that item, while the language has a post and `page` (the document in that
/// language) shows its Writing section; `None`: no item.
pub fn header_item(posts: &Language<'_>, page: &ContentDocument) -> Option<String> {
    (!posts.posts.is_empty() && page.appearance.sections.writing).then(|| index_path(&posts.home))
}

/// Whether a post was changed after the day it was first published.
fn updated_later(post: &PublishedPost) -> bool {
    post.published_at - post.date() > 24 * 3600 * 1000
}

/// The view of the `index`th post of `posts`.
pub fn post_view(posts: &Language<'_>, index: usize, texts: &Texts<'_>) -> PostView {
    let (post, article) = &posts.posts[index];
    let home = &posts.home;
    let neighbour = |i: usize| {
        posts.posts.get(i).map(|(p, _)| Neighbour {
            title: p.document.title.clone(),
            path: path(home, &p.document.slug),
        })
    };
    PostView {
        id: post.document.id.clone(),
        title: post.document.title.clone(),
        summary: post.document.summary.clone(),
        path: path(home, &post.document.slug),
        home: home.clone(),
        writing: index_path(home),
        html: article.html.clone(),
        toc: article.toc.clone(),
        tags: tags_of(&post.document, home),
        cover: cover(&post.document),
        published: post_date(post.date(), texts),
        updated: updated_later(post).then(|| post_date(post.published_at, texts)),
        reading_time: texts.reading(article.minutes),
        newer: index.checked_sub(1).and_then(neighbour),
        older: neighbour(index + 1),
    }
}

/// Every page of the index of a language that has posts (none without one): every post's, then each tag's, each
/// cut into pages of [`PAGE_SIZE`].
pub fn index_views(posts: &Language<'_>, texts: &Texts<'_>) -> Vec<WritingView> {
    if posts.posts.is_empty() {
        return Vec::new();
    }
    let home = &posts.home;
    let first = index_path(home);
    let mut counts: Vec<TagCount> = Vec::new();
    let mut names: Vec<String> = Vec::new();
    for (post, _) in &posts.posts {
        for tag in &post.document.tags {
            let path = tag_path(home, tag);
            match counts.iter_mut().find(|c| c.path == path) {
                Some(count) => count.count += 1,
                None => {
                    names.push(tag.clone());
                    counts.push(TagCount {
                        name: tag.clone(),
                        path,
                        count: 1,
                    });
                }
            }
        }
    }
    counts.sort_by(|a, b| b.count.cmp(&a.count).then(a.name.cmp(&b.name)));
    let feeds = Feeds {
        atom: format!("{home}{}", super::feeds::ATOM),
        rss: format!("{home}{}", super::feeds::RSS),
        json: format!("{home}{}", super::feeds::JSON),
    };
    let mut lists: Vec<(Option<String>, String, Vec<usize>)> =
        vec![(None, first.clone(), (0..posts.posts.len()).collect())];
    for count in &counts {
        let slug = tag_slug(&count.name);
        let members = posts
            .posts
            .iter()
            .enumerate()
            .filter(|(_, (p, _))| p.document.tags.iter().any(|t| tag_slug(t) == slug))
            .map(|(i, _)| i)
            .collect();
        lists.push((Some(count.name.clone()), count.path.clone(), members));
    }
    let mut views = Vec::new();
    for (tag, list_first, members) in lists {
        let pages = members.len().div_ceil(PAGE_SIZE).max(1);
        for page in 1..=pages {
            let shown = members
                .iter()
                .skip((page - 1) * PAGE_SIZE)
                .take(PAGE_SIZE)
                .map(|&i| {
                    let (p, a) = &posts.posts[i];
                    summary_view(p, a, home, texts)
                })
                .collect();
            views.push(WritingView {
                path: page_path(&list_first, page),
                home: home.clone(),
                writing: first.clone(),
                tag: tag.clone(),
                posts: shown,
                page,
                pages,
                newer: (page > 1).then(|| page_path(&list_first, page - 1)),
                older: (page < pages).then(|| page_path(&list_first, page + 1)),
                tags: counts.clone(),
                feeds: feeds.clone(),
            });
        }
    }
    views
}

/// The addresses of a post in every language that has it: itself and the posts that translate
/// it or that it translates (with theirs), each in its own language, the default's first.
pub fn alternates(document: &ContentDocument, post: &Post, posts: &Posts) -> Vec<(String, String)> {
    let root = post.translation_of.as_deref().unwrap_or(&post.id);
    let published = language::published_tags(document);
    let mut group: Vec<(String, String)> = posts
        .values()
        .map(|p| &p.document)
        .filter(|p| p.id == root || p.translation_of.as_deref() == Some(root))
        .filter_map(|p| {
            let tag = published
                .iter()
                .find(|t| t.eq_ignore_ascii_case(&p.language))?;
            Some((tag.clone(), path(&language::href(document, tag), &p.slug)))
        })
        .collect();
    if !group
        .iter()
        .any(|(_, p)| p.ends_with(&format!("/{}/", post.slug)))
    {
        return Vec::new();
    }
    group.sort_by_key(|(tag, _)| {
        published
            .iter()
            .position(|t| t == tag)
            .unwrap_or(usize::MAX)
    });
    group.dedup_by(|a, b| a.0 == b.0);
    group
}

/// The `<link rel="alternate">` of a language's feeds, for every page's head in that language.
pub fn feed_links(base: &str, home: &str, title: &str) -> String {
    let title = escape_html(title);
    [
        (super::feeds::ATOM, "application/atom+xml"),
        (super::feeds::RSS, "application/rss+xml"),
        (super::feeds::JSON, "application/feed+json"),
    ]
    .iter()
    .map(|(file, kind)| {
        format!(
            "<link rel=\"alternate\" type=\"{kind}\" title=\"{title}\" href=\"{base}{}{file}\" />",
            escape_html(home)
        )
    })
    .collect::<Vec<_>>()
    .join("\n    ")
}

/// What a post's page's or the index's head says.
pub struct Head<'a> {
    pub page: &'a ContentDocument,
    pub title: &'a str,
    pub description: &'a str,
    pub tag: &'a str,
    pub path: &'a str,
    /// The link preview's address, with the query that changes with what it shows.
    pub preview: &'a str,
    pub alternates: &'a [(String, String)],
    /// `article` for a post, `website` for the index.
    pub kind: &'a str,
    pub feeds: &'a str,
}

pub fn head_tags(head: &Head<'_>, base: &str) -> String {
    let title = escape_html(&format!("{} · {}", head.title, head.page.profile.name));
    let description = escape_html(head.description);
    let url = format!("{base}{}", escape_html(head.path));
    let image = format!("{base}{}", escape_html(head.preview));
    let name = escape_html(&head.page.profile.name);
    let image_alt = escape_html(head.title);
    let mut tags = vec![
        format!("<title>{title}</title>"),
        format!("<meta name=\"description\" content=\"{description}\" />"),
        format!("<meta name=\"author\" content=\"{name}\" />"),
        format!("<link rel=\"canonical\" href=\"{url}\" />"),
    ];
    if head.alternates.len() > 1 {
        for (tag, path) in head.alternates {
            tags.push(alternate_link(base, tag, path));
        }
        tags.push(alternate_link(base, "x-default", &head.alternates[0].1));
    }
    tags.push(head.feeds.to_owned());
    let locale = escape_html(&og_locale(head.tag));
    let preview = Preview {
        kind: head.kind,
        site_name: &name,
        title: &title,
        description: &description,
        url: &url,
        image: &image,
        image_alt: &image_alt,
        locale: &locale,
    };
    tags.extend(open_graph_tags(&preview));
    tags.extend(og_locale_alternates(head.tag, head.alternates));
    tags.extend(twitter_and_icon_tags(&preview));
    tags.join("\n    ")
}

/// The JSON-LD of a post's page: a `BlogPosting` by the owner, and the breadcrumbs (the owner's
/// page, the index, the post).
pub fn json_ld_tag(
    head: &Head<'_>,
    post: &PublishedPost,
    (home, writing_title): (&str, &str),
    image: Option<&str>,
    base: &str,
) -> String {
    let url = format!("{base}{}", head.path);
    let moment = |ms: i64| {
        chrono::DateTime::from_timestamp_millis(ms)
            .unwrap_or_default()
            .to_rfc3339_opts(chrono::SecondsFormat::Secs, true)
    };
    let mut posting = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "BlogPosting",
        "headline": head.title,
        "description": head.description,
        "url": url,
        "mainEntityOfPage": url,
        "inLanguage": head.tag,
        "datePublished": moment(post.date()),
        "dateModified": moment(post.published_at.max(post.date())),
        "author": {
            "@type": "Person",
            "name": head.page.profile.name,
            "url": format!("{base}{home}"),
        },
        "image": image.map_or_else(|| format!("{base}{}", head.preview), |p| format!("{base}{p}")),
    });
    if !post.document.tags.is_empty() {
        posting["keywords"] = serde_json::json!(post.document.tags.join(", "));
    }
    let crumbs = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": 1, "name": head.page.profile.name, "item": format!("{base}{home}")},
            {"@type": "ListItem", "position": 2, "name": writing_title, "item": format!("{base}{}", index_path(home))},
            {"@type": "ListItem", "position": 3, "name": head.title, "item": url},
        ],
    });
    let json = serde_json::to_string(&[posting, crumbs])
        .expect("JSON-LD serialises")
        .replace('<', "\\u003c");
    format!("<script type=\"application/ld+json\">{json}</script>")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_are_written_the_languages_way() {
        let en = language::built_in_table("en").unwrap();
        let de = language::built_in_table("de").unwrap();
        // 5 December 2026, 12:00 UTC.
        let ms = 1_796_472_000_000;
        assert_eq!(Texts::new(en).date(ms), "5 December 2026");
        assert_eq!(Texts::new(de).date(ms), "5. Dezember 2026");
        assert_eq!(Texts::new(en).reading(4), "4 min read");
    }

    #[test]
    fn the_header_leads_to_the_writing_while_the_language_has_a_post_and_shows_its_section() {
        let document = super::super::document::default_document();
        let tag = document.language.clone();
        let texts = Texts::new(language::built_in_table("en").unwrap());
        let mut posts = Posts::new();
        assert_eq!(
            header_item(&language(document, &tag, &posts, &texts), document),
            None
        );
        let post = |id: &str, language: &str| PublishedPost {
            version: 1,
            published_at: crate::clock::now().timestamp_millis(),
            document: super::super::post::begun(id.into(), id.into(), language.into()),
        };
        // A post in another language is that language's.
        posts.insert("hallo".into(), Arc::new(post("hallo", "de")));
        assert_eq!(
            header_item(&language(document, &tag, &posts, &texts), document),
            None
        );
        posts.insert("hello".into(), Arc::new(post("hello", &tag)));
        let written = language(document, &tag, &posts, &texts);
        assert_eq!(
            header_item(&written, document).as_deref(),
            Some("/writing/")
        );
        let mut hidden = document.clone();
        hidden.appearance.sections.writing = false;
        assert_eq!(header_item(&written, &hidden), None);
    }

    #[test]
    fn pages_of_a_list_are_numbered_from_the_second() {
        assert_eq!(page_path("/writing/", 1), "/writing/");
        assert_eq!(page_path("/writing/", 2), "/writing/page/2/");
        assert_eq!(
            tag_path("/de/", "Web & feeds"),
            "/de/writing/tags/web-feeds/"
        );
    }
}
