//! The site's own mailbox, read over IMAP with implicit TLS (`--imap-url imaps://…`,
//! `--imap-ca-file`): visitors' answers to the owner's replies arrive there. The mailbox is
//! opened read-only (EXAMINE) and mails are fetched with `BODY.PEEK[]`, so reading never changes
//! it: no flag is set, nothing is moved or deleted. Every step is bounded by a timeout, and no
//! error ever holds the account's password.
//!
//! The client is async-imap. It logs each command it sends, LOGIN's password included, and each
//! byte it receives, at the trace level of the `async_imap::imap_stream` target, which reaches
//! the server's log through `tracing`'s bridge for the `log` crate: the server's log filter must
//! always turn that target off, whatever `RUST_LOG` says (`telemetry::PROTOCOL_LOG_OFF`).

use std::collections::HashMap;
use std::fmt;
use std::future::Future;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, bail, ensure, Context};
use async_imap::imap_proto::{Response, Status};
use async_imap::types::{Fetch, UnsolicitedResponse};
use futures_util::TryStreamExt;
use secrecy::{ExposeSecret, SecretString};
use tokio::net::TcpStream;

/// The largest mail fetched whole: of a larger one (by its `RFC822.SIZE`) only the header is
/// fetched.
pub const MAX_MAIL_BYTES: u32 = 25 * 1024 * 1024;

/// The port of IMAP over TLS (RFC 8314).
const DEFAULT_PORT: u16 = 993;
/// The longest wait for the TCP connection and the TLS handshake together.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest wait for the answer to a small command (the greeting, LOGIN, EXAMINE, NOOP, IDLE
/// and its end).
const COMMAND_TIMEOUT: Duration = Duration::from_secs(30);
/// The longest wait for the list of new mails' UIDs and sizes, a line of about 50 bytes each.
const LIST_TIMEOUT: Duration = Duration::from_secs(60);
/// The slowest transfer that a fetch of mails is given time for, on top of [`COMMAND_TIMEOUT`]:
/// a whole mail of [`MAX_MAIL_BYTES`] gets 130 s.
const BYTES_PER_SECOND: u64 = 256 * 1024;
/// The time that LOGOUT is given before the connection is simply closed.
const LOGOUT_TIMEOUT: Duration = Duration::from_secs(5);
/// What a header is counted as when the time for fetching headers is reckoned.
const HEADER_BYTES: u64 = 64 * 1024;

/// One logged-in IMAP session over TLS.
type Session = async_imap::Session<crate::tls::Stream<TcpStream>>;

/// Where the site's mailbox is: from `--imap-url imaps://user:password@host:993/INBOX` (the
/// mailbox's path is optional, INBOX by default; the user and the password are percent-decoded;
/// only `imaps://` is accepted) and `--imap-ca-file` (a PEM file of extra certificates to trust,
/// for a private server or the tests). Its `Debug` never shows the password.
pub struct ImapAccount {
    /// The host to connect to: a DNS name, or an IP address without brackets.
    host: String,
    port: u16,
    /// The name that the server's certificate must be valid for.
    server_name: String,
    user: String,
    password: SecretString,
    mailbox: String,
    ca_file: Option<PathBuf>,
    tls: crate::tls::Connector,
}

