//! Delivery the owner can see: each message's notification status, the "keeps failing" signal,
//! "Retry now", test e-mails through the real outbox, the retry base as a setting, and webhooks
//! (signed, once each, retried while the receiver fails, once across two instances).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use hmac::{Hmac, Mac};
use portfolio::config::Settings;
use reqwest::Method;
use serde_json::{json, Value};
use sha2::Sha256;

use crate::contact::{as_person_at, form_with, post_contact, valid_form};
use crate::contact_smtp::{smtp_url, TestSmtp};
use crate::helpers::{eventually, postgres_only_database, spawn_app_with, Serve, Spawn, PATIENCE};

const OWNER: &str = "owner@example.com";
const SECRET: &str = "a-webhook-secret-for-tests";

/// A local port on which nothing listens (yet).
fn closed_port() -> u16 {
    let probe = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    probe.local_addr().unwrap().port()
}

pub fn mail_to(s: &mut Settings, url: String) {
    s.mail.smtp_url = Some(url.into());
    s.mail.notify_email = Some(OWNER.to_owned());
}

async fn id_of(response: reqwest::Response) -> i64 {
    assert_eq!(response.status(), 201);
    response.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap()
}

#[tokio::test]
async fn each_message_shows_retrying_with_the_error_then_sent_after_retry_now() {
    let port = closed_port();
    // A base of an hour: without "Retry now" the second attempt would not come during the test.
    let app = spawn_app_with(|s| {
        mail_to(s, smtp_url(port));
        s.delivery.notify_retry_base = Duration::from_secs(3600);
    })
    .await;
    app.signed_in().await;

    let real = id_of(post_contact(&app, &valid_form()).await).await;
    let spam = id_of(post_contact(&app, &form_with("website", json!("x"))).await).await;

    let retrying = eventually("the first attempt fails", || async {
        let status = app.delivery_of(real).await;
        (status["status"] == "retrying").then_some(status)
    })
    .await;
    let email = &retrying["deliveries"][0];
    assert_eq!(email["channel"], "email");
    assert_eq!(email["attempts"], 1);
    let error = email["lastError"].as_str().unwrap();
    assert!(
        error.starts_with("the mail server could not be reached"),
        "{error}"
    );
    let next = email["nextAttemptAt"].as_i64().unwrap();
    let in_an_hour = portfolio::clock::now_ms() + 3_500_000;
    assert!(next > in_an_hour, "the next try follows the base: {next}");

    // The spam was never going to notify anyone.
    let not_requested = app.delivery_of(spam).await;
    assert_eq!(not_requested["status"], "not_requested");
    assert_eq!(not_requested["deliveries"], json!([]));

    let health = app.delivery_health().await;
    assert_eq!(health["pending"], 1);
    assert_eq!(health["failing"], 1);
    assert_eq!(health["alert"], false, "one failure is no alarm yet");
    assert!(health["lastError"]
        .as_str()
        .unwrap()
        .contains("mail server"));

    // The SMTP server comes back; "Retry now" makes the notification due at once.
    let smtp = TestSmtp::start_on(port).await;
    let id = email["id"].as_i64().unwrap();
    let retried = app
        .send(
            Method::POST,
            &format!("/api/notifications/{id}/retry"),
            None,
        )
        .await;
    assert_eq!(retried.status(), 202);
    let mails = smtp.wait_for(1, PATIENCE).await;
    assert!(mails[0].header("Subject").unwrap().contains("A project"));
    let sent = eventually("the row is marked sent", || async {
        let status = app.delivery_of(real).await;
        (status["status"] == "sent").then_some(status)
    })
    .await;
    assert_eq!(sent["deliveries"][0]["lastError"], Value::Null);
    assert!(sent["deliveries"][0]["sentAt"].is_i64());
    assert_eq!(app.delivery_health().await["pending"], 0);

    // A sent notification cannot be retried; an unknown one is not found.
    let again = app
        .send(
            Method::POST,
            &format!("/api/notifications/{id}/retry"),
            None,
        )
        .await;
    assert_eq!(again.status(), 409);
    assert_eq!(
        again.json::<Value>().await.unwrap()["error"]["code"],
        "conflict"
    );
    let missing = app
        .send(Method::POST, "/api/notifications/999999/retry", None)
        .await;
    assert_eq!(missing.status(), 404);
    app.shutdown().await;
}

