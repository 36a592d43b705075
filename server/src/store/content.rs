//! What content needs from storage: one store for every kind of content (the page's document,
//! each case study), kept as entries keyed by kind and id ([`EntryKey`]). Each entry has one
//! draft (with a revision that goes up at each save) and its published versions, numbered from
//! 1, of which the last [`crate::content::KEPT_VERSIONS`] are kept. Every publish, of any entry,
//! also takes the next number of one sequence, so that one cheap query says whether anything
//! was published ([`ContentStore::content_fingerprint`]). Documents are stored as JSON text,
//! checked before they get here.

use anyhow::Context;
use async_trait::async_trait;

use crate::config::database::Engine;
use crate::store::engines::{both_engines, Pools};

/// One entry of the content store: its kind (`page`, `case-study`) and its id within the kind
/// (empty for the page, of which there is one).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct EntryKey<'a> {
    pub kind: &'a str,
    pub entry: &'a str,
}

/// A moment after every other: reading "published" versions at it takes the scheduled ones too
/// (the owner's views, and the checks of what a slug is taken by).
pub const EVERY_VERSION: i64 = i64::MAX;

impl EntryKey<'static> {
    /// The page's document.
    pub const PAGE: Self = Self {
        kind: "page",
        entry: "",
    };
}

row! {
    /// A draft: its document (JSON), its revision and when it was saved (Unix ms).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DraftRow {
        pub document: String,
        pub revision: i64,
        pub updated_at: i64,
    }
}

row! {
    /// A published version of an entry.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct VersionRow {
        pub version: i64,
        pub document: String,
        pub published_at: i64,
    }
}

row! {
    /// The newest published version of one entry of a kind.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct EntryVersionRow {
        pub entry: String,
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

row! {
    /// One entry of a kind: its draft's revision (0 for none) and its newest version (0 for
    /// none, and when it was published).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct EntrySummary {
        pub entry: String,
        pub revision: i64,
        pub version: i64,
        pub published_at: Option<i64>,
    }
}

row! {
    /// What changes whenever anything is published, or versions are removed, or a version
    /// scheduled for later comes due: the last publish's number, how many versions are kept and
    /// how many of them are due.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct ContentFingerprint {
        pub seq: i64,
        pub versions: i64,
        pub due: i64,
    }
}

