//! What replies need from storage: a message's conversation (the owner's replies and the
//! visitor's answers, with the answers' attachments), a reply stored with its outbox row, and the
//! site's mailbox read into it: where the reader is (`mailbox_state`), each mail filed into its
//! conversation or listed as unmatched, in one transaction with the reader's step forward.

use anyhow::Context;
use async_trait::async_trait;

use crate::store::delivery::{DeliveryRow, DELIVERY_COLUMNS};
use crate::store::engines::{both_engines, in_list, Pools};
use crate::store::model::{search_text, EMAIL_CHANNEL, KIND_ANSWER, KIND_MESSAGE, KIND_REPLY};

/// A reply's direction: the owner's, sent to the visitor.
pub const DIRECTION_REPLY: &str = "reply";
/// ...and the visitor's answer, read from the site's mailbox.
pub const DIRECTION_ANSWER: &str = "answer";

/// Why a mail of the site's mailbox was not filed: none of its references is a reply of ours...
pub const UNMATCHED_NO_REFERENCE: &str = "no-reference";
/// ...or it answers a reply of ours but comes from another address than the conversation's.
pub const UNMATCHED_OTHER_SENDER: &str = "other-sender";

row! {
    /// A reply or an answer, every column.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct ReplyRow {
        pub id: i64,
        pub message_id: i64,
        /// [`DIRECTION_REPLY`] or [`DIRECTION_ANSWER`].
        pub direction: String,
        /// The RFC 5322 Message-ID, without its angle brackets.
        pub mail_id: String,
        pub in_reply_to: Option<String>,
        /// The conversation's Message-IDs as a reply sent them, space-separated.
        pub refs: Option<String>,
        pub body: String,
        pub sent_text: Option<String>,
        pub from_address: Option<String>,
        pub subject: String,
        pub from_html: bool,
        pub cut: bool,
        pub mail_date: Option<i64>,
        pub created_at: i64,
    }
}

/// The columns of [`ReplyRow`], in order.
pub const REPLY_COLUMNS: &str = "id, message_id, direction, mail_id, in_reply_to, refs, body, \
     sent_text, from_address, subject, from_html, cut, mail_date, created_at";

row! {
    /// An answer's attachment as listed: whether its bytes were kept, not the bytes.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct AttachmentRow {
        pub id: i64,
        pub reply_id: i64,
        pub position: i64,
        pub name: String,
        pub content_type: String,
        pub size: i64,
        pub stored: bool,
    }
}

row! {
    /// An attachment's row, every column (what `db copy` moves).
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct DumpAttachment {
        pub id: i64,
        pub reply_id: i64,
        pub position: i64,
        pub name: String,
        pub content_type: String,
        pub size: i64,
        pub bytes: Option<Vec<u8>>,
    }
}

row! {
    /// Where the reader of a mailbox is, and how its last read went.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct MailboxStateRow {
        pub mailbox: String,
        pub uid_validity: i64,
        pub last_uid: i64,
        pub read_at: Option<i64>,
        pub last_error: Option<String>,
        pub error_at: Option<i64>,
    }
}

row! {
    /// A mail of the site's mailbox that belongs to no conversation.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct UnmatchedRow {
        pub id: i64,
        pub mail_id: String,
        pub mailbox: String,
        pub uid_validity: i64,
        pub uid: i64,
        pub from_address: Option<String>,
        pub subject: String,
        pub mail_date: Option<i64>,
        /// [`UNMATCHED_NO_REFERENCE`] or [`UNMATCHED_OTHER_SENDER`].
        pub reason: String,
        pub created_at: i64,
    }
}

/// The outbox row of a reply or an answer: its channel, kind, row and time, due at once.
const QUEUE_ROW: &str = "INSERT INTO notification_outbox \
     (channel, kind, reply_id, next_attempt_at, created_at) VALUES ($1, $2, $3, $4, $4)";

/// A reply of the owner's to store, with its outbox row.
#[derive(Debug, Clone)]
pub struct NewReply<'a> {
    pub message_id: i64,
    pub mail_id: &'a str,
    pub in_reply_to: &'a str,
    pub refs: &'a str,
    pub body: &'a str,
    pub sent_text: &'a str,
    pub created_at: i64,
}

/// An attachment of an answer: its bytes are `None` over the size limit (listed, not stored).
#[derive(Debug, Clone)]
pub struct NewAttachment<'a> {
    pub name: &'a str,
    pub content_type: &'a str,
    pub size: i64,
    pub bytes: Option<&'a [u8]>,
}