impl ImapAccount {
    /// Reads the account from `--imap-url` and the certificates of `--imap-ca-file`. Errors name
    /// the option at fault and never repeat the URL, which holds the password.
    pub fn parse(url: &str, ca_file: Option<&Path>) -> anyhow::Result<Self> {
        // The url crate's errors describe the fault without repeating the input.
        let url = url::Url::parse(url).map_err(|error| {
            anyhow!(
                "imap-url: not a URL of the form imaps://user:password@host:993/INBOX ({error}); \
                 special characters in the user name or password must be percent-encoded"
            )
        })?;
        // The scheme is not repeated: of a URL written without one, it is the text before the
        // first colon, which may be the user name, or worse.
        ensure!(
            url.scheme() == "imaps",
            "imap-url: only imaps:// (IMAP over TLS, usually on port 993) is accepted{}",
            if url.scheme() == "imap" {
                ", not imap:// (IMAP in plain text or with STARTTLS)"
            } else {
                ""
            }
        );
        ensure!(
            url.query().is_none() && url.fragment().is_none(),
            "imap-url: a query (?…) or fragment (#…) is not accepted; a `?` or `#` in the user \
             name or password must be percent-encoded (%3F, %23)"
        );
        let (host, server_name) = match url.host() {
            Some(url::Host::Domain("")) | None => {
                bail!("imap-url: no host (imaps://user:password@host:993/INBOX)")
            }
            Some(host) => match crate::net::host_and_server_name(host) {
                (host, Some(server_name)) => (host, server_name),
                (name, None) => bail!("imap-url: {name} is not a valid host name"),
            },
        };
        let port = url.port().unwrap_or(DEFAULT_PORT);
        ensure!(port != 0, "imap-url: port 0 is not a port to connect to");
        let user = decoded(url.username(), "user name")?;
        ensure!(
            !user.is_empty(),
            "imap-url: no user name (imaps://user:password@host:993/INBOX)"
        );
        let password = match url.password() {
            Some(password) => decoded(password, "password")?,
            None => bail!("imap-url: no password (imaps://user:password@host:993/INBOX)"),
        };
        let path = url.path().strip_prefix('/').unwrap_or(url.path());
        let mailbox = match decoded(path, "mailbox name")? {
            name if name.is_empty() => "INBOX".to_owned(),
            name => name,
        };
        ensure!(
            mailbox.is_ascii(),
            "imap-url: the mailbox name must be ASCII (IMAP's modified UTF-7 names are not supported)"
        );
        Ok(Self {
            host,
            port,
            server_name,
            user,
            password: SecretString::from(password),
            mailbox,
            ca_file: ca_file.map(Path::to_path_buf),
            tls: tls_connector(ca_file)?,
        })
    }

    /// The mailbox read, INBOX unless the URL's path names another.
    pub fn mailbox(&self) -> &str {
        &self.mailbox
    }

    /// The user name that logs in (percent-decoded).
    pub fn user(&self) -> &str {
        &self.user
    }

    /// The host and port, for messages (an IPv6 address in brackets).
    fn place(&self) -> String {
        if self.host.contains(':') {
            format!("[{}]:{}", self.host, self.port)
        } else {
            format!("{}:{}", self.host, self.port)
        }
    }
}

impl fmt::Debug for ImapAccount {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ImapAccount")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("user", &self.user)
            .field("password", &"[redacted]")
            .field("mailbox", &self.mailbox)
            .field("ca_file", &self.ca_file)
            .finish_non_exhaustive()
    }
}

/// A part of the URL, percent-decoded. Its errors name the part, never its text.
fn decoded(text: &str, what: &str) -> anyhow::Result<String> {
    let text = percent_encoding::percent_decode_str(text)
        .decode_utf8()
        .map_err(|_| anyhow!("imap-url: the {what} is not UTF-8 once percent-decoded"))?;
    // A line break would end the IMAP command early.
    ensure!(
        !text.chars().any(char::is_control),
        "imap-url: the {what} holds a control character"
    );
    Ok(text.into_owned())
}

/// The TLS client: Mozilla's roots and the certificates of the CA file.
fn tls_connector(ca_file: Option<&Path>) -> anyhow::Result<crate::tls::Connector> {
    let extra = match ca_file {
        Some(path) => crate::tls::certificates(path, "imap-ca-file")?,
        None => Vec::new(),
    };
    crate::tls::Connector::new(&extra).with_context(|| match ca_file {
        Some(path) => format!("imap-ca-file: {}", path.display()),
        None => "imap".to_owned(),
    })
}

/// A mail read from the mailbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FetchedMail {
    /// Its UID, valid within the mailbox's [`Mailbox::uid_validity`].
    pub uid: u32,
    /// The mail as the server keeps it (RFC 5322), or its header alone when `whole` is false.
    pub raw: Vec<u8>,
    /// False when the mail was larger than [`MAX_MAIL_BYTES`] and only its header was fetched.
    pub whole: bool,
}

/// One logged-in session with the mailbox selected read-only. After an error the session is
/// closed, and every later call fails: connect again.
pub struct Mailbox {
    /// None once an error left the connection in an unknown state.
    session: Option<Session>,
    uid_validity: u32,
    /// Whether the server offers IDLE (RFC 2177).
    idle: bool,
    /// Whether the server reported a new mail during a fetch, since the last wait.
    news: bool,
}

