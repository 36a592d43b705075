//! Application links: one address per application the owner sends (`/a/<slug>`), which serves the
//! page in the link's language and tells the owner, per day and never per visit, that it was
//! opened, by how many visitors, which sections came into view, which case studies and posts were opened,
//! which project links were clicked, whether the resume was downloaded and a message sent through it; and alerts the
//! owner through the outbox. Counting follows the insights' rules (no cookie, no stored address,
//! nobody who asks not to be counted, no bots); each event is written in a transaction of its own,
//! which is where the first open is claimed, once across instances.

pub mod directory;
pub mod export;
pub mod follow_up;
pub mod form;
pub mod slug;
pub mod stage;
pub mod visit;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use chrono::Days;

use crate::contact::ContactState;
use crate::insights::{Insights, LinkAdmission};
use crate::store::links::{
    HitOutcome, LinkChange, LinkCountRow, LinkEvent, LinkHit, LinkRow, NewLink, Tally,
};
use crate::store::Db;

pub use directory::Directory;
pub use form::LinkForm;
pub use stage::{project_clicks, Stage, FIRST_SECTION};
use visit::{Counted, Sender, Visit};

/// The most links kept at once: the list, its totals and the pages' addresses stay small.
pub const MAX_LINKS: i64 = 1000;
/// The detail of a link shows this many days, today included.
pub const DAYS_SHOWN: u64 = 90;
/// How long counting a resume download may take before the download goes on without it.
const RESUME_COUNT_TIMEOUT: Duration = Duration::from_secs(2);

/// Why a link could not be made.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    #[error("there are already {MAX_LINKS} links: delete some first")]
    TooMany,
    #[error(transparent)]
    Store(#[from] anyhow::Error),
}

pub struct Links {
    db: Db,
    pub directory: Arc<Directory>,
    clock: crate::clock::Clock,
    /// The owner's time zone, whose days the counts are kept in (the insights').
    time_zone: chrono_tz::Tz,
}

impl Links {
    /// The links' service, with the pages' addresses read and followed across instances.
    pub async fn start(
        db: Db,
        clock: crate::clock::Clock,
        time_zone: chrono_tz::Tz,
    ) -> anyhow::Result<Self> {
        let directory = Arc::new(Directory::new(clock));
        directory.refresh(&db, true).await?;
        directory.follow(db.clone());
        Ok(Self {
            db,
            directory,
            clock,
            time_zone,
        })
    }

    /// Now, on the clock links and insights share.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// Makes a link (a new slug drawn in the unlikely case that one is taken) and serves its
    /// address at once on this instance.
    pub async fn create(&self, form: &LinkForm) -> Result<LinkRow, CreateError> {
        if self.db.count_links().await? >= MAX_LINKS {
            return Err(CreateError::TooMany);
        }
        let created_at = self.now_ms();
        for _ in 0..3 {
            let slug = slug::new_slug(&form.company);
            let new = NewLink {
                slug: &slug,
                company: &form.company,
                role: &form.role,
                note: &form.note,
                language: &form.language,
                expires_at: form.expires_at,
                alerts: form.alerts,
                created_at,
                resume: form.resume.clone(),
                recipient_email: form.recipient_email.as_deref(),
                follow_up_days: form.follow_up_days,
            };
            if let Some(row) = self.db.insert_link(&new).await? {
                self.serve_changes().await;
                return Ok(row);
            }
        }
        Err(anyhow::anyhow!("three new slugs in a row were taken").into())
    }

    /// Changes a link; whether it exists.
    pub async fn change(&self, id: i64, change: &LinkChange) -> anyhow::Result<bool> {
        let found = self.db.update_link(id, change).await?;
        if found {
            self.serve_changes().await;
        }
        Ok(found)
    }

    /// Deletes a link with its counts; its messages stay, without it.
    pub async fn delete(&self, id: i64) -> anyhow::Result<bool> {
        let found = self.db.delete_link(id).await?;
        if found {
            self.serve_changes().await;
        }
        Ok(found)
    }

    /// Reads the addresses again after a change made here. The change is stored already: should
    /// reading fail, the next poll (within [`directory::POLL_INTERVAL`]) serves it.
    async fn serve_changes(&self) {
        if let Err(error) = self.directory.refresh(&self.db, true).await {
            tracing::warn!(error = %format!("{error:#}"), "the application links changed but could not be read again yet");
        }
    }

    /// Every link with its totals, the most recently active first.
    pub async fn list(&self) -> anyhow::Result<Vec<(LinkRow, Tally)>> {
        let rows = self.db.links().await?;
        let mut totals: BTreeMap<i64, Tally> = BTreeMap::new();
        for count in self.db.link_totals(None).await? {
            add(totals.entry(count.link_id).or_default(), &count);
        }
        Ok(rows
            .into_iter()
            .map(|row| {
                let tally = totals.remove(&row.id).unwrap_or_default();
                (row, tally)
            })
            .collect())
    }

