//! Case studies as entries of the content store: drafted, saved, published, listed and reverted
//! through the same code path as the page's document, their slugs kept and their Markdown
//! checked.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{eventually, from_now, spawn_app, url_escape, TestApp};

fn projects() -> Vec<Value> {
    let page: Value = serde_json::from_str(portfolio::content::DEFAULT_DOCUMENT_JSON).unwrap();
    page["projects"].as_array().unwrap().clone()
}

/// A case study of `project` with every text written.
fn written(project: &str, slug: &str) -> Value {
    json!({
        "project": project,
        "slug": slug,
        "summary": "A checkout that stopped losing carts.",
        "problem": "Carts were *lost* at the payment step, one in five.",
        "role": "I led the rewrite, from the [design](https://example.com/design) to the launch.",
        "team": "",
        "constraints": "- six weeks\n- no downtime",
        "decisions": [{ "title": "One service", "why": "Fewer hops: `checkout` talks to `payments` directly." }],
        "outcome": "Sales went up.",
        "figures": [{ "value": 38.5, "unit": "%", "label": "fewer abandoned carts" }],
        "gallery": [],
        "links": [{ "kind": "code", "label": "Source", "url": "https://example.com/code" }],
        "technologies": ["Rust", "React"],
        "media": []
    })
}

impl TestApp {
    async fn put_case_study(
        &self,
        project: &str,
        document: &Value,
        if_match: &str,
    ) -> reqwest::Response {
        self.client
            .put(self.url(&format!("/api/content/case-studies/{project}/draft")))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .header("If-Match", if_match)
            .json(document)
            .send()
            .await
            .expect("the request is sent")
    }

    async fn json_of(&self, path: &str) -> Value {
        let response = self.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        response.json().await.unwrap()
    }
}

