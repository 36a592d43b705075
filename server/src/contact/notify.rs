//! Owner notifications through a durable outbox: each non-spam message gets one outbox row per
//! channel (e-mail, each webhook) in the same transaction as the message; one worker per channel
//! sends its due rows and retries failures with exponential backoff, so an SMTP outage neither
//! slows the visitor's answer nor loses a notification, and a failing channel never holds up
//! another.

use std::time::Duration;

use anyhow::Context;
use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Certificate, CertificateStore, Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use secrecy::ExposeSecret;

use tokio::sync::Notify;

use super::ceiling::{ceiling_text, CEILING_SUBJECT};
use super::headers::one_line;
use super::link_alert::LinkAlert;
use super::webhook::Webhook;
use crate::config::MailSettings;
use crate::store::delivery::{
    PendingDelivery, EMAIL_CHANNEL, KIND_ANSWER, KIND_CEILING, KIND_DIGEST, KIND_FOLLOW_UP,
    KIND_LINK, KIND_NOTICE, KIND_REPLY, KIND_TEST,
};
use crate::store::Db;

/// The first retry waits `--notify-retry-base`; each later one twice as long as the one before,
/// up to this.
const MAX_RETRY: Duration = Duration::from_secs(60 * 60);
/// The outbox is also checked this often, whatever wakes the worker.
const POLL: Duration = Duration::from_secs(30);
/// Rows taken per pass...
const BATCH: i64 = 5;
/// ...and leased for this long, longer than sending them can take (the SMTP client gives up on
/// each after 20 s). No other instance sends them meanwhile; if this one dies, they fall due again.
const LEASE: Duration = Duration::from_secs(3 * 60);
/// The longest error text kept in `last_error`.
const MAX_ERROR_CHARS: usize = 500;

/// Where and how notifications are sent.
#[derive(Clone)]
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
    to: Mailbox,
    /// Where visitors' answers to the owner's replies go: the site's reply address.
    reply_to: Mailbox,
}

impl std::fmt::Debug for Mailer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The transport holds the SMTP credentials: show only where mail goes.
        f.debug_struct("Mailer")
            .field("to", &self.to.email.to_string())
            .finish()
    }
}

impl Mailer {
    /// A mailer when both `--smtp-url` and `--notify-email` are set; an error naming the setting
    /// when one is set without the other or does not parse.
    pub fn from_settings(settings: &MailSettings) -> anyhow::Result<Option<Self>> {
        let (url, notify) = match (&settings.smtp_url, &settings.notify_email) {
            (None, None) => return Ok(None),
            (Some(_), None) => {
                anyhow::bail!("notify-email: --smtp-url is set, so say where notifications go with --notify-email")
            }
            (None, Some(_)) => {
                anyhow::bail!(
                    "smtp-url: --notify-email is set, so give the SMTP server with --smtp-url"
                )
            }
            (Some(url), Some(notify)) => (url, notify),
        };
        let to: Mailbox = notify.parse().map_err(|_| {
            anyhow::anyhow!("notify-email: {notify:?} is not a valid e-mail address")
        })?;
        let from = match &settings.smtp_from {
            Some(from) => from.parse().map_err(|_| {
                anyhow::anyhow!("smtp-from: {from:?} is not a valid e-mail address")
            })?,
            None => to.clone(),
        };
        let reply_to = reply_address(settings)?.unwrap_or_else(|| to.clone());
        let transport = transport(url.expose_secret())?;
        Ok(Some(Self {
            transport,
            from,
            to,
            reply_to,
        }))
    }

    /// Where visitors' answers to the owner's replies go.
    pub fn reply_to(&self) -> &Mailbox {
        &self.reply_to
    }

    /// The From address, whose domain names the site's Message-IDs.
    pub fn from(&self) -> &Mailbox {
        &self.from
    }

