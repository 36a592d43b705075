//! What happens through a link as the page reports it (an open, a section come into view, a
//! click, a case study or a post opened), checked; who sent it; and what became of it ([`super::Links::count_visit`] counts it).

use std::net::IpAddr;
use std::time::Duration;

use axum::http::HeaderMap;
use serde::Deserialize;
use utoipa::ToSchema;

use super::slug;
use crate::domain::FieldErrors;
use crate::insights::{is_content_id, is_post_id, is_project_id, POST_ID_RULE, PROJECT_ID_RULE};

/// What the page reports about a visit through a link.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum VisitKind {
    /// The visitor is there: after a scroll, a pointer or key event, or 5 seconds visible.
    Open,
    /// A section came into view.
    Section,
    /// A counted link was clicked.
    Click,
    /// A case study's page was opened from the link's page (its address carries `?via=<slug>`).
    #[serde(rename = "caseStudy")]
    CaseStudy,
    /// A post's page was opened from the link's page, directly or through the writing's index
    /// (its address carries `?via=<slug>`).
    Post,
}

/// An event of a visit as checked: what to count.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Visit {
    Open,
    Section(String),
    Click(String),
    /// A case study, by its project's id.
    CaseStudy(String),
    /// A post, by its id.
    Post(String),
}

/// The fields of an event besides its link and kind, each only for its kind.
#[derive(Debug, Default)]
pub struct VisitFields {
    pub target: Option<String>,
    pub section: Option<String>,
    pub case_study: Option<String>,
    pub post: Option<String>,
}

impl Visit {
    /// Checks an event the page sent for the link `slug`: a section's id only for a section, a
    /// click's target only for a click, each a content id; a case study's project id only for a
    /// case study, a post's id only for a post. Every field not valid is named.
    pub fn parse(slug: &str, kind: VisitKind, fields: VisitFields) -> Result<Self, FieldErrors> {
        let VisitFields {
            target,
            section,
            case_study,
            post,
        } = fields;
        let mut errors = FieldErrors::new();
        if !slug::is_well_formed(slug) {
            errors.insert(
                "slug".into(),
                "must be 1 to 64 of A-Z, a-z, 0-9, '-' and '_'".into(),
            );
        }
        let mut only = |name: &str, value: &Option<String>, kind: &str| {
            if value.is_some() {
                errors.insert(name.into(), format!("is only for a {kind}"));
            }
        };
        if !matches!(kind, VisitKind::CaseStudy) {
            only("caseStudy", &case_study, "case study");
        }
        if !matches!(kind, VisitKind::Post) {
            only("post", &post, "post");
        }
        let visit = match kind {
            VisitKind::Open => {
                only("target", &target, "click");
                only("section", &section, "section");
                Some(Self::Open)
            }
            VisitKind::Section => {
                only("target", &target, "click");
                content_id("section", section, &mut errors).map(Self::Section)
            }
            VisitKind::Click => {
                only("section", &section, "section");
                content_id("target", target, &mut errors).map(Self::Click)
            }
            VisitKind::CaseStudy => {
                only("target", &target, "click");
                only("section", &section, "section");
                match case_study {
                    Some(id) if is_project_id(&id) => Some(Self::CaseStudy(id)),
                    Some(_) => {
                        errors.insert("caseStudy".into(), PROJECT_ID_RULE.into());
                        None
                    }
                    None => {
                        errors.insert("caseStudy".into(), "is required for a case study".into());
                        None
                    }
                }
            }
            VisitKind::Post => {
                only("target", &target, "click");
                only("section", &section, "section");
                match post {
                    Some(id) if is_post_id(&id) => Some(Self::Post(id)),
                    Some(_) => {
                        errors.insert("post".into(), POST_ID_RULE.into());
                        None
                    }
                    None => {
                        errors.insert("post".into(), "is required for a post".into());
                        None
                    }
                }
            }
        };
        match visit {
            Some(visit) if errors.is_empty() => Ok(visit),
            _ => Err(errors),
        }
    }
}

/// A section's or a click's content id, required for its kind: `None`, with the field named in
/// `errors`, when it is missing or not one.
fn content_id(field: &str, value: Option<String>, errors: &mut FieldErrors) -> Option<String> {
    match value {
        Some(id) if is_content_id(&id) => Some(id),
        Some(_) => {
            errors.insert(
                field.into(),
                "must be 1 to 64 of a-z, 0-9, ':', '.', '_' and '-', starting with a letter or digit"
                    .into(),
            );
            None
        }
        None => {
            let kind = if field == "section" {
                "section"
            } else {
                "click"
            };
            errors.insert(field.into(), format!("is required for a {kind}"));
            None
        }
    }
}

/// Who an event came from, as the insights' rules read it.
#[derive(Debug, Clone, Copy)]
pub struct Sender<'a> {
    /// The client's address (see `ClientIp`).
    pub client: IpAddr,
    pub headers: &'a HeaderMap,
    /// The host visitors reach the site at (part of the visitor's daily hash).
    pub site: &'a str,
}

/// What became of an event: the answer is the same whether or not anything was counted, but for
/// a network over its rate limit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Counted {
    /// Counted, or nothing to count.
    Done,
    /// Over the network's beacon limit (shared with the insights' beacon): try again after this.
    TooMany(Duration),
}
