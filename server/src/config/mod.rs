//! Settings from command-line flags and environment variables; secrets are wrapped so they never print.
//! The bottom layer: every settings type is here (a file per feature's settings) and nothing here
//! imports a feature.

pub mod database;
mod defaults;
pub mod duration;
pub mod insights;
pub mod ops;
pub mod secrets;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args;
use defaults::clap_defaults;
use secrecy::SecretString;
use url::Url;

/// Everything `portfolio serve` can be told. Each flag can also be given as an environment variable.
#[derive(Debug, Clone, Args)]
pub struct Settings {
    /// Address to listen on (port 0 picks a free port).
    #[arg(
        long,
        env = "PORTFOLIO_LISTEN",
        default_value = "127.0.0.1:8080",
        value_name = "ADDR"
    )]
    pub listen: SocketAddr,

    #[command(flatten)]
    pub database: DatabaseSettings,

    #[command(flatten)]
    pub secrets: secrets::SecretKeySettings,

    /// How hard the server compresses the files it makes itself; not a flag (see [`Effort`]).
    #[arg(skip)]
    pub compression: Effort,

    /// The site's public URL, as visitors reach it. Canonical links, the sitemap, cookie security
    /// and HSTS follow it. Defaults to http://<listen address>.
    #[arg(long, env = "PORTFOLIO_PUBLIC_URL", value_name = "URL")]
    pub public_url: Option<Url>,

    /// PEM certificate chain: with --tls-key, serve HTTPS directly.
    #[arg(
        long,
        env = "PORTFOLIO_TLS_CERT",
        value_name = "FILE",
        requires = "tls_key"
    )]
    pub tls_cert: Option<PathBuf>,

    /// PEM private key for --tls-cert.
    #[arg(
        long,
        env = "PORTFOLIO_TLS_KEY",
        value_name = "FILE",
        requires = "tls_cert"
    )]
    pub tls_key: Option<PathBuf>,

    /// With TLS on, also listen here for plain HTTP and redirect it to HTTPS.
    #[arg(
        long,
        env = "PORTFOLIO_HTTP_REDIRECT_LISTEN",
        value_name = "ADDR",
        requires = "tls_cert"
    )]
    pub http_redirect_listen: Option<SocketAddr>,

    #[command(flatten)]
    pub mail: MailSettings,

    #[command(flatten)]
    pub spam: SpamSettings,

    #[command(flatten)]
    pub delivery: DeliverySettings,

    #[command(flatten)]
    pub insights: insights::InsightsSettings,

    /// How long a signed-in session lasts without use, in minutes.
    #[arg(long, env = "PORTFOLIO_SESSION_IDLE_MINUTES", default_value_t = 24 * 60, value_name = "MINUTES",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub session_idle_minutes: u64,

    /// How long a session lasts at most, however often it is used, in minutes.
    #[arg(long, env = "PORTFOLIO_SESSION_ABSOLUTE_MINUTES", default_value_t = 7 * 24 * 60, value_name = "MINUTES",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub session_absolute_minutes: u64,

    /// Owner e-mail to create at start-up when no owner exists (for hosts without a shell).
    #[arg(long, env = "PORTFOLIO_OWNER_EMAIL", value_name = "EMAIL")]
    pub owner_email: Option<String>,

    /// Password for PORTFOLIO_OWNER_EMAIL; environment only, never a flag, so it stays out of `ps`.
    #[arg(skip = std::env::var("PORTFOLIO_OWNER_PASSWORD").ok().map(SecretString::from))]
    pub owner_password: Option<SecretString>,

    /// Read the client's address from `X-Forwarded-For` when the request comes from one of
    /// --trusted-proxies (only behind a reverse proxy you run).
    #[arg(long, env = "PORTFOLIO_TRUST_PROXY", default_value_t = false)]
    pub trust_proxy: bool,

    /// Serve /.well-known/security.txt (RFC 9116) with the published document's e-mail as the
    /// contact; `false` turns it off.
    #[arg(long, env = "PORTFOLIO_SECURITY_TXT", default_value_t = true, action = clap::ArgAction::Set,
          value_name = "BOOL")]
    pub security_txt: bool,

    #[command(flatten)]
    pub ops: ops::OpsSettings,

    #[command(flatten)]
    pub limits: LimitSettings,

    #[command(flatten)]
    pub clock: ClockSettings,
}

