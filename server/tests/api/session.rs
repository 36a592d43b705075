//! Sign-in, sessions and the throttle: `/api/session`, `/api/sessions`, `/api/session/password`.

use serde_json::{json, Value};

use crate::helpers::{spawn_app, spawn_app_with, TestApp, EMAIL, PASSWORD};

fn session_cookie(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|v| v.contains("portfolio_session="))
        .expect("a session cookie is set")
}

fn cookie_value(set_cookie: &str) -> String {
    set_cookie
        .split(';')
        .next()
        .unwrap()
        .split_once('=')
        .unwrap()
        .1
        .to_owned()
}

/// A GET of the session with only the given cookie, as a browser holding it would send.
async fn get_session_with_cookie(app: &TestApp, cookie: &str) -> reqwest::StatusCode {
    reqwest::Client::new()
        .get(app.url("/api/session"))
        .header("Cookie", format!("portfolio_session={cookie}"))
        .send()
        .await
        .unwrap()
        .status()
}

#[tokio::test]
async fn the_owner_signs_in_with_email_and_password_and_the_session_knows_them() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;

    let response = app.sign_in("Owner@Example.com", PASSWORD).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    let cookie = session_cookie(&response);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body, json!({ "email": EMAIL }));

    for attribute in ["HttpOnly", "SameSite=Strict", "Path=/"] {
        assert!(cookie.contains(attribute), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain HTTP: {cookie}");
    let token = cookie_value(&cookie);
    assert!(token.len() >= 22, "at least 128 bits: {token}");

    let me = app.get("/api/session").await;
    assert_eq!(me.status(), 200);
    assert_eq!(me.headers()["cache-control"], "no-store");
    assert_eq!(me.json::<Value>().await.unwrap()["email"], EMAIL);

    let stored: String = sqlx::query_scalar("SELECT token_hash FROM sessions")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_ne!(stored, token, "only a hash of the token is stored");
    assert_eq!(stored.len(), 64);
}

fn hint_cookie(response: &reqwest::Response) -> String {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .find(|v| v.contains("portfolio_signed_in="))
        .expect("the signed-in hint cookie is set")
}

#[tokio::test]
async fn a_hint_cookie_without_any_secret_tells_the_pages_someone_is_signed_in() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    let response = app.sign_in(EMAIL, PASSWORD).await;
    let hint = hint_cookie(&response);
    assert!(hint.starts_with("portfolio_signed_in=1;"), "{hint}");
    assert!(!hint.contains("HttpOnly"), "scripts may read it: {hint}");
    assert!(hint.contains("SameSite=Strict"), "{hint}");
    let token = cookie_value(&session_cookie(&response));
    assert_ne!(token, "1");

    let out = app
        .send(reqwest::Method::DELETE, "/api/session", None)
        .await;
    assert!(hint_cookie(&out).contains("Max-Age=0"));
}

#[tokio::test]
async fn over_https_the_cookie_is_secure_with_the_host_prefix() {
    let app = spawn_app_with(|s| s.public_url = Some("https://me.example".parse().unwrap())).await;
    app.create_owner(EMAIL, PASSWORD).await;
    let response = app
        .client
        .post(app.url("/api/session"))
        .header("Sec-Fetch-Site", "same-origin")
        .json(&json!({ "email": EMAIL, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let cookie = session_cookie(&response);
    assert!(cookie.starts_with("__Host-portfolio_session="), "{cookie}");
    assert!(cookie.contains("; Secure"), "{cookie}");
    assert!(!cookie.contains("Domain"), "{cookie}");
    let hint = hint_cookie(&response);
    assert!(hint.starts_with("__Host-portfolio_signed_in=1;"), "{hint}");
    assert!(hint.contains("; Secure"), "{hint}");
}

#[tokio::test]
async fn a_wrong_password_and_an_unknown_email_get_the_same_401_and_body() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;

    let wrong = app.sign_in(EMAIL, "not-the-password-at-all").await;
    let unknown = app.sign_in("nobody@example.com", PASSWORD).await;
    assert_eq!(wrong.status(), 401);
    assert_eq!(unknown.status(), 401);
    assert!(wrong.headers().get("set-cookie").is_none());
    let wrong: Value = wrong.json().await.unwrap();
    let unknown: Value = unknown.json().await.unwrap();
    assert_eq!(wrong, unknown);
    assert_eq!(
        wrong["error"]["message"],
        "The email or password is incorrect."
    );
    assert_eq!(app.get("/api/session").await.status(), 401);
}

#[tokio::test]
async fn signing_in_with_no_owner_at_all_fails_the_same_way() {
    let app = spawn_app().await;
    let response = app.sign_in(EMAIL, PASSWORD).await;
    assert_eq!(response.status(), 401);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["code"], "invalid_credentials");
}

#[tokio::test]
async fn a_sign_in_with_a_missing_field_names_it() {
    let app = spawn_app().await;
    let response = app
        .post_json("/api/session", &json!({ "email": EMAIL }))
        .await;
    assert_eq!(response.status(), 422);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["error"]["fields"]["password"], "is required");
}