    fn message(&self, pending: &PendingDelivery) -> anyhow::Result<Message> {
        if pending.kind == KIND_TEST {
            return Message::builder()
                .from(self.from.clone())
                .to(self.to.clone())
                .subject("Test e-mail from your portfolio site")
                .header(ContentType::TEXT_PLAIN)
                .body(
                    "This is the test e-mail you asked for from the dashboard.\n\
                     It arrived, so notifications of new messages will arrive too.\n"
                        .to_owned(),
                )
                .context("Failed to build the test e-mail");
        }
        if pending.kind == KIND_CEILING {
            return Message::builder()
                .from(self.from.clone())
                .to(self.to.clone())
                .subject(CEILING_SUBJECT)
                .header(ContentType::TEXT_PLAIN)
                .body(ceiling_text(pending.held.unwrap_or(1)))
                .context("Failed to build the ceiling's notice");
        }
        if pending.kind == KIND_LINK {
            let alert = LinkAlert::of(pending);
            return Message::builder()
                .from(self.from.clone())
                .to(self.to.clone())
                .subject(one_line(&alert.subject()))
                .header(ContentType::TEXT_PLAIN)
                .body(alert.text())
                .context("Failed to build the link's alert");
        }
        if pending.kind == KIND_REPLY {
            return super::reply_mail::reply_message(pending, &self.from, &self.reply_to);
        }
        if pending.kind == KIND_FOLLOW_UP {
            return super::reply_mail::follow_up_message(pending, &self.from, &self.reply_to);
        }
        if pending.kind == KIND_ANSWER {
            let notice = super::reply_mail::AnswerNotice::of(pending);
            let mut builder = Message::builder()
                .from(self.from.clone())
                .to(self.to.clone())
                .subject(notice.mail_subject())
                .header(ContentType::TEXT_PLAIN);
            if let Ok(address) = notice.email.parse() {
                builder = builder.reply_to(Mailbox::new(Some(one_line(&notice.name)), address));
            }
            return builder
                .body(notice.mail_text())
                .context("Failed to build the notice of an answer");
        }
        let text = |field: &Option<String>| field.clone().unwrap_or_default();
        if pending.kind == KIND_DIGEST {
            let figures: crate::digest::figures::Figures =
                serde_json::from_str(&text(&pending.notice_text))
                    .context("the digest's stored figures no longer read")?;
            return Message::builder()
                .from(self.from.clone())
                .to(self.to.clone())
                .subject(one_line(&text(&pending.notice_subject)))
                .multipart(lettre::message::MultiPart::alternative_plain_html(
                    crate::digest::render::text(&figures),
                    crate::digest::render::html(&figures),
                ))
                .context("Failed to build the weekly digest");
        }
        if pending.kind == KIND_NOTICE {
            return Message::builder()
                .from(self.from.clone())
                .to(self.to.clone())
                .subject(one_line(&text(&pending.notice_subject)))
                .header(ContentType::TEXT_PLAIN)
                .body(text(&pending.notice_text))
                .context("Failed to build the notice");
        }
        let (name, email, subject) = (
            text(&pending.name),
            text(&pending.email),
            text(&pending.subject),
        );
        let visitor = Mailbox::new(
            Some(one_line(&name)),
            email
                .parse()
                .context("the stored address no longer parses")?,
        );
        let received = pending
            .message_created_at
            .and_then(chrono::DateTime::from_timestamp_millis)
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            .unwrap_or_default();
        let body = format!(
            "New message from the contact form (#{id}).\n\nFrom: {name} <{email}>\nReceived: {received}\nSubject: {subject}\n\n{message}\n\n-- \nReply to this e-mail to answer {name}.\n",
            id = pending.message_id.unwrap_or_default(),
            message = text(&pending.message),
        );
        Message::builder()
            .from(self.from.clone())
            .to(self.to.clone())
            .reply_to(visitor)
            .subject(format!("Contact: {}", one_line(&subject)))
            .header(ContentType::TEXT_PLAIN)
            .body(body)
            .context("Failed to build the notification e-mail")
    }