/// For tests: retention and insights act as if the clock were this many seconds ahead (see
/// `clock::Clock`), so that a test can move them through days without editing rows.
#[derive(Debug, Clone, Copy, Default, Args)]
pub struct ClockSettings {
    #[arg(
        long,
        env = "PORTFOLIO_CLOCK_OFFSET",
        value_name = "SECONDS",
        default_value_t = 0,
        hide = true,
        allow_hyphen_values = true
    )]
    pub clock_offset: i64,
}

/// How long the server waits for slow clients, and how many it serves at once.
#[derive(Debug, Clone, Args)]
pub struct LimitSettings {
    /// The reverse proxies whose `X-Forwarded-For` is believed with --trust-proxy: addresses or
    /// networks, comma-separated. The client is the rightmost address that is not one of them.
    #[arg(long, env = "PORTFOLIO_TRUSTED_PROXIES", value_name = "ADDRS", value_delimiter = ',',
          default_values = ["127.0.0.0/8", "::1"], value_parser = parse_network)]
    pub trusted_proxies: Vec<ipnet::IpNet>,

    /// Seconds a connection has to send a request's headers (and a TLS handshake to finish).
    #[arg(long, env = "PORTFOLIO_HEADER_TIMEOUT_SECS", default_value_t = 10, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub header_timeout_secs: u64,

    /// Seconds a connection may stay open with no request in progress (keep-alive included;
    /// on HTTP/2, whatever PINGs arrive), or with nothing sent either way.
    #[arg(long, env = "PORTFOLIO_IDLE_TIMEOUT_SECS", default_value_t = 60, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub idle_timeout_secs: u64,

    /// Seconds a connection's answers may send nothing (a client that does not read, or an
    /// HTTP/2 window left shut) before the connection is closed.
    #[arg(long, env = "PORTFOLIO_SEND_TIMEOUT_SECS", default_value_t = 60, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub send_timeout_secs: u64,

    /// Seconds for a whole request once its headers are in: reading the body and answering.
    #[arg(long, env = "PORTFOLIO_REQUEST_TIMEOUT_SECS", default_value_t = 30, value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub request_timeout_secs: u64,

    /// Open connections at most, per listener; beyond it new ones are closed at once. Lowered at
    /// start-up when the open-file limit leaves no room for it.
    #[arg(long, env = "PORTFOLIO_MAX_CONNECTIONS", default_value_t = 2048, value_name = "COUNT",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections: u64,

    /// Open connections at most from one client address (one /64 for IPv6), per listener;
    /// beyond it its new ones are closed at once. --trusted-proxies are exempt with --trust-proxy.
    #[arg(long, env = "PORTFOLIO_MAX_CONNECTIONS_PER_CLIENT", default_value_t = 256, value_name = "COUNT",
          value_parser = clap::value_parser!(u64).range(1..))]
    pub max_connections_per_client: u64,

    /// Threads that serve connections, each with an event loop of its own that a connection
    /// stays on (0: one fewer than the cores, at least one). The API's work runs on the
    /// application's shared threads.
    #[arg(long, env = "PORTFOLIO_CONNECTION_THREADS", default_value_t = 0, value_name = "COUNT",
          value_parser = clap::value_parser!(u16).range(0..=1024))]
    pub connection_threads: u16,

    /// Bytes of served files (the resume, uploaded media) kept in memory once no answer is
    /// sending them; a file being sent is held once however many answers send it.
    #[arg(long, env = "PORTFOLIO_FILE_CACHE_BYTES", default_value_t = 16 * 1024 * 1024, value_name = "BYTES")]
    pub file_cache_bytes: u64,

    /// Contact messages a minute from one client (one address, or one /64 for IPv6).
    #[arg(long, env = "PORTFOLIO_CONTACT_PER_MINUTE", default_value_t = 5, value_name = "COUNT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub contact_per_minute: u32,

    /// Contact messages an hour from one client.
    #[arg(long, env = "PORTFOLIO_CONTACT_PER_HOUR", default_value_t = 20, value_name = "COUNT",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub contact_per_hour: u32,

    /// The largest upload (an image or the resume) the owner may send, in bytes; past it, 413.
    #[arg(long, env = "PORTFOLIO_MAX_UPLOAD_BYTES", default_value_t = 10 * 1024 * 1024, value_name = "BYTES",
          value_parser = clap::value_parser!(u64).range(1024..=1024 * 1024 * 1024))]
    pub max_upload_bytes: u64,
}

impl Default for LimitSettings {
    fn default() -> Self {
        clap_defaults()
    }
}

impl LimitSettings {
    pub fn header_timeout(&self) -> Duration {
        Duration::from_secs(self.header_timeout_secs)
    }

