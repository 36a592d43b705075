//! Storage: what the application needs from a database, said once in the [`Store`] trait, and one
//! module per engine that opens it ([`sqlite`], [`postgres`]). Each query is written once for both
//! engines (see `engines`): beside its trait, or for [`Store`] itself in `queries`. The rest of
//! the server holds a [`Db`] (a shared `dyn Store`) and never names an engine; the URL alone
//! picks one.
//!
//! Every method is a small named query (or a few, in one transaction). Times are Unix
//! milliseconds, UTC, from the server's clock, stored as 64-bit integers on both engines.

pub mod content;
pub mod copy;
pub mod delivery;
mod dump;
mod engines;
pub mod fault;
pub mod health;
pub mod insights;
pub mod media;
mod message;
mod model;
pub mod ops;
pub mod postgres;
mod queries;
pub mod spam;
pub mod sqlite;
pub mod url;

use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;

use crate::rate_limit::RateLimit;

pub use content::ContentStore;
pub use delivery::DeliveryStore;
pub use dump::*;
pub use insights::InsightsStore;
pub use media::MediaStore;
pub use model::*;
pub use ops::OpsStore;
pub use url::{DatabaseUrl, Engine};

/// The store every part of the server shares.
pub type Db = Arc<dyn Store>;

/// Opens the database the URL names (creating a SQLite file and its folder when missing) and
/// applies that engine's embedded migrations. Errors name the `database-url` setting and never
/// show a password.
pub async fn connect(url: &str) -> anyhow::Result<Db> {
    connect_tuned(url, sqlite::SqliteTuning::default()).await
}

/// [`connect`], with SQLite opened as `tuning` says (ignored on PostgreSQL).
pub async fn connect_tuned(url: &str, tuning: sqlite::SqliteTuning) -> anyhow::Result<Db> {
    let url = DatabaseUrl::parse(url)?;
    Ok(match url.engine() {
        Engine::Sqlite => Arc::new(sqlite::SqliteStore::connect(&url, tuning).await?),
        Engine::Postgres => Arc::new(postgres::PgStore::connect(&url).await?),
    })
}

