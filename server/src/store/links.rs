//! What application links need from storage: the links themselves, their counts per day, the
//! day's seen-hashes that tell a repeat visitor (or section) apart, and the one transaction per
//! counted event, which also claims the first open and queues the link's alerts in the outbox.
//! The message's own transaction (`store::message`) counts a message through the same steps
//! (`store::link_steps`).

use std::collections::BTreeMap;

use anyhow::Context;
use async_trait::async_trait;
use sqlx::QueryBuilder;

use crate::store::engines::{both_engines, Pools};
use crate::store::link_steps::{AlertEvent, CountKind, LinkSteps};

row! {
    /// One link, every column the owner sees.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct LinkRow {
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
        /// The link's own resume (`links::LinkResume` as JSON); `None` for the page's.
        pub resume: Option<String>,
        /// Whom the application went to, where a follow-up goes; `None` when not given.
        pub recipient_email: Option<String>,
        /// The days after the first open, with no message through the link, before a
        /// follow-up comes up.
        pub follow_up_days: i64,
    }
}

/// The columns of [`LinkRow`], in order.
pub const LINK_COLUMNS: &str = "id, slug, company, role, note, language, expires_at, revoked_at, \
     alert_open, alert_resume, alert_message, created_at, first_opened_at, last_activity_at, resume, \
     recipient_email, follow_up_days";

/// A link about to be stored.
#[derive(Debug, Clone)]
pub struct NewLink<'a> {
    pub slug: &'a str,
    pub company: &'a str,
    pub role: &'a str,
    pub note: &'a str,
    pub language: &'a str,
    pub expires_at: Option<i64>,
    pub alerts: Alerts,
    pub created_at: i64,
    /// The link's own resume as JSON; `None` for the page's.
    pub resume: Option<String>,
    pub recipient_email: Option<&'a str>,
    pub follow_up_days: i64,
}

/// Which of a link's events are told to the owner.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Alerts {
    pub open: bool,
    pub resume: bool,
    pub message: bool,
}

impl Default for Alerts {
    fn default() -> Self {
        Self {
            open: true,
            resume: true,
            message: true,
        }
    }
}

/// What to change about a link; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct LinkChange {
    pub note: Option<String>,
    /// `Some(None)` clears the expiry.
    pub expires_at: Option<Option<i64>>,
    /// `Some(Some(t))` revokes it at `t` (unless it already is), `Some(None)` makes it live again.
    pub revoked_at: Option<Option<i64>>,
    pub alert_open: Option<bool>,
    pub alert_resume: Option<bool>,
    pub alert_message: Option<bool>,
    /// `Some(Some(json))` sets the link's own resume, `Some(None)` gives it the page's.
    pub resume: Option<Option<String>>,
    /// `Some(None)` forgets the recipient's address.
    pub recipient_email: Option<Option<String>>,
    pub follow_up_days: Option<i64>,
}

row! {
    /// One count of a link: its kind's key summed over the days asked for (`day` empty), or on one day.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct LinkCountRow {
        pub link_id: i64,
        pub day: String,
        pub kind: String,
        pub key: String,
        pub count: i64,
    }
}

row! {
    /// What a page answering `/a/<slug>` needs to know of a link.
    #[derive(Debug, Clone, PartialEq, Eq)]
    pub struct LinkAddressRow {
        pub slug: String,
        pub language: String,
        pub expires_at: Option<i64>,
        pub revoked_at: Option<i64>,
        pub resume: Option<String>,
    }
}

row! {
    /// A value that changes whenever a link is made, changed or deleted: how many there are, the
    /// highest id (ids are never reused, so any new link raises it) and the sum of their revisions
    /// (any change raises one).
    #[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
    pub struct LinksFingerprint {
        pub links: i64,
        pub max_id: i64,
        pub revisions: i64,
    }
}

/// What a counted event adds, beyond an open and the last activity.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LinkEvent {
    /// The page's first beacon: an open, and a visitor when `visitor` (the salted hash of the
    /// visitor with the link in it) is new today; `None` when the visitor's network has used up
    /// its day's new visitors (the open still counts).
    Open { visitor: Option<Vec<u8>> },
    /// A section came into view: counted when `seen` (the salted hash of the visitor, the link
    /// and the section) is new today.
    Section { section: String, seen: Vec<u8> },
    /// A case study (by its project's id) was opened from the link's page: counted when `seen`
    /// (the salted hash of the visitor, the link and the case study) is new today.
    CaseStudy { project: String, seen: Vec<u8> },
    /// A post (by its id) was opened from the link's page, directly or through the writing's
    /// index: counted when `seen` (the salted hash of the visitor, the link and the post) is new
    /// today.
    Post { post: String, seen: Vec<u8> },
    /// A counted link was clicked.
    Click { target: String },
    /// The resume was downloaded.
    Resume,
}

