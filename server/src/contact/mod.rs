//! Contact messages beyond the HTTP handler: rate limits, spam checks and the notification outbox.

pub mod ceiling;
pub mod difficulty;
pub mod export;
pub mod link_alert;
pub mod notify;
pub mod spam;
pub mod webhook;

use std::sync::{Arc, Mutex};

use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::config::Settings;
use crate::store::Db;

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

/// Starts the background work of the contact feature: one outbox worker per notification
/// channel (e-mail, each webhook). Settings that cannot work stop start-up with a message naming
/// the setting.
pub fn start(db: &Db, contact: &Arc<ContactState>, settings: &Settings) -> anyhow::Result<()> {
    let mut channels = Vec::new();
    match notify::Mailer::from_settings(&settings.mail)? {
        Some(mailer) => {
            let _ = contact.mailer.set(mailer.clone());
            channels.push(notify::Channel::Email(mailer));
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
    if channels.is_empty() {
        return Ok(());
    }

    // One wake-up from a request reaches every channel's worker (each keeps its own permit,
    // so none is missed while a worker is busy sending).
    let wakes: Vec<Arc<Notify>> = channels.iter().map(|_| Arc::new(Notify::new())).collect();
    let mut workers = Vec::with_capacity(channels.len() + 1);
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
