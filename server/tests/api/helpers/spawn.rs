//! The one way a test starts a server in its own process: [`Spawn`] (or its shorthands
//! [`spawn_app`] and [`spawn_app_with`]) gives a [`TestApp`]; the binary as a child process is
//! [`super::Serve`].

use std::future::{Future, IntoFuture};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::pin::Pin;

use portfolio::app::Application;
use portfolio::config::Settings;
use tokio::sync::oneshot;

use super::{fresh_database_url, sql_pool, test_key_file};

pub struct TestApp {
    pub address: String,
    pub port: u16,
    /// The plain-HTTP listener that redirects to HTTPS, when the server has one.
    pub redirect: Option<SocketAddr>,
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

/// Starts the server with the test settings and a fresh database.
pub async fn spawn_app() -> TestApp {
    Spawn::new().await
}

/// Starts the server after `configure` has adjusted its settings.
pub async fn spawn_app_with(configure: impl FnOnce(&mut Settings)) -> TestApp {
    Spawn::new().settings(configure).await
}

/// How a server starts, awaited to start it: by default on a fresh database in a fresh folder,
/// with the test settings (one secret key for every test, no minimum fill time, a generous
/// challenge allowance, quick compression).
#[must_use = "a server starts when awaited"]
pub struct Spawn<'a> {
    data_dir: Option<tempfile::TempDir>,
    database_url: Option<String>,
    restored_from: Option<PathBuf>,
    configure: Vec<Configure<'a>>,
}

/// One adjustment of the settings.
type Configure<'a> = Box<dyn FnOnce(&mut Settings) + 'a>;

impl<'a> Spawn<'a> {
    pub fn new() -> Self {
        Self {
            data_dir: None,
            database_url: None,
            restored_from: None,
            configure: Vec::new(),
        }
    }

    /// Adjusts the settings after the test settings (applied in order when given more than once).
    pub fn settings(mut self, configure: impl FnOnce(&mut Settings) + 'a) -> Self {
        self.configure.push(Box::new(configure));
        self
    }

    /// On an existing database (another instance may be using it too).
    pub fn database(mut self, database_url: impl Into<String>) -> Self {
        self.database_url = Some(database_url.into());
        self
    }

    /// With this data folder (one [`TestApp::shutdown_keeping_data`] gave back, say).
    pub fn data_dir(mut self, data_dir: tempfile::TempDir) -> Self {
        self.data_dir = Some(data_dir);
        self
    }

    /// On a copy of a SQLite backup, in a folder of its own: a restore.
    pub fn restored_from(mut self, backup: &Path) -> Self {
        self.restored_from = Some(backup.to_path_buf());
        self
    }

    /// Builds the server, expecting its start-up to stop: the error it stops with.
    pub async fn refused(self) -> anyhow::Error {
        let (_data_dir, _database_url, settings) = self.prepare().await;
        match Application::build(settings).await {
            Ok(_) => panic!("start-up must fail"),
            Err(error) => error,
        }
    }

    /// The data folder, the database and the settings the server starts with.
    async fn prepare(self) -> (tempfile::TempDir, String, Settings) {
        let data_dir = match self.data_dir {
            Some(dir) => dir,
            None => tempfile::tempdir().expect("a temporary folder"),
        };
        let database_url = match (self.restored_from, self.database_url) {
            (Some(backup), _) => {
                let restored_file = data_dir.path().join("portfolio.db");
                std::fs::copy(backup, &restored_file).expect("the backup is copied");
                format!("sqlite://{}", restored_file.display())
            }
            (None, Some(url)) => url,
            (None, None) => fresh_database_url(data_dir.path()).await,
        };

        let mut settings = Settings::for_database(&database_url);
        // One key for every test, so that instances on one database (each with a folder of its
        // own), a restored backup and the binary all open what another sealed.
        settings.secrets.secret_key_file = Some(test_key_file(data_dir.path()));
        // Tests send a form as soon as they have its token; the spam tests set the 3 s back.
        settings.spam.min_fill_ms = 0;
        // Every test client is 127.0.0.1, one network: its challenges would grow past the first
        // ten an hour. The spam tests set the allowance back.
        settings.spam.challenge_free_per_hour = 10_000;
        // Brotli's best took half the suite's processor time, each server compressing the same
        // page; the browser tests check the sizes the real setting makes.
        settings.compression = portfolio::config::Effort::Quick;
        for configure in self.configure {
            configure(&mut settings);
        }
        (data_dir, database_url, settings)
    }

    async fn start(self) -> TestApp {
        let (data_dir, database_url, settings) = self.prepare().await;

        let app = Application::build(settings)
            .await
            .expect("the application builds");
        let port = app.port();
        let redirect = app.redirect_addr();
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
            redirect,
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
}

impl Default for Spawn<'_> {
    fn default() -> Self {
        Self::new()
    }
}

impl<'a> IntoFuture for Spawn<'a> {
    type Output = TestApp;
    type IntoFuture = Pin<Box<dyn Future<Output = TestApp> + 'a>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(self.start())
    }
}

impl TestApp {
    /// Stops the server gracefully and waits for it.
    pub async fn shutdown(self) {
        drop(self.shutdown_keeping_data().await);
    }

    /// Stops the server gracefully and hands its data folder back, for a next start on it
    /// ([`Spawn::data_dir`]).
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
