//! What the page's content needs from storage: one draft (the document being edited, with a
//! revision that goes up at each save) and the published versions, numbered from 1, of which
//! the last [`crate::content::KEPT_VERSIONS`] are kept. Documents are stored as JSON text, checked
//! before they get here.

use anyhow::Context;
use async_trait::async_trait;

use crate::config::database::Engine;
use crate::store::engines::{both_engines, Pools};

row! {
    /// The draft: its document (JSON), its revision and when it was saved (Unix ms).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DraftRow {
        pub document: String,
        pub revision: i64,
        pub updated_at: i64,
    }
}

row! {
    /// A published version.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct VersionRow {
        pub version: i64,
        pub document: String,
        pub published_at: i64,
    }
}

row! {
    /// A published version without its document, for the list.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct VersionSummary {
        pub version: i64,
        pub published_at: i64,
    }
}

#[async_trait]
pub trait ContentStore {
    async fn content_draft(&self) -> anyhow::Result<Option<DraftRow>>;

    /// Replaces the draft when its revision is still `expected` (0: there is no draft yet), in
    /// one statement, so of two saves from the same revision one wins. The new revision, or
    /// `None` when the draft has moved on (nothing is written).
    async fn save_content_draft(
        &self,
        document: &str,
        expected: i64,
        now: i64,
    ) -> anyhow::Result<Option<i64>>;

    /// Publishes `document` as the next version, deletes versions beyond the last `keep`, and
    /// with `as_draft` also makes it the draft (a new revision), all in one transaction.
    async fn publish_content(
        &self,
        document: &str,
        now: i64,
        keep: i64,
        as_draft: bool,
    ) -> anyhow::Result<VersionRow>;

    /// The newest version's number, 0 when nothing was published: cheap enough to ask often.
    async fn latest_content_version(&self) -> anyhow::Result<i64>;

    /// The newest version, with its document.
    async fn published_content(&self) -> anyhow::Result<Option<VersionRow>>;

    async fn content_version(&self, version: i64) -> anyhow::Result<Option<VersionRow>>;

    /// The kept versions, newest first.
    async fn content_versions(&self) -> anyhow::Result<Vec<VersionSummary>>;
}

both_engines! {
    impl ContentStore {
        async fn content_draft(&self) -> anyhow::Result<Option<DraftRow>> {
            sqlx::query_as("SELECT document, revision, updated_at FROM content_draft WHERE id = 1")
                .fetch_optional(self.reader())
                .await
                .context("Failed to read the content draft")
        }

        async fn save_content_draft(
            &self,
            document: &str,
            expected: i64,
            now: i64,
        ) -> anyhow::Result<Option<i64>> {
            let query = if expected == 0 {
                sqlx::query_scalar(
                    "INSERT INTO content_draft (id, document, revision, updated_at) VALUES (1, $1, 1, $2) \
                     ON CONFLICT (id) DO NOTHING RETURNING revision",
                )
                .bind(document)
                .bind(now)
            } else {
                sqlx::query_scalar(
                    "UPDATE content_draft SET document = $1, revision = revision + 1, updated_at = $2 \
                     WHERE id = 1 AND revision = $3 RETURNING revision",
                )
                .bind(document)
                .bind(now)
                .bind(expected)
            };
            query
                .fetch_optional(self.writer())
                .await
                .context("Failed to save the content draft")
        }

        async fn publish_content(
            &self,
            document: &str,
            now: i64,
            keep: i64,
            as_draft: bool,
        ) -> anyhow::Result<VersionRow> {
            let mut tx = self.writer().begin().await?;
            if Self::ENGINE == Engine::Postgres {
                // Two instances publishing at once take turns, so each gets its own number
                // (SQLite's one writer already makes them).
                sqlx::query("LOCK TABLE content_versions IN EXCLUSIVE MODE")
                    .execute(&mut *tx)
                    .await
                    .context("Failed to lock the content versions")?;
            }
            let row: VersionRow = sqlx::query_as(
                "INSERT INTO content_versions (version, document, published_at) \
                 SELECT COALESCE(MAX(version), 0) + 1, $1, $2 FROM content_versions \
                 RETURNING version, document, published_at",
            )
            .bind(document)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .context("Failed to publish the content")?;
            sqlx::query("DELETE FROM content_versions WHERE version <= $1")
                .bind(row.version - keep)
                .execute(&mut *tx)
                .await
                .context("Failed to delete old content versions")?;
            if as_draft {
                sqlx::query(
                    "INSERT INTO content_draft (id, document, revision, updated_at) VALUES (1, $1, 1, $2) \
                     ON CONFLICT (id) DO UPDATE SET document = $1, revision = content_draft.revision + 1, \
                     updated_at = $2",
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

        async fn latest_content_version(&self) -> anyhow::Result<i64> {
            sqlx::query_scalar("SELECT COALESCE(MAX(version), 0) FROM content_versions")
                .fetch_one(self.reader())
                .await
                .context("Failed to read the latest content version")
        }

        async fn published_content(&self) -> anyhow::Result<Option<VersionRow>> {
            sqlx::query_as(
                "SELECT version, document, published_at FROM content_versions \
                 ORDER BY version DESC LIMIT 1",
            )
            .fetch_optional(self.reader())
            .await
            .context("Failed to read the published content")
        }

        async fn content_version(&self, version: i64) -> anyhow::Result<Option<VersionRow>> {
            sqlx::query_as(
                "SELECT version, document, published_at FROM content_versions WHERE version = $1",
            )
            .bind(version)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read a content version")
        }

        async fn content_versions(&self) -> anyhow::Result<Vec<VersionSummary>> {
            sqlx::query_as("SELECT version, published_at FROM content_versions ORDER BY version DESC")
                .fetch_all(self.reader())
                .await
                .context("Failed to list the content versions")
        }
    }
}
