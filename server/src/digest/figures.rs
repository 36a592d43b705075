//! A week's figures: visitors and page views, the top referrers, messages, links opened and
//! engaged, and follow-ups due, each beside the week before's; what is stored, e-mailed and
//! posted.

use chrono::Days;
use chrono_tz::Tz;
use serde::{Deserialize, Serialize};

use super::schedule::{self, Slot};
use crate::store::digest::{Week, WeekCounts};
use crate::store::Db;

/// The top referrers listed.
const TOP_REFERRERS: i64 = 5;
/// The links due for a follow-up named (the figure counts them all).
const MAX_NAMED: usize = 10;

/// A figure this week and the week before.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pair {
    pub this: i64,
    pub last: i64,
}

/// A referrer and its page views in the week.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Referrer {
    pub host: String,
    pub views: i64,
}

/// A week's figures: what is stored, e-mailed and posted.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Figures {
    /// The week's first and last days (`YYYY-MM-DD`, local).
    pub from: String,
    pub to: String,
    /// The owner's time zone (IANA).
    pub time_zone: String,
    pub visitors: Pair,
    pub page_views: Pair,
    pub messages: Pair,
    pub links_opened: Pair,
    pub links_engaged: Pair,
    /// Follow-ups due when the digest was made, and when last week's was.
    pub follow_ups_due: Pair,
    pub top_referrers: Vec<Referrer>,
    /// The links due for a follow-up, the longest waiting first (at most ten named).
    #[serde(default)]
    pub follow_ups: Vec<DueLink>,
}

/// A link due for a follow-up, as the digest names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DueLink {
    pub company: String,
    pub role: String,
}

impl Figures {
    /// Nothing happened: no visitor, no message, no link activity, no follow-up due.
    pub fn is_empty(&self) -> bool {
        self.visitors.this == 0
            && self.page_views.this == 0
            && self.messages.this == 0
            && self.links_opened.this == 0
            && self.links_engaged.this == 0
            && self.follow_ups_due.this == 0
    }
}

/// A week's span as the store takes it.
fn week(span: &(String, String, i64, i64)) -> Week<'_> {
    Week {
        from_day: span.0.as_str(),
        to_day: span.1.as_str(),
        from_ms: span.2,
        to_ms: span.3,
    }
}

/// The seven local days before `date`, and the seven before those.
fn weeks(tz: Tz, date: chrono::NaiveDate) -> Option<[(String, String, i64, i64); 2]> {
    let span = |end: chrono::NaiveDate| -> Option<(String, String, i64, i64)> {
        let start = end.checked_sub_days(Days::new(7))?;
        Some((
            start.format("%Y-%m-%d").to_string(),
            end.format("%Y-%m-%d").to_string(),
            schedule::local_midnight(tz, start)?.timestamp_millis(),
            schedule::local_midnight(tz, end)?.timestamp_millis(),
        ))
    };
    Some([span(date)?, span(date.checked_sub_days(Days::new(7))?)?])
}

/// The figures of the week before `slot`, with the week before that beside them; `follow_ups_due`
/// now, and as last week's digest had it.
/// `first_section` is the page's top, which alone is no engagement.
pub async fn figures(
    db: &Db,
    tz: Tz,
    slot: &Slot,
    due: Vec<DueLink>,
    first_section: &str,
) -> anyhow::Result<Figures> {
    let follow_ups_due = i64::try_from(due.len()).unwrap_or(i64::MAX);
    let [this, last] = weeks(tz, slot.date).ok_or_else(|| anyhow::anyhow!("no such week"))?;
    let now: WeekCounts = db.week_counts(&week(&this), first_section).await?;
    let before: WeekCounts = db.week_counts(&week(&last), first_section).await?;
    let referrers = db.top_referrers(&week(&this), TOP_REFERRERS).await?;
    let last_due = db
        .weekly_digests(1)
        .await?
        .into_iter()
        .find(|row| row.slot_at < slot.at_ms)
        .and_then(|row| serde_json::from_str::<Figures>(&row.figures).ok())
        .map_or(0, |figures| figures.follow_ups_due.this);
    let pair = |f: fn(&WeekCounts) -> i64| Pair {
        this: f(&now),
        last: f(&before),
    };
    let to = slot
        .date
        .checked_sub_days(Days::new(1))
        .unwrap_or(slot.date);
    Ok(Figures {
        from: this.0.clone(),
        to: to.format("%Y-%m-%d").to_string(),
        time_zone: tz.name().to_owned(),
        visitors: pair(|w| w.visitors),
        page_views: pair(|w| w.page_views),
        messages: pair(|w| w.messages),
        links_opened: pair(|w| w.links_opened),
        links_engaged: pair(|w| w.links_engaged),
        follow_ups_due: Pair {
            this: follow_ups_due,
            last: last_due,
        },
        top_referrers: referrers
            .into_iter()
            .map(|(host, views)| Referrer { host, views })
            .collect(),
        follow_ups: due.into_iter().take(MAX_NAMED).collect(),
    })
}
