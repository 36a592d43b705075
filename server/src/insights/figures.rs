//! The owner's figures for a range of days: each day's counts, the totals and the most frequent
//! referrers, campaigns, clicks, case studies, posts, devices and browsers, made from what the
//! store keeps.

use std::collections::BTreeMap;

use chrono::NaiveDate;
use serde::Serialize;
use utoipa::ToSchema;

use crate::store::insights::{InsightsCountRow, InsightsDayRow};

/// The most frequent keys of each kind that are shown.
const TOP: usize = 20;

/// One day's figures.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DayFigures {
    /// `YYYY-MM-DD` in the owner's time zone.
    pub day: String,
    pub page_views: i64,
    pub visitors: i64,
    pub resume_downloads: i64,
    /// Real (not spam) contact messages received that day.
    pub messages: i64,
}

/// A value and how often it was seen.
#[derive(Debug, Serialize, ToSchema)]
pub struct KeyCount {
    pub key: String,
    pub count: i64,
}

/// A case study and how often it was seen: its page's views, or an application link's readers
/// who opened it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct CaseStudyCount {
    /// Its project's id.
    #[schema(example = "portfolio")]
    pub project: String,
    /// Its project's title on the published page; `null` for a project no longer on it.
    pub title: Option<String>,
    pub count: i64,
}

/// The counts of case studies by project id, each with its project's title on the published
/// page (`title_of`, `None` when the project is no longer on it), in the order given.
pub fn titled(
    counts: impl IntoIterator<Item = (String, i64)>,
    title_of: impl Fn(&str) -> Option<String>,
) -> Vec<CaseStudyCount> {
    counts
        .into_iter()
        .map(|(project, count)| CaseStudyCount {
            title: title_of(&project),
            project,
            count,
        })
        .collect()
}

/// What a case study's visits are counted as (`insights_counts.kind`), keyed by its project's id.
pub const CASE_STUDY_KIND: &str = "case-study";

/// A post and how often it was seen: its page's views, or an application link's readers who
/// read it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct PostCount {
    /// Its id (kept when its title or address changes).
    #[schema(example = "hello-world")]
    pub post: String,
    /// Its title as published; `null` for a post no longer published.
    pub title: Option<String>,
    /// Its address (`/writing/<slug>/`, under its language's prefix); `null` for a post no
    /// longer published.
    #[schema(example = "/writing/hello-world/")]
    pub path: Option<String>,
    pub count: i64,
}

/// The counts of posts by id, each with its title and address as published (`published`, `None`
/// for a post no longer published), in the order given.
pub fn titled_posts(
    counts: impl IntoIterator<Item = (String, i64)>,
    published: impl Fn(&str) -> Option<(String, String)>,
) -> Vec<PostCount> {
    counts
        .into_iter()
        .map(|(post, count)| {
            let (title, path) = published(&post).unzip();
            PostCount {
                post,
                title,
                path,
                count,
            }
        })
        .collect()
}

/// What a post's visits are counted as (`insights_counts.kind`), keyed by its id.
pub const POST_KIND: &str = "post";

/// Totals over the range.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Totals {
    pub page_views: i64,
    /// Visitors are told apart within a day only, so this is the sum of the daily counts.
    pub visitors: i64,
    pub resume_downloads: i64,
    pub messages: i64,
    /// Messages per 100 visitors; absent without visitors.
    pub messages_per_100_visitors: Option<f64>,
}

/// The owner's figures for a range of days.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct InsightsFigures {
    /// Whether insights are counted (`--insights`).
    pub enabled: bool,
    /// The time zone the days are in.
    pub time_zone: String,
    /// Every day of the range, oldest first, days without visits included.
    pub days: Vec<DayFigures>,
    pub totals: Totals,
    /// Referring sites (hosts), the most frequent first.
    pub referrers: Vec<KeyCount>,
    /// `utm_source / utm_medium / utm_campaign`, the most frequent first.
    pub campaigns: Vec<KeyCount>,
    /// Clicks per link id (`project:ID:code`, `project:ID:demo`, `social:NAME`).
    pub clicks: Vec<KeyCount>,
    /// Views of each case study's page (`/projects/<slug>/`, in any language), the most
    /// viewed first; also counted in the page views.
    pub case_studies: Vec<CaseStudyCount>,
    /// Views of each post's page (`/writing/<slug>/`, under its language's prefix), the most
    /// viewed first; also counted in the page views.
    pub posts: Vec<PostCount>,
    /// Page views by device class: `desktop`, `phone`, `tablet`, `other`.
    pub devices: Vec<KeyCount>,
    /// Page views by browser family.
    pub browsers: Vec<KeyCount>,
}

/// What the figures are made from.
pub struct Sources {
    pub first: NaiveDate,
    pub today: NaiveDate,
    /// The stored days of the range (days without visits have none).
    pub days: Vec<InsightsDayRow>,
    /// Real messages per day (`YYYY-MM-DD`).
    pub messages: BTreeMap<String, i64>,
    /// Each kind's keys over the range, the largest first.
    pub counts: Vec<InsightsCountRow>,
    pub enabled: bool,
    pub time_zone: String,
}

