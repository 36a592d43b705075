//! Contact messages beyond the HTTP handler: rate limits, spam checks and the notification outbox.

pub mod export;
pub mod notify;
pub mod rate_limit;
pub mod spam;

use std::sync::Mutex;

use tokio::sync::Notify;
use tokio::task::JoinHandle;

use crate::config::Settings;
use crate::state::AppState;

/// In-memory state of the contact feature, shared by all requests.
#[derive(Debug)]
pub struct ContactState {
    /// Wakes the outbox worker after a notification is committed.
    pub outbox_wake: Notify,
    /// Whether owner notifications are configured; without them no outbox rows are written,
    /// so turning them on later does not send a flood about old messages.
    pub notifications_on: bool,
    /// The owner's mail, when configured: also used for security notices.
    pub mailer: std::sync::OnceLock<notify::Mailer>,
    /// The spam checks' keys, read from the database on first use (shared by every instance).
    spam_keys: tokio::sync::OnceCell<SpamKeys>,
    worker: Mutex<Option<JoinHandle<()>>>,
}

impl ContactState {
    pub fn new(settings: &Settings) -> Self {
        Self {
            notifications_on: settings.mail.smtp_url.is_some()
                && settings.mail.notify_email.is_some(),
            outbox_wake: Notify::new(),
            mailer: std::sync::OnceLock::new(),
            spam_keys: tokio::sync::OnceCell::new(),
            worker: Mutex::new(None),
        }
    }

    /// Stops the outbox worker (at shutdown). A notification being sent is retried at the next start.
    pub fn stop(&self) {
        if let Some(worker) = self.worker.lock().unwrap_or_else(|e| e.into_inner()).take() {
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
pub async fn spam_keys(state: &AppState) -> anyhow::Result<&SpamKeys> {
    state
        .contact
        .spam_keys
        .get_or_try_init(|| async {
            Ok::<_, anyhow::Error>(SpamKeys {
                form: state.db.secret(spam::FORM_KEY_NAME).await?,
                challenge: state.db.secret(spam::CHALLENGE_KEY_NAME).await?,
            })
        })
        .await
}

/// Starts the background work of the contact feature: the notification outbox, when mail is configured.
/// Mail settings that cannot work stop start-up with a message naming the setting.
pub fn start(state: &AppState) -> anyhow::Result<()> {
    let Some(mailer) = notify::Mailer::from_settings(&state.settings.mail)? else {
        tracing::info!("notifications off: set --smtp-url and --notify-email to receive e-mails");
        return Ok(());
    };
    let _ = state.contact.mailer.set(mailer.clone());
    let worker = tokio::spawn(notify::run_outbox(
        state.db.clone(),
        state.contact.clone(),
        mailer,
    ));
    *state
        .contact
        .worker
        .lock()
        .unwrap_or_else(|e| e.into_inner()) = Some(worker);
    Ok(())
}