    pub fn idle_timeout(&self) -> Duration {
        Duration::from_secs(self.idle_timeout_secs)
    }

    pub fn send_timeout(&self) -> Duration {
        Duration::from_secs(self.send_timeout_secs)
    }

    pub fn request_timeout(&self) -> Duration {
        Duration::from_secs(self.request_timeout_secs)
    }
}

/// An address (`203.0.113.7`, `::1`) or a network (`10.0.0.0/8`, `fd00::/8`).
fn parse_network(text: &str) -> Result<ipnet::IpNet, String> {
    let text = text.trim();
    text.parse::<ipnet::IpNet>()
        .or_else(|_| text.parse::<std::net::IpAddr>().map(ipnet::IpNet::from))
        .map_err(|_| format!("`{text}` is neither an address nor a network such as 10.0.0.0/8"))
}

/// Where the data lives.
#[derive(Debug, Clone, Args)]
pub struct DatabaseSettings {
    /// Database URL: `sqlite://PATH` (the file and its folder are created when missing) or
    /// `postgres://USER:PASSWORD@HOST:PORT/DATABASE` (shared by several instances).
    #[arg(
        long = "database-url",
        env = "PORTFOLIO_DATABASE_URL",
        default_value = "sqlite://data/portfolio.db",
        value_name = "URL"
    )]
    pub url: String,

    /// SQLite only, for the fault tests: the most pages the database may grow to through the
    /// connection that writes, as if the disk were full there.
    #[arg(
        long = "sqlite-max-page-count",
        env = "PORTFOLIO_SQLITE_MAX_PAGE_COUNT",
        value_name = "PAGES",
        hide = true
    )]
    pub sqlite_max_page_count: Option<u64>,
}

impl DatabaseSettings {
    pub fn new(url: impl Into<String>) -> Self {
        Self {
            url: url.into(),
            sqlite_max_page_count: None,
        }
    }
}

/// Optional e-mail notifications of new contact messages.
#[derive(Debug, Clone, Args)]
pub struct MailSettings {
    /// SMTP server, as `smtp://user:pass@host:port` (STARTTLS), `smtps://…` (TLS) or
    /// `smtp://host:port?tls=none` for a local relay. Notifications are off without it.
    #[arg(long, env = "PORTFOLIO_SMTP_URL", value_name = "URL")]
    pub smtp_url: Option<SecretString>,

    /// Where notifications go (the owner's inbox).
    #[arg(long, env = "PORTFOLIO_NOTIFY_EMAIL", value_name = "EMAIL")]
    pub notify_email: Option<String>,

    /// The From address of notifications; defaults to --notify-email.
    #[arg(long, env = "PORTFOLIO_SMTP_FROM", value_name = "EMAIL")]
    pub smtp_from: Option<String>,

    /// Where visitors' answers to your replies go (their Reply-To): the address of the site's
    /// own mailbox (--imap-url). Defaults to the mailbox's user name when that is an address,
    /// else to --notify-email (the answers then reach you, not the conversation).
    #[arg(long, env = "PORTFOLIO_REPLY_ADDRESS", value_name = "EMAIL")]
    pub reply_address: Option<String>,

    /// A mailbox of the site's own, as `imaps://user:password@host:993/INBOX`, where visitors'
    /// answers to your replies arrive: the server reads it and files each answer into its
    /// conversation. Never your personal mailbox: only the answers to the site's replies belong
    /// there (other mail is left untouched and listed as unmatched).
    #[arg(long, env = "PORTFOLIO_IMAP_URL", value_name = "URL")]
    pub imap_url: Option<SecretString>,

    /// A PEM file of certificates to trust for the mailbox's server, besides the system's.
    #[arg(long, env = "PORTFOLIO_IMAP_CA_FILE", value_name = "FILE")]
    pub imap_ca_file: Option<PathBuf>,

    /// The longest wait between two reads of the mailbox (news announced by IMAP IDLE are read
    /// at once), e.g. `1m`, `30s`.
    #[arg(long, env = "PORTFOLIO_IMAP_POLL", default_value = "1m", value_name = "DURATION",
          value_parser = duration::parse)]
    pub imap_poll: Duration,
}

/// The default largest secret number of a challenge (`--spam-challenge-max`): the browser tries
/// half of them on average, each a SHA-256 of a few dozen bytes: Chromium tries all of them in
/// about 0.4 s through Web Crypto (measured on a busy two-core machine), half of that on average.
pub const CHALLENGE_MAX_NUMBER: u64 = 30_000;