#[async_trait]
pub trait ContentStore {
    async fn content_draft(&self, key: EntryKey<'_>) -> anyhow::Result<Option<DraftRow>>;

    /// Replaces the entry's draft when its revision is still `expected` (0: there is no draft
    /// yet), in one statement, so of two saves from the same revision one wins. The new
    /// revision, or `None` when the draft has moved on (nothing is written).
    async fn save_content_draft(
        &self,
        key: EntryKey<'_>,
        document: &str,
        expected: i64,
        now: i64,
    ) -> anyhow::Result<Option<i64>>;

    /// Publishes `document` as the entry's next version at `now` (Unix ms; a moment to come
    /// schedules it: no read below shows it before), deletes its versions beyond the last
    /// `keep`, and with `as_draft` also makes it the draft (a new revision), all in one
    /// transaction.
    async fn publish_content(
        &self,
        key: EntryKey<'_>,
        document: &str,
        now: i64,
        keep: i64,
        as_draft: bool,
    ) -> anyhow::Result<VersionRow>;

    /// The last publish's number (of any entry; 0 when nothing was published), how many
    /// versions are kept and how many of them are due at `now`: cheap enough to ask often.
    async fn content_fingerprint(&self, now: i64) -> anyhow::Result<ContentFingerprint>;

    /// The entry's newest version due at `now` (a version scheduled for later is not yet
    /// published), with its document.
    async fn published_content(
        &self,
        key: EntryKey<'_>,
        now: i64,
    ) -> anyhow::Result<Option<VersionRow>>;

    /// The newest version due at `now` of each entry of `kind` that has one, by entry.
    async fn published_entries(&self, kind: &str, now: i64)
        -> anyhow::Result<Vec<EntryVersionRow>>;

    async fn content_version(
        &self,
        key: EntryKey<'_>,
        version: i64,
    ) -> anyhow::Result<Option<VersionRow>>;

    /// The entry's kept versions, newest first.
    async fn content_versions(&self, key: EntryKey<'_>) -> anyhow::Result<Vec<VersionSummary>>;

    /// Every entry of `kind` that has a draft or a version, by entry: its draft's revision, its
    /// newest version and that version's moment.
    async fn content_entries(&self, kind: &str) -> anyhow::Result<Vec<EntrySummary>>;

    /// Removes the entry's versions scheduled after `now` (not yet due): a new publish, or an
    /// owner's cancel, replaces them. How many were removed.
    async fn drop_scheduled_content(&self, key: EntryKey<'_>, now: i64) -> anyhow::Result<u64>;
}

both_engines! {
    impl ContentStore {
        async fn content_draft(&self, key: EntryKey<'_>) -> anyhow::Result<Option<DraftRow>> {
            sqlx::query_as(
                "SELECT document, revision, updated_at FROM content_entry_drafts \
                 WHERE kind = $1 AND entry = $2",
            )
            .bind(key.kind)
            .bind(key.entry)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read a content draft")
        }

        async fn save_content_draft(
            &self,
            key: EntryKey<'_>,
            document: &str,
            expected: i64,
            now: i64,
        ) -> anyhow::Result<Option<i64>> {
            let query = if expected == 0 {
                sqlx::query_scalar(
                    "INSERT INTO content_entry_drafts (kind, entry, document, revision, updated_at) \
                     VALUES ($1, $2, $3, 1, $4) ON CONFLICT (kind, entry) DO NOTHING RETURNING revision",
                )
                .bind(key.kind)
                .bind(key.entry)
                .bind(document)
                .bind(now)
            } else {
                sqlx::query_scalar(
                    "UPDATE content_entry_drafts SET document = $3, revision = revision + 1, \
                     updated_at = $4 WHERE kind = $1 AND entry = $2 AND revision = $5 RETURNING revision",
                )
                .bind(key.kind)
                .bind(key.entry)
                .bind(document)
                .bind(now)
                .bind(expected)
            };
            query
                .fetch_optional(self.writer())
                .await
                .context("Failed to save a content draft")
        }

        async fn publish_content(
            &self,
            key: EntryKey<'_>,
            document: &str,
            now: i64,
            keep: i64,
            as_draft: bool,
        ) -> anyhow::Result<VersionRow> {
            let mut tx = self.writer().begin().await?;
            if Self::ENGINE == Engine::Postgres {
                // Two instances publishing at once take turns, so each gets its own numbers
                // (SQLite's one writer already makes them).
                sqlx::query("LOCK TABLE content_entry_versions IN EXCLUSIVE MODE")
                    .execute(&mut *tx)
                    .await
                    .context("Failed to lock the content versions")?;
            }
            let row: VersionRow = sqlx::query_as(
                "INSERT INTO content_entry_versions (kind, entry, version, document, published_at, seq) \
                 SELECT $1, $2, \
                     COALESCE((SELECT MAX(version) FROM content_entry_versions \
                               WHERE kind = $1 AND entry = $2), 0) + 1, \
                     $3, $4, COALESCE((SELECT MAX(seq) FROM content_entry_versions), 0) + 1 \
                 RETURNING version, document, published_at",
            )
            .bind(key.kind)
            .bind(key.entry)
            .bind(document)
            .bind(now)
            .fetch_one(&mut *tx)
            .await
            .context("Failed to publish the content")?;
            sqlx::query(
                "DELETE FROM content_entry_versions WHERE kind = $1 AND entry = $2 AND version <= $3",
            )
            .bind(key.kind)
            .bind(key.entry)
            .bind(row.version - keep)
            .execute(&mut *tx)
            .await
            .context("Failed to delete old content versions")?;
            if as_draft {
                sqlx::query(
                    "INSERT INTO content_entry_drafts (kind, entry, document, revision, updated_at) \
                     VALUES ($1, $2, $3, 1, $4) ON CONFLICT (kind, entry) DO UPDATE SET \
                     document = $3, revision = content_entry_drafts.revision + 1, updated_at = $4",
                )
                .bind(key.kind)
                .bind(key.entry)
                .bind(document)
                .bind(now)
                .execute(&mut *tx)
                .await
                .context("Failed to replace the content draft")?;
            }
            tx.commit().await.context("Failed to commit a publish")?;
            Ok(row)
        }

        async fn content_fingerprint(&self, now: i64) -> anyhow::Result<ContentFingerprint> {
            sqlx::query_as(
                "SELECT COALESCE(MAX(seq), 0) AS seq, COUNT(*) AS versions, \
                     COALESCE(SUM(CASE WHEN published_at <= $1 THEN 1 ELSE 0 END), 0) AS due \
                 FROM content_entry_versions",
            )
            .bind(now)
            .fetch_one(self.reader())
            .await
            .context("Failed to read whether content was published")
        }

        async fn published_content(
            &self,
            key: EntryKey<'_>,
            now: i64,
        ) -> anyhow::Result<Option<VersionRow>> {
            sqlx::query_as(
                "SELECT version, document, published_at FROM content_entry_versions \
                 WHERE kind = $1 AND entry = $2 AND published_at <= $3 \
                 ORDER BY version DESC LIMIT 1",
            )
            .bind(key.kind)
            .bind(key.entry)
            .bind(now)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read the published content")
        }

        async fn published_entries(
            &self,
            kind: &str,
            now: i64,
        ) -> anyhow::Result<Vec<EntryVersionRow>> {
            sqlx::query_as(
                "SELECT v.entry, v.version, v.document, v.published_at FROM content_entry_versions v \
                 WHERE v.kind = $1 AND v.version = (SELECT MAX(version) FROM content_entry_versions \
                     WHERE kind = v.kind AND entry = v.entry AND published_at <= $2) \
                 ORDER BY v.entry",
            )
            .bind(kind)
            .bind(now)
            .fetch_all(self.reader())
            .await
            .context("Failed to read the published entries")
        }

        async fn content_version(
            &self,
            key: EntryKey<'_>,
            version: i64,
        ) -> anyhow::Result<Option<VersionRow>> {
            sqlx::query_as(
                "SELECT version, document, published_at FROM content_entry_versions \
                 WHERE kind = $1 AND entry = $2 AND version = $3",
            )
            .bind(key.kind)
            .bind(key.entry)
            .bind(version)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read a content version")
        }

        async fn content_versions(&self, key: EntryKey<'_>) -> anyhow::Result<Vec<VersionSummary>> {
            sqlx::query_as(
                "SELECT version, published_at FROM content_entry_versions \
                 WHERE kind = $1 AND entry = $2 ORDER BY version DESC",
            )
            .bind(key.kind)
            .bind(key.entry)
            .fetch_all(self.reader())
            .await
            .context("Failed to list the content versions")
        }

        async fn drop_scheduled_content(
            &self,
            key: EntryKey<'_>,
            now: i64,
        ) -> anyhow::Result<u64> {
            Ok(sqlx::query(
                "DELETE FROM content_entry_versions \
                 WHERE kind = $1 AND entry = $2 AND published_at > $3",
            )
            .bind(key.kind)
            .bind(key.entry)
            .bind(now)
            .execute(self.writer())
            .await
            .context("Failed to drop scheduled content versions")?
            .rows_affected())
        }

        async fn content_entries(&self, kind: &str) -> anyhow::Result<Vec<EntrySummary>> {
            // The newest version's moment (a later publish over a scheduled one is the newest).
            sqlx::query_as(
                "SELECT entry, MAX(revision) AS revision, MAX(version) AS version, \
                     MAX(published_at) AS published_at FROM ( \
                     SELECT entry, revision, 0 AS version, NULL AS published_at \
                         FROM content_entry_drafts WHERE kind = $1 \
                     UNION ALL \
                     SELECT v.entry, 0 AS revision, v.version, v.published_at \
                         FROM content_entry_versions v WHERE v.kind = $1 AND v.version = \
                             (SELECT MAX(version) FROM content_entry_versions \
                              WHERE kind = v.kind AND entry = v.entry) \
                 ) AS entries GROUP BY entry ORDER BY entry",
            )
            .bind(kind)
            .fetch_all(self.reader())
            .await
            .context("Failed to list the content entries")
        }
    }
}
