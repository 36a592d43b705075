//! What `db copy` moves: every row of every copied table, with the ids kept, and which tables
//! those are. Apart from the rows the engines read and write ([`super::model`]), as it gathers
//! the row types of every feature's store.

use crate::store::content::{DraftRow, VersionRow};
use crate::store::insights::InsightsDayRow;
use crate::store::media::{MediaFileRow, MediaRow, ResumeRow};

/// Every table `db copy` moves, parents first: its name (a field of [`Dump`]), its rows' type,
/// the columns written (the type's fields), the order its rows are read in, and a column written
/// with a fixed value (the one-row tables' id). `copied_tables!(then, args...)` hands the list to
/// the macro `then`, which makes something of each table: [`Dump`] here, and in `queries.rs` the
/// reads and writes of `db copy`, the same text for both engines.
macro_rules! copied_tables {
    ($then:ident $(, $arg:ident)*) => {
        $then! { ($($arg),*)
            owner: DumpOwner [id, email, password_hash, created_at, updated_at] by "id";
            contact_messages: DumpMessage [id, name, email, subject, message, form_name, created_at,
                is_read, is_spam, spam_reason, deleted_at, user_agent, search_text] by "id";
            notification_outbox: DumpOutbox [id, message_id, channel, kind, attempts,
                next_attempt_at, leased_until, last_error, sent_at, gave_up_at, created_at] by "id";
            sessions: DumpSession [token_hash, owner_id, created_at, last_seen_at, idle_expires_at,
                absolute_expires_at] by "token_hash";
            sign_in_failures: DumpFailure [key, failures, last_failure_at, locked_until,
                prev_locked_until] by "key";
            auth_secrets: DumpSecret [name, value] by "name";
            insights_daily: InsightsDayRow [day, page_views, visitors, resume_downloads] by "day";
            insights_counts: DumpInsightsCount [day, kind, key, count] by "day, kind, key";
            content_draft: DraftRow [document, revision, updated_at] by "id" fixed id = 1;
            content_versions: VersionRow [version, document, published_at] by "version";
            media_items: MediaRow [id, kind, name, width, height, bytes, created_at] by "id";
            media_files: MediaFileRow [path, media_id, content_type, width, data] by "path";
            media_resume: ResumeRow [data, sha256, uploaded_at] by "id" fixed id = 1;
        }
    };
}
pub(crate) use copied_tables;

macro_rules! dump_type {
    (() $($table:ident: $row:ident [$($column:ident),+] by $order:literal $(fixed $fixed:ident = $value:literal)?;)+) => {
        /// Every row `db copy` moves, table by table, with the ids kept.
        #[derive(Debug, Clone, Default, PartialEq, Eq)]
        pub struct Dump {
            $(pub $table: Vec<$row>,)+
        }

        impl Dump {
            /// Rows per table, for the command's report.
            pub fn counts(&self) -> Vec<(&'static str, usize)> {
                vec![$((stringify!($table), self.$table.len())),+]
            }
        }

        /// The tables `db copy` moves, in the order they are written (parents first).
        pub const COPIED_TABLES: &[&str] = &[$(stringify!($table)),+];
    };
}
copied_tables!(dump_type);

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DumpOwner {
    pub id: i64,
    pub email: String,
    pub password_hash: String,
    pub created_at: i64,
    pub updated_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DumpMessage {
    pub id: i64,
    pub name: String,
    pub email: String,
    pub subject: String,
    pub message: String,
    pub form_name: String,
    pub created_at: i64,
    pub is_read: bool,
    pub is_spam: bool,
    pub spam_reason: Option<String>,
    pub deleted_at: Option<i64>,
    pub user_agent: Option<String>,
    pub search_text: String,
}

/// An outbox row, every column: the same row the dashboard reads.
pub type DumpOutbox = crate::store::delivery::DeliveryRow;

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DumpSession {
    pub token_hash: String,
    pub owner_id: i64,
    pub created_at: i64,
    pub last_seen_at: i64,
    pub idle_expires_at: i64,
    pub absolute_expires_at: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DumpFailure {
    pub key: String,
    pub failures: i64,
    pub last_failure_at: i64,
    pub locked_until: i64,
    pub prev_locked_until: i64,
}

#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DumpSecret {
    pub name: String,
    pub value: Vec<u8>,
}

/// One day's count of one key (the salts and seen-hashes are never copied).
#[derive(Debug, Clone, PartialEq, Eq, sqlx::FromRow)]
pub struct DumpInsightsCount {
    pub day: String,
    pub kind: String,
    pub key: String,
    pub count: i64,
}

/// Tables `db copy` leaves out on purpose, each with the reason.
pub const UNCOPIED_TABLES: &[(&str, &str)] = &[
    (
        "contact_rate_limits",
        "per-visitor counters that lapse within the hour",
    ),
    (
        "spam_used_challenges",
        "used proof-of-work challenges, remembered only until they expire",
    ),
    (
        "spam_used_tokens",
        "used form tokens, remembered only until they expire",
    ),
    (
        "spam_ceiling_hours",
        "the hours in which the owner was told of the ceiling; a copy starts afresh",
    ),
    (
        "ops_leases",
        "which instance takes the scheduled backup; each database keeps its own",
    ),
    (
        "insights_salts",
        "the day's salt for counting visitors, deleted when the day ends; no backup holds it",
    ),
    (
        "insights_seen",
        "the day's salted visitor hashes, deleted when the day ends; no backup holds them",
    ),
];
