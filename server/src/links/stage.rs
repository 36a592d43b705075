//! Where a link stands, from the owner's point of view, and the counts it is read from.

use crate::store::links::{LinkRow, Tally};

/// The first section of the page: coming into view tells nothing more than the open.
pub const FIRST_SECTION: &str = "home";

/// Where a link stands, from the owner's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Never opened.
    Sent,
    /// Opened, nothing more.
    Opened,
    /// A section past the first came into view, a case study or a post was opened, a link was
    /// clicked or the resume downloaded.
    Engaged,
    /// A message was sent through it.
    Wrote,
}

impl Stage {
    /// Its name in the API and the CSV export: `sent`, `opened`, `engaged` or `wrote`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Sent => "sent",
            Self::Opened => "opened",
            Self::Engaged => "engaged",
            Self::Wrote => "wrote",
        }
    }

    pub fn of(row: &LinkRow, tally: &Tally) -> Self {
        if tally.messages > 0 {
            Self::Wrote
        } else if tally
            .sections
            .keys()
            .any(|section| section != FIRST_SECTION)
            || !tally.case_studies.is_empty()
            || !tally.posts.is_empty()
            || tally.clicks.values().any(|n| *n > 0)
            || tally.resume_downloads > 0
        {
            Self::Engaged
        } else if row.first_opened_at.is_some() {
            Self::Opened
        } else {
            Self::Sent
        }
    }
}

/// Clicks on a project's links (`project:…` targets), of all those counted.
pub fn project_clicks(tally: &Tally) -> i64 {
    tally
        .clicks
        .iter()
        .filter(|(target, _)| target.starts_with("project:"))
        .map(|(_, n)| n)
        .sum()
}
