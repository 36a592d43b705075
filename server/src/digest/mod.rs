//! The weekly digest: on the owner's chosen weekday and hour in their time zone, the week's
//! visitors and top referrers, messages, links opened and engaged, and follow-ups due, with last
//! week's figures beside them, sent once by e-mail (text and HTML) and to each webhook (JSON)
//! through the outbox. Each instance looks every minute; one computes a week's digest (the
//! `weekly-digest` lease), and its row, keyed by the week's moment, makes it once whatever
//! happens. A week with no visitor, no message, no link activity and no follow-up due is written
//! as skipped and sends nothing.

pub mod figures;
pub mod render;
pub mod schedule;

use std::sync::Arc;
use std::time::Duration;

use chrono_tz::Tz;

use crate::clock::Clock;
use crate::store::digest::WeeklyDigestRow;
use crate::store::Db;
use figures::figures;
use schedule::Slot;

/// The lease that lets one instance at a time compute a week's digest.
const LEASE: &str = "weekly-digest";
/// How long an instance may hold it before another may take over.
const LEASE_MS: i64 = 10 * 60 * 1000;
/// How often each instance looks whether a digest is due.
const TICK: Duration = Duration::from_secs(60);
/// A digest missed (every instance was down) is still sent this long after its moment.
const CATCH_UP_MS: i64 = 24 * 60 * 60 * 1000;
/// At most one digest in this long, should the owner move the day within a week.
const MIN_GAP_MS: i64 = 6 * 24 * 60 * 60 * 1000;

/// What a run did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Nothing due (off, not yet, done already, or another instance is on it).
    Nothing,
    /// The week's digest was written: sent (queued on every channel) or skipped as empty.
    Written { slot: String, skipped: bool },
}

/// One instance's digest job.
pub struct DigestJob {
    pub db: Db,
    /// The outbox's channels: `email`, `webhook:<id>`.
    pub channels: Vec<String>,
    /// Wakes the outbox's workers.
    pub wake: Arc<dyn Fn() + Send + Sync>,
    pub time_zone: Tz,
    pub clock: Clock,
    pub holder: String,
    /// The page's top section, which alone is no engagement.
    pub first_section: &'static str,
}

impl DigestJob {
    /// Looks every minute, from start-up on, until aborted.
    pub async fn run(self) {
        loop {
            match self.run_once().await {
                Ok(Outcome::Written { slot, skipped }) => {
                    tracing::info!(%slot, skipped, "the weekly digest was written");
                }
                Ok(Outcome::Nothing) => {}
                Err(error) => {
                    tracing::warn!(error = %format!("{error:#}"), "the weekly digest failed; it is tried again in a minute");
                }
            }
            tokio::time::sleep(TICK).await;
        }
    }

    /// Writes this week's digest when it is due and no instance wrote it yet.
    pub async fn run_once(&self) -> anyhow::Result<Outcome> {
        let now = self.clock.now_ms();
        let settings = self.db.digest_settings(now).await?;
        if !settings.enabled {
            return Ok(Outcome::Nothing);
        }
        let (weekday, hour) = (
            u32::try_from(settings.weekday).unwrap_or(1),
            u32::try_from(settings.hour).unwrap_or(9),
        );
        let Some(slot) = schedule::latest_slot(self.time_zone, weekday, hour, now) else {
            return Ok(Outcome::Nothing);
        };
        if slot.at_ms < settings.updated_at || now - slot.at_ms > CATCH_UP_MS {
            return Ok(Outcome::Nothing);
        }
        if !self
            .db
            .take_lease(LEASE, &self.holder, now, now + LEASE_MS, slot.at_ms)
            .await?
        {
            return Ok(Outcome::Nothing);
        }
        let result = self.write(&slot, now).await;
        let done_at = result.as_ref().ok().map(|_| now);
        self.db.release_lease(LEASE, &self.holder, done_at).await?;
        result
    }

    async fn write(&self, slot: &Slot, now: i64) -> anyhow::Result<Outcome> {
        let latest = self.db.weekly_digests(1).await?;
        if latest
            .iter()
            .any(|row| row.slot == slot.key || row.slot_at > slot.at_ms - MIN_GAP_MS)
        {
            return Ok(Outcome::Nothing);
        }
        let due = self
            .db
            .due_follow_ups(slot.at_ms)
            .await?
            .into_iter()
            .map(|link| figures::DueLink {
                company: link.company,
                role: link.role,
            })
            .collect();
        let figures = figures(&self.db, self.time_zone, slot, due, self.first_section).await?;
        let skipped = figures.is_empty();
        let row = WeeklyDigestRow {
            slot: slot.key.clone(),
            slot_at: slot.at_ms,
            figures: serde_json::to_string(&figures)?,
            skipped,
            created_at: now,
        };
        let written = self
            .db
            .store_digest(
                &row,
                &render::subject(&figures),
                &self.channels,
                crate::clock::now_ms(),
            )
            .await?;
        if !written {
            return Ok(Outcome::Nothing);
        }
        if !skipped {
            (self.wake)();
        }
        Ok(Outcome::Written {
            slot: slot.key.clone(),
            skipped,
        })
    }
}
