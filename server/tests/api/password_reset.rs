//! A way back in: "Forgot password?" e-mails a single-use link (at a local SMTP server here) built
//! from the public URL; the same answer for any address; the link works once, expires, asks for a
//! code when the second factor is on, never signs in, and ends every session.

use std::time::Duration;

use portfolio::config::Settings;
use reqwest::Method;
use serde_json::{json, Value};

use crate::contact_smtp::{ReceivedMail, TestSmtp};
use crate::delivery::mail_to;
use crate::helpers::{spawn_app, spawn_app_with, Serve, TestApp, PATIENCE};
use crate::helpers::{EMAIL, PASSWORD};

const PUBLIC_URL: &str = "http://portfolio.test";
const NEW_PASSWORD: &str = "quiet-meadow-compass-77";
const RESET_SUBJECT: &str = "Reset your portfolio's password";

fn with_mail(smtp: &TestSmtp) -> impl FnOnce(&mut Settings) + '_ {
    move |s: &mut Settings| {
        mail_to(s, smtp.url());
        s.public_url = Some(PUBLIC_URL.parse().unwrap());
    }
}

/// The reset e-mails received so far.
fn reset_mails(smtp: &TestSmtp) -> Vec<ReceivedMail> {
    smtp.received()
        .into_iter()
        .filter(|m| m.header("Subject").as_deref() == Some(RESET_SUBJECT))
        .collect()
}

/// Waits for the `n`th reset e-mail and returns the token of its link.
async fn nth_reset_token(smtp: &TestSmtp, n: usize) -> String {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        let mails = reset_mails(smtp);
        if mails.len() >= n {
            let body = mails[n - 1].body().replace("=\r\n", "");
            let start = body
                .find(&format!("{PUBLIC_URL}/login/reset#"))
                .unwrap_or_else(|| panic!("the link in {body}"));
            let link = body[start..].split_whitespace().next().unwrap();
            return link.split_once('#').unwrap().1.to_owned();
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no reset e-mail #{n}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn the_page_learns_whether_a_link_can_be_emailed() {
    let app = spawn_app().await;
    let methods: Value = app.get("/api/session/methods").await.json().await.unwrap();
    assert_eq!(methods, json!({ "passkeys": true, "emailReset": false }));
    app.shutdown().await;

    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(with_mail(&smtp)).await;
    let methods: Value = app.get("/api/session/methods").await.json().await.unwrap();
    assert_eq!(methods, json!({ "passkeys": true, "emailReset": true }));
    app.shutdown().await;

    // E-mail without a public URL: no link can be built.
    let app = spawn_app_with(|s| mail_to(s, smtp.url())).await;
    let methods: Value = app.get("/api/session/methods").await.json().await.unwrap();
    assert_eq!(methods["emailReset"], false);
    app.shutdown().await;
}

#[tokio::test]
async fn the_owners_address_gets_a_link_and_any_other_the_same_answer_and_no_email() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(with_mail(&smtp)).await;
    app.create_owner(EMAIL, PASSWORD).await;

    let unknown = app.forgot("someone@example.com").await;
    assert_eq!(unknown.status(), 202);
    assert_eq!(unknown.headers()["cache-control"], "no-store");
    let unknown_body = unknown.text().await.unwrap();
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(smtp.received().is_empty(), "no e-mail for another address");

    let owner = app.forgot(" Owner@Example.com ").await;
    assert_eq!(owner.status(), 202);
    assert_eq!(owner.text().await.unwrap(), unknown_body, "the same answer");
    let token = nth_reset_token(&smtp, 1).await;
    assert!(token.len() >= 43, "256 bits: {token}");
    let mail = &reset_mails(&smtp)[0];
    assert_eq!(mail.to, ["owner@example.com"]);
    // Only the token's hash is stored, and the link nowhere.
    let stored: String = sqlx::query_scalar("SELECT token_hash FROM password_resets")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_ne!(stored, token);
    let outbox: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM notification_outbox")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(outbox, 0, "the link is never stored");
    app.shutdown().await;
}