impl fmt::Debug for Mailbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Mailbox")
            .field("open", &self.session.is_some())
            .field("uid_validity", &self.uid_validity)
            .field("idle", &self.idle)
            .finish_non_exhaustive()
    }
}

impl Mailbox {
    /// Connects (TCP, then TLS, verifying the host name and the certificate against Mozilla's
    /// roots and the CA file), logs in and opens the mailbox read-only (EXAMINE).
    pub async fn connect(account: &ImapAccount) -> anyhow::Result<Self> {
        let place = account.place();
        let connecting = async {
            let tcp = TcpStream::connect((account.host.as_str(), account.port))
                .await
                .with_context(|| format!("imap: cannot connect to {place}"))?;
            tcp.set_nodelay(true)
                .with_context(|| format!("imap: cannot set up the connection to {place}"))?;
            account
                .tls
                .connect(&account.server_name, tcp)
                .await
                .with_context(|| format!("imap: the TLS handshake with {place} failed"))
        };
        let stream = tokio::time::timeout(CONNECT_TIMEOUT, connecting)
            .await
            .map_err(|_| {
                anyhow!(
                    "imap: connecting to {place} took longer than {} s",
                    CONNECT_TIMEOUT.as_secs()
                )
            })??;

        let mut client = async_imap::Client::new(stream);
        let greeting = within(
            COMMAND_TIMEOUT,
            "waiting for the server's greeting",
            async { client.read_response().await },
        )
        .await?
        .ok_or_else(|| anyhow!("imap: {place} closed the connection before its greeting"))?;
        match greeting.parsed() {
            Response::Data {
                status: Status::Ok, ..
            } => {}
            Response::Data {
                status: Status::Bye,
                ..
            } => bail!("imap: {place} refused the connection (it greeted with BYE)"),
            _ => bail!("imap: {place} did not greet as an IMAP server"),
        }

        let login = tokio::time::timeout(
            COMMAND_TIMEOUT,
            client.login_with_capabilities(&account.user, account.password.expose_secret()),
        )
        .await;
        let (mut session, capabilities) = match login {
            Ok(Ok(logged_in)) => logged_in,
            // The server's words, with the password blotted out should it ever repeat it.
            Ok(Err((error, _client))) => bail!(
                "imap: {place} refused the login of {}: {}",
                account.user,
                without_secret(&error.to_string(), account.password.expose_secret())
            ),
            Err(_) => bail!(
                "imap: the login at {place} took longer than {} s",
                COMMAND_TIMEOUT.as_secs()
            ),
        };
        let capabilities = match capabilities {
            Some(capabilities) => capabilities,
            None => {
                within(
                    COMMAND_TIMEOUT,
                    "asking for the server's capabilities",
                    async { session.capabilities().await },
                )
                .await?
            }
        };
        let mailbox = within(
            COMMAND_TIMEOUT,
            format!("opening the mailbox {}", account.mailbox),
            async { session.examine(&account.mailbox).await },
        )
        .await?;
        let uid_validity = mailbox.uid_validity.ok_or_else(|| {
            anyhow!(
                "imap: the server gave no UIDVALIDITY for the mailbox {}",
                account.mailbox
            )
        })?;
        let mailbox = Self {
            session: Some(session),
            uid_validity,
            idle: capabilities.has_str("IDLE"),
            news: false,
        };
        // What the server reported so far is not news: the caller reads the mailbox first.
        mailbox.drain_reports();
        Ok(mailbox)
    }

    /// The mailbox's UIDVALIDITY: the UIDs read before are valid only while it is unchanged.
    pub fn uid_validity(&self) -> u32 {
        self.uid_validity
    }

    /// Mails with UID > `after_uid`, in UID order, at most `max`; fetched with `BODY.PEEK[]` so
    /// no flag (`\Seen`) is ever set: the mailbox is left untouched. A mail over
    /// [`MAX_MAIL_BYTES`] comes with its header alone. A mail listed but deleted before its
    /// content was fetched makes an error (the next call no longer lists it).
    pub async fn fetch_after(
        &mut self,
        after_uid: u32,
        max: usize,
    ) -> anyhow::Result<Vec<FetchedMail>> {
        let mut session = self.take_session()?;
        let mails = fetch_after(&mut session, after_uid, max).await?;
        self.session = Some(session);
        // A mail that came while these were fetched ends the next wait at once.
        self.news |= self.drain_reports();
        Ok(mails)
    }

