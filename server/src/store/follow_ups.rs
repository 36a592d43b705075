//! What follow-ups need from storage: the links due for one (opened, then quiet for their days),
//! each link's follow-up as the owner left it (sent, dismissed, snoozed), and a follow-up sent:
//! its row and its outbox row in one transaction, so it is sent once, whichever instance the
//! owner reached.

use anyhow::Context;
use async_trait::async_trait;

use crate::store::delivery::{DeliveryRow, DELIVERY_COLUMNS};
use crate::store::engines::{both_engines, in_list, Pools};
use crate::store::links::{LinkRow, LINK_COLUMNS};
use crate::store::model::{EMAIL_CHANNEL, KIND_FOLLOW_UP};

/// A follow-up the owner sent (it never comes up again)...
pub const STATE_SENT: &str = "sent";
/// ...dismissed (nor this)...
pub const STATE_DISMISSED: &str = "dismissed";
/// ...or snoozed: it comes up again at `snoozed_until`.
pub const STATE_SNOOZED: &str = "snoozed";

/// A day, in milliseconds: a link's days and a snooze are counted in them.
pub const DAY_MS: i64 = 86_400_000;

row! {
    /// A link's follow-up as the owner left it, every column.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct FollowUpRow {
        pub id: i64,
        pub link_id: i64,
        /// [`STATE_SENT`], [`STATE_DISMISSED`] or [`STATE_SNOOZED`].
        pub state: String,
        pub snoozed_until: Option<i64>,
        /// A sent follow-up's Message-ID (without its angle brackets), address, subject and text.
        pub mail_id: Option<String>,
        pub recipient: Option<String>,
        pub subject: Option<String>,
        pub body: Option<String>,
        /// The message the recipient's first answer became, and that answer's Message-ID.
        pub message_id: Option<i64>,
        pub answer_mail_id: Option<String>,
        pub created_at: i64,
        pub updated_at: i64,
    }
}

/// The columns of [`FollowUpRow`], in order.
const FOLLOW_UP_COLUMNS: &str =
    "id, link_id, state, snoozed_until, mail_id, recipient, subject, body, message_id, \
     answer_mail_id, created_at, updated_at";

/// A follow-up to send: its row's fields and when.
#[derive(Debug, Clone)]
pub struct NewFollowUp<'a> {
    pub link_id: i64,
    pub mail_id: &'a str,
    pub recipient: &'a str,
    pub subject: &'a str,
    pub body: &'a str,
    /// When, on the follow-ups' clock (moved ahead in tests).
    pub now: i64,
    /// When, on the outbox's clock: its row is due then.
    pub queued_at: i64,
}

#[async_trait]
pub trait FollowUpStore: Send + Sync + 'static {
    /// The links due for a follow-up at `now`, the longest waiting first: live (not revoked, not
    /// expired), with a recipient's address, first opened at least their days ago, with no
    /// message through them and no mail from their recipient in the site's mailbox since they
    /// were made, and no follow-up sent or dismissed (a snoozed one is due again once its time
    /// has come).
    async fn due_follow_ups(&self, now: i64) -> anyhow::Result<Vec<LinkRow>>;

    /// Every link's follow-up as the owner left it.
    async fn follow_ups(&self) -> anyhow::Result<Vec<FollowUpRow>>;

    /// Stores a sent follow-up with its outbox row (on the e-mail channel), in one transaction;
    /// its id, or `None` when the link's follow-up was sent or dismissed already.
    async fn send_follow_up(&self, new: &NewFollowUp<'_>) -> anyhow::Result<Option<i64>>;

    /// Dismisses a link's follow-up (`snoozed_until` `None`) or snoozes it until then; `false`
    /// when it was sent or dismissed already.
    async fn set_follow_up(
        &self,
        link_id: i64,
        snoozed_until: Option<i64>,
        now: i64,
    ) -> anyhow::Result<bool>;

    /// The outbox rows that send these follow-ups, by follow-up.
    async fn deliveries_for_follow_ups(&self, ids: &[i64]) -> anyhow::Result<Vec<DeliveryRow>>;
}

