//! Visitor insights: page views, unique visitors, referrers, campaigns, clicks, visits per case
//! study and per post, and resume downloads, counted per day with no cookie and no stored address. Counts gather in memory and
//! are written in batches, so a beacon never waits on the disk; a crash may lose a few seconds of
//! counts, never a message.

pub mod budget;
pub mod figures;
pub mod visitor;

use std::collections::BTreeMap;
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::Duration;

use chrono::{Days, NaiveDate};
use sha2::{Digest, Sha256};

use crate::config::insights::InsightsSettings;
use crate::rate_limit::{RateLimit, SubmissionLimiter};
use crate::store::insights::{DayDelta, InsightsBatch};
use crate::store::Db;

/// The largest beacon body, in bytes (the insights' beacon's and the application links').
pub const MAX_BEACON_BYTES: usize = 2 * 1024;
/// How often gathered counts are written.
const FLUSH_EVERY: Duration = Duration::from_secs(5);
/// Beyond this many gathered entries a write is started at once.
const FLUSH_ABOVE: usize = 2_000;
/// Beacons per network (an IPv4 address or an IPv6 /64): a burst of 30, then one every 2
/// seconds; and 600 an hour.
const BEACON_LIMITS: [RateLimit; 2] = [
    RateLimit {
        window: Duration::from_secs(60 * 60),
        max: 600,
    },
    RateLimit {
        window: Duration::from_secs(60),
        max: 30,
    },
];

/// The day, in `zone`, that a time in Unix milliseconds falls on.
pub fn day_in(zone: chrono_tz::Tz, ms: i64) -> NaiveDate {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .with_timezone(&zone)
        .date_naive()
}

pub use figures::{CASE_STUDY_KIND, POST_KIND};

/// Whether `text` is a stable content id, as a click's target or a section's id: 1 to 64 of
/// `a-z`, `0-9`, `:`, `.`, `_` and `-`, starting with a letter or digit.
pub fn is_content_id(text: &str) -> bool {
    (1..=64).contains(&text.len())
        && text.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || ":._-".contains(c))
}

/// What a case study's project id must be, as the beacons name it.
pub const PROJECT_ID_RULE: &str =
    "must be a project's id: 1 to 41 of a-z, 0-9 and '-', starting with a letter or digit";

/// Whether `text` is a project's id (the content document's id pattern).
pub fn is_project_id(text: &str) -> bool {
    (1..=41).contains(&text.len())
        && text.starts_with(|c: char| c.is_ascii_lowercase() || c.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// What a post's id must be, as the beacons name it.
pub const POST_ID_RULE: &str =
    "must be a post's id: 1 to 41 of a-z, 0-9 and '-', starting with a letter or digit";

/// Whether `text` is a post's id: the same pattern as a project's (the content store's ids).
pub fn is_post_id(text: &str) -> bool {
    is_project_id(text)
}

/// What a page's beacon reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Event {
    /// A view of a page (`/`, a language's, a link's, a case study's, a post's), with where the
    /// visitor came from.
    View {
        referrer_host: Option<String>,
        campaign: Option<String>,
        /// On a case study's page: its project's id (a case study that is published).
        case_study: Option<String>,
        /// On a post's page: its id (a post that is published).
        post: Option<String>,
    },
    /// A click on a counted link: a stable content id such as `project:shop:code`.
    Click { target: String },
}

/// Whether an event was counted, and if not, why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Outcome {
    Counted,
    /// Insights off, Do Not Track or Global Privacy Control, or a bot.
    Ignored,
    /// Over the network's beacon limit; try again after this long.
    TooMany(Duration),
}

/// An event as far as its network's allowances admit it.
enum Admitted {
    View {
        /// The visitor's hash, when the visitor may be counted.
        visitor: Option<Vec<u8>>,
        referrer_host: Option<String>,
        campaign: Option<String>,
        case_study: Option<String>,
        post: Option<String>,
    },
    Click {
        target: Option<String>,
    },
}

