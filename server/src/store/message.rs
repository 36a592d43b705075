//! The transaction that stores a contact message, written once for both engines: group commit
//! (`group_commit`) runs it for each message of a batch, on either engine. Besides the
//! message it uses up the form token and the proof-of-work challenge (so none is accepted twice, on
//! any instance), queues the owner's notifications, and the owner's notice when the ceiling holds
//! messages.

use anyhow::Context;

use crate::domain::{SpamReason, FORM_NAME};
use crate::store::engines::{both_engines, Pools};
use crate::store::link_steps::{AlertEvent, CountKind, LinkSteps};
use crate::store::model::{
    ceiling_hour, search_text, Inserted, NewMessage, KIND_CEILING, KIND_MESSAGE,
};

/// A message ready to insert, owned so it can wait in the writer's queue.
pub(crate) struct PendingMessage {
    name: String,
    email: String,
    subject: String,
    message: String,
    created_at: i64,
    spam_reason: Option<String>,
    user_agent: Option<String>,
    search_text: String,
    /// The notification channels, when notifications are on: one outbox row each for a real
    /// message, or the ceiling's notice.
    channels: Vec<String>,
    /// The form token's nonce and the challenge's signature, each with its expiry.
    token: Option<(String, i64)>,
    challenge: Option<(String, i64)>,
    /// The application link's slug and the day to count the message on.
    link: Option<(String, String)>,
}

impl PendingMessage {
    pub(crate) fn new(new: &NewMessage<'_>) -> Self {
        let form = new.form;
        let owned = |proof: Option<(&str, i64)>| proof.map(|(key, at)| (key.to_owned(), at));
        Self {
            name: form.name.as_str().to_owned(),
            email: form.email.as_str().to_owned(),
            subject: form.subject.as_str().to_owned(),
            message: form.message.as_str().to_owned(),
            created_at: new.created_at,
            spam_reason: new.spam_reason.map(str::to_owned),
            user_agent: new.user_agent.map(str::to_owned),
            search_text: search_text(
                form.name.as_str(),
                form.email.as_str(),
                form.subject.as_str(),
                form.message.as_str(),
            ),
            channels: if new.notify {
                new.channels.to_vec()
            } else {
                Vec::new()
            },
            token: owned(new.proofs.token),
            challenge: owned(new.proofs.challenge),
            link: new
                .link
                .map(|visit| (visit.slug.to_owned(), visit.day.to_owned())),
        }
    }
}

#[async_trait::async_trait]
pub(crate) trait StoreMessage: LinkSteps {
    /// Stores `row` inside the caller's open transaction (`connection`); what was stored, once
    /// the caller commits.
    async fn store_message(
        connection: &mut <Self::Db as sqlx::Database>::Connection,
        row: &PendingMessage,
    ) -> anyhow::Result<Inserted>;
}

both_engines! {
    impl StoreMessage {
        async fn store_message(
            connection: &mut <<Self as Pools>::Db as sqlx::Database>::Connection,
            row: &PendingMessage,
        ) -> anyhow::Result<Inserted> {
            let now = row.created_at;
            // The proofs are recorded as used, forgetting those that expired; a proof used before
            // (by a stored message, on any instance sharing the database) is a replay.
            let mut replayed = None;
            let kinds = [
                (&row.token, "spam_used_tokens", "nonce", SpamReason::TokenReplayed),
                (&row.challenge, "spam_used_challenges", "signature", SpamReason::ChallengeReplayed),
            ];
            for (proof, table, column, replay) in kinds {
                let Some((key, expires_at)) = proof else {
                    continue;
                };
                sqlx::query(&format!("DELETE FROM {table} WHERE expires_at < $1"))
                    .bind(now)
                    .execute(&mut *connection)
                    .await
                    .context("Failed to forget expired proofs")?;
                // One statement: of two transactions inserting the same key at once, one wins
                // (the row comes back only to the one that inserted it).
                let fresh = sqlx::query(&format!(
                    "INSERT INTO {table} ({column}, expires_at) VALUES ($1, $2) \
                     ON CONFLICT ({column}) DO NOTHING RETURNING 1"
                ))
                .bind(key)
                .bind(expires_at)
                .fetch_optional(&mut *connection)
                .await
                .context("Failed to record a used proof")?
                .is_some();
                if !fresh && replayed.is_none() {
                    replayed = Some(replay);
                }
            }
            let reason = row.spam_reason.as_deref().or(replayed.map(|reason| reason.code()));
            // The link, if it is live: the message is stored with it whatever it is; only a real
            // one is counted for it and alerted.
            let link = match &row.link {
                Some((slug, _)) => Self::live_link(&mut *connection, slug, now).await?,
                None => None,
            };
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO contact_messages \
                 (name, email, subject, message, form_name, created_at, is_spam, spam_reason, user_agent, search_text, link_id) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
            )
            .bind(&row.name)
            .bind(&row.email)
            .bind(&row.subject)
            .bind(&row.message)
            .bind(FORM_NAME)
            .bind(now)
            .bind(reason.is_some())
            .bind(reason)
            .bind(&row.user_agent)
            .bind(&row.search_text)
            .bind(link.map(|link| link.id))
            .fetch_one(&mut *connection)
            .await
            .context("Failed to insert the contact message")?;
            if let (Some(link), Some((_, day)), None) = (link, &row.link, reason) {
                Self::add_link_count(&mut *connection, link.id, day, CountKind::Message, "").await?;
                Self::touch_link(&mut *connection, link.id, now).await?;
                if link.alert_message {
                    Self::queue_link_alert(
                        &mut *connection,
                        link.id,
                        AlertEvent::Message,
                        &row.channels,
                        now,
                    )
                    .await?;
                }
            }
            // A real message is told on each channel; of the messages the ceiling holds, the first
            // of each clock hour is (once across instances, by `spam_ceiling_hours`).
            let notify = match reason {
                None => true,
                Some(code) if code == SpamReason::Ceiling.code() && !row.channels.is_empty() => {
                    sqlx::query(
                        "INSERT INTO spam_ceiling_hours (hour, created_at) VALUES ($1, $2) \
                         ON CONFLICT (hour) DO NOTHING RETURNING 1",
                    )
                    .bind(ceiling_hour(now))
                    .bind(now)
                    .fetch_optional(&mut *connection)
                    .await
                    .context("Failed to record the ceiling's hour")?
                    .is_some()
                }
                Some(_) => false,
            };
            if notify {
                let (message_id, kind) = match reason {
                    None => (Some(id), KIND_MESSAGE),
                    Some(_) => (None, KIND_CEILING),
                };
                for channel in &row.channels {
                    sqlx::query(
                        "INSERT INTO notification_outbox (message_id, channel, kind, next_attempt_at, created_at) \
                         VALUES ($1, $2, $3, $4, $4)",
                    )
                    .bind(message_id)
                    .bind(channel)
                    .bind(kind)
                    .bind(now)
                    .execute(&mut *connection)
                    .await
                    .context("Failed to queue the notification")?;
                }
            }
            Ok(Inserted {
                id,
                replayed: replayed.filter(|_| row.spam_reason.is_none()),
            })
        }
    }
}
