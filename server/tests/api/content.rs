//! The page's content as data: the published document, the draft and its revisions, versions.

use std::io::Read;

use portfolio::store::content::EntryKey;
use reqwest::Method;
use serde_json::Value;

use crate::helpers::{content_command, spawn_app, PATIENCE};

fn default_document() -> Value {
    serde_json::from_str(portfolio::content::DEFAULT_DOCUMENT_JSON).expect("the default document")
}

impl crate::helpers::TestApp {
    async fn put_draft(&self, document: &Value, if_match: Option<&str>) -> reqwest::Response {
        let mut request = self
            .client
            .put(self.url("/api/content/draft"))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .json(document);
        if let Some(revision) = if_match {
            request = request.header("If-Match", revision);
        }
        request.send().await.expect("the request is sent")
    }
}

#[tokio::test]
async fn a_stale_save_is_409_and_a_save_without_if_match_is_428() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut document = default_document();

    let draft = app.get("/api/content/draft").await;
    assert_eq!(draft.status(), 200);
    assert_eq!(draft.headers()["etag"], "\"0\"");

    assert_eq!(app.put_draft(&document, None).await.status(), 428);
    document["profile"]["name"] = "First Tab".into();
    let saved = app.put_draft(&document, Some("\"0\"")).await;
    assert_eq!(saved.status(), 200);
    assert_eq!(saved.headers()["etag"], "\"1\"");

    // A second tab still holds revision 0.
    document["profile"]["name"] = "Second Tab".into();
    let stale = app.put_draft(&document, Some("\"0\"")).await;
    assert_eq!(stale.status(), 409);
    let body: Value = stale.json().await.unwrap();
    assert_eq!(body["error"]["code"], "conflict");
    let draft: Value = app.get("/api/content/draft").await.json().await.unwrap();
    assert_eq!(draft["revision"], 1);
    assert_eq!(draft["document"]["profile"]["name"], "First Tab");

    // If-Match compares strongly (RFC 9110): a weak tag never matches, even the current one.
    let weak = app.put_draft(&document, Some("W/\"1\"")).await;
    assert_eq!(weak.status(), 412);
    let body: Value = weak.json().await.unwrap();
    assert_eq!(body["error"]["code"], "precondition_failed");
    let draft: Value = app.get("/api/content/draft").await.json().await.unwrap();
    assert_eq!(draft["revision"], 1, "nothing was saved");
    app.shutdown().await;
}

#[tokio::test]
async fn a_published_draft_is_served_and_revert_restores_a_version_exactly() {
    let app = spawn_app().await;
    let before: Value = app.get("/api/content").await.json().await.unwrap();
    assert_eq!(before["version"], 0);
    assert_eq!(before["document"], default_document());

    app.signed_in().await;
    let mut document = default_document();
    document["projects"][0]["title"] = "Published Title".into();
    assert_eq!(app.put_draft(&document, Some("0")).await.status(), 200);
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    let after = app.get("/api/content").await;
    assert!(after.headers().contains_key("etag"));
    let after: Value = after.json().await.unwrap();
    assert_eq!(after["version"], 1);
    assert_eq!(after["document"], document);

    document["projects"][0]["title"] = "Later Title".into();
    assert_eq!(app.put_draft(&document, Some("1")).await.status(), 200);
    app.send(Method::POST, "/api/content/publish", None).await;
    let reverted = app
        .send(Method::POST, "/api/content/versions/1/revert", None)
        .await;
    assert_eq!(reverted.status(), 200);
    let now: Value = app.get("/api/content").await.json().await.unwrap();
    assert_eq!(now["version"], 3);
    assert_eq!(now["document"]["projects"][0]["title"], "Published Title");
    let draft: Value = app.get("/api/content/draft").await.json().await.unwrap();
    assert_eq!(draft["document"], now["document"]);
    app.shutdown().await;
}

