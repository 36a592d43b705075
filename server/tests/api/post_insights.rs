//! Posts counted like the page: the insights' beacon counts a view of a post's page per post,
//! listed by its title and address, and an application link's readers who read a post count in
//! its figures.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{spawn_app, TestApp, PHONE_UA};
use crate::languages::{default_document, language, save_draft};

/// The posts the tests publish, by id (made from their titles).
const HELLO: &str = "hello-world";
const HALLO: &str = "hallo-welt";
/// A post begun but never published.
const DRAFT: &str = "still-a-draft";

fn post_view(post: &str) -> Value {
    json!({ "kind": "view", "post": post })
}

impl TestApp {
    /// Begins a post titled `title` (in `language`, else the page's) and publishes it as begun;
    /// its id.
    async fn begun_and_published(&self, title: &str, language: Option<&str>) -> String {
        let id = self.begun(title, language).await;
        let published = self
            .post_json(&format!("/api/content/posts/{id}/publish"), &json!({}))
            .await;
        assert_eq!(published.status(), 200, "{:?}", published.text().await);
        id
    }

    /// Begins a post titled `title`; its id.
    async fn begun(&self, title: &str, language: Option<&str>) -> String {
        let body = match language {
            Some(language) => json!({ "title": title, "language": language }),
            None => json!({ "title": title }),
        };
        let created = self.post_json("/api/content/posts", &body).await;
        assert_eq!(created.status(), 201, "{:?}", created.text().await);
        let created: Value = created.json().await.unwrap();
        created["document"]["id"].as_str().unwrap().to_owned()
    }

    /// Publishes the page with German added and published.
    async fn publish_german(&self) {
        let mut document = default_document();
        document["languages"] = json!([language("de", "DE", "Entwicklerin", true)]);
        let saved = save_draft(self, &document).await;
        assert_eq!(saved.status(), 200, "{:?}", saved.text().await);
        let published = self.send(Method::POST, "/api/content/publish", None).await;
        assert_eq!(published.status(), 200);
    }
}

#[tokio::test]
async fn a_post_view_is_counted_as_a_page_view_and_listed_by_its_title_and_address() {
    let app = spawn_app().await;
    app.signed_in().await;
    app.publish_german().await;
    assert_eq!(app.begun_and_published("Hello, World!", None).await, HELLO);
    assert_eq!(
        app.begun_and_published("Hallo Welt", Some("de")).await,
        HALLO
    );
    assert_eq!(app.begun("Still a draft", None).await, DRAFT);
    assert_eq!(app.figures(7).await["posts"], json!([]));
    // The page names its post as the beacon reads it.
    let page = app.get("/de/writing/hallo-welt/").await;
    assert_eq!(page.status(), 200);
    assert!(page
        .text()
        .await
        .unwrap()
        .contains(&format!("data-post=\"{HALLO}\"")));

    for body in [
        post_view(HELLO),
        post_view(HELLO),
        post_view(HALLO),
        // A draft, and no post at all: page views only.
        post_view(DRAFT),
        post_view("no-such-post"),
        json!({ "kind": "view" }),
    ] {
        assert_eq!(app.beacon(&body).await.status(), 204, "{body}");
    }
    let phone = [("User-Agent", PHONE_UA)];
    let response = app.beacon_with(&post_view(HELLO), &phone).await;
    assert_eq!(response.status(), 204);

    let figures = app.figures(7).await;
    assert_eq!(
        figures["posts"],
        json!([
            { "post": HELLO, "title": "Hello, World!", "path": "/writing/hello-world/", "count": 3 },
            { "post": HALLO, "title": "Hallo Welt", "path": "/de/writing/hallo-welt/", "count": 1 },
        ])
    );
    assert_eq!(figures["caseStudies"], json!([]));
    let today = figures["days"].as_array().unwrap().last().unwrap();
    assert_eq!(today["pageViews"], 7);
    // The same visitor on the page and on a post is one visitor.
    assert_eq!(today["visitors"], 2);

    // Unpublished: its views stay, without a title or an address, and new ones are page views.
    let gone = app
        .post_json(&format!("/api/content/posts/{HALLO}/unpublish"), &json!({}))
        .await;
    assert_eq!(gone.status(), 200);
    assert_eq!(app.beacon(&post_view(HALLO)).await.status(), 204);
    let figures = app.figures(7).await;
    assert_eq!(
        figures["posts"][1],
        json!({ "post": HALLO, "title": null, "path": null, "count": 1 })
    );
    let today = figures["days"].as_array().unwrap().last().unwrap();
    assert_eq!(today["pageViews"], 8);
    app.shutdown().await;
}