#[tokio::test]
async fn the_link_sets_the_password_once_ends_every_session_and_never_signs_in() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(with_mail(&smtp)).await;
    app.signed_in().await;
    let other = TestApp::other_client();
    assert_eq!(app.sign_in_with(&other).await.status(), 200);

    assert_eq!(app.forgot(EMAIL).await.status(), 202);
    let token = nth_reset_token(&smtp, 1).await;

    // A weak password is refused and leaves the link working.
    let weak = app.reset(&token, "password1234", None).await;
    assert_eq!(weak.status(), 422);
    let body: Value = weak.json().await.unwrap();
    assert!(body["error"]["fields"]["password"].is_string(), "{body}");

    let done = app.reset(&token, NEW_PASSWORD, None).await;
    assert_eq!(done.status(), 204);
    let cookies: Vec<String> = done
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect();
    assert!(
        cookies.iter().all(|c| c.contains("Max-Age=0")),
        "never signs in: {cookies:?}"
    );
    assert_eq!(app.sessions_in_db().await, 0, "every session ended");
    assert_eq!(app.get("/api/session").await.status(), 401);
    assert_eq!(
        app.send_with(&other, Method::GET, "/api/session", None)
            .await
            .status(),
        401
    );

    // Works once.
    let again = app.reset(&token, "another-fine-passphrase-9", None).await;
    assert_eq!(again.status(), 422);
    let body: Value = again.json().await.unwrap();
    assert_eq!(
        body["error"]["fields"]["token"],
        "has expired or was used; ask for a new link"
    );

    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 401);
    assert_eq!(app.sign_in(EMAIL, NEW_PASSWORD).await.status(), 200);
    let mails = smtp.wait_for(2, PATIENCE).await;
    let deadline = tokio::time::Instant::now() + PATIENCE;
    while !smtp
        .received()
        .iter()
        .any(|m| m.header("Subject").as_deref() == Some("Your portfolio's password was reset"))
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the notice: {mails:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    app.shutdown().await;
}

#[tokio::test]
async fn a_link_expires_after_half_an_hour_and_a_new_one_voids_the_old() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(with_mail(&smtp)).await;
    app.create_owner(EMAIL, PASSWORD).await;

    assert_eq!(app.forgot(EMAIL).await.status(), 202);
    let first = nth_reset_token(&smtp, 1).await;
    // Asked again within five minutes: no second e-mail.
    assert_eq!(app.forgot(EMAIL).await.status(), 202);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(reset_mails(&smtp).len(), 1);

    // Five minutes on, a new link, and the first stops working.
    app.advance(5 * 60);
    assert_eq!(app.forgot(EMAIL).await.status(), 202);
    let second = nth_reset_token(&smtp, 2).await;
    assert_ne!(first, second);
    assert_eq!(app.reset(&first, NEW_PASSWORD, None).await.status(), 422);

    // Thirty minutes after it was sent, the second has expired too.
    app.advance(30 * 60 + 1);
    let late = app.reset(&second, NEW_PASSWORD, None).await;
    assert_eq!(late.status(), 422);
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);
    app.shutdown().await;
}

#[tokio::test]
async fn with_the_second_factor_on_the_link_asks_for_a_code() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(with_mail(&smtp)).await;
    app.signed_in().await;
    let (uri, recovery) = app.turn_second_factor_on(&app.client).await;

    assert_eq!(app.forgot(EMAIL).await.status(), 202);
    let token = nth_reset_token(&smtp, 1).await;

    let missing = app.reset(&token, NEW_PASSWORD, None).await;
    assert_eq!(missing.status(), 422);
    let body: Value = missing.json().await.unwrap();
    assert_eq!(body["error"]["fields"]["code"], "is required");
    let wrong_code = if app.code_now(&uri) == "111111" {
        "222222"
    } else {
        "111111"
    };
    let wrong = app.reset(&token, NEW_PASSWORD, Some(wrong_code)).await;
    assert_eq!(wrong.status(), 422);
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(
        body["error"]["fields"]["code"],
        "That code didn't match. Codes change every 30 seconds."
    );

    // A recovery code does; the second factor stays on.
    let done = app.reset(&token, NEW_PASSWORD, Some(&recovery[3])).await;
    assert_eq!(done.status(), 204);
    let browser = TestApp::other_client();
    let pending = app
        .send_with(
            &browser,
            Method::POST,
            "/api/session",
            Some(&json!({ "email": EMAIL, "password": NEW_PASSWORD })),
        )
        .await;
    assert_eq!(pending.status(), 202, "the second factor is still on");
    assert_eq!(
        app.send_code(&browser, &app.code_now(&uri)).await.status(),
        200
    );
    app.shutdown().await;
}

#[tokio::test]
async fn without_email_nothing_is_sent_and_the_answer_is_the_same() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    let response = app.forgot(EMAIL).await;
    assert_eq!(response.status(), 202);
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM password_resets")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(rows, 0);
    let empty = app.forgot("").await;
    assert_eq!(empty.status(), 422);
    app.shutdown().await;
}