#[tokio::test]
async fn a_case_study_is_begun_saved_published_and_reverted_with_its_former_addresses() {
    let app = spawn_app().await;
    app.signed_in().await;
    let project = projects()[0].clone();
    let id = project["id"].as_str().unwrap();
    let list = app.json_of("/api/content/case-studies").await;
    // None begun: the list has the placeholder's examples, each of a placeholder project.
    let examples: Vec<Value> = portfolio::content::case_study::default_case_studies()
        .iter()
        .map(|s| json!({ "project": s.project, "revision": 0, "version": 0, "publishedAt": null, "placeholder": true }))
        .collect();
    assert_eq!(examples.len(), 2);
    assert_eq!(list["caseStudies"], json!(examples));
    // A fresh server serves the placeholder's case study of this project, as version 0.
    let placeholder: Value = TestApp::other_client()
        .get(app.url(&format!("/api/content/case-studies/{id}")))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    assert_eq!(placeholder["version"], 0);
    assert!(placeholder["publishedAt"].is_null());
    assert_eq!(placeholder["document"]["project"], id);

    // Its draft begins from that placeholder, which the editor then shows.
    let from_placeholder = app
        .json_of(&format!("/api/content/case-studies/{id}/draft"))
        .await;
    assert_eq!(from_placeholder["revision"], 0);
    assert_eq!(from_placeholder["document"], placeholder["document"]);
    let slug = portfolio::content::case_study::slug_from_title(project["title"].as_str().unwrap());

    // A project with none begins blank: revision 0, its slug made from the project's title, every
    // text still to write.
    let other = projects()[2].clone();
    assert!(
        !portfolio::content::case_study::default_case_studies()
            .iter()
            .any(|s| s.project == other["id"].as_str().unwrap()),
        "the third placeholder project has no case study"
    );
    let other_id = other["id"].as_str().unwrap();
    let begun = app
        .json_of(&format!("/api/content/case-studies/{other_id}/draft"))
        .await;
    assert_eq!(begun["revision"], 0);
    let other_slug =
        portfolio::content::case_study::slug_from_title(other["title"].as_str().unwrap());
    assert_eq!(begun["document"]["slug"], other_slug.as_str());
    assert_eq!(begun["document"]["project"], other_id);
    // As begun it cannot be saved: each text to write is named.
    let response = app.put_case_study(other_id, &begun["document"], "0").await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    for field in ["summary", "problem", "role", "outcome"] {
        assert!(
            body["error"]["fields"][field].is_string(),
            "{field} in {body}"
        );
    }

    let response = app.put_case_study(id, &written(id, &slug), "0").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["etag"], "\"1\"");
    // A save from a revision the draft has left is refused, and nothing is overwritten.
    let stale = app.put_case_study(id, &written(id, "elsewhere"), "0").await;
    assert_eq!(stale.status(), 409);
    let published = app
        .send(
            Method::POST,
            &format!("/api/content/case-studies/{id}/publish"),
            None,
        )
        .await;
    assert_eq!(published.status(), 200);
    let published: Value = published.json().await.unwrap();
    assert_eq!(published["version"], 1);
    let list = app.json_of("/api/content/case-studies").await;
    assert_eq!(list["caseStudies"][0]["project"], id);
    assert_eq!(list["caseStudies"][0]["revision"], 1);
    assert_eq!(list["caseStudies"][0]["version"], 1);
    assert!(list["caseStudies"][0]["publishedAt"].is_i64());
    assert_eq!(list["caseStudies"][0]["placeholder"], false);
    // Published, it is public: anyone reads it, as the page does.
    let visitor = TestApp::other_client();
    let public = visitor
        .get(app.url(&format!("/api/content/case-studies/{id}")))
        .send()
        .await
        .unwrap();
    assert_eq!(public.status(), 200, "{:?}", public.text().await);
    let public: Value = public.json().await.unwrap();
    assert_eq!(public["version"], 1);
    assert_eq!(public["document"]["slug"], slug.as_str());
    // The page's document is an entry of its own: publishing a case study leaves it alone.
    assert_eq!(app.json_of("/api/content").await["version"], 0);

    // A new slug: the one it had is kept, for its old address to keep answering.
    let response = app
        .put_case_study(id, &written(id, "checkout-rewrite"), "1")
        .await;
    assert_eq!(response.status(), 200);
    let sent = app
        .send(
            Method::POST,
            &format!("/api/content/case-studies/{id}/publish"),
            None,
        )
        .await;
    assert_eq!(sent.status(), 200);
    let draft = app
        .json_of(&format!("/api/content/case-studies/{id}/draft"))
        .await;
    assert_eq!(draft["revision"], 2);
    let versions = app
        .json_of(&format!("/api/content/case-studies/{id}/versions"))
        .await;
    let numbers: Vec<i64> = versions["versions"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["version"].as_i64().unwrap())
        .collect();
    assert_eq!(numbers, [2, 1]);
    // Back to version 1: published again as version 3 and made the draft, the slug it leaves kept.
    let reverted = app
        .send(
            Method::POST,
            &format!("/api/content/case-studies/{id}/versions/1/revert"),
            None,
        )
        .await;
    assert_eq!(reverted.status(), 200);
    let reverted: Value = reverted.json().await.unwrap();
    assert_eq!(reverted["version"], 3);
    let draft = app
        .json_of(&format!("/api/content/case-studies/{id}/draft"))
        .await;
    assert_eq!(draft["revision"], 3);
    assert_eq!(draft["document"]["slug"], slug.as_str());
    assert_eq!(
        draft["document"]["formerSlugs"],
        json!(["checkout-rewrite"])
    );
    app.shutdown().await;
}

