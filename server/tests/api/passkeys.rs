//! Passkeys over HTTP with a software authenticator: register one from a signed-in session, sign
//! out, sign in with it (no e-mail: a discoverable credential, as the login page's button and
//! autofill ask), see it used; challenges work once and on any instance; removing one asks for
//! the password or a passkey again, and a removed one is refused. A ceremony waits in a sealed
//! cookie of its own, so no crowd of starts fills anything.

use reqwest::Method;
use serde_json::{json, Value};

use crate::authenticator::SoftAuthenticator;
use crate::helpers::{
    app_with_second_factor, fresh_database_url, owner_command, set_cookies, spawn_app,
    spawn_app_with, Spawn, TestApp, EMAIL, REGISTER_FINISH, REGISTER_START, SIGN_IN_FINISH,
    SIGN_IN_START,
};

#[tokio::test]
async fn a_passkey_added_from_the_dashboard_signs_in_without_the_password() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut phone = SoftAuthenticator::new(&app.localhost());

    let added = app.add_passkey(&app.client, &mut phone, "  Phone ").await;
    assert_eq!(added.status(), 201);
    let added: Value = added.json().await.unwrap();
    assert_eq!(added["name"], "Phone");
    assert_eq!(added["lastUsedAt"], Value::Null);
    assert!(added["createdAt"].as_i64().unwrap() > 0);
    let list = app.passkeys_of(&app.client).await;
    assert_eq!(list, vec![added.clone()]);

    // Signed out, a fresh browser signs in with it: no e-mail, no password.
    let browser = TestApp::other_client();
    let signed_in = app.passkey_sign_in(&browser, &mut phone).await;
    assert_eq!(signed_in.status(), 200);
    assert_eq!(
        signed_in.json::<Value>().await.unwrap(),
        json!({ "email": EMAIL })
    );
    assert_eq!(
        app.send_with(&browser, Method::GET, "/api/session", None)
            .await
            .status(),
        200
    );
    let list = app.passkeys_of(&browser).await;
    assert!(list[0]["lastUsedAt"].as_i64().is_some(), "{list:?}");
    let mine = app.current_session_of(&browser).await;
    assert_eq!(mine["method"], "passkey");
    app.shutdown().await;
}

#[tokio::test]
async fn the_sign_in_options_name_no_credential_and_ask_for_conditional_mediation() {
    let app = spawn_app().await;
    // No session and no body needed.
    let start = app
        .send(Method::POST, "/api/session/passkey/start", None)
        .await;
    assert_eq!(start.status(), 200);
    assert_eq!(start.headers()["cache-control"], "no-store");
    let cookies = set_cookies(&start);
    let body: Value = start.json().await.unwrap();
    let options = &body["options"];
    assert_eq!(options["publicKey"]["rpId"], "localhost");
    assert_eq!(options["publicKey"]["allowCredentials"], json!([]));
    assert_eq!(options["publicKey"]["userVerification"], "required");
    assert_eq!(options["mediation"], "conditional");
    let id = body["challengeId"].as_str().unwrap();
    assert!(id.len() >= 22);
    // The ceremony waits in a cookie of its own, sealed, for five minutes; nothing is stored.
    assert_eq!(cookies.len(), 1, "{cookies:?}");
    let cookie = &cookies[0];
    assert!(
        cookie.starts_with(&format!("portfolio_ceremony_{id}=")),
        "{cookie}"
    );
    for attribute in [
        "; Path=/",
        "; HttpOnly",
        "; SameSite=Strict",
        "; Max-Age=300",
    ] {
        assert!(cookie.contains(attribute), "{attribute}: {cookie}");
    }
    assert!(!cookie.contains("localhost") && !cookie.contains("rpId"));
    assert_eq!(used_challenges(&app).await, 0);
    app.shutdown().await;
}

/// The ceremonies recorded as finished.
async fn used_challenges(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM webauthn_used_challenges")
        .fetch_one(&app.sql)
        .await
        .unwrap()
}