    /// Sends a short notice to the owner at once (a security alert, not a contact message);
    /// failures are logged, never shown to whoever caused the notice.
    pub fn send_notice_in_background(&self, subject: &str, body: String) {
        let message = Message::builder()
            .from(self.from.clone())
            .to(self.to.clone())
            .subject(one_line(subject))
            .header(ContentType::TEXT_PLAIN)
            .body(body);
        let transport = self.transport.clone();
        tokio::spawn(async move {
            let sent = match message {
                Ok(message) => transport
                    .send(message)
                    .await
                    .map(|_| ())
                    .map_err(anyhow::Error::from),
                Err(error) => Err(error.into()),
            };
            match sent {
                Ok(()) => tracing::info!("security notice sent to the owner"),
                Err(error) => {
                    tracing::warn!(error = %format!("{error:#}"), "security notice not sent")
                }
            }
        });
    }

    async fn send(&self, pending: &PendingDelivery) -> anyhow::Result<()> {
        let message = self.message(pending)?;
        self.transport.send(message).await.map_err(|error| {
            let plain = if error.is_timeout() {
                "the mail server did not answer in time"
            } else if error.is_permanent() {
                "the mail server refused the e-mail"
            } else if error.is_transient() {
                "the mail server could not take the e-mail for now"
            } else if error.is_tls() {
                "a secure connection to the mail server could not be made"
            } else {
                "the mail server could not be reached"
            };
            anyhow::Error::new(error).context(plain)
        })?;
        Ok(())
    }
}

/// The site's reply address: `--reply-address`, else the user name of `--imap-url` when that is
/// an address; `None` when neither gives one (answers then go to the owner).
fn reply_address(settings: &MailSettings) -> anyhow::Result<Option<Mailbox>> {
    if let Some(address) = &settings.reply_address {
        return address.parse().map(Some).map_err(|_| {
            anyhow::anyhow!("reply-address: {address:?} is not a valid e-mail address")
        });
    }
    let user = settings
        .imap_url
        .as_ref()
        .and_then(|url| url::Url::parse(url.expose_secret()).ok())
        .map(|url| {
            percent_encoding::percent_decode_str(url.username())
                .decode_utf8_lossy()
                .into_owned()
        });
    Ok(user.and_then(|user| user.parse().ok()))
}

/// The ports of mail submission with STARTTLS and over TLS (RFC 8314), as lettre's relays use them.
const SUBMISSION_PORT: u16 = 587;
const SUBMISSIONS_PORT: u16 = 465;

/// The relay's TLS: its certificate checked for `host` against Mozilla's roots alone, as every
/// other TLS client of the binary checks (`crate::tls`), not the host's own store.
fn tls_parameters(host: &str) -> anyhow::Result<TlsParameters> {
    let mut builder =
        TlsParameters::builder(host.to_owned()).certificate_store(CertificateStore::None);
    for der in crate::tls::mozilla_roots() {
        if let Ok(root) = Certificate::from_der(der.to_vec()) {
            builder = builder.add_root_certificate(root);
        }
    }
    Ok(builder.build()?)
}

