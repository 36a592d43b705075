//! What the delivery of owner notifications needs from storage: the outbox, one row per message
//! and channel (`email`, or `webhook:<id>` for each `--webhook-url`), plus test e-mails; and what
//! the dashboard shows about it. Times are Unix milliseconds, UTC.

use anyhow::Context;
use async_trait::async_trait;

use crate::store::engines::{both_engines, in_list, Pools};

pub use super::model::{
    EMAIL_CHANNEL, KIND_ANSWER, KIND_CEILING, KIND_DIGEST, KIND_FOLLOW_UP, KIND_LINK, KIND_MESSAGE,
    KIND_NOTICE, KIND_REPLY, KIND_TEST,
};

row! {
    /// An outbox row due to be sent, with the message it tells about (none for a test e-mail).
    #[derive(Debug, Clone)]
    pub struct PendingDelivery {
        pub outbox_id: i64,
        pub channel: String,
        pub kind: String,
        /// Failed attempts so far.
        pub attempts: i64,
        pub message_id: Option<i64>,
        pub name: Option<String>,
        pub email: Option<String>,
        pub subject: Option<String>,
        pub message: Option<String>,
        pub message_created_at: Option<i64>,
        /// For the ceiling's notice: the messages the ceiling has held in Spam in its clock hour, so far.
        pub held: Option<i64>,
        /// For a link's alert: what happened (`open`, `resume`, `message`), when (the row's
        /// creation, Unix ms), and the link (its id, company, role and slug).
        pub link_id: Option<i64>,
        pub link_event: Option<String>,
        pub event_at: i64,
        pub link_company: Option<String>,
        pub link_role: Option<String>,
        pub link_slug: Option<String>,
        /// For a notice: its subject and text.
        pub notice_subject: Option<String>,
        pub notice_text: Option<String>,
        /// For a reply (to send to the visitor of `name` and `email`) or an answer (to tell the
        /// owner of): its row, Message-ID, threading headers, words (the text sent, for a
        /// reply), and an answer's subject and sender. A follow-up (to send to `email`, the
        /// link's recipient, under `subject`) gives its Message-ID and text in the same fields.
        pub reply_id: Option<i64>,
        pub reply_mail_id: Option<String>,
        pub reply_in_reply_to: Option<String>,
        pub reply_refs: Option<String>,
        pub reply_body: Option<String>,
        pub reply_sent_text: Option<String>,
        pub reply_subject: Option<String>,
        pub reply_from: Option<String>,
    }
}

/// The `held` column of [`PendingDelivery`], for the outbox row under `alias` (one text for both
/// engines: integer division and `COUNT` agree).
pub(crate) fn held_column(alias: &str) -> String {
    format!(
        "CASE WHEN {alias}.kind = '{KIND_CEILING}' THEN \
           (SELECT COUNT(*) FROM contact_messages h WHERE h.spam_reason = 'ceiling' \
              AND h.created_at >= ({alias}.created_at / 3600000) * 3600000 \
              AND h.created_at < ({alias}.created_at / 3600000 + 1) * 3600000) \
         END AS held"
    )
}

row! {
    /// One outbox row as the dashboard sees it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DeliveryRow {
        pub id: i64,
        pub message_id: Option<i64>,
        pub channel: String,
        pub kind: String,
        pub attempts: i64,
        pub next_attempt_at: i64,
        /// While an instance is sending it.
        pub leased_until: Option<i64>,
        pub last_error: Option<String>,
        pub sent_at: Option<i64>,
        pub gave_up_at: Option<i64>,
        pub created_at: i64,
        /// For a link's alert: the link and what happened.
        pub link_id: Option<i64>,
        pub link_event: Option<String>,
        /// For a notice: what it is about (`post/<id>`), its subject and its text.
        pub notice_entry: Option<String>,
        pub notice_subject: Option<String>,
        pub notice_text: Option<String>,
        /// For a reply or an answer: its row in the conversation.
        pub reply_id: Option<i64>,
        /// For a follow-up: its row (`link_follow_ups`).
        pub follow_up_id: Option<i64>,
    }
}

row! {
    /// The notifications about messages still waiting, on the channels this server sends to.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct DeliveryBacklog {
        pub pending: i64,
        /// Of those, the ones that failed at least once.
        pub failing: i64,
        /// When the oldest waiting one was queued.
        pub oldest_pending_at: Option<i64>,
        /// The most failed attempts of any waiting one.
        pub max_attempts: i64,
    }
}