#[tokio::test]
async fn a_challenge_works_once_and_expires() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut key = app.with_passkey("Laptop").await;

    let browser = TestApp::other_client();
    let start = app.start_ceremony(&browser, SIGN_IN_START, None).await;
    let credential = key.get(&start["options"]);
    let first = app
        .finish_ceremony(&browser, SIGN_IN_FINISH, &start, credential.clone())
        .await;
    assert_eq!(first.status(), 200);
    let replay = app
        .finish_ceremony(&TestApp::other_client(), SIGN_IN_FINISH, &start, credential)
        .await;
    assert_eq!(replay.status(), 422);
    let body: Value = replay.json().await.unwrap();
    assert_eq!(
        body["error"]["fields"]["challengeId"],
        "has expired or was used; start again"
    );

    // Five minutes on, an unused challenge has expired.
    let start = app.start_ceremony(&browser, SIGN_IN_START, None).await;
    let credential = key.get(&start["options"]);
    app.advance(5 * 60 + 1);
    let late = app
        .finish_ceremony(&browser, SIGN_IN_FINISH, &start, credential)
        .await;
    assert_eq!(late.status(), 422);
    app.shutdown().await;
}

#[tokio::test]
async fn an_answer_for_another_site_or_a_forged_signature_is_refused() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut key = app.with_passkey("Key").await;

    // A phishing page's origin.
    let mut phished = SoftAuthenticator::new("http://localhost.evil.test");
    phished.credentials = std::mem::take(&mut key.credentials);
    let browser = TestApp::other_client();
    let refused = app.passkey_sign_in(&browser, &mut phished).await;
    assert_eq!(refused.status(), 401);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"]["code"], "passkey_refused");

    // A passkey of another server's (of another user handle), offered here.
    let other = spawn_app().await;
    other.signed_in().await;
    let mut elsewhere = other.with_passkey("Elsewhere").await;
    let mut stranger = SoftAuthenticator::new(&app.localhost());
    stranger.credentials = std::mem::take(&mut elsewhere.credentials);
    let refused = app.passkey_sign_in(&browser, &mut stranger).await;
    assert_eq!(refused.status(), 401);
    assert_eq!(
        app.send_with(&browser, Method::GET, "/api/session", None)
            .await
            .status(),
        401
    );
    other.shutdown().await;
    app.shutdown().await;
}

#[tokio::test]
async fn adding_and_removing_ask_for_the_password_or_a_passkey_again() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut phone = SoftAuthenticator::new(&app.localhost());
    let added: Value = app
        .add_passkey(&app.client, &mut phone, "Phone")
        .await
        .json()
        .await
        .unwrap();
    let id = added["id"].as_str().unwrap().to_owned();

    // Renaming asks nothing.
    let renamed = app
        .send(
            Method::PATCH,
            &format!("/api/session/passkeys/{id}"),
            Some(&json!({ "name": "My phone" })),
        )
        .await;
    assert_eq!(renamed.status(), 200);
    assert_eq!(renamed.json::<Value>().await.unwrap()["name"], "My phone");

    // Six minutes after signing in, adding or removing asks first.
    app.advance(6 * 60);
    let start = app
        .send(
            Method::POST,
            REGISTER_START,
            Some(&json!({ "name": "Laptop" })),
        )
        .await;
    assert_eq!(start.status(), 403);
    let removed = app.remove_passkey(&id).await;
    assert_eq!(removed.status(), 403);
    let body: Value = removed.json().await.unwrap();
    assert_eq!(body["error"]["code"], "reauthentication_required");

    // The passkey itself confirms it is the owner.
    let start = app
        .start_ceremony(&app.client, "/api/session/reauth/passkey/start", None)
        .await;
    let allowed = start["options"]["publicKey"]["allowCredentials"]
        .as_array()
        .unwrap()
        .len();
    assert_eq!(allowed, 1, "the owner's passkeys are named");
    let credential = phone.get(&start["options"]);
    let confirmed = app
        .finish_ceremony(
            &app.client,
            "/api/session/reauth/passkey/finish",
            &start,
            credential,
        )
        .await;
    assert_eq!(confirmed.status(), 204);
    let removed = app.remove_passkey(&id).await;
    assert_eq!(removed.status(), 204);
    assert!(app.passkeys_of(&app.client).await.is_empty());
    let again = app.remove_passkey(&id).await;
    assert_eq!(again.status(), 404);

    // A removed passkey signs no one in.
    let browser = TestApp::other_client();
    let refused = app.passkey_sign_in(&browser, &mut phone).await;
    assert_eq!(refused.status(), 401);
    app.shutdown().await;
}

