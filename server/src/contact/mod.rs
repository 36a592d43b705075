//! Contact messages beyond the HTTP handler: sending one (rate limits, spam checks, storing), the
//! notification outbox.

pub mod ceiling;
pub mod conversation;
pub mod difficulty;
pub mod export;
pub mod headers;
pub mod imap;
pub mod link_alert;
pub mod mailbox;
pub mod notify;
pub mod reply_mail;
pub mod send;
pub mod spam;
pub mod webhook;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use chrono::{DateTime, Utc};
use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::config::Settings;
use crate::domain::SpamReason;
use crate::store::{Db, MessageRow, NewMessage, UsedProofs};
use send::{Sent, Submission};

/// In-memory state of the contact feature, shared by all requests.
#[derive(Debug)]
pub struct ContactState {
    /// Wakes the outbox workers after a notification is committed or made due.
    pub outbox_wake: Notify,
    /// Whether owner notifications are configured; without them no outbox rows are written,
    /// so turning them on later does not send a flood about old messages.
    pub notifications_on: bool,
    /// The outbox channels configured: `email` and `webhook:<id>` for each webhook URL.
    pub channels: Vec<String>,
    /// Whether e-mail notifications are configured (and so test e-mails can be sent).
    pub email_on: bool,
    /// The owner's mail, when configured: also used for security notices.
    pub mailer: std::sync::OnceLock<notify::Mailer>,
    /// How many challenges each network asked for lately (their size grows with it).
    pub challenge_load: difficulty::ChallengeLoad,
    /// The spam checks' keys, read from the database on first use (shared by every instance).
    spam_keys: tokio::sync::OnceCell<SpamKeys>,
    workers: Mutex<Vec<JoinHandle<()>>>,
}

impl ContactState {
    pub fn new(settings: &Settings) -> Self {
        use secrecy::ExposeSecret;
        let email_on = settings.mail.smtp_url.is_some() && settings.mail.notify_email.is_some();
        let mut channels = Vec::new();
        if email_on {
            channels.push(crate::store::delivery::EMAIL_CHANNEL.to_owned());
        }
        for url in &settings.delivery.webhook_urls {
            let name = webhook::channel_name(url.expose_secret());
            if !channels.contains(&name) {
                channels.push(name);
            }
        }
        Self {
            notifications_on: !channels.is_empty(),
            channels,
            email_on,
            outbox_wake: Notify::new(),
            mailer: std::sync::OnceLock::new(),
            challenge_load: difficulty::ChallengeLoad::new(settings.spam.challenge_free_per_hour),
            spam_keys: tokio::sync::OnceCell::new(),
            workers: Mutex::new(Vec::new()),
        }
    }

    /// Keeps a job that sends through the outbox (the weekly digest) with the outbox's workers,
    /// stopped with them.
    pub fn keep_worker(&self, worker: JoinHandle<()>) {
        self.workers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .push(worker);
    }

    /// Stops the outbox workers (at shutdown). A notification being sent is retried at the next start.
    pub fn stop(&self) {
        for worker in self
            .workers
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .drain(..)
        {
            worker.abort();
        }
    }
}

impl ContactState {
    /// Stores the owner's reply `body` (already checked) to `message`, written at `now`, with
    /// its outbox row, and wakes the outbox; its id, or why it was refused.
    pub async fn reply(
        &self,
        db: &Db,
        message: &MessageRow,
        body: &str,
        now: i64,
    ) -> anyhow::Result<Result<i64, conversation::Refusal>> {
        let Some(mailer) = self.mailer.get() else {
            return Ok(Err(conversation::Refusal::MailOff));
        };
        if message.is_spam {
            return Ok(Err(conversation::Refusal::Spam));
        }
        let earlier = db.conversation(message.id).await?;
        let domain = mailer.from().email.domain().to_owned();
        let composed = conversation::compose(message, &earlier, body, &domain);
        let id = db
            .insert_reply(&crate::store::replies::NewReply {
                message_id: message.id,
                mail_id: &composed.mail_id,
                in_reply_to: &composed.in_reply_to,
                refs: &composed.refs,
                body,
                sent_text: &composed.sent_text,
                created_at: now,
            })
            .await?;
        tracing::info!(message_id = message.id, reply_id = id, "the owner replied");
        self.outbox_wake.notify_one();
        Ok(Ok(id))
    }
}

