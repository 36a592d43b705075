//! A language's feeds of posts, with their full text: Atom (`/feed.xml`), RSS 2.0 (`/rss.xml`)
//! and JSON Feed 1.1 (`/feed.json`), under the language's prefix. Each is written by a writer:
//! atom_syndication's and rss's (quick-xml escapes every text and attribute), serde_json's; no
//! feed is put together from strings, so a title with `&`, `<` or `"` arrives as it was written.
//! Addresses are written with the build's placeholder URL, which the site replaces with the
//! public one, as in the pages.

use chrono::{DateTime, FixedOffset, TimeZone, Utc};
use serde::Serialize;

pub use super::composed::ComposedFeed;

/// The feeds' paths under a language's page (`/` or `/de/`).
pub const ATOM: &str = "feed.xml";
pub const RSS: &str = "rss.xml";
pub const JSON: &str = "feed.json";

pub const ATOM_TYPE: &str = "application/atom+xml; charset=utf-8";
pub const RSS_TYPE: &str = "application/rss+xml; charset=utf-8";
pub const JSON_TYPE: &str = "application/feed+json; charset=utf-8";

/// At most this many posts, newest first, are in a feed.
pub const FEED_LENGTH: usize = 20;

/// What a feed says of the site: its title (the owner's name and "Writing"), the language, the
/// writing index's address, the feeds' own, and the author.
pub struct Channel<'a> {
    pub title: &'a str,
    pub description: &'a str,
    pub language: &'a str,
    /// Absolute: the public URL's placeholder and the index's path.
    pub home: String,
    /// Absolute: this language's feeds' directory (`…/` or `…/de/`).
    pub feeds: String,
    pub author: &'a str,
}

/// A post as the feeds carry it.
pub struct Item<'a> {
    pub title: &'a str,
    /// Absolute.
    pub url: String,
    pub summary: &'a str,
    /// The body as HTML, its addresses absolute.
    pub html: &'a str,
    pub tags: &'a [String],
    /// Unix ms.
    pub published: i64,
    pub updated: i64,
}

fn moment(ms: i64) -> DateTime<FixedOffset> {
    Utc.timestamp_millis_opt(ms)
        .single()
        .unwrap_or_default()
        .fixed_offset()
}

/// The feed's own last change: its newest item's update, or `now` for an empty feed.
pub fn updated(items: &[Item<'_>], now: i64) -> i64 {
    items.iter().map(|item| item.updated).max().unwrap_or(now)
}

/// The Atom feed (RFC 4287).
pub fn atom(channel: &Channel<'_>, items: &[Item<'_>], now: i64) -> String {
    use atom_syndication::{Category, Content, Entry, Feed, Link, Person, Text};
    let link = |href: String, rel: &str, mime: Option<&str>| Link {
        href,
        rel: rel.into(),
        mime_type: mime.map(Into::into),
        ..Link::default()
    };
    let author = Person {
        name: channel.author.into(),
        uri: Some(channel.home.clone()),
        ..Person::default()
    };
    let entries = items
        .iter()
        .map(|item| Entry {
            title: Text::plain(item.title),
            id: item.url.clone(),
            updated: moment(item.updated),
            published: Some(moment(item.published)),
            authors: vec![author.clone()],
            links: vec![link(item.url.clone(), "alternate", Some("text/html"))],
            summary: (!item.summary.is_empty()).then(|| Text::plain(item.summary)),
            content: Some(Content {
                value: Some(item.html.into()),
                content_type: Some("html".into()),
                ..Content::default()
            }),
            categories: item
                .tags
                .iter()
                .map(|tag| Category {
                    term: tag.clone(),
                    ..Category::default()
                })
                .collect(),
            ..Entry::default()
        })
        .collect();
    let feed = Feed {
        title: Text::plain(channel.title),
        subtitle: (!channel.description.is_empty()).then(|| Text::plain(channel.description)),
        id: format!("{}{ATOM}", channel.feeds),
        updated: moment(updated(items, now)),
        authors: vec![author],
        links: vec![
            link(
                format!("{}{ATOM}", channel.feeds),
                "self",
                Some("application/atom+xml"),
            ),
            link(channel.home.clone(), "alternate", Some("text/html")),
        ],
        lang: Some(channel.language.into()),
        entries,
        ..Feed::default()
    };
    feed.to_string()
}

