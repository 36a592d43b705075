//! What the weekly digest needs from storage: the owner's choice of day and hour, a week's
//! figures (visitors and page views, the top referrers, messages, links opened and engaged), and
//! each week's digest written once across instances with its outbox rows.

use anyhow::Context;
use async_trait::async_trait;

use crate::store::engines::{both_engines, Pools};
use crate::store::model::KIND_DIGEST;

/// The digest's day and hour until the owner chooses: Mondays at 9 (and off: it is sent once
/// the owner turns it on).
pub const DEFAULT_WEEKDAY: i64 = 1;
pub const DEFAULT_HOUR: i64 = 9;

row! {
    /// The owner's choice, every column.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DigestSettingsRow {
        pub enabled: bool,
        /// ISO weekday: 1 for Monday to 7 for Sunday.
        pub weekday: i64,
        /// 0 to 23, in the owner's time zone.
        pub hour: i64,
        /// Since when the choice holds (Unix ms): a time that was past then is not sent late.
        pub updated_at: i64,
    }
}

row! {
    /// A week's digest, every column: `slot` is when it was due, as the local date and time
    /// (`2026-12-07T09:00`), `slot_at` the same in Unix ms; `figures` JSON.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct WeeklyDigestRow {
        pub slot: String,
        pub slot_at: i64,
        pub figures: String,
        /// An empty week: written, not sent.
        pub skipped: bool,
        pub created_at: i64,
    }
}

row! {
    /// A week's counts: from `insights_daily`, `contact_messages` and `application_link_counts`.
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct WeekCounts {
        pub visitors: i64,
        pub page_views: i64,
        /// Messages that are not spam, written in the week.
        pub messages: i64,
        /// Links opened in the week (counted once each).
        pub links_opened: i64,
        /// Links whose readers went further in the week: a section past the first, a case study,
        /// a post, a click or the resume.
        pub links_engaged: i64,
    }
}

/// A week: its days (`from_day` included, `to_day` not, as insights name them) and the same
/// span in Unix ms.
#[derive(Debug, Clone, Copy)]
pub struct Week<'a> {
    pub from_day: &'a str,
    pub to_day: &'a str,
    pub from_ms: i64,
    pub to_ms: i64,
}

#[async_trait]
pub trait DigestStore: Send + Sync + 'static {
    /// The owner's choice; the default (off, Mondays at 9, since `now`) is written the first time.
    async fn digest_settings(&self, now: i64) -> anyhow::Result<DigestSettingsRow>;

    /// Changes the owner's choice, holding from `now`.
    async fn set_digest_settings(
        &self,
        settings: &DigestSettingsRow,
    ) -> anyhow::Result<DigestSettingsRow>;

    /// A week's counts; `first_section` is the page's top, which alone is no engagement.
    async fn week_counts(&self, week: &Week<'_>, first_section: &str)
        -> anyhow::Result<WeekCounts>;

    /// The week's referrers by page views, the most first (at most `limit`), without the
    /// `(other)` of the days' overflow.
    async fn top_referrers(
        &self,
        week: &Week<'_>,
        limit: i64,
    ) -> anyhow::Result<Vec<(String, i64)>>;

    /// The latest digests, the newest first.
    async fn weekly_digests(&self, limit: i64) -> anyhow::Result<Vec<WeeklyDigestRow>>;

    /// Writes a week's digest and, unless it is skipped, its outbox rows on `channels` (subject
    /// `subject`, text its figures, due at `queued_at` on the outbox's clock), in one
    /// transaction; false when that week's was written
    /// already (by this instance or another).
    async fn store_digest(
        &self,
        digest: &WeeklyDigestRow,
        subject: &str,
        channels: &[String],
        queued_at: i64,
    ) -> anyhow::Result<bool>;
}