impl ContactState {
    /// Stores the owner's follow-up (`subject` and `body`, already checked) to the recipient of `link_id`,
    /// with its outbox row, and wakes the outbox: its id; `Ok(None)` when the link's follow-up
    /// was sent or dismissed already; `Err` when the server sends no e-mail.
    pub async fn follow_up(
        &self,
        db: &Db,
        link_id: i64,
        recipient: &str,
        (subject, body): (&str, &str),
        now: i64,
    ) -> anyhow::Result<Result<Option<i64>, conversation::Refusal>> {
        let Some(mailer) = self.mailer.get() else {
            return Ok(Err(conversation::Refusal::MailOff));
        };
        let mail_id = conversation::follow_up_mail_id(link_id, mailer.from().email.domain());
        let id = db
            .send_follow_up(&crate::store::follow_ups::NewFollowUp {
                link_id,
                mail_id: &mail_id,
                recipient,
                subject,
                body,
                now,
                queued_at: crate::clock::now_ms(),
            })
            .await?;
        if let Some(id) = id {
            tracing::info!(link_id, follow_up_id = id, "the owner sent a follow-up");
            self.outbox_wake.notify_one();
        }
        Ok(Ok(id))
    }
}

/// The keys that sign the form token and the proof-of-work challenges: made once and kept in the
/// database, so a restart or another instance accepts what this one issued.
pub struct SpamKeys {
    pub form: Vec<u8>,
    pub challenge: Vec<u8>,
}

impl std::fmt::Debug for SpamKeys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SpamKeys(***)")
    }
}

/// The spam checks' keys, read (or made) in the database the first time they are needed.
pub async fn spam_keys<'a>(db: &Db, contact: &'a ContactState) -> anyhow::Result<&'a SpamKeys> {
    contact
        .spam_keys
        .get_or_try_init(|| async {
            Ok::<_, anyhow::Error>(SpamKeys {
                form: db.secret(spam::FORM_KEY_NAME).await?,
                challenge: db.secret(spam::CHALLENGE_KEY_NAME).await?,
            })
        })
        .await
}

impl ContactState {
    /// Sends a message received `now`: counted against the client's limits
    /// (`--contact-per-minute`, `--contact-per-hour`), judged by the spam checks, stored, and the
    /// owner's notification queued when it is real (or the first the ceiling holds in an hour).
    pub async fn send(
        &self,
        db: &Db,
        settings: &Settings,
        message: &Submission<'_>,
        now: DateTime<Utc>,
    ) -> anyhow::Result<Sent> {
        let limits = crate::rate_limit::submission_limits(
            settings.limits.contact_per_minute,
            settings.limits.contact_per_hour,
        );
        let now_ms = now.timestamp_millis();
        if let Some(wait) = db
            .take_submission_slot(message.client_key, &limits, now_ms)
            .await?
        {
            return Ok(Sent::TooMany {
                wait_secs: send::whole_seconds(wait).max(1),
            });
        }

        let verdict = self.judge(db, settings, message, now_ms).await?;
        let user_agent: Option<String> = message
            .user_agent
            .map(|ua| ua.chars().take(send::MAX_USER_AGENT_CHARS).collect());
        let stored = db
            .insert_message(&NewMessage {
                form: message.form,
                spam_reason: verdict.reason.map(SpamReason::code),
                user_agent: user_agent.as_deref(),
                created_at: now_ms,
                notify: self.notifications_on,
                channels: &self.channels,
                proofs: UsedProofs {
                    token: verdict
                        .token
                        .as_ref()
                        .map(|t| (t.id.as_str(), t.expires_at)),
                    challenge: verdict
                        .challenge
                        .as_ref()
                        .map(|c| (c.signature.as_str(), c.expires_at)),
                },
                link: message.link,
            })
            .await?;
        let id = stored.id;
        let spam_reason = verdict.reason.or(stored.replayed).map(SpamReason::code);
        crate::ops::metrics::message_stored(spam_reason.is_some());
        if let Some(reason) = spam_reason {
            tracing::info!(id, reason, "contact message stored as spam");
            if verdict.reason == Some(SpamReason::Ceiling) && self.notifications_on {
                // The first message the ceiling holds in an hour queues the owner's notice.
                self.outbox_wake.notify_one();
            }
        } else if self.notifications_on {
            self.outbox_wake.notify_one();
        }
        let created_at = DateTime::from_timestamp_millis(now_ms).unwrap_or(now);
        Ok(Sent::Stored { id, created_at })
    }