#[tokio::test]
async fn only_the_last_20_versions_are_kept() {
    let app = spawn_app().await;
    app.signed_in().await;
    for _ in 0..22 {
        assert_eq!(
            app.send(Method::POST, "/api/content/publish", None)
                .await
                .status(),
            200
        );
    }
    let list: Value = app.get("/api/content/versions").await.json().await.unwrap();
    let numbers: Vec<i64> = list["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, (3..=22).rev().collect::<Vec<_>>());
    app.shutdown().await;
}

#[tokio::test]
async fn an_invalid_document_names_the_field_by_its_path() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut document = default_document();
    document["projects"][2]["title"] = "x".repeat(500).into();
    document["social"][0]["url"] = "javascript:alert(1)".into();
    let answer = app.put_draft(&document, Some("0")).await;
    assert_eq!(answer.status(), 422);
    let body: Value = answer.json().await.unwrap();
    let fields = &body["error"]["fields"];
    assert!(fields["projects[2].title"].is_string(), "{body}");
    assert!(fields["social[0].url"].is_string(), "{body}");
    app.shutdown().await;
}

#[tokio::test]
async fn anonymous_requests_to_the_owners_routes_are_401() {
    let app = spawn_app().await;
    assert_eq!(app.get("/api/content").await.status(), 200);
    for (method, path) in [
        (Method::GET, "/api/content/draft"),
        (Method::GET, "/api/content/versions"),
        (Method::POST, "/api/content/publish"),
        (Method::POST, "/api/content/versions/1/revert"),
        (Method::GET, "/api/content/draft/preview"),
    ] {
        let answer = app.send(method.clone(), path, None).await;
        assert_eq!(answer.status(), 401, "{method} {path}");
    }
    assert_eq!(
        app.put_draft(&default_document(), Some("0")).await.status(),
        401
    );
    app.shutdown().await;
}

#[tokio::test]
async fn a_document_imported_and_published_by_the_command_is_served_within_5_seconds() {
    let app = spawn_app().await;
    let mut document = default_document();
    document["profile"]["name"] = "Imported Owner".into();
    let file = app.data_path().join("content.json");
    std::fs::write(&file, document.to_string()).unwrap();
    let status = std::process::Command::new(crate::helpers::binary())
        .args(["content", "import", file.to_str().unwrap(), "--publish"])
        .env("PORTFOLIO_DATABASE_URL", &app.database_url)
        .status()
        .expect("the command runs");
    assert!(status.success());
    let deadline = std::time::Instant::now() + PATIENCE;
    loop {
        let served: Value = app.get("/api/content").await.json().await.unwrap();
        if served["document"]["profile"]["name"] == "Imported Owner" {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not served within {PATIENCE:?}"
        );
        tokio::time::sleep(std::time::Duration::from_millis(100)).await;
    }
    app.shutdown().await;
}

/// The document with another owner: the name, and the photo's description that carries it.
fn renamed(name: &str) -> Value {
    let mut document = default_document();
    document["profile"]["name"] = name.into();
    let photo = document["profile"]["photo"].clone();
    for item in document["media"].as_array_mut().unwrap() {
        if item["id"] == photo {
            item["alt"] = format!("Illustrated portrait of {name}").into();
        }
    }
    document
}

/// A page without its JSON-LD's `dateModified` (a page never published has none).
/// The page as it was before its document was published: without the date it was published in
/// the JSON-LD, and with the copyright's first year alone (it runs to the year of the publish).
fn as_before_the_publish(html: &str) -> String {
    use chrono::Datelike;
    let html = html.replace(&format!("2025–{}", portfolio::clock::now().year()), "2025");
    let Some(start) = html.find(",\"dateModified\":\"") else {
        return html;
    };
    let value = start + ",\"dateModified\":\"".len();
    let end = value + html[value..].find('"').expect("the date's end") + 1;
    format!("{}{}", &html[..start], &html[end..])
}