/// The contact form's spam checks.
#[derive(Debug, Clone, Args)]
pub struct SpamSettings {
    /// Real messages an hour, site-wide, beyond which new ones are still stored but go to Spam
    /// without a notification.
    #[arg(long = "spam-ceiling-per-hour", env = "PORTFOLIO_SPAM_CEILING_PER_HOUR", default_value_t = 100,
          value_name = "COUNT", value_parser = clap::value_parser!(u32).range(1..))]
    pub ceiling_per_hour: u32,

    /// A form sent sooner than this after its signed token was issued is spam, in milliseconds.
    #[arg(
        long = "spam-min-fill-ms",
        env = "PORTFOLIO_SPAM_MIN_FILL_MS",
        default_value_t = 3000,
        value_name = "MS"
    )]
    pub min_fill_ms: u64,

    /// The proof of work's size: the largest secret number of a challenge. The page tries half
    /// of them on average (30,000 take Chromium about 0.4 s on a busy two-core machine).
    #[arg(long = "spam-challenge-max", env = "PORTFOLIO_SPAM_CHALLENGE_MAX",
          default_value_t = CHALLENGE_MAX_NUMBER, value_name = "NUMBER",
          value_parser = clap::value_parser!(u64).range(1_000..=10_000_000))]
    pub challenge_max: u64,

    /// Challenges a network (an IPv4 address, an IPv6 /64) gets each hour at the size above;
    /// each one past it is twice as large as the one before (up to 10,000,000), so a network that
    /// sends many messages pays for them in CPU.
    #[arg(
        long = "spam-challenge-free-per-hour",
        env = "PORTFOLIO_SPAM_CHALLENGE_FREE_PER_HOUR",
        default_value_t = 10,
        value_name = "COUNT"
    )]
    pub challenge_free_per_hour: u32,
}

impl Default for SpamSettings {
    fn default() -> Self {
        clap_defaults()
    }
}

/// How notifications are delivered: the retry schedule, and webhooks beside e-mail.
#[derive(Debug, Clone, Args)]
pub struct DeliverySettings {
    /// The first retry of a failed notification waits this long, each later one twice as long,
    /// up to an hour (e.g. `1s`, `500ms`, `2m`, `1m 30s`).
    #[arg(long, env = "PORTFOLIO_NOTIFY_RETRY_BASE", default_value = "1s", value_name = "DURATION",
          value_parser = duration::parse)]
    pub notify_retry_base: Duration,

    /// Post each non-spam message as JSON to this URL too (repeatable; in the environment,
    /// separated by spaces). Slack and Discord incoming-webhook URLs get the body they expect.
    #[arg(
        long = "webhook-url",
        env = "PORTFOLIO_WEBHOOK_URL",
        value_name = "URL",
        value_delimiter = ' '
    )]
    pub webhook_urls: Vec<SecretString>,

    /// The key that signs webhook posts (`X-Portfolio-Signature`), at least 16 characters.
    #[arg(long, env = "PORTFOLIO_WEBHOOK_SECRET", value_name = "SECRET")]
    pub webhook_secret: Option<SecretString>,
}

impl Default for DeliverySettings {
    fn default() -> Self {
        clap_defaults()
    }
}

impl Settings {
    /// Settings for a test or an embedding program: everything default but the given database.
    pub fn for_database(url: impl Into<String>) -> Self {
        Self {
            listen: "127.0.0.1:0".parse().expect("a valid literal address"),
            database: DatabaseSettings::new(url),
            // Its `#[arg(skip)]` reads the environment; nothing here does.
            owner_password: None,
            ..clap_defaults()
        }
    }

    pub fn session_idle(&self) -> Duration {
        Duration::from_secs(self.session_idle_minutes * 60)
    }

    pub fn session_absolute(&self) -> Duration {
        Duration::from_secs(self.session_absolute_minutes * 60)
    }

    /// Whether visitors reach the site over HTTPS (directly or through a proxy).
    pub fn is_https(&self) -> bool {
        self.tls_cert.is_some()
            || self
                .public_url
                .as_ref()
                .is_some_and(|u| u.scheme() == "https")
    }
}

/// How hard the server compresses what it makes itself (the pages, their data, the manifest, the
/// API's description): each is made once and sent many times, so always `Best`, but in the
/// server's own tests, which start a server each and spent half their processor time compressing
/// the same page at Brotli's best. The browser tests, which check the pages' sizes, serve `Best`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Effort {
    /// Brotli 11 and gzip 9: the smallest files.
    #[default]
    Best,
    /// Brotli 4 and gzip 6: the same files a little larger, made many times faster.
    Quick,
}
