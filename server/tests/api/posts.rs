//! Posts as entries of the content store: begun, saved, published and reverted through the
//! same code path as the page's document; their Markdown checked; their feeds written by writers
//! and checked by the formats' own tools (Atom against RFC 4287's RELAX NG schema with xmllint,
//! RSS by feedparser, JSON Feed against version 1.1's fields), with validators and 304s.

use serde_json::{json, Value};

use crate::delivery::{webhook_to, Receiver};
use crate::helpers::feeds::{check_json_feed, check_rss, validate_atom};
use crate::helpers::{eventually, from_now, postgres_only_database, spawn_app, url_escape};
use crate::helpers::{Spawn, TestApp};
use crate::helpers::{EMAIL, PASSWORD};

const TRICKY: &str = "Fish & <Chips> \"Friday\"";

impl TestApp {
    async fn put_post(&self, id: &str, document: &Value, if_match: &str) -> reqwest::Response {
        self.client
            .put(self.url(&format!("/api/content/posts/{id}/draft")))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .header("If-Match", if_match)
            .json(document)
            .send()
            .await
            .expect("the request is sent")
    }

    /// Unpublishes post `id`: now, or at `at` (the `at` parameter) when given.
    async fn unpublish_post(&self, id: &str, at: Option<&str>) -> reqwest::Response {
        let path = match at {
            Some(at) => format!("/api/content/posts/{id}/unpublish?at={}", url_escape(at)),
            None => format!("/api/content/posts/{id}/unpublish"),
        };
        self.post_json(&path, &json!({})).await
    }

    /// Begins a post titled `title`, saves `body` into it and publishes it; its id.
    async fn published_post(&self, title: &str, body: &str) -> String {
        self.scheduled_post(title, body, None).await
    }

    /// [`Self::published_post`], published at `at` (the `at` parameter) when given.
    async fn scheduled_post(&self, title: &str, body: &str, at: Option<&str>) -> String {
        let created = self
            .post_json("/api/content/posts", &json!({ "title": title }))
            .await;
        assert_eq!(created.status(), 201);
        let created: Value = created.json().await.unwrap();
        let id = created["document"]["id"].as_str().unwrap().to_owned();
        let mut document = created["document"].clone();
        document["body"] = json!(body);
        document["summary"] = json!("What the post says.");
        document["tags"] = json!(["rust", "Web & feeds"]);
        let saved = self
            .put_post(&id, &document, &created["revision"].to_string())
            .await;
        assert_eq!(saved.status(), 200, "{}", saved.text().await.unwrap());
        let path = match at {
            Some(at) => format!("/api/content/posts/{id}/publish?at={}", url_escape(at)),
            None => format!("/api/content/posts/{id}/publish"),
        };
        let published = self.post_json(&path, &json!({})).await;
        assert_eq!(
            published.status(),
            200,
            "{}",
            published.text().await.unwrap()
        );
        id
    }
}

const BODY: &str = "Intro with a [link](https://example.com/?a=1&b=2).\n\n## Set up\n\n```rust\nfn main() {}\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nA claim.[^1]\n\n[^1]: Its source.\n";