/// The page as it is without case studies: its cards without their links.
fn without_case_study_links(html: &str) -> String {
    regex::Regex::new(r#"<a href="/projects/[^"]*"[^>]*>[^<]*</a>"#)
        .unwrap()
        .replace_all(html, "")
        .replace(
            "text-gray-400 line-clamp-2\"",
            "text-gray-400 line-clamp-3\"",
        )
}

/// The page's markup and its JSON data: what the render and the data block put in (the head is
/// the build's until the server writes it).
fn rendered_part(html: &str) -> &str {
    let start = html.find("<div id=\"root\">").expect("a root element");
    let end = html
        .find("<script type=\"application/ld+json\">")
        .unwrap_or(html.len());
    &html[start..end]
}

#[tokio::test]
async fn a_published_name_is_on_the_served_page_when_publish_returns() {
    let app = spawn_app().await;
    let old_name = default_document()["profile"]["name"]
        .as_str()
        .unwrap()
        .to_owned();
    let before = app.get("/").await;
    assert_eq!(before.status(), 200);
    let old_etag = before.headers()["etag"].clone();
    let html = before.text().await.unwrap();
    assert!(rendered_part(&html).contains(&format!(
        "<bdi class=\"p-name text-blue-500\">{old_name}</bdi>"
    )));

    app.signed_in().await;
    assert_eq!(
        app.put_draft(&renamed("Robin Quill"), Some("0"))
            .await
            .status(),
        200
    );
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);

    // No wait: publish answers once the new page is served.
    let after = app.get("/").await;
    assert_eq!(after.status(), 200);
    let new_etag = after.headers()["etag"].clone();
    assert_ne!(new_etag, old_etag);
    let html = after.text().await.unwrap();
    let part = rendered_part(&html);
    assert!(part.contains("<bdi class=\"p-name text-blue-500\">Robin Quill</bdi>"));
    assert!(
        !part.contains(&old_name),
        "the old name is still on the page"
    );
    // The head and the JSON-LD are written from the document too.
    assert!(
        !html.contains(&old_name),
        "the old name is still in the head"
    );
    assert!(html.contains("<title>Robin Quill · "));
    assert!(html.contains("\"@type\":\"Person\",\"name\":\"Robin Quill\""));
    // The document for hydration: the page names its data file, served beside it, revalidated.
    assert!(html.contains(
        "<script type=\"application/json\" id=\"page-data\" data-src=\"/page-data.json\"></script>"
    ));
    let data = app.get("/page-data.json").await;
    assert_eq!(data.status(), 200);
    assert_eq!(data.headers()["content-type"], "application/json");
    assert_eq!(data.headers()["cache-control"], "no-cache");
    let data_etag = data.headers()["etag"].to_str().unwrap().to_owned();
    let mut embedded: Value = data.json().await.unwrap();
    // The server writes the year of the publish into the page's document, for the copyright.
    let until = embedded["document"]["footer"]
        .as_object_mut()
        .unwrap()
        .remove("until");
    assert_eq!(
        until,
        Some(Value::from(
            chrono::Datelike::year(&portfolio::clock::now())
        ))
    );
    assert_eq!(embedded["document"], renamed("Robin Quill"));
    assert!(embedded["locale"].is_null());
    let again = app
        .get_with("/page-data.json", &[("If-None-Match", &data_etag)])
        .await;
    assert_eq!(again.status(), 304);

    // The precompressed variants are the same page, with the same ETag.
    let br = app.get_with("/", &[("Accept-Encoding", "br")]).await;
    assert_eq!(br.headers()["content-encoding"], "br");
    assert_eq!(br.headers()["etag"], new_etag);
    let mut text = String::new();
    brotli::Decompressor::new(&br.bytes().await.unwrap()[..], 4096)
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, html);
    let gzip = app.get_with("/", &[("Accept-Encoding", "gzip")]).await;
    assert_eq!(gzip.headers()["content-encoding"], "gzip");
    let mut text = String::new();
    flate2::read::GzDecoder::new(&gzip.bytes().await.unwrap()[..])
        .read_to_string(&mut text)
        .unwrap();
    assert_eq!(text, html);
    let revalidated = app
        .get_with("/", &[("If-None-Match", new_etag.to_str().unwrap())])
        .await;
    assert_eq!(revalidated.status(), 304);

    // The other pages' shell carries the same document for the router's pages.
    let shell = app.get("/login").await.text().await.unwrap();
    assert!(shell.contains("<div id=\"root\"></div>"));
    assert!(
        shell.contains("<title>Robin Quill · "),
        "the shell's title carries the new name"
    );
    assert!(shell.contains("<meta name=\"robots\" content=\"noindex\" />"));
    assert!(shell.contains("\"name\":\"Robin Quill\""));
    assert!(!shell.contains(&format!("\"name\":\"{old_name}\"")));
    app.shutdown().await;
}