#[tokio::test]
async fn a_case_studys_markdown_links_project_and_slug_are_checked_with_the_field_named() {
    let app = spawn_app().await;
    app.signed_in().await;
    let projects = projects();
    let first = projects[0]["id"].as_str().unwrap();
    let second = projects[1]["id"].as_str().unwrap();

    let mut html = written(first, "first");
    html["problem"] = json!("Carts were <b>lost</b>.");
    html["decisions"][0]["why"] = json!("See [this](javascript:alert(1)).");
    html["outcome"] = json!("![chart](https://tracker.example/pixel.png)");
    html["links"][0]["url"] = json!("javascript:alert(1)");
    let response = app.put_case_study(first, &html, "0").await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    for field in ["problem", "decisions[0].why", "outcome", "links[0].url"] {
        assert!(
            body["error"]["fields"][field].is_string(),
            "{field} in {body}"
        );
    }
    assert!(
        body["error"]["fields"]["problem"]
            .as_str()
            .unwrap()
            .contains("HTML"),
        "{body}"
    );

    // The body's project is the address's.
    let response = app
        .put_case_study(second, &written(first, "first"), "0")
        .await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"]["fields"]["project"].is_string(), "{body}");
    // No such project, and no project id at all.
    assert_eq!(
        app.get("/api/content/case-studies/nope/draft")
            .await
            .status(),
        404
    );
    let response = app
        .get("/api/content/case-studies/Not%20an%20id/draft")
        .await;
    assert_eq!(response.status(), 422);

    // A slug another case study answers at is refused.
    assert_eq!(
        app.put_case_study(first, &written(first, "taken"), "0")
            .await
            .status(),
        200
    );
    let sent = app
        .send(
            Method::POST,
            &format!("/api/content/case-studies/{first}/publish"),
            None,
        )
        .await;
    assert_eq!(sent.status(), 200);
    let response = app
        .put_case_study(second, &written(second, "taken"), "0")
        .await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert!(
        body["error"]["fields"]["slug"]
            .as_str()
            .unwrap()
            .contains("another case study"),
        "{body}"
    );
    // Nothing to publish without a draft.
    let response = app
        .send(
            Method::POST,
            &format!("/api/content/case-studies/{second}/publish"),
            None,
        )
        .await;
    assert_eq!(response.status(), 404);
    app.shutdown().await;
}

#[tokio::test]
async fn case_studies_are_the_owners() {
    let app = spawn_app().await;
    let id = projects()[0]["id"].as_str().unwrap().to_owned();
    assert_eq!(app.get("/api/content/case-studies").await.status(), 401);
    assert_eq!(
        app.get(&format!("/api/content/case-studies/{id}/draft"))
            .await
            .status(),
        401
    );
    assert_eq!(
        app.put_case_study(&id, &written(&id, "x"), "0")
            .await
            .status(),
        401
    );
    app.shutdown().await;
}

