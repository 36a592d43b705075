//! What operations need from storage: readiness, snapshots, a lease so that one instance at a
//! time takes a scheduled backup, retention's purge and the numbers behind the metrics.

use std::path::Path;

use anyhow::Context;
use async_trait::async_trait;
use sqlx::Connection;

use crate::store::dump::CopyStore;
use crate::store::engines::{both_engines, Pools};
use crate::store::health::StorageHealth;
use crate::store::sqlite::FileId;

/// Spam codes no person trips: messages filed under them are purged after the retention period.
/// Spam filed by the site-wide ceiling, by content signals or as sent too fast stays until the
/// owner moves or deletes it, since a real message may sit there.
pub const TRAP_SPAM_CODES: [&str; 7] = [
    "honeypot",
    "token-missing",
    "token-forged",
    "token-replayed",
    "challenge-missing",
    "challenge-failed",
    "challenge-replayed",
];

/// What retention removes, each with its own cut-off (Unix milliseconds); `None` removes nothing
/// of that kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PurgePlan {
    /// Messages moved to Trash before this.
    pub trash_before: Option<i64>,
    /// Trap spam received before this.
    pub trap_spam_before: Option<i64>,
    /// Notifications sent before this.
    pub sent_outbox_before: Option<i64>,
    /// Now: sessions expired by then go.
    pub now: i64,
    /// Sign-in counters whose last attempt is older than this and that lock nothing now.
    pub sign_in_before: i64,
}

/// How many rows a purge removed (or, in a dry run, would remove).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PurgeReport {
    pub trash: u64,
    pub trap_spam: u64,
    pub sent_outbox: u64,
    pub sessions: u64,
    pub sign_in_failures: u64,
}

impl PurgeReport {
    pub fn total(&self) -> u64 {
        self.trash + self.trap_spam + self.sent_outbox + self.sessions + self.sign_in_failures
    }
}

impl std::fmt::Display for PurgeReport {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let parts = [
            (self.trash, "message", " in Trash"),
            (self.trap_spam, "spam message", " caught by a trap"),
            (self.sent_outbox, "sent notification", ""),
            (self.sessions, "expired session", ""),
            (self.sign_in_failures, "old sign-in counter", ""),
        ];
        let parts: Vec<String> = parts
            .iter()
            .map(|(n, what, where_)| {
                format!("{n} {what}{}{where_}", if *n == 1 { "" } else { "s" })
            })
            .collect();
        f.write_str(&parts.join(", "))
    }
}

/// The notification outbox at a glance.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct OutboxStats {
    pub pending: i64,
    /// When the oldest unsent notification was queued.
    pub oldest_pending_created_at: Option<i64>,
}

/// The write probe's row: a lease that no job takes, whose holder is long enough to need a page
/// of its own, so that the insert fails where the database has no room left.
pub(crate) const PROBE_INSERT: &str = "INSERT INTO ops_leases (name, holder, held_until) \
     VALUES ('storage-probe', $1, 0) ON CONFLICT (name) DO UPDATE SET holder = excluded.holder";
pub(crate) const PROBE_DELETE: &str = "DELETE FROM ops_leases WHERE name = 'storage-probe'";
/// The probe row's holder: longer than a SQLite page (4 KiB), so it takes an overflow page.
pub(crate) fn probe_holder() -> String {
    "probe ".repeat(1000)
}

/// The connection pool's use.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct PoolUse {
    pub open: u32,
    pub idle: u32,
}

