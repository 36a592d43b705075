//! The site's features beside signing in: the visitor's beacons and the owner's dashboard (the
//! inbox, links, figures, notifications, uploads).

use serde_json::Value;

use super::TestApp;

/// Browsers as the counting sees them.
pub const DESKTOP_UA: &str = "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0.0.0 Safari/537.36";
pub const PHONE_UA: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1";

/// A client whose connections come from `local`, a loopback address.
pub fn from(local: &str) -> reqwest::Client {
    reqwest::Client::builder()
        .local_address(local.parse::<std::net::IpAddr>().unwrap())
        .build()
        .unwrap()
}

impl TestApp {
    // --- The inbox ---

    /// Stores a contact message as the contact form would; returns its id.
    pub async fn insert_message(
        &self,
        name: &str,
        subject: &str,
        message: &str,
        created_at: i64,
    ) -> i64 {
        let email = format!("{}@example.org", name.to_lowercase().replace(' ', "."));
        let form = portfolio::domain::ContactForm::parse(name, &email, subject, message, "contact")
            .expect("a valid message");
        // Through the store, as the contact form stores it (the search column included).
        self.db
            .insert_message(&portfolio::store::NewMessage {
                form: &form,
                spam_reason: None,
                user_agent: None,
                created_at,
                notify: false,
                channels: &[],
                proofs: Default::default(),
                link: None,
            })
            .await
            .unwrap()
            .id
    }

    pub async fn messages(&self, query: &str) -> Value {
        let response = self.get(&format!("/api/messages{query}")).await;
        assert_eq!(response.status(), 200, "/api/messages{query}");
        response.json().await.unwrap()
    }

    // --- Links ---

    /// Makes a link as the owner (the client must be signed in); its JSON.
    pub async fn create_link(&self, body: &Value) -> Value {
        let response = self.post_json("/api/links", body).await;
        assert_eq!(response.status(), 201, "{:?}", response.text().await);
        response.json().await.unwrap()
    }

    /// `GET /api/links/{id}`: the link and its days.
    pub async fn link(&self, id: i64) -> Value {
        let response = self.get(&format!("/api/links/{id}")).await;
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    /// The page's beacon for a link, from a browser with these headers.
    pub async fn link_visit_with(
        &self,
        body: &Value,
        headers: &[(&str, &str)],
    ) -> reqwest::Response {
        let mut request = reqwest::Client::new()
            .post(self.url("/api/links/visits"))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("the beacon is sent")
    }

    pub async fn link_visit(&self, body: &Value) -> reqwest::Response {
        self.link_visit_with(body, &[("User-Agent", DESKTOP_UA)])
            .await
    }

    // --- Insights ---

    /// A beacon as the page sends it, from a browser with these headers.
    pub async fn beacon_with(&self, body: &Value, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut request = self
            .client
            .post(self.url("/api/insights/events"))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .json(body);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("the beacon is sent")
    }

    pub async fn beacon(&self, body: &Value) -> reqwest::Response {
        self.beacon_with(body, &[("User-Agent", DESKTOP_UA)]).await
    }

    /// A beacon from another client address (`127.0.0.2`, `127.0.0.3` …: each its own
    /// network), with this User-Agent.
    pub async fn beacon_from(
        &self,
        local: &str,
        body: &Value,
        user_agent: &str,
    ) -> reqwest::Response {
        from(local)
            .post(self.url("/api/insights/events"))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .header("User-Agent", user_agent)
            .json(body)
            .send()
            .await
            .expect("the beacon is sent")
    }

    /// The owner's figures for the last `days` days (the client must be signed in).
    pub async fn figures(&self, days: u32) -> Value {
        let response = self.get(&format!("/api/insights?days={days}")).await;
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    // --- Notifications ---

    pub async fn delivery_of(&self, message_id: i64) -> Value {
        let response = self
            .get(&format!(
                "/api/notifications/status?messageIds={message_id}"
            ))
            .await;
        assert_eq!(response.status(), 200);
        let body: Value = response.json().await.unwrap();
        body["messages"][0].clone()
    }

    pub async fn notification(&self, id: i64) -> Value {
        let response = self.get(&format!("/api/notifications/{id}")).await;
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    pub async fn delivery_health(&self) -> Value {
        let response = self.get("/api/notifications/health").await;
        assert_eq!(response.status(), 200);
        response.json().await.unwrap()
    }

    // --- Uploads ---

    /// Sends a file's bytes as the dashboard does: same-origin, the name in the query.
    pub async fn upload(&self, path: &str, bytes: Vec<u8>, filename: &str) -> reqwest::Response {
        self.client
            .post(self.url(&format!("{path}?filename={filename}")))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .header("Content-Type", "application/octet-stream")
            .body(bytes)
            .send()
            .await
            .expect("the request is sent")
    }
}
