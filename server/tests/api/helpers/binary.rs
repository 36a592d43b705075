//! The `portfolio` binary: its commands on a test's database, and [`Serve`], the one way a test
//! starts `portfolio serve` as a process of its own.

use std::ffi::{OsStr, OsString};
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Output, Stdio};
use std::sync::{mpsc, Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use super::{test_key_file, TestApp, PATIENCE};

/// The path of the `portfolio` binary built for these tests.
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_portfolio")
}

/// A [`test_key_file`] for the binary started on a test's database (needed with PostgreSQL).
pub fn binary_key_file() -> PathBuf {
    test_key_file(Path::new(env!("CARGO_TARGET_TMPDIR")))
}

/// `portfolio content <args>` on the app's database.
pub fn content_command(app: &TestApp, args: &[&str]) -> std::process::Output {
    Command::new(binary())
        .arg("content")
        .args(args)
        .env("PORTFOLIO_DATABASE_URL", &app.database_url)
        .output()
        .expect("the command runs")
}

/// `portfolio owner <args>` on the app's database.
pub fn owner_command(app: &TestApp, args: &[&str]) -> std::process::Output {
    Command::new(binary())
        .arg("owner")
        .args(args)
        .env("PORTFOLIO_DATABASE_URL", &app.database_url)
        .output()
        .expect("the command runs")
}

/// How `portfolio serve --listen 127.0.0.1:0` starts (with `RUST_LOG=info`), for a test of the
/// binary itself or of a server whose process must be its own (killed, its memory or metrics
/// measured). [`Serve::start`] starts it.
#[must_use = "the server starts with `start`"]
pub struct Serve {
    args: Vec<OsString>,
    envs: Vec<(OsString, Option<OsString>)>,
    current_dir: Option<PathBuf>,
    umask_022: bool,
    nobody: bool,
}

impl Serve {
    pub fn new() -> Self {
        Self {
            args: ["serve", "--listen", "127.0.0.1:0"]
                .into_iter()
                .map(OsString::from)
                .collect(),
            envs: Vec::new(),
            current_dir: None,
            umask_022: false,
            nobody: false,
        }
    }

    /// `--database-url`.
    pub fn database(self, database_url: &str) -> Self {
        self.args(["--database-url", database_url])
    }

    /// The key every test seals with ([`binary_key_file`]), as `PORTFOLIO_SECRET_KEY_FILE`.
    pub fn test_key(self) -> Self {
        self.env("PORTFOLIO_SECRET_KEY_FILE", binary_key_file())
    }

    pub fn arg(mut self, arg: impl AsRef<OsStr>) -> Self {
        self.args.push(arg.as_ref().to_owned());
        self
    }

    pub fn args<S: AsRef<OsStr>>(mut self, args: impl IntoIterator<Item = S>) -> Self {
        self.args
            .extend(args.into_iter().map(|a| a.as_ref().to_owned()));
        self
    }

    pub fn env(mut self, name: impl AsRef<OsStr>, value: impl AsRef<OsStr>) -> Self {
        self.envs
            .push((name.as_ref().to_owned(), Some(value.as_ref().to_owned())));
        self
    }

    /// Leaves this variable of the test's own environment out.
    pub fn env_remove(mut self, name: impl AsRef<OsStr>) -> Self {
        self.envs.push((name.as_ref().to_owned(), None));
        self
    }

    pub fn current_dir(mut self, dir: &Path) -> Self {
        self.current_dir = Some(dir.to_path_buf());
        self
    }

    /// Started by a shell under umask 022, as a shell would start it.
    pub fn umask_022(mut self) -> Self {
        self.umask_022 = true;
        self
    }

    /// As the user `nobody` (root may write any file, whatever its mode).
    pub fn nobody(mut self) -> Self {
        self.nobody = true;
        self
    }