#[tokio::test]
async fn a_case_study_goes_in_and_out_as_a_file_checked_as_the_api_checks_it() {
    use crate::helpers::content_command;
    let app = spawn_app().await;
    app.signed_in().await;
    let id = projects()[0]["id"].as_str().unwrap().to_owned();
    let dir = tempfile::tempdir().unwrap();
    let path = |name: &str| dir.path().join(name).display().to_string();

    // Refused, each problem named by its field, and nothing imported.
    let mut bad = written(&id, "from-a-file");
    bad["problem"] = json!("<script>alert(1)</script>");
    std::fs::write(path("bad.json"), bad.to_string()).unwrap();
    let output = content_command(
        &app,
        &[
            "import",
            "--case-study",
            &id,
            &path("bad.json"),
            "--publish",
        ],
    );
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("problem:") && stderr.contains("HTML"),
        "{stderr}"
    );
    let output = content_command(
        &app,
        &[
            "export",
            "--case-study",
            &id,
            "--output",
            &path("none.json"),
        ],
    );
    assert!(!output.status.success(), "nothing was published");

    std::fs::write(path("good.json"), written(&id, "from-a-file").to_string()).unwrap();
    let output = content_command(
        &app,
        &[
            "import",
            "--case-study",
            &id,
            &path("good.json"),
            "--publish",
        ],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(String::from_utf8_lossy(&output.stdout).contains("as version 1"));
    // The running server follows what the command published (it looks every 2 s).
    let url = app.url(&format!("/api/content/case-studies/{id}"));
    let followed: Value = eventually("the server serves the imported case study", || async {
        let response = TestApp::other_client().get(&url).send().await.ok()?;
        (response.status() == 200).then_some(())?;
        let study: Value = response.json().await.ok()?;
        (study["version"] == 1).then_some(study)
    })
    .await;
    assert_eq!(followed["document"]["slug"], "from-a-file");
    // The API sees it published, and the draft is it too.
    let draft = app
        .json_of(&format!("/api/content/case-studies/{id}/draft"))
        .await;
    assert_eq!(draft["document"]["slug"], "from-a-file");
    let output = content_command(
        &app,
        &["export", "--case-study", &id, "--output", &path("out.json")],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let exported: Value =
        serde_json::from_str(&std::fs::read_to_string(path("out.json")).unwrap()).unwrap();
    assert_eq!(exported, written(&id, "from-a-file"));
    app.shutdown().await;
}

#[tokio::test]
async fn the_placeholders_case_studies_go_with_the_default_document() {
    let app = spawn_app().await;
    app.signed_in().await;
    let projects = projects();
    let read = |id: &str| {
        let url = app.url(&format!("/api/content/case-studies/{id}"));
        async move { TestApp::other_client().get(url).send().await.unwrap() }
    };
    // Two of the four projects have one; the others none.
    for (project, status) in [(0, 200), (1, 200), (2, 404), (3, 404)] {
        let id = projects[project]["id"].as_str().unwrap();
        assert_eq!(read(id).await.status(), status, "{id}");
    }
    let study: Value = read("food-recipes").await.json().await.unwrap();
    assert_eq!(study["document"]["slug"], "food-recipes");
    assert_eq!(study["document"]["gallery"].as_array().unwrap().len(), 2);
    // Once the owner publishes their page, the placeholder's are gone with the default document.
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    assert_eq!(read("food-recipes").await.status(), 404);
    assert_eq!(read("portfolio").await.status(), 404);
    app.shutdown().await;
}

/// A `<meta>` or `<link>` of a page's head, by what it starts with: the value of its `content`
/// or `href`.
fn head_value(html: &str, start: &str) -> String {
    let at = html
        .find(start)
        .unwrap_or_else(|| panic!("{start} in the page"));
    let tag = &html[at..at + html[at..].find('>').unwrap()];
    let attribute = ["content=\"", "href=\""]
        .into_iter()
        .find_map(|name| tag.find(name).map(|i| i + name.len()))
        .expect("a value");
    tag[attribute..attribute + tag[attribute..].find('"').unwrap()].to_owned()
}

#[tokio::test]
async fn a_published_case_study_has_its_own_page_head_preview_sitemap_entry_and_lasting_address() {
    let app = spawn_app().await;
    app.signed_in().await;
    let project = projects()[0].clone();
    let id = project["id"].as_str().unwrap();
    let title = project["title"].as_str().unwrap();
    // The owner's own page: the placeholder's case studies go with the default document.
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    assert_eq!(app.get("/projects/portfolio/").await.status(), 404);
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(!sitemap.contains("/projects/"), "{sitemap}");

    assert_eq!(
        app.put_case_study(id, &written(id, "checkout"), "0")
            .await
            .status(),
        200
    );
    let sent = app
        .send(
            Method::POST,
            &format!("/api/content/case-studies/{id}/publish"),
            None,
        )
        .await;
    assert_eq!(sent.status(), 200);
    // Served at once, pre-rendered: the case study whole in the HTML, its head its own.
    let response = app.get("/projects/checkout/").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("sha256-"));
    let html = response.text().await.unwrap();
    let base = &app.address;
    assert!(
        html.contains(&format!("<title>{title} · Case study · ")),
        "{html}"
    );
    assert_eq!(
        head_value(&html, "<meta name=\"description\""),
        "A checkout that stopped losing carts."
    );
    assert_eq!(
        head_value(&html, "<link rel=\"canonical\""),
        format!("{base}/projects/checkout/")
    );
    assert_eq!(head_value(&html, "<meta property=\"og:type\""), "article");
    let image = head_value(&html, "<meta property=\"og:image\"");
    assert_eq!(image, format!("{base}/projects/checkout/og-image.png"));
    assert!(!html.contains("hreflang"), "one language: no alternates");
    // The Markdown drawn as elements, the figure written out, the way back to the card.
    assert!(html.contains("Carts were <em>lost</em> at the payment step"));
    assert!(html.contains("<a class=\"link\" href=\"https://example.com/design\""));
    assert!(html.contains(">38.5<"));
    assert!(html.contains("href=\"/#projects\""));
    assert!(html.contains(&format!("data-case-study=\"{id}\"")));
    // JSON-LD: a creative work by the owner, and the breadcrumbs.
    let start = html.find("<script type=\"application/ld+json\">").unwrap();
    let end = start + html[start..].find("</script>").unwrap();
    let ld: Value = serde_json::from_str(&html[start + 35..end]).unwrap();
    assert_eq!(ld[0]["@type"], "CreativeWork");
    assert_eq!(ld[0]["name"], title);
    assert_eq!(ld[0]["author"]["@type"], "Person");
    assert_eq!(ld[0]["url"], format!("{base}/projects/checkout/"));
    assert!(ld[0]["dateModified"].is_string());
    assert_eq!(ld[1]["@type"], "BreadcrumbList");
    assert_eq!(ld[1]["itemListElement"][2]["name"], title);
    // Its link preview, drawn at publish.
    let preview = app.get("/projects/checkout/og-image.png").await;
    assert_eq!(preview.status(), 200);
    assert_eq!(preview.headers()["content-type"], "image/png");
    let png = preview.bytes().await.unwrap();
    assert!(png.starts_with(b"\x89PNG"));
    // The data it hydrates from, beside it.
    let data = app.json_of("/projects/checkout/page-data.json").await;
    assert_eq!(data["caseStudy"]["study"]["project"], id);
    assert_eq!(data["caseStudy"]["figures"], json!(["38.5"]));
    assert_eq!(
        data["caseStudy"]["texts"]["problem"][0]["children"][1],
        json!({"type": "emphasis", "children": ["lost"]})
    );
    // The card on `/` links to it; the sitemap lists it.
    let landing = app.get("/").await.text().await.unwrap();
    assert!(landing.contains("href=\"/projects/checkout/\""));
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(sitemap.contains(&format!("<loc>{base}/projects/checkout/</loc>")));

    // A new slug: the old address answers with a 301 to the new one, with or without its slash.
    let response = app
        .put_case_study(id, &written(id, "checkout-rewrite"), "1")
        .await;
    assert_eq!(response.status(), 200);
    let sent = app
        .send(
            Method::POST,
            &format!("/api/content/case-studies/{id}/publish"),
            None,
        )
        .await;
    assert_eq!(sent.status(), 200);
    for old in [
        "/projects/checkout/",
        "/projects/checkout",
        "/projects/checkout/?ref=cv",
    ] {
        let moved = app.get(old).await;
        assert_eq!(moved.status(), 301, "{old}");
        let expected = if old.ends_with("?ref=cv") {
            "/projects/checkout-rewrite/?ref=cv"
        } else {
            "/projects/checkout-rewrite/"
        };
        assert_eq!(moved.headers()["location"], expected, "{old}");
    }
    assert_eq!(app.get("/projects/checkout-rewrite/").await.status(), 200);
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(sitemap.contains("/projects/checkout-rewrite/"));
    assert!(!sitemap.contains("/projects/checkout/"));
    let landing = app.get("/").await.text().await.unwrap();
    assert!(landing.contains("href=\"/projects/checkout-rewrite/\""));
    // An unknown case study is the site's 404.
    assert_eq!(app.get("/projects/no-such-study/").await.status(), 404);
    app.shutdown().await;
}