#[tokio::test]
async fn a_passkey_counts_as_both_factors() {
    let (app, _, _) = app_with_second_factor().await;
    let mut key = app.with_passkey("Key").await;

    let browser = TestApp::other_client();
    assert_eq!(
        app.sign_in_with(&browser).await.status(),
        202,
        "password: a code too"
    );
    let other = TestApp::other_client();
    assert_eq!(
        app.passkey_sign_in(&other, &mut key).await.status(),
        200,
        "passkey: signed in at once"
    );
    app.shutdown().await;
}

#[tokio::test]
async fn one_instance_finishes_the_ceremony_another_began() {
    let data = tempfile::tempdir().unwrap();
    let url = fresh_database_url(data.path()).await;
    // Both instances are the same site: its public URL.
    let public = "http://localhost";
    let first = Spawn::new()
        .data_dir(data)
        .database(url.clone())
        .settings(|s| s.public_url = Some(public.parse().unwrap()))
        .await;
    let second = Spawn::new()
        .database(url)
        .settings(|s| s.public_url = Some(public.parse().unwrap()))
        .await;
    first.signed_in().await;
    let mut key = SoftAuthenticator::new(public);

    let start = first
        .start_ceremony(
            &first.client,
            REGISTER_START,
            Some(&json!({ "name": "Key" })),
        )
        .await;
    let credential = key.create(&start["options"]);
    // The same browser (cookies), its next request served by the other instance.
    let finished = second
        .finish_ceremony(&first.client, REGISTER_FINISH, &start, credential)
        .await;
    assert_eq!(finished.status(), 201);

    let browser = TestApp::other_client();
    let start = second.start_ceremony(&browser, SIGN_IN_START, None).await;
    let credential = key.get(&start["options"]);
    let signed_in = first
        .finish_ceremony(&browser, SIGN_IN_FINISH, &start, credential)
        .await;
    assert_eq!(signed_in.status(), 200);
    second.shutdown().await;
    first.shutdown().await;
}

#[tokio::test]
async fn without_a_domain_name_passkeys_are_off() {
    let app =
        spawn_app_with(|s| s.public_url = Some("http://192.0.2.10:8080".parse().unwrap())).await;
    app.signed_in().await;
    let methods: Value = app.get("/api/session/methods").await.json().await.unwrap();
    assert_eq!(methods["passkeys"], false);
    assert_eq!(
        app.send(Method::POST, "/api/session/passkey/start", None)
            .await
            .status(),
        409
    );
    app.shutdown().await;
}

#[tokio::test]
async fn the_command_line_removes_every_passkey() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut key = app.with_passkey("One").await;
    app.with_passkey("Two").await;

    let without_all = owner_command(&app, &["passkeys", "remove"]);
    assert!(!without_all.status.success(), "--all is required");

    let output = owner_command(&app, &["passkeys", "remove", "--all"]);
    assert!(output.status.success(), "{output:?}");
    assert!(String::from_utf8_lossy(&output.stdout).contains("2 passkeys were removed"));
    // Every session ended with them (issue 43).
    assert_eq!(app.get("/api/session").await.status(), 401);
    assert_eq!(
        app.sign_in(EMAIL, crate::helpers::PASSWORD).await.status(),
        200
    );
    assert!(app.passkeys_of(&app.client).await.is_empty());
    let refused = app
        .passkey_sign_in(&TestApp::other_client(), &mut key)
        .await;
    assert_eq!(refused.status(), 401);
    app.shutdown().await;
}