    /// One link with its totals and its days with activity of the last [`DAYS_SHOWN`], oldest first.
    pub async fn detail(
        &self,
        id: i64,
    ) -> anyhow::Result<Option<(LinkRow, Tally, Vec<(String, Tally)>)>> {
        let Some(row) = self.db.find_link(id).await? else {
            return Ok(None);
        };
        let mut totals = Tally::default();
        for count in self.db.link_totals(Some(id)).await? {
            add(&mut totals, &count);
        }
        let today = crate::insights::day_in(self.time_zone, self.now_ms());
        let first = today
            .checked_sub_days(Days::new(DAYS_SHOWN - 1))
            .unwrap_or(chrono::NaiveDate::MIN);
        let mut days: BTreeMap<String, Tally> = BTreeMap::new();
        for count in self.db.link_days(id, &first.to_string()).await? {
            add(days.entry(count.day.clone()).or_default(), &count);
        }
        Ok(Some((row, totals, days.into_iter().collect())))
    }

    /// Counts one event through a link (nothing for a link that is not live).
    pub async fn record(&self, hit: &LinkHit<'_>) -> anyhow::Result<HitOutcome> {
        self.db.record_link_hit(hit).await
    }
}

fn add(tally: &mut Tally, count: &LinkCountRow) {
    tally.add(&count.kind, &count.key, count.count);
}

impl Links {
    /// Counts an event of a visit through the link `slug`: nothing for an unknown, revoked or
    /// expired link, for a visitor who may not be counted, or past the network's allowances;
    /// the link's alert woken in `contact`'s outbox when the event queued one.
    pub async fn count_visit(
        &self,
        insights: &Insights,
        contact: &ContactState,
        from: Sender<'_>,
        slug: &str,
        visit: Visit,
    ) -> anyhow::Result<Counted> {
        let visitor = match insights
            .admit_link_visitor(from.client, from.headers, from.site)
            .await?
        {
            LinkAdmission::Ignored => return Ok(Counted::Done),
            LinkAdmission::TooMany(wait) => return Ok(Counted::TooMany(wait)),
            LinkAdmission::Visitor(visitor) => visitor,
        };
        // An address this instance does not serve as a live link's counts nothing, without a
        // query; the transaction checks again.
        if self.directory.language_of(slug).is_none() {
            return Ok(Counted::Done);
        }
        let event = match visit {
            Visit::Open => LinkEvent::Open {
                visitor: visitor
                    .admitted
                    .then(|| visitor.hash_with(&[slug, "visitor"])),
            },
            Visit::Section(section) if visitor.admitted => LinkEvent::Section {
                seen: visitor.hash_with(&[slug, "section", &section]),
                section,
            },
            Visit::CaseStudy(project) if visitor.admitted => LinkEvent::CaseStudy {
                seen: visitor.hash_with(&[slug, "case-study", &project]),
                project,
            },
            Visit::Post(post) if visitor.admitted => LinkEvent::Post {
                seen: visitor.hash_with(&[slug, "post", &post]),
                post,
            },
            Visit::Click(target) if insights.admit_link_target(&visitor, &target) => {
                LinkEvent::Click { target }
            }
            // Past the network's allowance for today.
            Visit::Section(_) | Visit::CaseStudy(_) | Visit::Post(_) | Visit::Click(_) => {
                return Ok(Counted::Done)
            }
        };
        self.count(contact, slug, &visitor.day, event).await?;
        Ok(Counted::Done)
    }

    /// Counts a resume download through the link `slug` (`/resume.pdf?via=<slug>`), for a
    /// visitor who may be counted, and queues its alert (the first of the day). Failures are
    /// logged: the download is never held up by them.
    pub async fn count_resume(
        &self,
        insights: &Insights,
        contact: &ContactState,
        from: Sender<'_>,
        slug: &str,
    ) {
        if !slug::is_well_formed(slug) || self.directory.language_of(slug).is_none() {
            return;
        }
        let counted = async {
            let LinkAdmission::Visitor(visitor) = insights
                .admit_link_visitor(from.client, from.headers, from.site)
                .await?
            else {
                return Ok(());
            };
            self.count(contact, slug, &visitor.day, LinkEvent::Resume)
                .await
        };
        match tokio::time::timeout(RESUME_COUNT_TIMEOUT, counted).await {
            Ok(Ok(())) => {}
            Ok(Err(error)) => {
                self.db.health().report(&error);
                tracing::warn!(error = %format!("{error:#}"), "a resume download through a link was not counted");
            }
            Err(_) => tracing::warn!("counting a resume download through a link took too long"),
        }
    }

    /// Records one event through the link on `day`, and wakes the outbox when it queued an alert.
    async fn count(
        &self,
        contact: &ContactState,
        slug: &str,
        day: &str,
        event: LinkEvent,
    ) -> anyhow::Result<()> {
        let outcome = self
            .record(&LinkHit {
                slug,
                day,
                now: self.now_ms(),
                event,
                channels: &contact.channels,
            })
            .await?;
        if outcome.alerted {
            contact.outbox_wake.notify_one();
        }
        Ok(())
    }
}
