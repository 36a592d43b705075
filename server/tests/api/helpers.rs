//! `spawn_app`: a fresh server and database per test, and a `TestApp` with one method per endpoint.
#![allow(dead_code)] // The feature modules use what the foundation tests do not.

use std::path::{Path, PathBuf};

use portfolio::app::Application;
use portfolio::config::Settings;
use tokio::sync::oneshot;

pub struct TestApp {
    pub address: String,
    pub port: u16,
    pub client: reqwest::Client,
    /// The server's own store, for set-up the API does not offer.
    pub db: portfolio::store::Db,
    /// Plain SQL on the same database, for checks: `$1`-style parameters read alike on both engines.
    pub sql: sqlx::AnyPool,
    /// The sign-in features' clock, which a test may move while the server runs.
    pub clock: portfolio::clock::SharedClock,
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
    let database_url = fresh_database_url(data_dir.path()).await;
    spawn_app_on(data_dir, database_url, configure).await
}

/// Starts the server on a copy of a SQLite backup, in a folder of its own: a restore.
pub async fn spawn_app_restored(backup: &Path) -> TestApp {
    let restored_dir = tempfile::tempdir().expect("a temporary folder");
    let restored_file = restored_dir.path().join("portfolio.db");
    std::fs::copy(backup, &restored_file).expect("the backup is copied");
    spawn_app_on(
        restored_dir,
        format!("sqlite://{}", restored_file.display()),
        |_| {},
    )
    .await
}

/// Starts the server on an existing database (another instance may be using it too).
pub async fn spawn_app_on(
    data_dir: tempfile::TempDir,
    database_url: String,
    configure: impl FnOnce(&mut Settings),
) -> TestApp {
    let mut settings = Settings::for_database(&database_url);
    // One key for every test, so that instances on one database (each with a folder of its
    // own), a restored backup and the binary all open what another sealed.
    settings.secrets.secret_key_file = Some(test_key_file(data_dir.path()));
    // Tests send a form as soon as they have its token; the spam tests set the 3 s back.
    settings.spam.min_fill_ms = 0;
    // Every test client is 127.0.0.1, one network: its challenges would grow past the first ten
    // an hour. The spam tests set the allowance back.
    settings.spam.challenge_free_per_hour = 10_000;
    // Brotli's best took half the suite's processor time, each server compressing the same page;
    // the browser tests check the sizes the real setting makes.
    settings.compression = portfolio::config::Effort::Quick;
    configure(&mut settings);

    let app = Application::build(settings)
        .await
        .expect("the application builds");
    let port = app.port();
    let db = app.state().db.clone();
    let clock = app.state().auth.clock.clone();
    let sql = sql_pool(&database_url).await;
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
        sql,
        clock,
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
    pub async fn shutdown(self) {
        drop(self.shutdown_keeping_data().await);
    }

    /// Stops the server gracefully and hands its data folder back, for a next start on it.
    pub async fn shutdown_keeping_data(mut self) -> tempfile::TempDir {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            task.await
                .expect("the server task")
                .expect("the server stops cleanly");
        }
        self.data_dir
    }

    pub fn data_path(&self) -> PathBuf {
        self.data_dir.path().to_path_buf()
    }
}

/// The key that seals the server's secrets in every test (`--secret-key-file`).
pub const TEST_SECRET_KEY: &str =
    "7e57ab1e7e57ab1e7e57ab1e7e57ab1e7e57ab1e7e57ab1e7e57ab1e7e57ab1e";

/// `dir/secret.key` holding [`TEST_SECRET_KEY`] (written when missing); give it to the binary as
/// `PORTFOLIO_SECRET_KEY_FILE` when it runs on a test's PostgreSQL database.
pub fn test_key_file(dir: &Path) -> PathBuf {
    use std::io::Write;
    use std::os::unix::fs::OpenOptionsExt;
    let path = dir.join("secret.key");
    if !path.exists() {
        // Written aside and renamed: a test process that reads it meanwhile finds it whole.
        let aside = dir.join(format!("secret.key.{}", hex_token()));
        let mut file = std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&aside)
            .expect("the test's key file");
        file.write_all(format!("{TEST_SECRET_KEY}\n").as_bytes())
            .expect("the test's key file");
        std::fs::rename(&aside, &path).expect("the test's key file");
    }
    path
}

/// A [`test_key_file`] for the binary started on a test's database (needed with PostgreSQL).
pub fn binary_key_file() -> PathBuf {
    test_key_file(Path::new(env!("CARGO_TARGET_TMPDIR")))
}

/// The PostgreSQL server the suite runs against, when it runs against one (`TEST_DATABASE_URL`,
/// set by `scripts/pg-test-cluster run` or pointing at a server of your own); SQLite otherwise.
pub fn postgres_server() -> Option<String> {
    std::env::var("TEST_DATABASE_URL")
        .ok()
        .filter(|url| !url.is_empty())
}

pub fn on_postgres() -> bool {
    postgres_server().is_some()
}

/// A fresh, empty database for one test: a new database on the PostgreSQL server under test,
/// or a SQLite file in `dir`.
pub async fn fresh_database_url(dir: &Path) -> String {
    match postgres_server() {
        Some(server) => fresh_postgres_database(&server).await,
        None => format!("sqlite://{}", dir.join("test.db").display()),
    }
}

/// Creates a database with a random name on `server` and returns its URL.
/// For a test that runs only in the PostgreSQL pass: a fresh database on the server under test,
/// or `None` (saying so) in the SQLite pass.
pub async fn postgres_only_database() -> Option<String> {
    let Some(server) = postgres_server() else {
        eprintln!("skipped: runs in the PostgreSQL pass");
        return None;
    };
    Some(fresh_postgres_database(&server).await)
}