#[tokio::test]
async fn the_draft_preview_is_the_draft_rendered_as_the_page_for_the_owner_only() {
    let app = spawn_app().await;
    app.signed_in().await;
    assert_eq!(
        app.put_draft(&renamed("Draft Owner"), Some("0"))
            .await
            .status(),
        200
    );
    let preview = app.get("/api/content/draft/preview").await;
    assert_eq!(preview.status(), 200);
    let headers = preview.headers().clone();
    assert!(headers["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert_eq!(headers["cache-control"], "no-store");
    assert_eq!(headers["x-frame-options"], "SAMEORIGIN");
    let policy = headers["content-security-policy"].to_str().unwrap();
    assert!(policy.contains("frame-ancestors 'self'"), "{policy}");
    assert!(!policy.contains("unsafe"), "{policy}");
    let html = preview.text().await.unwrap();
    assert!(html.contains("<bdi class=\"p-name text-blue-500\">Draft Owner</bdi>"));
    assert!(
        !html.contains("<script type=\"module\""),
        "the preview runs no script"
    );

    // Visitors still see the published page, which no other page may frame.
    let page = app.get("/").await;
    assert_eq!(page.headers()["x-frame-options"], "DENY");
    let policy = page.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.contains("frame-ancestors 'none'"), "{policy}");
    assert!(!page.text().await.unwrap().contains("Draft Owner"));
    app.shutdown().await;
}

/// The default document with a custom appearance: light, a teal accent that passes the contrast
/// check, and the Projects section hidden.
fn teal_and_light() -> Value {
    let mut document = default_document();
    document["appearance"]["scheme"] = "light".into();
    document["appearance"]["accent"] = "#0f766e".into();
    document["appearance"]["sections"]["projects"] = false.into();
    document
}

/// The accent's `<style>` text for `document`, as the server writes it into the page.
fn accent_css(document: &Value) -> String {
    let appearance: portfolio::content::appearance::Appearance =
        serde_json::from_value(document["appearance"].clone()).unwrap();
    portfolio::content::appearance::accent_style(&appearance).expect("a custom accent's style")
}

/// The sources of one directive of a Content-Security-Policy.
fn directive(policy: &str, name: &str) -> Vec<String> {
    policy
        .split(';')
        .map(str::trim)
        .find_map(|directive| directive.strip_prefix(&format!("{name} ")))
        .unwrap_or_else(|| panic!("{name} in {policy}"))
        .split(' ')
        .map(str::to_owned)
        .collect()
}

fn hash_source(text: &str) -> String {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};
    format!(
        "'sha256-{}'",
        base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text))
    )
}