/// What the application needs from storage.
#[async_trait]
pub trait Store:
    spam::SpamStore
    + OpsStore
    + DeliveryStore
    + InsightsStore
    + ContentStore
    + MediaStore
    + Send
    + Sync
    + 'static
{
    /// `sqlite` or `postgres`, for logs and messages.
    fn engine(&self) -> Engine;

    /// Answers when the database does.
    async fn ping(&self) -> anyhow::Result<()>;

    /// Waits for open work and closes every connection.
    async fn close(&self);

    /// Whether [`Store::close`] has run.
    fn is_closed(&self) -> bool;

    // --- Contact messages and the notification outbox ---

    /// Stores a message and, when asked and unless it is spam, its notification in the outbox, in
    /// one transaction that also uses up its proofs ([`model::UsedProofs`]) and, for the first
    /// message the ceiling holds in an hour, queues the owner's notice of it (kind `ceiling`).
    /// Returns the new message's id once the transaction is committed (on disk).
    async fn insert_message(&self, new: &NewMessage<'_>) -> anyhow::Result<model::Inserted>;

    /// What group commit has done, on an engine that batches contact messages (SQLite).
    fn group_commit_stats(&self) -> Option<GroupCommitStats> {
        None
    }

    /// Every message that is neither spam nor deleted, oldest first.
    async fn messages_for_export(&self) -> anyhow::Result<Vec<ExportRow>>;

    /// Counts one contact submission from a client (a salted hash of its address) against
    /// `limits` (the same on every call of a process); when over one, how long until the next
    /// submission is allowed. Counted where every instance on this database sees it: in memory
    /// for SQLite (one instance), in a table for PostgreSQL.
    async fn take_submission_slot(
        &self,
        client_key: &str,
        limits: &[RateLimit],
        now: i64,
    ) -> anyhow::Result<Option<Duration>>;

    // --- The owner's inbox ---

    /// One page of a folder, newest first; `limit + 1` rows are read so the caller knows whether
    /// another page follows. `search` matches any of name, e-mail, subject and message, ignoring
    /// case for every letter.
    async fn list_messages(
        &self,
        folder: Folder,
        search: Option<&str>,
        cursor: Option<Cursor>,
        limit: i64,
    ) -> anyhow::Result<Vec<MessageRow>>;

    /// Unread messages in the inbox folder.
    async fn unread_count(&self) -> anyhow::Result<i64>;

    async fn find_message(&self, id: i64) -> anyhow::Result<Option<MessageRow>>;

    /// Changes what is given; returns whether the message exists.
    async fn update_message(&self, id: i64, change: MessageChange) -> anyhow::Result<bool>;

    /// Deletes the message for good; returns whether it existed.
    async fn delete_message(&self, id: i64) -> anyhow::Result<bool>;

    // --- The owner account ---

    async fn owner_exists(&self) -> anyhow::Result<bool>;

    /// The owner, found by e-mail ignoring case.
    async fn find_owner_by_email(&self, email: &str) -> anyhow::Result<Option<OwnerRow>>;

    async fn find_owner_by_id(&self, id: i64) -> anyhow::Result<Option<OwnerRow>>;

    /// Creates the owner, or replaces the owner's e-mail and password. Returns the owner's id.
    async fn upsert_owner(&self, email: &str, password_hash: &str, now: i64)
        -> anyhow::Result<i64>;

    /// Creates the owner only when there is none; true when it did.
    async fn insert_owner_if_none(
        &self,
        email: &str,
        password_hash: &str,
        now: i64,
    ) -> anyhow::Result<bool>;

    async fn set_owner_password(
        &self,
        id: i64,
        password_hash: &str,
        now: i64,
    ) -> anyhow::Result<()>;

    // --- Sessions (stored by the hash of their token) ---

    async fn insert_session(&self, session: &NewSession<'_>) -> anyhow::Result<()>;

    /// The session with this token hash, with its owner, if it has expired in neither way.
    async fn find_valid_session(
        &self,
        token_hash: &str,
        now: i64,
    ) -> anyhow::Result<Option<SessionRow>>;

    /// Pushes the idle expiry forward (never past the absolute one).
    async fn touch_session(
        &self,
        token_hash: &str,
        now: i64,
        idle_expires_at: i64,
    ) -> anyhow::Result<()>;

    async fn delete_session(&self, token_hash: &str) -> anyhow::Result<()>;

    /// Deletes every session of the owner but `keep` (when given); returns how many.
    async fn delete_owner_sessions(&self, owner_id: i64, keep: Option<&str>)
        -> anyhow::Result<u64>;

    async fn delete_expired_sessions(&self, now: i64) -> anyhow::Result<()>;

    // --- The sign-in throttle's counters ---

    async fn sign_in_failures(&self, key: &str) -> anyhow::Result<Option<FailureRow>>;

    /// Counts one sign-in attempt for the key in one statement, before its password is checked.
    /// While the key is locked, nothing changes and the attempt is not admitted. Otherwise it is
    /// admitted and the count goes up by one (starting again from one when the last attempt is
    /// `forget_after_ms` old); from `free_failures` on, the key is locked for
    /// `first_lock_ms << (count - free_failures)`, at most `max_lock_ms`, from this attempt on.
    /// Parallel calls each count, on every instance, so at most the free ones are admitted.
    async fn count_sign_in_attempt(
        &self,
        key: &str,
        now: i64,
        policy: &ThrottlePolicy,
    ) -> anyhow::Result<AttemptCount>;

    /// Forgets the counters whose last attempt is older than `before` and that lock nothing.
    async fn purge_sign_in_failures(&self, before: i64, now: i64) -> anyhow::Result<u64>;

    async fn clear_sign_in_failures(&self, keys: &[&str]) -> anyhow::Result<()>;

    async fn clear_all_sign_in_failures(&self) -> anyhow::Result<()>;

    // --- The server's own secrets ---

    /// The named secret, made from 32 random bytes the first time any instance asks for it.
    async fn secret(&self, name: &str) -> anyhow::Result<Vec<u8>>;

    // --- Moving data between stores (see [`copy`]) ---

    /// The tables of this store's schema, migrations' bookkeeping left out, sorted.
    async fn tables(&self) -> anyhow::Result<Vec<String>>;

    /// Whether no table that `db copy` fills holds a row.
    async fn is_empty(&self) -> anyhow::Result<bool>;

    /// Reads every row that `db copy` moves.
    async fn dump(&self) -> anyhow::Result<Dump>;

    /// Writes the rows in one transaction, keeping their ids, so that ids made afterwards
    /// continue after the highest; with `replace`, first empties every table `db copy` fills.
    async fn load(&self, dump: &Dump, replace: bool) -> anyhow::Result<()>;
}
