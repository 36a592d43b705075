//! `GET /api/checklist`: the first-day checklist the dashboard shows until it is done, each item
//! read from the data (the draft, the published version, the uploaded resume, the server's
//! notifications, the ways in), never ticked by hand. One request, so the dashboard's first
//! screen need not fetch the draft.

use axum::extract::State;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::NoSession;
use crate::auth::{second_factor, Owner};
use crate::content::first_day::{page_progress, PageProgress};
use crate::content::migrate;
use crate::error::ApiError;
use crate::http::extract::json::ApiJson;
use crate::http::state::AppState;

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(checklist))
        .layer(crate::http::layers::no_store::no_store())
}

/// Each item of the first-day checklist: done or not.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Checklist {
    /// The draft's name, photo and intro all differ from the placeholder document's.
    profile: bool,
    /// None of the draft's projects is one of the placeholder's (by title or description), or
    /// the Projects section is hidden.
    projects: bool,
    /// A resume was uploaded, or the draft chooses the one made from the page (`resume.source`
    /// set to `generated` in the Resume part).
    resume: bool,
    /// A version was published, and the draft's name is the one visitors see.
    published: bool,
    /// E-mail notifications are set up (`--smtp-url` and `--notify-email`).
    notifications: bool,
    /// A second way in: a passkey, or the second factor on.
    second_way_in: bool,
}

/// The first-day checklist: whether the page is the owner's own (name, photo and intro;
/// projects; resume), published, and the account ready (e-mail notifications, a second way in).
#[utoipa::path(get, path = "/checklist", tag = "checklist",
    operation_id = "readChecklist", security(("session" = [])),
    responses(
        (status = 200, body = Checklist),
        NoSession,
    ))]
async fn checklist(
    State(state): State<AppState>,
    owner: Owner,
) -> Result<ApiJson<Checklist>, ApiError> {
    let live = state.content.current();
    let draft = match state
        .db
        .content_draft(crate::store::content::EntryKey::PAGE)
        .await?
    {
        Some(row) => {
            let mut draft: serde_json::Value =
                serde_json::from_str(&row.document).map_err(anyhow::Error::from)?;
            migrate::upgrade(&mut draft);
            draft
        }
        None => serde_json::to_value(&live.document).map_err(anyhow::Error::from)?,
    };
    let PageProgress {
        profile,
        projects,
        published,
    } = page_progress(&draft, live.version, &live.document.profile.name);
    let (resume, passkeys, second_factor) = tokio::try_join!(
        state.db.resume_sha256(),
        state.db.passkeys(owner.id),
        second_factor::is_on(&state.db, owner.id),
    )?;
    Ok(ApiJson(Checklist {
        profile,
        projects,
        resume: resume.is_some() || draft["resume"]["source"] == "generated",
        published,
        notifications: state.contact.email_on,
        second_way_in: !passkeys.is_empty() || second_factor,
    }))
}
