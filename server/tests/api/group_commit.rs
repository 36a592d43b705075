//! Group commit: contact messages that arrive together share one transaction (on both engines),
//! each is answered 201 once stored, and a message the database refuses fails only its own
//! request.

use serde_json::{json, Value};

use crate::contact::form_with;
use crate::helpers::{
    hold_contact_inserts, refuse_subject, spawn_app_with, until_commit_waiting, TestApp,
};

/// Starts a server that reads the client's address from `X-Forwarded-For`, so each message can
/// come from a visitor of its own and the per-visitor limit stays out of the way.
async fn spawn_behind_proxy() -> TestApp {
    spawn_app_with(|settings| settings.trust_proxy = true).await
}

/// Sends message `n` (stored as spam, without the page's proofs: the same insert) as visitor `n`.
async fn send(app: &TestApp, n: u32, subject: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/contact"))
        .header("Origin", &app.address)
        .header("Sec-Fetch-Site", "same-origin")
        .header("X-Forwarded-For", format!("10.1.{}.{}", n / 250, n % 250))
        .json(&{
            let mut form = form_with("name", json!(format!("sender {n}")));
            form["subject"] = json!(subject);
            form
        })
        .send()
        .await
        .expect("the request is sent")
}

/// Sends one message per subject, all at once. They are held behind a write lock until all have
/// queued, behind a first message that the writer is already trying to commit, so they are
/// committed together in the next transaction. Returns each answer's status and body, in the
/// order of `subjects`.
async fn send_together(app: &TestApp, subjects: &[&str]) -> Vec<(u16, Value)> {
    let answer = |response: reqwest::Response| async move {
        let status = response.status().as_u16();
        (status, response.json::<Value>().await.expect("a JSON body"))
    };
    let sends = futures_util::future::join_all(
        subjects
            .iter()
            .enumerate()
            .map(|(n, subject)| async move { answer(send(app, n as u32, subject).await).await }),
    );
    // The spam checks' keys are made in the database on first use: before the lock.
    assert_eq!(app.get("/api/contact/challenge").await.status(), 200);
    let mut lock = hold_contact_inserts(app).await;
    let first = tokio::spawn({
        let (client, url, origin) = (
            app.client.clone(),
            app.url("/api/contact"),
            app.address.clone(),
        );
        async move {
            client
                .post(url)
                .header("Origin", origin)
                .header("Sec-Fetch-Site", "same-origin")
                .header("X-Forwarded-For", "10.2.0.1")
                .json(&form_with("name", json!("first")))
                .send()
                .await
                .expect("the request is sent")
                .status()
        }
    });
    until_commit_waiting(app, 1).await;
    let release = async {
        until_commit_waiting(app, 1 + subjects.len() as u64).await;
        sqlx::query("ROLLBACK").execute(&mut *lock).await.unwrap();
    };
    let (answers, ()) = tokio::join!(sends, release);
    assert_eq!(first.await.unwrap(), 201);
    sqlx::query("DELETE FROM contact_messages WHERE name = 'first'")
        .execute(&app.sql)
        .await
        .unwrap();
    answers
}

async fn names_stored(app: &TestApp) -> Vec<String> {
    sqlx::query_scalar("SELECT name FROM contact_messages ORDER BY name")
        .fetch_all(&app.sql)
        .await
        .unwrap()
}

#[tokio::test]
async fn messages_that_arrive_together_share_one_commit_and_are_each_answered_201() {
    let app = spawn_behind_proxy().await;
    let before = app.db.group_commit_stats().unwrap();

    let answers = send_together(&app, &["Hello"; 20]).await;

    let mut ids: Vec<i64> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, 201, "{body}");
            body["id"].as_i64().expect("an id")
        })
        .collect();
    ids.sort_unstable();
    ids.dedup();
    assert_eq!(ids.len(), 20, "each message has an id of its own");
    let mut expected: Vec<String> = (0..20).map(|n| format!("sender {n}")).collect();
    expected.sort();
    assert_eq!(names_stored(&app).await, expected, "each stored once");

    let after = app.db.group_commit_stats().unwrap();
    let (batches, messages) = (
        after.batches - before.batches,
        after.messages - before.messages,
    );
    assert_eq!(messages, 21);
    // The first message alone (or with the others, had they come soon enough), then the others.
    assert!(batches <= 2, "21 messages in {batches} transactions");
    assert_eq!(after.waiting, 0);
    app.shutdown().await;
}

#[tokio::test]
async fn a_message_the_database_refuses_fails_alone_and_the_rest_of_its_batch_is_stored_once() {
    let app = spawn_behind_proxy().await;
    // A rule of the test's own, which the server knows nothing of: one subject is refused.
    refuse_subject(&app, "Refuse me").await;
    let mut subjects = vec!["Hello"; 12];
    subjects[5] = "Refuse me";

    let answers = send_together(&app, &subjects).await;

    for (n, (status, body)) in answers.iter().enumerate() {
        if n == 5 {
            assert_eq!(*status, 500, "{body}");
            assert_eq!(body["error"]["code"], "internal_error", "{body}");
            assert!(
                !body.to_string().contains("refused by the test"),
                "the database's words stay in the log: {body}"
            );
        } else {
            assert_eq!(*status, 201, "message {n}: {body}");
            assert!(body["id"].is_i64(), "{body}");
        }
    }
    let mut expected: Vec<String> = (0..12)
        .filter(|n| *n != 5)
        .map(|n| format!("sender {n}"))
        .collect();
    expected.sort();
    assert_eq!(
        names_stored(&app).await,
        expected,
        "every other message stored, once"
    );
    let stats = app.db.group_commit_stats().unwrap();
    assert!(
        stats.retried_batches >= 1,
        "the refused message was in a batch with others: {stats:?}"
    );

    // The writer goes on: the next message is stored as usual.
    let (status, body) = send_together(&app, &["After"]).await.remove(0);
    assert_eq!(status, 201, "{body}");
    app.shutdown().await;
}
