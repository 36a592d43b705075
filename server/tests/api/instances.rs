//! Two instances on one PostgreSQL database, as behind a load balancer: a session made on one
//! works on the other, failed sign-ins and the contact limit count across both, every message
//! is stored once, and every notification is sent exactly once.

use std::collections::BTreeMap;
use std::time::Duration;

use portfolio::config::Settings;
use serde_json::{json, Value};

use crate::contact::{as_person, form_with};
use crate::contact_smtp::TestSmtp;
use crate::helpers::{postgres_only_database, Spawn, TestApp, PATIENCE};
use crate::helpers::{EMAIL, PASSWORD};

/// A same-origin POST as a visitor at `ip` (behind the trusted proxy that these tests play).
async fn post_as(app: &TestApp, ip: &str, path: &str, body: &Value) -> reqwest::Response {
    reqwest::Client::new()
        .post(app.url(path))
        .header("Origin", &app.address)
        .header("Sec-Fetch-Site", "same-origin")
        .header("X-Forwarded-For", ip)
        .json(body)
        .send()
        .await
        .unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_share_sessions_counters_messages_and_the_outbox() {
    let Some(url) = postgres_only_database().await else {
        return;
    };
    let smtp = TestSmtp::start().await;
    let configure = |s: &mut Settings| {
        s.mail.smtp_url = Some(smtp.url().into());
        s.mail.notify_email = Some("owner@example.com".into());
        s.trust_proxy = true;
    };
    let a = Spawn::new().database(url.clone()).settings(configure).await;
    let b = Spawn::new().database(url.clone()).settings(configure).await;
    a.create_owner(EMAIL, PASSWORD).await;

    // Signed in through the first, the cookie works on the second.
    let signed_in = a.sign_in(EMAIL, PASSWORD).await;
    assert_eq!(signed_in.status(), 200);
    let cookie = signed_in
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().split(';').next().unwrap().to_owned())
        .find(|c| c.starts_with("portfolio_session="))
        .expect("a session cookie");
    let on_b = reqwest::Client::new()
        .get(b.url("/api/session"))
        .header("Cookie", &cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(on_b.status(), 200);

    // Messages through both: each stored once, each notified exactly once.
    let mut sent = BTreeMap::new();
    for n in 0..8 {
        let (app, other) = if n % 2 == 0 { (&a, &b) } else { (&b, &a) };
        let name = format!("Visitor {n}");
        // The form token and challenge come from the other instance: the keys are shared.
        let person = as_person(other, &form_with("name", json!(name))).await;
        let response = post_as(app, &format!("198.51.100.{n}"), "/api/contact", &person).await;
        assert_eq!(response.status(), 201);
        let id = response.json::<Value>().await.unwrap()["id"]
            .as_i64()
            .unwrap();
        sent.insert(id, name);
    }
    assert_eq!(b.sign_in(EMAIL, PASSWORD).await.status(), 200);
    let listed: BTreeMap<i64, String> = b.messages("?limit=50").await["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["id"].as_i64().unwrap(),
                m["name"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(listed, sent);
    let contact_mails = || {
        smtp.received()
            .into_iter()
            .filter(|mail| {
                mail.header("Subject")
                    .is_some_and(|s| s.starts_with("Contact:"))
            })
            .collect::<Vec<_>>()
    };
    tokio::time::timeout(PATIENCE, async {
        while contact_mails().len() < sent.len() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("every notification arrives");
    // Both workers keep running a while: any second send would show up now.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let mut notified: BTreeMap<i64, usize> = BTreeMap::new();
    for mail in contact_mails() {
        let body = mail.body();
        let id = sent
            .keys()
            .find(|id| body.contains(&format!("(#{id})")))
            .unwrap_or_else(|| panic!("a notification of an unknown message: {body}"));
        *notified.entry(*id).or_default() += 1;
    }
    assert_eq!(notified.len(), sent.len(), "{notified:?}");
    assert!(
        notified.values().all(|n| *n == 1),
        "sent twice: {notified:?}"
    );

    // The contact limit (5 a minute) counts across instances.
    // The messages are prepared first, so the posts fall within one minute's window.
    let mut people = Vec::new();
    for n in 0..5 {
        let app = if n % 2 == 0 { &a } else { &b };
        people.push(as_person(app, &form_with("name", json!("Busy"))).await);
    }
    for (n, person) in people.iter().enumerate() {
        let app = if n % 2 == 0 { &a } else { &b };
        let response = post_as(app, "203.0.113.7", "/api/contact", person).await;
        assert_eq!(response.status(), 201);
    }
    let sixth = post_as(
        &b,
        "203.0.113.7",
        "/api/contact",
        &form_with("name", json!("Busy")),
    )
    .await;
    assert_eq!(sixth.status(), 429, "{:?}", sixth.text().await);

    // Failed sign-ins split across both lock the account on both.
    let wrong = json!({ "email": EMAIL, "password": "not the password at all" });
    for n in 0..5 {
        let app = if n % 2 == 0 { &a } else { &b };
        let response = post_as(app, &format!("192.0.2.{n}"), "/api/session", &wrong).await;
        assert_eq!(response.status(), 401, "failure {n}");
    }
    let right = json!({ "email": EMAIL, "password": PASSWORD });
    for app in [&a, &b] {
        let response = post_as(app, "192.0.2.200", "/api/session", &right).await;
        assert_eq!(response.status(), 429);
    }

    a.shutdown().await;
    b.shutdown().await;
}

/// The contact counts of windows that have ended are forgotten off the request's path, skipping
/// the rows another transaction holds: a submission never waits on them. (Every submission used
/// to delete the ended windows in its own transaction, and under a burst from many clients they
/// queued on each other's row locks.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ended_contact_counts_are_forgotten_without_a_submission_waiting_on_them() {
    let Some(url) = postgres_only_database().await else {
        return;
    };
    let app = Spawn::new().database(url).await;
    let row = |key: &'static str| {
        sqlx::query(
            "INSERT INTO contact_rate_limits (key, window_ms, window_start, hits) \
             VALUES ($1, 60000, 0, 3)",
        )
        .bind(key)
    };
    row("ended").execute(&app.sql).await.unwrap();
    row("ended, held").execute(&app.sql).await.unwrap();
    // Another transaction (another instance's submission, say) holds one ended row.
    let mut held = app.sql.begin().await.unwrap();
    sqlx::query("SELECT hits FROM contact_rate_limits WHERE key = 'ended, held' FOR UPDATE")
        .fetch_all(&mut *held)
        .await
        .unwrap();

    let body = as_person(&app, &crate::contact::valid_form()).await;
    let answered = tokio::time::timeout(
        Duration::from_secs(20),
        app.post_json("/api/contact", &body),
    )
    .await
    .expect("the submission is answered while an ended count is held elsewhere");
    assert_eq!(answered.status(), 201);

    let remaining = || async {
        sqlx::query_scalar::<_, String>("SELECT key FROM contact_rate_limits ORDER BY key")
            .fetch_all(&app.sql)
            .await
            .unwrap()
    };
    let deadline = std::time::Instant::now() + PATIENCE;
    while remaining().await.contains(&"ended".to_owned()) {
        assert!(
            std::time::Instant::now() < deadline,
            "the ended count is never forgotten"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let keys = remaining().await;
    assert!(
        keys.contains(&"ended, held".to_owned()),
        "a held row is skipped, left for the next purge: {keys:?}"
    );
    assert!(
        keys.iter().any(|key| !key.starts_with("ended")),
        "the submitter's own count is kept: {keys:?}"
    );
    held.rollback().await.unwrap();
    app.shutdown().await;
}