/// The resident memory of process `pid`, in MB.
fn rss_mb(pid: u32) -> f64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap();
    let kb: f64 = status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|rest| rest.split_whitespace().next())
        .and_then(|kb| kb.parse().ok())
        .expect("VmRSS in /proc/<pid>/status");
    kb / 1024.0
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_forgot_passwords_leaves_the_server_ready_and_the_owner_one_email() {
    use futures_util::StreamExt;
    use std::time::Instant;

    let smtp = TestSmtp::start().await;
    let data = tempfile::tempdir().unwrap();
    let database_url = crate::helpers::fresh_database_url(data.path()).await;
    let smtp_url = smtp.url();
    // A server of its own (its memory and metrics are its own), behind a proxy on loopback.
    let served = Serve::new()
        .database(&database_url)
        .args(["--spam-min-fill-ms", "0"])
        .args([
            "--trust-proxy",
            "--public-url",
            PUBLIC_URL,
            "--smtp-url",
            &smtp_url,
            "--notify-email",
            EMAIL,
            "--metrics-listen",
            "127.0.0.1:0",
            "--log-format",
            "json",
        ])
        .test_key()
        .env("PORTFOLIO_OWNER_EMAIL", EMAIL)
        .env("PORTFOLIO_OWNER_PASSWORD", PASSWORD)
        .start();
    let url = served.url.clone();
    let client = reqwest::Client::new();
    let forgot = |email: String, from: String| {
        client
            .post(format!("{url}/api/session/forgot"))
            .header("Origin", &url)
            .header("Sec-Fetch-Site", "same-origin")
            .header("X-Forwarded-For", from)
            .json(&json!({ "email": email }))
            .send()
    };
    let ready = || async {
        client
            .get(format!("{url}/readyz"))
            .send()
            .await
            .unwrap()
            .status()
    };
    assert_eq!(ready().await, 200);
    // The owner asks first, from a network of their own.
    let asked = forgot(EMAIL.to_owned(), "192.0.2.1".to_owned())
        .await
        .unwrap();
    assert_eq!(asked.status(), 202);
    nth_reset_token(&smtp, 1).await;
    let before = rss_mb(served.child.id());

    // 4,000 requests, 64 at once: half from one client, half from 1,000 networks (IPv4
    // addresses and IPv6 /64s), for unknown addresses and for the owner's.
    let flood = futures_util::stream::iter(0..4_000u32)
        .map(|n| {
            let from = match n % 4 {
                0 | 1 => "203.0.113.7".to_owned(),
                2 => format!("198.18.{}.{}", n / 250 % 250, n % 250 + 1),
                _ => format!("2001:db8:{:x}:{:x}::1", n / 65_536, n % 65_536),
            };
            let email = if n % 10 == 0 {
                EMAIL.to_owned()
            } else {
                format!("someone-{n}@example.com")
            };
            let sent = forgot(email, from);
            async move { sent.await.unwrap().status().as_u16() }
        })
        .buffer_unordered(64)
        .collect::<Vec<u16>>();
    // Meanwhile: the server stays ready, and the owner signs in.
    let during = async {
        tokio::time::sleep(Duration::from_millis(300)).await;
        let readiness = ready().await;
        let started = Instant::now();
        let signed_in = client
            .post(format!("{url}/api/session"))
            .header("Origin", &url)
            .header("Sec-Fetch-Site", "same-origin")
            .json(&json!({ "email": EMAIL, "password": PASSWORD }))
            .send()
            .await
            .unwrap()
            .status();
        (readiness, signed_in, started.elapsed())
    };
    let (statuses, (readiness, signed_in, sign_in_took)) = tokio::join!(flood, during);
    assert_eq!(readiness, 200, "ready during the flood");
    assert_eq!(signed_in, 200);
    // A generous bound: unbounded work once kept sign-ins unanswered for good; how fast they
    // are under a flood is for `make bench` to measure.
    assert!(
        sign_in_took < Duration::from_secs(30),
        "a sign-in during the flood took {sign_in_took:?}"
    );
    assert!(
        statuses.iter().all(|s| *s == 202 || *s == 429),
        "202 or 429 only"
    );
    let limited = statuses.iter().filter(|s| **s == 429).count();
    assert!(limited > 3_000, "{limited} refused");

    assert_eq!(ready().await, 200, "ready after the flood");
    let after = rss_mb(served.child.id());
    eprintln!(
        "4,000 requests: {limited} refused; RSS {before:.1} -> {after:.1} MB; \
         a sign-in during the flood took {sign_in_took:?}"
    );
    assert!(
        after - before < 30.0,
        "memory grew from {before:.0} to {after:.0} MB"
    );
    // The refusals are counted.
    let metrics = client
        .get(served.metrics.clone().unwrap())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert_eq!(
        crate::ops::sample(&metrics, "password_reset_requests_limited_total"),
        limited as f64,
        "{metrics}"
    );
    // The workers had little to do, and the owner got one e-mail, not one per request.
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(reset_mails(&smtp).len(), 1);
}
