//! [`ContentStore`] on SQLite: every write through the one writer connection.

use anyhow::Context;
use async_trait::async_trait;

use super::SqliteStore;
use crate::store::content::{ContentStore, DraftRow, VersionRow, VersionSummary};

#[async_trait]
impl ContentStore for SqliteStore {
    #[tracing::instrument(skip(self))]
    async fn content_draft(&self) -> anyhow::Result<Option<DraftRow>> {
        sqlx::query_as("SELECT document, revision, updated_at FROM content_draft WHERE id = 1")
            .fetch_optional(&self.pool)
            .await
            .context("Failed to read the content draft")
    }

    #[tracing::instrument(skip(self, document))]
    async fn save_content_draft(
        &self,
        document: &str,
        expected: i64,
        now: i64,
    ) -> anyhow::Result<Option<i64>> {
        let query = if expected == 0 {
            sqlx::query_scalar(
                "INSERT INTO content_draft (id, document, revision, updated_at) VALUES (1, ?1, 1, ?2) \
                 ON CONFLICT (id) DO NOTHING RETURNING revision",
            )
            .bind(document)
            .bind(now)
        } else {
            sqlx::query_scalar(
                "UPDATE content_draft SET document = ?1, revision = revision + 1, updated_at = ?2 \
                 WHERE id = 1 AND revision = ?3 RETURNING revision",
            )
            .bind(document)
            .bind(now)
            .bind(expected)
        };
        query
            .fetch_optional(&self.writer)
            .await
            .context("Failed to save the content draft")
    }

    #[tracing::instrument(skip(self, document))]
    async fn publish_content(
        &self,
        document: &str,
        now: i64,
        keep: i64,
        as_draft: bool,
    ) -> anyhow::Result<VersionRow> {
        let mut tx = self.writer.begin().await?;
        let row: VersionRow = sqlx::query_as(
            "INSERT INTO content_versions (version, document, published_at) \
             SELECT COALESCE(MAX(version), 0) + 1, ?, ? FROM content_versions \
             RETURNING version, document, published_at",
        )
        .bind(document)
        .bind(now)
        .fetch_one(&mut *tx)
        .await
        .context("Failed to publish the content")?;
        sqlx::query("DELETE FROM content_versions WHERE version <= ?")
            .bind(row.version - keep)
            .execute(&mut *tx)
            .await
            .context("Failed to delete old content versions")?;
        if as_draft {
            sqlx::query(
                "INSERT INTO content_draft (id, document, revision, updated_at) VALUES (1, ?1, 1, ?2) \
                 ON CONFLICT (id) DO UPDATE SET document = ?1, revision = content_draft.revision + 1, \
                 updated_at = ?2",
            )
            .bind(document)
            .bind(now)
            .execute(&mut *tx)
            .await
            .context("Failed to replace the content draft")?;
        }
        tx.commit().await.context("Failed to commit a publish")?;
        Ok(row)
    }

    #[tracing::instrument(skip(self))]
    async fn latest_content_version(&self) -> anyhow::Result<i64> {
        sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) FROM content_versions")
            .fetch_one(&self.pool)
            .await
            .context("Failed to read the latest content version")
    }

    #[tracing::instrument(skip(self))]
    async fn published_content(&self) -> anyhow::Result<Option<VersionRow>> {
        sqlx::query_as(
            "SELECT version, document, published_at FROM content_versions \
             ORDER BY version DESC LIMIT 1",
        )
        .fetch_optional(&self.pool)
        .await
        .context("Failed to read the published content")
    }

    #[tracing::instrument(skip(self))]
    async fn content_version(&self, version: i64) -> anyhow::Result<Option<VersionRow>> {
        sqlx::query_as(
            "SELECT version, document, published_at FROM content_versions WHERE version = ?",
        )
        .bind(version)
        .fetch_optional(&self.pool)
        .await
        .context("Failed to read a content version")
    }

    #[tracing::instrument(skip(self))]
    async fn content_versions(&self) -> anyhow::Result<Vec<VersionSummary>> {
        sqlx::query_as("SELECT version, published_at FROM content_versions ORDER BY version DESC")
            .fetch_all(&self.pool)
            .await
            .context("Failed to list the content versions")
    }
}
