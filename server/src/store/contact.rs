//! Contact messages and the notification outbox: small named queries.

use anyhow::Context;

use super::Db;
use crate::domain::{ContactForm, FORM_NAME};

#[derive(Debug, Clone)]
pub struct NewMessage<'a> {
    pub form: &'a ContactForm,
    /// Why the submission was judged spam; `None` for a real message.
    pub spam_reason: Option<&'a str>,
    pub user_agent: Option<&'a str>,
    /// Unix milliseconds, UTC, from the server's clock.
    pub created_at: i64,
    /// Queue an owner notification (ignored for spam).
    pub notify: bool,
}

/// Stores a message and, when asked and unless it is spam, its notification in the outbox, in one transaction.
/// Returns the new message's id once the transaction is committed (and so on disk).
#[tracing::instrument(skip_all)]
pub async fn insert_message(db: &Db, new: &NewMessage<'_>) -> anyhow::Result<i64> {
    let mut tx = db
        .begin()
        .await
        .context("Failed to begin the contact transaction")?;
    let id: i64 = sqlx::query_scalar(
        "INSERT INTO contact_messages \
         (name, email, subject, message, form_name, created_at, is_spam, spam_reason, user_agent) \
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
    )
    .bind(new.form.name.as_str())
    .bind(new.form.email.as_str())
    .bind(new.form.subject.as_str())
    .bind(new.form.message.as_str())
    .bind(FORM_NAME)
    .bind(new.created_at)
    .bind(new.spam_reason.is_some())
    .bind(new.spam_reason)
    .bind(new.user_agent)
    .fetch_one(&mut *tx)
    .await
    .context("Failed to insert the contact message")?;
    if new.notify && new.spam_reason.is_none() {
        sqlx::query(
            "INSERT INTO notification_outbox (message_id, next_attempt_at, created_at) VALUES (?, ?, ?)",
        )
        .bind(id)
        .bind(new.created_at)
        .bind(new.created_at)
        .execute(&mut *tx)
        .await
        .context("Failed to queue the notification")?;
    }
    tx.commit()
        .await
        .context("Failed to commit the contact message")?;
    Ok(id)
}

/// A message as exported: the fields of the original product's document.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct ExportRow {
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub form_name: String,
    pub created_at: i64,
}

/// Every message that is neither spam nor deleted, oldest first.
#[tracing::instrument(skip_all)]
pub async fn messages_for_export(db: &Db) -> anyhow::Result<Vec<ExportRow>> {
    sqlx::query_as(
        "SELECT name, email, subject, message, form_name, created_at FROM contact_messages \
         WHERE is_spam = 0 AND deleted_at IS NULL ORDER BY created_at, id",
    )
    .fetch_all(db)
    .await
    .context("Failed to read the contact messages")
}

/// A notification waiting to be sent, with the message it tells about.
#[derive(Debug, Clone, sqlx::FromRow)]
pub struct PendingNotification {
    pub outbox_id: i64,
    pub attempts: i64,
    pub message_id: i64,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub created_at: i64,
}

/// Notifications due at `now` (Unix ms), oldest due first.
#[tracing::instrument(skip(db))]
pub async fn due_notifications(
    db: &Db,
    now: i64,
    limit: i64,
) -> anyhow::Result<Vec<PendingNotification>> {
    sqlx::query_as(
        "SELECT o.id AS outbox_id, o.attempts, m.id AS message_id, m.name, m.email, m.subject, \
                m.message, m.created_at \
         FROM notification_outbox o JOIN contact_messages m ON m.id = o.message_id \
         WHERE o.sent_at IS NULL AND o.next_attempt_at <= ? \
         ORDER BY o.next_attempt_at, o.id LIMIT ?",
    )
    .bind(now)
    .bind(limit)
    .fetch_all(db)
    .await
    .context("Failed to read the due notifications")
}

/// When the next unsent notification falls due (Unix ms), if any is waiting.
#[tracing::instrument(skip(db))]
pub async fn next_notification_due(db: &Db) -> anyhow::Result<Option<i64>> {
    sqlx::query_scalar("SELECT MIN(next_attempt_at) FROM notification_outbox WHERE sent_at IS NULL")
        .fetch_one(db)
        .await
        .context("Failed to read the outbox")
}

#[tracing::instrument(skip(db))]
pub async fn mark_notification_sent(db: &Db, outbox_id: i64, now: i64) -> anyhow::Result<()> {
    sqlx::query("UPDATE notification_outbox SET sent_at = ?, attempts = attempts + 1, last_error = NULL WHERE id = ?")
        .bind(now)
        .bind(outbox_id)
        .execute(db)
        .await
        .context("Failed to mark the notification sent")?;
    Ok(())
}

#[tracing::instrument(skip(db, error))]
pub async fn mark_notification_failed(
    db: &Db,
    outbox_id: i64,
    next_attempt_at: i64,
    error: &str,
) -> anyhow::Result<()> {
    sqlx::query(
        "UPDATE notification_outbox SET attempts = attempts + 1, next_attempt_at = ?, last_error = ? \
         WHERE id = ?",
    )
    .bind(next_attempt_at)
    .bind(error)
    .bind(outbox_id)
    .execute(db)
    .await
    .context("Failed to record the failed notification")?;
    Ok(())
}