pub async fn fresh_postgres_database(server: &str) -> String {
    use sqlx::Connection;
    let name = format!("test_{}", hex_token());
    let mut admin = sqlx::PgConnection::connect(server)
        .await
        .expect("the PostgreSQL server under test answers");
    sqlx::query(&format!("CREATE DATABASE {name}"))
        .execute(&mut admin)
        .await
        .expect("a database for the test");
    admin.close().await.ok();
    let mut url = url::Url::parse(server).expect("TEST_DATABASE_URL is a URL");
    url.set_path(&format!("/{name}"));
    url.to_string()
}

fn hex_token() -> String {
    use rand::Rng;
    format!("{:016x}", rand::thread_rng().gen::<u64>())
}

/// A PostgreSQL cluster of a test's own (`scripts/pg-test-cluster`), for tests that stop and
/// crash the server; destroyed when dropped.
pub struct PgCluster {
    dir: PathBuf,
    pub url: String,
}

impl PgCluster {
    fn script() -> &'static str {
        concat!(env!("CARGO_MANIFEST_DIR"), "/../scripts/pg-test-cluster")
    }

    fn run(args: &[&str]) -> String {
        let output = std::process::Command::new(Self::script())
            .args(args)
            .output()
            .expect("scripts/pg-test-cluster runs");
        assert!(
            output.status.success(),
            "pg-test-cluster {args:?}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        String::from_utf8_lossy(&output.stdout).trim().to_owned()
    }

    pub fn start() -> Self {
        let dir = std::env::temp_dir().join(format!("portfolio-pg-{}", hex_token()));
        let url = Self::run(&["start", dir.to_str().expect("a UTF-8 path")]);
        Self { dir, url }
    }

    /// Stops PostgreSQL as a crash would (`immediate`: no checkpoint, recovery from the WAL at
    /// the next start), then starts it again on the same port.
    pub fn crash_and_restart(&self) {
        let dir = self.dir.to_str().expect("a UTF-8 path");
        Self::run(&["stop", dir, "immediate"]);
        Self::run(&["start", dir]);
    }

    pub fn stop(&self) {
        Self::run(&["stop", self.dir.to_str().expect("a UTF-8 path")]);
    }

    pub fn restart(&self) {
        Self::run(&["start", self.dir.to_str().expect("a UTF-8 path")]);
    }
}

impl Drop for PgCluster {
    fn drop(&mut self) {
        let _ = std::process::Command::new(Self::script())
            .args(["destroy", &self.dir.to_string_lossy()])
            .output();
    }
}

/// A small pool for checks in plain SQL, on either engine.
pub async fn sql_pool(database_url: &str) -> sqlx::AnyPool {
    sqlx::any::install_default_drivers();
    sqlx::any::AnyPoolOptions::new()
        .max_connections(2)
        .connect(database_url)
        .await
        .expect("the test's database opens")
}

/// The path of the `portfolio` binary built for these tests.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_portfolio")
}

/// `portfolio content <args>` on the app's database.
pub fn content_command(app: &TestApp, args: &[&str]) -> std::process::Output {
    std::process::Command::new(binary())
        .arg("content")
        .args(args)
        .env("PORTFOLIO_DATABASE_URL", &app.database_url)
        .output()
        .expect("the command runs")
}

/// `portfolio owner <args>` on the app's database.
pub fn owner_command(app: &TestApp, args: &[&str]) -> std::process::Output {
    std::process::Command::new(binary())
        .arg("owner")
        .args(args)
        .env("PORTFOLIO_DATABASE_URL", &app.database_url)
        .output()
        .expect("the command runs")
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

/// Makes the database refuse any contact message with this subject, by a trigger of the test's
/// own that the server knows nothing of (a message refused for its own reason, not the store's).
pub async fn refuse_subject(app: &TestApp, subject: &str) {
    let subject = subject.replace('\'', "''");
    let statements = if on_postgres() {
        vec![
            format!(
                "CREATE FUNCTION refuse_one() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN \
                 IF NEW.subject = '{subject}' THEN RAISE EXCEPTION 'refused by the test'; END IF; \
                 RETURN NEW; END $$"
            ),
            "CREATE TRIGGER refuse_one BEFORE INSERT ON contact_messages \
             FOR EACH ROW EXECUTE FUNCTION refuse_one()"
                .to_owned(),
        ]
    } else {
        vec![format!(
            "CREATE TRIGGER refuse_one BEFORE INSERT ON contact_messages \
             WHEN NEW.subject = '{subject}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END"
        )]
    };
    for statement in statements {
        sqlx::query(&statement).execute(&app.sql).await.unwrap();
    }
}

/// Holds the server's writer: takes SQLite's write lock from another connection (on PostgreSQL,
/// a lock on the messages' table that the server's `INSERT` waits for) and keeps it until
/// `ROLLBACK` on the returned connection: messages sent meanwhile wait for their commit.
pub async fn hold_contact_inserts(app: &TestApp) -> sqlx::pool::PoolConnection<sqlx::Any> {
    let mut lock = app.sql.acquire().await.unwrap();
    if on_postgres() {
        sqlx::query("BEGIN").execute(&mut *lock).await.unwrap();
        sqlx::query("LOCK TABLE contact_messages IN SHARE MODE")
            .execute(&mut *lock)
            .await
            .unwrap();
    } else {
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut *lock)
            .await
            .unwrap();
    }
    lock
}

/// Waits, at most `within`, until `n` messages wait for their commit in the server's writer.
pub async fn until_commit_waiting(app: &TestApp, n: u64, within: std::time::Duration) {
    tokio::time::timeout(within, async {
        while app.db.group_commit_stats().unwrap().waiting < n {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{n} messages queue up behind the lock"));
}