both_engines! {
    impl FollowUpStore {
        async fn due_follow_ups(&self, now: i64) -> anyhow::Result<Vec<LinkRow>> {
            sqlx::query_as(&format!(
                "SELECT {LINK_COLUMNS} FROM application_links l \
                 WHERE l.recipient_email IS NOT NULL AND l.revoked_at IS NULL \
                   AND (l.expires_at IS NULL OR l.expires_at > $1) \
                   AND l.first_opened_at IS NOT NULL \
                   AND l.first_opened_at + l.follow_up_days * $2 <= $1 \
                   AND NOT EXISTS (SELECT 1 FROM contact_messages m WHERE m.link_id = l.id) \
                   AND NOT EXISTS (SELECT 1 FROM unmatched_mail u \
                                   WHERE u.from_address = LOWER(l.recipient_email) \
                                     AND u.created_at >= l.created_at) \
                   AND NOT EXISTS (SELECT 1 FROM message_replies r \
                                   WHERE r.direction = 'answer' \
                                     AND r.from_address = LOWER(l.recipient_email) \
                                     AND r.created_at >= l.created_at) \
                   AND NOT EXISTS (SELECT 1 FROM link_follow_ups f WHERE f.link_id = l.id \
                                     AND (f.state <> '{STATE_SNOOZED}' OR f.snoozed_until > $1)) \
                 ORDER BY l.first_opened_at, l.id"
            ))
            .bind(now)
            .bind(DAY_MS)
            .fetch_all(self.reader())
            .await
            .context("Failed to read the links due for a follow-up")
        }

        async fn follow_ups(&self) -> anyhow::Result<Vec<FollowUpRow>> {
            sqlx::query_as(&format!(
                "SELECT {FOLLOW_UP_COLUMNS} FROM link_follow_ups ORDER BY link_id"
            ))
            .fetch_all(self.reader())
            .await
            .context("Failed to read the follow-ups")
        }

        async fn send_follow_up(&self, new: &NewFollowUp<'_>) -> anyhow::Result<Option<i64>> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin storing a follow-up")?;
            // A snoozed follow-up may still be sent; a sent or dismissed one is left as it is.
            let id: Option<i64> = sqlx::query_scalar(&format!(
                "INSERT INTO link_follow_ups \
                 (link_id, state, mail_id, recipient, subject, body, created_at, updated_at) \
                 VALUES ($1, '{STATE_SENT}', $2, $3, $4, $5, $6, $6) \
                 ON CONFLICT (link_id) DO UPDATE SET state = excluded.state, \
                   snoozed_until = NULL, mail_id = excluded.mail_id, \
                   recipient = excluded.recipient, subject = excluded.subject, \
                   body = excluded.body, updated_at = excluded.updated_at \
                 WHERE link_follow_ups.state = '{STATE_SNOOZED}' \
                 RETURNING id"
            ))
            .bind(new.link_id)
            .bind(new.mail_id)
            .bind(new.recipient)
            .bind(new.subject)
            .bind(new.body)
            .bind(new.now)
            .fetch_optional(&mut *tx)
            .await
            .context("Failed to store a follow-up")?;
            let Some(id) = id else {
                return Ok(None);
            };
            sqlx::query(
                "INSERT INTO notification_outbox \
                 (channel, kind, follow_up_id, next_attempt_at, created_at) \
                 VALUES ($1, $2, $3, $4, $4)",
            )
            .bind(EMAIL_CHANNEL)
            .bind(KIND_FOLLOW_UP)
            .bind(id)
            .bind(new.queued_at)
            .execute(&mut *tx)
            .await
            .context("Failed to queue a follow-up")?;
            tx.commit().await.context("Failed to commit a follow-up")?;
            Ok(Some(id))
        }

        async fn set_follow_up(
            &self,
            link_id: i64,
            snoozed_until: Option<i64>,
            now: i64,
        ) -> anyhow::Result<bool> {
            let state = if snoozed_until.is_some() { STATE_SNOOZED } else { STATE_DISMISSED };
            let id: Option<i64> = sqlx::query_scalar(&format!(
                "INSERT INTO link_follow_ups \
                 (link_id, state, snoozed_until, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4, $4) \
                 ON CONFLICT (link_id) DO UPDATE SET state = excluded.state, \
                   snoozed_until = excluded.snoozed_until, updated_at = excluded.updated_at \
                 WHERE link_follow_ups.state = '{STATE_SNOOZED}' \
                 RETURNING id"
            ))
            .bind(link_id)
            .bind(state)
            .bind(snoozed_until)
            .bind(now)
            .fetch_optional(self.writer())
            .await
            .context("Failed to store a follow-up's state")?;
            Ok(id.is_some())
        }

        async fn deliveries_for_follow_ups(&self, ids: &[i64]) -> anyhow::Result<Vec<DeliveryRow>> {
            sqlx::query_as(&format!(
                "SELECT {DELIVERY_COLUMNS} FROM notification_outbox \
                 WHERE kind = '{KIND_FOLLOW_UP}' AND {} ORDER BY follow_up_id, id",
                in_list!("", "follow_up_id", "$1"),
            ))
            .bind(Self::list(ids))
            .fetch_all(self.reader())
            .await
            .context("Failed to read the follow-ups' deliveries")
        }
    }
}
