//! Webhook alerts: each non-spam message is posted as JSON to every `--webhook-url`, through the
//! same outbox as e-mail (one row per message and webhook), signed the way Stripe signs its
//! webhooks so the receiver can check it and refuse replays:
//! `X-Portfolio-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
//! Slack and Discord incoming-webhook URLs get the body they expect instead, with the visitor's
//! text escaped so that it shows as typed: no mention, no disguised link, no markup.
//!
//! A webhook URL usually holds a token, so it never appears in logs, errors or the database: the
//! channel is named by a hash of the URL.

use std::time::Duration;

use anyhow::Context;
use bytes::Bytes;
use hmac::{Hmac, Mac};
use http_body_util::Full;
use hyper::header::{CONTENT_TYPE, HOST, USER_AGENT};
use hyper_util::rt::TokioIo;
use secrecy::{ExposeSecret, SecretString};
use sha2::{Digest, Sha256};
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use crate::store::delivery::PendingDelivery;

/// The header that carries the signature.
pub const SIGNATURE_HEADER: &str = "X-Portfolio-Signature";
/// A receiver that takes longer than this has failed; the outbox tries again later.
const TIMEOUT: Duration = Duration::from_secs(10);
/// The shortest secret accepted.
const MIN_SECRET_CHARS: usize = 16;
/// Discord refuses `content` longer than this...
const DISCORD_MAX_CHARS: usize = 2000;
/// ...and Slack shortens a `text` past this.
const SLACK_MAX_CHARS: usize = 3000;

/// The body a webhook gets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    /// The message as a JSON document.
    Generic,
    /// `{"text": …}` for a Slack incoming webhook.
    Slack,
    /// `{"content": …}` for a Discord webhook.
    Discord,
}

/// The outbox channel of a webhook URL: `webhook:` and the start of the URL's SHA-256, so the
/// stored name reveals nothing of the URL's token but stays the same across restarts.
pub fn channel_name(url: &str) -> String {
    let digest = hex::encode(Sha256::digest(url.trim().as_bytes()));
    format!("webhook:{}", &digest[..16])
}

/// `t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">`.
pub fn signature(secret: &[u8], unix_seconds: i64, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret).expect("HMAC takes a key of any length");
    mac.update(unix_seconds.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    format!(
        "t={unix_seconds},v1={}",
        hex::encode(mac.finalize().into_bytes())
    )
}

/// One webhook to post to.
#[derive(Clone)]
pub struct Webhook {
    channel: String,
    url: url::Url,
    shape: Shape,
    secret: SecretString,
    /// The TLS client for `https://` webhooks: Mozilla's roots.
    tls: crate::tls::Connector,
}

impl std::fmt::Debug for Webhook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // The URL's path and query may hold a token: show the channel and host only.
        f.debug_struct("Webhook")
            .field("channel", &self.channel)
            .field("host", &self.url.host_str())
            .field("shape", &self.shape)
            .finish()
    }
}

impl Webhook {
    /// Every configured webhook; an error naming the setting when a URL does not parse or the
    /// secret is missing or short. Errors never echo a URL or the secret.
    pub fn all_from_settings(
        urls: &[SecretString],
        secret: Option<&SecretString>,
    ) -> anyhow::Result<Vec<Self>> {
        if urls.is_empty() {
            return Ok(Vec::new());
        }
        let secret = secret.ok_or_else(|| {
            anyhow::anyhow!("webhook-secret: --webhook-url is set, so give the key that signs the posts with --webhook-secret")
        })?;
        if secret.expose_secret().chars().count() < MIN_SECRET_CHARS {
            anyhow::bail!("webhook-secret: use at least {MIN_SECRET_CHARS} characters");
        }
        let tls =
            crate::tls::Connector::new(&[]).context("webhook-url: cannot set up the TLS client")?;
        urls.iter()
            .enumerate()
            .map(|(index, raw)| {
                let raw = raw.expose_secret().trim();
                let invalid = || {
                    anyhow::anyhow!(
                        "webhook-url: webhook {} is not a valid http:// or https:// URL",
                        index + 1
                    )
                };
                let url = url::Url::parse(raw).map_err(|_| invalid())?;
                if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none() {
                    return Err(invalid());
                }
                let shape = shape_of(&url);
                // The fragment only names the shape; it is never sent.
                let mut url = url;
                url.set_fragment(None);
                Ok(Self {
                    channel: channel_name(raw),
                    shape,
                    url,
                    secret: secret.clone(),
                    tls: tls.clone(),
                })
            })
            .collect()
    }