/// The RSS 2.0 feed, each item's full text in `content:encoded`.
pub fn rss(channel: &Channel<'_>, items: &[Item<'_>], now: i64) -> String {
    use rss::extension::Extension;
    let namespaces = [
        ("atom", "http://www.w3.org/2005/Atom"),
        ("content", "http://purl.org/rss/1.0/modules/content/"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    let last_build = moment(updated(items, now)).to_rfc2822();
    let items = items
        .iter()
        .map(|item| rss::Item {
            title: Some(item.title.into()),
            link: Some(item.url.clone()),
            description: Some(item.summary.into()),
            content: Some(item.html.into()),
            guid: Some(rss::Guid {
                value: item.url.clone(),
                permalink: true,
            }),
            pub_date: Some(moment(item.published).to_rfc2822()),
            categories: item
                .tags
                .iter()
                .map(|tag| rss::Category {
                    name: tag.clone(),
                    domain: None,
                })
                .collect(),
            ..rss::Item::default()
        })
        .collect();
    let channel = rss::Channel {
        title: channel.title.into(),
        link: channel.home.clone(),
        description: channel.description.into(),
        language: Some(channel.language.into()),
        last_build_date: Some(last_build),
        // `<atom:link rel="self">`, as feed validators ask of RSS, through the crate's own
        // extension map (its `atom` feature would build atom_syndication's builders again).
        extensions: std::iter::once((
            "atom".to_owned(),
            std::iter::once((
                "link".to_owned(),
                vec![Extension {
                    name: "atom:link".into(),
                    value: None,
                    attrs: [
                        ("href", format!("{}{RSS}", channel.feeds)),
                        ("rel", "self".into()),
                        ("type", "application/rss+xml".into()),
                    ]
                    .into_iter()
                    .map(|(k, v)| (k.to_owned(), v))
                    .collect(),
                    children: Default::default(),
                }],
            ))
            .collect(),
        ))
        .collect(),
        namespaces,
        items,
        ..rss::Channel::default()
    };
    channel.to_string()
}

#[derive(Serialize)]
struct JsonFeed<'a> {
    version: &'static str,
    title: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    description: &'a str,
    home_page_url: &'a str,
    feed_url: String,
    language: &'a str,
    authors: Vec<JsonAuthor<'a>>,
    items: Vec<JsonItem<'a>>,
}

#[derive(Serialize)]
struct JsonAuthor<'a> {
    name: &'a str,
    url: &'a str,
}

#[derive(Serialize)]
struct JsonItem<'a> {
    id: &'a str,
    url: &'a str,
    title: &'a str,
    #[serde(skip_serializing_if = "str::is_empty")]
    summary: &'a str,
    content_html: &'a str,
    date_published: String,
    date_modified: String,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    tags: &'a [String],
}

/// The JSON Feed 1.1.
pub fn json(channel: &Channel<'_>, items: &[Item<'_>]) -> String {
    let rfc3339 = |ms: i64| moment(ms).to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    let feed = JsonFeed {
        version: "https://jsonfeed.org/version/1.1",
        title: channel.title,
        description: channel.description,
        home_page_url: &channel.home,
        feed_url: format!("{}{JSON}", channel.feeds),
        language: channel.language,
        authors: vec![JsonAuthor {
            name: channel.author,
            url: &channel.home,
        }],
        items: items
            .iter()
            .map(|item| JsonItem {
                id: &item.url,
                url: &item.url,
                title: item.title,
                summary: item.summary,
                content_html: item.html,
                date_published: rfc3339(item.published),
                date_modified: rfc3339(item.updated),
                tags: item.tags,
            })
            .collect(),
    };
    serde_json::to_string_pretty(&feed).expect("a feed serialises")
}

/// An HTML body with its site-relative addresses (`href="/…"`, `src="/…"`, `srcset`'s) made
/// absolute with `base`, as a feed reader, which reads it away from the site, needs them.
pub fn absolute(html: &str, base: &str) -> String {
    let mut out = html.replace("href=\"/", &format!("href=\"{base}/"));
    out = out.replace("src=\"/", &format!("src=\"{base}/"));
    // srcset="/a 1x, /b 2x": each candidate after a comma.
    let mut result = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(at) = rest.find("srcset=\"") {
        let start = at + "srcset=\"".len();
        result.push_str(&rest[..start]);
        let end = rest[start..].find('"').map_or(rest.len(), |e| start + e);
        let value = rest[start..end]
            .split(", ")
            .map(|candidate| match candidate.strip_prefix('/') {
                Some(path) => format!("{base}/{path}"),
                None => candidate.to_owned(),
            })
            .collect::<Vec<_>>()
            .join(", ");
        result.push_str(&value);
        rest = &rest[end..];
    }
    result.push_str(rest);
    result
}

/// The posts of the language `tag` (case-insensitive), newest first.
pub fn posts_in<'a>(
    posts: &'a super::post::Posts,
    tag: &str,
) -> Vec<&'a std::sync::Arc<super::post::PublishedPost>> {
    let mut shown: Vec<_> = posts
        .values()
        .filter(|p| p.document.language.eq_ignore_ascii_case(tag))
        .collect();
    shown.sort_by_key(|p| std::cmp::Reverse((p.date(), p.document.id.clone())));
    shown
}