/// A browser without a cookie store: each request carries the cookies the test gives it.
fn bare_client() -> reqwest::Client {
    reqwest::Client::builder().build().unwrap()
}

/// A `POST` from the site's pages with this `Cookie` header.
async fn post_with_cookie(
    app: &TestApp,
    path: &str,
    cookie: &str,
    body: Option<&Value>,
) -> reqwest::Response {
    let mut request = bare_client()
        .post(app.url(path))
        .header("Origin", &app.address)
        .header("Sec-Fetch-Site", "same-origin")
        .header("Cookie", cookie);
    if let Some(body) = body {
        request = request.json(body);
    }
    request.send().await.unwrap()
}

/// Begins a passkey sign-in from a browser that keeps no cookies: its options, and its ceremony's
/// cookie as a `Cookie` header sends it (`name=value`).
async fn sign_in_start_bare(app: &TestApp) -> (Value, String) {
    let start = post_with_cookie(app, SIGN_IN_START, "", None).await;
    assert_eq!(start.status(), 200);
    let cookie = set_cookies(&start)
        .into_iter()
        .next()
        .expect("the ceremony's cookie");
    let cookie = cookie.split(';').next().unwrap().to_owned();
    (start.json().await.unwrap(), cookie)
}

#[tokio::test]
async fn a_finish_replayed_with_the_same_cookie_and_answer_is_refused() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut key = app.with_passkey("Key").await;

    let used = used_challenges(&app).await;
    let (start, cookie) = sign_in_start_bare(&app).await;
    let finish =
        json!({ "challengeId": start["challengeId"], "credential": key.get(&start["options"]) });
    let first = post_with_cookie(&app, SIGN_IN_FINISH, &cookie, Some(&finish)).await;
    assert_eq!(first.status(), 200);
    let cleared = set_cookies(&first);
    let name = cookie.split('=').next().unwrap();
    assert!(
        cleared
            .iter()
            .any(|c| c.starts_with(&format!("{name}=;")) && c.contains("Max-Age=0")),
        "the finish removes the ceremony's cookie: {cleared:?}"
    );
    assert_eq!(used_challenges(&app).await, used + 1);

    let replay = post_with_cookie(&app, SIGN_IN_FINISH, &cookie, Some(&finish)).await;
    assert_eq!(replay.status(), 422);
    let body: Value = replay.json().await.unwrap();
    assert_eq!(
        body["error"]["fields"]["challengeId"],
        "has expired or was used; start again"
    );

    // A cookie under another ceremony's name, or altered, opens nothing.
    let (start, cookie) = sign_in_start_bare(&app).await;
    let (other, _) = sign_in_start_bare(&app).await;
    let value = cookie.split_once('=').unwrap().1;
    let moved = format!(
        "portfolio_ceremony_{}={value}",
        other["challengeId"].as_str().unwrap()
    );
    let finish =
        json!({ "challengeId": other["challengeId"], "credential": key.get(&start["options"]) });
    let refused = post_with_cookie(&app, SIGN_IN_FINISH, &moved, Some(&finish)).await;
    assert_eq!(refused.status(), 422);
    app.shutdown().await;
}

#[tokio::test]
async fn two_ceremonies_of_one_browser_do_not_break_each_other() {
    let app = spawn_app().await;
    app.signed_in().await;
    let mut key = app.with_passkey("Key").await;

    // The login page's autofill begins one; then its button another.
    let browser = TestApp::other_client();
    let autofill = app.start_ceremony(&browser, SIGN_IN_START, None).await;
    let button = app.start_ceremony(&browser, SIGN_IN_START, None).await;
    assert_ne!(autofill["challengeId"], button["challengeId"]);
    let credential = key.get(&button["options"]);
    let signed_in = app
        .finish_ceremony(&browser, SIGN_IN_FINISH, &button, credential)
        .await;
    assert_eq!(signed_in.status(), 200);
    let credential = key.get(&autofill["options"]);
    let again = app
        .finish_ceremony(&browser, SIGN_IN_FINISH, &autofill, credential)
        .await;
    assert_eq!(again.status(), 200, "the first is still there");

    // A browser keeps a few at once: a start past them drops the oldest, not the newest.
    let mut starts = Vec::new();
    for _ in 0..10 {
        starts.push(app.start_ceremony(&browser, SIGN_IN_START, None).await);
        // Each expires a millisecond after the one before, at least.
        tokio::time::sleep(std::time::Duration::from_millis(2)).await;
    }
    let last = starts.last().unwrap();
    let credential = key.get(&last["options"]);
    let newest = app
        .finish_ceremony(&browser, SIGN_IN_FINISH, last, credential)
        .await;
    assert_eq!(newest.status(), 200);
    let credential = key.get(&starts[0]["options"]);
    let oldest = app
        .finish_ceremony(&browser, SIGN_IN_FINISH, &starts[0], credential)
        .await;
    assert_eq!(oldest.status(), 422, "dropped");
    app.shutdown().await;
}

