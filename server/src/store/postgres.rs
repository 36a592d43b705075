//! The store on PostgreSQL: one database that several instances share, on a host whose own disk
//! may be thrown away. A 201 still means committed: the server keeps PostgreSQL's default
//! `synchronous_commit = on`, so a commit is flushed to the server's WAL before it returns.
//! Contact messages are committed in batches (`group_commit`, as on SQLite), so the messages that
//! arrive together share one flush.

use std::str::FromStr;
use std::time::Duration;

use anyhow::Context;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::PgPool;

use super::engines::Pools;
use super::group_commit::GroupCommit;
use crate::config::database::{DatabaseUrl, Engine};
use crate::rate_limit::RateLimit;

pub struct PgStore {
    pub(super) pool: PgPool,
    /// Contact messages, committed in batches, each batch on a connection of `pool`.
    pub(super) group_commit: GroupCommit,
    /// When this instance next forgets the contact counts whose windows have ended (Unix ms).
    next_limit_purge: std::sync::atomic::AtomicI64,
    pub(super) health: super::health::StorageHealth,
    /// Seals and opens the secrets once start-up has checked the key (see `sealed`).
    pub(super) sealer: std::sync::OnceLock<super::sealed::Sealer>,
}

/// How often an instance forgets the contact counts whose windows have ended.
const LIMIT_PURGE_EVERY_MS: i64 = 60_000;

impl PgStore {
    /// Connects and applies the embedded migrations (sqlx holds an advisory lock meanwhile, so
    /// instances starting together migrate once).
    pub async fn connect(url: &DatabaseUrl) -> anyhow::Result<Self> {
        let shown = url.redacted();
        let options = PgConnectOptions::from_str(url.expose()).map_err(|error| {
            anyhow::anyhow!(
                "database-url: {shown:?} is not a valid PostgreSQL URL ({})",
                scrub(&error.to_string(), url)
            )
        })?;
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(10))
            // A connection is given back to the pool only with no transaction left open on it.
            .after_release(|connection, _| {
                Box::pin(async move {
                    use sqlx::Connection;
                    Ok(!connection.is_in_transaction())
                })
            })
            .connect_with(options)
            .await
            .map_err(|error| {
                anyhow::anyhow!(
                    "database-url: cannot connect to {shown}: {}",
                    scrub(&error.to_string(), url)
                )
            })?;
        Self::migrator()
            .run(&pool)
            .await
            .context("Failed to apply the database migrations")?;
        Ok(Self {
            group_commit: GroupCommit::start::<Self>(pool.clone()),
            pool,
            next_limit_purge: std::sync::atomic::AtomicI64::new(0),
            health: Default::default(),
            sealer: std::sync::OnceLock::new(),
        })
    }

    /// Forgets the contact counts whose windows have ended, at most once a minute per instance
    /// and off the request's path: a request waits for no scan of the table. Rows another
    /// transaction holds are skipped (left for the next purge) rather than waited for: with every
    /// request deleting the ended windows in its own transaction, concurrent submissions from
    /// many clients queued on each other's row locks, and a minute into a burst the rate fell
    /// from about 1,000 to a few a second.
    fn purge_ended_limits(&self, now: i64) {
        use std::sync::atomic::Ordering;
        let due = self.next_limit_purge.load(Ordering::Relaxed);
        if now < due
            || self
                .next_limit_purge
                .compare_exchange(
                    due,
                    now + LIMIT_PURGE_EVERY_MS,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                )
                .is_err()
        {
            return;
        }
        let pool = self.pool.clone();
        tokio::spawn(async move {
            let purged = sqlx::query(
                "DELETE FROM contact_rate_limits WHERE (key, window_ms) IN ( \
                     SELECT key, window_ms FROM contact_rate_limits \
                     WHERE window_start + window_ms < $1 FOR UPDATE SKIP LOCKED)",
            )
            .bind(now)
            .execute(&pool)
            .await;
            if let Err(error) = purged {
                tracing::warn!(%error, "cannot forget ended contact counts; trying again in a minute");
            }
        });
    }
}

/// The driver's own messages, with the URL's password taken out should one quote it.
fn scrub(message: &str, url: &DatabaseUrl) -> String {
    match url::Url::parse(url.expose())
        .ok()
        .and_then(|u| u.password().map(str::to_owned))
    {
        Some(password) if !password.is_empty() => message.replace(&password, "***"),
        _ => message.to_owned(),
    }
}