/// `smtp://host:port?tls=none` (plain, for a local relay), `smtp://` (STARTTLS required, port 587
/// by default) or `smtps://` (TLS from the start, port 465 by default); `user:password@` for login.
fn transport(raw: &str) -> anyhow::Result<AsyncSmtpTransport<Tokio1Executor>> {
    // The URL may hold a password: errors name the setting, never echo it.
    let url = url::Url::parse(raw).map_err(|_| {
        anyhow::anyhow!("smtp-url: not a valid URL (try smtp://user:pass@host:587)")
    })?;
    let host = url
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| anyhow::anyhow!("smtp-url: the URL has no host"))?
        .to_owned();
    let tls = url
        .query_pairs()
        .find(|(key, _)| key == "tls")
        .map(|(_, value)| value.into_owned());
    let mut builder = match (url.scheme(), tls.as_deref()) {
        ("smtp", Some("none")) => {
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&host).port(25)
        }
        ("smtp", None | Some("starttls" | "required")) => {
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&host)
                .port(SUBMISSION_PORT)
                .tls(Tls::Required(
                    tls_parameters(&host).context("smtp-url: cannot set up STARTTLS")?,
                ))
        }
        ("smtps", None | Some("wrapper" | "tls")) => {
            AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&host)
                .port(SUBMISSIONS_PORT)
                .tls(Tls::Wrapper(
                    tls_parameters(&host).context("smtp-url: cannot set up TLS")?,
                ))
        }
        ("smtp" | "smtps", Some(other)) => {
            anyhow::bail!("smtp-url: unknown tls={other:?} (use tls=none for a local relay)")
        }
        (scheme, _) => anyhow::bail!("smtp-url: the scheme must be smtp or smtps, not {scheme:?}"),
    };
    if let Some(port) = url.port() {
        builder = builder.port(port);
    }
    if !url.username().is_empty() {
        // Userinfo is percent-encoded; a literal `+` stays a plus (unlike in a query string).
        let decode = |s: &str| {
            url::form_urlencoded::parse(format!("x={}", s.replace('+', "%2B")).as_bytes())
                .next()
                .map(|(_, v)| v.into_owned())
                .unwrap_or_default()
        };
        let user = decode(url.username());
        let password = decode(url.password().unwrap_or_default());
        builder = builder.credentials(Credentials::new(user, password));
    }
    Ok(builder.timeout(Some(Duration::from_secs(20))).build())
}

/// How long to wait before the attempt after `attempts` failed ones: `base`, doubling, capped.
pub fn backoff(attempts: i64, base: Duration) -> Duration {
    let exponent = u32::try_from(attempts.clamp(1, 32) - 1).unwrap_or(0);
    base.checked_mul(2u32.saturating_pow(exponent))
        .unwrap_or(MAX_RETRY)
        .min(MAX_RETRY)
}

use crate::clock::now_ms;

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}

/// Where one outbox channel sends.
#[derive(Debug, Clone)]
pub enum Channel {
    Email(Box<Mailer>),
    Webhook(Webhook),
}

impl Channel {
    /// The channel's name in the outbox.
    pub fn name(&self) -> String {
        match self {
            Self::Email(_) => EMAIL_CHANNEL.to_owned(),
            Self::Webhook(webhook) => webhook.channel().to_owned(),
        }
    }

    async fn send(&self, pending: &PendingDelivery) -> anyhow::Result<()> {
        match self {
            Self::Email(mailer) => mailer.send(pending).await,
            Self::Webhook(webhook) => webhook.send(pending).await,
        }
    }
}

/// Sends every due row of the channel once; returns how long until the next one falls due.
async fn deliver_due(
    db: &Db,
    channel: &Channel,
    names: &[String],
    retry_base: Duration,
) -> anyhow::Result<Option<Duration>> {
    loop {
        let now = now_ms();
        let lease_until = now.saturating_add(millis(LEASE));
        let due = db
            .claim_due_deliveries(names, now, lease_until, BATCH)
            .await?;
        if due.is_empty() {
            break;
        }
        for pending in &due {
            let channel_name = &names[0];
            match channel.send(pending).await {
                Ok(()) => {
                    db.mark_delivery_sent(pending.outbox_id, now_ms()).await?;
                    crate::ops::metrics::notification_sent();
                    tracing::info!(
                        channel = %channel_name,
                        kind = %pending.kind,
                        message_id = pending.message_id,
                        "notification sent"
                    );
                }
                Err(error) => {
                    let attempts = pending.attempts + 1;
                    let wait = backoff(attempts, retry_base);
                    let text: String = format!("{error:#}").chars().take(MAX_ERROR_CHARS).collect();
                    let now = now_ms();
                    let next = now.saturating_add(millis(wait));
                    // A test e-mail is tried once: its answer is what the owner asked for.
                    let give_up = (pending.kind == KIND_TEST).then_some(now);
                    db.mark_delivery_failed(pending.outbox_id, next, &text, give_up)
                        .await?;
                    crate::ops::metrics::notification_failed();
                    if give_up.is_some() {
                        tracing::warn!(channel = %channel_name, error = %text, "test e-mail not sent");
                    } else {
                        tracing::warn!(channel = %channel_name, message_id = pending.message_id, attempts, retry_in = ?wait, error = %text, "notification not sent; will retry");
                    }
                }
            }
        }
    }
    let next = db.next_delivery_due(names).await?;
    Ok(next.map(|at| Duration::from_millis(u64::try_from(at - now_ms()).unwrap_or(0))))
}

