//! [`MediaStore`] on PostgreSQL.

use anyhow::Context;
use async_trait::async_trait;

use super::PgStore;
use crate::store::media::*;

#[async_trait]
impl MediaStore for PgStore {
    #[tracing::instrument(skip_all, fields(id = %item.id))]
    async fn insert_media(&self, item: &MediaRow, files: &[MediaFileRow]) -> anyhow::Result<bool> {
        let mut tx = self.pool.begin().await?;
        let inserted = sqlx::query(ITEM_INSERT)
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
            sqlx::query(FILE_INSERT)
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

    #[tracing::instrument(skip(self))]
    async fn media_items(&self) -> anyhow::Result<(Vec<MediaRow>, Vec<MediaSourceRow>)> {
        let mut tx = self.pool.begin().await?;
        let items = sqlx::query_as(ITEMS_SELECT)
            .fetch_all(&mut *tx)
            .await
            .context("Failed to list the uploads")?;
        let sources = sqlx::query_as(SOURCES_SELECT)
            .fetch_all(&mut *tx)
            .await
            .context("Failed to list the uploads' files")?;
        tx.commit().await?;
        Ok((items, sources))
    }

    #[tracing::instrument(skip(self))]
    async fn find_media(
        &self,
        id: &str,
    ) -> anyhow::Result<Option<(MediaRow, Vec<MediaSourceRow>)>> {
        let mut tx = self.pool.begin().await?;
        let Some(item) = sqlx::query_as(ITEM_SELECT)
            .bind(id)
            .fetch_optional(&mut *tx)
            .await
            .context("Failed to read an upload")?
        else {
            return Ok(None);
        };
        let sources = sqlx::query_as(ITEM_SOURCES_SELECT)
            .bind(id)
            .fetch_all(&mut *tx)
            .await
            .context("Failed to read an upload's files")?;
        tx.commit().await?;
        Ok(Some((item, sources)))
    }

    #[tracing::instrument(skip(self))]
    async fn delete_media(&self, id: &str) -> anyhow::Result<bool> {
        let mut tx = self.pool.begin().await?;
        sqlx::query(FILES_DELETE)
            .bind(id)
            .execute(&mut *tx)
            .await
            .context("Failed to delete an upload's files")?;
        let deleted = sqlx::query(ITEM_DELETE)
            .bind(id)
            .execute(&mut *tx)
            .await
            .context("Failed to delete an upload")?
            .rows_affected()
            > 0;
        tx.commit().await.context("Failed to commit a deletion")?;
        Ok(deleted)
    }

    #[tracing::instrument(skip(self))]
    async fn media_file(&self, path: &str) -> anyhow::Result<Option<ServedFile>> {
        sqlx::query_as(FILE_SELECT)
            .bind(path)
            .fetch_optional(&self.pool)
            .await
            .context("Failed to read an uploaded file")
    }

    #[tracing::instrument(skip(self))]
    async fn media_file_type(&self, path: &str) -> anyhow::Result<Option<String>> {
        sqlx::query_scalar(FILE_TYPE_SELECT)
            .bind(path)
            .fetch_optional(&self.pool)
            .await
            .context("Failed to read an uploaded file's type")
    }

    #[tracing::instrument(skip(self, data))]
    async fn save_resume(&self, data: &[u8], sha256: &str, now: i64) -> anyhow::Result<()> {
        sqlx::query(RESUME_UPSERT)
            .bind(data)
            .bind(sha256)
            .bind(now)
            .execute(&self.pool)
            .await
            .context("Failed to store the resume")?;
        Ok(())
    }

    async fn resume_sha256(&self) -> anyhow::Result<Option<String>> {
        sqlx::query_scalar(RESUME_SHA_SELECT)
            .fetch_optional(&self.pool)
            .await
            .context("Failed to read the resume's hash")
    }

    async fn resume(&self) -> anyhow::Result<Option<ResumeRow>> {
        sqlx::query_as(RESUME_SELECT)
            .fetch_optional(&self.pool)
            .await
            .context("Failed to read the resume")
    }
}