/// What "Retry now" did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum RetryOutcome {
    /// It is due now.
    Scheduled,
    /// No such outbox row.
    Missing,
    /// Sent already, or given up (a test e-mail).
    Finished,
    /// An instance is sending it right now.
    InFlight,
}

#[async_trait]
pub trait DeliveryStore: Send + Sync + 'static {
    /// Takes up to `limit` rows due at `now` on `channels` for this sender alone, oldest due
    /// first: each is leased until `lease_until` (and pushed out of `due` until then), so no other
    /// instance sends it, and a sender that dies holding it leaves it to be taken over then.
    async fn claim_due_deliveries(
        &self,
        channels: &[String],
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<PendingDelivery>>;

    /// When the next row on `channels` falls due, if any is waiting.
    async fn next_delivery_due(&self, channels: &[String]) -> anyhow::Result<Option<i64>>;

    /// Records a success (attempts count it too) and ends the lease.
    async fn mark_delivery_sent(&self, outbox_id: i64, now: i64) -> anyhow::Result<()>;

    /// Records a failure and ends the lease: due again at `next_attempt_at`, or given up at
    /// `give_up_at` (test e-mails get one attempt).
    async fn mark_delivery_failed(
        &self,
        outbox_id: i64,
        next_attempt_at: i64,
        error: &str,
        give_up_at: Option<i64>,
    ) -> anyhow::Result<()>;

    /// Queues a test e-mail, due at once; returns its outbox id.
    async fn queue_test_email(&self, now: i64) -> anyhow::Result<i64>;

    /// Queues a notice about `entry` (`post/<id>`) on each of `channels`, due at `due`, in place
    /// of the ones about it not sent yet: one transaction.
    async fn queue_notice(
        &self,
        notice: &Notice<'_>,
        channels: &[String],
        now: i64,
    ) -> anyhow::Result<()>;

    /// Drops the notices about `entry` not sent yet (its schedule was cancelled or replaced);
    /// how many.
    async fn drop_notices(&self, entry: &str) -> anyhow::Result<u64>;

    async fn find_delivery(&self, outbox_id: i64) -> anyhow::Result<Option<DeliveryRow>>;

    /// The outbox rows of these messages, by message then id.
    async fn deliveries_for_messages(
        &self,
        message_ids: &[i64],
    ) -> anyhow::Result<Vec<DeliveryRow>>;

    /// Makes a waiting row due at `now`, unless it is being sent or is finished.
    async fn retry_delivery_now(&self, outbox_id: i64, now: i64) -> anyhow::Result<RetryOutcome>;

    /// The notifications about messages still waiting on `channels`.
    async fn delivery_backlog(&self, channels: &[String]) -> anyhow::Result<DeliveryBacklog>;

    /// The last error of the waiting row that failed most often on `channels`.
    async fn worst_delivery_error(&self, channels: &[String]) -> anyhow::Result<Option<String>>;
}

/// The columns of [`DeliveryRow`], in order.
pub const DELIVERY_COLUMNS: &str = "id, message_id, channel, kind, attempts, next_attempt_at, \
     leased_until, last_error, sent_at, gave_up_at, created_at, link_id, link_event, \
     notice_entry, notice_subject, notice_text, reply_id, follow_up_id";

/// A notice to queue (see [`DeliveryStore::queue_notice`]).
pub struct Notice<'a> {
    /// What it is about: `post/<id>`.
    pub entry: &'a str,
    pub subject: &'a str,
    pub text: &'a str,
    /// When it falls due (Unix ms).
    pub due: i64,
}