#[tokio::test]
async fn a_post_is_begun_saved_published_and_reverted_with_its_former_addresses() {
    let app = spawn_app().await;
    app.signed_in().await;
    let created = app
        .post_json("/api/content/posts", &json!({ "title": "Hello, World!" }))
        .await;
    assert_eq!(created.status(), 201);
    let etag = created.headers()["etag"].to_str().unwrap().to_owned();
    let created: Value = created.json().await.unwrap();
    assert_eq!(etag, format!("\"{}\"", created["revision"]));
    let mut document = created["document"].clone();
    assert_eq!(document["id"], "hello-world");
    assert_eq!(document["slug"], "hello-world");
    assert_eq!(document["language"], "en");
    // A second post of the same title gets an id of its own.
    let second: Value = app
        .post_json("/api/content/posts", &json!({ "title": "Hello, World!" }))
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(second["document"]["id"], "hello-world-2");

    document["body"] = json!(BODY);
    let saved = app.put_post("hello-world", &document, &etag).await;
    assert_eq!(saved.status(), 200);
    // The same revision again: someone saved since, nothing is overwritten.
    let stale = app.put_post("hello-world", &document, &etag).await;
    assert_eq!(stale.status(), 409);

    let published = app
        .post_json("/api/content/posts/hello-world/publish", &json!({}))
        .await;
    assert_eq!(published.status(), 200);
    let first: Value = published.json().await.unwrap();
    assert_eq!(first["version"], 1);

    // A new slug: the post keeps the old one as a former slug and keeps its date.
    let draft: Value = app
        .get("/api/content/posts/hello-world/draft")
        .await
        .json()
        .await
        .unwrap();
    let mut changed = draft["document"].clone();
    let date = changed["date"].clone();
    assert!(date.is_i64(), "the first publish dated the post: {changed}");
    changed["slug"] = json!("hello-again");
    changed["title"] = json!("Hello again");
    let saved = app
        .put_post("hello-world", &changed, &draft["revision"].to_string())
        .await;
    assert_eq!(saved.status(), 200);
    let second = app
        .post_json("/api/content/posts/hello-world/publish", &json!({}))
        .await;
    assert_eq!(second.status(), 200);
    let draft: Value = app
        .get("/api/content/posts/hello-world/draft")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(draft["document"]["formerSlugs"], json!(["hello-world"]));
    assert_eq!(draft["document"]["date"], date);

    let versions: Value = app
        .get("/api/content/posts/hello-world/versions")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(versions["versions"].as_array().unwrap().len(), 2);
    let reverted = app
        .post_json(
            "/api/content/posts/hello-world/versions/1/revert",
            &json!({}),
        )
        .await;
    assert_eq!(reverted.status(), 200);
    let reverted: Value = reverted.json().await.unwrap();
    assert_eq!(reverted["version"], 3);

    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    let posts = list["posts"].as_array().unwrap();
    assert_eq!(posts.len(), 2);
    let first = posts.iter().find(|p| p["id"] == "hello-world").unwrap();
    assert_eq!(first["version"], 3);
    assert_eq!(first["title"], "Hello, World!");
    let unpublished = posts.iter().find(|p| p["id"] == "hello-world-2").unwrap();
    assert_eq!(unpublished["version"], 0);
}

#[tokio::test]
async fn markdown_with_raw_html_or_a_scripted_link_is_refused_with_the_field_named() {
    let app = spawn_app().await;
    app.signed_in().await;
    let created: Value = app
        .post_json("/api/content/posts", &json!({ "title": "Risky" }))
        .await
        .json()
        .await
        .unwrap();
    let revision = created["revision"].to_string();
    for (body, found) in [
        ("Fine.\n\n<script>alert(1)</script>\n", "Line 3"),
        ("Click [here](javascript:alert(1)).", "javascript:alert(1)"),
        (
            "![pixel](https://tracker.example/p.gif)",
            "not one of your uploads",
        ),
    ] {
        let mut document = created["document"].clone();
        document["body"] = json!(body);
        let refused = app.put_post("risky", &document, &revision).await;
        assert_eq!(refused.status(), 422, "{body}");
        let error: Value = refused.json().await.unwrap();
        let message = error["error"]["fields"]["body"]
            .as_str()
            .unwrap_or_default();
        assert!(message.contains(found), "{body}: {error}");
    }
    // Other fields are named too, and nothing was saved.
    let mut document = created["document"].clone();
    document["language"] = json!("xx");
    document["cover"] = json!("nothing");
    let refused: Value = app
        .put_post("risky", &document, &revision)
        .await
        .json()
        .await
        .unwrap();
    assert!(
        refused["error"]["fields"]["language"].is_string(),
        "{refused}"
    );
    assert!(refused["error"]["fields"]["cover"].is_string(), "{refused}");
    let draft: Value = app
        .get("/api/content/posts/risky/draft")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(draft["revision"], created["revision"]);
    // No such post, and a path that is no id.
    assert_eq!(
        app.get("/api/content/posts/nothing/draft").await.status(),
        404
    );
    assert_eq!(
        app.get("/api/content/posts/NO_ID/draft").await.status(),
        422
    );
}

