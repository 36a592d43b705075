//! What `db copy` moves: every row of every copied table, with the ids kept, which tables those
//! are, and the reads and writes that move them, written once for both engines. Apart from the
//! rows the engines read and write ([`super::model`]), as it gathers the row types of every
//! feature's store.

use anyhow::Context;
use sqlx::QueryBuilder;

use crate::config::database::Engine;
use crate::store::auth::PasskeyRow;
use crate::store::digest::{DigestSettingsRow, WeeklyDigestRow};
use crate::store::engines::{both_engines, Pools};
use crate::store::follow_ups::FollowUpRow;
use crate::store::insights::InsightsDayRow;
use crate::store::media::{MediaFileRow, MediaRow, ResumeRow};
use crate::store::replies::{DumpAttachment, MailboxStateRow, UnmatchedRow};

/// Every table `db copy` moves, parents first: its name (a field of [`Dump`]), its rows' type,
/// the columns written (the type's fields), the order its rows are read in, and a column written
/// with a fixed value (the one-row tables' id). `copied_tables!(then, args...)` hands the list to
/// the macro `then`, which makes something of each table: [`Dump`] and, below, the
/// reads and writes of `db copy`, the same text for both engines.
macro_rules! copied_tables {
    ($then:ident $(, $arg:ident)*) => {
        $then! { ($($arg),*)
            owner: DumpOwner [id, email, password_hash, created_at, updated_at] by "id";
            application_links: DumpLink [id, slug, company, role, note, language, expires_at,
                revoked_at, alert_open, alert_resume, alert_message, created_at, first_opened_at,
                last_activity_at, revision, resume, recipient_email, follow_up_days] by "id";
            application_link_counts: DumpLinkCount [link_id, day, kind, key, count]
                by "link_id, day, kind, key";
            contact_messages: DumpMessage [id, name, email, subject, message, form_name, created_at,
                is_read, is_spam, spam_reason, deleted_at, user_agent, search_text, link_id] by "id";
            message_replies: DumpReply [id, message_id, direction, mail_id, in_reply_to, refs,
                body, sent_text, from_address, subject, from_html, cut, mail_date, created_at]
                by "id";
            reply_attachments: DumpAttachment [id, reply_id, position, name, content_type, size,
                bytes] by "id";
            mailbox_state: MailboxStateRow [mailbox, uid_validity, last_uid, read_at, last_error,
                error_at] by "mailbox";
            unmatched_mail: UnmatchedRow [id, mail_id, mailbox, uid_validity, uid, from_address,
                subject, mail_date, reason, created_at] by "id";
            link_follow_ups: FollowUpRow [id, link_id, state, snoozed_until, mail_id, recipient,
                subject, body, message_id, answer_mail_id, created_at, updated_at] by "id";
            notification_outbox: DumpOutbox [id, message_id, channel, kind, attempts,
                next_attempt_at, leased_until, last_error, sent_at, gave_up_at, created_at,
                link_id, link_event, notice_entry, notice_subject, notice_text, reply_id,
                follow_up_id] by "id";
            sessions: DumpSession [token_hash, owner_id, created_at, last_seen_at, idle_expires_at,
                absolute_expires_at, browser, device, method, reauthenticated_at, passkey_id]
                by "token_hash";
            second_factor: DumpSecondFactor [owner_id, secret, created_at, enabled_at, last_step]
                by "owner_id";
            recovery_codes: DumpRecoveryCode [code_hash, owner_id, created_at, used_at]
                by "code_hash";
            passkeys: PasskeyRow [id, owner_id, credential_id, name, credential, created_at,
                last_used_at] by "id";
            sign_in_failures: DumpFailure [key, failures, last_failure_at, locked_until,
                prev_locked_until] by "key";
            auth_secrets: DumpSecret [name, value] by "name";
            secret_key: DumpSecretKey [key_id, created_at] by "id" fixed id = 1;
            insights_daily: InsightsDayRow [day, page_views, visitors, resume_downloads] by "day";
            insights_counts: DumpInsightsCount [day, kind, key, count] by "day, kind, key";
            content_entry_drafts: DumpContentDraft [kind, entry, document, revision, updated_at]
                by "kind, entry";
            content_entry_versions: DumpContentVersion [kind, entry, version, document,
                published_at, seq] by "seq";
            media_items: MediaRow [id, kind, name, width, height, bytes, created_at] by "id";
            media_files: MediaFileRow [path, media_id, content_type, width, data] by "path";
            media_resume: ResumeRow [data, sha256, uploaded_at] by "id" fixed id = 1;
            digest_settings: DigestSettingsRow [enabled, weekday, hour, updated_at] by "id"
                fixed id = 1;
            weekly_digests: WeeklyDigestRow [slot, slot_at, figures, skipped, created_at]
                by "slot";
        }
    };
}

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

