//! `spawn_app`: a fresh server and database per test, and a `TestApp` with one method per endpoint.
#![allow(dead_code)] // The feature modules use what the foundation tests do not.

use std::path::PathBuf;

use portfolio::app::Application;
use portfolio::config::Settings;
use tokio::sync::oneshot;

pub struct TestApp {
    pub address: String,
    pub port: u16,
    pub client: reqwest::Client,
    pub db: portfolio::store::Db,
    pub database_url: String,
    pub data_dir: tempfile::TempDir,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<anyhow::Result<()>>>,
}

/// Starts the server with default settings and a fresh database.
pub async fn spawn_app() -> TestApp {
    spawn_app_with(|_| {}).await
}

/// Starts the server after `configure` has adjusted its settings.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Settings)) -> TestApp {
    let data_dir = tempfile::tempdir().expect("a temporary folder");
    let database_url = format!("sqlite://{}", data_dir.path().join("test.db").display());
    let mut settings = Settings::for_database(&database_url);
    configure(&mut settings);

    let app = Application::build(settings)
        .await
        .expect("the application builds");
    let port = app.port();
    let db = app.state().db.clone();
    let (stop, stopped) = oneshot::channel::<()>();
    let task = tokio::spawn(app.run_until(async {
        let _ = stopped.await;
    }));

    let client = reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .cookie_store(true)
        .build()
        .expect("an HTTP client");
    TestApp {
        address: format!("http://127.0.0.1:{port}"),
        port,
        client,
        db,
        database_url,
        data_dir,
        stop: Some(stop),
        task: Some(task),
    }
}

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
    pub async fn post_json(&self, path: &str, body: &serde_json::Value) -> reqwest::Response {
        self.client
            .post(self.url(path))
            .header("Origin", &self.address)
            .header("Sec-Fetch-Site", "same-origin")
            .json(body)
            .send()
            .await
            .expect("the request is sent")
    }

    /// Stops the server gracefully and waits for it.
    pub async fn shutdown(mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await
                .expect("the server task")
                .expect("the server stops cleanly");
        }
    }

    pub fn data_path(&self) -> PathBuf {
        self.data_dir.path().to_path_buf()
    }
}

/// The path of the `portfolio` binary built for these tests.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_portfolio")
}

/// Reads a spawned server's log lines until it says where it listens, and returns that URL.
pub fn listening_url(lines: &mut impl Iterator<Item = std::io::Result<String>>) -> String {
    loop {
        let line = lines
            .next()
            .expect("the server prints its address")
            .expect("a readable log line");
        if let Some(at) = line.find("listening on http://") {
            return line[at + "listening on ".len()..].trim().to_owned();
        }
    }
}