#[tokio::test]
async fn the_placeholders_case_studies_have_pages_beside_the_default_document() {
    let app = spawn_app().await;
    for (path, title) in [
        ("/projects/portfolio/", "Portfolio"),
        ("/projects/food-recipes/", "Food Recipes"),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let html = response.text().await.unwrap();
        assert!(
            html.contains(&format!("<title>{title} · Case study")),
            "{path}"
        );
    }
    // Each leads to the other: previous and next, in the order of the cards.
    let first = app.get("/projects/portfolio/").await.text().await.unwrap();
    assert!(first.contains("rel=\"next\""));
    let landing = app.get("/").await.text().await.unwrap();
    assert_eq!(landing.matches("href=\"/projects/").count(), 2);
    app.shutdown().await;
}

#[tokio::test]
async fn a_case_study_is_on_a_languages_pages_once_it_is_translated_with_its_alternates() {
    use crate::languages::{default_document, language, save_draft};
    let app = spawn_app().await;
    app.signed_in().await;
    let mut page = default_document();
    page["languages"] = json!([language("de", "DE", "Entwicklerin", true)]);
    assert_eq!(save_draft(&app, &page).await.status(), 200);
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    let id = projects()[0]["id"].as_str().unwrap().to_owned();
    let publish = |study: Value, revision: &'static str| {
        let app = &app;
        let id = id.clone();
        async move {
            let saved = app.put_case_study(&id, &study, revision).await;
            assert_eq!(saved.status(), 200, "{:?}", saved.text().await);
            let sent = app
                .send(
                    Method::POST,
                    &format!("/api/content/case-studies/{id}/publish"),
                    None,
                )
                .await;
            assert_eq!(sent.status(), 200);
        }
    };
    // Translated in part: the German pages leave it out, and its card there has no link.
    let mut study = written(&id, "checkout");
    let german = json!({
        "summary": "Ein Checkout, der keine Warenkörbe mehr verlor.",
        "problem": "Warenkörbe gingen beim Bezahlen *verloren*.",
    });
    study["translations"] = json!([{ "tag": "de", "texts": german }]);
    publish(study.clone(), "0").await;
    assert_eq!(app.get("/projects/checkout/").await.status(), 200);
    assert_eq!(app.get("/de/projects/checkout/").await.status(), 404);
    let german_page = app.get("/de/").await.text().await.unwrap();
    assert!(!german_page.contains("/projects/checkout/"));
    let english = app.get("/projects/checkout/").await.text().await.unwrap();
    assert!(!english.contains("hreflang"));

    // Translated whole: its German page, with the alternates both ways.
    let mut texts = german.as_object().unwrap().clone();
    for (path, text) in [
        ("role", "Ich leitete die Neuentwicklung."),
        ("constraints", "- sechs Wochen\n- keine Ausfallzeit"),
        ("decisions[0].title", "Ein Dienst"),
        ("decisions[0].why", "Weniger Umwege."),
        ("outcome", "Der Umsatz stieg."),
        ("figures[0].label", "weniger abgebrochene Warenkörbe"),
        ("links[0].label", "Quellcode"),
    ] {
        texts.insert(path.to_owned(), json!(text));
    }
    study["translations"] = json!([{ "tag": "de", "texts": texts, "same": ["figures[0].unit"] }]);
    publish(study, "1").await;
    let response = app.get("/de/projects/checkout/").await;
    assert_eq!(response.status(), 200);
    let html = response.text().await.unwrap();
    let base = &app.address;
    assert!(html.contains("<html lang=\"de\" dir=\"ltr\""));
    assert!(html.contains("Ein Checkout, der keine Warenkörbe mehr verlor."));
    assert!(html.contains("Warenkörbe gingen beim Bezahlen <em>verloren</em>."));
    // The figure written the German way, the headings in German.
    assert!(html.contains(">38,5<"), "{html}");
    assert!(html.contains("Das Problem"));
    for (tag, path) in [
        ("en", "/projects/checkout/"),
        ("de", "/de/projects/checkout/"),
        ("x-default", "/projects/checkout/"),
    ] {
        let alternate =
            format!("<link rel=\"alternate\" hreflang=\"{tag}\" href=\"{base}{path}\" />");
        assert!(html.contains(&alternate), "{alternate}");
    }
    assert_eq!(
        html.matches("hreflang").count(),
        app.get("/projects/checkout/")
            .await
            .text()
            .await
            .unwrap()
            .matches("hreflang")
            .count()
    );
    // Its language menu leads to the same case study in English; the German card links to it.
    let data = app.json_of("/de/projects/checkout/page-data.json").await;
    let hrefs: Vec<&str> = data["locale"]["languages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["href"].as_str().unwrap())
        .collect();
    assert_eq!(hrefs, ["/projects/checkout/", "/de/projects/checkout/"]);
    let german_page = app.get("/de/").await.text().await.unwrap();
    assert!(german_page.contains("href=\"/de/projects/checkout/\""));
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(sitemap.contains(&format!("<loc>{base}/de/projects/checkout/</loc>")));
    assert!(sitemap.contains(&format!(
        "<xhtml:link rel=\"alternate\" hreflang=\"de\" href=\"{base}/de/projects/checkout/\"/>"
    )));
    app.shutdown().await;
}