    /// Waits for the server to report a change (IDLE, when the server offers it) for at most
    /// `wait`, or simply sleeps `wait` when it has no IDLE; returns Ok(()) either way; an error
    /// when the connection broke. A new mail reported since the last wait (during a fetch) ends
    /// it at once. Cancelled midway, it leaves the session closed.
    pub async fn wait_for_news(&mut self, wait: Duration) -> anyhow::Result<()> {
        // `|`, not `||`: the queue is emptied either way.
        if std::mem::take(&mut self.news) | self.drain_reports() {
            return Ok(());
        }
        let mut session = self.take_session()?;
        if !self.idle || wait.is_zero() {
            tokio::time::sleep(wait).await;
            // NOOP tells whether the connection still stands, and lets the server report news.
            within(COMMAND_TIMEOUT, "checking the connection (NOOP)", async {
                session.noop().await
            })
            .await?;
            self.session = Some(session);
            // The caller reads the mailbox next, whatever NOOP reported.
            self.drain_reports();
            return Ok(());
        }
        let mut idle = session.idle();
        within(COMMAND_TIMEOUT, "starting IDLE", idle.init()).await?;
        {
            // `_stop` ends the wait when dropped: it lives until the wait is over.
            let (waiting, _stop) = idle.wait_with_timeout(wait);
            // The outer timeout bounds the whole wait, which the server's keep-alive lines
            // would otherwise extend.
            if let Ok(outcome) = tokio::time::timeout(wait, waiting).await {
                outcome.context("imap: waiting for news (IDLE)")?;
            }
        }
        let session = within(COMMAND_TIMEOUT, "ending IDLE", idle.done()).await?;
        self.session = Some(session);
        // What ended the wait needs no second wake-up: the caller reads the mailbox next.
        self.drain_reports();
        Ok(())
    }

    /// Logs out, for at most a few seconds, and closes the connection.
    pub async fn logout(mut self) {
        if let Some(mut session) = self.session.take() {
            let _ = tokio::time::timeout(LOGOUT_TIMEOUT, session.logout()).await;
        }
    }

    /// The session, taken out for a command: it is put back only when the command succeeds.
    fn take_session(&mut self) -> anyhow::Result<Session> {
        self.session
            .take()
            .ok_or_else(|| anyhow!("imap: the connection was closed after an earlier error"))
    }

    /// Empties the queue of what the server reported on its own (async-imap keeps up to 100 of
    /// them), and tells whether a mail came among them (EXISTS or RECENT).
    fn drain_reports(&self) -> bool {
        let mut news = false;
        if let Some(session) = &self.session {
            while let Ok(response) = session.unsolicited_responses.try_recv() {
                news |= matches!(
                    response,
                    UnsolicitedResponse::Exists(_) | UnsolicitedResponse::Recent(_)
                );
            }
        }
        news
    }
}