/// What `db copy` needs of a store (see [`super::copy`]).
#[async_trait::async_trait]
pub trait CopyStore {
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

/// Reads every copied table ([`copied_tables!`]) in the transaction `tx`, into a [`Dump`].
macro_rules! read_tables {
    (($tx:ident) $($table:ident: $row:ident [$($column:ident),+] by $order:literal $(fixed $fixed:ident = $value:literal)?;)+) => {
        Dump {
            $($table: sqlx::query_as(concat!("SELECT * FROM ", stringify!($table), " ORDER BY ", $order))
                .fetch_all(&mut *$tx)
                .await
                .context(concat!("Failed to read ", stringify!($table)))?,)+
        }
    };
}

/// Writes every copied table of `dump` in the transaction `tx`, a hundred rows a statement.
macro_rules! write_tables {
    (($tx:ident, $dump:ident) $($table:ident: $row:ident [$first:ident $(, $column:ident)*] by $order:literal $(fixed $fixed:ident = $value:literal)?;)+) => {
        $(for rows in $dump.$table.chunks(100) {
            let mut query: QueryBuilder<<Self as Pools>::Db> = QueryBuilder::new(concat!(
                "INSERT INTO ", stringify!($table), " (", stringify!($first),
                $(", ", stringify!($column),)* $(", ", stringify!($fixed),)? ") "
            ));
            query.push_values(rows, |mut values, row| {
                values.push_bind(&row.$first);
                $(values.push_bind(&row.$column);)*
                $(values.push(stringify!($value));)?
            });
            query
                .build()
                .execute(&mut *$tx)
                .await
                .context(concat!("Failed to copy ", stringify!($table)))?;
        })+
    };
}

both_engines! {
    impl CopyStore {
        async fn tables(&self) -> anyhow::Result<Vec<String>> {
            sqlx::query_scalar(
                Self::dialect(
                    "SELECT name FROM sqlite_master WHERE type = 'table' \
                     AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\' AND name NOT LIKE '\\_sqlx\\_%' ESCAPE '\\' \
                     ORDER BY name",
                    "SELECT table_name::text FROM information_schema.tables \
                     WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' \
                     AND table_name NOT LIKE '\\_sqlx\\_%' ORDER BY table_name",
                ),
            )
            .fetch_all(self.reader())
            .await
            .context("Failed to list the tables")
        }

        async fn is_empty(&self) -> anyhow::Result<bool> {
            for table in COPIED_TABLES {
                let any: bool = sqlx::query_scalar(&format!("SELECT EXISTS (SELECT 1 FROM {table})"))
                    .fetch_one(self.reader())
                    .await
                    .with_context(|| format!("Failed to read {table}"))?;
                if any {
                    return Ok(false);
                }
            }
            Ok(true)
        }

        async fn dump(&self) -> anyhow::Result<Dump> {
            let mut tx = self
                .reader()
                .begin()
                .await
                .context("Failed to begin the dump")?;
            // One snapshot for every table, so that a dump taken while others write is consistent.
            if Self::ENGINE == Engine::Postgres {
                sqlx::query("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
                    .execute(&mut *tx)
                    .await
                    .context("Failed to begin the dump")?;
            }
            let dump = copied_tables!(read_tables, tx);
            tx.commit().await.context("Failed to end the dump")?;
            Ok(dump)
        }

        async fn load(&self, dump: &Dump, replace: bool) -> anyhow::Result<()> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin the copy")?;
            if replace {
                for table in COPIED_TABLES.iter().rev() {
                    sqlx::query(&format!("DELETE FROM {table}"))
                        .execute(&mut *tx)
                        .await
                        .with_context(|| format!("Failed to empty {table}"))?;
                }
            }
            copied_tables!(write_tables, tx, dump);
            // Ids made from now on continue after the highest one copied (on SQLite,
            // AUTOINCREMENT's counters follow the highest ids inserted by themselves).
            if Self::ENGINE == Engine::Postgres {
                for table in [
                    "contact_messages",
                    "notification_outbox",
                    "application_links",
                    "message_replies",
                    "reply_attachments",
                    "unmatched_mail",
                    "link_follow_ups",
                ] {
                    sqlx::query(&format!(
                        "SELECT setval(pg_get_serial_sequence('{table}', 'id'), \
                         COALESCE((SELECT MAX(id) FROM {table}), 0) + 1, false)"
                    ))
                    .execute(&mut *tx)
                    .await
                    .with_context(|| format!("Failed to move the id sequence of {table}"))?;
                }
            }
            tx.commit().await.context("Failed to commit the copy")?;
            Ok(())
        }
    }
}

row! {
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpOwner {
        pub id: i64,
        pub email: String,
        pub password_hash: String,
        pub created_at: i64,
        pub updated_at: i64,
    }
}

row! {
    #[derive(Debug, Clone, PartialEq, Eq)]
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
        pub link_id: Option<i64>,
    }
}