#[tokio::test]
async fn the_retry_base_is_a_setting_and_repeated_failures_raise_the_alert() {
    let port = closed_port();
    let app = spawn_app_with(|s| {
        mail_to(s, smtp_url(port));
        s.delivery.notify_retry_base = Duration::from_millis(50);
    })
    .await;
    app.signed_in().await;
    let id = id_of(post_contact(&app, &valid_form()).await).await;

    // 50, 100, 200, 400 ms: five attempts well within two seconds (with the default base of one
    // second the fifth would come after fifteen).
    let health = eventually("notifications keep failing", || async {
        let health = app.delivery_health().await;
        (health["alert"] == true).then_some(health)
    })
    .await;
    assert!(health["maxAttempts"].as_i64().unwrap() >= 5, "{health}");
    assert_eq!(health["failing"], 1);
    assert_eq!(health["notificationsOn"], true);
    assert_eq!(app.delivery_of(id).await["status"], "retrying");

    let smtp = TestSmtp::start_on(port).await;
    smtp.wait_for(1, PATIENCE).await;
    eventually("the alert ends", || async {
        let health = app.delivery_health().await;
        (health["alert"] == false && health["pending"] == 0).then_some(())
    })
    .await;
    app.shutdown().await;
}

#[tokio::test]
async fn a_test_email_goes_through_the_outbox_and_reports_success() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(|s| mail_to(s, smtp.url())).await;
    app.signed_in().await;

    let queued = app
        .send(Method::POST, "/api/notifications/test", None)
        .await;
    assert_eq!(queued.status(), 202);
    let queued: Value = queued.json().await.unwrap();
    assert_eq!(queued["kind"], "test");
    assert_eq!(queued["messageId"], Value::Null);
    let id = queued["id"].as_i64().unwrap();

    // (Signing in from a new browser sent the owner a notice too.)
    let mail = eventually("the test e-mail arrives", || async {
        smtp.received().into_iter().find(|m| {
            m.header("Subject")
                .is_some_and(|s| s.contains("Test e-mail"))
        })
    })
    .await;
    assert_eq!(mail.to, [OWNER]);
    assert!(mail
        .body()
        .contains("notifications of new messages will arrive"));
    eventually("the test e-mail is marked sent", || async {
        (app.notification(id).await["status"] == "sent").then_some(())
    })
    .await;
    // A test e-mail is not a message's notification: it never counts as pending.
    assert_eq!(app.delivery_health().await["pending"], 0);
    app.shutdown().await;
}

#[tokio::test]
async fn a_failing_test_email_reports_the_error_and_is_not_retried() {
    let port = closed_port();
    let app = spawn_app_with(|s| {
        mail_to(s, smtp_url(port));
        s.delivery.notify_retry_base = Duration::from_millis(50);
    })
    .await;
    app.signed_in().await;
    let queued = app
        .send(Method::POST, "/api/notifications/test", None)
        .await;
    assert_eq!(queued.status(), 202);
    let id = queued.json::<Value>().await.unwrap()["id"]
        .as_i64()
        .unwrap();

    let failed = eventually("the test e-mail fails", || async {
        let row = app.notification(id).await;
        (row["status"] == "failed").then_some(row)
    })
    .await;
    assert!(failed["lastError"]
        .as_str()
        .unwrap()
        .contains("mail server could not be reached"));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(app.notification(id).await["attempts"], 1, "tried once only");
    assert_eq!(app.delivery_health().await["failing"], 0);
    let retry = app
        .send(
            Method::POST,
            &format!("/api/notifications/{id}/retry"),
            None,
        )
        .await;
    assert_eq!(retry.status(), 409);
    app.shutdown().await;
}

#[tokio::test]
async fn without_e_mail_a_test_is_refused_and_messages_show_not_requested() {
    let app = crate::helpers::spawn_app().await;
    app.signed_in().await;
    let refused = app
        .send(Method::POST, "/api/notifications/test", None)
        .await;
    assert_eq!(refused.status(), 409);
    let body: Value = refused.json().await.unwrap();
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("--smtp-url"));
    let id = id_of(post_contact(&app, &valid_form()).await).await;
    assert_eq!(app.delivery_of(id).await["status"], "not_requested");
    let health = app.delivery_health().await;
    assert_eq!(health["notificationsOn"], false);
    assert_eq!(health["emailOn"], false);
    app.shutdown().await;
}

