//! [`InsightsStore`] on SQLite.

use std::collections::BTreeMap;

use anyhow::Context;
use async_trait::async_trait;

use super::SqliteStore;
use crate::store::insights::*;

/// SQLite reads `$n` parameters as `?n`.
fn sqlite(sql: &str) -> String {
    sql.replace('$', "?")
}

#[async_trait]
impl InsightsStore for SqliteStore {
    // Writes go through the one writer connection, like every other SQLite write.
    async fn insights_salt(&self, day: &str) -> anyhow::Result<Vec<u8>> {
        sqlx::query(&sqlite(SALT_INSERT))
            .bind(day)
            .bind(new_salt())
            .execute(&self.writer)
            .await
            .context("Failed to make the day's salt")?;
        sqlx::query_scalar(&sqlite(SALT_SELECT))
            .bind(day)
            .fetch_one(&self.writer)
            .await
            .context("Failed to read the day's salt")
    }

    #[tracing::instrument(skip_all)]
    async fn record_insights(&self, batch: &InsightsBatch) -> anyhow::Result<()> {
        let mut tx = self
            .writer
            .begin()
            .await
            .context("Failed to begin the insights batch")?;
        let mut new_visitors: BTreeMap<String, i64> = BTreeMap::new();
        let seen_sql = sqlite(SEEN_INSERT);
        for (day, hash) in &batch.seen {
            let added = sqlx::query(&seen_sql)
                .bind(day)
                .bind(hash)
                .execute(&mut *tx)
                .await
                .context("Failed to record a visitor")?
                .rows_affected();
            *new_visitors.entry(day.clone()).or_default() += i64::try_from(added).unwrap_or(0);
        }
        let day_sql = sqlite(DAY_UPSERT);
        for (day, delta, visitors) in day_rows(batch, &new_visitors) {
            sqlx::query(&day_sql)
                .bind(&day)
                .bind(delta.page_views)
                .bind(visitors)
                .bind(delta.resume_downloads)
                .execute(&mut *tx)
                .await
                .context("Failed to add a day's figures")?;
        }
        let count_sql = sqlite(COUNT_UPSERT);
        for ((day, kind, key), n) in &batch.counts {
            sqlx::query(&count_sql)
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
            .writer
            .begin()
            .await
            .context("Failed to begin the insights purge")?;
        for sql in PURGE_DAILY {
            sqlx::query(&sqlite(sql))
                .bind(today)
                .execute(&mut *tx)
                .await
                .context("Failed to drop past days' salts")?;
        }
        if let Some(keep_from) = keep_from {
            for sql in PURGE_AGGREGATES {
                sqlx::query(&sqlite(sql))
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
        sqlx::query_as(&sqlite(DAYS_SELECT))
            .bind(from)
            .bind(to)
            .fetch_all(&self.pool)
            .await
            .context("Failed to read the daily figures")
    }

    async fn insights_counts(&self, from: &str, to: &str) -> anyhow::Result<Vec<InsightsCountRow>> {
        sqlx::query_as(&sqlite(COUNTS_SELECT))
            .bind(from)
            .bind(to)
            .fetch_all(&self.pool)
            .await
            .context("Failed to read the counts")
    }

    async fn real_message_times(&self, since: i64) -> anyhow::Result<Vec<i64>> {
        sqlx::query_scalar(&sqlite(MESSAGE_TIMES_SELECT))
            .bind(since)
            .fetch_all(&self.pool)
            .await
            .context("Failed to read when messages came")
    }
}
