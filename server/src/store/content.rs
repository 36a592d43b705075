//! What the page's content needs from storage: one draft (the document being edited, with a
//! revision that goes up at each save) and the published versions, numbered from 1, of which
//! the last [`crate::content::KEPT_VERSIONS`] are kept. Documents are stored as JSON text, checked
//! before they get here.

use async_trait::async_trait;

/// The draft: its document (JSON), its revision and when it was saved (Unix ms).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DraftRow {
    pub document: String,
    pub revision: i64,
    pub updated_at: i64,
}

/// A published version.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct VersionRow {
    pub version: i64,
    pub document: String,
    pub published_at: i64,
}

/// A published version without its document, for the list.
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct VersionSummary {
    pub version: i64,
    pub published_at: i64,
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
