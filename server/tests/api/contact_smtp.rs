//! A minimal SMTP server for tests: accepts every message on a local port and keeps it in memory.
//! It speaks just enough of RFC 5321 (EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP, QUIT) for `lettre`.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::Notify;

#[derive(Debug, Clone)]
pub struct ReceivedMail {
    pub from: String,
    pub to: Vec<String>,
    /// Headers and body as sent, dot-stuffing undone.
    pub data: String,
}

impl ReceivedMail {
    /// The value of the first header named `name` (unfolded).
    pub fn header(&self, name: &str) -> Option<String> {
        let head = self.data.split("\r\n\r\n").next()?;
        let unfolded = head.replace("\r\n ", " ").replace("\r\n\t", " ");
        unfolded.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name)
                .then(|| value.trim().to_owned())
        })
    }

    pub fn body(&self) -> String {
        self.data
            .split_once("\r\n\r\n")
            .map(|(_, body)| body.to_owned())
            .unwrap_or_default()
    }
}

pub struct TestSmtp {
    pub port: u16,
    received: Arc<Mutex<Vec<ReceivedMail>>>,
    arrived: Arc<Notify>,
    task: tokio::task::JoinHandle<()>,
}

impl TestSmtp {
    /// Listens on a free local port.
    pub async fn start() -> Self {
        Self::start_on(0).await
    }

    /// Listens on `port` (0 for any free one).
    pub async fn start_on(port: u16) -> Self {
        let listener = TcpListener::bind(("127.0.0.1", port))
            .await
            .expect("the test SMTP server binds");
        let port = listener.local_addr().unwrap().port();
        let received = Arc::new(Mutex::new(Vec::new()));
        let arrived = Arc::new(Notify::new());
        let task = tokio::spawn({
            let received = received.clone();
            let arrived = arrived.clone();
            async move {
                while let Ok((stream, _)) = listener.accept().await {
                    let received = received.clone();
                    let arrived = arrived.clone();
                    tokio::spawn(async move {
                        let _ = session(stream, received, arrived).await;
                    });
                }
            }
        });
        Self {
            port,
            received,
            arrived,
            task,
        }
    }

    /// `--smtp-url` for this server.
    pub fn url(&self) -> String {
        smtp_url(self.port)
    }

    pub fn received(&self) -> Vec<ReceivedMail> {
        self.received.lock().unwrap().clone()
    }

    /// Waits until at least `count` messages have arrived, or panics after `limit`.
    pub async fn wait_for(&self, count: usize, limit: Duration) -> Vec<ReceivedMail> {
        let deadline = tokio::time::Instant::now() + limit;
        loop {
            let notified = self.arrived.notified();
            let mails = self.received();
            if mails.len() >= count {
                return mails;
            }
            if tokio::time::timeout_at(deadline, notified).await.is_err() {
                panic!(
                    "expected {count} e-mail(s) within {limit:?}, got {}",
                    self.received().len()
                );
            }
        }
    }
}

impl Drop for TestSmtp {
    fn drop(&mut self) {
        self.task.abort();
    }
}

pub fn smtp_url(port: u16) -> String {
    format!("smtp://127.0.0.1:{port}?tls=none")
}

async fn session(
    stream: tokio::net::TcpStream,
    received: Arc<Mutex<Vec<ReceivedMail>>>,
    arrived: Arc<Notify>,
) -> std::io::Result<()> {
    let (read, mut write) = stream.into_split();
    let mut lines = BufReader::new(read);
    write.write_all(b"220 test-smtp ESMTP ready\r\n").await?;
    let mut from = String::new();
    let mut to = Vec::new();
    let mut line = String::new();
    loop {
        line.clear();
        if lines.read_line(&mut line).await? == 0 {
            return Ok(());
        }
        let command = line.trim_end().to_owned();
        let verb = command
            .split_whitespace()
            .next()
            .unwrap_or_default()
            .to_ascii_uppercase();
        let reply: &[u8] = match verb.as_str() {
            "EHLO" => b"250-test-smtp\r\n250 8BITMIME\r\n",
            "HELO" | "NOOP" => b"250 OK\r\n",
            "RSET" => {
                from.clear();
                to.clear();
                b"250 OK\r\n"
            }
            "MAIL" => {
                from = address(&command);
                b"250 OK\r\n"
            }
            "RCPT" => {
                to.push(address(&command));
                b"250 OK\r\n"
            }
            "DATA" => {
                write.write_all(b"354 end with <CRLF>.<CRLF>\r\n").await?;
                let mut data = String::new();
                loop {
                    line.clear();
                    if lines.read_line(&mut line).await? == 0 {
                        return Ok(());
                    }
                    if line == ".\r\n" {
                        break;
                    }
                    data.push_str(line.strip_prefix('.').unwrap_or(&line));
                }
                received.lock().unwrap().push(ReceivedMail {
                    from: std::mem::take(&mut from),
                    to: std::mem::take(&mut to),
                    data,
                });
                arrived.notify_waiters();
                b"250 OK queued\r\n"
            }
            "QUIT" => {
                write.write_all(b"221 bye\r\n").await?;
                return Ok(());
            }
            _ => b"502 command not implemented\r\n",
        };
        write.write_all(reply).await?;
    }
}

/// The address inside `MAIL FROM:<a@b>` or `RCPT TO:<a@b>`.
fn address(command: &str) -> String {
    command
        .split_once('<')
        .and_then(|(_, rest)| rest.split_once('>'))
        .map(|(address, _)| address.to_owned())
        .unwrap_or_default()
}
