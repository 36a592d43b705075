//! [`DeliveryStore`] on PostgreSQL. Several instances may share the outbox: rows are claimed with
//! `FOR UPDATE SKIP LOCKED` and leased, so each is sent by one of them.

use anyhow::Context;
use async_trait::async_trait;

use super::PgStore;
use crate::store::delivery::*;

#[async_trait]
impl DeliveryStore for PgStore {
    #[tracing::instrument(skip(self))]
    async fn claim_due_deliveries(
        &self,
        channels: &[String],
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<PendingDelivery>> {
        // SKIP LOCKED: rows another instance is taking right now are left to it.
        sqlx::query_as(&format!(
            "WITH claimed AS ( \
                 UPDATE notification_outbox SET next_attempt_at = $1, leased_until = $1 \
                 WHERE id IN (SELECT id FROM notification_outbox \
                              WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= $2 \
                                AND channel = ANY($3) \
                              ORDER BY next_attempt_at, id LIMIT $4 FOR UPDATE SKIP LOCKED) \
                 RETURNING id, channel, kind, attempts, message_id, created_at) \
             SELECT c.id AS outbox_id, c.channel, c.kind, c.attempts, c.message_id, m.name, \
                    m.email, m.subject, m.message, m.created_at AS message_created_at, {} \
             FROM claimed c LEFT JOIN contact_messages m ON m.id = c.message_id ORDER BY c.id",
            held_column("c")
        ))
        .bind(lease_until)
        .bind(now)
        .bind(channels)
        .bind(limit)
        .fetch_all(&self.pool)
        .await
        .context("Failed to lease the due notifications")
    }

    #[tracing::instrument(skip(self))]
    async fn next_delivery_due(&self, channels: &[String]) -> anyhow::Result<Option<i64>> {
        sqlx::query_scalar(
            "SELECT MIN(next_attempt_at) FROM notification_outbox \
             WHERE sent_at IS NULL AND gave_up_at IS NULL AND channel = ANY($1)",
        )
        .bind(channels)
        .fetch_one(&self.pool)
        .await
        .context("Failed to read the outbox")
    }

    #[tracing::instrument(skip(self))]
    async fn mark_delivery_sent(&self, outbox_id: i64, now: i64) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE notification_outbox SET sent_at = $1, attempts = attempts + 1, last_error = NULL, \
             leased_until = NULL WHERE id = $2",
        )
        .bind(now)
        .bind(outbox_id)
        .execute(&self.pool)
        .await
        .context("Failed to mark the notification sent")?;
        Ok(())
    }

    #[tracing::instrument(skip(self, error))]
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
        .execute(&self.pool)
        .await
        .context("Failed to record the failed notification")?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn queue_test_email(&self, now: i64) -> anyhow::Result<i64> {
        sqlx::query_scalar(
            "INSERT INTO notification_outbox (message_id, channel, kind, next_attempt_at, created_at) \
             VALUES (NULL, $1, $2, $3, $3) RETURNING id",
        )
        .bind(EMAIL_CHANNEL)
        .bind(KIND_TEST)
        .bind(now)
        .fetch_one(&self.pool)
        .await
        .context("Failed to queue the test e-mail")
    }

    #[tracing::instrument(skip(self))]
    async fn find_delivery(&self, outbox_id: i64) -> anyhow::Result<Option<DeliveryRow>> {
        sqlx::query_as(&format!(
            "SELECT {DELIVERY_COLUMNS} FROM notification_outbox WHERE id = $1"
        ))
        .bind(outbox_id)
        .fetch_optional(&self.pool)
        .await
        .context("Failed to read a notification")
    }

    #[tracing::instrument(skip_all)]
    async fn deliveries_for_messages(
        &self,
        message_ids: &[i64],
    ) -> anyhow::Result<Vec<DeliveryRow>> {
        sqlx::query_as(&format!(
            "SELECT {DELIVERY_COLUMNS} FROM notification_outbox \
             WHERE message_id = ANY($1) ORDER BY message_id, id"
        ))
        .bind(message_ids)
        .fetch_all(&self.pool)
        .await
        .context("Failed to read the messages' notifications")
    }

    #[tracing::instrument(skip(self))]
    async fn retry_delivery_now(&self, outbox_id: i64, now: i64) -> anyhow::Result<RetryOutcome> {
        let changed = sqlx::query(
            "UPDATE notification_outbox SET next_attempt_at = $1 \
             WHERE id = $2 AND sent_at IS NULL AND gave_up_at IS NULL \
               AND (leased_until IS NULL OR leased_until <= $1)",
        )
        .bind(now)
        .bind(outbox_id)
        .execute(&self.pool)
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

    #[tracing::instrument(skip(self))]
    async fn delivery_backlog(&self, channels: &[String]) -> anyhow::Result<DeliveryBacklog> {
        sqlx::query_as(
            "SELECT COUNT(*) AS pending, \
                    COUNT(*) FILTER (WHERE attempts > 0) AS failing, \
                    MIN(created_at) AS oldest_pending_at, \
                    COALESCE(MAX(attempts), 0) AS max_attempts \
             FROM notification_outbox \
             WHERE sent_at IS NULL AND gave_up_at IS NULL AND kind = 'message' \
               AND channel = ANY($1)",
        )
        .bind(channels)
        .fetch_one(&self.pool)
        .await
        .context("Failed to read the outbox backlog")
    }

    #[tracing::instrument(skip(self))]
    async fn worst_delivery_error(&self, channels: &[String]) -> anyhow::Result<Option<String>> {
        let error: Option<Option<String>> = sqlx::query_scalar(
            "SELECT last_error FROM notification_outbox \
             WHERE sent_at IS NULL AND gave_up_at IS NULL AND kind = 'message' \
               AND last_error IS NOT NULL AND channel = ANY($1) \
             ORDER BY attempts DESC, id LIMIT 1",
        )
        .bind(channels)
        .fetch_optional(&self.pool)
        .await
        .context("Failed to read the outbox's last error")?;
        Ok(error.flatten())
    }
}