#[async_trait]
pub trait OpsStore: Send + Sync + 'static {
    /// Answers when the database does and every embedded migration is applied. Errors say which
    /// is wrong. On SQLite a file replaced or gone is noticed too ([`OpsStore::check_in_place`]).
    async fn readiness(&self) -> anyhow::Result<()>;

    /// A small write that needs new room in the database (a row of a few kilobytes, inserted
    /// and deleted in one transaction), through the connection that writes: it fails when a
    /// message would.
    async fn probe_write(&self) -> anyhow::Result<()>;

    /// Whether the database is still the one opened at start-up: on SQLite, the file at its path
    /// (not removed, not replaced); always on a database server. A `stat`, no query.
    fn check_in_place(&self) -> anyhow::Result<()> {
        Ok(())
    }

    /// Whether writes work, as last seen (see [`super::health`]).
    fn health(&self) -> &super::health::StorageHealth;

    /// Writes a consistent snapshot of the whole database to `path` (which must not exist) as a
    /// SQLite database that `serve --database-url sqlite://PATH` runs as is.
    async fn snapshot_into(&self, path: &Path) -> anyhow::Result<()>;

    /// Takes the named lease for `holder` until `until`, unless another holder has it, or the
    /// named job was last done after `done_after`. True when taken.
    async fn take_lease(
        &self,
        name: &str,
        holder: &str,
        now: i64,
        until: i64,
        done_after: i64,
    ) -> anyhow::Result<bool>;

    /// Keeps the named lease until `until` while `holder` still has it (it has not run out and
    /// been taken by another); true when kept.
    async fn extend_lease(
        &self,
        name: &str,
        holder: &str,
        now: i64,
        until: i64,
    ) -> anyhow::Result<bool>;

    /// Gives the lease back; with `done_at`, records that the job was done then.
    async fn release_lease(
        &self,
        name: &str,
        holder: &str,
        done_at: Option<i64>,
    ) -> anyhow::Result<()>;

    /// When the named job was last done, by any instance.
    async fn lease_done_at(&self, name: &str) -> anyhow::Result<Option<i64>>;

    /// Deletes what the plan says, in one transaction; with `dry_run`, only counts it.
    async fn purge(&self, plan: &PurgePlan, dry_run: bool) -> anyhow::Result<PurgeReport>;

    async fn outbox_stats(&self) -> anyhow::Result<OutboxStats>;

    fn pool_use(&self) -> PoolUse;

    /// Closes the connections that read and sit idle, handing back what each keeps (on SQLite a
    /// thread, its page cache and its prepared statements); the next read opens one again. For a
    /// quiet server (see `ops::memory`); nothing on PostgreSQL, whose memory is the server's.
    async fn close_idle_readers(&self) -> usize {
        0
    }
}

/// Where a kind's count goes in the report.
type ReportField = fn(&mut PurgeReport) -> &mut u64;

/// What retention removes, kind by kind: where its count goes, its table, its condition and the
/// values of its `$n` parameters; kinds the plan keeps are left out.
fn purge_kinds(plan: &PurgePlan) -> Vec<(ReportField, &'static str, String, Vec<i64>)> {
    let traps = TRAP_SPAM_CODES
        .iter()
        .map(|code| format!("'{code}'"))
        .collect::<Vec<_>>()
        .join(", ");
    let kinds: [(ReportField, &str, String, Option<Vec<i64>>); 5] = [
        (
            |report| &mut report.sent_outbox,
            "notification_outbox",
            "sent_at IS NOT NULL AND sent_at < $1".to_owned(),
            plan.sent_outbox_before.map(|t| vec![t]),
        ),
        (
            |report| &mut report.trash,
            "contact_messages",
            "deleted_at IS NOT NULL AND deleted_at < $1".to_owned(),
            plan.trash_before.map(|t| vec![t]),
        ),
        (
            |report| &mut report.trap_spam,
            "contact_messages",
            format!(
                "is_spam = TRUE AND deleted_at IS NULL AND created_at < $1 AND spam_reason IN ({traps})"
            ),
            plan.trap_spam_before.map(|t| vec![t]),
        ),
        (
            |report| &mut report.sessions,
            "sessions",
            "(idle_expires_at <= $1 OR absolute_expires_at <= $1)".to_owned(),
            Some(vec![plan.now]),
        ),
        (
            |report| &mut report.sign_in_failures,
            "sign_in_failures",
            "last_failure_at < $1 AND locked_until <= $2".to_owned(),
            Some(vec![plan.sign_in_before, plan.now]),
        ),
    ];
    kinds
        .into_iter()
        .filter_map(|(field, table, condition, binds)| Some((field, table, condition, binds?)))
        .collect()
}