/// [`Mailbox::fetch_after`] on the session.
async fn fetch_after(
    session: &mut Session,
    after_uid: u32,
    max: usize,
) -> anyhow::Result<Vec<FetchedMail>> {
    let Some(first) = after_uid.checked_add(1) else {
        return Ok(Vec::new());
    };
    if max == 0 {
        return Ok(Vec::new());
    }
    // The UIDs and sizes first. `first:*` names the last mail even when its UID is below
    // `first` (`*` is the largest UID in use, and a range is unordered: RFC 3501, 6.4.8), so
    // the list is filtered.
    let mut new = Vec::new();
    let set = format!("{first}:*");
    uid_fetch(session, LIST_TIMEOUT, &set, "(UID RFC822.SIZE)", |fetch| {
        if let Some(uid) = fetch.uid.filter(|uid| *uid > after_uid) {
            let size = fetch
                .size
                .ok_or_else(|| anyhow!("the server gave no size for the mail of UID {uid}"))?;
            new.push((uid, size));
        }
        Ok(())
    })
    .await?;
    new.sort_unstable();
    new.dedup_by_key(|(uid, _)| *uid);
    new.truncate(max);

    let mut contents: HashMap<u32, Vec<u8>> = HashMap::new();
    // Whole mails, a batch at a time of at most MAX_MAIL_BYTES together (one mail at least),
    // each with the time its size needs.
    let mut batch: Vec<u32> = Vec::new();
    let mut batch_bytes: u64 = 0;
    let whole = new.iter().filter(|(_, size)| *size <= MAX_MAIL_BYTES);
    for &(uid, size) in whole {
        if !batch.is_empty() && batch_bytes + u64::from(size) > u64::from(MAX_MAIL_BYTES) {
            fetch_contents(session, &batch, batch_bytes, Part::Whole, &mut contents).await?;
            batch.clear();
            batch_bytes = 0;
        }
        batch.push(uid);
        batch_bytes += u64::from(size);
    }
    if !batch.is_empty() {
        fetch_contents(session, &batch, batch_bytes, Part::Whole, &mut contents).await?;
    }
    // The headers alone of the larger ones.
    let large: Vec<u32> = new
        .iter()
        .filter(|(_, size)| *size > MAX_MAIL_BYTES)
        .map(|(uid, _)| *uid)
        .collect();
    if !large.is_empty() {
        let bytes = HEADER_BYTES * large.len() as u64;
        fetch_contents(session, &large, bytes, Part::Header, &mut contents).await?;
    }

    new.into_iter()
        .map(|(uid, size)| {
            let raw = contents.remove(&uid).ok_or_else(|| {
                anyhow!(
                    "imap: the mail of UID {uid} was listed but its content did not come \
                     (deleted meanwhile?)"
                )
            })?;
            Ok(FetchedMail {
                uid,
                raw,
                whole: size <= MAX_MAIL_BYTES,
            })
        })
        .collect()
}

/// What of a mail is fetched.
#[derive(Clone, Copy)]
enum Part {
    Whole,
    Header,
}

/// Fetches the whole mails or the headers of `uids` into `contents`, in the time that `bytes`
/// need.
async fn fetch_contents(
    session: &mut Session,
    uids: &[u32],
    bytes: u64,
    part: Part,
    contents: &mut HashMap<u32, Vec<u8>>,
) -> anyhow::Result<()> {
    let set = uids
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let query = match part {
        Part::Whole => "(UID BODY.PEEK[])",
        Part::Header => "(UID BODY.PEEK[HEADER])",
    };
    let limit = COMMAND_TIMEOUT + Duration::from_secs(bytes / BYTES_PER_SECOND);
    uid_fetch(session, limit, &set, query, |fetch| {
        let content = match part {
            Part::Whole => fetch.body(),
            Part::Header => fetch.header(),
        };
        // Other FETCH lines (a flag changed by another client) carry no content.
        if let (Some(uid), Some(content)) = (fetch.uid, content) {
            contents.insert(uid, content.to_vec());
        }
        Ok(())
    })
    .await
}

/// One UID FETCH, each of its FETCH lines handed to `each` as it comes (so that no more than one
/// mail's answer is held at a time besides what `each` keeps), the whole answer within `limit`.
async fn uid_fetch(
    session: &mut Session,
    limit: Duration,
    set: &str,
    query: &str,
    mut each: impl FnMut(Fetch) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    let work = async {
        let mut answer = session.uid_fetch(set, query).await?;
        while let Some(fetch) = answer.try_next().await? {
            each(fetch)?;
        }
        anyhow::Ok(())
    };
    match tokio::time::timeout(limit, work).await {
        Ok(result) => result.with_context(|| format!("imap: UID FETCH {set} {query}")),
        Err(_) => bail!(
            "imap: UID FETCH {set} {query}: no answer in {} s",
            limit.as_secs()
        ),
    }
}

/// `work`'s result within `limit`, its error or the timeout described as `what` failed.
async fn within<T, E>(
    limit: Duration,
    what: impl fmt::Display,
    work: impl Future<Output = Result<T, E>>,
) -> anyhow::Result<T>
where
    E: std::error::Error + Send + Sync + 'static,
{
    match tokio::time::timeout(limit, work).await {
        Ok(result) => result.with_context(|| format!("imap: {what}")),
        Err(_) => bail!("imap: {what}: no answer in {} s", limit.as_secs()),
    }
}

