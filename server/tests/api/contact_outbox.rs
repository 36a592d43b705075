//! Owner notifications through the outbox, delivered to an SMTP server the test starts itself.

use std::time::Duration;

use serde_json::{json, Value};

use crate::contact::{count, form_with, post_contact, valid_form};
use crate::contact_smtp::{smtp_url, TestSmtp};
use crate::helpers::{spawn_app_with, Spawn, TestApp, PATIENCE};

const OWNER: &str = "owner@example.com";

async fn app_mailing_to(smtp_url: String) -> TestApp {
    spawn_app_with(|s| {
        s.mail.smtp_url = Some(smtp_url.into());
        s.mail.notify_email = Some(OWNER.to_owned());
        s.mail.smtp_from = Some("Portfolio <portfolio@example.com>".to_owned());
    })
    .await
}

#[derive(Debug)]
struct OutboxRow {
    message_id: i64,
    attempts: i64,
    sent_at: Option<i64>,
    last_error: Option<String>,
}

impl sqlx::FromRow<'_, sqlx::any::AnyRow> for OutboxRow {
    fn from_row(row: &sqlx::any::AnyRow) -> Result<Self, sqlx::Error> {
        use sqlx::Row;
        Ok(Self {
            message_id: row.try_get("message_id")?,
            attempts: row.try_get("attempts")?,
            sent_at: row.try_get("sent_at")?,
            last_error: row.try_get("last_error")?,
        })
    }
}

async fn outbox(app: &TestApp) -> Vec<OutboxRow> {
    sqlx::query_as(
        "SELECT message_id, attempts, sent_at, last_error FROM notification_outbox ORDER BY id",
    )
    .fetch_all(&app.sql)
    .await
    .unwrap()
}

async fn id_of(response: reqwest::Response) -> i64 {
    assert_eq!(response.status(), 201);
    response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap()
}

#[tokio::test]
async fn a_message_is_mailed_to_the_owner_with_reply_to_the_visitor_and_spam_is_not() {
    let smtp = TestSmtp::start().await;
    let app = app_mailing_to(smtp.url()).await;

    let spam = id_of(post_contact(&app, &form_with("website", json!("x"))).await).await;
    let fast = id_of(post_contact(&app, &form_with("token", json!(null))).await).await;
    let mut form = valid_form();
    form["subject"] = json!("A project\r\nBcc: victim@example.com");
    let real = id_of(post_contact(&app, &form).await).await;

    let mails = smtp.wait_for(1, PATIENCE).await;
    let mail = &mails[0];
    assert_eq!(mail.to, [OWNER]);
    assert_eq!(mail.from, "portfolio@example.com");
    let reply_to = mail.header("Reply-To").expect("a Reply-To header");
    assert!(reply_to.contains("ada@example.com"), "{reply_to}");
    let subject = mail.header("Subject").unwrap();
    assert!(subject.contains("A project"), "{subject}");
    assert!(mail.header("Bcc").is_none(), "no header injection");
    assert!(
        mail.body()
            .contains("I would like to talk about a project."),
        "{}",
        mail.body()
    );

    // Only the real message was queued; the spam never reaches the owner.
    let rows = outbox(&app).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].message_id, real);
    assert!(rows
        .iter()
        .all(|r| r.message_id != spam && r.message_id != fast));
    tokio::time::timeout(PATIENCE, async {
        while outbox(&app).await[0].sent_at.is_none() {
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the outbox row is marked sent");
    tokio::time::sleep(Duration::from_millis(300)).await;
    assert_eq!(smtp.received().len(), 1, "exactly one e-mail");
    assert_eq!(count(&app.sql, "contact_messages").await, 3);

    // The worker does not hold up a graceful shutdown.
    tokio::time::timeout(Duration::from_secs(5), app.shutdown())
        .await
        .expect("the server stops promptly");
}

#[tokio::test]
async fn a_notification_is_retried_until_the_smtp_server_is_back() {
    // A port with nothing listening: connections are refused.
    let port = {
        let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        probe.local_addr().unwrap().port()
    };
    let app = app_mailing_to(smtp_url(port)).await;

    let started = std::time::Instant::now();
    let response = post_contact(&app, &valid_form()).await;
    assert_eq!(
        response.status(),
        201,
        "an SMTP outage does not fail the visitor"
    );
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "nor slow the answer"
    );
    let id = id_of(response).await;

    // Wait for the first failed attempt to be recorded.
    let failed = tokio::time::timeout(PATIENCE, async {
        loop {
            let rows = outbox(&app).await;
            if rows[0].attempts >= 1 {
                return rows;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("a first attempt is made");
    assert_eq!(failed[0].message_id, id);
    assert!(failed[0].sent_at.is_none());
    assert!(failed[0]
        .last_error
        .as_deref()
        .is_some_and(|e| !e.is_empty()));

    // Now the SMTP server comes up on that port; the backoff brings the retry.
    let smtp = TestSmtp::start_on(port).await;
    let mails = smtp.wait_for(1, PATIENCE).await;
    assert!(mails[0]
        .header("Reply-To")
        .unwrap()
        .contains("ada@example.com"));
    tokio::time::timeout(PATIENCE, async {
        loop {
            let rows = outbox(&app).await;
            if rows[0].sent_at.is_some() {
                assert!(rows[0].attempts >= 2, "{rows:?}");
                assert_eq!(rows[0].last_error, None);
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("the row is marked sent after the retry");
    app.shutdown().await;
}

#[tokio::test]
async fn smtp_settings_without_a_recipient_stop_start_up() {
    let error = Spawn::new()
        .settings(|s| s.mail.smtp_url = Some("smtp://127.0.0.1:25?tls=none".to_owned().into()))
        .refused()
        .await;
    assert!(error.to_string().contains("notify-email"), "{error}");
}