#[tokio::test]
async fn an_accent_white_text_cannot_be_read_on_is_422_with_its_ratio_and_nothing_is_saved() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut document = default_document();
    document["appearance"]["accent"] = "#ffcc00".into();
    let answer = app.put_draft(&document, Some("0")).await;
    assert_eq!(answer.status(), 422);
    let body: Value = answer.json().await.unwrap();
    let fields = body["error"]["fields"].as_object().unwrap();
    assert_eq!(fields.len(), 1, "{body}");
    let problem = fields["appearance.accent"].as_str().unwrap();
    assert!(
        problem.contains(
            "white text on the accent #ffcc00 has a contrast of 1.5:1; it needs at least 4.5:1"
        ),
        "{problem}"
    );
    // The nearest shade that passes ends it, for the editor to offer in one click.
    assert!(
        problem.ends_with("; the nearest shade that passes is #917300"),
        "{problem}"
    );
    // Nothing was saved: the draft is still the published document, at revision 0.
    let draft: Value = app.get("/api/content/draft").await.json().await.unwrap();
    assert_eq!(draft["revision"], 0);
    assert_eq!(draft["document"], default_document());
    let drafts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM content_entry_drafts")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(drafts, 0);
    app.shutdown().await;
}

#[tokio::test]
async fn a_published_appearance_is_on_the_page_and_its_style_in_the_pages_policy() {
    let app = spawn_app().await;
    let before = app.get("/").await;
    let old_policy = before.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let html = before.text().await.unwrap();
    assert!(html.contains("<html lang=\"en\" class=\"h-card\">"));
    assert!(html.contains("<meta name=\"color-scheme\" content=\"dark\" />"));

    app.signed_in().await;
    let document = teal_and_light();
    assert_eq!(app.put_draft(&document, Some("0")).await.status(), 200);
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    let served: Value = app.get("/api/content").await.json().await.unwrap();
    assert_eq!(served["document"], document);
    assert_eq!(
        served["document"]["appearance"]["sections"]["projects"],
        false
    );

    let css = accent_css(&document);
    assert!(css.starts_with(":root{--color-blue-50:#"), "{css}");
    assert!(css.contains(";--color-blue-600:#0f766e;"), "{css}");
    for path in ["/", "/api/content/draft/preview"] {
        let page = app.get(path).await;
        assert_eq!(page.status(), 200, "{path}");
        let policy = page.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        let html = page.text().await.unwrap();
        assert!(
            html.contains("<html lang=\"en\" data-scheme=\"light\" class=\"h-card\">"),
            "{path}"
        );
        assert!(
            html.contains("<meta name=\"color-scheme\" content=\"light\" />"),
            "{path}"
        );
        assert!(!html.contains("content=\"dark\""), "{path}");
        assert!(
            html.contains(&format!("\n    <style>{css}</style>\n  </head>")),
            "{path}: the accent's style, last in the head"
        );
        // The policy served with the page allows the new style by its hash, with the build's.
        let style_src = directive(&policy, "style-src");
        assert!(style_src.contains(&hash_source(&css)), "{path}: {policy}");
        assert_eq!(
            style_src.len(),
            3,
            "{path}: 'self' and two styles: {policy}"
        );
        assert!(!policy.contains("unsafe"), "{policy}");
    }
    // The style allowed before the publish is the build's, still allowed: the policy grew by one.
    let new_policy = app.get("/").await.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    for old in directive(&old_policy, "style-src") {
        assert!(directive(&new_policy, "style-src").contains(&old), "{old}");
    }
    // The app's own pages keep the build's look.
    let shell = app.get("/login").await.text().await.unwrap();
    assert!(shell.contains("<meta name=\"color-scheme\" content=\"dark\" />"));
    assert!(!shell.contains("data-scheme=\"light\"") && !shell.contains(&css));
    app.shutdown().await;
}