/// `text` with every occurrence of `secret` replaced.
fn without_secret(text: &str, secret: &str) -> String {
    if secret.is_empty() {
        text.to_owned()
    } else {
        text.replace(secret, "[redacted]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_parts_of_the_url() {
        let account = ImapAccount::parse(
            "imaps://site%40example.org:p%40ss%3Aw%2Frd%25@Mail.Example.org/INBOX",
            None,
        )
        .unwrap();
        assert_eq!(account.user(), "site@example.org");
        assert_eq!(account.password.expose_secret(), "p@ss:w/rd%");
        assert_eq!(account.host, "mail.example.org");
        assert_eq!(account.port, 993);
        assert_eq!(account.mailbox(), "INBOX");
    }

    #[test]
    fn the_mailbox_is_inbox_unless_named() {
        for url in [
            "imaps://u:p@host",
            "imaps://u:p@host/",
            "imaps://u:p@host:993/",
        ] {
            assert_eq!(
                ImapAccount::parse(url, None).unwrap().mailbox(),
                "INBOX",
                "{url}"
            );
        }
        let account =
            ImapAccount::parse("imaps://u:p@host:9993/Site%20answers/2024", None).unwrap();
        assert_eq!(account.mailbox(), "Site answers/2024");
        assert_eq!(account.port, 9993);
    }

    #[test]
    fn takes_ip_addresses_as_hosts() {
        let account = ImapAccount::parse("imaps://u:p@127.0.0.1:1993", None).unwrap();
        assert_eq!(account.place(), "127.0.0.1:1993");
        assert_eq!(account.server_name, "127.0.0.1");
        let account = ImapAccount::parse("imaps://u:p@[::1]", None).unwrap();
        assert_eq!(account.place(), "[::1]:993");
        assert_eq!(account.server_name, "::1");
    }

    #[test]
    fn refuses_what_is_not_imaps_without_showing_the_password() {
        let cases = [
            ("imap://u:secret1@host/INBOX", "only imaps://"),
            ("https://u:secret1@host/", "only imaps://"),
            ("imaps://u@host/INBOX", "no password"),
            ("imaps://:secret1@host/INBOX", "no user name"),
            ("imaps://u:secret1@/INBOX", "host"),
            ("imaps://u:sec#ret1@host/INBOX", "percent-encoded"),
            ("imaps://u:secret1@host/INBOX?x#y", "fragment"),
            ("imaps://u:secret1%0A@host/INBOX", "control character"),
            ("imaps://u:secret1%FF@host/INBOX", "not UTF-8"),
            ("imaps://u:secret1@host/Bo%C3%AEte", "ASCII"),
            ("imaps://u:secret1@host:0/", "port 0"),
            ("u:secret1@host", "only imaps://"),
            ("secret1@host", "not a URL"),
        ];
        for (url, expected) in cases {
            let error = format!("{:#}", ImapAccount::parse(url, None).unwrap_err());
            assert!(error.starts_with("imap-url: "), "{url}: {error}");
            assert!(error.contains(expected), "{url}: {error}");
            assert!(
                !error.contains("secret1") && !error.contains("ret1"),
                "{url}: {error}"
            );
        }
    }

    #[test]
    fn debug_never_shows_the_password() {
        let account = ImapAccount::parse("imaps://u:hunter2@host/INBOX", None).unwrap();
        let shown = format!("{account:?} {account:#?}");
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(
            shown.contains("[redacted]") && shown.contains("host"),
            "{shown}"
        );
    }

    #[test]
    fn names_the_ca_file_that_cannot_be_used() {
        let dir = std::env::temp_dir().join(format!("imap-ca-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let missing = dir.join("missing.pem");
        let error = ImapAccount::parse("imaps://u:p@host", Some(&missing)).unwrap_err();
        assert!(
            format!("{error:#}").starts_with("imap-ca-file: cannot read"),
            "{error:#}"
        );
        let empty = dir.join("empty.pem");
        std::fs::write(&empty, "no certificate here\n").unwrap();
        let error = ImapAccount::parse("imaps://u:p@host", Some(&empty)).unwrap_err();
        assert!(
            format!("{error:#}").contains("holds no certificate"),
            "{error:#}"
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn blots_out_the_secret() {
        assert_eq!(
            without_secret("NO LOGIN pw1 failed: pw1", "pw1"),
            "NO LOGIN [redacted] failed: [redacted]"
        );
        assert_eq!(without_secret("NO failed", ""), "NO failed");
    }
}
