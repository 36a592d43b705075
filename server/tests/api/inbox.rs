//! The owner's inbox: `/api/messages`.

use reqwest::Method;
use serde_json::{json, Value};

use crate::helpers::spawn_app;

fn subjects(page: &Value) -> Vec<String> {
    page["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["subject"].as_str().unwrap().to_owned())
        .collect()
}

const T0: i64 = 1_763_700_000_000;

#[tokio::test]
async fn every_inbox_endpoint_answers_401_without_a_session() {
    let app = spawn_app().await;
    let id = app.insert_message("Ada", "Hello", "Hi there", T0).await;
    let item = format!("/api/messages/{id}");
    let checks = [
        (Method::GET, "/api/messages".to_owned(), None),
        (Method::GET, item.clone(), None),
        (Method::PATCH, item.clone(), Some(json!({ "isRead": true }))),
        (Method::DELETE, item.clone(), None),
        (
            Method::GET,
            "/api/messages/export?format=csv".to_owned(),
            None,
        ),
        (
            Method::GET,
            "/api/messages/export?format=json".to_owned(),
            None,
        ),
    ];
    for (method, path, body) in checks {
        let response = app.send(method.clone(), &path, body.as_ref()).await;
        assert_eq!(response.status(), 401, "{method} {path}");
        assert_eq!(
            response.headers()["cache-control"],
            "no-store",
            "{method} {path}"
        );
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "unauthorized");
    }
    let untouched: (i64, Option<i64>) = sqlx::query_as(
        "SELECT CASE WHEN is_read THEN 1 ELSE 0 END, deleted_at FROM contact_messages WHERE id = $1",
    )
            .bind(id)
            .fetch_one(&app.sql)
            .await
            .unwrap();
    assert_eq!(untouched, (0, None));
}

#[tokio::test]
async fn the_inbox_lists_messages_newest_first_with_the_unread_count() {
    let app = spawn_app().await;
    app.signed_in().await;
    app.insert_message("Ada", "Older", "first", T0).await;
    app.insert_message("Grace", "Newer", "second", T0 + 1000)
        .await;
    let read = app
        .insert_message("Linus", "Newest", "third", T0 + 2000)
        .await;
    sqlx::query("UPDATE contact_messages SET is_read = TRUE WHERE id = $1")
        .bind(read)
        .execute(&app.sql)
        .await
        .unwrap();

    let response = app.get("/api/messages").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let page: Value = response.json().await.unwrap();
    assert_eq!(subjects(&page), ["Newest", "Newer", "Older"]);
    assert_eq!(page["unread"], 2);
    assert_eq!(page["nextCursor"], Value::Null);
    let first = &page["messages"][0];
    assert_eq!(first["name"], "Linus");
    assert_eq!(first["email"], "linus@example.org");
    assert_eq!(first["preview"], "third");
    assert_eq!(first["createdAt"], T0 + 2000);
    assert_eq!(first["isRead"], true);
}

#[tokio::test]
async fn an_empty_inbox_is_an_empty_list() {
    let app = spawn_app().await;
    app.signed_in().await;
    let page = app.messages("").await;
    assert_eq!(page["messages"], json!([]));
    assert_eq!(page["unread"], 0);
}

#[tokio::test]
async fn thousands_of_messages_are_paged_by_cursor_without_gaps_or_repeats() {
    let app = spawn_app().await;
    app.signed_in().await;
    // 120 messages, some sharing a timestamp, so the cursor needs the id as a tie-breaker.
    for i in 0..120 {
        app.insert_message(
            "Sender",
            &format!("Message {i:03}"),
            "text",
            T0 + (i / 3) * 1000,
        )
        .await;
    }
    let mut seen = Vec::new();
    let mut query = "?limit=50".to_owned();
    let mut pages = 0;
    loop {
        let page = app.messages(&query).await;
        pages += 1;
        seen.extend(subjects(&page));
        match page["nextCursor"].as_str() {
            Some(cursor) => query = format!("?limit=50&cursor={cursor}"),
            None => break,
        }
    }
    assert_eq!(pages, 3);
    let expected: Vec<String> = (0..120).rev().map(|i| format!("Message {i:03}")).collect();
    assert_eq!(seen, expected);
}

