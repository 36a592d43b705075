//! [`DeliveryStore`] on SQLite. A list of channels or ids is bound as one JSON array and read
//! back with `json_each`, so every query is one prepared statement.

use anyhow::Context;
use async_trait::async_trait;

use super::SqliteStore;
use crate::store::delivery::*;

fn json_list<T: serde::Serialize>(items: &[T]) -> String {
    serde_json::to_string(items).unwrap_or_else(|_| "[]".to_owned())
}

#[async_trait]
impl DeliveryStore for SqliteStore {
    #[tracing::instrument(skip(self))]
    async fn claim_due_deliveries(
        &self,
        channels: &[String],
        now: i64,
        lease_until: i64,
        limit: i64,
    ) -> anyhow::Result<Vec<PendingDelivery>> {
        // The lease is written first, so the transaction holds SQLite's one write lock from its
        // first statement (a read that later writes could meet another writer's lock).
        let mut tx = self
            .writer
            .begin()
            .await
            .context("Failed to begin claiming notifications")?;
        let ids: Vec<i64> = sqlx::query_scalar(
            "UPDATE notification_outbox SET next_attempt_at = ?1, leased_until = ?1 \
             WHERE id IN (SELECT id FROM notification_outbox \
                          WHERE sent_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= ?2 \
                            AND channel IN (SELECT value FROM json_each(?3)) \
                          ORDER BY next_attempt_at, id LIMIT ?4) \
             RETURNING id",
        )
        .bind(lease_until)
        .bind(now)
        .bind(json_list(channels))
        .bind(limit)
        .fetch_all(&mut *tx)
        .await
        .context("Failed to lease the due notifications")?;
        let mut rows = Vec::with_capacity(ids.len());
        for id in ids {
            let row: PendingDelivery = sqlx::query_as(&format!(
                "SELECT o.id AS outbox_id, o.channel, o.kind, o.attempts, o.message_id, m.name, \
                        m.email, m.subject, m.message, m.created_at AS message_created_at, {} \
                 FROM notification_outbox o LEFT JOIN contact_messages m ON m.id = o.message_id \
                 WHERE o.id = ?",
                held_column("o")
            ))
            .bind(id)
            .fetch_one(&mut *tx)
            .await
            .context("Failed to read a due notification")?;
            rows.push(row);
        }
        rows.sort_by_key(|row| row.outbox_id);
        tx.commit()
            .await
            .context("Failed to commit the notification leases")?;
        Ok(rows)
    }

    #[tracing::instrument(skip(self))]
    async fn next_delivery_due(&self, channels: &[String]) -> anyhow::Result<Option<i64>> {
        sqlx::query_scalar(
            "SELECT MIN(next_attempt_at) FROM notification_outbox \
             WHERE sent_at IS NULL AND gave_up_at IS NULL \
               AND channel IN (SELECT value FROM json_each(?))",
        )
        .bind(json_list(channels))
        .fetch_one(&self.pool)
        .await
        .context("Failed to read the outbox")
    }

    #[tracing::instrument(skip(self))]
    async fn mark_delivery_sent(&self, outbox_id: i64, now: i64) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE notification_outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL, \
             leased_until = NULL WHERE id = ?",
        )
        .bind(now)
        .bind(outbox_id)
        .execute(&self.writer)
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
            "UPDATE notification_outbox SET attempts = attempts + 1, next_attempt_at = ?, \
             last_error = ?, gave_up_at = ?, leased_until = NULL WHERE id = ?",
        )
        .bind(next_attempt_at)
        .bind(error)
        .bind(give_up_at)
        .bind(outbox_id)
        .execute(&self.writer)
        .await
        .context("Failed to record the failed notification")?;
        Ok(())
    }

    #[tracing::instrument(skip(self))]
    async fn queue_test_email(&self, now: i64) -> anyhow::Result<i64> {
        sqlx::query_scalar(
            "INSERT INTO notification_outbox (message_id, channel, kind, next_attempt_at, created_at) \
             VALUES (NULL, ?, ?, ?, ?) RETURNING id",
        )
        .bind(EMAIL_CHANNEL)
        .bind(KIND_TEST)
        .bind(now)
        .bind(now)
        .fetch_one(&self.writer)
        .await
        .context("Failed to queue the test e-mail")
    }

    #[tracing::instrument(skip(self))]
    async fn find_delivery(&self, outbox_id: i64) -> anyhow::Result<Option<DeliveryRow>> {
        sqlx::query_as(&format!(
            "SELECT {DELIVERY_COLUMNS} FROM notification_outbox WHERE id = ?"
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
             WHERE message_id IN (SELECT value FROM json_each(?)) ORDER BY message_id, id"
        ))
        .bind(json_list(message_ids))
        .fetch_all(&self.pool)
        .await
        .context("Failed to read the messages' notifications")
    }

    #[tracing::instrument(skip(self))]
    async fn retry_delivery_now(&self, outbox_id: i64, now: i64) -> anyhow::Result<RetryOutcome> {
        let changed = sqlx::query(
            "UPDATE notification_outbox SET next_attempt_at = ?1 \
             WHERE id = ?2 AND sent_at IS NULL AND gave_up_at IS NULL \
               AND (leased_until IS NULL OR leased_until <= ?1)",
        )
        .bind(now)
        .bind(outbox_id)
        .execute(&self.writer)
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
                    COALESCE(SUM(CASE WHEN attempts > 0 THEN 1 ELSE 0 END), 0) AS failing, \
                    MIN(created_at) AS oldest_pending_at, \
                    COALESCE(MAX(attempts), 0) AS max_attempts \
             FROM notification_outbox \
             WHERE sent_at IS NULL AND gave_up_at IS NULL AND kind = 'message' \
               AND channel IN (SELECT value FROM json_each(?))",
        )
        .bind(json_list(channels))
        .fetch_one(&self.pool)
        .await
        .context("Failed to read the outbox backlog")
    }

    #[tracing::instrument(skip(self))]
    async fn worst_delivery_error(&self, channels: &[String]) -> anyhow::Result<Option<String>> {
        let error: Option<Option<String>> = sqlx::query_scalar(
            "SELECT last_error FROM notification_outbox \
             WHERE sent_at IS NULL AND gave_up_at IS NULL AND kind = 'message' \
               AND last_error IS NOT NULL AND channel IN (SELECT value FROM json_each(?)) \
             ORDER BY attempts DESC, id LIMIT 1",
        )
        .bind(json_list(channels))
        .fetch_optional(&self.pool)
        .await
        .context("Failed to read the outbox's last error")?;
        Ok(error.flatten())
    }
}