/// Every feed of `document`'s languages (the default and each published one) that has a post.
pub fn compose(
    document: &super::document::ContentDocument,
    posts: &super::post::Posts,
    now: i64,
) -> Vec<ComposedFeed> {
    use super::composed::PUBLIC_URL_PLACEHOLDER as BASE;
    use super::language;
    let mut feeds = Vec::new();
    for tag in language::published_tags(document) {
        let shown = posts_in(posts, &tag);
        if shown.is_empty() {
            continue;
        }
        let Some(page) = language::localize(document, &tag) else {
            continue;
        };
        let table = language::table(document, &tag);
        let text = |key: &str, fallback: &str| {
            table
                .get(key)
                .cloned()
                .or_else(|| language::built_in_table("en").and_then(|t| t.get(key).cloned()))
                .unwrap_or_else(|| fallback.to_owned())
        };
        let labels = super::article::Labels {
            anchor: text("writing.anchor", "Link to this section"),
            footnotes: text("writing.footnotes", "Footnotes"),
            back: text("writing.footnoteBack", "Back to the text"),
        };
        let home = language::href(document, &tag);
        let title = format!(
            "{} \u{b7} {}",
            page.profile.name,
            text("writing.title", "Writing")
        );
        let channel = Channel {
            title: &title,
            description: &page.profile.summary,
            language: &tag,
            home: format!("{BASE}{home}{}", super::post::WRITING),
            feeds: format!("{BASE}{home}"),
            author: &page.profile.name,
        };
        let bodies: Vec<String> = shown
            .iter()
            .take(FEED_LENGTH)
            .map(|p| {
                let article = super::article::render(
                    &p.document.body,
                    |src| super::post::image_size(&p.document, src),
                    &labels,
                );
                absolute(&article.html, BASE)
            })
            .collect();
        let items: Vec<Item<'_>> = shown
            .iter()
            .zip(&bodies)
            .map(|(p, html)| Item {
                title: &p.document.title,
                url: format!("{BASE}{home}{}{}/", super::post::WRITING, p.document.slug),
                summary: &p.document.summary,
                html,
                tags: &p.document.tags,
                published: p.date(),
                updated: p.published_at.max(p.date()),
            })
            .collect();
        let modified = updated(&items, now);
        for (file, content_type, text) in [
            (ATOM, ATOM_TYPE, atom(&channel, &items, now)),
            (RSS, RSS_TYPE, rss(&channel, &items, now)),
            (JSON, JSON_TYPE, json(&channel, &items)),
        ] {
            feeds.push(ComposedFeed {
                path: format!("{home}{file}"),
                content_type,
                text,
                modified,
            });
        }
    }
    feeds
}

#[cfg(test)]
mod tests {
    use super::*;

    const TRICKY: &str = "Fish & <Chips> \"Friday\"";

    fn channel() -> Channel<'static> {
        Channel {
            title: TRICKY,
            description: "Notes",
            language: "en",
            home: "https://example.com/writing/".into(),
            feeds: "https://example.com/".into(),
            author: "Ada & Co",
        }
    }

    fn items(tags: &[String]) -> Vec<Item<'_>> {
        vec![Item {
            title: TRICKY,
            url: "https://example.com/writing/fish/".into(),
            summary: "A <summary>",
            html: "<p>Body &amp; <em>more</em></p>",
            tags,
            published: 1_767_225_600_000,
            updated: 1_767_312_000_000,
        }]
    }

    #[test]
    fn every_feed_escapes_the_title_and_carries_the_full_text() {
        let tags = vec!["rust".to_owned()];
        let atom = atom(&channel(), &items(&tags), 0);
        assert!(
            atom.contains("<title>Fish &amp; &lt;Chips&gt; &quot;Friday&quot;</title>"),
            "{atom}"
        );
        assert!(
            atom.contains("<content type=\"html\">&lt;p&gt;Body &amp;amp; &lt;em&gt;more"),
            "{atom}"
        );
        assert!(atom.contains("<published>2026-01-01T00:00:00+00:00</published>"));
        let rss = rss(&channel(), &items(&tags), 0);
        assert!(
            rss.contains("xmlns:content=\"http://purl.org/rss/1.0/modules/content/\""),
            "{rss}"
        );
        assert!(rss.contains("<content:encoded>"), "{rss}");
        assert!(
            rss.contains("<atom:link href=\"https://example.com/rss.xml\" rel=\"self\""),
            "{rss}"
        );
        assert!(
            rss.contains("<pubDate>Thu, 1 Jan 2026 00:00:00 +0000</pubDate>"),
            "{rss}"
        );
        let json = json(&channel(), &items(&tags));
        let value: serde_json::Value = serde_json::from_str(&json).unwrap();
        assert_eq!(value["title"], TRICKY);
        assert_eq!(value["items"][0]["title"], TRICKY);
        assert_eq!(value["items"][0]["date_published"], "2026-01-01T00:00:00Z");
    }

    #[test]
    fn relative_addresses_become_absolute() {
        assert_eq!(
            absolute(
                "<a href=\"/writing/x/\">x</a><a href=\"#y\">y</a><img src=\"/media/a.webp\" srcset=\"/media/a.webp 640w, /media/b.webp 1280w\">",
                "https://example.com"
            ),
            "<a href=\"https://example.com/writing/x/\">x</a><a href=\"#y\">y</a><img src=\"https://example.com/media/a.webp\" srcset=\"https://example.com/media/a.webp 640w, https://example.com/media/b.webp 1280w\">"
        );
    }
}
