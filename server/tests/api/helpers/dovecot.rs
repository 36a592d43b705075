//! A Dovecot of a test's own (Debian's dovecot-imapd, installed by `make dovecot`), started on
//! a free port by `scripts/test-dovecot`, unprivileged, IMAPS only, with a certificate the test
//! makes and the server is told to trust (`--imap-ca-file`), one user `site` and a throwaway
//! mailbox; stopped, and its folder deleted, when dropped.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use portfolio::contact::imap::ImapAccount;

/// The mailbox's password: every character that a URL must percent-encode.
pub const PASSWORD: &str = "p@ss:w/rd%";
pub const PASSWORD_IN_URL: &str = "p%40ss%3Aw%2Frd%25";

/// A Dovecot of the test's own, in a fresh folder; stopped (and the folder deleted) when dropped.
pub struct TestDovecot {
    pub dir: tempfile::TempDir,
    pub port: u16,
}

impl TestDovecot {
    pub fn script() -> PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../scripts/test-dovecot")
    }

    /// Runs the script with `args` (the folder first), standard input from `input`; panics with
    /// its standard error when it fails.
    fn run(&self, command: &str, extra: &[&str], input: Option<&[u8]>) {
        let mut child = Command::new(Self::script())
            .arg(command)
            .arg(self.dir.path())
            .args(extra)
            // The watchdog stops this Dovecot should the test process be killed before it can.
            .env("TEST_DOVECOT_OWNER", std::process::id().to_string())
            .stdin(if input.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            })
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("scripts/test-dovecot runs");
        if let Some(input) = input {
            use std::io::Write;
            let mut stdin = child.stdin.take().unwrap();
            stdin.write_all(input).unwrap();
        }
        let output = child.wait_with_output().unwrap();
        assert!(
            output.status.success(),
            "test-dovecot {command}: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert!(
            output.stdout.is_empty() && output.stderr.is_empty(),
            "test-dovecot {command} printed: {} {}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
    }

    /// Starts Dovecot on a free port with a certificate of the test's own for 127.0.0.1 and
    /// localhost.
    pub fn start() -> Self {
        Self::start_for(&["localhost", "127.0.0.1"])
    }

    /// Starts Dovecot on a free port with a certificate for `names` alone.
    pub fn start_for(names: &[&str]) -> Self {
        assert!(
            Path::new("/usr/sbin/dovecot").exists(),
            "Dovecot is not installed: run `make dovecot`"
        );
        let dir = tempfile::Builder::new()
            .prefix("dovecot-")
            .tempdir()
            .unwrap();
        let names = names
            .iter()
            .map(|name| name.to_string())
            .collect::<Vec<_>>();
        let certified = rcgen::generate_simple_self_signed(names).unwrap();
        std::fs::write(dir.path().join("cert.pem"), certified.cert.pem()).unwrap();
        std::fs::write(
            dir.path().join("key.pem"),
            certified.key_pair.serialize_pem(),
        )
        .unwrap();
        std::fs::write(dir.path().join("password"), PASSWORD).unwrap();
        // The CA file is kept outside Dovecot's folder, as a server's would be.
        std::fs::write(dir.path().join("ca.pem"), certified.cert.pem()).unwrap();
        let dovecot = Self {
            dir,
            port: free_port(),
        };
        dovecot.run("start", &[&dovecot.port.to_string()], None);
        dovecot
    }

    pub fn restart(&self) {
        self.run("start", &[&self.port.to_string()], None);
    }

    pub fn stop(&self) {
        self.run("stop", &[], None);
    }

    pub fn deliver(&self, mail: &[u8]) {
        self.run("deliver", &[], Some(mail));
    }

    pub fn reset_uidvalidity(&self) {
        self.run("reset-uidvalidity", &[], None);
    }

    pub fn ca_file(&self) -> PathBuf {
        self.dir.path().join("ca.pem")
    }

    pub fn url(&self) -> String {
        format!(
            "imaps://site:{PASSWORD_IN_URL}@127.0.0.1:{}/INBOX",
            self.port
        )
    }

    pub fn account(&self) -> ImapAccount {
        ImapAccount::parse(&self.url(), Some(&self.ca_file())).unwrap()
    }
}

impl Drop for TestDovecot {
    fn drop(&mut self) {
        let _ = Command::new(Self::script())
            .arg("stop")
            .arg(self.dir.path())
            .output();
    }
}

/// A free port below the system's ephemeral range, which no listener on port 0 and no outgoing
/// connection of the other tests is given: a stopped Dovecot can start again on it (on a port of
/// that range, another test's server once took it in between: "Address already in use").
pub fn free_port() -> u16 {
    use std::hash::{BuildHasher, Hasher};
    const LOWEST: u32 = 10_000;
    let ephemeral = std::fs::read_to_string("/proc/sys/net/ipv4/ip_local_port_range")
        .ok()
        .and_then(|range| range.split_whitespace().next()?.parse::<u32>().ok())
        .unwrap_or(32_768);
    assert!(
        ephemeral > LOWEST + 1_000,
        "ephemeral ports from {ephemeral}"
    );
    for _ in 0..1_000 {
        let mut random = std::collections::hash_map::RandomState::new().build_hasher();
        random.write_u32(std::process::id());
        let port = u16::try_from(LOWEST + (random.finish() % u64::from(ephemeral - LOWEST)) as u32)
            .expect("below the ephemeral range");
        if std::net::TcpListener::bind(("127.0.0.1", port)).is_ok() {
            return port;
        }
    }
    panic!("no free port between {LOWEST} and {ephemeral}");
}