#[tokio::test]
async fn a_case_studys_draft_is_previewed_as_its_page_for_the_owner_only() {
    let app = spawn_app().await;
    let id = projects()[1]["id"].as_str().unwrap().to_owned();
    let path = format!("/api/content/case-studies/{id}/preview");
    assert_eq!(app.get(&path).await.status(), 401);
    app.signed_in().await;
    let mut study = written(&id, "rewrite");
    study["summary"] = json!("Only in the draft, for now.");
    assert_eq!(app.put_case_study(&id, &study, "0").await.status(), 200);
    let response = app.get(&path).await;
    assert_eq!(response.status(), 200);
    // Framed by the site's own pages only, and drawn without scripts.
    assert!(response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("frame-ancestors 'self'"));
    let html = response.text().await.unwrap();
    assert!(html.contains("Only in the draft, for now."));
    assert!(html.contains(&format!("data-case-study=\"{id}\"")));
    assert!(!html.contains("<script type=\"module\""));
    // Nothing is published by a preview.
    assert_eq!(app.get("/projects/rewrite/").await.status(), 404);
    // A language the page's draft does not have, and one the case study is not translated into.
    let unknown = app.get(&format!("{path}?language=de")).await;
    assert_eq!(unknown.status(), 422);
    let body: Value = unknown.json().await.unwrap();
    assert!(body["error"]["fields"]["language"].is_string(), "{body}");
    let mut page = crate::languages::default_document();
    page["languages"] = json!([crate::languages::language(
        "de",
        "DE",
        "Entwicklerin",
        false
    )]);
    assert_eq!(
        crate::languages::save_draft(&app, &page).await.status(),
        200
    );
    let untranslated = app.get(&format!("{path}?language=de")).await;
    assert_eq!(untranslated.status(), 422);
    assert_eq!(
        app.get("/api/content/case-studies/no-such-project/preview")
            .await
            .status(),
        404
    );
    app.shutdown().await;
}

