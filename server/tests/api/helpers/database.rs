//! The databases under test (a SQLite file, or a database of its own on the PostgreSQL server
//! under test), the secret key every test seals with, and plain SQL for set-up and checks.

use std::path::{Path, PathBuf};

use super::TestApp;

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

/// Waits until `n` messages wait for their commit in the server's writer.
pub async fn until_commit_waiting(app: &TestApp, n: u64) {
    tokio::time::timeout(super::PATIENCE, async {
        while app.db.group_commit_stats().unwrap().waiting < n {
            tokio::time::sleep(std::time::Duration::from_millis(5)).await;
        }
    })
    .await
    .unwrap_or_else(|_| panic!("{n} messages queue up behind the lock"));
}
