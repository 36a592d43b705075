//! What the delivery of owner notifications needs from storage: the outbox, one row per message
//! and channel (`email`, or `webhook:<id>` for each `--webhook-url`), plus test e-mails; and what
//! the dashboard shows about it. Times are Unix milliseconds, UTC.

use async_trait::async_trait;

/// The channel of e-mail notifications.
pub const EMAIL_CHANNEL: &str = "email";
/// The kind of an outbox row that tells about a contact message...
pub const KIND_MESSAGE: &str = "message";
/// ...of a test e-mail asked for from the dashboard (one attempt, then given up)...
pub const KIND_TEST: &str = "test";
/// ...and of the notice that the site-wide ceiling held messages in Spam (one per clock hour).
pub const KIND_CEILING: &str = "ceiling";

/// An outbox row due to be sent, with the message it tells about (none for a test e-mail).
#[derive(Debug, Clone, sqlx::FromRow)]
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

/// One outbox row as the dashboard sees it.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
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
}

/// The notifications about messages still waiting, on the channels this server sends to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, sqlx::FromRow)]
pub struct DeliveryBacklog {
    pub pending: i64,
    /// Of those, the ones that failed at least once.
    pub failing: i64,
    /// When the oldest waiting one was queued.
    pub oldest_pending_at: Option<i64>,
    /// The most failed attempts of any waiting one.
    pub max_attempts: i64,
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
     leased_until, last_error, sent_at, gave_up_at, created_at";
