//! The reader of the site's own mailbox (`--imap-url`), where visitors' answers to the owner's
//! replies arrive. One instance at a time reads it, by the `mailbox-reader` lease: it reads each
//! mail after the last UID read (kept in the database with the mailbox's UIDVALIDITY), files it
//! into its conversation (or lists it as unmatched) in one transaction with that step forward,
//! then waits for news (IMAP IDLE, or `--imap-poll`). The mailbox itself is never changed: mails
//! are fetched with `BODY.PEEK` on a mailbox opened read-only. A broken connection, a database
//! that cannot take the write, or a lost lease ends the session; the next one starts again from
//! the last UID stored, so nothing is missed, and an answer's Message-ID is unique, so nothing
//! is filed twice.

use std::sync::Arc;
use std::time::Duration;

use sha2::{Digest, Sha256};

use super::imap::{FetchedMail, ImapAccount, Mailbox};
use super::notify::backoff;
use crate::clock::now_ms;
use crate::store::replies::{Filed, IncomingMail, NewAttachment};
use crate::store::Db;

/// The lease of the one reader.
pub const LEASE_NAME: &str = "mailbox-reader";
/// Held this long at a time, and kept while reading: another instance takes over this long
/// after the reader's instance died.
const LEASE: Duration = Duration::from_secs(90);
/// Mails fetched per round.
const BATCH: usize = 50;
/// The longest wait after a failed session, before the next.
const MAX_RETRY: Duration = Duration::from_secs(5 * 60);

/// What the reader needs.
pub struct Reader {
    db: Db,
    account: ImapAccount,
    /// The owner's notification channels: an answer gets an outbox row on each...
    channels: Vec<String>,
    /// ...and wakes the outbox.
    wake: Arc<dyn Fn() + Send + Sync>,
    poll: Duration,
    /// This instance's name in the lease.
    holder: String,
}

impl Reader {
    pub fn new(
        db: Db,
        account: ImapAccount,
        channels: Vec<String>,
        wake: Arc<dyn Fn() + Send + Sync>,
        poll: Duration,
    ) -> Self {
        Self {
            db,
            account,
            channels,
            wake,
            poll,
            holder: format!("{:016x}", rand::random::<u64>()),
        }
    }

    /// Reads the mailbox until aborted at shutdown.
    pub async fn run(self) {
        tracing::info!(
            mailbox = self.account.mailbox(),
            "reading the site's mailbox for answers"
        );
        let mut failures: i64 = 0;
        loop {
            let wait = match self.take_lease().await {
                Ok(true) => {
                    let result = self.session().await;
                    let _ = self.db.release_lease(LEASE_NAME, &self.holder, None).await;
                    match result {
                        Ok(()) => {
                            failures = 0;
                            Duration::ZERO
                        }
                        Err(error) => {
                            failures += 1;
                            self.note_failure(&error).await;
                            backoff(failures, Duration::from_secs(1)).min(MAX_RETRY)
                        }
                    }
                }
                // Another instance reads it: look again once its lease could have run out.
                Ok(false) => LEASE / 3,
                Err(error) => {
                    tracing::warn!(error = %format!("{error:#}"), "the mailbox's lease could not be read");
                    LEASE / 3
                }
            };
            tokio::time::sleep(wait.min(self.poll.max(Duration::from_millis(100)))).await;
        }
    }

    async fn take_lease(&self) -> anyhow::Result<bool> {
        let now = now_ms();
        self.db
            .take_lease(LEASE_NAME, &self.holder, now, now + millis(LEASE), i64::MAX)
            .await
    }

    async fn note_failure(&self, error: &anyhow::Error) {
        // The account's errors never hold its password (see `imap`).
        let text: String = format!("{error:#}").chars().take(500).collect();
        tracing::warn!(error = %text, "reading the site's mailbox failed; trying again soon");
        if let Err(error) = self
            .db
            .note_mailbox_read(self.account.mailbox(), Some(&text), now_ms())
            .await
        {
            tracing::warn!(error = %format!("{error:#}"), "the mailbox's error could not be recorded");
        }
    }