    /// Runs the spam checks in order; the first one failed decides the reason.
    async fn judge(
        &self,
        db: &Db,
        settings: &Settings,
        message: &Submission<'_>,
        now: i64,
    ) -> anyhow::Result<Verdict> {
        let keys = spam_keys(db, self).await?;
        let proofs = message.proofs;
        let min_fill = Duration::from_millis(settings.spam.min_fill_ms);
        let token = spam::check_token(&keys.form, proofs.token, now, min_fill);
        let challenge = spam::verify_solution(&keys.challenge, proofs.altcha, now);
        let form = message.form;
        let reason = match (&token, &challenge) {
            _ if spam::honeypot(proofs.honeypot).is_some() => Some(SpamReason::Honeypot),
            (Err(reason), _) | (Ok(_), Err(reason)) => Some(*reason),
            (Ok(_), Ok(_)) => match spam::content(form.subject.as_str(), form.message.as_str()) {
                Some(reason) => Some(reason),
                None => {
                    let hour_ago = now - 60 * 60 * 1000;
                    let recent = db.count_real_messages_since(hour_ago).await?;
                    (recent >= i64::from(settings.spam.ceiling_per_hour))
                        .then_some(SpamReason::Ceiling)
                }
            },
        };
        Ok(Verdict {
            reason,
            token: token.ok(),
            challenge: challenge.ok(),
        })
    }
}

/// What the spam checks found before the message is stored: the first check it fails, if any,
/// and the proofs that passed theirs (used up with the message, where a replay is caught).
struct Verdict {
    reason: Option<SpamReason>,
    token: Option<spam::TokenUse>,
    challenge: Option<spam::Solved>,
}

/// Starts the background work of the contact feature: one outbox worker per notification
/// channel (e-mail, each webhook). Settings that cannot work stop start-up with a message naming
/// the setting.
pub fn start(db: &Db, contact: &Arc<ContactState>, settings: &Settings) -> anyhow::Result<()> {
    let mut channels = Vec::new();
    match notify::Mailer::from_settings(&settings.mail)? {
        Some(mailer) => {
            let _ = contact.mailer.set(mailer.clone());
            channels.push(notify::Channel::Email(Box::new(mailer)));
        }
        None => {
            tracing::info!(
                "e-mail notifications off: set --smtp-url and --notify-email to receive e-mails"
            );
        }
    }
    let delivery = &settings.delivery;
    let webhooks = webhook::Webhook::all_from_settings(
        &delivery.webhook_urls,
        delivery.webhook_secret.as_ref(),
    )?;
    channels.extend(webhooks.into_iter().map(notify::Channel::Webhook));
    let mut workers = Vec::with_capacity(channels.len() + 2);
    if let Some(url) = &settings.mail.imap_url {
        use secrecy::ExposeSecret;
        let account =
            imap::ImapAccount::parse(url.expose_secret(), settings.mail.imap_ca_file.as_deref())?;
        if contact.mailer.get().is_none() {
            anyhow::bail!("imap-url: answers come back to replies, which are sent by e-mail: set --smtp-url and --notify-email too");
        }
        let waker = contact.clone();
        let reader = mailbox::Reader::new(
            db.clone(),
            account,
            contact.channels.clone(),
            Arc::new(move || waker.outbox_wake.notify_one()),
            settings.mail.imap_poll,
        );
        workers.push(tokio::spawn(reader.run()));
    }
    if channels.is_empty() {
        *contact.workers.lock().unwrap_or_else(|e| e.into_inner()) = workers;
        return Ok(());
    }

    // One wake-up from a request reaches every channel's worker (each keeps its own permit,
    // so none is missed while a worker is busy sending).
    let wakes: Vec<Arc<Notify>> = channels.iter().map(|_| Arc::new(Notify::new())).collect();
    for (channel, wake) in channels.into_iter().zip(&wakes) {
        workers.push(tokio::spawn(notify::run_outbox(
            db.clone(),
            channel,
            wake.clone(),
            delivery.notify_retry_base,
        )));
    }
    let waker = contact.clone();
    workers.push(tokio::spawn(async move {
        loop {
            waker.outbox_wake.notified().await;
            for wake in &wakes {
                wake.notify_one();
            }
        }
    }));
    *contact.workers.lock().unwrap_or_else(|e| e.into_inner()) = workers;
    Ok(())
}