#[tokio::test]
async fn the_feeds_carry_each_post_in_full_validate_and_revalidate() {
    let app = spawn_app().await;
    // No post yet: no feed.
    for path in ["/feed.xml", "/rss.xml", "/feed.json"] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
    app.signed_in().await;
    app.published_post(TRICKY, BODY).await;
    app.published_post("A second post", "Short & *sweet*.")
        .await;
    let other = TestApp::other_client();

    let atom = other.get(app.url("/feed.xml")).send().await.unwrap();
    assert_eq!(atom.status(), 200);
    assert_eq!(
        atom.headers()["content-type"],
        "application/atom+xml; charset=utf-8"
    );
    let etag = atom.headers()["etag"].to_str().unwrap().to_owned();
    let last_modified = atom.headers()["last-modified"].to_str().unwrap().to_owned();
    let atom = atom.text().await.unwrap();
    validate_atom(&atom);
    assert!(
        atom.contains("<title>Fish &amp; &lt;Chips&gt; &quot;Friday&quot;</title>"),
        "{atom}"
    );
    // The full text, its links whole and its addresses absolute.
    assert!(
        atom.contains("https://example.com/?a=1&amp;amp;b=2"),
        "{atom}"
    );
    assert!(
        atom.contains(&format!("{}/writing/fish-chips-friday/", app.address)),
        "{atom}"
    );

    let rss = other.get(app.url("/rss.xml")).send().await.unwrap();
    assert_eq!(
        rss.headers()["content-type"],
        "application/rss+xml; charset=utf-8"
    );
    let rss = check_rss(&rss.text().await.unwrap());
    let items = rss["items"].as_array().unwrap();
    assert_eq!(items.len(), 2);
    let titles: Vec<&str> = items.iter().map(|i| i["title"].as_str().unwrap()).collect();
    assert!(titles.contains(&TRICKY), "{rss}");
    let tricky = items.iter().find(|i| i["title"] == TRICKY).unwrap();
    assert!(
        tricky["content"].as_str().unwrap().contains("<table>"),
        "{rss}"
    );

    let json = other.get(app.url("/feed.json")).send().await.unwrap();
    assert_eq!(
        json.headers()["content-type"],
        "application/feed+json; charset=utf-8"
    );
    let json = check_json_feed(&json.text().await.unwrap());
    assert!(json["items"]
        .as_array()
        .unwrap()
        .iter()
        .any(|i| i["title"] == TRICKY));

    // Feed readers poll with what they were given: unchanged, each is a 304.
    let again = other
        .get(app.url("/feed.xml"))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    let since = other
        .get(app.url("/feed.xml"))
        .header("If-Modified-Since", &last_modified)
        .send()
        .await
        .unwrap();
    assert_eq!(since.status(), 304);
    assert_eq!(since.headers()["last-modified"], last_modified.as_str());
    let before = other
        .get(app.url("/feed.xml"))
        .header("If-Modified-Since", "Thu, 01 Jan 2015 00:00:00 GMT")
        .send()
        .await
        .unwrap();
    assert_eq!(before.status(), 200);
    // A third post changes the feed: the old tag no longer matches.
    app.published_post("A third post", "More.").await;
    let changed = other
        .get(app.url("/feed.xml"))
        .header("If-None-Match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(changed.status(), 200);
}

#[tokio::test]
async fn a_scheduled_post_is_nowhere_until_its_moment_then_everywhere_without_a_restart() {
    let app = spawn_app().await;
    app.signed_in().await;
    // Far enough ahead for every "not yet" below on a loaded machine.
    let at = from_now(12);
    let id = app.scheduled_post(TRICKY, BODY, Some(&at)).await;
    // Before its moment: no feed has it (this language has no other post: none answers), and the
    // owner's list says when it comes.
    for path in [
        "/feed.xml",
        "/rss.xml",
        "/feed.json",
        "/writing/",
        "/writing/fish-chips-friday/",
        "/writing/tags/rust/",
    ] {
        assert_eq!(app.get(path).await.status(), 404, "{path}");
    }
    let home = app.get("/").await.text().await.unwrap();
    assert!(!home.contains("/writing/"), "{home}");
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(!sitemap.contains("/writing/"), "{sitemap}");
    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    let listed = &list["posts"][0];
    assert_eq!(listed["id"], id.as_str());
    let expected = chrono::DateTime::parse_from_rfc3339(&at)
        .unwrap()
        .timestamp_millis();
    assert_eq!(listed["scheduledAt"], expected);
    // After it: served with no request to the API and no restart, within the instance's look.
    let atom = eventually("the scheduled post in the feed", || async {
        let response = app.get("/feed.xml").await;
        (response.status() == 200).then_some(())?;
        Some(response.text().await.unwrap())
    })
    .await;
    validate_atom(&atom);
    assert!(atom.contains("<title>Fish &amp; &lt;Chips&gt;"), "{atom}");
    // The feeds follow the pages: by then the post, the index and the sitemap have it too.
    assert_eq!(app.get("/writing/fish-chips-friday/").await.status(), 200);
    assert_eq!(app.get("/writing/").await.status(), 200);
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(
        sitemap.contains("/writing/fish-chips-friday/</loc>"),
        "{sitemap}"
    );
    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    assert!(list["posts"][0]["scheduledAt"].is_null(), "{list}");
    // A moment that is none is named.
    let created: Value = app
        .post_json("/api/content/posts", &json!({ "title": "Later" }))
        .await
        .json()
        .await
        .unwrap();
    let later = created["document"]["id"].as_str().unwrap();
    let refused = app
        .post_json(
            &format!("/api/content/posts/{later}/publish?at=tomorrow"),
            &json!({}),
        )
        .await;
    assert_eq!(refused.status(), 422);
    let error: Value = refused.json().await.unwrap();
    assert!(error["error"]["fields"]["at"].is_string(), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_show_a_scheduled_post_within_seconds_of_each_other() {
    let Some(url) = postgres_only_database().await else {
        return;
    };
    // Both notify the owner through the same webhook: the post's notice is posted once.
    let receiver = Receiver::start().await;
    let a = Spawn::new()
        .database(url.clone())
        .settings(|s| webhook_to(s, &receiver.url))
        .await;
    let b = Spawn::new()
        .database(url.clone())
        .settings(|s| webhook_to(s, &receiver.url))
        .await;
    a.create_owner(EMAIL, PASSWORD).await;
    a.signed_in_again().await;
    a.scheduled_post(TRICKY, BODY, Some(&from_now(12))).await;
    // Scheduled the same day again, then for its moment: the notice replaced, not doubled.
    let id = a
        .scheduled_post("Later still", BODY, Some(&from_now(3600)))
        .await;
    let cancelled = a
        .send(
            reqwest::Method::DELETE,
            &format!("/api/content/posts/{id}/schedule"),
            None,
        )
        .await;
    assert_eq!(cancelled.status(), 204);
    assert_eq!(a.get("/feed.xml").await.status(), 404);
    assert_eq!(b.get("/feed.xml").await.status(), 404);
    let shown = |app: &TestApp| {
        let client = TestApp::other_client();
        let url = app.url("/feed.xml");
        async move {
            eventually("the scheduled post's feed", || async {
                let response = client.get(&url).send().await.ok()?;
                (response.status() == 200).then(std::time::Instant::now)
            })
            .await
        }
    };
    let (on_a, on_b) = tokio::join!(shown(&a), shown(&b));
    let apart = if on_a > on_b {
        on_a - on_b
    } else {
        on_b - on_a
    };
    // Each instance looks every 2 s: the two follow within one look of each other.
    assert!(apart < std::time::Duration::from_secs(5), "{apart:?} apart");
    // The notice: posted once, at its moment, naming the post and its address; none for the
    // post whose schedule was cancelled.
    let notices = eventually("the post's notice", || async {
        let notices: Vec<Value> = receiver
            .verified_bodies()
            .into_iter()
            .filter(|body| body["type"] == "notice")
            .collect();
        (!notices.is_empty()).then_some(notices)
    })
    .await;
    // Both instances' outbox workers look again meanwhile (every 30 s at most, and at once when
    // woken): a second post would be here by then.
    tokio::time::sleep(std::time::Duration::from_secs(3)).await;
    let all: Vec<Value> = receiver
        .verified_bodies()
        .into_iter()
        .filter(|body| body["type"] == "notice")
        .collect();
    assert_eq!(all.len(), 1, "{all:?}");
    assert_eq!(
        notices[0]["subject"],
        format!("Your post is live: {TRICKY}")
    );
    let text = notices[0]["text"].as_str().unwrap();
    assert!(
        text.contains(&a.url("/writing/fish-chips-friday/")),
        "{text}"
    );
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test]
async fn a_post_has_its_page_the_index_the_home_section_and_the_sitemap_only_once_published() {
    let app = spawn_app().await;
    app.signed_in().await;
    assert_eq!(app.get("/writing/").await.status(), 404);
    let id = app.published_post(TRICKY, BODY).await;
    let page = app.get("/writing/fish-chips-friday/").await;
    assert_eq!(page.status(), 200);
    let html = page.text().await.unwrap();
    // Its own head: the title escaped, the canonical, the feeds, a BlogPosting, the preview.
    assert!(
        html.contains("<title>Fish &amp; &lt;Chips&gt; &quot;Friday&quot; · "),
        "{html}"
    );
    assert!(html.contains("/writing/fish-chips-friday/\" />"), "{html}");
    assert!(html.contains("type=\"application/atom+xml\""), "{html}");
    assert!(html.contains("\"@type\":\"BlogPosting\""), "{html}");
    assert!(html.contains("og-image.png?v="), "{html}");
    // Its body as the server wrote it: the highlighted code, the table, the footnote.
    assert!(html.contains("data-post=\"fish-chips-friday\""), "{html}");
    assert!(html.contains("class=\"hl-"), "{html}");
    assert!(
        html.contains("<div class=\"table-scroll\" tabindex=\"0\"><table>"),
        "{html}"
    );
    assert!(html.contains("id=\"fn-1\""), "{html}");
    let data = app.get("/writing/fish-chips-friday/page-data.json").await;
    assert_eq!(data.status(), 200);
    let data: Value = data.json().await.unwrap();
    assert_eq!(data["post"]["title"], TRICKY);
    assert_eq!(data["post"]["readingTime"], "1 min read");
    // The index, by tag too, and the home page's section.
    let index = app.get("/writing/").await.text().await.unwrap();
    assert!(index.contains("data-writing"), "{index}");
    assert!(index.contains("Fish &amp; &lt;Chips&gt;"), "{index}");
    let tag = app.get("/writing/tags/web-feeds/").await;
    assert_eq!(tag.status(), 200);
    let home = app.get("/").await.text().await.unwrap();
    assert!(home.contains("id=\"writing\""), "{home}");
    assert!(home.contains("/writing/fish-chips-friday/"), "{home}");
    assert!(home.contains("type=\"application/rss+xml\""), "{home}");
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(
        sitemap.contains("/writing/fish-chips-friday/</loc>"),
        "{sitemap}"
    );
    assert!(sitemap.contains("/writing/</loc>"), "{sitemap}");
    // A new slug: the old address answers 301 to the new one.
    let draft: Value = app
        .get(&format!("/api/content/posts/{id}/draft"))
        .await
        .json()
        .await
        .unwrap();
    let mut document = draft["document"].clone();
    document["slug"] = json!("fish-friday");
    let saved = app
        .put_post(&id, &document, &draft["revision"].to_string())
        .await;
    assert_eq!(saved.status(), 200);
    let published = app
        .post_json(&format!("/api/content/posts/{id}/publish"), &json!({}))
        .await;
    assert_eq!(published.status(), 200);
    let moved = app.get("/writing/fish-chips-friday/").await;
    assert_eq!(moved.status(), 301);
    assert_eq!(moved.headers()["location"], "/writing/fish-friday/");
}

#[tokio::test]
async fn the_preview_is_the_servers_own_render_of_the_draft() {
    let app = spawn_app().await;
    app.signed_in().await;
    let created: Value = app
        .post_json("/api/content/posts", &json!({ "title": "Draft only" }))
        .await
        .json()
        .await
        .unwrap();
    let mut document = created["document"].clone();
    document["body"] = json!(BODY);
    let saved = app
        .put_post("draft-only", &document, &created["revision"].to_string())
        .await;
    assert_eq!(saved.status(), 200);
    let preview = app.get("/api/content/posts/draft-only/preview").await;
    assert_eq!(preview.status(), 200);
    assert!(preview.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let html = preview.text().await.unwrap();
    assert!(html.contains("<h1"), "{html}");
    assert!(html.contains("Draft only"), "{html}");
    assert!(html.contains("class=\"hl-"), "{html}");
    // Nothing was published: the post's address is still nobody's.
    assert_eq!(app.get("/writing/draft-only/").await.status(), 404);
    assert_eq!(
        app.get("/api/content/posts/nothing/preview").await.status(),
        404
    );
}

/// Runs `portfolio posts <args>` on the app's database: its success, stdout and stderr.
fn posts_command(app: &TestApp, args: &[&str]) -> (bool, String, String) {
    let output = std::process::Command::new(crate::helpers::binary())
        .arg("posts")
        .args(args)
        .env("PORTFOLIO_DATABASE_URL", &app.database_url)
        .output()
        .expect("the command runs");
    (
        output.status.success(),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

fn fixtures(name: &str) -> String {
    format!("{}/tests/fixtures/posts/{name}", env!("CARGO_MANIFEST_DIR"))
}

#[tokio::test]
async fn hugos_and_astros_folders_are_imported_and_exported_and_a_bad_file_imports_nothing() {
    let app = spawn_app().await;
    app.signed_in().await;
    // A folder with a broken front matter and raw HTML: each named by file and line, nothing in.
    let (ok, _, stderr) = posts_command(&app, &["import", &fixtures("bad")]);
    assert!(!ok);
    assert!(
        stderr.contains("broken.md:3: the front matter is not YAML")
            || stderr.contains("broken.md:4: the front matter is not YAML"),
        "{stderr}"
    );
    assert!(
        stderr.contains("script.md:8: HTML is not taken"),
        "{stderr}"
    );
    assert!(stderr.contains("nothing was imported"), "{stderr}");
    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    assert_eq!(list["posts"], json!([]));

    // Hugo's: a post and a page bundle, published at their dates; the section's list is none.
    let (ok, stdout, stderr) = posts_command(&app, &["import", &fixtures("hugo")]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("Imported 2 post(s)"), "{stdout}");
    // Astro's: one published (its ogImage said to be left), one draft.
    let (ok, stdout, stderr) = posts_command(&app, &["import", &fixtures("astro")]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("1 published, 1 draft(s)"), "{stdout}");
    assert!(stdout.contains("not imported: ogImage"), "{stdout}");
    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    let mut ids: Vec<&str> = list["posts"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_str().unwrap())
        .collect();
    ids.sort_unstable();
    assert_eq!(ids, ["bundle", "first-post", "not-yet", "written-in-astro"]);
    let first: Value = app
        .get("/api/content/posts/first-post/draft")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        first["document"]["title"],
        "Fish & <Chips>: a \"first\" post"
    );
    assert_eq!(first["document"]["date"], 1_705_309_200_000_i64);
    assert_eq!(first["document"]["tags"], json!(["rust", "web", "notes"]));
    // The running server follows: the published three in the feed, the draft nowhere.
    let rss = eventually("the imported posts in the feed", || async {
        let response = app.get("/rss.xml").await;
        let text = response.text().await.ok()?;
        text.contains("written-in-astro").then_some(text)
    })
    .await;
    let rss = check_rss(&rss);
    assert_eq!(rss["items"].as_array().unwrap().len(), 3, "{rss}");
    assert_eq!(app.get("/writing/not-yet/").await.status(), 404);

    // Out again: each post a file whose front matter reads back.
    let out = tempfile::tempdir().unwrap();
    let (ok, stdout, stderr) = posts_command(&app, &["export", out.path().to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("Wrote 4 post(s)"), "{stdout}");
    let written = std::fs::read_to_string(out.path().join("first-post.md")).unwrap();
    assert!(written.starts_with("---\ntitle: "), "{written}");
    assert!(written.contains("draft: false"), "{written}");
    let draft = std::fs::read_to_string(out.path().join("not-yet.md")).unwrap();
    assert!(draft.contains("draft: true"), "{draft}");
    // And in once more: the same posts, updated rather than doubled.
    let (ok, stdout, stderr) = posts_command(&app, &["import", out.path().to_str().unwrap()]);
    assert!(ok, "{stderr}");
    assert!(stdout.contains("Imported 4 post(s)"), "{stdout}");
    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    assert_eq!(list["posts"].as_array().unwrap().len(), 4);
}

#[tokio::test]
async fn a_post_unpublished_now_or_later_leaves_every_address_and_comes_back_with_a_publish() {
    let app = spawn_app().await;
    app.signed_in().await;
    let id = app.published_post(TRICKY, BODY).await;
    app.published_post("Another", "Text.").await;
    assert_eq!(app.get("/writing/fish-chips-friday/").await.status(), 200);
    // Scheduled: still served until its moment.
    let later = app.unpublish_post(&id, Some(&from_now(12))).await;
    assert_eq!(later.status(), 200);
    assert_eq!(app.get("/writing/fish-chips-friday/").await.status(), 200);
    eventually("the post's page gone", || async {
        (app.get("/writing/fish-chips-friday/").await.status() == 404).then_some(())
    })
    .await;
    let again = app.unpublish_post(&id, None).await;
    assert_eq!(again.status(), 409, "unpublished already");
    let atom = app.get("/feed.xml").await.text().await.unwrap();
    assert!(!atom.contains("Chips"), "{atom}");
    let index = app.get("/writing/").await.text().await.unwrap();
    assert!(!index.contains("Chips"), "{index}");
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(!sitemap.contains("fish-chips-friday"), "{sitemap}");
    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    let listed = list["posts"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == id.as_str())
        .unwrap()
        .clone();
    assert_eq!(listed["unpublished"], true, "{listed}");
    // A publish of its draft brings it back at the same address; a second post goes at once.
    let back = app
        .post_json(&format!("/api/content/posts/{id}/publish"), &json!({}))
        .await;
    assert_eq!(back.status(), 200, "{}", back.text().await.unwrap());
    assert_eq!(app.get("/writing/fish-chips-friday/").await.status(), 200);
    let now = app
        .post_json("/api/content/posts/another/unpublish", &json!({}))
        .await;
    assert_eq!(now.status(), 200);
    assert_eq!(app.get("/writing/another/").await.status(), 404);
    assert_eq!(
        app.post_json("/api/content/posts/nothing/unpublish", &json!({}))
            .await
            .status(),
        404
    );
}

#[tokio::test]
async fn a_new_publish_or_a_cancel_replaces_what_was_scheduled() {
    let app = spawn_app().await;
    app.signed_in().await;
    // Scheduled an hour ahead, then published now: the list has nothing to come, and the date is
    // now's, not the scheduled moment.
    let id = app
        .scheduled_post(TRICKY, BODY, Some(&from_now(3600)))
        .await;
    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    assert!(list["posts"][0]["scheduledAt"].is_i64(), "{list}");
    assert!(list["timeZone"].is_string(), "{list}");
    let now = app
        .post_json(&format!("/api/content/posts/{id}/publish"), &json!({}))
        .await;
    assert_eq!(now.status(), 200);
    let list: Value = app.get("/api/content/posts").await.json().await.unwrap();
    assert!(list["posts"][0]["scheduledAt"].is_null(), "{list}");
    let date = list["posts"][0]["date"].as_i64().unwrap();
    assert!(
        date <= portfolio::clock::now_ms(),
        "dated {date}, in the future"
    );
    assert_eq!(app.get("/writing/fish-chips-friday/").await.status(), 200);
    // An unpublishing scheduled, then cancelled: the post stays.
    let later = app.unpublish_post(&id, Some(&from_now(10))).await;
    assert_eq!(later.status(), 200);
    let cancel = app
        .send(
            reqwest::Method::DELETE,
            &format!("/api/content/posts/{id}/schedule"),
            None,
        )
        .await;
    assert_eq!(cancel.status(), 204);
    let again = app
        .send(
            reqwest::Method::DELETE,
            &format!("/api/content/posts/{id}/schedule"),
            None,
        )
        .await;
    assert_eq!(again.status(), 404, "nothing left to cancel");
    tokio::time::sleep(std::time::Duration::from_secs(12)).await;
    assert_eq!(app.get("/writing/fish-chips-friday/").await.status(), 200);
    // PUT answers what GET reads: the former slugs with the published one.
    let draft: Value = app
        .get(&format!("/api/content/posts/{id}/draft"))
        .await
        .json()
        .await
        .unwrap();
    let mut document = draft["document"].clone();
    document["slug"] = json!("moved");
    let saved: Value = app
        .put_post(&id, &document, &draft["revision"].to_string())
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(
        saved["document"]["formerSlugs"],
        json!(["fish-chips-friday"])
    );
}
