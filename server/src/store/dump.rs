//! What `db copy` moves: every row of every copied table, with the ids kept, and which tables
//! those are. Apart from the rows the engines read and write ([`super::model`]), as it gathers
//! the row types of every feature's store.

/// Every row `db copy` moves, table by table, with the ids kept.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dump {
    pub owner: Vec<DumpOwner>,
    pub contact_messages: Vec<DumpMessage>,
    pub notification_outbox: Vec<DumpOutbox>,
    pub sessions: Vec<DumpSession>,
    pub sign_in_failures: Vec<DumpFailure>,
    pub auth_secrets: Vec<DumpSecret>,
    pub insights_daily: Vec<crate::store::insights::InsightsDayRow>,
    pub insights_counts: Vec<DumpInsightsCount>,
    pub content_draft: Vec<crate::store::content::DraftRow>,
    pub content_versions: Vec<crate::store::content::VersionRow>,
    pub media_items: Vec<crate::store::media::MediaRow>,
    pub media_files: Vec<crate::store::media::MediaFileRow>,
    pub media_resume: Vec<crate::store::media::ResumeRow>,
}

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

impl Dump {
    /// Rows per table, for the command's report.
    pub fn counts(&self) -> [(&'static str, usize); 13] {
        [
            ("owner", self.owner.len()),
            ("contact_messages", self.contact_messages.len()),
            ("notification_outbox", self.notification_outbox.len()),
            ("sessions", self.sessions.len()),
            ("sign_in_failures", self.sign_in_failures.len()),
            ("auth_secrets", self.auth_secrets.len()),
            ("insights_daily", self.insights_daily.len()),
            ("insights_counts", self.insights_counts.len()),
            ("content_draft", self.content_draft.len()),
            ("content_versions", self.content_versions.len()),
            ("media_items", self.media_items.len()),
            ("media_files", self.media_files.len()),
            ("media_resume", self.media_resume.len()),
        ]
    }
}

/// The tables `db copy` moves, in the order they are written (parents first).
pub const COPIED_TABLES: [&str; 13] = [
    "owner",
    "contact_messages",
    "notification_outbox",
    "sessions",
    "sign_in_failures",
    "auth_secrets",
    "insights_daily",
    "insights_counts",
    "content_draft",
    "content_versions",
    "media_items",
    "media_files",
    "media_resume",
];

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