#[tokio::test]
async fn a_ceremony_finished_on_a_second_instance_works_once() {
    let data = tempfile::tempdir().unwrap();
    let url = fresh_database_url(data.path()).await;
    let public = "http://localhost";
    let first = Spawn::new()
        .data_dir(data)
        .database(url.clone())
        .settings(|s| s.public_url = Some(public.parse().unwrap()))
        .await;
    let second = Spawn::new()
        .database(url)
        .settings(|s| s.public_url = Some(public.parse().unwrap()))
        .await;
    first.signed_in().await;
    let mut key = SoftAuthenticator::new(public);
    assert_eq!(
        first
            .add_passkey(&first.client, &mut key, "Key")
            .await
            .status(),
        201
    );

    let (start, cookie) = sign_in_start_bare(&first).await;
    let finish =
        json!({ "challengeId": start["challengeId"], "credential": key.get(&start["options"]) });
    let done = post_with_cookie(&second, SIGN_IN_FINISH, &cookie, Some(&finish)).await;
    assert_eq!(done.status(), 200, "the other instance opens the cookie");
    for instance in [&first, &second] {
        let replay = post_with_cookie(instance, SIGN_IN_FINISH, &cookie, Some(&finish)).await;
        assert_eq!(replay.status(), 422, "once, on any instance");
    }
    second.shutdown().await;
    first.shutdown().await;
}

#[tokio::test]
async fn ten_thousand_sign_in_starts_from_many_networks_leave_room_for_the_owner() {
    use futures_util::StreamExt;
    let app = spawn_app_with(|s| s.trust_proxy = true).await;
    app.signed_in().await;
    let mut key = app.with_passkey("Key").await;
    let used = used_challenges(&app).await;

    // 10,000 starts, 20 from each of 500 networks (IPv4 addresses and IPv6 /64s of one /48), none
    // finished: a crowd that filled the old store of open ceremonies for everyone.
    let crowd = bare_client();
    let statuses: Vec<u16> = futures_util::stream::iter(0..10_000u32)
        .map(|n| {
            let network = n % 500;
            let ip = if network % 2 == 0 {
                format!("198.18.{}.{}", network / 250, network % 250 + 1)
            } else {
                format!("2001:db8:77:{network:x}::{:x}", n / 500 + 1)
            };
            let request = crowd
                .post(app.url(SIGN_IN_START))
                .header("Origin", &app.address)
                .header("Sec-Fetch-Site", "same-origin")
                .header("X-Forwarded-For", ip);
            async move { request.send().await.unwrap().status().as_u16() }
        })
        .buffer_unordered(32)
        .collect()
        .await;
    assert!(
        statuses.iter().all(|s| *s == 200),
        "every start is answered"
    );
    assert_eq!(used_challenges(&app).await, used, "nothing was stored");

    // The owner adds a passkey and signs in with it, as ever.
    let mut laptop = SoftAuthenticator::new(&app.localhost());
    assert_eq!(
        app.add_passkey(&app.client, &mut laptop, "Laptop")
            .await
            .status(),
        201
    );
    let browser = TestApp::other_client();
    assert_eq!(app.passkey_sign_in(&browser, &mut key).await.status(), 200);
    app.shutdown().await;
}