#[tokio::test]
async fn a_sign_in_from_another_site_is_rejected_with_403() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    let response = app
        .client
        .post(app.url("/api/session"))
        .header("Origin", "https://evil.example")
        .header("Sec-Fetch-Site", "cross-site")
        .json(&json!({ "email": EMAIL, "password": PASSWORD }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    assert!(response.headers().get("set-cookie").is_none());
    assert_eq!(app.sessions_in_db().await, 0);
}

#[tokio::test]
async fn signing_out_everywhere_from_another_site_is_rejected_and_the_session_survives() {
    let app = spawn_app().await;
    app.signed_in().await;
    let response = app
        .client
        .delete(app.url("/api/sessions"))
        .header("Origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 403);
    assert_eq!(app.get("/api/session").await.status(), 200);
}

#[tokio::test]
async fn every_sign_in_gets_a_new_token_and_the_old_one_stops_working() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    let first = cookie_value(&session_cookie(&app.sign_in(EMAIL, PASSWORD).await));
    let second = cookie_value(&session_cookie(&app.sign_in(EMAIL, PASSWORD).await));
    assert_ne!(first, second);
    assert_eq!(get_session_with_cookie(&app, &first).await, 401);
    assert_eq!(get_session_with_cookie(&app, &second).await, 200);
    assert_eq!(app.sessions_in_db().await, 1);
}

#[tokio::test]
async fn a_forged_or_unknown_cookie_is_401() {
    let app = spawn_app().await;
    app.signed_in().await;
    assert_eq!(get_session_with_cookie(&app, "forged-token").await, 401);
    assert_eq!(get_session_with_cookie(&app, "").await, 401);
}

#[tokio::test]
async fn an_idle_session_expires_and_use_renews_it() {
    let app = spawn_app().await;
    app.signed_in().await;
    let now = portfolio::clock::now_ms();

    // Last used two minutes ago and about to expire: a request pushes the expiry a day ahead.
    sqlx::query("UPDATE sessions SET last_seen_at = $1, idle_expires_at = $2")
        .bind(now - 120_000)
        .bind(now + 5_000)
        .execute(&app.sql)
        .await
        .unwrap();
    assert_eq!(app.get("/api/session").await.status(), 200);
    let idle: i64 = sqlx::query_scalar("SELECT idle_expires_at FROM sessions")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert!(idle > now + 23 * 3_600_000, "renewed to about 24 h: {idle}");

    // Idle past its expiry: signed out.
    sqlx::query("UPDATE sessions SET idle_expires_at = $1")
        .bind(now - 1)
        .execute(&app.sql)
        .await
        .unwrap();
    assert_eq!(app.get("/api/session").await.status(), 401);
}

#[tokio::test]
async fn the_idle_timeout_follows_its_setting_and_never_passes_the_absolute_one() {
    let app = spawn_app_with(|s| {
        s.session_idle_minutes = 5;
        s.session_absolute_minutes = 3;
    })
    .await;
    app.signed_in().await;
    let (created, idle, absolute): (i64, i64, i64) =
        sqlx::query_as("SELECT created_at, idle_expires_at, absolute_expires_at FROM sessions")
            .fetch_one(&app.sql)
            .await
            .unwrap();
    assert_eq!(absolute - created, 3 * 60_000);
    assert_eq!(idle, absolute);
}

#[tokio::test]
async fn a_session_ends_at_its_absolute_expiry_however_often_it_is_used() {
    let app = spawn_app().await;
    app.signed_in().await;
    let now = portfolio::clock::now_ms();
    sqlx::query("UPDATE sessions SET absolute_expires_at = $1")
        .bind(now - 1)
        .execute(&app.sql)
        .await
        .unwrap();
    assert_eq!(app.get("/api/session").await.status(), 401);
}

#[tokio::test]
async fn signing_out_deletes_the_session_on_the_server_and_clears_the_cookie() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    let token = cookie_value(&session_cookie(&app.sign_in(EMAIL, PASSWORD).await));

    let response = app
        .send(reqwest::Method::DELETE, "/api/session", None)
        .await;
    assert_eq!(response.status(), 204);
    let cleared = session_cookie(&response);
    assert!(cleared.contains("Max-Age=0"), "{cleared}");
    assert_eq!(app.sessions_in_db().await, 0);
    // Even a copy of the old cookie no longer works.
    assert_eq!(get_session_with_cookie(&app, &token).await, 401);
    assert_eq!(app.get("/api/session").await.status(), 401);
}