/// A visitor through an application link, as far as the insights' rules admit one.
#[derive(Debug)]
pub enum LinkAdmission {
    /// Insights off, Do Not Track or Global Privacy Control, or a bot: nothing is counted.
    Ignored,
    /// Over the network's beacon limit (shared with the insights' beacon).
    TooMany(Duration),
    Visitor(LinkVisitor),
}

/// A visitor that may be counted for an application link today.
#[derive(Debug)]
pub struct LinkVisitor {
    /// Today, in the owner's time zone.
    pub day: String,
    /// Whether the network's allowance of new visitors today takes this one (a visitor already
    /// counted today stays counted): when not, only opens and clicks are counted.
    pub admitted: bool,
    network: u64,
    /// The insights' daily salted hash of the visitor.
    hash: Vec<u8>,
}

impl LinkVisitor {
    /// The visitor's salted hash of the day with `parts` in it (the link's id, what is counted,
    /// a section): the same visitor and parts give the same hash all day, and nothing else does.
    pub fn hash_with(&self, parts: &[&str]) -> Vec<u8> {
        let mut hasher = Sha256::new();
        hasher.update(&self.hash);
        for part in parts {
            hasher.update((part.len() as u64).to_be_bytes());
            hasher.update(part.as_bytes());
        }
        hasher.finalize()[..16].to_vec()
    }
}

/// The day's salt, kept in memory once read.
struct DaySalt {
    day: String,
    salt: Vec<u8>,
}

pub struct Insights {
    pub settings: InsightsSettings,
    db: Db,
    pending: Mutex<InsightsBatch>,
    salt: tokio::sync::Mutex<Option<DaySalt>>,
    /// One write at a time; also remembers the day whose past was last purged.
    flushing: tokio::sync::Mutex<Option<String>>,
    flush_now: tokio::sync::Notify,
    /// Beacons per network.
    limiter: SubmissionLimiter,
    /// What each network may add to the day.
    budgets: Mutex<budget::Budgets>,
    classifier: visitor::Classifier,
    clock: crate::clock::Clock,
}

impl Insights {
    pub fn new(db: Db, settings: InsightsSettings, clock: crate::clock::Clock) -> Self {
        Self {
            db,
            clock,
            pending: Mutex::new(InsightsBatch::default()),
            salt: tokio::sync::Mutex::new(None),
            flushing: tokio::sync::Mutex::new(None),
            flush_now: tokio::sync::Notify::new(),
            limiter: SubmissionLimiter::new(&BEACON_LIMITS),
            budgets: Mutex::new(budget::Budgets::new(budget::Allowances {
                visitors: settings.visitors_per_network,
                keys: settings.keys_per_network,
                downloads: settings.downloads_per_network,
                max_networks: settings.max_networks,
            })),
            classifier: visitor::Classifier::new(),
            settings,
        }
    }

    /// Drops what is kept only to be fast under load (see [`visitor::Classifier`]).
    pub fn release_caches(&self) {
        self.classifier.release();
    }

    /// Now in Unix milliseconds, on the insights clock.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// The day, in the owner's time zone, that a time falls on.
    pub fn day_of(&self, ms: i64) -> NaiveDate {
        day_in(self.settings.time_zone, ms)
    }

    pub fn today(&self) -> NaiveDate {
        self.day_of(self.now_ms())
    }

    /// The owner's figures for the last `range` days, today included, with what is gathered in
    /// memory written first so that they are up to date.
    pub async fn figures(&self, range: u64) -> anyhow::Result<figures::InsightsFigures> {
        self.flush().await?;
        let today = self.today();
        let first = today
            .checked_sub_days(Days::new(range - 1))
            .unwrap_or(NaiveDate::MIN);
        let (from, to) = (first.to_string(), today.to_string());
        let days = self.db.insights_days(&from, &to).await?;
        // Messages of the range: from the start of its first day (a day before, in any zone).
        let since = self.now_ms() - i64::try_from(range + 1).unwrap_or(91) * 24 * 60 * 60 * 1000;
        let mut messages: BTreeMap<String, i64> = BTreeMap::new();
        for at in self.db.real_message_times(since).await? {
            *messages.entry(self.day_of(at).to_string()).or_default() += 1;
        }
        let counts = self.db.insights_counts(&from, &to).await?;
        Ok(figures::tally(figures::Sources {
            first,
            today,
            days,
            messages,
            counts,
            enabled: self.settings.enabled,
            time_zone: self.settings.time_zone.name().to_owned(),
        }))
    }