#[tokio::test]
async fn bad_input_is_a_json_error_naming_the_field_and_a_session_is_needed() {
    let app = crate::helpers::spawn_app().await;
    for path in [
        "/api/notifications/status?messageIds=1",
        "/api/notifications/health",
        "/api/notifications/1",
    ] {
        assert_eq!(app.get(path).await.status(), 401, "{path}");
    }
    let anonymous = app
        .send(Method::POST, "/api/notifications/test", None)
        .await;
    assert_eq!(anonymous.status(), 401);

    app.signed_in().await;
    for (path, field) in [
        ("/api/notifications/status", "messageIds"),
        ("/api/notifications/status?messageIds=", "messageIds"),
        ("/api/notifications/status?messageIds=1,x", "messageIds"),
        ("/api/notifications/status?messageIds=-1", "messageIds"),
        ("/api/notifications/status?messageIds=1&other=2", "other"),
        ("/api/notifications/abc", "id"),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 422, "{path}");
        let body: Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "validation_failed", "{path}");
        assert!(body["error"]["fields"][field].is_string(), "{path}: {body}");
    }
    let many = (1..=101)
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",");
    let response = app
        .get(&format!("/api/notifications/status?messageIds={many}"))
        .await;
    assert_eq!(response.status(), 422);
    assert_eq!(app.get("/api/notifications/424242").await.status(), 404);

    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    for path in [
        "/api/notifications/status",
        "/api/notifications/health",
        "/api/notifications/test",
        "/api/notifications/{id}",
        "/api/notifications/{id}/retry",
    ] {
        assert!(doc["paths"][path].is_object(), "{path} is documented");
    }
    app.shutdown().await;
}

/// The posts a receiver got: the signature header and the body of each.
type Posts = Arc<Mutex<Vec<(String, Vec<u8>)>>>;

/// A local webhook receiver: keeps every post and answers with the status it is told.
pub struct Receiver {
    pub url: String,
    posts: Posts,
    status: Arc<std::sync::atomic::AtomicU16>,
    task: tokio::task::JoinHandle<()>,
}

impl Receiver {
    pub async fn start() -> Self {
        use axum::http::HeaderMap;
        let posts: Posts = Arc::default();
        let status = Arc::new(std::sync::atomic::AtomicU16::new(200));
        let app = axum::Router::new().route(
            "/hook/{token}",
            axum::routing::post({
                let posts = posts.clone();
                let status = status.clone();
                move |headers: HeaderMap, body: axum::body::Bytes| async move {
                    let signature = headers
                        .get("x-portfolio-signature")
                        .and_then(|v| v.to_str().ok())
                        .unwrap_or_default()
                        .to_owned();
                    posts.lock().unwrap().push((signature, body.to_vec()));
                    axum::http::StatusCode::from_u16(
                        status.load(std::sync::atomic::Ordering::SeqCst),
                    )
                    .unwrap()
                }
            }),
        );
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!(
            "http://{}/hook/t0ken-in-the-url",
            listener.local_addr().unwrap()
        );
        let task = tokio::spawn(async move {
            axum::serve(listener, app).await.unwrap();
        });
        Self {
            url,
            posts,
            status,
            task,
        }
    }

    fn answer(&self, status: u16) {
        self.status
            .store(status, std::sync::atomic::Ordering::SeqCst);
    }

    pub fn posts(&self) -> Vec<(String, Vec<u8>)> {
        self.posts.lock().unwrap().clone()
    }

