//! The owner account: one row, found by e-mail (case-insensitively) or by id.

use anyhow::Context;

use super::Db;

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct OwnerRow {
    pub id: i64,
    pub email: String,
    pub password_hash: String,
}

#[tracing::instrument(skip(db))]
pub async fn exists(db: &Db) -> anyhow::Result<bool> {
    let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM owner")
        .fetch_one(db)
        .await
        .context("Failed to count owners")?;
    Ok(count > 0)
}

#[tracing::instrument(skip(db))]
pub async fn find_by_email(db: &Db, email: &str) -> anyhow::Result<Option<OwnerRow>> {
    sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE lower(email) = lower(?)")
        .bind(email)
        .fetch_optional(db)
        .await
        .context("Failed to look up the owner by e-mail")
}

#[tracing::instrument(skip(db))]
pub async fn find_by_id(db: &Db, id: i64) -> anyhow::Result<Option<OwnerRow>> {
    sqlx::query_as("SELECT id, email, password_hash FROM owner WHERE id = ?")
        .bind(id)
        .fetch_optional(db)
        .await
        .context("Failed to look up the owner")
}

/// Creates the owner, or replaces the owner's e-mail and password. Returns the owner's id.
#[tracing::instrument(skip(db, password_hash))]
pub async fn upsert(db: &Db, email: &str, password_hash: &str, now: i64) -> anyhow::Result<i64> {
    sqlx::query(
        "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (1, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET email = excluded.email,
             password_hash = excluded.password_hash, updated_at = excluded.updated_at",
    )
    .bind(email)
    .bind(password_hash)
    .bind(now)
    .bind(now)
    .execute(db)
    .await
    .context("Failed to save the owner")?;
    Ok(1)
}

/// Creates the owner only when there is none; true when it did.
#[tracing::instrument(skip(db, password_hash))]
pub async fn insert_if_none(
    db: &Db,
    email: &str,
    password_hash: &str,
    now: i64,
) -> anyhow::Result<bool> {
    let result = sqlx::query(
        "INSERT INTO owner (id, email, password_hash, created_at, updated_at) VALUES (1, ?, ?, ?, ?)
         ON CONFLICT (id) DO NOTHING",
    )
    .bind(email)
    .bind(password_hash)
    .bind(now)
    .bind(now)
    .execute(db)
    .await
    .context("Failed to create the owner")?;
    Ok(result.rows_affected() == 1)
}

#[tracing::instrument(skip(db, password_hash))]
pub async fn set_password(db: &Db, id: i64, password_hash: &str, now: i64) -> anyhow::Result<()> {
    sqlx::query("UPDATE owner SET password_hash = ?, updated_at = ? WHERE id = ?")
        .bind(password_hash)
        .bind(now)
        .bind(id)
        .execute(db)
        .await
        .context("Failed to change the owner's password")?;
    Ok(())
}
