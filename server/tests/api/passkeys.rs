//! Passkeys over HTTP with a software authenticator: register one from a signed-in session, sign
//! out, sign in with it (no e-mail: a discoverable credential, as the login page's button and
//! autofill ask), see it used; challenges work once and on any instance; removing one asks for
//! the password or a passkey again, and a removed one is refused.

use reqwest::Method;
use serde_json::{json, Value};

use crate::authenticator::SoftAuthenticator;
use crate::helpers::{
    fresh_database_url, owner_command, spawn_app, spawn_app_on, spawn_app_with, TestApp,
};
use crate::second_factor::app_with_second_factor;
use crate::session::EMAIL;

const REGISTER_START: &str = "/api/session/passkeys/register/start";
const REGISTER_FINISH: &str = "/api/session/passkeys/register/finish";
const SIGN_IN_START: &str = "/api/session/passkey/start";
const SIGN_IN_FINISH: &str = "/api/session/passkey/finish";

impl TestApp {
    /// The origin the browser sees without a public URL: `localhost` at the server's port.
    pub fn localhost(&self) -> String {
        format!("http://localhost:{}", self.port)
    }

    /// Begins a ceremony from `client` (`POST` to `path`); its options and `challengeId`.
    pub async fn start_ceremony(
        &self,
        client: &reqwest::Client,
        path: &str,
        body: Option<&Value>,
    ) -> Value {
        let start = self.send_with(client, Method::POST, path, body).await;
        assert_eq!(start.status(), 200, "{:?}", start.text().await);
        start.json().await.unwrap()
    }

    /// Finishes the ceremony `start` began with the authenticator's `credential`, from `client`
    /// (`POST` to `path`); the answer.
    pub async fn finish_ceremony(
        &self,
        client: &reqwest::Client,
        path: &str,
        start: &Value,
        credential: Value,
    ) -> reqwest::Response {
        self.send_with(
            client,
            Method::POST,
            path,
            Some(&json!({ "challengeId": start["challengeId"], "credential": credential })),
        )
        .await
    }

    /// Registers a passkey named `name` from `client`'s session; the answer.
    pub async fn add_passkey(
        &self,
        client: &reqwest::Client,
        authenticator: &mut SoftAuthenticator,
        name: &str,
    ) -> reqwest::Response {
        let start = self
            .start_ceremony(client, REGISTER_START, Some(&json!({ "name": name })))
            .await;
        let credential = authenticator.create(&start["options"]);
        self.finish_ceremony(client, REGISTER_FINISH, &start, credential)
            .await
    }

    /// A new authenticator for this server with a passkey named `name` added from the app's
    /// own session.
    pub async fn with_passkey(&self, name: &str) -> SoftAuthenticator {
        let mut authenticator = SoftAuthenticator::new(&self.localhost());
        let added = self
            .add_passkey(&self.client, &mut authenticator, name)
            .await;
        assert_eq!(added.status(), 201, "{name}");
        authenticator
    }

    /// Signs `client` in with a passkey, as the login page's button does; the answer.
    pub async fn passkey_sign_in(
        &self,
        client: &reqwest::Client,
        authenticator: &mut SoftAuthenticator,
    ) -> reqwest::Response {
        let start = self.start_ceremony(client, SIGN_IN_START, None).await;
        let credential = authenticator.get(&start["options"]);
        self.finish_ceremony(client, SIGN_IN_FINISH, &start, credential)
            .await
    }

    /// Removes the passkey with this id from the app's own session; the answer.
    pub async fn remove_passkey(&self, id: &str) -> reqwest::Response {
        self.send(Method::DELETE, &format!("/api/session/passkeys/{id}"), None)
            .await
    }

    pub async fn passkeys_of(&self, client: &reqwest::Client) -> Vec<Value> {
        let list = self
            .send_with(client, Method::GET, "/api/session/passkeys", None)
            .await;
        assert_eq!(list.status(), 200);
        let list: Value = list.json().await.unwrap();
        list["passkeys"].as_array().unwrap().clone()
    }
}

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
    let body: Value = start.json().await.unwrap();
    let options = &body["options"];
    assert_eq!(options["publicKey"]["rpId"], "localhost");
    assert_eq!(options["publicKey"]["allowCredentials"], json!([]));
    assert_eq!(options["publicKey"]["userVerification"], "required");
    assert_eq!(options["mediation"], "conditional");
    assert!(body["challengeId"].as_str().unwrap().len() >= 22);
    // The ceremony waits in the database.
    let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM webauthn_challenges")
        .fetch_one(&app.sql)
        .await
        .unwrap();
    assert_eq!(stored, 1);
    app.shutdown().await;
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
    let first = spawn_app_on(data, url.clone(), |s| {
        s.public_url = Some(public.parse().unwrap())
    })
    .await;
    let second = spawn_app_on(tempfile::tempdir().unwrap(), url, |s| {
        s.public_url = Some(public.parse().unwrap())
    })
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
        app.sign_in(EMAIL, crate::session::PASSWORD).await.status(),
        200
    );
    assert!(app.passkeys_of(&app.client).await.is_empty());
    let refused = app
        .passkey_sign_in(&TestApp::other_client(), &mut key)
        .await;
    assert_eq!(refused.status(), 401);
    app.shutdown().await;
}