    /// The bodies that came with a valid signature, as JSON; panics on a bad one.
    pub fn verified_bodies(&self) -> Vec<Value> {
        self.posts()
            .iter()
            .map(|(signature, body)| {
                let (t, v1) = signature
                    .strip_prefix("t=")
                    .and_then(|rest| rest.split_once(",v1="))
                    .unwrap_or_else(|| panic!("a signature header: {signature:?}"));
                let age = portfolio::clock::now().timestamp() - t.parse::<i64>().unwrap();
                assert!((0..60).contains(&age), "a fresh timestamp: {t}");
                let mut mac = Hmac::<Sha256>::new_from_slice(SECRET.as_bytes()).unwrap();
                mac.update(format!("{t}.").as_bytes());
                mac.update(body);
                mac.verify_slice(&hex::decode(v1).unwrap())
                    .expect("the signature is valid");
                serde_json::from_slice(body).unwrap()
            })
            .collect()
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn webhook_to(s: &mut Settings, url: &str) {
    s.delivery.webhook_urls = vec![url.to_owned().into()];
    s.delivery.webhook_secret = Some(SECRET.to_owned().into());
    s.delivery.notify_retry_base = Duration::from_millis(50);
}

#[tokio::test]
async fn a_webhook_gets_each_message_once_signed_even_while_e_mail_fails() {
    let receiver = Receiver::start().await;
    let app = spawn_app_with(|s| {
        webhook_to(s, &receiver.url);
        // E-mail fails all along: the webhook does not wait for it.
        mail_to(s, smtp_url(closed_port()));
    })
    .await;
    app.signed_in().await;

    let first = id_of(post_contact(&app, &valid_form()).await).await;
    let mut form = valid_form();
    form["subject"] = json!("Second");
    let second = id_of(post_contact(&app, &form).await).await;
    id_of(post_contact(&app, &form_with("website", json!("x"))).await).await;

    eventually("both messages are posted", || async {
        (receiver.posts().len() >= 2).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let bodies = receiver.verified_bodies();
    assert_eq!(
        bodies.len(),
        2,
        "each message once, the spam never: {bodies:?}"
    );
    let mut ids: Vec<i64> = bodies.iter().map(|b| b["id"].as_i64().unwrap()).collect();
    ids.sort_unstable();
    assert_eq!(ids, [first, second]);
    let body = bodies.iter().find(|b| b["id"] == first).unwrap();
    assert_eq!(body["type"], "contact_message");
    assert_eq!(body["name"], "Ada Lovelace");
    assert_eq!(body["email"], "ada@example.com");
    assert_eq!(body["subject"], "A project");
    assert!(body["createdAt"].as_str().unwrap().ends_with('Z'));

    // Each message has one row per channel: the webhook sent, the e-mail retrying.
    let status = app.delivery_of(first).await;
    assert_eq!(status["status"], "retrying");
    let channels: Vec<(&str, &str)> = status["deliveries"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["channel"].as_str().unwrap(),
                d["status"].as_str().unwrap(),
            )
        })
        .collect();
    assert!(channels.contains(&("webhook", "sent")), "{channels:?}");
    assert!(channels.contains(&("email", "retrying")), "{channels:?}");

    // The URL's token is stored nowhere.
    let stored: Vec<(String,)> = sqlx::query_as("SELECT channel FROM notification_outbox")
        .fetch_all(&app.sql)
        .await
        .unwrap();
    assert!(stored.iter().all(|(c,)| !c.contains("t0ken")), "{stored:?}");
    app.shutdown().await;
}

#[tokio::test]
async fn while_the_webhook_answers_500_the_outbox_retries() {
    let receiver = Receiver::start().await;
    receiver.answer(500);
    let app = spawn_app_with(|s| webhook_to(s, &receiver.url)).await;
    app.signed_in().await;
    let id = id_of(post_contact(&app, &valid_form()).await).await;

    eventually("the receiver is tried three times", || async {
        (receiver.posts().len() >= 3).then_some(())
    })
    .await;
    let status = app.delivery_of(id).await;
    assert_eq!(status["status"], "retrying");
    let error = status["deliveries"][0]["lastError"].as_str().unwrap();
    assert!(error.contains("500"), "{error}");
    assert!(!error.contains("t0ken"), "{error}");

    receiver.answer(204);
    eventually("the retry succeeds", || async {
        (app.delivery_of(id).await["status"] == "sent").then_some(())
    })
    .await;
    let tried = receiver.posts().len();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(receiver.posts().len(), tried, "nothing after the success");
    // Every try carried the same message, each validly signed.
    assert!(receiver.verified_bodies().iter().all(|b| b["id"] == id));
    app.shutdown().await;
}

#[tokio::test]
async fn webhook_settings_that_cannot_work_stop_start_up() {
    let error = Spawn::new()
        .settings(|s| {
            s.delivery.webhook_urls = vec!["https://hooks.example.com/t0ken".to_owned().into()];
        })
        .refused()
        .await;
    assert!(error.to_string().starts_with("webhook-secret"), "{error}");
    assert!(!error.to_string().contains("t0ken"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn two_instances_post_each_webhook_once() {
    let Some(url) = postgres_only_database().await else {
        return;
    };
    let receiver = Receiver::start().await;
    let configure = |s: &mut Settings| {
        webhook_to(s, &receiver.url);
        s.trust_proxy = true;
    };
    let a = Spawn::new().database(url.clone()).settings(configure).await;
    let b = Spawn::new().database(url.clone()).settings(configure).await;

    let mut ids = Vec::new();
    for i in 0..20 {
        let app = if i % 2 == 0 { &a } else { &b };
        let response = reqwest::Client::new()
            .post(app.url("/api/contact"))
            .header("Origin", &app.address)
            .header("Sec-Fetch-Site", "same-origin")
            .header("X-Forwarded-For", format!("203.0.113.{i}"))
            .json(
                &as_person_at(
                    &app.address,
                    &form_with("subject", json!(format!("Message {i}"))),
                )
                .await,
            )
            .send()
            .await
            .unwrap();
        ids.push(id_of(response).await);
    }
    eventually("every message is posted", || async {
        (receiver.posts().len() >= ids.len()).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    let mut posted: Vec<i64> = receiver
        .verified_bodies()
        .iter()
        .map(|b| b["id"].as_i64().unwrap())
        .collect();
    posted.sort_unstable();
    ids.sort_unstable();
    assert_eq!(posted, ids, "each message exactly once");
    a.shutdown().await;
    b.shutdown().await;
}

#[tokio::test]
async fn webhook_urls_and_the_secret_never_reach_the_logs() {
    let receiver = Receiver::start().await;
    receiver.answer(500);
    let dir = tempfile::tempdir().unwrap();
    let mut server = Serve::new()
        .arg("--trust-proxy")
        .args(["--spam-min-fill-ms", "0"])
        .args([
            "--notify-retry-base",
            "50ms",
            "--webhook-url",
            &receiver.url,
        ])
        .env(
            "PORTFOLIO_DATABASE_URL",
            format!("sqlite://{}", dir.path().join("t.db").display()),
        )
        .env("PORTFOLIO_WEBHOOK_SECRET", SECRET)
        .env("RUST_LOG", "debug")
        .start();
    let address = server.url.clone();
    let response = reqwest::Client::new()
        .post(format!("{address}/api/contact"))
        .header("Origin", &address)
        .header("Sec-Fetch-Site", "same-origin")
        .json(&as_person_at(&address, &valid_form()).await)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    eventually("the webhook fails a few times", || async {
        (receiver.posts().len() >= 3).then_some(())
    })
    .await;
    server.kill();
    let output = server.lines().join("\n");
    assert!(output.contains("will retry"), "the failures are logged");
    assert!(
        !output.contains("t0ken"),
        "no webhook URL token in the logs"
    );
    assert!(!output.contains(SECRET), "no webhook secret in the logs");
}

#[tokio::test]
async fn hostile_text_reaches_slack_and_discord_escaped() {
    let slack = Receiver::start().await;
    let discord = Receiver::start().await;
    // The fragment makes a local receiver get Slack's or Discord's body.
    let app = spawn_app_with(|s| {
        webhook_to(s, &slack.url);
        s.delivery.webhook_urls = vec![
            format!("{}#slack", slack.url).into(),
            format!("{}#discord", discord.url).into(),
        ];
    })
    .await;
    let mut form = valid_form();
    form["name"] = json!("<!channel> Ada");
    form["subject"] = json!("<!everyone> **urgent**");
    form["message"] = json!(
        "Your account is locked. <https://evil.example/login|Reset your password> or \
         [Reset your password](https://evil.example/login) @everyone"
    );
    id_of(post_contact(&app, &form).await).await;
    eventually("both receivers got the message", || async {
        (!slack.posts().is_empty() && !discord.posts().is_empty()).then_some(())
    })
    .await;

    let text = slack.verified_bodies()[0]["text"]
        .as_str()
        .unwrap()
        .to_owned();
    assert!(
        text.starts_with("New message from &lt;!channel&gt; Ada (ada@example.com)\n"),
        "{text}"
    );
    assert!(
        text.contains("Subject: &lt;!everyone&gt; **urgent**"),
        "{text}"
    );
    assert!(
        text.contains("&lt;https://evil.example/login|Reset your password&gt;"),
        "{text}"
    );
    // Slack's markup starts with `<`: none is left but as an entity.
    assert!(!text.contains('<') && !text.contains('>'), "{text}");

    let body = &discord.verified_bodies()[0];
    assert_eq!(body["allowed_mentions"], json!({ "parse": [] }));
    let content = body["content"].as_str().unwrap();
    assert!(
        content.contains(r"\[Reset your password\]\(https\://evil.example/login\)"),
        "{content}"
    );
    assert!(content.contains(r"\@everyone"), "{content}");
    assert!(content.contains(r"\*\*urgent\*\*"), "{content}");
    assert!(!content.contains("](http"), "{content}");
    app.shutdown().await;
}
