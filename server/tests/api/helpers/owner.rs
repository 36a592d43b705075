//! The owner's side: the account, signing in (password, code, passkey), the sessions, the second
//! factor, and the ways back in.

use portfolio::auth::password;
use reqwest::Method;
use secrecy::SecretString;
use serde_json::{json, Value};
use totp_rs::TOTP;

use super::{spawn_app, TestApp};
use crate::authenticator::SoftAuthenticator;

/// The owner every test signs in as.
pub const EMAIL: &str = "owner@example.com";
pub const PASSWORD: &str = "violet-harbour-lantern-42";

pub const REGISTER_START: &str = "/api/session/passkeys/register/start";
pub const REGISTER_FINISH: &str = "/api/session/passkeys/register/finish";
pub const SIGN_IN_START: &str = "/api/session/passkey/start";
pub const SIGN_IN_FINISH: &str = "/api/session/passkey/finish";

/// The code an authenticator app with this `otpauth://` address shows at `now_ms`.
pub fn code_at(uri: &str, now_ms: i64) -> String {
    TOTP::from_url(uri)
        .expect("an otpauth address")
        .generate(u64::try_from(now_ms / 1000).unwrap())
}

/// A fresh server whose owner is signed in with the second factor on; its `otpauth://` address
/// and recovery codes.
pub async fn app_with_second_factor() -> (TestApp, String, Vec<String>) {
    let app = spawn_app().await;
    app.signed_in().await;
    let (uri, codes) = app.turn_second_factor_on(&app.client).await;
    (app, uri, codes)
}

