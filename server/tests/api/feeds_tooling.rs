//! The feeds' checkers themselves (helpers/feeds.rs), on fixed feeds rather than the server's: a
//! valid feed passes, a broken one fails, and text comes back as a reader sees it. A checker
//! that passed everything would let every feed test pass.

use std::panic::catch_unwind;

use crate::helpers::feeds::{check_json_feed, check_rss, validate_atom};

/// The title every sample carries: each character that XML or JSON escapes.
const TITLE: &str = r#"A & B <C> "D""#;

const ATOM: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="en">
  <title>A &amp; B &lt;C&gt; "D"</title>
  <link href="https://portfolio.example.com/writing"/>
  <link rel="self" type="application/atom+xml" href="https://portfolio.example.com/writing/atom.xml"/>
  <id>https://portfolio.example.com/writing</id>
  <updated>2024-05-01T12:00:00Z</updated>
  <author><name>Ada Lovelace</name></author>
  <entry>
    <title>First</title>
    <link rel="alternate" type="text/html" href="https://portfolio.example.com/writing/first"/>
    <id>https://portfolio.example.com/writing/first</id>
    <published>2024-05-01T12:00:00Z</published>
    <updated>2024-05-01T12:00:00Z</updated>
    <content type="html">&lt;p&gt;Hello &amp;amp; welcome&lt;/p&gt;</content>
  </entry>
</feed>
"#;

const RSS: &str = r#"<?xml version="1.0" encoding="utf-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/">
  <channel>
    <title>A &amp; B &lt;C&gt; "D"</title>
    <link>https://portfolio.example.com/writing</link>
    <description>Writing</description>
    <item>
      <title>A &amp; B &lt;C&gt; "D"</title>
      <link>https://portfolio.example.com/writing/first</link>
      <guid isPermaLink="true">https://portfolio.example.com/writing/first</guid>
      <pubDate>Wed, 01 May 2024 14:00:00 +0200</pubDate>
      <description>Hello</description>
      <content:encoded><![CDATA[<p>Hello &amp; welcome</p>]]></content:encoded>
    </item>
  </channel>
</rss>
"#;

const JSON_FEED: &str = r#"{
  "version": "https://jsonfeed.org/version/1.1",
  "title": "A & B <C> \"D\"",
  "home_page_url": "https://portfolio.example.com/writing",
  "feed_url": "https://portfolio.example.com/writing/feed.json",
  "language": "en",
  "authors": [{ "name": "Ada Lovelace" }],
  "items": [
    {
      "id": "https://portfolio.example.com/writing/first",
      "url": "https://portfolio.example.com/writing/first",
      "title": "A & B <C> \"D\"",
      "content_html": "<p>Hello &amp; welcome</p>",
      "date_published": "2024-05-01T12:00:00Z"
    }
  ]
}"#;

/// The panic's message, when `check` panics.
fn failure(check: impl FnOnce() + std::panic::UnwindSafe) -> Option<String> {
    let payload = catch_unwind(check).err()?;
    Some(
        payload
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default(),
    )
}

#[test]
fn a_valid_atom_feed_passes_the_schema() {
    validate_atom(ATOM);
}

#[test]
fn an_atom_entry_without_an_id_fails_the_schema() {
    let without_id = ATOM.replace(
        "    <id>https://portfolio.example.com/writing/first</id>\n",
        "",
    );
    assert_ne!(without_id, ATOM);
    let message = failure(|| validate_atom(&without_id)).expect("an entry without an id fails");
    assert!(message.contains("entry"), "{message}");
}

#[test]
fn rss_and_json_feeds_come_back_with_their_escaped_title_and_refuse_a_missing_field() {
    let rss = check_rss(RSS);
    assert_eq!(rss["title"], TITLE, "{rss}");
    assert_eq!(rss["items"][0]["title"], TITLE, "{rss}");
    assert_eq!(
        rss["items"][0]["link"],
        "https://portfolio.example.com/writing/first"
    );
    assert_eq!(rss["items"][0]["published"], "2024-05-01T12:00:00Z");
    assert_eq!(rss["items"][0]["content"], "<p>Hello &amp; welcome</p>");

    let json = check_json_feed(JSON_FEED);
    assert_eq!(json["title"], TITLE, "{json}");
    assert_eq!(json["items"][0]["title"], TITLE, "{json}");
    assert_eq!(
        json["items"][0]["link"],
        "https://portfolio.example.com/writing/first"
    );
    assert_eq!(json["items"][0]["published"], "2024-05-01T12:00:00Z");

    let undated = RSS.replace(
        "      <pubDate>Wed, 01 May 2024 14:00:00 +0200</pubDate>\n",
        "",
    );
    let message = failure(|| {
        check_rss(&undated);
    })
    .expect("an item without a date fails");
    assert!(
        message.contains("item 1") && message.contains("no date"),
        "{message}"
    );

    let no_id = JSON_FEED.replace(
        "      \"id\": \"https://portfolio.example.com/writing/first\",\n",
        "",
    );
    let message = failure(|| {
        check_json_feed(&no_id);
    })
    .expect("an item without an id fails");
    assert!(
        message.contains("item 1") && message.contains("no id"),
        "{message}"
    );
}
