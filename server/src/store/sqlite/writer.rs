//! Group commit on SQLite's one writer connection: contact messages that arrive together are
//! inserted in one transaction, so they share one fsync, and each is acknowledged only after the
//! commit that holds it. A batch that fails is retried one message at a time, so a bad row fails
//! only its own request.
//!
//! SQLite has one write lock per database; several connections that write meet `SQLITE_BUSY` and
//! wait their turn in `busy_timeout`'s sleeps, which makes the latency's tail. So every write of
//! the store goes through one connection (a pool of one, [`open_writer`]), and the reads through
//! a pool of their own that cannot write (`query_only`).

use std::str::FromStr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;
use sqlx::sqlite::{SqliteConnectOptions, SqlitePoolOptions};
use sqlx::SqlitePool;
use tokio::sync::{mpsc, oneshot};

use crate::store::message::{PendingMessage, StoreMessage};
use crate::store::model::{GroupCommitStats, Inserted, NewMessage};
use crate::store::sqlite::SqliteStore;

/// The most messages in one transaction: a burst larger than this is committed in several.
const MAX_BATCH: usize = 256;

/// Messages waiting for the writer, at most: beyond it a request waits to join the queue.
const QUEUE: usize = 4096;

/// The pool of one connection through which every write goes; kept open for the process's life,
/// unless a failed transaction leaves it unclean (see [`clean_or_replace`]).
pub(super) async fn open_writer(options: SqliteConnectOptions) -> sqlx::Result<SqlitePool> {
    SqlitePoolOptions::new()
        .max_connections(1)
        .min_connections(1)
        .idle_timeout(None)
        .max_lifetime(None)
        .after_release(|connection, _| Box::pin(clean_or_replace(connection)))
        .connect_with(options)
        .await
}

/// Keeps a connection given back to its pool only when no transaction is left open on it.
///
/// When a write fails for lack of room or an I/O error, SQLite may roll the transaction back by
/// itself (`SQLITE_FULL`, `SQLITE_IOERR`); the driver does not know, its `ROLLBACK` then fails
/// ("no transaction is active") and it goes on counting a transaction that is gone, so every
/// later `BEGIN` on that connection failed until a restart. The ping waits for the rollback a
/// dropped transaction queued; a connection still counting one is closed, and the pool opens a
/// fresh one for the next write.
async fn clean_or_replace(connection: &mut sqlx::SqliteConnection) -> sqlx::Result<bool> {
    use sqlx::Connection;
    connection.ping().await?;
    let clean = !connection.is_in_transaction();
    if !clean {
        tracing::warn!("a failed transaction left the SQLite connection unclean: replacing it");
    }
    Ok(clean)
}

/// The pool that reads: `query_only`, so a write sent to it by mistake fails at once (a test
/// would see it) instead of competing with the writer for the lock.
pub(super) async fn open_readers(
    options: SqliteConnectOptions,
    connections: u32,
) -> sqlx::Result<SqlitePool> {
    SqlitePoolOptions::new()
        .max_connections(connections)
        .after_release(|connection, _| Box::pin(clean_or_replace(connection)))
        .connect_with(options.create_if_missing(false).pragma("query_only", "ON"))
        .await
}

/// Whether the URL names an in-memory database, which only one connection can see.
pub(super) fn in_memory(url: &str) -> bool {
    SqliteConnectOptions::from_str(url)
        .map(|o| o.get_filename() == std::path::Path::new(":memory:"))
        .unwrap_or(false)
}

struct Job {
    row: PendingMessage,
    done: oneshot::Sender<anyhow::Result<Inserted>>,
}

#[derive(Default)]
struct Counters {
    batches: AtomicU64,
    messages: AtomicU64,
    retried_batches: AtomicU64,
    waiting: AtomicU64,
}

/// The queue into the writer task; the task ends when this is dropped.
pub(in crate::store) struct GroupCommit {
    queue: mpsc::Sender<Job>,
    counters: Arc<Counters>,
}

impl GroupCommit {
    /// Starts the task that commits the queued messages through `writer`.
    pub(super) fn start(writer: SqlitePool) -> Self {
        let (queue, jobs) = mpsc::channel(QUEUE);
        let counters = Arc::new(Counters::default());
        tokio::spawn(run(writer, jobs, counters.clone()));
        Self { queue, counters }
    }

    /// Queues the message and waits for the commit of the batch that holds it; returns its id.
    pub(in crate::store) async fn insert(&self, new: &NewMessage<'_>) -> anyhow::Result<Inserted> {
        let (done, committed) = oneshot::channel();
        self.counters.waiting.fetch_add(1, Ordering::Relaxed);
        let _waiting = Waiting(&self.counters);
        self.queue
            .send(Job {
                row: PendingMessage::new(new),
                done,
            })
            .await
            .map_err(|_| anyhow::anyhow!("The SQLite writer has stopped"))?;
        committed
            .await
            .context("The SQLite writer stopped before the commit")?
    }

