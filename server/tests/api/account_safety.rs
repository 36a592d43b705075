//! The owner's account against a stolen session (issue 43): the second factor is set up only
//! after the password or a passkey again, and turning it on ends every other session; every
//! security notice carries a single-use link that signs every session out and nothing else; a
//! password change voids outstanding reset links; recovery ends sessions (removing a passkey ends
//! what it signed in, the command line's recovery ends them all); the password notice lists the
//! passkeys.

use std::time::Duration;

use reqwest::Method;
use serde_json::{json, Value};

use crate::contact_smtp::{ReceivedMail, TestSmtp};
use crate::delivery::mail_to;
use crate::helpers::{owner_command, spawn_app, spawn_app_with, TestApp, PATIENCE};
use crate::helpers::{EMAIL, PASSWORD};

const PUBLIC_URL: &str = "http://portfolio.test";
const NEW_PASSWORD: &str = "a-different-and-long-passphrase";

/// A server that e-mails its notices to `smtp` and builds links from [`PUBLIC_URL`].
async fn app_with_mail(smtp: &TestSmtp) -> TestApp {
    let url = smtp.url();
    spawn_app_with(move |s| {
        mail_to(s, url);
        s.public_url = Some(PUBLIC_URL.parse().unwrap());
    })
    .await
}

