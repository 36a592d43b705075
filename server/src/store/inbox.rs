//! The owner's view of `contact_messages`: folders, search, keyset paging and state changes.

use anyhow::Context;
use sqlx::QueryBuilder;
use sqlx::Sqlite;

use super::Db;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folder {
    Inbox,
    Spam,
    Trash,
}

impl Folder {
    fn condition(self) -> &'static str {
        match self {
            Self::Inbox => "is_spam = 0 AND deleted_at IS NULL",
            Self::Spam => "is_spam = 1 AND deleted_at IS NULL",
            Self::Trash => "deleted_at IS NOT NULL",
        }
    }
}

#[derive(Debug, Clone, sqlx::FromRow)]
pub struct MessageRow {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub created_at: i64,
    pub is_read: bool,
    pub is_spam: bool,
    pub spam_reason: Option<String>,
    pub deleted_at: Option<i64>,
}

/// Where the previous page ended: the last message's time and id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub created_at: i64,
    pub id: i64,
}

const COLUMNS: &str =
    "id, name, email, subject, message, created_at, is_read, is_spam, spam_reason, deleted_at";

/// Escapes `%`, `_` and `\` so the search text matches literally.
fn like_pattern(search: &str) -> String {
    let mut pattern = String::with_capacity(search.len() + 2);
    pattern.push('%');
    for c in search.chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

/// One page of a folder, newest first; `limit + 1` rows are read so the caller knows whether
/// another page follows.
#[tracing::instrument(skip(db))]
pub async fn list(
    db: &Db,
    folder: Folder,
    search: Option<&str>,
    cursor: Option<Cursor>,
    limit: i64,
) -> anyhow::Result<Vec<MessageRow>> {
    let mut query: QueryBuilder<Sqlite> = QueryBuilder::new("SELECT ");
    query.push(COLUMNS);
    query.push(" FROM contact_messages WHERE ");
    query.push(folder.condition());
    if let Some(search) = search {
        let pattern = like_pattern(search);
        query.push(" AND (");
        for (i, column) in ["name", "email", "subject", "message"].iter().enumerate() {
            if i > 0 {
                query.push(" OR ");
            }
            query.push(*column);
            query.push(" LIKE ");
            query.push_bind(pattern.clone());
            query.push(" ESCAPE '\\'");
        }
        query.push(")");
    }
    if let Some(cursor) = cursor {
        query.push(" AND (created_at < ");
        query.push_bind(cursor.created_at);
        query.push(" OR (created_at = ");
        query.push_bind(cursor.created_at);
        query.push(" AND id < ");
        query.push_bind(cursor.id);
        query.push("))");
    }
    query.push(" ORDER BY created_at DESC, id DESC LIMIT ");
    query.push_bind(limit + 1);
    query
        .build_query_as()
        .fetch_all(db)
        .await
        .context("Failed to list contact messages")
}

/// Unread messages in the inbox folder.
#[tracing::instrument(skip(db))]
pub async fn unread_count(db: &Db) -> anyhow::Result<i64> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM contact_messages WHERE is_spam = 0 AND deleted_at IS NULL AND is_read = 0",
    )
    .fetch_one(db)
    .await
    .context("Failed to count unread messages")
}

#[tracing::instrument(skip(db))]
pub async fn find(db: &Db, id: i64) -> anyhow::Result<Option<MessageRow>> {
    sqlx::query_as(&format!(
        "SELECT {COLUMNS} FROM contact_messages WHERE id = ?"
    ))
    .bind(id)
    .fetch_optional(db)
    .await
    .context("Failed to read a contact message")
}

/// Changes what is given; returns whether the message exists.
#[tracing::instrument(skip(db))]
pub async fn update(
    db: &Db,
    id: i64,
    is_read: Option<bool>,
    is_spam: Option<bool>,
    deleted_at: Option<Option<i64>>,
) -> anyhow::Result<bool> {
    let mut query: QueryBuilder<Sqlite> = QueryBuilder::new("UPDATE contact_messages SET id = id");
    if let Some(is_read) = is_read {
        query.push(", is_read = ");
        query.push_bind(is_read);
    }
    if let Some(is_spam) = is_spam {
        query.push(", is_spam = ");
        query.push_bind(is_spam);
    }
    if let Some(deleted_at) = deleted_at {
        query.push(", deleted_at = ");
        query.push_bind(deleted_at);
    }
    query.push(" WHERE id = ");
    query.push_bind(id);
    let result = query
        .build()
        .execute(db)
        .await
        .context("Failed to update a contact message")?;
    Ok(result.rows_affected() == 1)
}

/// Deletes the message for good; returns whether it existed.
#[tracing::instrument(skip(db))]
pub async fn delete(db: &Db, id: i64) -> anyhow::Result<bool> {
    let result = sqlx::query("DELETE FROM contact_messages WHERE id = ?")
        .bind(id)
        .execute(db)
        .await
        .context("Failed to delete a contact message")?;
    Ok(result.rows_affected() == 1)
}

#[cfg(test)]
mod tests {
    use super::like_pattern;

    #[test]
    fn search_wildcards_match_literally() {
        assert_eq!(like_pattern("50%_a\\b"), "%50\\%\\_a\\\\b%");
    }
}