row! {
    /// An application link, every column.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpLink {
        pub id: i64,
        pub slug: String,
        pub company: String,
        pub role: String,
        pub note: String,
        pub language: String,
        pub expires_at: Option<i64>,
        pub revoked_at: Option<i64>,
        pub alert_open: bool,
        pub alert_resume: bool,
        pub alert_message: bool,
        pub created_at: i64,
        pub first_opened_at: Option<i64>,
        pub last_activity_at: Option<i64>,
        pub revision: i64,
        pub resume: Option<String>,
        pub recipient_email: Option<String>,
        pub follow_up_days: i64,
    }
}

row! {
    /// One day's count of an application link (the seen-hashes are never copied).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpLinkCount {
        pub link_id: i64,
        pub day: String,
        pub kind: String,
        pub key: String,
        pub count: i64,
    }
}

/// A reply or an answer, every column: the same row the conversation reads.
pub type DumpReply = crate::store::replies::ReplyRow;

/// An outbox row, every column: the same row the dashboard reads.
pub type DumpOutbox = crate::store::delivery::DeliveryRow;

row! {
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpSession {
        pub token_hash: String,
        pub owner_id: i64,
        pub created_at: i64,
        pub last_seen_at: i64,
        pub idle_expires_at: i64,
        pub absolute_expires_at: i64,
        pub browser: String,
        pub device: String,
        pub method: String,
        pub reauthenticated_at: i64,
        pub passkey_id: Option<String>,
    }
}

row! {
    /// The second factor's key, every column.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpSecondFactor {
        pub owner_id: i64,
        pub secret: Vec<u8>,
        pub created_at: i64,
        pub enabled_at: Option<i64>,
        pub last_step: i64,
    }
}

row! {
    /// A recovery code's hash, every column.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpRecoveryCode {
        pub code_hash: String,
        pub owner_id: i64,
        pub created_at: i64,
        pub used_at: Option<i64>,
    }
}

row! {
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpFailure {
        pub key: String,
        pub failures: i64,
        pub last_failure_at: i64,
        pub locked_until: i64,
        pub prev_locked_until: i64,
    }
}

row! {
    /// A server secret, sealed as it is stored (see `store::sealed`): a copy opens with the
    /// source's key.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpSecret {
        pub name: String,
        pub value: Vec<u8>,
    }
}

row! {
    /// The id of the key that sealed the secrets (never the key).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpSecretKey {
        pub key_id: String,
        pub created_at: i64,
    }
}

row! {
    /// One day's count of one key (the salts and seen-hashes are never copied).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpInsightsCount {
        pub day: String,
        pub kind: String,
        pub key: String,
        pub count: i64,
    }
}

row! {
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpContentDraft {
        pub kind: String,
        pub entry: String,
        pub document: String,
        pub revision: i64,
        pub updated_at: i64,
    }
}

row! {
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpContentVersion {
        pub kind: String,
        pub entry: String,
        pub version: i64,
        pub document: String,
        pub published_at: i64,
        pub seq: i64,
    }
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
        "pending_sign_ins",
        "password sign-ins waiting for their code, which lapse within five minutes",
    ),
    (
        "webauthn_used_challenges",
        "the passkey ceremonies finished, remembered only until they would have expired",
    ),
    (
        "sign_out_links",
        "the security notices' sign-out links, which lapse within a day",
    ),
    (
        "password_resets",
        "the one password-reset link that may be used, which lapses within half an hour",
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
    (
        "application_link_seen",
        "the day's salted hashes of the visitors (and sections) seen through application links, \
         deleted when the day ends; no backup holds them",
    ),
];