/// One event through the link with this slug, counted on `day` at `now` (Unix ms) if the link
/// is live then; its alert (when the link asks for it) queued on each of `channels`.
#[derive(Debug, Clone)]
pub struct LinkHit<'a> {
    pub slug: &'a str,
    pub day: &'a str,
    pub now: i64,
    pub event: LinkEvent,
    pub channels: &'a [String],
}

/// What a hit did.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct HitOutcome {
    /// The link was live and something was counted.
    pub counted: bool,
    /// An alert was queued (the outbox workers should be woken).
    pub alerted: bool,
}

#[async_trait]
pub trait LinkStore: Send + Sync + 'static {
    /// Stores a new link; `None` when its slug is taken (the caller draws another).
    async fn insert_link(&self, new: &NewLink<'_>) -> anyhow::Result<Option<LinkRow>>;

    /// Every link, the most recently active first (a link never opened by when it was made).
    async fn links(&self) -> anyhow::Result<Vec<LinkRow>>;

    async fn find_link(&self, id: i64) -> anyhow::Result<Option<LinkRow>>;

    /// How many links there are.
    async fn count_links(&self) -> anyhow::Result<i64>;

    /// Each link's counts summed over every day (`day` empty), of one link when `link_id` is given.
    async fn link_totals(&self, link_id: Option<i64>) -> anyhow::Result<Vec<LinkCountRow>>;

    /// One link's counts per day from `from` (a day, inclusive) on, oldest first.
    async fn link_days(&self, link_id: i64, from: &str) -> anyhow::Result<Vec<LinkCountRow>>;

    /// Changes what is given (and the link's revision); returns whether the link exists.
    async fn update_link(&self, id: i64, change: &LinkChange) -> anyhow::Result<bool>;

    /// Deletes the link and its counts; its messages stay, without it. Whether it existed.
    async fn delete_link(&self, id: i64) -> anyhow::Result<bool>;

    /// Every link's address and whether it is live, for the pages.
    async fn link_addresses(&self) -> anyhow::Result<Vec<LinkAddressRow>>;

    async fn links_fingerprint(&self) -> anyhow::Result<LinksFingerprint>;

    /// Counts one event through a link in one transaction, if the link is live: the counts, the
    /// last activity, the first open claimed (`UPDATE … WHERE first_opened_at IS NULL RETURNING`,
    /// so one instance alone wins it) and the alerts the link asks for. Nothing is written for
    /// an unknown, revoked or expired link.
    async fn record_link_hit(&self, hit: &LinkHit<'_>) -> anyhow::Result<HitOutcome>;
}

both_engines! {
    impl LinkStore {
        async fn insert_link(&self, new: &NewLink<'_>) -> anyhow::Result<Option<LinkRow>> {
            sqlx::query_as(&format!(
                "INSERT INTO application_links \
                 (slug, company, role, note, language, expires_at, alert_open, alert_resume, \
                  alert_message, created_at, resume, recipient_email, follow_up_days) \
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13) \
                 ON CONFLICT (slug) DO NOTHING RETURNING {LINK_COLUMNS}"
            ))
            .bind(new.slug)
            .bind(new.company)
            .bind(new.role)
            .bind(new.note)
            .bind(new.language)
            .bind(new.expires_at)
            .bind(new.alerts.open)
            .bind(new.alerts.resume)
            .bind(new.alerts.message)
            .bind(new.created_at)
            .bind(new.resume.as_deref())
            .bind(new.recipient_email)
            .bind(new.follow_up_days)
            .fetch_optional(self.writer())
            .await
            .context("Failed to store an application link")
        }

        async fn links(&self) -> anyhow::Result<Vec<LinkRow>> {
            sqlx::query_as(&format!(
                "SELECT {LINK_COLUMNS} FROM application_links \
                 ORDER BY COALESCE(last_activity_at, created_at) DESC, id DESC"
            ))
            .fetch_all(self.reader())
            .await
            .context("Failed to list the application links")
        }

        async fn find_link(&self, id: i64) -> anyhow::Result<Option<LinkRow>> {
            sqlx::query_as(&format!(
                "SELECT {LINK_COLUMNS} FROM application_links WHERE id = $1"
            ))
            .bind(id)
            .fetch_optional(self.reader())
            .await
            .context("Failed to read an application link")
        }

        async fn count_links(&self) -> anyhow::Result<i64> {
            sqlx::query_scalar("SELECT COUNT(*) FROM application_links")
                .fetch_one(self.reader())
                .await
                .context("Failed to count the application links")
        }

        async fn link_totals(&self, link_id: Option<i64>) -> anyhow::Result<Vec<LinkCountRow>> {
            sqlx::query_as(
                "SELECT link_id, '' AS day, kind, key, CAST(SUM(count) AS BIGINT) AS count \
                 FROM application_link_counts WHERE ($1 IS NULL OR link_id = $1) \
                 GROUP BY link_id, kind, key ORDER BY link_id, kind, key",
            )
            .bind(link_id)
            .fetch_all(self.reader())
            .await
            .context("Failed to read the application links' counts")
        }

        async fn link_days(&self, link_id: i64, from: &str) -> anyhow::Result<Vec<LinkCountRow>> {
            sqlx::query_as(
                "SELECT link_id, day, kind, key, count FROM application_link_counts \
                 WHERE link_id = $1 AND day >= $2 ORDER BY day, kind, key",
            )
            .bind(link_id)
            .bind(from)
            .fetch_all(self.reader())
            .await
            .context("Failed to read an application link's days")
        }

        async fn update_link(&self, id: i64, change: &LinkChange) -> anyhow::Result<bool> {
            let mut query: QueryBuilder<<Self as Pools>::Db> =
                QueryBuilder::new("UPDATE application_links SET revision = revision + 1");
            if let Some(note) = &change.note {
                query.push(", note = ");
                query.push_bind(note.clone());
            }
            if let Some(expires_at) = change.expires_at {
                query.push(", expires_at = ");
                query.push_bind(expires_at);
            }
            match change.revoked_at {
                Some(Some(at)) => {
                    // Revoked once: the first time stays.
                    query.push(", revoked_at = COALESCE(revoked_at, ");
                    query.push_bind(at);
                    query.push(")");
                }
                Some(None) => {
                    query.push(", revoked_at = NULL");
                }
                None => {}
            }
            for (column, value) in [
                ("alert_open", change.alert_open),
                ("alert_resume", change.alert_resume),
                ("alert_message", change.alert_message),
            ] {
                if let Some(value) = value {
                    query.push(format!(", {column} = "));
                    query.push_bind(value);
                }
            }
            if let Some(resume) = &change.resume {
                query.push(", resume = ");
                query.push_bind(resume.clone());
            }
            if let Some(recipient) = &change.recipient_email {
                query.push(", recipient_email = ");
                query.push_bind(recipient.clone());
            }
            if let Some(days) = change.follow_up_days {
                query.push(", follow_up_days = ");
                query.push_bind(days);
            }
            query.push(" WHERE id = ");
            query.push_bind(id);
            let result = query
                .build()
                .execute(self.writer())
                .await
                .context("Failed to change an application link")?;
            Ok(result.rows_affected() == 1)
        }

        async fn delete_link(&self, id: i64) -> anyhow::Result<bool> {
            // Its counts and alerts go with it (ON DELETE CASCADE); its messages stay, without
            // it (ON DELETE SET NULL).
            let result = sqlx::query("DELETE FROM application_links WHERE id = $1")
                .bind(id)
                .execute(self.writer())
                .await
                .context("Failed to delete an application link")?;
            Ok(result.rows_affected() == 1)
        }

        async fn link_addresses(&self) -> anyhow::Result<Vec<LinkAddressRow>> {
            sqlx::query_as(
                "SELECT slug, language, expires_at, revoked_at, resume FROM application_links",
            )
            .fetch_all(self.reader())
            .await
            .context("Failed to read the application links' addresses")
        }

        async fn links_fingerprint(&self) -> anyhow::Result<LinksFingerprint> {
            sqlx::query_as(
                "SELECT COUNT(*) AS links, CAST(COALESCE(MAX(id), 0) AS BIGINT) AS max_id, \
                        CAST(COALESCE(SUM(revision), 0) AS BIGINT) AS revisions \
                 FROM application_links",
            )
            .fetch_one(self.reader())
            .await
            .context("Failed to read whether the application links changed")
        }

        async fn record_link_hit(&self, hit: &LinkHit<'_>) -> anyhow::Result<HitOutcome> {
            let mut tx = self
                .writer()
                .begin()
                .await
                .context("Failed to begin counting for an application link")?;
            let Some(link) = Self::live_link(&mut tx, hit.slug, hit.now).await? else {
                tx.rollback()
                    .await
                    .context("Failed to end the application link's lookup")?;
                return Ok(HitOutcome::default());
            };
            let mut outcome = HitOutcome {
                counted: true,
                alerted: false,
            };
            let mut alert = None;
            match &hit.event {
                LinkEvent::Open { visitor } => {
                    Self::add_link_count(&mut tx, link.id, hit.day, CountKind::Open, "").await?;
                    if let Some(visitor) = visitor {
                        if Self::first_seen(&mut tx, hit.day, visitor).await? {
                            Self::add_link_count(&mut tx, link.id, hit.day, CountKind::Visitor, "")
                                .await?;
                        }
                    }
                    // Of every open, on any instance, one alone finds the link unopened.
                    let first: Option<i64> = sqlx::query_scalar(
                        "UPDATE application_links SET first_opened_at = $2 \
                         WHERE id = $1 AND first_opened_at IS NULL RETURNING id",
                    )
                    .bind(link.id)
                    .bind(hit.now)
                    .fetch_optional(&mut *tx)
                    .await
                    .context("Failed to claim an application link's first open")?;
                    if first.is_some() && link.alert_open {
                        alert = Some(AlertEvent::Open);
                    }
                }
                LinkEvent::Section { section, seen } => {
                    if Self::first_seen(&mut tx, hit.day, seen).await? {
                        Self::add_link_count(&mut tx, link.id, hit.day, CountKind::Section, section)
                            .await?;
                    } else {
                        outcome.counted = false;
                    }
                }
                LinkEvent::CaseStudy { project, seen } => {
                    if Self::first_seen(&mut tx, hit.day, seen).await? {
                        Self::add_link_count(
                            &mut tx,
                            link.id,
                            hit.day,
                            CountKind::CaseStudy,
                            project,
                        )
                        .await?;
                    } else {
                        outcome.counted = false;
                    }
                }
                LinkEvent::Post { post, seen } => {
                    if Self::first_seen(&mut tx, hit.day, seen).await? {
                        Self::add_link_count(&mut tx, link.id, hit.day, CountKind::Post, post)
                            .await?;
                    } else {
                        outcome.counted = false;
                    }
                }
                LinkEvent::Click { target } => {
                    Self::add_link_count(&mut tx, link.id, hit.day, CountKind::Click, target)
                        .await?;
                }
                LinkEvent::Resume => {
                    let today =
                        Self::add_link_count(&mut tx, link.id, hit.day, CountKind::Resume, "")
                            .await?;
                    // One alert a day at most, however often it is downloaded.
                    if today == 1 && link.alert_resume {
                        alert = Some(AlertEvent::Resume);
                    }
                }
            }
            if outcome.counted {
                Self::touch_link(&mut tx, link.id, hit.now).await?;
            }
            if let Some(event) = alert.filter(|_| !hit.channels.is_empty()) {
                Self::queue_link_alert(&mut tx, link.id, event, hit.channels, hit.now).await?;
                outcome.alerted = true;
            }
            tx.commit()
                .await
                .context("Failed to commit the application link's counts")?;
            Ok(outcome)
        }
    }
}

/// Counts gathered by kind: the sum of the key-less kinds, and each key of the others.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Tally {
    pub opens: i64,
    pub visitors: i64,
    pub resume_downloads: i64,
    pub messages: i64,
    pub sections: BTreeMap<String, i64>,
    /// Case studies opened, by project id (once a visitor a day each).
    pub case_studies: BTreeMap<String, i64>,
    /// Posts read, by id (once a visitor a day each).
    pub posts: BTreeMap<String, i64>,
    pub clicks: BTreeMap<String, i64>,
}

impl Tally {
    pub fn add(&mut self, kind: &str, key: &str, count: i64) {
        match CountKind::parse(kind) {
            Some(CountKind::Open) => self.opens += count,
            Some(CountKind::Visitor) => self.visitors += count,
            Some(CountKind::Resume) => self.resume_downloads += count,
            Some(CountKind::Message) => self.messages += count,
            Some(CountKind::Section) => *self.sections.entry(key.to_owned()).or_default() += count,
            Some(CountKind::CaseStudy) => {
                *self.case_studies.entry(key.to_owned()).or_default() += count;
            }
            Some(CountKind::Post) => *self.posts.entry(key.to_owned()).or_default() += count,
            Some(CountKind::Click) => *self.clicks.entry(key.to_owned()).or_default() += count,
            None => {}
        }
    }
}