    pub fn channel(&self) -> &str {
        &self.channel
    }

    /// The JSON body for this webhook.
    pub fn body(&self, pending: &PendingDelivery) -> serde_json::Value {
        body(self.shape, pending)
    }

    /// Posts one notification; any answer but 2xx is a failure, said in words without the URL.
    pub async fn send(&self, pending: &PendingDelivery) -> anyhow::Result<()> {
        let body = serde_json::to_vec(&self.body(pending)).context("cannot write the JSON body")?;
        let now = crate::clock::now().timestamp();
        let signature = signature(self.secret.expose_secret().as_bytes(), now, &body);
        let status = tokio::time::timeout(TIMEOUT, self.post(&signature, body))
            .await
            .map_err(|_| {
                anyhow::anyhow!("the webhook did not answer within {} s", TIMEOUT.as_secs())
            })??;
        if !status.is_success() {
            anyhow::bail!("the webhook answered {status}");
        }
        Ok(())
    }

    /// One POST of `body` to the URL over a connection of its own (HTTP/1.1, TLS for `https`),
    /// closed once the answer's status is read; no redirect is followed. Errors say what failed
    /// in words, never with the URL.
    async fn post(&self, signature: &str, body: Vec<u8>) -> anyhow::Result<hyper::StatusCode> {
        let unreachable = "the webhook could not be reached";
        let port = self.url.port_or_known_default().unwrap_or(80);
        let (host, server_name) =
            crate::net::host_and_server_name(self.url.host().context(unreachable)?);
        let tcp = TcpStream::connect((host.as_str(), port))
            .await
            .context(unreachable)?;
        let request =
            hyper::Request::post(&self.url[url::Position::BeforePath..url::Position::AfterQuery])
                .header(
                    HOST,
                    &self.url[url::Position::BeforeHost..url::Position::AfterPort],
                )
                .header(CONTENT_TYPE, "application/json")
                .header(
                    USER_AGENT,
                    concat!("Portfolio/", env!("CARGO_PKG_VERSION"), " (webhook)"),
                )
                .header(SIGNATURE_HEADER, signature)
                .body(Full::new(Bytes::from(body)))
                .context("the webhook request could not be made")?;
        if self.url.scheme() == "https" {
            let server_name = server_name.context(unreachable)?;
            let tls = self
                .tls
                .connect(&server_name, tcp)
                .await
                .context(unreachable)?;
            exchange(tls, request).await
        } else {
            exchange(tcp, request).await
        }
    }
}

/// Sends `request` on `stream` and returns the answer's status, driving the connection meanwhile.
async fn exchange(
    stream: impl AsyncRead + AsyncWrite + Unpin + Send + 'static,
    request: hyper::Request<Full<Bytes>>,
) -> anyhow::Result<hyper::StatusCode> {
    let failed = "the webhook request failed";
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .context(failed)?;
    let answer = sender.send_request(request);
    tokio::pin!(answer, connection);
    // The connection may end (the receiver closing it) as the answer arrives: the answer first.
    let response = tokio::select! {
        biased;
        answer = &mut answer => answer,
        ended = &mut connection => {
            ended.context(failed)?;
            answer.await
        }
    };
    Ok(response.context(failed)?.status())
}

/// The body a URL gets: by its host, or by a fragment `#slack` or `#discord` for a receiver that
/// speaks Slack's or Discord's format elsewhere (Mattermost, a relay, a test).
fn shape_of(url: &url::Url) -> Shape {
    match url.fragment() {
        Some("slack") => return Shape::Slack,
        Some("discord") => return Shape::Discord,
        _ => {}
    }
    let host = url.host_str().unwrap_or_default();
    if host == "hooks.slack.com" {
        Shape::Slack
    } else if matches!(
        host,
        "discord.com" | "discordapp.com" | "ptb.discord.com" | "canary.discord.com"
    ) && url.path().starts_with("/api/webhooks/")
    {
        Shape::Discord
    } else {
        Shape::Generic
    }
}

