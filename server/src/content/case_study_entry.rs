//! A case study as an entry of the content store: reading the published ones, and what a
//! publish checks beyond the case study itself (its project on the published page, its slug
//! free) and keeps (the slugs it answered at). The API and the `content` command both publish
//! through [`ready_to_publish`].

use std::sync::Arc;

use anyhow::Context;

use super::case_study::{former_slugs, CaseStudy, KIND};
use super::document::ContentDocument;

/// A published case study, as this instance serves it.
#[derive(Debug)]
pub struct PublishedCaseStudy {
    /// 0 for the placeholder's, served with the default document.
    pub version: i64,
    /// Unix ms; `None` for the placeholder's.
    pub published_at: Option<i64>,
    pub document: CaseStudy,
}

/// The published case studies, by project id.
pub type CaseStudies = std::collections::BTreeMap<String, Arc<PublishedCaseStudy>>;

/// The entry of `project`'s case study in the content store.
pub fn key(project: &str) -> crate::store::content::EntryKey<'_> {
    crate::store::content::EntryKey {
        kind: KIND,
        entry: project,
    }
}

/// `project`'s published case study, if it has one.
pub async fn published(db: &crate::store::Db, project: &str) -> anyhow::Result<Option<CaseStudy>> {
    match db
        .published_content(key(project), crate::store::content::EVERY_VERSION)
        .await?
    {
        Some(row) => Ok(Some(serde_json::from_str(&row.document).with_context(
            || format!("the published case study of {project:?} is not a case study"),
        )?)),
        None => Ok(None),
    }
}

/// The slugs the published case studies but `project`'s answer at, former ones included.
pub async fn others_slugs(db: &crate::store::Db, project: &str) -> anyhow::Result<Vec<String>> {
    let mut slugs = Vec::new();
    for row in db
        .published_entries(KIND, crate::store::content::EVERY_VERSION)
        .await?
    {
        if row.entry == project {
            continue;
        }
        let study: CaseStudy = serde_json::from_str(&row.document).with_context(|| {
            format!(
                "the published case study of {:?} is not a case study",
                row.entry
            )
        })?;
        slugs.push(study.slug);
        slugs.extend(study.former_slugs);
    }
    Ok(slugs)
}

/// A slug no other case study answers at, else the problem, for the field `slug`.
pub async fn slug_problem(
    db: &crate::store::Db,
    study: &CaseStudy,
) -> anyhow::Result<Option<String>> {
    Ok(others_slugs(db, &study.project)
        .await?
        .contains(&study.slug)
        .then(|| {
            format!(
                "\"{}\" is the address of another case study (or was): choose another",
                study.slug
            )
        }))
}

/// Checks `study` for publishing beside the published `page` and gives it the slugs it keeps
/// answering at (see [`former_slugs`]); each problem named by its field.
pub async fn ready_to_publish(
    db: &crate::store::Db,
    mut study: CaseStudy,
    page: &ContentDocument,
) -> Result<CaseStudy, crate::error::ApiError> {
    use crate::error::ApiError;
    if !page.projects.iter().any(|p| p.id == study.project) {
        return Err(ApiError::field(
            "project",
            "is not on the published page: publish the page with this project first",
        ));
    }
    super::validate::check_case_study(&study, page).map_err(ApiError::Validation)?;
    if let Some(problem) = slug_problem(db, &study).await? {
        return Err(ApiError::field("slug", problem));
    }
    let before = published(db, &study.project).await?;
    study.former_slugs = former_slugs(before.as_ref(), &study.slug);
    Ok(study)
}
