//! Case studies as entries of the content store: drafted, saved, published, listed and reverted
//! through the same code path as the page's document, their slugs kept and their Markdown
//! checked.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::{eventually, spawn_app, TestApp};

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
    assert_eq!(list["caseStudies"], json!([]));
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

    // Begun: revision 0, its slug made from the project's title, every text still to write.
    let begun = app
        .json_of(&format!("/api/content/case-studies/{id}/draft"))
        .await;
    assert_eq!(begun["revision"], 0);
    let slug = portfolio::content::case_study::slug_from_title(project["title"].as_str().unwrap());
    assert_eq!(begun["document"]["slug"], slug.as_str());
    assert_eq!(begun["document"]["project"], id);
    // As begun it cannot be saved: each text to write is named.
    let response = app.put_case_study(id, &begun["document"], "0").await;
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