/// The recovery codes in an answer that shows them.
pub fn recovery_codes(body: &Value) -> Vec<String> {
    body["recoveryCodes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_owned())
        .collect()
}

/// A browser of its own, signed in nowhere.
pub fn fresh_browser() -> reqwest::Client {
    TestApp::other_client()
}

impl TestApp {
    // --- Signing in with the password ---

    /// Creates the owner directly in the database.
    pub async fn create_owner(&self, email: &str, secret: &str) {
        let hash = password::hash_blocking(&SecretString::from(secret)).unwrap();
        self.db.save_owner(email, &hash, 0, true).await.unwrap();
    }

    pub async fn sign_in(&self, email: &str, secret: &str) -> reqwest::Response {
        self.post_json(
            "/api/session",
            &json!({ "email": email, "password": secret }),
        )
        .await
    }

    /// Creates the owner and signs this client in.
    pub async fn signed_in(&self) {
        self.create_owner(EMAIL, PASSWORD).await;
        assert_eq!(self.sign_in(EMAIL, PASSWORD).await.status(), 200);
    }

    pub async fn sessions_in_db(&self) -> i64 {
        sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
            .fetch_one(&self.sql)
            .await
            .unwrap()
    }

    /// Signs the app's own client in again, the owner already made.
    pub async fn signed_in_again(&self) {
        let response = self.sign_in(EMAIL, PASSWORD).await;
        assert_eq!(response.status(), 200);
    }

    // --- The sessions ---

    /// Signs `client` in with the password.
    pub async fn sign_in_with(&self, client: &reqwest::Client) -> reqwest::Response {
        self.send_with(
            client,
            Method::POST,
            "/api/session",
            Some(&json!({ "email": EMAIL, "password": PASSWORD })),
        )
        .await
    }

    pub async fn sessions_of(&self, client: &reqwest::Client) -> Value {
        let response = self
            .send_with(client, Method::GET, "/api/sessions", None)
            .await;
        assert_eq!(response.status(), 200);
        assert_eq!(response.headers()["cache-control"], "no-store");
        response.json().await.unwrap()
    }

    /// The session list's row of `client`'s own session.
    pub async fn current_session_of(&self, client: &reqwest::Client) -> Value {
        let list = self.sessions_of(client).await;
        list["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["current"] == true)
            .unwrap()
            .clone()
    }

    /// Signs the session with this id out from `client`'s list.
    pub async fn sign_out_session(&self, client: &reqwest::Client, id: &str) -> reqwest::Response {
        self.send_with(client, Method::DELETE, &format!("/api/sessions/{id}"), None)
            .await
    }

    // --- The second factor ---

    /// The code the owner's app shows now, on the server's clock.
    pub fn code_now(&self, uri: &str) -> String {
        code_at(uri, self.clock.now_ms())
    }

    /// Moves the server's sign-in clock `secs` ahead.
    pub fn advance(&self, secs: i64) {
        self.clock.advance_ms(secs * 1000);
    }

    /// With this client signed in: sets the second factor up and confirms it; the `otpauth://`
    /// address and the recovery codes. The clock then moves to the next step, so that the next
    /// code is a new one.
    pub async fn turn_second_factor_on(&self, client: &reqwest::Client) -> (String, Vec<String>) {
        let setup = self
            .send_with(
                client,
                Method::POST,
                "/api/session/second-factor/setup",
                None,
            )
            .await;
        assert_eq!(setup.status(), 200);
        let setup: Value = setup.json().await.unwrap();
        let uri = setup["uri"].as_str().unwrap().to_owned();
        let confirmed = self
            .send_with(
                client,
                Method::POST,
                "/api/session/second-factor/confirm",
                Some(&json!({ "code": self.code_now(&uri) })),
            )
            .await;
        assert_eq!(confirmed.status(), 200);
        let codes = recovery_codes(&confirmed.json().await.unwrap());
        self.advance(30);
        (uri, codes)
    }

    /// With `client`'s session: whether the second factor is on, and the recovery codes left.
    pub async fn second_factor_of(&self, client: &reqwest::Client) -> Value {
        self.send_with(client, Method::GET, "/api/session/second-factor", None)
            .await
            .json()
            .await
            .unwrap()
    }

    /// A fresh browser the password has signed in as far as the code.
    pub async fn pending_browser(&self) -> reqwest::Client {
        let browser = fresh_browser();
        assert_eq!(self.sign_in_with(&browser).await.status(), 202);
        browser
    }

    pub async fn send_code(&self, client: &reqwest::Client, code: &str) -> reqwest::Response {
        self.send_with(
            client,
            Method::POST,
            "/api/session/code",
            Some(&json!({ "code": code })),
        )
        .await
    }

    // --- Passkeys ---

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

    // --- A way back in ---

    pub async fn forgot(&self, email: &str) -> reqwest::Response {
        self.post_json("/api/session/forgot", &json!({ "email": email }))
            .await
    }

    pub async fn reset(
        &self,
        token: &str,
        password: &str,
        code: Option<&str>,
    ) -> reqwest::Response {
        let mut body = json!({ "token": token, "password": password });
        if let Some(code) = code {
            body["code"] = json!(code);
        }
        // A browser of its own: the reset page, signed in nowhere.
        self.send_with(
            &TestApp::other_client(),
            Method::POST,
            "/api/session/reset",
            Some(&body),
        )
        .await
    }

    // --- Against a stolen session ---

    /// Whether `client` holds a valid session.
    pub async fn is_signed_in(&self, client: &reqwest::Client) -> bool {
        let status = self
            .send_with(client, Method::GET, "/api/session", None)
            .await
            .status();
        assert!(status == 200 || status == 401, "{status}");
        status == 200
    }

    /// A browser of its own, signed in with the password.
    pub async fn another_signed_in_browser(&self) -> reqwest::Client {
        let browser = TestApp::other_client();
        assert_eq!(self.sign_in_with(&browser).await.status(), 200);
        browser
    }

    /// Changes the password from the app's own session, the current one proven.
    pub async fn change_password(&self, new: &str) -> reqwest::Response {
        self.send(
            Method::PUT,
            "/api/session/password",
            Some(&json!({ "currentPassword": PASSWORD, "newPassword": new })),
        )
        .await
    }

    pub async fn sign_out_with_link(&self, token: &str) -> reqwest::Response {
        self.send_with(
            &TestApp::other_client(),
            Method::POST,
            "/api/session/sign-out-link",
            Some(&json!({ "token": token })),
        )
        .await
    }
}