    /// Counts a beacon's event from a visitor, unless the visitor asks not to be counted or is
    /// a bot, within its network's limits: the beacons' rate, and what is new today (visitors,
    /// referrers, campaigns, click targets, case studies, posts) up to the allowances, the rest counted as page views
    /// only. `site` is the host the site is reached at.
    pub async fn record(
        &self,
        event: Event,
        ip: IpAddr,
        headers: &axum::http::HeaderMap,
        site: &str,
    ) -> anyhow::Result<Outcome> {
        let Some(visitor) = self.countable(headers) else {
            return Ok(Outcome::Ignored);
        };
        let network = self.lock_budgets().network_of(ip);
        // Before the hash: a flood is turned away without waiting for the day's salt.
        if let Err(wait) = self.limiter.check(&format!("{network:016x}")) {
            return Ok(Outcome::TooMany(wait));
        }
        let day = self.today().to_string();
        let hash = self
            .visitor_hash(&day, ip, visitor.user_agent, site)
            .await?;
        // What of the event is new for the network today and within its allowances.
        let event = {
            let mut budgets = self.lock_budgets();
            let mut admit = |kind, value: &[u8]| budgets.admit(&day, network, kind, value);
            match event {
                Event::View {
                    referrer_host,
                    campaign,
                    case_study,
                    post,
                } => {
                    let referrer_host = referrer_host
                        .filter(|host| !host.eq_ignore_ascii_case(site))
                        .filter(|host| admit(budget::Kind::Referrer, host.as_bytes()));
                    let campaign = campaign.filter(|c| admit(budget::Kind::Campaign, c.as_bytes()));
                    let case_study =
                        case_study.filter(|id| admit(budget::Kind::CaseStudy, id.as_bytes()));
                    let post = post.filter(|id| admit(budget::Kind::Post, id.as_bytes()));
                    let new_visitor = admit(budget::Kind::Visitor, &hash);
                    Admitted::View {
                        visitor: new_visitor.then_some(hash),
                        referrer_host,
                        campaign,
                        case_study,
                        post,
                    }
                }
                Event::Click { target } => Admitted::Click {
                    target: admit(budget::Kind::Target, target.as_bytes()).then_some(target),
                },
            }
        };
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        match event {
            Admitted::View {
                visitor: hash,
                referrer_host,
                campaign,
                case_study,
                post,
            } => {
                pending.days.entry(day.clone()).or_default().page_views += 1;
                if let Some(hash) = hash {
                    pending.seen.insert((day.clone(), hash));
                }
                let mut add = |kind: &str, key: String| {
                    *pending
                        .counts
                        .entry((day.clone(), kind.to_owned(), key))
                        .or_default() += 1;
                };
                if let Some(host) = referrer_host {
                    add("referrer", host);
                }
                if let Some(campaign) = campaign {
                    add("campaign", campaign);
                }
                if let Some(project) = case_study {
                    add(CASE_STUDY_KIND, project);
                }
                if let Some(post) = post {
                    add(POST_KIND, post);
                }
                add("device", visitor.device.to_owned());
                add("browser", visitor.browser);
            }
            Admitted::Click {
                target: Some(target),
            } => {
                *pending
                    .counts
                    .entry((day, "click".to_owned(), target))
                    .or_default() += 1;
            }
            Admitted::Click { target: None } => {}
        }
        if pending.counts.len() + pending.seen.len() > FLUSH_ABOVE {
            self.flush_now.notify_one();
        }
        Ok(Outcome::Counted)
    }

