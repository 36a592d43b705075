//! [`OpsStore`] on PostgreSQL.

use std::path::Path;

use anyhow::Context;
use async_trait::async_trait;

use super::PgStore;
use crate::store::health::StorageHealth;
use crate::store::ops::{
    add, purge_kinds, write_sqlite_snapshot, OpsStore, OutboxStats, PoolUse, PurgePlan, PurgeReport,
};
use crate::store::ops::{probe_holder, PROBE_DELETE, PROBE_INSERT};
use crate::store::Store;

#[async_trait]
impl OpsStore for PgStore {
    async fn readiness(&self) -> anyhow::Result<()> {
        let applied: Vec<i64> = sqlx::query_scalar(
            "SELECT version FROM _sqlx_migrations WHERE success = TRUE ORDER BY version",
        )
        .fetch_all(&self.pool)
        .await
        .context("PostgreSQL does not answer")?;
        let missing: Vec<i64> = sqlx::migrate!("./migrations/postgres")
            .iter()
            .map(|m| m.version)
            .filter(|v| !applied.contains(v))
            .collect();
        anyhow::ensure!(missing.is_empty(), "migrations not applied: {missing:?}");
        Ok(())
    }

    async fn probe_write(&self) -> anyhow::Result<()> {
        let mut tx = self
            .pool
            .begin()
            .await
            .context("Failed to begin the write probe")?;
        sqlx::query(PROBE_INSERT)
            .bind(probe_holder())
            .execute(&mut *tx)
            .await
            .context("Failed to write the probe row")?;
        sqlx::query(PROBE_DELETE)
            .execute(&mut *tx)
            .await
            .context("Failed to delete the probe row")?;
        tx.commit()
            .await
            .context("Failed to commit the write probe")?;
        Ok(())
    }

    fn health(&self) -> &StorageHealth {
        &self.health
    }

    async fn snapshot_into(&self, path: &Path) -> anyhow::Result<()> {
        // The same portable SQLite file as on SQLite, from `db copy`'s consistent dump.
        let dump = self.dump().await.context("Failed to read the database")?;
        write_sqlite_snapshot(&dump, path)
            .await
            .with_context(|| format!("Failed to write the snapshot {}", path.display()))
    }

    async fn take_lease(
        &self,
        name: &str,
        holder: &str,
        now: i64,
        until: i64,
        done_after: i64,
    ) -> anyhow::Result<bool> {
        let taken: Option<String> = sqlx::query_scalar(
            "INSERT INTO ops_leases (name, holder, held_until) VALUES ($1, $2, $4) \
             ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, held_until = excluded.held_until \
             WHERE ops_leases.held_until <= $3 AND (ops_leases.done_at IS NULL OR ops_leases.done_at <= $5) \
             RETURNING holder",
        )
        .bind(name)
        .bind(holder)
        .bind(now)
        .bind(until)
        .bind(done_after)
        .fetch_optional(&self.pool)
        .await
        .context("Failed to take a lease")?;
        Ok(taken.is_some())
    }

    async fn release_lease(
        &self,
        name: &str,
        holder: &str,
        done_at: Option<i64>,
    ) -> anyhow::Result<()> {
        sqlx::query(
            "UPDATE ops_leases SET held_until = 0, done_at = COALESCE($3, done_at) \
             WHERE name = $1 AND holder = $2",
        )
        .bind(name)
        .bind(holder)
        .bind(done_at)
        .execute(&self.pool)
        .await
        .context("Failed to release a lease")?;
        Ok(())
    }

    async fn lease_done_at(&self, name: &str) -> anyhow::Result<Option<i64>> {
        let done: Option<Option<i64>> =
            sqlx::query_scalar("SELECT done_at FROM ops_leases WHERE name = $1")
                .bind(name)
                .fetch_optional(&self.pool)
                .await
                .context("Failed to read a lease")?;
        Ok(done.flatten())
    }

    async fn purge(&self, plan: &PurgePlan, dry_run: bool) -> anyhow::Result<PurgeReport> {
        let mut report = PurgeReport::default();
        let mut tx = self
            .pool
            .begin()
            .await
            .context("Failed to begin the purge")?;
        for kind in purge_kinds(plan) {
            let n = if dry_run {
                let sql = &kind.count_sql;
                let mut query = sqlx::query_scalar::<_, i64>(sql);
                for value in &kind.binds {
                    query = query.bind(*value);
                }
                let n = query
                    .fetch_one(&mut *tx)
                    .await
                    .with_context(|| format!("Failed to count {}", kind.kind))?;
                u64::try_from(n).unwrap_or(0)
            } else {
                let sql = &kind.delete_sql;
                let mut query = sqlx::query(sql);
                for value in &kind.binds {
                    query = query.bind(*value);
                }
                query
                    .execute(&mut *tx)
                    .await
                    .with_context(|| format!("Failed to purge {}", kind.kind))?
                    .rows_affected()
            };
            add(&mut report, kind.kind, n);
        }
        tx.commit().await.context("Failed to commit the purge")?;
        Ok(report)
    }

    async fn outbox_stats(&self) -> anyhow::Result<OutboxStats> {
        let (pending, oldest): (i64, Option<i64>) = sqlx::query_as(
            "SELECT COUNT(*), MIN(created_at) FROM notification_outbox WHERE sent_at IS NULL",
        )
        .fetch_one(&self.pool)
        .await
        .context("Failed to read the outbox")?;
        Ok(OutboxStats {
            pending,
            oldest_pending_created_at: oldest,
        })
    }

    fn pool_use(&self) -> PoolUse {
        PoolUse {
            open: self.pool.size(),
            idle: u32::try_from(self.pool.num_idle()).unwrap_or(u32::MAX),
        }
    }
}