fn body(shape: Shape, pending: &PendingDelivery) -> serde_json::Value {
    if pending.kind == crate::store::delivery::KIND_CEILING {
        let held = pending.held.unwrap_or(1);
        let text = format!(
            "{}\n\n{}",
            super::ceiling::CEILING_SUBJECT,
            super::ceiling::ceiling_text(held)
        );
        return match shape {
            Shape::Generic => {
                serde_json::json!({ "type": "ceiling_reached", "held": held, "text": text })
            }
            Shape::Slack => serde_json::json!({ "text": text }),
            Shape::Discord => {
                serde_json::json!({ "content": text, "allowed_mentions": { "parse": [] } })
            }
        };
    }
    if pending.kind == crate::store::delivery::KIND_LINK {
        return link_body(shape, pending);
    }
    if pending.kind == crate::store::delivery::KIND_ANSWER {
        let notice = super::reply_mail::AnswerNotice::of(pending);
        return match shape {
            Shape::Generic => serde_json::json!({
                "type": "contact_answer",
                "messageId": notice.message_id,
                "answerId": notice.answer_id,
                "name": notice.name,
                "email": notice.email,
                "subject": notice.subject,
                "text": notice.text,
                "at": notice.at,
            }),
            Shape::Slack => {
                serde_json::json!({ "text": cut(&notice.summary(slack_escape), SLACK_MAX_CHARS) })
            }
            Shape::Discord => serde_json::json!({
                "content": cut(&notice.summary(discord_escape), DISCORD_MAX_CHARS),
                "allowed_mentions": { "parse": [] },
            }),
        };
    }
    if pending.kind == crate::store::delivery::KIND_DIGEST {
        let stored = pending.notice_text.as_deref().unwrap_or_default();
        let Ok(figures) = serde_json::from_str::<crate::digest::figures::Figures>(stored) else {
            return serde_json::json!({ "type": "weekly_digest" });
        };
        return match shape {
            Shape::Generic => crate::digest::render::webhook_json(&figures),
            Shape::Slack => serde_json::json!({
                "text": cut(&crate::digest::render::chat_text(&figures, slack_escape), SLACK_MAX_CHARS),
            }),
            Shape::Discord => serde_json::json!({
                "content": cut(&crate::digest::render::chat_text(&figures, discord_escape), DISCORD_MAX_CHARS),
                "allowed_mentions": { "parse": [] },
            }),
        };
    }
    if pending.kind == crate::store::delivery::KIND_NOTICE {
        let text = |field: &Option<String>| field.clone().unwrap_or_default();
        let (subject, body) = (text(&pending.notice_subject), text(&pending.notice_text));
        let escape = match shape {
            Shape::Slack => slack_escape,
            _ => discord_escape,
        };
        let said = format!("{}\n\n{}", escape(&subject), escape(&body));
        return match shape {
            Shape::Generic => {
                serde_json::json!({ "type": "notice", "subject": subject, "text": body })
            }
            Shape::Slack => serde_json::json!({ "text": said }),
            Shape::Discord => {
                serde_json::json!({ "content": said, "allowed_mentions": { "parse": [] } })
            }
        };
    }
    let text = |field: &Option<String>| field.clone().unwrap_or_default();
    let created_at = pending
        .message_created_at
        .and_then(chrono::DateTime::from_timestamp_millis)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Millis, true));
    match shape {
        Shape::Generic => serde_json::json!({
            "type": "contact_message",
            "id": pending.message_id,
            "name": text(&pending.name),
            "email": text(&pending.email),
            "subject": text(&pending.subject),
            "message": text(&pending.message),
            "createdAt": created_at,
        }),
        Shape::Slack | Shape::Discord => {
            let escape = if shape == Shape::Slack {
                slack_escape
            } else {
                discord_escape
            };
            // Everything the visitor wrote is escaped; only our own frame is markup.
            let summary = format!(
                "New message from {} ({})\nSubject: {}\n\n{}",
                escape(&text(&pending.name)),
                escape(&text(&pending.email)),
                escape(&text(&pending.subject)),
                escape(&text(&pending.message)),
            );
            if shape == Shape::Slack {
                serde_json::json!({ "text": cut(&summary, SLACK_MAX_CHARS) })
            } else {
                // No pings: a visitor's "@everyone" or "<@id>" stays text.
                serde_json::json!({
                    "content": cut(&summary, DISCORD_MAX_CHARS),
                    "allowed_mentions": { "parse": [] },
                })
            }
        }
    }
}