    /// One connection: reads what is new, files it, waits for news, and again, while the lease
    /// is kept.
    async fn session(&self) -> anyhow::Result<()> {
        let mut mailbox = Mailbox::connect(&self.account).await?;
        let name = self.account.mailbox().to_owned();
        let validity = i64::from(mailbox.uid_validity());
        let mut after = self.db.mailbox_cursor(&name, validity).await?;
        loop {
            let last = u32::try_from(after).unwrap_or(u32::MAX);
            let mails = mailbox.fetch_after(last, BATCH).await?;
            for mail in &mails {
                self.file(&name, validity, mail).await?;
                after = i64::from(mail.uid);
            }
            self.db.note_mailbox_read(&name, None, now_ms()).await?;
            tracing::debug!(
                uid_validity = validity,
                last_uid = after,
                "the site's mailbox was read"
            );
            let now = now_ms();
            if !self
                .db
                .extend_lease(LEASE_NAME, &self.holder, now, now + millis(LEASE))
                .await?
            {
                tracing::warn!("another instance took over reading the mailbox");
                mailbox.logout().await;
                return Ok(());
            }
            if mails.len() < BATCH {
                mailbox.wait_for_news(self.poll.min(LEASE / 3)).await?;
            }
        }
    }

    async fn file(
        &self,
        mailbox: &str,
        uid_validity: i64,
        mail: &FetchedMail,
    ) -> anyhow::Result<()> {
        let read = crate::mail::read_mail(&mail.raw);
        let digest = || format!("sha256:{}", hex::encode(Sha256::digest(&mail.raw)));
        let mail_id = read
            .as_ref()
            .and_then(|read| read.message_id.clone())
            .filter(|id| !id.is_empty())
            .unwrap_or_else(digest);
        let references: Vec<String> = read
            .as_ref()
            .map(|read| {
                read.in_reply_to
                    .iter()
                    .chain(&read.references)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default();
        let attachments: Vec<NewAttachment<'_>> = read
            .as_ref()
            .map(|read| {
                read.attachments
                    .iter()
                    .map(|attachment| NewAttachment {
                        name: &attachment.name,
                        content_type: &attachment.content_type,
                        size: i64::try_from(attachment.size).unwrap_or(i64::MAX),
                        bytes: attachment.bytes.as_deref(),
                    })
                    .collect()
            })
            .unwrap_or_default();
        let incoming = IncomingMail {
            mailbox,
            uid_validity,
            uid: i64::from(mail.uid),
            mail_id: &mail_id,
            references: &references,
            from_address: read.as_ref().and_then(|read| read.from_address.as_deref()),
            subject: read.as_ref().map_or("", |read| read.subject.as_str()),
            body: read.as_ref().map_or("", |read| read.text.as_str()),
            from_html: read.as_ref().is_some_and(|read| read.from_html),
            // A mail over the size limit was read by its header alone.
            cut: !mail.whole || read.as_ref().is_some_and(|read| read.cut),
            mail_date: read.as_ref().and_then(|read| read.date),
            attachments: &attachments,
            now: now_ms(),
        };
        let filed = self.db.file_mail(&incoming, &self.channels).await?;
        match filed {
            Filed::Answer {
                reply_id,
                message_id,
            } => {
                tracing::info!(
                    message_id,
                    answer_id = reply_id,
                    uid = mail.uid,
                    "an answer was filed"
                );
                (self.wake)();
            }
            Filed::Message { message_id } => {
                tracing::info!(
                    message_id,
                    uid = mail.uid,
                    "an answer to a follow-up was filed as a message"
                );
                (self.wake)();
            }
            Filed::Unmatched(reason) => {
                tracing::info!(
                    uid = mail.uid,
                    reason,
                    "a mail of the site's mailbox was left unmatched"
                );
            }
            Filed::Already => {
                tracing::debug!(uid = mail.uid, "a mail read before was skipped");
            }
        }
        Ok(())
    }
}

fn millis(duration: Duration) -> i64 {
    i64::try_from(duration.as_millis()).unwrap_or(i64::MAX)
}