#[tokio::test]
async fn the_page_and_a_case_study_scheduled_for_later_are_served_only_from_their_moment() {
    let app = spawn_app().await;
    app.signed_in().await;
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    let before = app.get("/").await.text().await.unwrap();
    // A new name for the page and a first case study, both for the same moment to come: far
    // enough ahead for every "not yet" below on a loaded machine.
    let mut page = app.json_of("/api/content/draft").await["document"].clone();
    page["profile"]["name"] = json!("Ada Scheduled");
    assert_eq!(
        crate::languages::save_draft(&app, &page).await.status(),
        200
    );
    let at = from_now(12);
    let moment = chrono::DateTime::parse_from_rfc3339(&at)
        .unwrap()
        .timestamp_millis();
    let path = format!("/api/content/publish?at={}", url_escape(&at));
    let scheduled = app.send(Method::POST, &path, None).await;
    assert_eq!(scheduled.status(), 200);
    let scheduled: Value = scheduled.json().await.unwrap();
    assert_eq!(scheduled["publishedAt"], moment, "{scheduled}");
    let id = projects()[0]["id"].as_str().unwrap().to_owned();
    let saved = app
        .put_case_study(&id, &written(&id, "checkout"), "0")
        .await;
    assert_eq!(saved.status(), 200);
    let path = format!(
        "/api/content/case-studies/{id}/publish?at={}",
        url_escape(&at)
    );
    assert_eq!(app.send(Method::POST, &path, None).await.status(), 200);
    // Before it: every address shows what was published before, and the owner's lists of
    // versions say what comes when.
    assert_eq!(app.get("/").await.text().await.unwrap(), before);
    let data = app.json_of("/api/content").await;
    assert_ne!(data["document"]["profile"]["name"], "Ada Scheduled");
    assert_eq!(app.get("/projects/checkout/").await.status(), 404);
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(!sitemap.contains("/projects/checkout/"), "{sitemap}");
    let versions = app.json_of("/api/content/versions").await;
    assert_eq!(versions["versions"][0]["publishedAt"], moment, "{versions}");
    // After it: served with no request to the API and no restart, within the instance's look.
    eventually("the scheduled page and case study", || async {
        let page = app.get("/").await.text().await.ok()?;
        let study = app.get("/projects/checkout/").await.status();
        (page.contains("Ada Scheduled") && study == 200).then_some(())
    })
    .await;
    let sitemap = app.get("/sitemap.xml").await.text().await.unwrap();
    assert!(sitemap.contains("/projects/checkout/</loc>"), "{sitemap}");

    // A publish scheduled and cancelled leaves the page as it is; a second cancel finds nothing.
    page["profile"]["name"] = json!("Ada Cancelled");
    assert_eq!(
        crate::languages::save_draft(&app, &page).await.status(),
        200
    );
    let path = format!("/api/content/publish?at={}", url_escape(&from_now(3600)));
    assert_eq!(app.send(Method::POST, &path, None).await.status(), 200);
    let cancelled = app
        .send(Method::DELETE, "/api/content/schedule", None)
        .await;
    assert_eq!(cancelled.status(), 204);
    let again = app
        .send(Method::DELETE, "/api/content/schedule", None)
        .await;
    assert_eq!(again.status(), 404);
    let versions = app.json_of("/api/content/versions").await;
    assert!(
        versions["versions"][0]["publishedAt"].as_i64().unwrap() <= portfolio::clock::now_ms(),
        "{versions}"
    );
    let path = format!("/api/content/case-studies/{id}/schedule");
    assert_eq!(app.send(Method::DELETE, &path, None).await.status(), 404);
    // A moment that is none is named.
    let refused = app
        .send(Method::POST, "/api/content/publish?at=soon", None)
        .await;
    assert_eq!(refused.status(), 422);
    let error: Value = refused.json().await.unwrap();
    assert!(error["error"]["fields"]["at"].is_string(), "{error}");
    assert!(app
        .get("/")
        .await
        .text()
        .await
        .unwrap()
        .contains("Ada Scheduled"));
}
