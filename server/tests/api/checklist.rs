//! The first-day checklist (`GET /api/checklist`, issue 46): the owner's alone, and each item
//! turning done as the data changes, never by hand.

use reqwest::Method;
use serde_json::{json, Value};

use crate::delivery::mail_to;
use crate::helpers::{spawn_app, spawn_app_with, TestApp};
use crate::media::{small_png, TINY_PDF};

impl TestApp {
    async fn checklist(&self) -> Value {
        let response = self.get("/api/checklist").await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "no-store");
        response.json().await.unwrap()
    }

    /// Changes the draft as the editor saves it.
    async fn edit_draft(&self, change: impl FnOnce(&mut Value)) {
        let draft: Value = self.get("/api/content/draft").await.json().await.unwrap();
        let mut document = draft["document"].clone();
        change(&mut document);
        let saved = self
            .client
            .put(self.url("/api/content/draft"))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .header("If-Match", format!("\"{}\"", draft["revision"]))
            .json(&document)
            .send()
            .await
            .unwrap();
        assert_eq!(saved.status(), 200, "{:?}", saved.text().await);
    }
}

/// Which items are done, by name.
fn done(checklist: &Value) -> Vec<&str> {
    let mut done: Vec<&str> = checklist
        .as_object()
        .unwrap()
        .iter()
        .filter(|(_, value)| value.as_bool().unwrap())
        .map(|(name, _)| name.as_str())
        .collect();
    done.sort_unstable();
    done
}

#[tokio::test]
async fn the_checklist_is_the_owners_alone() {
    let app = spawn_app().await;
    let response = app.get("/api/checklist").await;
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "unauthorized");
    app.shutdown().await;
}

#[tokio::test]
async fn each_item_is_done_once_the_data_says_so() {
    let app = spawn_app().await;
    app.signed_in().await;
    let fresh = app.checklist().await;
    assert_eq!(
        fresh,
        json!({
            "profile": false, "projects": false, "resume": false, "published": false,
            "notifications": false, "secondWayIn": false
        })
    );

    // The name, then a photo uploaded, then the intro: done only with all three.
    app.edit_draft(|d| d["profile"]["name"] = json!("Sam Rivera"))
        .await;
    let upload: Value = app
        .upload("/api/media", small_png(), "me.png")
        .await
        .json()
        .await
        .unwrap();
    app.edit_draft(|d| {
        d["media"].as_array_mut().unwrap().push(json!({
            "id": "upload-me", "alt": "Sam at the harbour", "width": upload["width"],
            "height": upload["height"], "sources": upload["sources"],
        }));
        d["profile"]["photo"] = json!("upload-me");
    })
    .await;
    assert!(
        done(&app.checklist().await).is_empty(),
        "the intro is still the placeholder's"
    );
    app.edit_draft(|d| {
        d["profile"]["intro"] = json!("I make tide tables that work offline.");
    })
    .await;
    assert_eq!(done(&app.checklist().await), ["profile"]);

    // The projects: one left of the placeholder's is still theirs.
    app.edit_draft(|d| {
        let projects = d["projects"].as_array_mut().unwrap();
        projects[0]["title"] = json!("Tide tables");
        projects[0]["description"] = json!("Tide tables for every harbour, offline.");
        projects.truncate(2);
    })
    .await;
    assert!(!app.checklist().await["projects"].as_bool().unwrap());
    app.edit_draft(|d| {
        d["projects"].as_array_mut().unwrap().truncate(1);
    })
    .await;
    assert_eq!(done(&app.checklist().await), ["profile", "projects"]);

    let resume = app
        .upload("/api/media/resume", TINY_PDF.to_vec(), "cv.pdf")
        .await;
    assert_eq!(resume.status(), 201);
    assert!(app.checklist().await["resume"].as_bool().unwrap());

    // Published, until the draft's name differs from the live one.
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);
    assert!(app.checklist().await["published"].as_bool().unwrap());
    app.edit_draft(|d| d["profile"]["name"] = json!("Sam R. Rivera"))
        .await;
    assert!(!app.checklist().await["published"].as_bool().unwrap());
    let published = app.send(Method::POST, "/api/content/publish", None).await;
    assert_eq!(published.status(), 200);

    // A second way in: a passkey.
    app.with_passkey("Laptop").await;
    assert_eq!(
        done(&app.checklist().await),
        ["profile", "projects", "published", "resume", "secondWayIn"]
    );
    app.shutdown().await;
}

#[tokio::test]
async fn notifications_and_the_second_factor_count_as_set_up() {
    let app = spawn_app_with(|s| mail_to(s, "smtp://127.0.0.1:9?tls=none".to_owned())).await;
    app.signed_in().await;
    assert_eq!(done(&app.checklist().await), ["notifications"]);
    app.turn_second_factor_on(&app.client).await;
    assert_eq!(
        done(&app.checklist().await),
        ["notifications", "secondWayIn"]
    );
    app.shutdown().await;
}