/// A mail read from the site's mailbox, to file.
#[derive(Debug, Clone)]
pub struct IncomingMail<'a> {
    pub mailbox: &'a str,
    pub uid_validity: i64,
    pub uid: i64,
    /// Its Message-ID, or `sha256:` and the digest of its bytes when it has none.
    pub mail_id: &'a str,
    /// Its In-Reply-To and References, the ids alone.
    pub references: &'a [String],
    /// Its sender's address, lower-cased.
    pub from_address: Option<&'a str>,
    pub subject: &'a str,
    pub body: &'a str,
    pub from_html: bool,
    pub cut: bool,
    pub mail_date: Option<i64>,
    pub attachments: &'a [NewAttachment<'a>],
    /// When it is filed (Unix ms).
    pub now: i64,
}

/// Where a mail is filed, as the transaction finds out.
enum Target {
    /// Into this message's conversation, as an answer.
    Conversation(i64),
    /// The first answer to this follow-up: a new message through its link.
    FirstAnswer { follow_up_id: i64, link_id: i64 },
    /// Listed as unmatched, for this reason.
    Unmatched(&'static str),
    /// Filed before.
    Already,
}

/// Where a mail went.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Filed {
    /// Into the conversation of `message_id`, as the answer `reply_id`.
    Answer { reply_id: i64, message_id: i64 },
    /// As a new message through a link: the first answer to the owner's follow-up.
    Message { message_id: i64 },
    /// Nowhere: listed as unmatched, for this reason.
    Unmatched(&'static str),
    /// It had been filed (or listed) already: nothing changed but the reader's step.
    Already,
}

#[async_trait]
pub trait ReplyStore: Send + Sync + 'static {
    /// The replies and answers of a message, oldest first.
    async fn conversation(&self, message_id: i64) -> anyhow::Result<Vec<ReplyRow>>;

    /// The attachments of these answers, by answer then position.
    async fn reply_attachments(&self, reply_ids: &[i64]) -> anyhow::Result<Vec<AttachmentRow>>;

    /// An attachment of a message's conversation: its name, type and bytes (none when it was
    /// over the limit); `None` when there is no such attachment in that conversation.
    async fn attachment(
        &self,
        message_id: i64,
        attachment_id: i64,
    ) -> anyhow::Result<Option<(String, String, Option<Vec<u8>>)>>;

    /// The outbox rows that send these replies, by reply.
    async fn deliveries_for_replies(&self, reply_ids: &[i64]) -> anyhow::Result<Vec<DeliveryRow>>;

