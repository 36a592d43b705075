//! The rows the store reads and writes, the same for every engine.

use crate::domain::{ContactForm, SpamReason};

/// The channel of e-mail notifications.
pub const EMAIL_CHANNEL: &str = "email";
/// The kind of an outbox row that tells about a contact message...
pub const KIND_MESSAGE: &str = "message";
/// ...of a test e-mail asked for from the dashboard (one attempt, then given up)...
pub const KIND_TEST: &str = "test";
/// ...of the notice that the site-wide ceiling held messages in Spam (one per clock hour)...
pub const KIND_CEILING: &str = "ceiling";
/// ...of an application link's alert (its first open, a resume download, a message)...
pub const KIND_LINK: &str = "link";
/// ...of a notice about the owner's content (a scheduled post gone live), its subject and
/// text written when it is queued...
pub const KIND_NOTICE: &str = "notice";
/// ...of the owner's reply to a message, sent to its visitor (on the e-mail channel)...
pub const KIND_REPLY: &str = "reply";
/// ...of the owner's notice of a visitor's answer, read from the site's mailbox...
pub const KIND_ANSWER: &str = "answer";
/// ...of a follow-up the owner sends to a link's recipient (on the e-mail channel)...
pub const KIND_FOLLOW_UP: &str = "follow_up";
/// ...and of the weekly digest, its subject and figures (JSON) in `notice_subject` and
/// `notice_text`.
pub const KIND_DIGEST: &str = "digest";

/// A contact message about to be stored.
#[derive(Debug, Clone)]
pub struct NewMessage<'a> {
    pub form: &'a ContactForm,
    /// Why the submission was judged spam; `None` for a real message.
    pub spam_reason: Option<&'a str>,
    pub user_agent: Option<&'a str>,
    /// Unix milliseconds, UTC, from the server's clock.
    pub created_at: i64,
    /// Queue an owner notification (ignored for spam).
    pub notify: bool,
    /// The channels it goes to, one outbox row each (see [`super::delivery`]).
    pub channels: &'a [String],
    /// The spam proofs it carried that passed their checks, used up with it.
    pub proofs: UsedProofs<'a>,
    /// The application link the visit came through, when the visitor may be counted: the
    /// message is stored with it if it is live (and counted for it, and alerted, when real).
    pub link: Option<LinkVisit<'a>>,
}

/// A message's application link as the page sent it, and the day (in the owner's time zone) to
/// count it on.
#[derive(Debug, Clone, Copy)]
pub struct LinkVisit<'a> {
    pub slug: &'a str,
    pub day: &'a str,
}

/// A form token and a solved challenge are each good for one message: they are recorded as used
/// in the transaction that stores the message, so a message that is not stored (a 4xx or 5xx
/// answer) uses up neither, and one sent again after an earlier was stored is a replay (stored
/// as spam, with `token-replayed` or `challenge-replayed`, unless an earlier check caught it).
/// Each is remembered until it expires.
#[derive(Debug, Clone, Copy, Default)]
pub struct UsedProofs<'a> {
    /// The form token's nonce, and when it expires (Unix milliseconds).
    pub token: Option<(&'a str, i64)>,
    /// The solved challenge's signature, and when it expires.
    pub challenge: Option<(&'a str, i64)>,
}

/// A stored message: its id, and the replay found in its transaction, if any (then its spam code).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Inserted {
    pub id: i64,
    pub replayed: Option<SpamReason>,
}

/// The clock hour of `at` (Unix milliseconds): the owner hears once per hour in which the
/// site-wide ceiling held messages in Spam.
pub fn ceiling_hour(at: i64) -> i64 {
    at.div_euclid(60 * 60 * 1000)
}

/// What the group commit has done since start-up, on either engine (see `store::group_commit`):
/// transactions of contact messages committed, the messages they held, and batches that failed
/// and were committed one message at a time; and the messages waiting for their commit now.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GroupCommitStats {
    pub batches: u64,
    pub messages: u64,
    pub retried_batches: u64,
    pub waiting: u64,
}

/// The text the inbox search looks in: every searched field, lower-cased by Rust's Unicode rules
/// (not the database's, which fold only ASCII in SQLite and nothing in PostgreSQL's `LIKE`).
pub fn search_text(name: &str, email: &str, subject: &str, message: &str) -> String {
    [name, email, subject, message].join("\n").to_lowercase()
}

/// The search as typed, folded the same way as [`search_text`].
pub fn search_needle(search: &str) -> String {
    search.to_lowercase()
}