    pub(in crate::store) fn stats(&self) -> GroupCommitStats {
        GroupCommitStats {
            batches: self.counters.batches.load(Ordering::Relaxed),
            messages: self.counters.messages.load(Ordering::Relaxed),
            retried_batches: self.counters.retried_batches.load(Ordering::Relaxed),
            waiting: self.counters.waiting.load(Ordering::Relaxed),
        }
    }
}

/// Counts a request out of `waiting` however it ends (answered, failed or cancelled).
struct Waiting<'a>(&'a Counters);

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.0.waiting.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Takes whatever has queued up (at least one message, at most [`MAX_BATCH`]) and commits it;
/// what arrives meanwhile makes the next batch. No timer: a lone message is committed at once.
async fn run(writer: SqlitePool, mut jobs: mpsc::Receiver<Job>, counters: Arc<Counters>) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while jobs.recv_many(&mut batch, MAX_BATCH).await > 0 {
        commit(&writer, std::mem::take(&mut batch), &counters).await;
    }
}

#[tracing::instrument(skip_all, fields(messages = jobs.len()))]
async fn commit(writer: &SqlitePool, jobs: Vec<Job>, counters: &Counters) {
    match insert_all(writer, jobs.iter().map(|job| &job.row)).await {
        Ok(ids) => {
            counters.batches.fetch_add(1, Ordering::Relaxed);
            counters
                .messages
                .fetch_add(jobs.len() as u64, Ordering::Relaxed);
            for (job, id) in jobs.into_iter().zip(ids) {
                // A request that has gone away still has its message stored.
                let _ = job.done.send(Ok(id));
            }
        }
        Err(error) if jobs.len() == 1 => {
            if let Some(job) = jobs.into_iter().next() {
                let _ = job.done.send(Err(error));
            }
        }
        Err(error) => {
            tracing::warn!(
                error = format!("{error:#}"),
                messages = jobs.len(),
                "a batch of contact messages failed; committing each on its own"
            );
            counters.retried_batches.fetch_add(1, Ordering::Relaxed);
            for job in jobs {
                let result = insert_all(writer, std::iter::once(&job.row))
                    .await
                    .map(|stored| stored[0]);
                if result.is_ok() {
                    counters.batches.fetch_add(1, Ordering::Relaxed);
                    counters.messages.fetch_add(1, Ordering::Relaxed);
                }
                let _ = job.done.send(result);
            }
        }
    }
}

/// Stores the messages in one transaction ([`StoreMessage`]); what was stored once it is
/// committed.
async fn insert_all<'a>(
    writer: &SqlitePool,
    rows: impl ExactSizeIterator<Item = &'a PendingMessage>,
) -> anyhow::Result<Vec<Inserted>> {
    let mut stored = Vec::with_capacity(rows.len());
    // IMMEDIATE takes the write lock at once: another process (a backup, `db copy`) makes it
    // wait in busy_timeout here rather than fail half-way.
    let mut tx = writer
        .begin_with("BEGIN IMMEDIATE")
        .await
        .context("Failed to begin the contact transaction")?;
    for row in rows {
        stored.push(SqliteStore::store_message(&mut tx, row).await?);
    }
    tx.commit()
        .await
        .context("Failed to commit the contact messages")?;
    Ok(stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// SQLite ends a transaction by itself on some errors (`SQLITE_FULL` or `SQLITE_IOERR` at
    /// commit): the driver's rollback then fails and it goes on counting the transaction. A
    /// `ROLLBACK` sent inside the transaction puts the connection in that state on purpose.
    #[tokio::test]
    async fn a_transaction_sqlite_ended_itself_does_not_stop_the_next_write() {
        let dir = tempfile::tempdir().unwrap();
        let options = SqliteConnectOptions::new()
            .filename(dir.path().join("test.db"))
            .create_if_missing(true);
        let writer = open_writer(options).await.unwrap();
        sqlx::query("CREATE TABLE t (x INTEGER)")
            .execute(&writer)
            .await
            .unwrap();
        {
            let mut tx = writer.begin_with("BEGIN IMMEDIATE").await.unwrap();
            sqlx::query("INSERT INTO t VALUES (1)")
                .execute(&mut *tx)
                .await
                .unwrap();
            sqlx::query("ROLLBACK").execute(&mut *tx).await.unwrap();
            // Dropped without a commit, as after a failed one.
        }
        for n in 0..3 {
            let mut tx = writer
                .begin_with("BEGIN IMMEDIATE")
                .await
                .expect("the next transaction begins");
            sqlx::query("INSERT INTO t VALUES (?)")
                .bind(n)
                .execute(&mut *tx)
                .await
                .unwrap();
            tx.commit().await.unwrap();
        }
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM t")
            .fetch_one(&writer)
            .await
            .unwrap();
        assert_eq!(count, 3);
    }
}