/// The first e-mail with this subject, waiting for it.
async fn mail_with_subject(smtp: &TestSmtp, subject: &str) -> ReceivedMail {
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        if let Some(mail) = smtp
            .received()
            .into_iter()
            .find(|m| m.header("Subject").as_deref() == Some(subject))
        {
            return mail;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "no e-mail \"{subject}\" among {:?}",
            smtp.received()
                .iter()
                .map(|m| m.header("Subject"))
                .collect::<Vec<_>>()
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// A mail's text, with quoted-printable's soft line breaks joined.
fn text_of(mail: &ReceivedMail) -> String {
    mail.body().replace("=\r\n", "").replace("\r\n", "\n")
}

/// The token of the link to `path` in a mail's text.
fn link_token(text: &str, path: &str) -> String {
    let start = text
        .find(&format!("{PUBLIC_URL}{path}#"))
        .unwrap_or_else(|| panic!("a {path} link in {text}"));
    let link = text[start..].split_whitespace().next().unwrap();
    link.split_once('#').unwrap().1.to_owned()
}

#[tokio::test]
async fn a_stolen_session_cannot_set_up_the_second_factor_without_the_password() {
    let app = spawn_app().await;
    app.signed_in().await;
    // The thief's copy of the cookie is older than five minutes.
    app.advance(6 * 60);
    for path in [
        "/api/session/second-factor/setup",
        "/api/session/second-factor/confirm",
    ] {
        let body = json!({ "code": "123456" });
        let refused = app
            .send(
                Method::POST,
                path,
                path.ends_with("confirm").then_some(&body),
            )
            .await;
        assert_eq!(refused.status(), 403, "{path}");
        let error: Value = refused.json().await.unwrap();
        assert_eq!(
            error["error"]["code"], "reauthentication_required",
            "{path}"
        );
    }
    let state: Value = app
        .send(Method::GET, "/api/session/second-factor", None)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(state["enabled"], false);

    // With the password proven again, the owner sets it up; every other session ends.
    let other = app.another_signed_in_browser().await;
    let confirmed = app
        .send(
            Method::POST,
            "/api/session/reauth",
            Some(&json!({ "password": PASSWORD })),
        )
        .await;
    assert_eq!(confirmed.status(), 204);
    let (_, codes) = app.turn_second_factor_on(&app.client).await;
    assert_eq!(codes.len(), 10);
    assert!(app.is_signed_in(&app.client).await, "this session stays");
    assert!(!app.is_signed_in(&other).await, "the others are signed out");
    app.shutdown().await;
}

#[tokio::test]
async fn a_notices_link_signs_every_session_out_once_and_changes_nothing_else() {
    let smtp = TestSmtp::start().await;
    let app = app_with_mail(&smtp).await;
    app.signed_in().await;
    // A thief signs in from a browser never seen before: the owner is told, with a way out.
    let thief = app.another_signed_in_browser().await;
    let notice = text_of(&mail_with_subject(&smtp, "New sign-in to your portfolio").await);
    assert!(notice.contains("works once, for 24 hours"), "{notice}");
    let token = link_token(&notice, "/login/sign-out");

    let used = app.sign_out_with_link(&token).await;
    assert_eq!(used.status(), 204);
    assert!(!app.is_signed_in(&thief).await);
    assert!(!app.is_signed_in(&app.client).await);
    // Nothing else changed: the password still signs in, and the link works once.
    let again = app.sign_out_with_link(&token).await;
    assert_eq!(again.status(), 422);
    let body: Value = again.json().await.unwrap();
    assert_eq!(body["error"]["fields"]["token"], "has expired or was used");
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);

    // Turning the second factor on tells the owner how to undo it, with a link of its own that
    // lapses after a day.
    app.turn_second_factor_on(&app.client).await;
    let on =
        text_of(&mail_with_subject(&smtp, "A second factor now protects your portfolio").await);
    assert!(on.contains("portfolio owner second-factor off"), "{on}");
    assert!(!on.contains("sign in, turn it off"), "{on}");
    let late = link_token(&on, "/login/sign-out");
    app.advance(24 * 60 * 60 + 60);
    assert_eq!(app.sign_out_with_link(&late).await.status(), 422);
    assert_eq!(app.sign_out_with_link("").await.status(), 422);
    app.shutdown().await;
}

#[tokio::test]
async fn a_password_change_voids_the_reset_links_asked_for_before_it() {
    let smtp = TestSmtp::start().await;
    let app = app_with_mail(&smtp).await;
    app.signed_in().await;
    let asked = app
        .post_json("/api/session/forgot", &json!({ "email": EMAIL }))
        .await;
    assert_eq!(asked.status(), 202);
    let reset = text_of(&mail_with_subject(&smtp, "Reset your portfolio's password").await);
    let token = link_token(&reset, "/login/reset");

    assert_eq!(app.change_password(NEW_PASSWORD).await.status(), 204);
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM password_resets")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(left, 0);
    let refused = app
        .send_with(
            &TestApp::other_client(),
            Method::POST,
            "/api/session/reset",
            Some(&json!({ "token": token, "password": "yet-another-long-passphrase" })),
        )
        .await;
    assert_eq!(refused.status(), 422);
    let body: Value = refused.json().await.unwrap();
    assert!(body["error"]["fields"]["token"].is_string(), "{body}");
    assert_eq!(app.sign_in(EMAIL, NEW_PASSWORD).await.status(), 200);
    app.shutdown().await;
}

#[tokio::test]
async fn the_password_notice_lists_the_passkeys_that_still_sign_in() {
    let smtp = TestSmtp::start().await;
    let url = smtp.url();
    // No public URL: passkeys are bound to localhost here.
    let app = spawn_app_with(move |s| mail_to(s, url)).await;
    app.signed_in().await;
    app.with_passkey("Laptop").await;
    assert_eq!(app.change_password(NEW_PASSWORD).await.status(), 204);
    let notice = text_of(&mail_with_subject(&smtp, "Your portfolio's password was changed").await);
    assert!(
        notice.contains("This passkey can still sign in"),
        "{notice}"
    );
    assert!(notice.contains("  - Laptop\n"), "{notice}");
    app.shutdown().await;
}

#[tokio::test]
async fn removing_a_passkey_ends_the_sessions_it_signed_in() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut phone = app.with_passkey("Phone").await;
    let with_passkey = TestApp::other_client();
    assert_eq!(
        app.passkey_sign_in(&with_passkey, &mut phone)
            .await
            .status(),
        200
    );
    let with_password = app.another_signed_in_browser().await;
    let id = app.passkeys_of(&app.client).await[0]["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(app.remove_passkey(&id).await.status(), 204);
    assert!(!app.is_signed_in(&with_passkey).await, "its session ended");
    assert!(app.is_signed_in(&with_password).await);
    assert!(app.is_signed_in(&app.client).await);
    app.shutdown().await;
}

#[tokio::test]
async fn recovery_on_the_command_line_ends_every_session() {
    let app = spawn_app().await;
    app.signed_in().await;
    app.with_passkey("Phone").await;
    app.turn_second_factor_on(&app.client).await;
    let output = owner_command(&app, &["second-factor", "off"]);
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("1 session was signed out"), "{said}");
    assert!(!app.is_signed_in(&app.client).await);

    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);
    let output = owner_command(&app, &["passkeys", "remove", "--all"]);
    assert!(output.status.success(), "{output:?}");
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(said.contains("1 passkey was removed"), "{said}");
    assert!(said.contains("1 session was signed out"), "{said}");
    assert!(!app.is_signed_in(&app.client).await);
    app.shutdown().await;
}