    /// Counts a download of the resume (served by the server, so a direct link counts too), up
    /// to the allowance of the client's network for the day.
    pub fn record_download(&self, headers: &axum::http::HeaderMap, ip: IpAddr) {
        if self.countable(headers).is_none() {
            return;
        }
        let day = self.today().to_string();
        {
            let mut budgets = self.lock_budgets();
            let network = budgets.network_of(ip);
            if !budgets.admit_download(&day, network) {
                return;
            }
        }
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        pending.days.entry(day).or_default().resume_downloads += 1;
    }

    /// A visitor through an application link, under the insights' rules: nothing for those who
    /// may not be counted (insights off, `DNT`/`Sec-GPC`, bots and headless browsers), the
    /// beacon's rate limit of the network, and its allowance of new visitors today.
    pub async fn admit_link_visitor(
        &self,
        ip: IpAddr,
        headers: &axum::http::HeaderMap,
        site: &str,
    ) -> anyhow::Result<LinkAdmission> {
        let Some(visitor) = self.countable(headers) else {
            return Ok(LinkAdmission::Ignored);
        };
        let network = self.lock_budgets().network_of(ip);
        if let Err(wait) = self.limiter.check(&format!("{network:016x}")) {
            return Ok(LinkAdmission::TooMany(wait));
        }
        let day = self.today().to_string();
        let hash = self
            .visitor_hash(&day, ip, visitor.user_agent, site)
            .await?;
        let admitted = self
            .lock_budgets()
            .admit(&day, network, budget::Kind::Visitor, &hash);
        Ok(LinkAdmission::Visitor(LinkVisitor {
            day,
            admitted,
            network,
            hash,
        }))
    }

    /// Whether the visitor's network may add `target` (a click's target through a link) today:
    /// its allowance of new targets, shared with the insights' clicks.
    pub fn admit_link_target(&self, visitor: &LinkVisitor, target: &str) -> bool {
        self.lock_budgets().admit(
            &visitor.day,
            visitor.network,
            budget::Kind::Target,
            target.as_bytes(),
        )
    }

    /// Whether a visit may be tied to an application link at all (a message's): insights on, and
    /// no `DNT: 1` or `Sec-GPC: 1`.
    pub fn may_count_links(&self, headers: &axum::http::HeaderMap) -> bool {
        self.settings.enabled && !visitor::opted_out(headers)
    }

