//! Group commit of contact messages, written once for both engines: the messages that arrive
//! together are inserted in one transaction, so they share one flush of the log (SQLite's WAL
//! with `synchronous = FULL`, PostgreSQL's WAL with `synchronous_commit = on`), and each request
//! is answered only after the commit that holds its message. A batch that fails is retried one
//! message at a time, so a bad row fails only its own request; one that fails for the database's
//! own reasons (gone, full: [`super::fault`]) is not, its messages and those queued meanwhile are
//! answered `503` at once.
//!
//! Each store starts one writer task ([`GroupCommit::start`]) on its writer pool: SQLite's one
//! connection, a connection of PostgreSQL's pool. Several instances sharing one PostgreSQL each
//! batch their own requests.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use anyhow::Context;
use tokio::sync::{mpsc, oneshot};

use super::message::{PendingMessage, StoreMessage};
use super::model::{GroupCommitStats, Inserted, NewMessage};

/// The most messages in one transaction: a burst larger than this is committed in several.
const MAX_BATCH: usize = 256;

/// Messages waiting for the writer, at most: beyond it a request waits to join the queue.
const QUEUE: usize = 4096;

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
pub(super) struct GroupCommit {
    queue: mpsc::Sender<Job>,
    counters: Arc<Counters>,
}

impl GroupCommit {
    /// Starts the task that commits the queued messages through `writer`, the store `S`'s.
    pub(super) fn start<S: StoreMessage + 'static>(writer: sqlx::Pool<S::Db>) -> Self {
        let (queue, jobs) = mpsc::channel(QUEUE);
        let counters = Arc::new(Counters::default());
        tokio::spawn(run::<S>(writer, jobs, counters.clone()));
        Self { queue, counters }
    }

    /// Queues the message and waits for the commit of the batch that holds it; returns its id.
    pub(super) async fn insert(&self, new: &NewMessage<'_>) -> anyhow::Result<Inserted> {
        let (done, committed) = oneshot::channel();
        self.counters.waiting.fetch_add(1, Ordering::Relaxed);
        let _waiting = Waiting(&self.counters);
        self.queue
            .send(Job {
                row: PendingMessage::new(new),
                done,
            })
            .await
            .map_err(|_| anyhow::anyhow!("The contact writer has stopped"))?;
        committed
            .await
            .context("The contact writer stopped before the commit")?
    }

    pub(super) fn stats(&self) -> GroupCommitStats {
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
async fn run<S: StoreMessage>(
    writer: sqlx::Pool<S::Db>,
    mut jobs: mpsc::Receiver<Job>,
    counters: Arc<Counters>,
) {
    let mut batch = Vec::with_capacity(MAX_BATCH);
    while jobs.recv_many(&mut batch, MAX_BATCH).await > 0 {
        if let Some(unavailable) = commit::<S>(&writer, std::mem::take(&mut batch), &counters).await
        {
            // The messages that queued while the batch waited for the database are refused
            // with it at once: each batch would wait as long again (on PostgreSQL, the pool's
            // `acquire_timeout` while the server is down), and the requests at the queue's end
            // would outlast the request timeout.
            while let Ok(job) = jobs.try_recv() {
                let _ = job.done.send(Err(unavailable.refuse()));
            }
        }
    }
}

/// The error of a batch that the database could not take for its own reasons (gone, full),
/// shared by the answers of the messages it refuses: each keeps the cause in its chain, so each
/// is answered as the storage's fault (`503`, see [`super::fault`]).
#[derive(Debug, Clone)]
struct Unavailable(Arc<anyhow::Error>);

impl Unavailable {
    fn refuse(&self) -> anyhow::Error {
        anyhow::Error::new(self.clone())
    }
}

impl std::fmt::Display for Unavailable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("The database cannot take contact messages now")
    }
}

impl std::error::Error for Unavailable {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&**self.0)
    }
}

/// Commits the batch and answers each of its requests; the error when the database could not
/// take it for its own reasons.
#[tracing::instrument(skip_all, fields(messages = jobs.len()))]
async fn commit<S: StoreMessage>(
    writer: &sqlx::Pool<S::Db>,
    jobs: Vec<Job>,
    counters: &Counters,
) -> Option<Unavailable> {
    match insert_all::<S>(writer, jobs.iter().map(|job| &job.row)).await {
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
        // Not a bad row but the database (gone, full): each message alone would meet it again,
        // and on PostgreSQL wait for it as long as the batch did.
        Err(error) if super::fault::is_storage_unavailable(&error) => {
            let unavailable = Unavailable(Arc::new(error));
            for job in jobs {
                let _ = job.done.send(Err(unavailable.refuse()));
            }
            return Some(unavailable);
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
                let result = insert_all::<S>(writer, std::iter::once(&job.row))
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
    None
}

/// Stores the messages in one transaction ([`StoreMessage`]); what was stored once it is
/// committed.
async fn insert_all<'a, S: StoreMessage>(
    writer: &sqlx::Pool<S::Db>,
    rows: impl ExactSizeIterator<Item = &'a PendingMessage>,
) -> anyhow::Result<Vec<Inserted>> {
    let mut stored = Vec::with_capacity(rows.len());
    // On SQLite, IMMEDIATE takes the write lock at once: another process (a backup, `db copy`)
    // makes it wait in busy_timeout here rather than fail half-way.
    let mut tx = writer
        .begin_with(S::dialect("BEGIN IMMEDIATE", "BEGIN"))
        .await
        .context("Failed to begin the contact transaction")?;
    for row in rows {
        stored.push(S::store_message(&mut tx, row).await?);
    }
    tx.commit()
        .await
        .context("Failed to commit the contact messages")?;
    Ok(stored)
}