/// One channel's outbox worker: runs until aborted at shutdown.
pub async fn run_outbox(
    db: Db,
    channel: Channel,
    wake: std::sync::Arc<Notify>,
    retry_base: Duration,
) {
    let names = vec![channel.name()];
    tracing::info!(channel = %names[0], "notifications on: the outbox worker is running");
    loop {
        let wait = match deliver_due(&db, &channel, &names, retry_base).await {
            Ok(next) => next.map_or(POLL, |next| next.min(POLL)),
            Err(error) => {
                db.health().report(&error);
                tracing::error!(error = %format!("{error:#}"), "the notification outbox failed; trying again soon");
                Duration::from_secs(5)
            }
        };
        tokio::select! {
            () = wake.notified() => {}
            () = tokio::time::sleep(wait) => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_from_the_base_and_is_capped() {
        let second = Duration::from_secs(1);
        assert_eq!(backoff(1, second), Duration::from_secs(1));
        assert_eq!(backoff(2, second), Duration::from_secs(2));
        assert_eq!(backoff(5, second), Duration::from_secs(16));
        assert_eq!(backoff(30, second), MAX_RETRY);
        assert_eq!(backoff(i64::MAX, second), MAX_RETRY);
        let fast = Duration::from_millis(50);
        assert_eq!(backoff(1, fast), fast);
        assert_eq!(backoff(3, fast), Duration::from_millis(200));
        assert_eq!(
            backoff(3, Duration::from_secs(30)),
            Duration::from_secs(120)
        );
    }

    fn settings(url: Option<&str>, notify: Option<&str>) -> MailSettings {
        MailSettings {
            smtp_url: url.map(|u| u.to_owned().into()),
            notify_email: notify.map(str::to_owned),
            smtp_from: None,
            reply_address: None,
            imap_url: None,
            imap_ca_file: None,
            imap_poll: Duration::from_secs(60),
        }
    }

    #[test]
    fn mail_settings_must_come_together_and_parse() {
        assert!(Mailer::from_settings(&settings(None, None))
            .unwrap()
            .is_none());
        let half = Mailer::from_settings(&settings(Some("smtp://h:25?tls=none"), None));
        assert!(half.err().unwrap().to_string().starts_with("notify-email"));
        let bad = Mailer::from_settings(&settings(Some("http://h"), Some("me@example.com")));
        assert!(bad.err().unwrap().to_string().starts_with("smtp-url"));
        let secret = Mailer::from_settings(&settings(
            Some("smtp://u:hunter2@h?tls=maybe"),
            Some("me@example.com"),
        ));
        assert!(!secret.err().unwrap().to_string().contains("hunter2"));
        for ok in ["smtp://h:2525?tls=none", "smtp://u:p%40ss@h", "smtps://h"] {
            assert!(
                Mailer::from_settings(&settings(Some(ok), Some("me@example.com")))
                    .unwrap()
                    .is_some(),
                "{ok}"
            );
        }
    }
}