row! {
    /// A message as exported: the fields of the original product's document.
    #[derive(Debug, Clone)]
    pub struct ExportRow {
        pub name: String,
        pub email: String,
        pub subject: String,
        pub message: String,
        pub form_name: String,
        pub created_at: i64,
        /// The application link it came through (`Acme, Frontend Developer`), if any.
        pub via: Option<String>,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folder {
    Inbox,
    Spam,
    Trash,
}

impl Folder {
    /// The folder as a condition on `contact_messages`, in SQL both engines read alike.
    pub fn condition(self) -> &'static str {
        match self {
            Self::Inbox => "is_spam = FALSE AND deleted_at IS NULL",
            Self::Spam => "is_spam = TRUE AND deleted_at IS NULL",
            Self::Trash => "deleted_at IS NOT NULL",
        }
    }
}

row! {
    #[derive(Debug, Clone)]
    pub struct MessageRow {
        pub id: i64,
        pub name: String,
        pub email: String,
        pub subject: String,
        pub message: String,
        pub created_at: i64,
        pub is_read: bool,
        pub is_spam: bool,
        pub spam_reason: Option<String>,
        pub deleted_at: Option<i64>,
        pub user_agent: Option<String>,
        /// The application link it came through, while that link exists.
        pub link_id: Option<i64>,
        pub link_company: Option<String>,
        pub link_role: Option<String>,
    }
}

/// The columns of [`MessageRow`], in order (the link's read by subqueries, so that the query
/// stays on `contact_messages` alone).
pub const MESSAGE_COLUMNS: &str =
    "id, name, email, subject, message, created_at, is_read, is_spam, spam_reason, deleted_at, \
     user_agent, link_id, \
     (SELECT l.company FROM application_links l WHERE l.id = contact_messages.link_id) AS link_company, \
     (SELECT l.role FROM application_links l WHERE l.id = contact_messages.link_id) AS link_role";

/// Where the previous page ended: the last message's time and id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cursor {
    pub created_at: i64,
    pub id: i64,
}

/// What to change about a message; `None` leaves a field as it is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct MessageChange {
    pub is_read: Option<bool>,
    pub is_spam: Option<bool>,
    /// `Some(None)` restores a deleted message; `Some(Some(t))` moves it to Trash at `t`.
    pub deleted_at: Option<Option<i64>>,
}

row! {
    #[derive(Debug, Clone)]
    pub struct OwnerRow {
        pub id: i64,
        pub email: String,
        pub password_hash: String,
    }
}

#[derive(Debug, Clone)]
pub struct NewSession<'a> {
    pub token_hash: &'a str,
    pub owner_id: i64,
    pub now: i64,
    pub idle_expires_at: i64,
    pub absolute_expires_at: i64,
    /// The browser's family and device class, as the session list shows them.
    pub browser: &'a str,
    pub device: &'a str,
    /// How it signed in: `password`, `password+code` or `passkey`.
    pub method: &'a str,
    /// The passkey it signed in with (its API id): removing that passkey ends the session.
    pub passkey_id: Option<&'a str>,
}

row! {
    #[derive(Debug, Clone)]
    pub struct SessionRow {
        pub owner_id: i64,
        pub email: String,
        pub last_seen_at: i64,
        pub absolute_expires_at: i64,
        /// When it last proved the password or a passkey (its sign-in counts).
        pub reauthenticated_at: i64,
    }
}

/// The numbers of the sign-in throttle, as the stores apply them in SQL.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ThrottlePolicy {
    /// Attempts counted before the first lock.
    pub free_failures: i64,
    /// The first lock; each further counted attempt doubles it...
    pub first_lock_ms: i64,
    /// ...up to this.
    pub max_lock_ms: i64,
    /// The count starts again from one this long after the last attempt.
    pub forget_after_ms: i64,
}

/// One counted sign-in attempt.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AttemptCount {
    /// Attempts counted so far, this one included.
    pub failures: i64,
    /// The key's lock after this attempt (0 when never locked).
    pub locked_until: i64,
    /// The key's lock before this attempt: it may go on only if that had ended.
    pub prev_locked_until: i64,
    /// Set by the store after the query: whether this attempt may go on.
    pub admitted: bool,
}

impl<'r, R: sqlx::Row> sqlx::FromRow<'r, R> for AttemptCount
where
    &'static str: sqlx::ColumnIndex<R>,
    i64: sqlx::Decode<'r, R::Database> + sqlx::Type<R::Database>,
{
    fn from_row(row: &'r R) -> Result<Self, sqlx::Error> {
        Ok(Self {
            failures: row.try_get("failures")?,
            locked_until: row.try_get("locked_until")?,
            prev_locked_until: row.try_get("prev_locked_until")?,
            admitted: false,
        })
    }
}

row! {
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    pub struct FailureRow {
        pub failures: i64,
        pub last_failure_at: i64,
        pub locked_until: i64,
    }
}

/// Tables that a SQLite backup (a copy of the whole file) empties: what no backup may hold.
pub const BACKUP_EXCLUDED_TABLES: [&str; 3] =
    ["insights_salts", "insights_seen", "application_link_seen"];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn search_folds_case_beyond_ascii() {
        let text = search_text("ÅSA Öberg", "A@B.C", "ÇA VA", "ДОБРЫЙ день");
        for needle in ["åsa", "öBERG", "a@b.c", "ça va", "добрый"] {
            assert!(text.contains(&search_needle(needle)), "{needle}");
        }
    }
}