both_engines! {
    impl DigestStore {
        async fn digest_settings(&self, now: i64) -> anyhow::Result<DigestSettingsRow> {
            const READ: &str =
                "SELECT enabled, weekday, hour, updated_at FROM digest_settings WHERE id = 1";
            // Read first: the row is written once, and each instance looks every minute.
            if let Some(row) = sqlx::query_as(READ)
                .fetch_optional(self.reader())
                .await
                .context("Failed to read the digest's settings")?
            {
                return Ok(row);
            }
            sqlx::query(
                "INSERT INTO digest_settings (id, enabled, weekday, hour, updated_at) \
                 VALUES (1, FALSE, $1, $2, $3) ON CONFLICT (id) DO NOTHING",
            )
            .bind(DEFAULT_WEEKDAY)
            .bind(DEFAULT_HOUR)
            .bind(now)
            .execute(self.writer())
            .await
            .context("Failed to write the digest's default settings")?;
            sqlx::query_as(READ)
                .fetch_one(self.writer())
                .await
                .context("Failed to read the digest's settings")
        }

        async fn set_digest_settings(
            &self,
            settings: &DigestSettingsRow,
        ) -> anyhow::Result<DigestSettingsRow> {
            sqlx::query_as(
                "INSERT INTO digest_settings (id, enabled, weekday, hour, updated_at) \
                 VALUES (1, $1, $2, $3, $4) \
                 ON CONFLICT (id) DO UPDATE SET enabled = excluded.enabled, \
                   weekday = excluded.weekday, hour = excluded.hour, \
                   updated_at = excluded.updated_at \
                 RETURNING enabled, weekday, hour, updated_at",
            )
            .bind(settings.enabled)
            .bind(settings.weekday)
            .bind(settings.hour)
            .bind(settings.updated_at)
            .fetch_one(self.writer())
            .await
            .context("Failed to change the digest's settings")
        }

        async fn week_counts(
            &self,
            week: &Week<'_>,
            first_section: &str,
        ) -> anyhow::Result<WeekCounts> {
            sqlx::query_as(
                "SELECT \
                   (SELECT CAST(COALESCE(SUM(visitors), 0) AS BIGINT) FROM insights_daily \
                     WHERE day >= $1 AND day < $2) AS visitors, \
                   (SELECT CAST(COALESCE(SUM(page_views), 0) AS BIGINT) FROM insights_daily \
                     WHERE day >= $1 AND day < $2) AS page_views, \
                   (SELECT COUNT(*) FROM contact_messages \
                     WHERE created_at >= $3 AND created_at < $4 AND is_spam = FALSE) AS messages, \
                   (SELECT COUNT(DISTINCT link_id) FROM application_link_counts \
                     WHERE day >= $1 AND day < $2 AND kind = 'open') AS links_opened, \
                   (SELECT COUNT(DISTINCT link_id) FROM application_link_counts \
                     WHERE day >= $1 AND day < $2 \
                       AND (kind IN ('case-study', 'post', 'click', 'resume') \
                            OR (kind = 'section' AND key <> $5))) AS links_engaged",
            )
            .bind(week.from_day)
            .bind(week.to_day)
            .bind(week.from_ms)
            .bind(week.to_ms)
            .bind(first_section)
            .fetch_one(self.reader())
            .await
            .context("Failed to count a week for the digest")
        }

        async fn top_referrers(
            &self,
            week: &Week<'_>,
            limit: i64,
        ) -> anyhow::Result<Vec<(String, i64)>> {
            sqlx::query_as(
                "SELECT key, CAST(SUM(count) AS BIGINT) AS views FROM insights_counts \
                 WHERE day >= $1 AND day < $2 AND kind = 'referrer' AND key <> '(other)' \
                 GROUP BY key ORDER BY views DESC, key LIMIT $3",
            )
            .bind(week.from_day)
            .bind(week.to_day)
            .bind(limit)
            .fetch_all(self.reader())
            .await
            .context("Failed to read a week's referrers")
        }

        async fn weekly_digests(&self, limit: i64) -> anyhow::Result<Vec<WeeklyDigestRow>> {
            sqlx::query_as(
                "SELECT slot, slot_at, figures, skipped, created_at FROM weekly_digests \
                 ORDER BY slot_at DESC LIMIT $1",
            )
            .bind(limit)
            .fetch_all(self.reader())
            .await
            .context("Failed to read the digests")
        }

        async fn store_digest(
            &self,
            digest: &WeeklyDigestRow,
            subject: &str,
            channels: &[String],
            queued_at: i64,
        ) -> anyhow::Result<bool> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin writing a digest")?;
            let written = sqlx::query(
                "INSERT INTO weekly_digests (slot, slot_at, figures, skipped, created_at) \
                 VALUES ($1, $2, $3, $4, $5) ON CONFLICT (slot) DO NOTHING",
            )
            .bind(&digest.slot)
            .bind(digest.slot_at)
            .bind(&digest.figures)
            .bind(digest.skipped)
            .bind(digest.created_at)
            .execute(&mut *tx)
            .await
            .context("Failed to write a digest")?
            .rows_affected();
            if written == 0 {
                return Ok(false);
            }
            if !digest.skipped {
                for channel in channels {
                    sqlx::query(
                        "INSERT INTO notification_outbox \
                         (channel, kind, notice_subject, notice_text, next_attempt_at, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $5)",
                    )
                    .bind(channel)
                    .bind(KIND_DIGEST)
                    .bind(subject)
                    .bind(&digest.figures)
                    .bind(queued_at)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to queue a digest")?;
                }
            }
            tx.commit().await.context("Failed to commit a digest")?;
            Ok(true)
        }
    }
}
