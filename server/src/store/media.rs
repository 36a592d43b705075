//! What uploads need from storage: the owner's images (each with the files made from it, stored
//! as bytes in the database so that every instance on it serves them) and the uploaded resume.

use anyhow::Context;
use async_trait::async_trait;

use crate::store::engines::{both_engines, Pools};

row! {
    /// An uploaded image, as the media list shows it.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct MediaRow {
        /// 12 hex digits of the SHA-256 of the uploaded bytes.
        pub id: String,
        /// `image` or `svg`.
        pub kind: String,
        /// The name the file had on the owner's computer (shown, never used to serve it).
        pub name: String,
        /// The widest file's size in pixels.
        pub width: i64,
        pub height: i64,
        /// The widest file's size in bytes.
        pub bytes: i64,
        pub created_at: i64,
    }
}

row! {
    /// One file made from an upload: `path` is its name under `/media/`.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct MediaFileRow {
        pub path: String,
        pub media_id: String,
        pub content_type: String,
        pub width: i64,
        pub data: Vec<u8>,
    }
}

row! {
    /// A file's place in the list, without its bytes.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct MediaSourceRow {
        pub media_id: String,
        pub path: String,
        pub width: i64,
    }
}

row! {
    /// A file as it is served.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct ServedFile {
        pub content_type: String,
        pub data: Vec<u8>,
    }
}

row! {
    /// The uploaded resume (one at most).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct ResumeRow {
        pub data: Vec<u8>,
        /// Hex SHA-256 of `data`: its ETag.
        pub sha256: String,
        pub uploaded_at: i64,
    }
}

#[async_trait]
pub trait MediaStore {
    /// Stores the item and its files in one transaction. False (and nothing written) when an
    /// item with this id is there already: the same bytes were uploaded before.
    async fn insert_media(&self, item: &MediaRow, files: &[MediaFileRow]) -> anyhow::Result<bool>;

    /// Every item, newest first, and every item's files (widths and paths), narrowest first.
    async fn media_items(&self) -> anyhow::Result<(Vec<MediaRow>, Vec<MediaSourceRow>)>;

    /// One item and its files' widths and paths, narrowest first.
    async fn find_media(&self, id: &str)
        -> anyhow::Result<Option<(MediaRow, Vec<MediaSourceRow>)>>;

    /// Deletes the item and its files; whether it existed.
    async fn delete_media(&self, id: &str) -> anyhow::Result<bool>;

    /// The file served at `/media/{path}`.
    async fn media_file(&self, path: &str) -> anyhow::Result<Option<ServedFile>>;

    /// The Content-Type of the file at `/media/{path}`, when there is one (cheap: no bytes read).
    async fn media_file_type(&self, path: &str) -> anyhow::Result<Option<String>>;

    /// Replaces the uploaded resume.
    async fn save_resume(&self, data: &[u8], sha256: &str, now: i64) -> anyhow::Result<()>;

    /// The uploaded resume's hash, when there is one (cheap: no bytes read).
    async fn resume_sha256(&self) -> anyhow::Result<Option<String>>;

    /// The uploaded resume, when there is one.
    async fn resume(&self) -> anyhow::Result<Option<ResumeRow>>;
}

/// Sorts the sources [`MediaStore::media_items`] reads to the items they belong to.
pub fn sources_of<'a>(
    item: &MediaRow,
    sources: &'a [MediaSourceRow],
) -> impl Iterator<Item = &'a MediaSourceRow> {
    let id = item.id.clone();
    sources.iter().filter(move |s| s.media_id == id)
}

