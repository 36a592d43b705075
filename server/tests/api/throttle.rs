//! The sign-in throttle under attack: parallel guesses, a lock-out by someone else, the owner's
//! known browser, security e-mails, and keys kept in the database.

use std::time::Duration;

use futures_util::future::join_all;
use serde_json::json;

use crate::contact_smtp::TestSmtp;
use crate::helpers::{fresh_database_url, spawn_app, spawn_app_with, Spawn, TestApp, PATIENCE};
use crate::helpers::{EMAIL, PASSWORD};

fn new_browser() -> reqwest::Client {
    TestApp::other_client()
}

async fn sign_in_with(app: &TestApp, client: &reqwest::Client, secret: &str) -> reqwest::Response {
    app.send_with(
        client,
        reqwest::Method::POST,
        "/api/session",
        Some(&json!({ "email": EMAIL, "password": secret })),
    )
    .await
}

fn device_cookie(response: &reqwest::Response) -> Option<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.starts_with("portfolio_device="))
        .map(|c| c.split(';').next().unwrap().to_owned())
}

/// Five wrong passwords from a browser that never signed in: the account is locked.
async fn lock_the_account(app: &TestApp) {
    let attacker = new_browser();
    for n in 0..5 {
        let response = sign_in_with(app, &attacker, &format!("guess number {n}")).await;
        assert_eq!(response.status(), 401);
    }
    assert_eq!(sign_in_with(app, &attacker, PASSWORD).await.status(), 429);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_parallel_wrong_sign_ins_reach_the_password_check_at_most_five_times() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    let guesses = (0..20).map(|n| {
        let app = &app;
        async move {
            sign_in_with(app, &new_browser(), &format!("parallel guess {n}"))
                .await
                .status()
                .as_u16()
        }
    });
    let statuses = join_all(guesses).await;
    let checked = statuses.iter().filter(|s| **s == 401).count();
    let refused = statuses.iter().filter(|s| **s == 429 || **s == 503).count();
    assert_eq!(checked + refused, 20, "{statuses:?}");
    assert!(
        checked <= 5,
        "{checked} passwords were checked: {statuses:?}"
    );
    assert!(refused >= 15, "{statuses:?}");
    // The right password waits too, from any browser that is not known.
    assert_eq!(
        sign_in_with(&app, &new_browser(), PASSWORD).await.status(),
        429
    );
}

#[tokio::test]
async fn the_owners_known_browser_signs_in_while_someone_else_has_locked_the_account() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    let owner = new_browser();
    let first = sign_in_with(&app, &owner, PASSWORD).await;
    assert_eq!(first.status(), 200);
    let cookie = device_cookie(&first).expect("a known-device cookie");
    let set = first
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|c| c.starts_with("portfolio_device="))
        .unwrap();
    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/", "Max-Age=31536000"] {
        assert!(set.contains(attribute), "{set}");
    }

    lock_the_account(&app).await;
    // The owner's browser is judged by its own counter.
    let again = sign_in_with(&app, &owner, PASSWORD).await;
    assert_eq!(again.status(), 200);
    assert!(device_cookie(&again).is_none(), "the browser stays known");
    // A forged device cookie is an unknown browser: its last hex digit changed, always to
    // another digit (replacing it with a fixed one would forge nothing one time in sixteen).
    let last = if cookie.ends_with('0') { '1' } else { '0' };
    let forged_cookie = format!("{}{last}", &cookie[..cookie.len() - 1]);
    assert_ne!(forged_cookie, cookie);
    let forged = new_browser()
        .post(app.url("/api/session"))
        .header("Origin", &app.address)
        .header("Sec-Fetch-Site", "same-origin")
        .header("Cookie", forged_cookie)
        .json(&json!({ "email": EMAIL, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(forged.status(), 429);
    // A known browser's own wrong guesses still lock it.
    for n in 0..5 {
        assert_eq!(
            sign_in_with(&app, &owner, &format!("typo {n}"))
                .await
                .status(),
            401
        );
    }
    assert_eq!(sign_in_with(&app, &owner, PASSWORD).await.status(), 429);
}

#[tokio::test]
async fn a_known_browser_stays_known_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_database_url(dir.path()).await;
    let first = Spawn::new().database(url.clone()).await;
    first.create_owner(EMAIL, PASSWORD).await;
    let cookie = device_cookie(&sign_in_with(&first, &new_browser(), PASSWORD).await)
        .expect("a known-device cookie");
    first.shutdown().await;

    let second = Spawn::new().database(url).await;
    lock_the_account(&second).await;
    let response = new_browser()
        .post(second.url("/api/session"))
        .header("Origin", &second.address)
        .header("Sec-Fetch-Site", "same-origin")
        .header("Cookie", &cookie)
        .json(&json!({ "email": EMAIL, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    second.shutdown().await;
}

#[tokio::test]
async fn a_sign_in_from_a_new_browser_and_a_password_change_e_mail_the_owner() {
    let smtp = TestSmtp::start().await;
    let app = spawn_app_with(|s| {
        s.mail.smtp_url = Some(smtp.url().into());
        s.mail.notify_email = Some("owner@example.com".into());
    })
    .await;
    app.create_owner(EMAIL, PASSWORD).await;
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);
    let mails = smtp.wait_for(1, PATIENCE).await;
    assert_eq!(
        mails[0].header("Subject").as_deref(),
        Some("New sign-in to your portfolio")
    );

    // The same browser again: no e-mail.
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert_eq!(smtp.received().len(), 1);

    let changed = app
        .send(
            reqwest::Method::PUT,
            "/api/session/password",
            Some(&json!({ "currentPassword": PASSWORD, "newPassword": "a brand new long passphrase" })),
        )
        .await;
    assert_eq!(changed.status(), 204);
    let mails = smtp.wait_for(2, PATIENCE).await;
    assert_eq!(
        mails[1].header("Subject").as_deref(),
        Some("Your portfolio's password was changed")
    );
}

#[tokio::test]
async fn the_password_change_is_throttled_like_sign_in() {
    let app = spawn_app().await;
    app.signed_in().await;
    for n in 0..5 {
        let response = app
            .send(
                reqwest::Method::PUT,
                "/api/session/password",
                Some(&json!({ "currentPassword": format!("wrong {n}"), "newPassword": "a brand new long passphrase" })),
            )
            .await;
        assert_eq!(response.status(), 422, "attempt {n}");
    }
    let locked = app
        .send(
            reqwest::Method::PUT,
            "/api/session/password",
            Some(&json!({ "currentPassword": PASSWORD, "newPassword": "a brand new long passphrase" })),
        )
        .await;
    assert_eq!(locked.status(), 429);
    assert!(locked.headers().contains_key("retry-after"));
}