    /// Stores a reply and its outbox row (on the e-mail channel), in one transaction; its id.
    async fn insert_reply(&self, reply: &NewReply<'_>) -> anyhow::Result<i64>;

    /// Where the reader of `mailbox` starts, given the UIDVALIDITY the server reports now: the
    /// last UID read, or 0 when the mailbox is new to it or was renumbered (its mails are then
    /// read again, and those filed before are recognised by their Message-ID).
    async fn mailbox_cursor(&self, mailbox: &str, uid_validity: i64) -> anyhow::Result<i64>;

    /// Files a mail, in one transaction with the reader's step past its UID: into the
    /// conversation whose reply it references (From the conversation's address), with an outbox
    /// row on each of `channels` to tell the owner and the message marked unread; or, for the
    /// first answer to a follow-up of ours (From its recipient), as a new message through its
    /// link, told as a message is (later answers to it go into that message's conversation);
    /// else listed as unmatched.
    async fn file_mail(
        &self,
        mail: &IncomingMail<'_>,
        channels: &[String],
    ) -> anyhow::Result<Filed>;

    /// Records how a read of `mailbox` went: `error` is `None` after a good one.
    async fn note_mailbox_read(
        &self,
        mailbox: &str,
        error: Option<&str>,
        now: i64,
    ) -> anyhow::Result<()>;

    /// Every mailbox's reader state.
    async fn mailbox_states(&self) -> anyhow::Result<Vec<MailboxStateRow>>;

    /// The unmatched mail, newest first, at most `limit`.
    async fn unmatched_mail(&self, limit: i64) -> anyhow::Result<Vec<UnmatchedRow>>;
}

both_engines! {
    impl ReplyStore {
        async fn conversation(&self, message_id: i64) -> anyhow::Result<Vec<ReplyRow>> {
            sqlx::query_as(&format!(
                "SELECT {REPLY_COLUMNS} FROM message_replies WHERE message_id = $1 \
                 ORDER BY created_at, id"
            ))
            .bind(message_id)
            .fetch_all(self.reader())
            .await
            .context("Failed to read a conversation")
        }

        async fn reply_attachments(&self, reply_ids: &[i64]) -> anyhow::Result<Vec<AttachmentRow>> {
            sqlx::query_as(in_list!(
                "SELECT id, reply_id, position, name, content_type, size, \
                        (bytes IS NOT NULL) AS stored \
                 FROM reply_attachments WHERE ",
                "reply_id",
                "$1",
                " ORDER BY reply_id, position"
            ))
            .bind(Self::list(reply_ids))
            .fetch_all(self.reader())
            .await
            .context("Failed to read the answers' attachments")
        }

        async fn attachment(
            &self,
            message_id: i64,
            attachment_id: i64,
        ) -> anyhow::Result<Option<(String, String, Option<Vec<u8>>)>> {
            sqlx::query_as(
                "SELECT a.name, a.content_type, a.bytes FROM reply_attachments a \
                 JOIN message_replies r ON r.id = a.reply_id \
                 WHERE a.id = $1 AND r.message_id = $2",
            )
            .bind(attachment_id)
            .bind(message_id)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read an attachment")
        }

        async fn deliveries_for_replies(&self, reply_ids: &[i64]) -> anyhow::Result<Vec<DeliveryRow>> {
            sqlx::query_as(&format!(
                "SELECT {DELIVERY_COLUMNS} FROM notification_outbox WHERE kind = '{KIND_REPLY}' AND {} \
                 ORDER BY reply_id, id",
                in_list!("", "reply_id", "$1"),
            ))
            .bind(Self::list(reply_ids))
            .fetch_all(self.reader())
            .await
            .context("Failed to read the replies' deliveries")
        }

        async fn insert_reply(&self, reply: &NewReply<'_>) -> anyhow::Result<i64> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin storing a reply")?;
            let id: i64 = sqlx::query_scalar(
                "INSERT INTO message_replies \
                 (message_id, direction, mail_id, in_reply_to, refs, body, sent_text, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
            )
            .bind(reply.message_id)
            .bind(DIRECTION_REPLY)
            .bind(reply.mail_id)
            .bind(reply.in_reply_to)
            .bind(reply.refs)
            .bind(reply.body)
            .bind(reply.sent_text)
            .bind(reply.created_at)
            .fetch_one(&mut *tx)
            .await
            .context("Failed to store a reply")?;
            sqlx::query(QUEUE_ROW)
            .bind(EMAIL_CHANNEL)
            .bind(KIND_REPLY)
            .bind(id)
            .bind(reply.created_at)
            .execute(&mut *tx)
            .await
            .context("Failed to queue a reply")?;
            tx.commit().await.context("Failed to commit a reply")?;
            Ok(id)
        }

        async fn mailbox_cursor(&self, mailbox: &str, uid_validity: i64) -> anyhow::Result<i64> {
            // A renumbered mailbox starts again from 0 under its new UIDVALIDITY.
            sqlx::query_scalar(
                "INSERT INTO mailbox_state (mailbox, uid_validity, last_uid) VALUES ($1, $2, 0) \
                 ON CONFLICT (mailbox) DO UPDATE SET \
                   last_uid = CASE WHEN mailbox_state.uid_validity = excluded.uid_validity \
                                   THEN mailbox_state.last_uid ELSE 0 END, \
                   uid_validity = excluded.uid_validity \
                 RETURNING last_uid",
            )
            .bind(mailbox)
            .bind(uid_validity)
            .fetch_one(self.writer())
            .await
            .context("Failed to read where the mailbox's reader is")
        }

        async fn file_mail(
            &self,
            mail: &IncomingMail<'_>,
            channels: &[String],
        ) -> anyhow::Result<Filed> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin filing a mail")?;
            // The step first: on SQLite the transaction then holds the write lock from its start.
            sqlx::query(
                "UPDATE mailbox_state SET last_uid = $3 \
                 WHERE mailbox = $1 AND uid_validity = $2 AND last_uid < $3",
            )
            .bind(mail.mailbox)
            .bind(mail.uid_validity)
            .bind(mail.uid)
            .execute(&mut *tx)
            .await
            .context("Failed to step the mailbox's reader")?;
            // The conversation of the latest reply of ours that the mail names.
            let conversation: Option<(i64, String)> = sqlx::query_as(&format!(
                "SELECT r.message_id, m.email FROM message_replies r \
                 JOIN contact_messages m ON m.id = r.message_id \
                 WHERE r.direction = '{DIRECTION_REPLY}' AND {} ORDER BY r.id DESC LIMIT 1",
                in_list!("", "r.mail_id", "$1"),
            ))
            .bind(Self::list(mail.references))
            .fetch_optional(&mut *tx)
            .await
            .context("Failed to find a mail's conversation")?;
            let from = mail.from_address.unwrap_or_default();
            let sender_is = |address: &str| !from.is_empty() && address.eq_ignore_ascii_case(from);
            let target = match conversation {
                Some((message_id, email)) if sender_is(&email) => Target::Conversation(message_id),
                Some(_) => Target::Unmatched(UNMATCHED_OTHER_SENDER),
                None => {
                    // Else a follow-up of ours: its first answer becomes a message through the
                    // link, later ones are filed into that message's conversation.
                    let follow_up: Option<(i64, i64, String, Option<i64>, Option<String>)> =
                        sqlx::query_as(&format!(
                            "SELECT id, link_id, recipient, message_id, answer_mail_id \
                             FROM link_follow_ups WHERE state = 'sent' AND {} \
                             ORDER BY id DESC LIMIT 1",
                            in_list!("", "mail_id", "$1"),
                        ))
                        .bind(Self::list(mail.references))
                        .fetch_optional(&mut *tx)
                        .await
                        .context("Failed to find a mail's follow-up")?;
                    match follow_up {
                        Some((_, _, recipient, _, _)) if !sender_is(&recipient) => {
                            Target::Unmatched(UNMATCHED_OTHER_SENDER)
                        }
                        Some((_, _, _, _, Some(first))) if first == mail.mail_id => Target::Already,
                        Some((_, _, _, Some(message_id), _)) => Target::Conversation(message_id),
                        Some((follow_up_id, link_id, _, None, _)) => {
                            Target::FirstAnswer { follow_up_id, link_id }
                        }
                        None => Target::Unmatched(UNMATCHED_NO_REFERENCE),
                    }
                }
            };
            let message_id = match target {
                Target::Conversation(message_id) => message_id,
                Target::Already => {
                    tx.commit().await.context("Failed to commit the reader's step")?;
                    return Ok(Filed::Already);
                }
                Target::FirstAnswer { follow_up_id, link_id } => {
                    let message_id: i64 = sqlx::query_scalar(
                        "INSERT INTO contact_messages (name, email, subject, message, form_name, \
                         created_at, is_spam, search_text, link_id) \
                         VALUES ($1, $1, $2, $3, 'follow-up', $4, FALSE, $5, $6) RETURNING id",
                    )
                    .bind(from)
                    .bind(mail.subject)
                    .bind(mail.body)
                    .bind(mail.now)
                    .bind(search_text(from, from, mail.subject, mail.body))
                    .bind(link_id)
                    .fetch_one(&mut *tx)
                    .await
                    .context("Failed to store an answer to a follow-up")?;
                    sqlx::query(
                        "UPDATE link_follow_ups SET message_id = $1, answer_mail_id = $2 WHERE id = $3",
                    )
                    .bind(message_id)
                    .bind(mail.mail_id)
                    .bind(follow_up_id)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to join an answer to its follow-up")?;
                    for channel in channels {
                        sqlx::query(
                            "INSERT INTO notification_outbox \
                             (message_id, channel, kind, next_attempt_at, created_at) \
                             VALUES ($1, $2, $3, $4, $4)",
                        )
                        .bind(message_id)
                        .bind(channel)
                        .bind(KIND_MESSAGE)
                        .bind(mail.now)
                        .execute(&mut *tx)
                        .await
                        .context("Failed to queue the owner's notice of an answer")?;
                    }
                    tx.commit().await.context("Failed to commit an answer to a follow-up")?;
                    return Ok(Filed::Message { message_id });
                }
                Target::Unmatched(reason) => {
                    let listed = sqlx::query(
                        "INSERT INTO unmatched_mail (mail_id, mailbox, uid_validity, uid, \
                         from_address, subject, mail_date, reason, created_at) \
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (mail_id) DO NOTHING",
                    )
                    .bind(mail.mail_id)
                    .bind(mail.mailbox)
                    .bind(mail.uid_validity)
                    .bind(mail.uid)
                    .bind(mail.from_address)
                    .bind(mail.subject)
                    .bind(mail.mail_date)
                    .bind(reason)
                    .bind(mail.now)
                    .execute(&mut *tx)
                    .await
                    .context("Failed to list an unmatched mail")?
                    .rows_affected();
                    tx.commit().await.context("Failed to commit an unmatched mail")?;
                    return Ok(if listed == 0 { Filed::Already } else { Filed::Unmatched(reason) });
                }
            };
            let reply_id: Option<i64> = sqlx::query_scalar(
                "INSERT INTO message_replies (message_id, direction, mail_id, body, from_address, \
                 subject, from_html, cut, mail_date, created_at) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) \
                 ON CONFLICT (mail_id) DO NOTHING RETURNING id",
            )
            .bind(message_id)
            .bind(DIRECTION_ANSWER)
            .bind(mail.mail_id)
            .bind(mail.body)
            .bind(mail.from_address)
            .bind(mail.subject)
            .bind(mail.from_html)
            .bind(mail.cut)
            .bind(mail.mail_date)
            .bind(mail.now)
            .fetch_optional(&mut *tx)
            .await
            .context("Failed to file an answer")?;
            let Some(reply_id) = reply_id else {
                tx.commit().await.context("Failed to commit the reader's step")?;
                return Ok(Filed::Already);
            };
            for (position, attachment) in mail.attachments.iter().enumerate() {
                sqlx::query(
                    "INSERT INTO reply_attachments (reply_id, position, name, content_type, size, bytes) \
                     VALUES ($1, $2, $3, $4, $5, $6)",
                )
                .bind(reply_id)
                .bind(i64::try_from(position).unwrap_or(i64::MAX))
                .bind(attachment.name)
                .bind(attachment.content_type)
                .bind(attachment.size)
                .bind(attachment.bytes)
                .execute(&mut *tx)
                .await
                .context("Failed to store an answer's attachment")?;
            }
            // An answer brings its conversation back to the inbox, unread, as a new message would.
            sqlx::query(
                "UPDATE contact_messages SET is_read = FALSE, deleted_at = NULL WHERE id = $1",
            )
            .bind(message_id)
            .execute(&mut *tx)
            .await
            .context("Failed to mark a message unread")?;
            for channel in channels {
                sqlx::query(QUEUE_ROW)
                .bind(channel)
                .bind(KIND_ANSWER)
                .bind(reply_id)
                .bind(mail.now)
                .execute(&mut *tx)
                .await
                .context("Failed to queue the owner's notice of an answer")?;
            }
            tx.commit().await.context("Failed to commit an answer")?;
            Ok(Filed::Answer { reply_id, message_id })
        }

        async fn note_mailbox_read(
            &self,
            mailbox: &str,
            error: Option<&str>,
            now: i64,
        ) -> anyhow::Result<()> {
            // A mailbox never read yet gets its row (UIDVALIDITY 0, which no server reports), so
            // that an error from the first connection on is kept too.
            sqlx::query(
                "INSERT INTO mailbox_state (mailbox, uid_validity, last_uid, read_at, last_error, error_at) \
                 VALUES ($1, 0, 0, CASE WHEN $3 IS NULL THEN $2 END, $3, CASE WHEN $3 IS NULL THEN NULL ELSE $2 END) \
                 ON CONFLICT (mailbox) DO UPDATE SET \
                   read_at = COALESCE(excluded.read_at, mailbox_state.read_at), \
                   last_error = excluded.last_error, error_at = excluded.error_at",
            )
            .bind(mailbox)
            .bind(now)
            .bind(error)
            .execute(self.writer())
            .await
                .context("Failed to record a read of the mailbox")?;
            Ok(())
        }

        async fn mailbox_states(&self) -> anyhow::Result<Vec<MailboxStateRow>> {
            sqlx::query_as(
                "SELECT mailbox, uid_validity, last_uid, read_at, last_error, error_at \
                 FROM mailbox_state ORDER BY mailbox",
            )
            .fetch_all(self.reader())
            .await
            .context("Failed to read the mailbox's reader state")
        }

        async fn unmatched_mail(&self, limit: i64) -> anyhow::Result<Vec<UnmatchedRow>> {
            sqlx::query_as(
                "SELECT id, mail_id, mailbox, uid_validity, uid, from_address, subject, mail_date, \
                        reason, created_at \
                 FROM unmatched_mail ORDER BY created_at DESC, id DESC LIMIT $1",
            )
            .bind(limit)
            .fetch_all(self.reader())
            .await
            .context("Failed to read the unmatched mail")
        }
    }
}