    fn lock_budgets(&self) -> std::sync::MutexGuard<'_, budget::Budgets> {
        self.budgets.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The visitor, when insights are on and it may be counted.
    fn countable<'h>(&self, headers: &'h axum::http::HeaderMap) -> Option<visitor::Visitor<'h>> {
        if !self.settings.enabled || visitor::opted_out(headers) {
            return None;
        }
        self.classifier.classify(headers)
    }

    /// The salted hash that tells this visitor's repeat visits apart, today only: the salt is
    /// random per day, kept in the database so every instance uses the same, and deleted when
    /// the day ends. For IPv6 the /64 is hashed, as it is one customer's.
    async fn visitor_hash(
        &self,
        day: &str,
        ip: IpAddr,
        user_agent: &str,
        site: &str,
    ) -> anyhow::Result<Vec<u8>> {
        let salt = self.salt_for(day).await?;
        let network = crate::net::limit_network(ip);
        let mut hasher = Sha256::new();
        hasher.update(&salt);
        for part in [network.to_string().as_str(), user_agent, site] {
            hasher.update((part.len() as u64).to_be_bytes());
            hasher.update(part.as_bytes());
        }
        Ok(hasher.finalize()[..16].to_vec())
    }

    /// The day's salt: from memory, or read (made by the first instance that asks) once a day.
    async fn salt_for(&self, day: &str) -> anyhow::Result<Vec<u8>> {
        let mut cached = self.salt.lock().await;
        if let Some(known) = cached.as_ref().filter(|known| known.day == day) {
            return Ok(known.salt.clone());
        }
        let salt = self.db.insights_salt(day).await?;
        *cached = Some(DaySalt {
            day: day.to_owned(),
            salt: salt.clone(),
        });
        Ok(salt)
    }

    /// Writes what has gathered, and when the day has changed since the last write, deletes the
    /// past days' salts and seen-hashes and the days past retention.
    pub async fn flush(&self) -> anyhow::Result<()> {
        let mut purged = self.flushing.lock().await;
        let batch = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        if !batch.is_empty() {
            if let Err(error) = self.db.record_insights(&batch).await {
                // Put the counts back, so that a passing failure loses nothing.
                self.restore(batch);
                return Err(error);
            }
        }
        let today = self.today();
        let today_text = today.to_string();
        if purged.as_deref() != Some(today_text.as_str()) {
            let keep_from = (self.settings.insights_retention_days > 0).then(|| {
                today
                    .checked_sub_days(Days::new(u64::from(self.settings.insights_retention_days)))
                    .unwrap_or(NaiveDate::MIN)
                    .to_string()
            });
            self.db
                .purge_insights(&today_text, keep_from.as_deref())
                .await?;
            *purged = Some(today_text.clone());
        }
        // The day's salt read ahead, so that a beacon does not wait for the database.
        if self.settings.enabled {
            self.salt_for(&today_text).await?;
        }
        Ok(())
    }

    fn restore(&self, batch: InsightsBatch) {
        let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
        for (day, delta) in batch.days {
            let entry: &mut DayDelta = pending.days.entry(day).or_default();
            entry.page_views += delta.page_views;
            entry.resume_downloads += delta.resume_downloads;
        }
        for (key, n) in batch.counts {
            *pending.counts.entry(key).or_default() += n;
        }
        pending.seen.extend(batch.seen);
    }

    /// Writes every few seconds (sooner when much has gathered) until aborted.
    pub async fn run(self: std::sync::Arc<Self>) {
        loop {
            if let Err(error) = self.flush().await {
                self.db.health().report(&error);
                tracing::warn!(error = %format!("{error:#}"), "writing insights failed; retrying");
            }
            tokio::select! {
                () = tokio::time::sleep(FLUSH_EVERY) => {}
                () = self.flush_now.notified() => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::insights::parse_zone;

    fn ms(rfc3339: &str) -> i64 {
        chrono::DateTime::parse_from_rfc3339(rfc3339)
            .unwrap()
            .timestamp_millis()
    }

    fn date(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn days_follow_the_owners_time_zone_and_its_clock_changes() {
        let berlin = parse_zone("Europe/Berlin").unwrap();
        let la = parse_zone(" America/Los_Angeles ").unwrap();
        let cases = [
            // 23:30 UTC is already the next day in Berlin, still the same day in Los Angeles.
            (chrono_tz::UTC, "2026-06-30T23:30:00Z", "2026-06-30"),
            (berlin, "2026-06-30T23:30:00Z", "2026-07-01"),
            (la, "2026-07-01T06:59:00Z", "2026-06-30"),
            (la, "2026-07-01T07:00:00Z", "2026-07-01"),
            // Winter time in Berlin is UTC+1, summer time UTC+2: midnight moves with it.
            (berlin, "2026-01-15T22:59:00Z", "2026-01-15"),
            (berlin, "2026-01-15T23:00:00Z", "2026-01-16"),
            (berlin, "2026-07-15T21:59:00Z", "2026-07-15"),
            (berlin, "2026-07-15T22:00:00Z", "2026-07-16"),
        ];
        for (zone, time, day) in cases {
            assert_eq!(day_in(zone, ms(time)), date(day), "{time} in {zone}");
        }
        assert!(parse_zone("Mars/Olympus")
            .unwrap_err()
            .contains("Europe/Berlin"));
    }
}