impl PgStore {
    /// Counts a submission in the shared table (see [`crate::store::Store::take_submission_slot`]).
    pub(super) async fn count_submission(
        &self,
        client_key: &str,
        limits: &[RateLimit],
        now: i64,
    ) -> anyhow::Result<Option<Duration>> {
        // Fixed windows per limit, all counted by one statement (one round trip): each window's
        // upsert runs only when the one before it (a longer window) is within its limit, so that a
        // request the hourly limit refuses does not also spend a minute's allowance. A count is
        // not worth a flush of the WAL of its own: the statement's commit returns without waiting
        // for the disk (the message's own commit, which does wait, flushes it anyway). A crash of
        // PostgreSQL may forget the last fraction of a second's counts, which only lets those
        // clients send a few more. (A transaction of its own cost five round trips: BEGIN, SET
        // LOCAL, two upserts, COMMIT; issue 32.)
        let windows: Vec<(i64, i64)> = limits
            .iter()
            .map(|limit| {
                let window = i64::try_from(limit.window.as_millis()).unwrap_or(i64::MAX);
                (window, now - now.rem_euclid(window))
            })
            .collect();
        let statement = count_statement(limits.len());
        let mut query = sqlx::query(&statement).bind(client_key);
        for (limit, (window, start)) in limits.iter().zip(&windows) {
            query = query.bind(*window).bind(*start).bind(i64::from(limit.max));
        }
        let row = query
            .fetch_one(&self.pool)
            .await
            .context("Failed to count a submission")?;
        for (index, (limit, (window, start))) in limits.iter().zip(&windows).enumerate() {
            let hits: Option<i64> =
                sqlx::Row::try_get(&row, index + 1).context("Failed to read a submission count")?;
            if hits.is_some_and(|hits| hits > i64::from(limit.max)) {
                let wait = u64::try_from(start + window - now).unwrap_or(1);
                return Ok(Some(Duration::from_millis(wait.max(1))));
            }
        }
        self.purge_ended_limits(now);
        Ok(None)
    }
}

/// The statement that counts a submission in `limits` windows (see
/// [`PgStore::count_submission`]): `$1` the client, then each window's length, start and limit.
/// Its columns: `set_config`'s, then each window's hits (NULL when a longer one refused first).
fn count_statement(limits: usize) -> String {
    let mut counts = Vec::with_capacity(limits);
    for i in 0..limits {
        let (window, start) = (3 * i + 2, 3 * i + 3);
        let source = match i.checked_sub(1) {
            None => format!("VALUES ($1, ${window}, ${start}, 1)"),
            Some(longer) => format!(
                "SELECT $1, ${window}, ${start}, 1 FROM c{longer} WHERE c{longer}.hits <= ${}",
                3 * longer + 4
            ),
        };
        counts.push(format!(
            "c{i} AS (INSERT INTO contact_rate_limits (key, window_ms, window_start, hits) \
             {source} ON CONFLICT (key, window_ms) DO UPDATE SET \
             hits = CASE WHEN contact_rate_limits.window_start = excluded.window_start \
             THEN contact_rate_limits.hits + 1 ELSE 1 END, \
             window_start = excluded.window_start RETURNING hits)"
        ));
    }
    let hits: String = (0..limits)
        .map(|i| format!(", (SELECT hits FROM c{i})"))
        .collect();
    let with = if counts.is_empty() {
        String::new()
    } else {
        format!("WITH {} ", counts.join(", "))
    };
    format!("{with}SELECT set_config('synchronous_commit', 'off', true){hits}")
}

impl super::sealed::HoldsSealer for PgStore {
    fn sealer_cell(&self) -> &std::sync::OnceLock<super::sealed::Sealer> {
        &self.sealer
    }
}

impl Pools for PgStore {
    type Db = sqlx::Postgres;
    type List<'a, T: 'a> = &'a [T];
    const ENGINE: Engine = Engine::Postgres;

    fn reader(&self) -> &sqlx::PgPool {
        &self.pool
    }

    fn writer(&self) -> &sqlx::PgPool {
        &self.pool
    }

    fn list<T: serde::Serialize>(items: &[T]) -> &[T] {
        items
    }

    fn migrator() -> &'static sqlx::migrate::Migrator {
        static MIGRATOR: std::sync::OnceLock<sqlx::migrate::Migrator> = std::sync::OnceLock::new();
        super::migrations::migrator(&crate::embedded::POSTGRES_MIGRATIONS, &MIGRATOR)
    }
}