/// Every day of the range (days without visits included), the totals, and the top keys.
pub fn tally(sources: Sources) -> InsightsFigures {
    let Sources {
        first,
        today,
        days: stored,
        messages,
        counts,
        enabled,
        time_zone,
    } = sources;
    let stored: BTreeMap<String, _> = stored
        .into_iter()
        .map(|row| (row.day.clone(), row))
        .collect();
    let days: Vec<DayFigures> = first
        .iter_days()
        .take_while(|day| *day <= today)
        .map(|day| {
            let day = day.to_string();
            let row = stored.get(&day);
            DayFigures {
                page_views: row.map_or(0, |r| r.page_views),
                visitors: row.map_or(0, |r| r.visitors),
                resume_downloads: row.map_or(0, |r| r.resume_downloads),
                messages: messages.get(&day).copied().unwrap_or(0),
                day,
            }
        })
        .collect();
    let sum = |f: fn(&DayFigures) -> i64| days.iter().map(f).sum::<i64>();
    let (visitors, messages_total) = (sum(|d| d.visitors), sum(|d| d.messages));
    let totals = Totals {
        page_views: sum(|d| d.page_views),
        visitors,
        resume_downloads: sum(|d| d.resume_downloads),
        messages: messages_total,
        messages_per_100_visitors: (visitors > 0)
            .then(|| (messages_total as f64 * 1000.0 / visitors as f64).round() / 10.0),
    };
    let mut by_kind: BTreeMap<String, Vec<KeyCount>> = BTreeMap::new();
    for row in counts {
        let list = by_kind.entry(row.kind).or_default();
        if list.len() < TOP {
            list.push(KeyCount {
                key: row.key,
                count: row.count,
            });
        }
    }
    let mut take = |kind: &str| by_kind.remove(kind).unwrap_or_default();
    InsightsFigures {
        enabled,
        time_zone,
        totals,
        referrers: take("referrer"),
        campaigns: take("campaign"),
        clicks: take("click"),
        case_studies: take(CASE_STUDY_KIND)
            .into_iter()
            .map(|k| CaseStudyCount {
                project: k.key,
                title: None,
                count: k.count,
            })
            .collect(),
        posts: take(POST_KIND)
            .into_iter()
            .map(|k| PostCount {
                post: k.key,
                title: None,
                path: None,
                count: k.count,
            })
            .collect(),
        devices: take("device"),
        browsers: take("browser"),
        days,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        text.parse().unwrap()
    }

    #[test]
    fn every_day_is_listed_and_the_totals_add_up() {
        let figures = tally(Sources {
            first: day("2026-03-01"),
            today: day("2026-03-03"),
            days: vec![InsightsDayRow {
                day: "2026-03-02".into(),
                page_views: 9,
                visitors: 3,
                resume_downloads: 1,
            }],
            messages: BTreeMap::from([("2026-03-02".to_owned(), 1), ("2026-03-03".to_owned(), 1)]),
            counts: (0..25)
                .map(|n| InsightsCountRow {
                    kind: "referrer".into(),
                    key: format!("site{n}.example"),
                    count: 100 - n,
                })
                .collect(),
            enabled: true,
            time_zone: "UTC".into(),
        });
        let days: Vec<_> = figures.days.iter().map(|d| d.day.as_str()).collect();
        assert_eq!(days, ["2026-03-01", "2026-03-02", "2026-03-03"]);
        assert_eq!(figures.days[0].page_views, 0);
        assert_eq!(figures.totals.page_views, 9);
        assert_eq!(figures.totals.messages, 2);
        // 2 messages from 3 visitors: 66.7 per 100, to one decimal.
        assert_eq!(figures.totals.messages_per_100_visitors, Some(66.7));
        assert_eq!(figures.referrers.len(), TOP);
        assert_eq!(figures.referrers[0].key, "site0.example");
        assert!(figures.clicks.is_empty());
        assert!(figures.posts.is_empty());
    }

    #[test]
    fn posts_are_listed_by_their_counts_with_their_title_and_address_while_published() {
        let figures = tally(Sources {
            first: day("2026-03-01"),
            today: day("2026-03-01"),
            days: Vec::new(),
            messages: BTreeMap::new(),
            counts: [("hello", 3), ("gone", 1)]
                .map(|(key, count)| InsightsCountRow {
                    kind: POST_KIND.into(),
                    key: key.into(),
                    count,
                })
                .into(),
            enabled: true,
            time_zone: "UTC".into(),
        });
        let counts = figures.posts.into_iter().map(|c| (c.post, c.count));
        let posts = titled_posts(counts, |id| {
            (id == "hello").then(|| ("Hello".to_owned(), "/de/writing/hallo/".to_owned()))
        });
        assert_eq!(
            posts,
            [
                PostCount {
                    post: "hello".into(),
                    title: Some("Hello".into()),
                    path: Some("/de/writing/hallo/".into()),
                    count: 3,
                },
                PostCount {
                    post: "gone".into(),
                    title: None,
                    path: None,
                    count: 1,
                },
            ]
        );
    }
}
