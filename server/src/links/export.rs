//! The owner's links as a CSV table: each with its totals and state, the cells a spreadsheet
//! would run as formulas defused, as in the messages' export.

use crate::store::links::{LinkRow, Tally};

use super::stage::{project_clicks, Stage};

/// The columns of the CSV export.
const CSV_COLUMNS: [&str; 20] = [
    "company",
    "role",
    "state",
    "path",
    "language",
    "created_at",
    "first_opened_at",
    "last_activity_at",
    "expires_at",
    "revoked_at",
    "opens",
    "visitors",
    "resume_downloads",
    "project_clicks",
    "messages",
    "sections",
    "case_studies",
    "posts",
    "alerts",
    "note",
];

/// The CSV table of `links` (as [`super::Links::list`] gives them), in their order.
pub fn csv(links: Vec<(LinkRow, Tally)>) -> anyhow::Result<Vec<u8>> {
    crate::contact::export::csv_table(&CSV_COLUMNS, links.into_iter().map(row))
}

fn row((link, tally): (LinkRow, Tally)) -> [String; 20] {
    let state = Stage::of(&link, &tally).name();
    let listed = |counts: &std::collections::BTreeMap<String, i64>| {
        counts
            .iter()
            .map(|(key, n)| format!("{key}: {n}"))
            .collect::<Vec<_>>()
            .join("; ")
    };
    let (sections, case_studies) = (listed(&tally.sections), listed(&tally.case_studies));
    let posts = listed(&tally.posts);
    let alerts = [
        ("open", link.alert_open),
        ("resume", link.alert_resume),
        ("message", link.alert_message),
    ]
    .iter()
    .filter(|(_, on)| *on)
    .map(|(name, _)| *name)
    .collect::<Vec<_>>()
    .join(" ");
    [
        link.company,
        link.role,
        state.to_owned(),
        format!("/a/{}", link.slug),
        link.language,
        rfc3339(Some(link.created_at)),
        rfc3339(link.first_opened_at),
        rfc3339(link.last_activity_at),
        rfc3339(link.expires_at),
        rfc3339(link.revoked_at),
        tally.opens.to_string(),
        tally.visitors.to_string(),
        tally.resume_downloads.to_string(),
        project_clicks(&tally).to_string(),
        tally.messages.to_string(),
        sections,
        case_studies,
        posts,
        alerts,
        link.note,
    ]
}

/// A time in Unix milliseconds as RFC 3339 in UTC, to the second; empty for none.
fn rfc3339(ms: Option<i64>) -> String {
    ms.and_then(chrono::DateTime::from_timestamp_millis)
        .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
        .unwrap_or_default()
}
