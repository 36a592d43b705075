//! What visitor insights need from storage: the day's salt, a batch of counts written at once,
//! the figures of a range of days, and the end-of-day purge of salts and seen-hashes.

use std::collections::BTreeMap;

use anyhow::Context;
use async_trait::async_trait;

use crate::store::engines::{both_engines, Pools};

/// At most this many different keys of one kind are kept per day; the rest are counted under
/// [`OTHER_KEY`].
pub const MAX_KEYS_PER_DAY: i64 = 100;
/// Where values beyond [`MAX_KEYS_PER_DAY`] are counted.
pub const OTHER_KEY: &str = "(other)";

/// One day's figures to add.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct DayDelta {
    pub page_views: i64,
    pub resume_downloads: i64,
}

/// Counts gathered in memory, written in one transaction. Days are `YYYY-MM-DD`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InsightsBatch {
    pub days: BTreeMap<String, DayDelta>,
    /// (day, kind, key) to the count to add.
    pub counts: BTreeMap<(String, String, String), i64>,
    /// (day, salted hash of a visitor): each new one is one more visitor that day.
    pub seen: std::collections::BTreeSet<(String, Vec<u8>)>,
}

impl InsightsBatch {
    pub fn is_empty(&self) -> bool {
        self.days.is_empty() && self.counts.is_empty() && self.seen.is_empty()
    }
}

row! {
    /// One day's stored figures.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct InsightsDayRow {
        pub day: String,
        pub page_views: i64,
        pub visitors: i64,
        pub resume_downloads: i64,
    }
}

row! {
    /// A key's total over a range of days.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct InsightsCountRow {
        pub kind: String,
        pub key: String,
        pub count: i64,
    }
}

#[async_trait]
pub trait InsightsStore: Send + Sync + 'static {
    /// The day's salt: 32 random bytes made by the first instance that asks.
    async fn insights_salt(&self, day: &str) -> anyhow::Result<Vec<u8>>;

    /// Adds the batch in one transaction: a seen-hash not yet stored for its day adds a visitor;
    /// a key beyond the day's [`MAX_KEYS_PER_DAY`] of its kind is counted as [`OTHER_KEY`].
    async fn record_insights(&self, batch: &InsightsBatch) -> anyhow::Result<()>;

    /// Deletes the salts and seen-hashes (the insights' and the application links') of days
    /// before `today`, and the aggregates (the links' counts too) of days before `keep_from`
    /// (when given).
    async fn purge_insights(&self, today: &str, keep_from: Option<&str>) -> anyhow::Result<()>;

    /// The stored days from `from` to `to` (inclusive), in order.
    async fn insights_days(&self, from: &str, to: &str) -> anyhow::Result<Vec<InsightsDayRow>>;

    /// Each kind's keys summed over `from` to `to`, the largest first.
    async fn insights_counts(&self, from: &str, to: &str) -> anyhow::Result<Vec<InsightsCountRow>>;

    /// When each real (not spam) message since `since` (Unix ms) came, deleted ones included.
    async fn real_message_times(&self, since: i64) -> anyhow::Result<Vec<i64>>;
}

/// 32 random bytes: a new day's salt.
pub(crate) fn new_salt() -> Vec<u8> {
    use rand::RngCore;
    let mut salt = vec![0u8; 32];
    rand::thread_rng().fill_bytes(&mut salt);
    salt
}

/// Visitors each day adds: its seen-hashes that were new.
pub(crate) fn day_rows(
    batch: &InsightsBatch,
    new_visitors: &BTreeMap<String, i64>,
) -> Vec<(String, DayDelta, i64)> {
    let mut days: BTreeMap<&str, (DayDelta, i64)> = BTreeMap::new();
    for (day, delta) in &batch.days {
        days.entry(day).or_default().0 = *delta;
    }
    for (day, n) in new_visitors {
        days.entry(day).or_default().1 += n;
    }
    days.into_iter()
        .map(|(day, (delta, visitors))| (day.to_owned(), delta, visitors))
        .collect()
}