#[tokio::test]
async fn bad_list_parameters_are_named() {
    let app = spawn_app().await;
    app.signed_in().await;
    for (query, field) in [
        ("?folder=archive", "folder"),
        ("?cursor=nonsense", "cursor"),
        ("?limit=0", "limit"),
        ("?limit=1000", "limit"),
        ("?limit=ten", "limit"),
    ] {
        let response = app.get(&format!("/api/messages{query}")).await;
        assert_eq!(response.status(), 422, "{query}");
        let body: Value = response.json().await.unwrap();
        assert!(
            body["error"]["fields"][field].is_string(),
            "{query}: {body}"
        );
    }
    let long = "x".repeat(201);
    let response = app.get(&format!("/api/messages?q={long}")).await;
    assert_eq!(response.status(), 422);
}

#[tokio::test]
async fn search_finds_text_in_the_name_email_subject_or_message() {
    let app = spawn_app().await;
    app.signed_in().await;
    app.insert_message("Ada Lovelace", "Engines", "About the analytical engine", T0)
        .await;
    app.insert_message("Grace", "Compilers", "A question about COBOL", T0 + 1)
        .await;
    app.insert_message("Linus", "Kernels", "100% free software", T0 + 2)
        .await;

    assert_eq!(subjects(&app.messages("?q=lovelace").await), ["Engines"]);
    assert_eq!(
        subjects(&app.messages("?q=grace%40example").await),
        ["Compilers"]
    );
    assert_eq!(subjects(&app.messages("?q=KERNEL").await), ["Kernels"]);
    assert_eq!(subjects(&app.messages("?q=cobol").await), ["Compilers"]);
    assert_eq!(
        subjects(&app.messages("?q=about").await),
        ["Compilers", "Engines"]
    );
    // Wildcards are literal: "%" only finds the message that contains one.
    assert_eq!(subjects(&app.messages("?q=%25").await), ["Kernels"]);
    assert_eq!(
        subjects(&app.messages("?q=nothing-like-this").await),
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn reading_a_message_shows_it_in_full_and_marks_it_read() {
    let app = spawn_app().await;
    app.signed_in().await;
    let long = "word ".repeat(100);
    let id = app.insert_message("Ada", "Long one", &long, T0).await;
    assert_eq!(app.messages("").await["unread"], 1);
    let preview = app.messages("").await["messages"][0]["preview"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(preview.chars().count() < long.chars().count());

    let response = app.get(&format!("/api/messages/{id}")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let message: Value = response.json().await.unwrap();
    assert_eq!(message["message"], long);
    assert_eq!(message["isRead"], true);
    assert_eq!(app.messages("").await["unread"], 0);

    assert_eq!(app.get("/api/messages/999999").await.status(), 404);
    assert_eq!(app.get("/api/messages/not-a-number").await.status(), 422);
}

#[tokio::test]
async fn a_message_can_be_marked_unread_again() {
    let app = spawn_app().await;
    app.signed_in().await;
    let id = app.insert_message("Ada", "Hello", "Hi", T0).await;
    app.get(&format!("/api/messages/{id}")).await;
    let response = app
        .send(
            Method::PATCH,
            &format!("/api/messages/{id}"),
            Some(&json!({ "isRead": false })),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.json::<Value>().await.unwrap()["isRead"], false);
    assert_eq!(app.messages("").await["unread"], 1);
}

#[tokio::test]
async fn spam_moves_to_its_own_folder_and_back() {
    let app = spawn_app().await;
    app.signed_in().await;
    let id = app
        .insert_message("Spammer", "Cheap pills", "Buy now", T0)
        .await;
    app.insert_message("Ada", "Real", "A real message", T0 + 1)
        .await;

    let response = app
        .send(
            Method::PATCH,
            &format!("/api/messages/{id}"),
            Some(&json!({ "isSpam": true })),
        )
        .await;
    assert_eq!(response.status(), 200);
    assert_eq!(subjects(&app.messages("").await), ["Real"]);
    assert_eq!(
        subjects(&app.messages("?folder=spam").await),
        ["Cheap pills"]
    );
    assert_eq!(app.messages("").await["unread"], 1, "spam is not counted");

    app.send(
        Method::PATCH,
        &format!("/api/messages/{id}"),
        Some(&json!({ "isSpam": false })),
    )
    .await;
    assert_eq!(subjects(&app.messages("").await), ["Real", "Cheap pills"]);
    assert_eq!(
        subjects(&app.messages("?folder=spam").await),
        Vec::<String>::new()
    );
}

#[tokio::test]
async fn a_deleted_message_goes_to_the_trash_can_be_restored_or_deleted_for_good() {
    let app = spawn_app().await;
    app.signed_in().await;
    let id = app.insert_message("Ada", "Hello", "Hi", T0).await;
    let path = format!("/api/messages/{id}");

    let trashed = app
        .send(Method::PATCH, &path, Some(&json!({ "deleted": true })))
        .await;
    assert_eq!(trashed.status(), 200);
    assert!(trashed.json::<Value>().await.unwrap()["deletedAt"].is_i64());
    assert_eq!(subjects(&app.messages("").await), Vec::<String>::new());
    assert_eq!(subjects(&app.messages("?folder=trash").await), ["Hello"]);

    // Undo.
    app.send(Method::PATCH, &path, Some(&json!({ "deleted": false })))
        .await;
    assert_eq!(subjects(&app.messages("").await), ["Hello"]);
    assert_eq!(
        subjects(&app.messages("?folder=trash").await),
        Vec::<String>::new()
    );

    let gone = app.send(Method::DELETE, &path, None).await;
    assert_eq!(gone.status(), 204);
    assert_eq!(app.get(&path).await.status(), 404);
    assert_eq!(app.send(Method::DELETE, &path, None).await.status(), 404);
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM contact_messages")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(left, 0);
}

#[tokio::test]
async fn an_update_with_an_unknown_field_or_a_missing_message_is_refused() {
    let app = spawn_app().await;
    app.signed_in().await;
    let id = app.insert_message("Ada", "Hello", "Hi", T0).await;
    let response = app
        .send(
            Method::PATCH,
            &format!("/api/messages/{id}"),
            Some(&json!({ "subject": "changed" })),
        )
        .await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"]["fields"]["subject"].is_string());
    let missing = app
        .send(
            Method::PATCH,
            "/api/messages/424242",
            Some(&json!({ "isRead": true })),
        )
        .await;
    assert_eq!(missing.status(), 404);
}

#[tokio::test]
async fn changing_a_message_from_another_site_is_refused() {
    let app = spawn_app().await;
    app.signed_in().await;
    let id = app.insert_message("Ada", "Hello", "Hi", T0).await;
    let response = app
        .client
        .delete(app.url(&format!("/api/messages/{id}")))
        .header("Sec-Fetch-Site", "cross-site")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    assert_eq!(subjects(&app.messages("").await), ["Hello"]);
}

#[tokio::test]
async fn export_downloads_csv_or_json_as_an_attachment() {
    let app = spawn_app().await;
    app.signed_in().await;
    app.insert_message("Ada", "Hello", "Hi", T0).await;
    for (format, content_type) in [("csv", "text/csv"), ("json", "application/json")] {
        let response = app
            .get(&format!("/api/messages/export?format={format}"))
            .await;
        assert_eq!(response.status(), 200, "{format}");
        assert!(response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with(content_type));
        assert_eq!(response.headers()["cache-control"], "no-store");
        let disposition = response.headers()["content-disposition"].to_str().unwrap();
        assert!(
            disposition.starts_with("attachment; filename=\"messages-"),
            "{disposition}"
        );
        assert!(
            disposition.ends_with(&format!(".{format}\"")),
            "{disposition}"
        );
    }
    let response = app.get("/api/messages/export?format=xml").await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert!(body["error"]["fields"]["format"].is_string());
}

#[tokio::test]
async fn the_openapi_document_lists_the_inbox_endpoints() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    let paths = &doc["paths"];
    assert!(paths["/api/messages"]["get"].is_object());
    assert!(paths["/api/messages/export"]["get"].is_object());
    for method in ["get", "patch", "delete"] {
        assert!(paths["/api/messages/{id}"][method].is_object(), "{method}");
    }
}