#[tokio::test]
async fn signing_out_everywhere_ends_every_session() {
    let app = spawn_app().await;
    app.signed_in().await;
    let laptop = TestApp::other_client();
    let signed = app
        .send_with(
            &laptop,
            reqwest::Method::POST,
            "/api/session",
            Some(&json!({ "email": EMAIL, "password": PASSWORD })),
        )
        .await;
    assert_eq!(signed.status(), 200);
    assert_eq!(app.sessions_in_db().await, 2);

    let response = app
        .send(reqwest::Method::DELETE, "/api/sessions", None)
        .await;
    assert_eq!(response.status(), 204);
    assert_eq!(app.sessions_in_db().await, 0);
    let on_laptop = laptop.get(app.url("/api/session")).send().await.unwrap();
    assert_eq!(on_laptop.status(), 401);
}

#[tokio::test]
async fn changing_the_password_needs_the_current_one_and_ends_the_other_sessions() {
    let app = spawn_app().await;
    app.signed_in().await;
    let laptop = TestApp::other_client();
    app.send_with(
        &laptop,
        reqwest::Method::POST,
        "/api/session",
        Some(&json!({ "email": EMAIL, "password": PASSWORD })),
    )
    .await;
    let new_password = "a-different-and-long-passphrase";

    let wrong = app
        .send(
            reqwest::Method::PUT,
            "/api/session/password",
            Some(
                &json!({ "currentPassword": "guessing-wrongly-here", "newPassword": new_password }),
            ),
        )
        .await;
    assert_eq!(wrong.status(), 422);
    let body: Value = wrong.json().await.unwrap();
    assert_eq!(body["error"]["fields"]["currentPassword"], "is not correct");

    let weak = app
        .send(
            reqwest::Method::PUT,
            "/api/session/password",
            Some(&json!({ "currentPassword": PASSWORD, "newPassword": "password1234" })),
        )
        .await;
    assert_eq!(weak.status(), 422);
    let body: Value = weak.json().await.unwrap();
    assert!(body["error"]["fields"]["newPassword"]
        .as_str()
        .unwrap()
        .contains("common"));

    let changed = app
        .send(
            reqwest::Method::PUT,
            "/api/session/password",
            Some(&json!({ "currentPassword": PASSWORD, "newPassword": new_password })),
        )
        .await;
    assert_eq!(changed.status(), 204);
    assert_eq!(
        app.get("/api/session").await.status(),
        200,
        "this browser stays signed in"
    );
    let on_laptop = laptop.get(app.url("/api/session")).send().await.unwrap();
    assert_eq!(on_laptop.status(), 401, "the other session ended");
    assert_eq!(app.sessions_in_db().await, 1);

    let fresh = TestApp::other_client();
    let old = app
        .send_with(
            &fresh,
            reqwest::Method::POST,
            "/api/session",
            Some(&json!({ "email": EMAIL, "password": PASSWORD })),
        )
        .await;
    assert_eq!(old.status(), 401);
    let new = app
        .send_with(
            &fresh,
            reqwest::Method::POST,
            "/api/session",
            Some(&json!({ "email": EMAIL, "password": new_password })),
        )
        .await;
    assert_eq!(new.status(), 200);
}