    /// Runs it, expecting its start-up to stop (nothing on its standard input): its output.
    pub fn refused(self) -> Output {
        let output = self
            .command()
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs");
        assert!(
            !output.status.success(),
            "the server must not start: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        output
    }

    /// Starts the process (logging at `info` unless told otherwise) and waits until it says
    /// where it listens (and where its metrics are, when `--metrics-listen` is given). Its
    /// output, standard and error, is collected ([`ServerProcess::lines`]) from then on; it is
    /// killed when dropped.
    pub fn start(mut self) -> ServerProcess {
        self.envs
            .insert(0, ("RUST_LOG".into(), Some("info".into())));
        let child = self
            .command()
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the server starts");
        self.wait_until_listening(child)
    }

    fn command(&self) -> Command {
        let mut command = if self.umask_022 {
            let mut shell = Command::new("sh");
            shell
                .arg("-c")
                .arg("umask 022; exec \"$0\" \"$@\"")
                .arg(binary());
            shell
        } else {
            Command::new(binary())
        };
        command.args(&self.args);
        for (name, value) in &self.envs {
            match value {
                Some(value) => command.env(name, value),
                None => command.env_remove(name),
            };
        }
        if let Some(dir) = &self.current_dir {
            command.current_dir(dir);
        }
        if self.nobody {
            use std::os::unix::process::CommandExt;
            command.uid(65534).gid(65534);
        }
        command
    }

    fn wait_until_listening(&self, mut child: Child) -> ServerProcess {
        let lines = Arc::new(Mutex::new(Vec::new()));
        let (tx, rx) = mpsc::channel();
        let readers = vec![
            collect(child.stdout.take().unwrap(), &lines, tx.clone()),
            collect(child.stderr.take().unwrap(), &lines, tx),
        ];

        let wants_metrics = self.args.iter().any(|a| a == "--metrics-listen");
        let (mut url, mut metrics) = (None, None);
        while url.is_none() || (wants_metrics && metrics.is_none()) {
            let line = match rx.recv_timeout(PATIENCE) {
                Ok(line) => line,
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    let _ = child.kill();
                    panic!(
                        "the server did not say where it listens within {PATIENCE:?}: {:?}",
                        lines.lock().unwrap()
                    )
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => panic!(
                    "the server stopped before it listened: {:?}",
                    lines.lock().unwrap()
                ),
            };
            let after = |marker: &str| {
                line.find(marker).map(|at| {
                    line[at + marker.len()..]
                        .split(|c: char| c == '"' || c.is_whitespace())
                        .next()
                        .unwrap()
                        .to_owned()
                })
            };
            // Not the warning about insecure cookies, which names the listen address too.
            if let Some(found) = after("listening on ").filter(|found| found.starts_with("http")) {
                url = Some(found);
            }
            if let Some(found) = after("metrics on ") {
                metrics = Some(found);
            }
        }
        ServerProcess {
            child,
            url: url.unwrap(),
            metrics,
            lines,
            readers,
        }
    }
}

impl Default for Serve {
    fn default() -> Self {
        Self::new()
    }
}

/// Reads `from` line by line into `lines` in a thread of its own (so that the server never
/// blocks writing its log), passing each line to `tx` too while anyone listens.
fn collect(
    from: impl Read + Send + 'static,
    lines: &Arc<Mutex<Vec<String>>>,
    tx: mpsc::Sender<String>,
) -> JoinHandle<()> {
    let lines = lines.clone();
    std::thread::spawn(move || {
        for line in BufReader::new(from).lines() {
            let Ok(line) = line else { break };
            lines.lock().unwrap().push(line.clone());
            let _ = tx.send(line);
        }
    })
}

/// `portfolio serve` running, killed when dropped.
pub struct ServerProcess {
    pub child: Child,
    /// Its base URL, as it logged it (`http://127.0.0.1:PORT`, or `https://…`).
    pub url: String,
    /// Its metrics' URL, when it was given `--metrics-listen`.
    pub metrics: Option<String>,
    lines: Arc<Mutex<Vec<String>>>,
    readers: Vec<JoinHandle<()>>,
}

impl ServerProcess {
    /// Every line it has written so far, standard output and error.
    pub fn lines(&self) -> Vec<String> {
        self.lines.lock().unwrap().clone()
    }

    /// The first line it has written that `matches`, if any.
    pub fn line_where(&self, matches: impl Fn(&str) -> bool) -> Option<String> {
        self.lines
            .lock()
            .unwrap()
            .iter()
            .find(|line| matches(line))
            .cloned()
    }

    /// Waits, at most [`PATIENCE`], for a line that `matches` (blocking the thread).
    pub fn wait_for_line(&self, what: &str, matches: impl Fn(&str) -> bool) -> String {
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            if let Some(line) = self.line_where(&matches) {
                return line;
            }
            assert!(std::time::Instant::now() < deadline, "no log line: {what}");
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// SIGKILL, and waits for the process and for the last of its output.
    pub fn kill(&mut self) {
        self.child.kill().expect("the server is killed");
        self.child.wait().expect("the server is gone");
        for reader in self.readers.drain(..) {
            reader.join().expect("its output is read");
        }
    }

    /// SIGTERM, and waits for the process to exit, at most [`PATIENCE`].
    pub fn terminate(&mut self) -> ExitStatus {
        let pid = self.child.id().to_string();
        Command::new("kill")
            .args(["-TERM", &pid])
            .status()
            .expect("kill runs");
        let deadline = std::time::Instant::now() + PATIENCE;
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("the server did not stop within {PATIENCE:?}");
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