both_engines! {
    impl InsightsStore {
        // Writes go through the one writer connection, like every other SQLite write.
        async fn insights_salt(&self, day: &str) -> anyhow::Result<Vec<u8>> {
            sqlx::query(
                "INSERT INTO insights_salts (day, salt) VALUES ($1, $2) ON CONFLICT (day) DO NOTHING",
            )
                .bind(day)
                .bind(new_salt())
                .execute(self.writer())
                .await
                .context("Failed to make the day's salt")?;
            sqlx::query_scalar("SELECT salt FROM insights_salts WHERE day = $1")
                .bind(day)
                .fetch_one(self.writer())
                .await
                .context("Failed to read the day's salt")
        }

        async fn record_insights(&self, batch: &InsightsBatch) -> anyhow::Result<()> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin the insights batch")?;
            let mut new_visitors: BTreeMap<String, i64> = BTreeMap::new();
            for (day, hash) in &batch.seen {
                let added = sqlx::query(
                    "INSERT INTO insights_seen (day, visitor_hash) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                )
                    .bind(day)
                    .bind(hash)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to record a visitor")?
                    .rows_affected();
                *new_visitors.entry(day.clone()).or_default() += i64::try_from(added).unwrap_or(0);
            }
            for (day, delta, visitors) in day_rows(batch, &new_visitors) {
                sqlx::query(
                    "INSERT INTO insights_daily (day, page_views, visitors, resume_downloads) VALUES ($1, $2, $3, $4) \
                     ON CONFLICT (day) DO UPDATE SET page_views = insights_daily.page_views + excluded.page_views, \
                     visitors = insights_daily.visitors + excluded.visitors, \
                     resume_downloads = insights_daily.resume_downloads + excluded.resume_downloads",
                )
                    .bind(&day)
                    .bind(delta.page_views)
                    .bind(visitors)
                    .bind(delta.resume_downloads)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to add a day's figures")?;
            }
            for ((day, kind, key), n) in &batch.counts {
                // A key already counted that day, or one of the first `MAX_KEYS_PER_DAY`, is
                // counted as itself; any other as `OTHER_KEY`. (`WHERE TRUE` lets SQLite read the
                // upsert after a SELECT.)
                sqlx::query(
                    "INSERT INTO insights_counts (day, kind, key, count) \
                     SELECT $1, $2, CASE WHEN EXISTS (SELECT 1 FROM insights_counts WHERE day = $1 AND kind = $2 AND key = $3) \
                     OR (SELECT COUNT(*) FROM insights_counts WHERE day = $1 AND kind = $2 AND key <> $6) < $5 \
                     THEN $3 ELSE $6 END, $4 WHERE TRUE \
                     ON CONFLICT (day, kind, key) DO UPDATE SET count = insights_counts.count + excluded.count",
                )
                    .bind(day)
                    .bind(kind)
                    .bind(key)
                    .bind(n)
                    .bind(MAX_KEYS_PER_DAY)
                    .bind(OTHER_KEY)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to add a count")?;
            }
            tx.commit()
                .await
                .context("Failed to commit the insights batch")?;
            Ok(())
        }

        async fn purge_insights(&self, today: &str, keep_from: Option<&str>) -> anyhow::Result<()> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin the insights purge")?;
            for sql in [
                "DELETE FROM insights_salts WHERE day < $1",
                "DELETE FROM insights_seen WHERE day < $1",
                "DELETE FROM application_link_seen WHERE day < $1",
            ] {
                sqlx::query(sql)
                    .bind(today)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to drop past days' salts")?;
            }
            if let Some(keep_from) = keep_from {
                for sql in [
                    "DELETE FROM insights_daily WHERE day < $1",
                    "DELETE FROM insights_counts WHERE day < $1",
                    "DELETE FROM application_link_counts WHERE day < $1",
                ] {
                    sqlx::query(sql)
                        .bind(keep_from)
                        .execute(&mut *tx)
                        .await
                        .context("Failed to drop old insights")?;
                }
            }
            tx.commit()
                .await
                .context("Failed to commit the insights purge")?;
            Ok(())
        }

        async fn insights_days(&self, from: &str, to: &str) -> anyhow::Result<Vec<InsightsDayRow>> {
            sqlx::query_as(
                "SELECT day, page_views, visitors, resume_downloads FROM insights_daily \
                 WHERE day >= $1 AND day <= $2 ORDER BY day",
            )
                .bind(from)
                .bind(to)
                .fetch_all(self.reader())
                .await
                .context("Failed to read the daily figures")
        }

        async fn insights_counts(&self, from: &str, to: &str) -> anyhow::Result<Vec<InsightsCountRow>> {
            sqlx::query_as(
                "SELECT kind, key, CAST(SUM(count) AS BIGINT) AS count FROM insights_counts \
                 WHERE day >= $1 AND day <= $2 GROUP BY kind, key ORDER BY kind, count DESC, key",
            )
                .bind(from)
                .bind(to)
                .fetch_all(self.reader())
                .await
                .context("Failed to read the counts")
        }

        async fn real_message_times(&self, since: i64) -> anyhow::Result<Vec<i64>> {
            sqlx::query_scalar(
                "SELECT created_at FROM contact_messages WHERE is_spam = FALSE AND created_at >= $1",
            )
                .bind(since)
                .fetch_all(self.reader())
                .await
                .context("Failed to read when messages came")
        }
    }
}