async fn release_locks(app: &TestApp) {
    sqlx::query("UPDATE sign_in_failures SET locked_until = 0")
        .execute(&app.sql)
        .await
        .unwrap();
}

#[tokio::test]
async fn repeated_failures_lock_the_account_with_retry_after_until_the_lock_expires() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    for attempt in 1..=5 {
        let response = app
            .sign_in(EMAIL, &format!("wrong-password-{attempt}"))
            .await;
        assert_eq!(response.status(), 401, "attempt {attempt}");
    }

    // Locked: even the right password gets 429 with the wait.
    let locked = app.sign_in(EMAIL, PASSWORD).await;
    assert_eq!(locked.status(), 429);
    let retry_after: u64 = locked.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=30).contains(&retry_after), "{retry_after}");
    let body: Value = locked.json().await.unwrap();
    assert!(body["error"]["message"]
        .as_str()
        .unwrap()
        .contains("Try again in"));

    // The lock expires; then the right password works and the count is forgotten.
    release_locks(&app).await;
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 200);
    let rows: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sign_in_failures")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(rows, 0);
}

#[tokio::test]
async fn each_failure_past_the_lock_locks_for_longer() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    for attempt in 1..=5 {
        app.sign_in(EMAIL, &format!("wrong-password-{attempt}"))
            .await;
    }
    release_locks(&app).await;
    assert_eq!(
        app.sign_in(EMAIL, "wrong-password-again").await.status(),
        401
    );
    let locked = app.sign_in(EMAIL, PASSWORD).await;
    assert_eq!(locked.status(), 429);
    let retry_after: u64 = locked.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((31..=60).contains(&retry_after), "doubled: {retry_after}");
}

#[tokio::test]
async fn failures_are_counted_per_client_across_accounts_without_storing_the_address() {
    let app = spawn_app().await;
    app.create_owner(EMAIL, PASSWORD).await;
    for attempt in 1..=5 {
        let email = format!("guess{attempt}@example.com");
        assert_eq!(app.sign_in(&email, PASSWORD).await.status(), 401);
    }
    assert_eq!(app.sign_in(EMAIL, PASSWORD).await.status(), 429);

    let keys: Vec<String> = sqlx::query_scalar("SELECT key FROM sign_in_failures")
        .fetch_all(&app.sql)
        .await
        .unwrap();
    assert!(keys.iter().any(|k| k.starts_with("client:")));
    assert!(keys
        .iter()
        .all(|k| !k.contains("127.0.0.1") && !k.contains("example.com")));
}

#[tokio::test]
async fn the_owner_api_answers_401_without_a_session() {
    let app = spawn_app().await;
    let me = app.get("/api/session").await;
    assert_eq!(me.status(), 401);
    assert_eq!(me.headers()["cache-control"], "no-store");
    assert_eq!(
        app.send(reqwest::Method::DELETE, "/api/sessions", None)
            .await
            .status(),
        401
    );
    let change = app
        .send(
            reqwest::Method::PUT,
            "/api/session/password",
            Some(&json!({ "currentPassword": PASSWORD, "newPassword": "whatever-long-enough" })),
        )
        .await;
    assert_eq!(change.status(), 401);
}

#[tokio::test]
async fn the_openapi_document_lists_the_session_endpoints() {
    let app = spawn_app().await;
    let doc: Value = app.get("/api/openapi.json").await.json().await.unwrap();
    for path in ["/api/session", "/api/sessions", "/api/session/password"] {
        assert!(doc["paths"][path].is_object(), "{path}");
    }
}
