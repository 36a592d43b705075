//! Requests to a [`TestApp`], as a browser on the site's own pages sends them.

use serde_json::Value;

use super::TestApp;

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("{}{}", self.address, path)
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("the request is sent")
    }

    pub async fn get_with(&self, path: &str, headers: &[(&str, &str)]) -> reqwest::Response {
        let mut request = self.client.get(self.url(path));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.send().await.expect("the request is sent")
    }

    /// A same-origin POST with a JSON body, as the site's own pages send it.
    pub async fn post_json(&self, path: &str, body: &Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .json(body)
            .send()
            .await
            .expect("the request is sent")
    }

    /// A same-origin request with an optional JSON body, as the site's pages send it.
    pub async fn send(
        &self,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> reqwest::Response {
        self.send_with(&self.client, method, path, body).await
    }

    pub async fn send_with(
        &self,
        client: &reqwest::Client,
        method: reqwest::Method,
        path: &str,
        body: Option<&Value>,
    ) -> reqwest::Response {
        let mut request = client
            .request(method, self.url(path))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin");
        if let Some(body) = body {
            request = request.json(body);
        }
        request.send().await.expect("the request is sent")
    }

    /// Another browser: its own cookies.
    pub fn other_client() -> reqwest::Client {
        reqwest::Client::builder()
            .cookie_store(true)
            .build()
            .unwrap()
    }
}

/// The `Set-Cookie` headers of an answer.
pub fn set_cookies(response: &reqwest::Response) -> Vec<String> {
    response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_owned())
        .collect()
}
