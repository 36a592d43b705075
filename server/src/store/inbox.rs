//! What the owner's inbox needs from storage: a folder's page of messages (with search), the
//! unread count, one message, its changes and deletion, and the export of every real message.

use anyhow::Context;
use async_trait::async_trait;
use sqlx::QueryBuilder;

use crate::store::engines::{both_engines, Pools};
use crate::store::model::{
    search_needle, Cursor, ExportRow, Folder, MessageChange, MessageRow, MESSAGE_COLUMNS,
};

#[async_trait]
pub trait InboxStore: Send + Sync + 'static {
    /// Every message that is neither spam nor deleted, oldest first.
    async fn messages_for_export(&self) -> anyhow::Result<Vec<ExportRow>>;

    /// One page of a folder, newest first; `limit + 1` rows are read so the caller knows whether
    /// another page follows. `search` matches any of name, e-mail, subject and message, ignoring
    /// case for every letter.
    async fn list_messages(
        &self,
        folder: Folder,
        search: Option<&str>,
        cursor: Option<Cursor>,
        limit: i64,
    ) -> anyhow::Result<Vec<MessageRow>>;

    /// Unread messages in the inbox folder.
    async fn unread_count(&self) -> anyhow::Result<i64>;

    async fn find_message(&self, id: i64) -> anyhow::Result<Option<MessageRow>>;

    /// Changes what is given; returns whether the message exists.
    async fn update_message(&self, id: i64, change: MessageChange) -> anyhow::Result<bool>;

    /// Deletes the message for good; returns whether it existed.
    async fn delete_message(&self, id: i64) -> anyhow::Result<bool>;
}

both_engines! {
    impl InboxStore {
        async fn messages_for_export(&self) -> anyhow::Result<Vec<ExportRow>> {
            sqlx::query_as(
                "SELECT name, email, subject, message, form_name, created_at, \
                        (SELECT l.company || ', ' || l.role FROM application_links l \
                         WHERE l.id = contact_messages.link_id) AS via \
                 FROM contact_messages \
                 WHERE is_spam = FALSE AND deleted_at IS NULL ORDER BY created_at, id",
            )
            .fetch_all(self.reader())
            .await
            .context("Failed to read the contact messages")
        }

        async fn list_messages(
            &self,
            folder: Folder,
            search: Option<&str>,
            cursor: Option<Cursor>,
            limit: i64,
        ) -> anyhow::Result<Vec<MessageRow>> {
            let mut query: QueryBuilder<<Self as Pools>::Db> = QueryBuilder::new("SELECT ");
            query.push(MESSAGE_COLUMNS);
            query.push(" FROM contact_messages WHERE ");
            query.push(folder.condition());
            if let Some(search) = search {
                query.push(Self::dialect(
                    " AND instr(search_text, ",
                    " AND strpos(search_text, ",
                ));
                query.push_bind(search_needle(search));
                query.push(") > 0");
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
                .fetch_all(self.reader())
                .await
                .context("Failed to list contact messages")
        }

        async fn unread_count(&self) -> anyhow::Result<i64> {
            sqlx::query_scalar(
                "SELECT COUNT(*) FROM contact_messages \
                 WHERE is_spam = FALSE AND deleted_at IS NULL AND is_read = FALSE",
            )
            .fetch_one(self.reader())
            .await
            .context("Failed to count unread messages")
        }

        async fn find_message(&self, id: i64) -> anyhow::Result<Option<MessageRow>> {
            sqlx::query_as(&format!(
                "SELECT {MESSAGE_COLUMNS} FROM contact_messages WHERE id = $1"
            ))
            .bind(id)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read a contact message")
        }

        async fn update_message(&self, id: i64, change: MessageChange) -> anyhow::Result<bool> {
            let mut query: QueryBuilder<<Self as Pools>::Db> =
                QueryBuilder::new("UPDATE contact_messages SET id = id");
            if let Some(is_read) = change.is_read {
                query.push(", is_read = ");
                query.push_bind(is_read);
            }
            if let Some(is_spam) = change.is_spam {
                query.push(", is_spam = ");
                query.push_bind(is_spam);
            }
            if let Some(deleted_at) = change.deleted_at {
                query.push(", deleted_at = ");
                query.push_bind(deleted_at);
            }
            query.push(" WHERE id = ");
            query.push_bind(id);
            let result = query
                .build()
                .execute(self.writer())
                .await
                .context("Failed to update a contact message")?;
            Ok(result.rows_affected() == 1)
        }

        async fn delete_message(&self, id: i64) -> anyhow::Result<bool> {
            let result = sqlx::query("DELETE FROM contact_messages WHERE id = $1")
                .bind(id)
                .execute(self.writer())
                .await
                .context("Failed to delete a contact message")?;
            Ok(result.rows_affected() == 1)
        }
    }
}