/// A link's alert: the link, the event and its time; nothing about the visitor. The owner's
/// own words (company, role) are escaped in the chat bodies all the same.
fn link_body(shape: Shape, pending: &PendingDelivery) -> serde_json::Value {
    let alert = super::link_alert::LinkAlert::of(pending);
    match shape {
        Shape::Generic => serde_json::json!({
            "type": "application_link",
            "event": alert.event,
            "link": {
                "id": pending.link_id,
                "company": alert.company,
                "role": alert.role,
                "path": alert.path,
            },
            "at": alert.at,
        }),
        Shape::Slack => serde_json::json!({
            "text": cut(&alert.text_with(&slack_escape(&alert.link_name())), SLACK_MAX_CHARS),
        }),
        Shape::Discord => serde_json::json!({
            "content": cut(&alert.text_with(&discord_escape(&alert.link_name())), DISCORD_MAX_CHARS),
            "allowed_mentions": { "parse": [] },
        }),
    }
}

/// Slack's escaping for `text`: `&`, `<` and `>` are the only characters its markup needs
/// escaped, and with them escaped `<!channel>`, `<@U123>` and `<https://x|label>` are plain text.
pub fn slack_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c => out.push(c),
        }
    }
    out
}

/// Discord's markdown made inert: a backslash before each character that can start or end
/// markup (emphasis, code, spoilers, quotes, headings, lists, masked links `[text](url)`,
/// mentions and emoji `<@id>`, `<:name:id>`), so `[Reset](https://evil.example)` shows as typed.
/// Mentions are also switched off in the payload (`allowed_mentions`).
pub fn discord_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    for c in text.chars() {
        if matches!(
            c,
            '\\' | '*'
                | '_'
                | '~'
                | '`'
                | '|'
                | '>'
                | '<'
                | '#'
                | '-'
                | '+'
                | '['
                | ']'
                | '('
                | ')'
                | '@'
                | ':'
        ) {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let mut cut: String = text.chars().take(max - 1).collect();
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pending() -> PendingDelivery {
        PendingDelivery {
            outbox_id: 1,
            channel: "webhook:x".into(),
            kind: "message".into(),
            attempts: 0,
            message_id: Some(7),
            name: Some("Ada".into()),
            email: Some("ada@example.com".into()),
            subject: Some("Hello".into()),
            message: Some("x".repeat(5000)),
            message_created_at: Some(0),
            held: None,
            link_id: None,
            link_event: None,
            event_at: 0,
            link_company: None,
            link_role: None,
            link_slug: None,
            notice_subject: None,
            notice_text: None,
            reply_id: None,
            reply_mail_id: None,
            reply_in_reply_to: None,
            reply_refs: None,
            reply_body: None,
            reply_sent_text: None,
            reply_subject: None,
            reply_from: None,
        }
    }

    fn hook(url: &str) -> Webhook {
        let secret = SecretString::from("a-webhook-secret-for-tests");
        Webhook::all_from_settings(&[SecretString::from(url)], Some(&secret))
            .unwrap()
            .remove(0)
    }

    /// What sending a message to `url` failed with, in words.
    async fn failure(url: &str) -> String {
        hook(url).send(&pending()).await.unwrap_err().to_string()
    }

    /// A receiver on a free port that reads one request whole, answers `answer` (or never, when
    /// it is `None`) and hands the request's text back.
    async fn receiver(answer: Option<&'static str>) -> (String, tokio::task::JoinHandle<String>) {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap().to_string();
        let task = tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut seen = Vec::new();
            let mut buffer = [0; 4096];
            loop {
                let read = socket.read(&mut buffer).await.unwrap();
                seen.extend_from_slice(&buffer[..read]);
                let text = String::from_utf8_lossy(&seen).into_owned();
                let Some(end) = text.find("\r\n\r\n") else {
                    continue;
                };
                let length = text[..end]
                    .lines()
                    .find_map(|line| line.strip_prefix("content-length: "))
                    .map_or(0, |n| n.parse::<usize>().unwrap());
                if seen.len() >= end + 4 + length || read == 0 {
                    break;
                }
            }
            match answer {
                Some(answer) => socket.write_all(answer.as_bytes()).await.unwrap(),
                None => tokio::time::sleep(Duration::from_secs(60)).await,
            }
            String::from_utf8(seen).unwrap()
        });
        (address, task)
    }

    #[tokio::test]
    async fn a_post_carries_its_headers_and_body_and_returns_the_status() {
        let (address, received) =
            receiver(Some("HTTP/1.1 202 Accepted\r\ncontent-length: 0\r\n\r\n")).await;
        let status = hook(&format!("http://{address}/hooks/a?b=c#slack"))
            .post("t=1,v1=ab", br#"{"a":1}"#.to_vec())
            .await
            .unwrap();
        assert_eq!(status, 202);
        let request = received.await.unwrap();
        let (head, body) = request.split_once("\r\n\r\n").unwrap();
        let mut lines = head.lines();
        assert_eq!(
            lines.next(),
            Some("POST /hooks/a?b=c HTTP/1.1"),
            "the path and query, never the fragment"
        );
        let headers: Vec<&str> = lines.collect();
        for expected in [
            format!("host: {address}"),
            "content-type: application/json".to_owned(),
            "x-portfolio-signature: t=1,v1=ab".to_owned(),
            format!(
                "user-agent: Portfolio/{} (webhook)",
                env!("CARGO_PKG_VERSION")
            ),
            "content-length: 7".to_owned(),
        ] {
            assert!(
                headers.contains(&expected.as_str()),
                "{expected} in {headers:?}"
            );
        }
        assert_eq!(body, r#"{"a":1}"#);
    }

    #[tokio::test]
    async fn a_redirect_is_an_answer_not_followed_and_other_statuses_fail() {
        let (address, _) = receiver(Some(
            "HTTP/1.1 302 Found\r\nlocation: http://127.0.0.1:9/\r\ncontent-length: 0\r\n\r\n",
        ))
        .await;
        let webhook = hook(&format!("http://{address}/"));
        assert_eq!(webhook.post("s", Vec::new()).await.unwrap(), 302);
        let (address, _) = receiver(Some(
            "HTTP/1.1 500 Internal Server Error\r\ncontent-length: 0\r\n\r\n",
        ))
        .await;
        assert_eq!(
            failure(&format!("http://{address}/")).await,
            "the webhook answered 500 Internal Server Error"
        );
    }

    #[tokio::test]
    async fn https_trusts_only_known_roots_and_a_closed_port_is_unreachable() {
        // A TLS receiver with a self-signed certificate for localhost: Mozilla's roots do not
        // vouch for it, so the client stops at the handshake.
        let certified = rcgen::generate_simple_self_signed(vec!["localhost".to_owned()]).unwrap();
        let key = rustls::pki_types::PrivatePkcs8KeyDer::from(certified.key_pair.serialize_der());
        let config = rustls::ServerConfig::builder_with_provider(std::sync::Arc::new(
            rustls::crypto::ring::default_provider(),
        ))
        .with_safe_default_protocol_versions()
        .unwrap()
        .with_no_client_auth()
        .with_single_cert(vec![certified.cert.der().clone()], key.into())
        .unwrap();
        let acceptor = tokio_rustls::TlsAcceptor::from(std::sync::Arc::new(config));
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let port = listener.local_addr().unwrap().port();
        let handshake = tokio::spawn(async move {
            let (tcp, _) = listener.accept().await.unwrap();
            acceptor.accept(tcp).await.is_ok()
        });
        let error = hook(&format!("https://localhost:{port}/"))
            .post("s", Vec::new())
            .await
            .unwrap_err();
        assert_eq!(error.to_string(), "the webhook could not be reached");
        assert!(
            format!("{error:#}").contains("the certificate cannot be verified"),
            "the certificate was checked: {error:#}"
        );
        assert!(!handshake.await.unwrap(), "no TLS session was set up");

        let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let port = closed.local_addr().unwrap().port();
        drop(closed);
        assert_eq!(
            failure(&format!("http://127.0.0.1:{port}/")).await,
            "the webhook could not be reached"
        );
    }

    #[tokio::test]
    async fn a_receiver_that_never_answers_fails_after_the_timeout() {
        let (address, _) = receiver(None).await;
        let started = std::time::Instant::now();
        assert_eq!(
            failure(&format!("http://{address}/")).await,
            format!("the webhook did not answer within {} s", TIMEOUT.as_secs())
        );
        assert!(started.elapsed() >= TIMEOUT);
    }

    #[test]
    fn a_links_alert_names_the_link_and_the_event_and_nothing_of_the_visitor() {
        let alert = PendingDelivery {
            kind: crate::store::delivery::KIND_LINK.into(),
            message_id: None,
            name: None,
            email: None,
            subject: None,
            message: None,
            message_created_at: None,
            link_id: Some(3),
            link_event: Some("open".into()),
            event_at: 1_700_000_000_000,
            link_company: Some("<!channel> Acme".into()),
            link_role: Some("Frontend Developer".into()),
            link_slug: Some("acme-0123456789abcdef".into()),
            ..pending()
        };
        let generic = body(Shape::Generic, &alert);
        assert_eq!(generic["type"], "application_link");
        assert_eq!(generic["event"], "open");
        assert_eq!(generic["link"]["id"], 3);
        assert_eq!(generic["link"]["path"], "/a/acme-0123456789abcdef");
        assert_eq!(generic["link"]["role"], "Frontend Developer");
        assert_eq!(generic["at"], "2023-11-14T22:13:20Z");
        let slack = body(Shape::Slack, &alert)["text"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            slack.contains("&lt;!channel&gt; Acme, Frontend Developer"),
            "{slack}"
        );
        let discord = body(Shape::Discord, &alert);
        assert_eq!(discord["allowed_mentions"]["parse"], serde_json::json!([]));
    }

    #[test]
    fn the_ceilings_notice_has_a_body_of_each_shape() {
        let notice = PendingDelivery {
            kind: crate::store::delivery::KIND_CEILING.into(),
            message_id: None,
            name: None,
            email: None,
            subject: None,
            message: None,
            message_created_at: None,
            held: Some(7),
            ..pending()
        };
        let generic = body(Shape::Generic, &notice);
        assert_eq!(generic["type"], "ceiling_reached");
        assert_eq!(generic["held"], 7);
        assert!(body(Shape::Slack, &notice)["text"]
            .as_str()
            .unwrap()
            .contains("7 messages were held in Spam"));
        let discord = body(Shape::Discord, &notice);
        assert!(discord["content"].as_str().unwrap().contains("7 messages"));
        assert_eq!(discord["allowed_mentions"]["parse"], serde_json::json!([]));
    }

    #[test]
    fn the_signature_is_stripes_scheme() {
        // HMAC-SHA256("key", "1700000000.{}") computed independently with openssl.
        assert_eq!(
            signature(b"key", 1_700_000_000, b"{}"),
            "t=1700000000,v1=9d713ed406bb7076d4123f0dc2c39d2df5c654ed4b0cd56b52c8b4c940bd63ae"
        );
    }

    #[test]
    fn slack_and_discord_urls_get_their_shape() {
        let shape = |u: &str| shape_of(&url::Url::parse(u).unwrap());
        assert_eq!(
            shape("https://hooks.slack.com/services/T/B/x"),
            Shape::Slack
        );
        assert_eq!(
            shape("https://discord.com/api/webhooks/1/abc"),
            Shape::Discord
        );
        assert_eq!(shape("https://discord.com/channels/1"), Shape::Generic);
        assert_eq!(shape("https://example.com/hook"), Shape::Generic);
        assert_eq!(
            shape("https://hooks.slack.com.evil.example/x"),
            Shape::Generic
        );

        let discord = body(Shape::Discord, &pending());
        assert!(discord["content"].as_str().unwrap().chars().count() <= DISCORD_MAX_CHARS);
        assert!(discord["content"]
            .as_str()
            .unwrap()
            .contains("Ada (ada\\@example.com)"));
        let slack = body(Shape::Slack, &pending());
        assert!(slack["text"]
            .as_str()
            .unwrap()
            .starts_with("New message from Ada"));
        let generic = body(Shape::Generic, &pending());
        assert_eq!(generic["id"], 7);
        assert_eq!(generic["createdAt"], "1970-01-01T00:00:00.000Z");
    }

    #[test]
    fn a_fragment_names_the_shape_and_is_not_sent() {
        let shape = |u: &str| shape_of(&url::Url::parse(u).unwrap());
        assert_eq!(shape("https://chat.example/hooks/x#slack"), Shape::Slack);
        assert_eq!(shape("http://127.0.0.1:9/x#discord"), Shape::Discord);
        assert_eq!(shape("https://chat.example/hooks/x#other"), Shape::Generic);
        let secret = SecretString::from("0123456789abcdef".to_owned());
        let hooks = Webhook::all_from_settings(
            &[SecretString::from(
                "https://chat.example/hooks/x#slack".to_owned(),
            )],
            Some(&secret),
        )
        .unwrap();
        assert_eq!(hooks[0].shape, Shape::Slack);
        assert_eq!(hooks[0].url.as_str(), "https://chat.example/hooks/x");
    }

    #[test]
    fn slack_escaping_leaves_no_mention_or_link() {
        assert_eq!(
            slack_escape("<!channel> <!everyone> <@U1> a&b"),
            "&lt;!channel&gt; &lt;!everyone&gt; &lt;@U1&gt; a&amp;b"
        );
        assert_eq!(
            slack_escape("<https://evil.example/login|Reset your password>"),
            "&lt;https://evil.example/login|Reset your password&gt;"
        );
        // Escaping twice escapes the ampersands again: the text shows as it was typed.
        assert_eq!(slack_escape("&lt;"), "&amp;lt;");
        assert_eq!(slack_escape("plain text, é"), "plain text, é");
    }

    #[test]
    fn discord_escaping_makes_markdown_inert() {
        assert_eq!(
            discord_escape("[Reset your password](https://evil.example/login)"),
            r"\[Reset your password\]\(https\://evil.example/login\)"
        );
        assert_eq!(
            discord_escape("**bold** _it_ ~~s~~ `c` ||sp|| > q # h @everyone <@1> \\"),
            r"\*\*bold\*\* \_it\_ \~\~s\~\~ \`c\` \|\|sp\|\| \> q \# h \@everyone \<\@1\> \\"
        );
        assert_eq!(discord_escape("plain text, é"), "plain text, é");
    }

    #[test]
    fn hostile_text_is_escaped_in_chat_bodies_and_not_in_the_generic_one() {
        let mut hostile = pending();
        hostile.name = Some("<!channel>".into());
        hostile.message = Some("[Reset](https://evil.example) <https://evil.example|Reset>".into());
        let slack = body(Shape::Slack, &hostile)["text"]
            .as_str()
            .unwrap()
            .to_owned();
        assert!(
            slack.starts_with("New message from &lt;!channel&gt; ("),
            "{slack}"
        );
        assert!(!slack.contains('<') && !slack.contains('>'), "{slack}");
        let discord = body(Shape::Discord, &hostile);
        let content = discord["content"].as_str().unwrap();
        assert!(
            content.contains(r"\[Reset\]\(https\://evil.example\)"),
            "{content}"
        );
        assert_eq!(discord["allowed_mentions"]["parse"], serde_json::json!([]));
        let generic = body(Shape::Generic, &hostile);
        assert_eq!(generic["name"], "<!channel>");
    }

    #[test]
    fn settings_are_checked_without_echoing_secrets() {
        let urls = |u: &[&str]| -> Vec<SecretString> {
            u.iter()
                .map(|s| SecretString::from(s.to_string()))
                .collect()
        };
        let secret = SecretString::from("0123456789abcdef".to_owned());
        assert!(Webhook::all_from_settings(&[], None).unwrap().is_empty());
        let missing = Webhook::all_from_settings(&urls(&["https://h/x"]), None).unwrap_err();
        assert!(missing.to_string().starts_with("webhook-secret"));
        let short = SecretString::from("short".to_owned());
        assert!(Webhook::all_from_settings(&urls(&["https://h/x"]), Some(&short)).is_err());
        let bad = Webhook::all_from_settings(&urls(&["ftp://h/tok3n"]), Some(&secret)).unwrap_err();
        assert!(bad.to_string().starts_with("webhook-url"), "{bad}");
        assert!(!bad.to_string().contains("tok3n"));
        let ok = Webhook::all_from_settings(
            &urls(&["https://hooks.slack.com/services/T/B/tok3n"]),
            Some(&secret),
        )
        .unwrap();
        assert!(!format!("{ok:?}").contains("tok3n"));
        assert_eq!(
            ok[0].channel(),
            channel_name("https://hooks.slack.com/services/T/B/tok3n")
        );
    }
}