both_engines! {
    impl DeliveryStore {
        // One transaction: the due rows are leased (pushed out of `due` until the lease ends),
        // then read with their messages. The lease is written first, so on SQLite the
        // transaction holds the one write lock from its first statement; on PostgreSQL several
        // instances share the outbox, and `FOR UPDATE SKIP LOCKED` gives each row to one of them.
        async fn claim_due_deliveries(
            &self,
            channels: &[String],
            now: i64,
            lease_until: i64,
            limit: i64,
        ) -> anyhow::Result<Vec<PendingDelivery>> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin claiming notifications")?;
            let ids: Vec<i64> = sqlx::query_scalar(&format!(
                "UPDATE notification_outbox SET next_attempt_at = $1, leased_until = $1 \
                 WHERE id IN (SELECT id FROM notification_outbox \
                              WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= $2 \
                                AND {} ORDER BY next_attempt_at, id LIMIT $4{}) \
                 RETURNING id",
                in_list!("", "channel", "$3"),
                Self::dialect("", " FOR UPDATE SKIP LOCKED"),
            ))
            .bind(lease_until)
            .bind(now)
            .bind(Self::list(channels))
            .bind(limit)
            .fetch_all(&mut *tx)
            .await
            .context("Failed to lease the due notifications")?;
            let rows = sqlx::query_as(&format!(
                "SELECT o.id AS outbox_id, o.channel, o.kind, o.attempts, o.message_id, m.name, \
                        COALESCE(m.email, f.recipient) AS email, \
                        COALESCE(m.subject, f.subject) AS subject, m.message, \
                        m.created_at AS message_created_at, {}, \
                        o.link_id, o.link_event, o.created_at AS event_at, l.company AS link_company, \
                        l.role AS link_role, l.slug AS link_slug, o.notice_subject, o.notice_text, \
                        o.reply_id, COALESCE(r.mail_id, f.mail_id) AS reply_mail_id, \
                        r.in_reply_to AS reply_in_reply_to, r.refs AS reply_refs, \
                        r.body AS reply_body, COALESCE(r.sent_text, f.body) AS reply_sent_text, \
                        r.subject AS reply_subject, r.from_address AS reply_from \
                 FROM notification_outbox o LEFT JOIN message_replies r ON r.id = o.reply_id \
                 LEFT JOIN link_follow_ups f ON f.id = o.follow_up_id \
                 LEFT JOIN contact_messages m ON m.id = COALESCE(o.message_id, r.message_id) \
                 LEFT JOIN application_links l ON l.id = COALESCE(o.link_id, f.link_id) \
                 WHERE {} ORDER BY o.id",
                held_column("o"),
                in_list!("", "o.id", "$1"),
            ))
            .bind(Self::list(&ids))
            .fetch_all(&mut *tx)
            .await
            .context("Failed to read the due notifications")?;
            tx.commit()
                .await
                .context("Failed to commit the notification leases")?;
            Ok(rows)
        }

        async fn next_delivery_due(&self, channels: &[String]) -> anyhow::Result<Option<i64>> {
            sqlx::query_scalar(in_list!(
                "SELECT MIN(next_attempt_at) FROM notification_outbox \
                 WHERE sent_at IS NULL AND gave_up_at IS NULL AND ",
                "channel",
                "$1"
            ))
            .bind(Self::list(channels))
            .fetch_one(self.reader())
            .await
            .context("Failed to read the outbox")
        }

        async fn mark_delivery_sent(&self, outbox_id: i64, now: i64) -> anyhow::Result<()> {
            sqlx::query(
                "UPDATE notification_outbox SET sent_at = $1, attempts = attempts + 1, last_error = NULL, \
                 leased_until = NULL WHERE id = $2",
            )
            .bind(now)
            .bind(outbox_id)
            .execute(self.writer())
            .await
            .context("Failed to mark the notification sent")?;
            Ok(())
        }

        async fn mark_delivery_failed(
            &self,
            outbox_id: i64,
            next_attempt_at: i64,
            error: &str,
            give_up_at: Option<i64>,
        ) -> anyhow::Result<()> {
            sqlx::query(
                "UPDATE notification_outbox SET attempts = attempts + 1, next_attempt_at = $1, \
                 last_error = $2, gave_up_at = $3, leased_until = NULL WHERE id = $4",
            )
            .bind(next_attempt_at)
            .bind(error)
            .bind(give_up_at)
            .bind(outbox_id)
            .execute(self.writer())
            .await
            .context("Failed to record the failed notification")?;
            Ok(())
        }

        async fn queue_test_email(&self, now: i64) -> anyhow::Result<i64> {
            sqlx::query_scalar(
                "INSERT INTO notification_outbox (message_id, channel, kind, next_attempt_at, created_at) \
                 VALUES (NULL, $1, $2, $3, $3) RETURNING id",
            )
            .bind(EMAIL_CHANNEL)
            .bind(KIND_TEST)
            .bind(now)
            .fetch_one(self.writer())
            .await
            .context("Failed to queue the test e-mail")
        }

        async fn queue_notice(
            &self,
            notice: &Notice<'_>,
            channels: &[String],
            now: i64,
        ) -> anyhow::Result<()> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin queueing a notice")?;
            sqlx::query(
                "DELETE FROM notification_outbox \
                 WHERE notice_entry = $1 AND sent_at IS NULL AND gave_up_at IS NULL",
            )
            .bind(notice.entry)
            .execute(&mut *tx)
            .await
            .context("Failed to drop the notices a new one replaces")?;
            for channel in channels {
                sqlx::query(
                    "INSERT INTO notification_outbox \
                     (message_id, channel, kind, notice_entry, notice_subject, notice_text, \
                      next_attempt_at, created_at) \
                     VALUES (NULL, $1, $2, $3, $4, $5, $6, $7)",
                )
                .bind(channel)
                .bind(KIND_NOTICE)
                .bind(notice.entry)
                .bind(notice.subject)
                .bind(notice.text)
                .bind(notice.due)
                .bind(now)
                .execute(&mut *tx)
                .await
                .context("Failed to queue a notice")?;
            }
            tx.commit().await.context("Failed to commit a notice")
        }

        async fn drop_notices(&self, entry: &str) -> anyhow::Result<u64> {
            Ok(sqlx::query(
                "DELETE FROM notification_outbox \
                 WHERE notice_entry = $1 AND sent_at IS NULL AND gave_up_at IS NULL",
            )
            .bind(entry)
            .execute(self.writer())
            .await
            .context("Failed to drop notices")?
            .rows_affected())
        }

        async fn find_delivery(&self, outbox_id: i64) -> anyhow::Result<Option<DeliveryRow>> {
            sqlx::query_as(&format!(
                "SELECT {DELIVERY_COLUMNS} FROM notification_outbox WHERE id = $1"
            ))
            .bind(outbox_id)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read a notification")
        }

        async fn deliveries_for_messages(
            &self,
            message_ids: &[i64],
        ) -> anyhow::Result<Vec<DeliveryRow>> {
            let condition = in_list!("", "message_id", "$1");
            sqlx::query_as(&format!(
                "SELECT {DELIVERY_COLUMNS} FROM notification_outbox \
                 WHERE {condition} ORDER BY message_id, id"
            ))
            .bind(Self::list(message_ids))
            .fetch_all(self.reader())
            .await
            .context("Failed to read the messages' notifications")
        }

        async fn retry_delivery_now(&self, outbox_id: i64, now: i64) -> anyhow::Result<RetryOutcome> {
            let changed = sqlx::query(
                "UPDATE notification_outbox SET next_attempt_at = $1 \
                 WHERE id = $2 AND sent_at IS NULL AND gave_up_at IS NULL \
                   AND (leased_until IS NULL OR leased_until <= $1)",
            )
            .bind(now)
            .bind(outbox_id)
            .execute(self.writer())
            .await
            .context("Failed to make the notification due")?
            .rows_affected();
            if changed > 0 {
                return Ok(RetryOutcome::Scheduled);
            }
            Ok(match self.find_delivery(outbox_id).await? {
                None => RetryOutcome::Missing,
                Some(row) if row.sent_at.is_some() || row.gave_up_at.is_some() => {
                    RetryOutcome::Finished
                }
                Some(_) => RetryOutcome::InFlight,
            })
        }

        async fn delivery_backlog(&self, channels: &[String]) -> anyhow::Result<DeliveryBacklog> {
            sqlx::query_as(in_list!(
                "SELECT COUNT(*) AS pending, \
                        COUNT(*) FILTER (WHERE attempts > 0) AS failing, \
                        MIN(created_at) AS oldest_pending_at, \
                        COALESCE(MAX(attempts), 0) AS max_attempts \
                 FROM notification_outbox \
                 WHERE sent_at IS NULL AND gave_up_at IS NULL AND kind = 'message' AND ",
                "channel",
                "$1"
            ))
            .bind(Self::list(channels))
            .fetch_one(self.reader())
            .await
            .context("Failed to read the outbox backlog")
        }

        async fn worst_delivery_error(&self, channels: &[String]) -> anyhow::Result<Option<String>> {
            let error: Option<Option<String>> = sqlx::query_scalar(in_list!(
                "SELECT last_error FROM notification_outbox \
                 WHERE sent_at IS NULL AND gave_up_at IS NULL AND kind = 'message' \
                   AND last_error IS NOT NULL AND ",
                "channel",
                "$1",
                " ORDER BY attempts DESC, id LIMIT 1"
            ))
            .bind(Self::list(channels))
            .fetch_optional(self.reader())
            .await
            .context("Failed to read the outbox's last error")?;
            Ok(error.flatten())
        }
    }
}
