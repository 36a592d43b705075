//! Sessions (stored by the hash of their token), the sign-in throttle's counters and the
//! server's own secrets.

use anyhow::Context;

use super::Db;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct SessionRow {
    pub owner_id: i64,
    pub email: String,
    pub last_seen_at: i64,
    pub absolute_expires_at: i64,
}

#[tracing::instrument(skip(db, token_hash))]
pub async fn insert(
    db: &Db,
    token_hash: &str,
    owner_id: i64,
    now: i64,
    idle_expires_at: i64,
    absolute_expires_at: i64,
) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO sessions (token_hash, owner_id, created_at, last_seen_at, idle_expires_at, absolute_expires_at)
         VALUES (?, ?, ?, ?, ?, ?)",
    )
    .bind(token_hash)
    .bind(owner_id)
    .bind(now)
    .bind(now)
    .bind(idle_expires_at)
    .bind(absolute_expires_at)
    .execute(db)
    .await
    .context("Failed to store a session")?;
    Ok(())
}

/// The session with this token hash, with its owner, if it has expired in neither way.
#[tracing::instrument(skip(db, token_hash))]
pub async fn find_valid(db: &Db, token_hash: &str, now: i64) -> anyhow::Result<Option<SessionRow>> {
    sqlx::query_as(
        "SELECT s.owner_id, o.email, s.last_seen_at, s.absolute_expires_at
         FROM sessions s JOIN owner o ON o.id = s.owner_id
         WHERE s.token_hash = ? AND s.idle_expires_at > ? AND s.absolute_expires_at > ?",
    )
    .bind(token_hash)
    .bind(now)
    .bind(now)
    .fetch_optional(db)
    .await
    .context("Failed to look up a session")
}

/// Pushes the idle expiry forward (never past the absolute one).
#[tracing::instrument(skip(db, token_hash))]
pub async fn touch(
    db: &Db,
    token_hash: &str,
    now: i64,
    idle_expires_at: i64,
) -> anyhow::Result<()> {
    sqlx::query(
        "UPDATE sessions SET last_seen_at = ?, idle_expires_at = min(?, absolute_expires_at)
         WHERE token_hash = ?",
    )
    .bind(now)
    .bind(idle_expires_at)
    .bind(token_hash)
    .execute(db)
    .await
    .context("Failed to renew a session")?;
    Ok(())
}

#[tracing::instrument(skip(db, token_hash))]
pub async fn delete(db: &Db, token_hash: &str) -> anyhow::Result<()> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = ?")
        .bind(token_hash)
        .execute(db)
        .await
        .context("Failed to delete a session")?;
    Ok(())
}

/// Deletes every session of the owner but `keep` (when given).
#[tracing::instrument(skip(db, keep))]
pub async fn delete_all_for_owner(
    db: &Db,
    owner_id: i64,
    keep: Option<&str>,
) -> anyhow::Result<u64> {
    let result = sqlx::query("DELETE FROM sessions WHERE owner_id = ? AND token_hash IS NOT ?")
        .bind(owner_id)
        .bind(keep)
        .execute(db)
        .await
        .context("Failed to delete the owner's sessions")?;
    Ok(result.rows_affected())
}

#[tracing::instrument(skip(db))]
pub async fn delete_expired(db: &Db, now: i64) -> anyhow::Result<()> {
    sqlx::query("DELETE FROM sessions WHERE idle_expires_at <= ? OR absolute_expires_at <= ?")
        .bind(now)
        .bind(now)
        .execute(db)
        .await
        .context("Failed to delete expired sessions")?;
    Ok(())
}

#[derive(Debug, Clone, Copy, sqlx::FromRow)]
pub struct FailureRow {
    pub failures: i64,
    pub last_failure_at: i64,
    pub locked_until: i64,
}

#[tracing::instrument(skip(db))]
pub async fn failures(db: &Db, key: &str) -> anyhow::Result<Option<FailureRow>> {
    sqlx::query_as(
        "SELECT failures, last_failure_at, locked_until FROM sign_in_failures WHERE key = ?",
    )
    .bind(key)
    .fetch_optional(db)
    .await
    .context("Failed to read the sign-in failures")
}

#[tracing::instrument(skip(db))]
pub async fn save_failures(db: &Db, key: &str, row: FailureRow) -> anyhow::Result<()> {
    sqlx::query(
        "INSERT INTO sign_in_failures (key, failures, last_failure_at, locked_until) VALUES (?, ?, ?, ?)
         ON CONFLICT (key) DO UPDATE SET failures = excluded.failures,
             last_failure_at = excluded.last_failure_at, locked_until = excluded.locked_until",
    )
    .bind(key)
    .bind(row.failures)
    .bind(row.last_failure_at)
    .bind(row.locked_until)
    .execute(db)
    .await
    .context("Failed to record a sign-in failure")?;
    Ok(())
}

#[tracing::instrument(skip(db))]
pub async fn clear_failures(db: &Db, keys: &[&str]) -> anyhow::Result<()> {
    for key in keys {
        sqlx::query("DELETE FROM sign_in_failures WHERE key = ?")
            .bind(key)
            .execute(db)
            .await
            .context("Failed to clear sign-in failures")?;
    }
    Ok(())
}

#[tracing::instrument(skip(db))]
pub async fn clear_all_failures(db: &Db) -> anyhow::Result<()> {
    sqlx::query("DELETE FROM sign_in_failures")
        .execute(db)
        .await
        .context("Failed to clear sign-in failures")?;
    Ok(())
}

/// The named secret, made from 32 random bytes the first time any instance asks for it.
#[tracing::instrument(skip(db))]
pub async fn secret(db: &Db, name: &str) -> anyhow::Result<Vec<u8>> {
    sqlx::query("INSERT INTO auth_secrets (name, value) VALUES (?, randomblob(32)) ON CONFLICT (name) DO NOTHING")
        .bind(name)
        .execute(db)
        .await
        .context("Failed to create a server secret")?;
    sqlx::query_scalar("SELECT value FROM auth_secrets WHERE name = ?")
        .bind(name)
        .fetch_one(db)
        .await
        .context("Failed to read a server secret")
}