/// Writes `dump` into a new SQLite database at `path`: the portable snapshot of any store.
pub(crate) async fn write_sqlite_snapshot(
    dump: &super::dump::Dump,
    path: &Path,
) -> anyhow::Result<()> {
    anyhow::ensure!(!path.exists(), "{} already exists", path.display());
    // The rows go into a scratch database in a folder of its own (with its WAL files), which
    // VACUUM INTO then writes out as one self-contained file; the folder is removed after.
    let mut scratch = path.as_os_str().to_owned();
    scratch.push(".scratch");
    let scratch = std::path::PathBuf::from(scratch);
    std::fs::create_dir_all(&scratch)
        .map_err(|e| anyhow::anyhow!("cannot create {}: {e}", scratch.display()))?;
    let result = async {
        let url = crate::config::database::DatabaseUrl::parse(&format!(
            "sqlite://{}",
            scratch.join("snapshot.db").display()
        ))?;
        let store = super::sqlite::SqliteStore::connect(&url, Default::default()).await?;
        let written = async {
            store.load(dump, false).await?;
            store.snapshot_into(path).await
        }
        .await;
        store.reader().close().await;
        store.writer().close().await;
        written
    }
    .await;
    let _ = std::fs::remove_dir_all(&scratch);
    result
}

both_engines! {
        impl OpsStore {
            async fn readiness(&self) -> anyhow::Result<()> {
                self.check_in_place()?;
                let applied: Vec<i64> = sqlx::query_scalar(
                    "SELECT version FROM _sqlx_migrations WHERE success = TRUE ORDER BY version",
                )
                .fetch_all(self.reader())
                .await
                .with_context(|| format!("{} does not answer", Self::ENGINE))?;
                let missing: Vec<i64> = Self::migrator()
                    .iter()
                    .map(|m| m.version)
                    .filter(|v| !applied.contains(v))
                    .collect();
                anyhow::ensure!(missing.is_empty(), "migrations not applied: {missing:?}");
                Ok(())
            }

            fn health(&self) -> &StorageHealth {
                &self.health
            }

        async fn probe_write(&self) -> anyhow::Result<()> {
            let mut tx = self
                .writer()
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
            .fetch_optional(self.writer())
            .await
            .context("Failed to take a lease")?;
            Ok(taken.is_some())
        }

        async fn extend_lease(
            &self,
            name: &str,
            holder: &str,
            now: i64,
            until: i64,
        ) -> anyhow::Result<bool> {
            let kept = sqlx::query(
                "UPDATE ops_leases SET held_until = $4 \
                 WHERE name = $1 AND holder = $2 AND held_until > $3",
            )
            .bind(name)
            .bind(holder)
            .bind(now)
            .bind(until)
            .execute(self.writer())
            .await
            .context("Failed to keep a lease")?
            .rows_affected();
            Ok(kept == 1)
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
            .execute(self.writer())
            .await
            .context("Failed to release a lease")?;
            Ok(())
        }

        async fn lease_done_at(&self, name: &str) -> anyhow::Result<Option<i64>> {
            let done: Option<Option<i64>> =
                sqlx::query_scalar("SELECT done_at FROM ops_leases WHERE name = $1")
                    .bind(name)
                    .fetch_optional(self.reader())
                    .await
                    .context("Failed to read a lease")?;
            Ok(done.flatten())
        }

        async fn purge(&self, plan: &PurgePlan, dry_run: bool) -> anyhow::Result<PurgeReport> {
            let mut report = PurgeReport::default();
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin the purge")?;
            for (field, table, condition, binds) in purge_kinds(plan) {
                let verb = if dry_run { "SELECT COUNT(*)" } else { "DELETE" };
                let sql = format!("{verb} FROM {table} WHERE {condition}");
                let mut query = sqlx::query(&sql);
                for value in binds {
                    query = query.bind(value);
                }
                let n = if dry_run {
                    use sqlx::Row;
                    let count: i64 = query
                        .fetch_one(&mut *tx)
                        .await
                        .and_then(|row| row.try_get(0))
                        .with_context(|| format!("Failed to count in {table}"))?;
                    u64::try_from(count).unwrap_or(0)
                } else {
                    query
                        .execute(&mut *tx)
                        .await
                        .with_context(|| format!("Failed to purge {table}"))?
                        .rows_affected()
                };
                *field(&mut report) += n;
            }
            tx.commit().await.context("Failed to commit the purge")?;
            Ok(report)
        }

        async fn outbox_stats(&self) -> anyhow::Result<OutboxStats> {
            let (pending, oldest): (i64, Option<i64>) = sqlx::query_as(
                "SELECT COUNT(*), MIN(created_at) FROM notification_outbox WHERE sent_at IS NULL",
            )
            .fetch_one(self.reader())
            .await
            .context("Failed to read the outbox")?;
            Ok(OutboxStats {
                pending,
                oldest_pending_created_at: oldest,
            })
        }

        fn pool_use(&self) -> PoolUse {
            PoolUse {
                open: self.reader().size(),
                idle: u32::try_from(self.reader().num_idle()).unwrap_or(u32::MAX),
            }
        }
    }
    sqlite {
        async fn close_idle_readers(&self) -> usize {
            // An in-memory database reads through its writer, which stays open.
            if self.file.is_none() {
                return 0;
            }
            let mut closed = 0;
            while let Some(connection) = self.reader().try_acquire() {
                let _ = connection.close().await;
                closed += 1;
            }
            closed
        }

        fn check_in_place(&self) -> anyhow::Result<()> {
            let Some((path, opened)) = &self.file else {
                return Ok(());
            };
            let now = std::fs::metadata(path)
                .with_context(|| format!("the database file {} is gone", path.display()))?;
            anyhow::ensure!(
                FileId::of(&now) == *opened,
                "the database file {} was replaced since start-up",
                path.display()
            );
            Ok(())
        }

        async fn snapshot_into(&self, path: &Path) -> anyhow::Result<()> {
            anyhow::ensure!(!path.exists(), "{} already exists", path.display());
            let target = path
                .to_str()
                .context("the backup path is not valid UTF-8")?;
            // VACUUM INTO reads in one transaction: a consistent copy while others write. On a
            // connection of its own, as it writes (the new file), which the readers may not, and
            // the writer stays free for the messages that arrive meanwhile.
            let mut connection = sqlx::SqliteConnection::connect_with(&self.writer().connect_options())
                .await
                .context("SQLite cannot open the database file")?;
            let result = sqlx::query("VACUUM INTO $1")
                .bind(target)
                .execute(&mut connection)
                .await
                .with_context(|| format!("Failed to write the snapshot {}", path.display()));
            let _ = connection.close().await;
            result?;
            // The tables a backup leaves out (the day's insights salt and seen-hashes) are emptied
            // in the copy, and the file rewritten so that no trace of them stays in free pages.
            let options = sqlx::sqlite::SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(false);
            let mut snapshot = sqlx::SqliteConnection::connect_with(&options)
                .await
                .with_context(|| format!("Failed to open the snapshot {}", path.display()))?;
            for table in crate::store::model::BACKUP_EXCLUDED_TABLES {
                sqlx::query(&format!("DELETE FROM {table}"))
                    .execute(&mut snapshot)
                    .await
                    .with_context(|| format!("Failed to leave {table} out of the snapshot"))?;
            }
            sqlx::query("VACUUM")
                .execute(&mut snapshot)
                .await
                .context("Failed to compact the snapshot")?;
            snapshot
                .close()
                .await
                .context("Failed to close the snapshot")?;
            Ok(())
        }
    }
    postgres {
        async fn snapshot_into(&self, path: &Path) -> anyhow::Result<()> {
            // The same portable SQLite file as on SQLite, from `db copy`'s consistent dump.
            let dump = self.dump().await.context("Failed to read the database")?;
            write_sqlite_snapshot(&dump, path)
                .await
                .with_context(|| format!("Failed to write the snapshot {}", path.display()))
        }
    }
}