#[tokio::test]
async fn a_document_stored_without_appearance_is_read_back_with_todays_look() {
    let app = spawn_app().await;
    app.signed_in().await;
    let page_before = app.get("/").await.text().await.unwrap();
    let mut old = default_document();
    old.as_object_mut().unwrap().remove("appearance");
    assert_eq!(app.put_draft(&old, Some("0")).await.status(), 200);
    let draft: Value = app.get("/api/content/draft").await.json().await.unwrap();
    assert_eq!(
        draft["document"],
        default_document(),
        "the default appearance"
    );
    assert_eq!(
        draft["document"]["appearance"],
        serde_json::json!({
            "scheme": "dark",
            "accent": "#155dfc",
            "sections": {"about": true, "skills": true, "projects": true, "experience": true, "contact": true},
            "available": true,
        })
    );
    assert_eq!(
        app.send(Method::POST, "/api/content/publish", None)
            .await
            .status(),
        200
    );
    let served: Value = app.get("/api/content").await.json().await.unwrap();
    assert_eq!(served["version"], 1);
    assert_eq!(served["document"], default_document());
    // The same page, but that it now says when it was published (and the copyright that year).
    let page_after = app.get("/").await.text().await.unwrap();
    assert!(page_after.contains(",\"dateModified\":\""));
    // The placeholder's case studies went with the default document, and the cards' links to them.
    assert!(page_before.contains("href=\"/projects/portfolio/\""));
    assert!(!page_after.contains("href=\"/projects/"));
    assert_eq!(
        as_before_the_publish(&page_after),
        without_case_study_links(&page_before)
    );

    // A version stored behind the API's back by an older release, read at start-up.
    let json = serde_json::to_string(&old).unwrap();
    app.db
        .publish_content(EntryKey::PAGE, &json, 1_700_000_000_000, 20, true)
        .await
        .unwrap();
    let again = crate::helpers::Spawn::new()
        .database(app.database_url.clone())
        .await;
    let served: Value = again.get("/api/content").await.json().await.unwrap();
    assert_eq!(served["version"], 2);
    assert_eq!(served["document"], default_document());
    again.shutdown().await;
    app.shutdown().await;
}

#[tokio::test]
async fn export_and_import_keep_the_appearance_and_import_refuses_an_unreadable_accent() {
    let app = spawn_app().await;
    let dir = app.data_path();
    let path = |name: &str| dir.join(name).to_str().unwrap().to_owned();

    // Nothing published: the default document, its appearance written out.
    let output = content_command(&app, &["export", "--output", &path("before.json")]);
    assert!(output.status.success(), "{output:?}");
    let exported: Value =
        serde_json::from_str(&std::fs::read_to_string(path("before.json")).unwrap()).unwrap();
    assert_eq!(exported, default_document());

    let document = teal_and_light();
    std::fs::write(path("teal.json"), document.to_string()).unwrap();
    let output = content_command(&app, &["import", &path("teal.json"), "--publish"]);
    assert!(output.status.success(), "{output:?}");
    let output = content_command(&app, &["export", "--output", &path("after.json")]);
    assert!(output.status.success(), "{output:?}");
    let exported: Value =
        serde_json::from_str(&std::fs::read_to_string(path("after.json")).unwrap()).unwrap();
    assert_eq!(exported, document);
    assert_eq!(exported["appearance"]["scheme"], "light");
    // And the exported file imports as it is.
    let output = content_command(&app, &["import", &path("after.json")]);
    assert!(output.status.success(), "{output:?}");

    let mut unreadable = document.clone();
    unreadable["appearance"]["accent"] = "#FFCC00".into();
    std::fs::write(path("yellow.json"), unreadable.to_string()).unwrap();
    let output = content_command(&app, &["import", &path("yellow.json"), "--publish"]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("appearance.accent:"), "{stderr}");
    assert!(stderr.contains("has a contrast of 1.5:1"), "{stderr}");
    assert!(stderr.contains("nothing was imported"), "{stderr}");
    let versions: Value = {
        app.signed_in().await;
        app.get("/api/content/versions").await.json().await.unwrap()
    };
    assert_eq!(versions["versions"].as_array().unwrap().len(), 1);
    app.shutdown().await;
}