#[tokio::test]
async fn a_malformed_post_is_refused_with_the_field_named() {
    let app = spawn_app().await;
    for body in [
        post_view("Hello"),
        post_view("writing/hello"),
        post_view("-hello"),
        post_view(&"a".repeat(42)),
        post_view(""),
        json!({ "kind": "view", "post": 7 }),
        json!({ "kind": "click", "target": "social:github", "post": HELLO }),
    ] {
        let response = app.beacon(&body).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["error"]["code"], "validation_failed");
        assert!(
            error["error"]["fields"]["post"].is_string(),
            "{body}: {error}"
        );
    }
    for (body, field) in [
        (json!({ "slug": "acme-x", "kind": "post" }), "post"),
        (
            json!({ "slug": "acme-x", "kind": "post", "post": "Not An Id" }),
            "post",
        ),
        (
            json!({ "slug": "acme-x", "kind": "post", "post": &"a".repeat(42) }),
            "post",
        ),
        (
            json!({ "slug": "acme-x", "kind": "open", "post": HELLO }),
            "post",
        ),
        (
            json!({ "slug": "acme-x", "kind": "caseStudy", "caseStudy": "portfolio",
                    "post": HELLO }),
            "post",
        ),
        (
            json!({ "slug": "acme-x", "kind": "post", "post": HELLO, "caseStudy": "portfolio" }),
            "caseStudy",
        ),
        (
            json!({ "slug": "acme-x", "kind": "post", "post": HELLO, "section": "projects" }),
            "section",
        ),
    ] {
        let response = app.link_visit(&body).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        assert!(
            error["error"]["fields"][field].is_string(),
            "{body}: {error}"
        );
    }
    app.shutdown().await;
}

#[tokio::test]
async fn a_links_reader_who_reads_a_post_counts_in_its_figures_once_a_day() {
    let app = spawn_app().await;
    app.signed_in().await;
    app.begun_and_published("Hello, World!", None).await;
    let other = app.begun_and_published("Second thoughts", None).await;
    app.begun("Still a draft", None).await;
    let link = app
        .create_link(&json!({ "company": "Acme", "role": "Frontend Developer" }))
        .await;
    assert_eq!(link["totals"]["posts"], json!([]));
    let (id, slug) = (
        link["id"].as_i64().unwrap(),
        link["slug"].as_str().unwrap().to_owned(),
    );
    let read = |post: &str| json!({ "slug": slug, "kind": "post", "post": post });
    let open = json!({ "slug": slug, "kind": "open" });
    assert_eq!(app.link_visit(&open).await.status(), 204);
    assert_eq!(app.link(id).await["link"]["state"], "opened");
    // Read twice by one visitor, once by another; a post that is not published counts nothing.
    for body in [read(HELLO), read(HELLO), read(DRAFT), read("no-such-post")] {
        assert_eq!(app.link_visit(&body).await.status(), 204, "{body}");
    }
    let phone = [("User-Agent", PHONE_UA)];
    assert_eq!(app.link_visit_with(&open, &phone).await.status(), 204);
    let response = app.link_visit_with(&read(HELLO), &phone).await;
    assert_eq!(response.status(), 204);
    assert_eq!(app.link_visit(&read(&other)).await.status(), 204);

    let detail = app.link(id).await;
    let expected = json!([
        { "post": HELLO, "title": "Hello, World!", "path": "/writing/hello-world/", "count": 2 },
        { "post": "second-thoughts", "title": "Second thoughts",
          "path": "/writing/second-thoughts/", "count": 1 },
    ]);
    assert_eq!(detail["link"]["totals"]["posts"], expected);
    assert_eq!(detail["link"]["totals"]["caseStudies"], json!([]));
    assert_eq!(detail["link"]["state"], "engaged");
    let days = detail["days"].as_array().unwrap();
    assert_eq!(days.len(), 1);
    assert_eq!(days[0]["posts"], expected);
    // Reading a post is no new open, and no section of the page.
    assert_eq!(days[0]["opens"], 2);
    assert_eq!(days[0]["sections"], json!({}));

    let list: Value = app.get("/api/links").await.json().await.unwrap();
    assert_eq!(list["links"][0]["totals"]["posts"], expected);
    let csv = app.get("/api/links.csv").await.text().await.unwrap();
    assert!(
        csv.contains(",,hello-world: 2; second-thoughts: 1,"),
        "{csv}"
    );
    app.shutdown().await;
}