both_engines! {
    impl MediaStore {
        async fn insert_media(&self, item: &MediaRow, files: &[MediaFileRow]) -> anyhow::Result<bool> {
            let mut tx = self.writer().begin().await?;
            let inserted = sqlx::query(
                "INSERT INTO media_items (id, kind, name, width, height, bytes, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING",
            )
                .bind(&item.id)
                .bind(&item.kind)
                .bind(&item.name)
                .bind(item.width)
                .bind(item.height)
                .bind(item.bytes)
                .bind(item.created_at)
                .execute(&mut *tx)
                .await
                .context("Failed to store an upload")?
                .rows_affected()
                == 1;
            if !inserted {
                return Ok(false);
            }
            for file in files {
                sqlx::query(
                    "INSERT INTO media_files (path, media_id, content_type, width, data) \
                     VALUES ($1, $2, $3, $4, $5)",
                )
                    .bind(&file.path)
                    .bind(&file.media_id)
                    .bind(&file.content_type)
                    .bind(file.width)
                    .bind(&file.data)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to store an upload's file")?;
            }
            tx.commit().await.context("Failed to commit an upload")?;
            Ok(true)
        }

        async fn media_items(&self) -> anyhow::Result<(Vec<MediaRow>, Vec<MediaSourceRow>)> {
            let mut tx = self.reader().begin().await?;
            let items = sqlx::query_as(
                "SELECT id, kind, name, width, height, bytes, created_at FROM media_items \
                 ORDER BY created_at DESC, id",
            )
                .fetch_all(&mut *tx)
                .await
                .context("Failed to list the uploads")?;
            let sources = sqlx::query_as(
                "SELECT media_id, path, width FROM media_files ORDER BY media_id, width, path",
            )
                .fetch_all(&mut *tx)
                .await
                .context("Failed to list the uploads' files")?;
            tx.commit().await?;
            Ok((items, sources))
        }

        async fn find_media(
            &self,
            id: &str,
        ) -> anyhow::Result<Option<(MediaRow, Vec<MediaSourceRow>)>> {
            let mut tx = self.reader().begin().await?;
            let Some(item) = sqlx::query_as(
                "SELECT id, kind, name, width, height, bytes, created_at FROM media_items WHERE id = $1",
            )
                .bind(id)
                .fetch_optional(&mut *tx)
                .await
                .context("Failed to read an upload")?
            else {
                return Ok(None);
            };
            let sources = sqlx::query_as(
                "SELECT media_id, path, width FROM media_files WHERE media_id = $1 ORDER BY width, path",
            )
                .bind(id)
                .fetch_all(&mut *tx)
                .await
                .context("Failed to read an upload's files")?;
            tx.commit().await?;
            Ok(Some((item, sources)))
        }

        async fn delete_media(&self, id: &str) -> anyhow::Result<bool> {
            let mut tx = self.writer().begin().await?;
            sqlx::query("DELETE FROM media_files WHERE media_id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await
                .context("Failed to delete an upload's files")?;
            let deleted = sqlx::query("DELETE FROM media_items WHERE id = $1")
                .bind(id)
                .execute(&mut *tx)
                .await
                .context("Failed to delete an upload")?
                .rows_affected()
                > 0;
            tx.commit().await.context("Failed to commit a deletion")?;
            Ok(deleted)
        }

        async fn media_file(&self, path: &str) -> anyhow::Result<Option<ServedFile>> {
            sqlx::query_as("SELECT content_type, data FROM media_files WHERE path = $1")
                .bind(path)
                .fetch_optional(self.reader())
                .await
                .context("Failed to read an uploaded file")
        }

        async fn media_file_type(&self, path: &str) -> anyhow::Result<Option<String>> {
            sqlx::query_scalar("SELECT content_type FROM media_files WHERE path = $1")
                .bind(path)
                .fetch_optional(self.reader())
                .await
                .context("Failed to read an uploaded file's type")
        }

        async fn save_resume(&self, data: &[u8], sha256: &str, now: i64) -> anyhow::Result<()> {
            sqlx::query(
                "INSERT INTO media_resume (id, data, sha256, uploaded_at) VALUES (1, $1, $2, $3) \
                 ON CONFLICT (id) DO UPDATE SET data = excluded.data, sha256 = excluded.sha256, \
                 uploaded_at = excluded.uploaded_at",
            )
                .bind(data)
                .bind(sha256)
                .bind(now)
                .execute(self.writer())
                .await
                .context("Failed to store the resume")?;
            Ok(())
        }

        async fn resume_sha256(&self) -> anyhow::Result<Option<String>> {
            sqlx::query_scalar("SELECT sha256 FROM media_resume WHERE id = 1")
                .fetch_optional(self.reader())
                .await
                .context("Failed to read the resume's hash")
        }

        async fn resume(&self) -> anyhow::Result<Option<ResumeRow>> {
            sqlx::query_as("SELECT data, sha256, uploaded_at FROM media_resume WHERE id = 1")
                .fetch_optional(self.reader())
                .await
                .context("Failed to read the resume")
        }
    }
}
