//! `/api/links`: the owner's application links (list, make, read with its days, change, delete,
//! export as CSV) and the page's beacon for them (`POST /api/links/visits`, public).

use std::collections::BTreeMap;

use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::{Deserialize, Deserializer, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::follow_ups::{states, FollowUpState};
use super::responses::{
    BeaconBody, CrossSite, IdNotWhole, InvalidFields, JsonBody, NoSession, NoSuchLink,
    TooManyEvents,
};
use crate::auth::Owner;
use crate::content::post::Posts;
use crate::content::ContentDocument;
use crate::domain::FieldErrors;
use crate::error::{ApiError, ErrorBody, Result};
use crate::http::api::insights::{published_case_study, published_post};
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::extract::path::ApiPath;
use crate::http::extract::site_host::site_host;
use crate::http::state::AppState;
use crate::insights::figures::{titled, titled_posts, CaseStudyCount, PostCount};
use crate::insights::MAX_BEACON_BYTES;
use crate::links::form::{self, LinkForm, LinkResume, RawLink};
use crate::links::visit::{Counted, Sender, Visit, VisitFields, VisitKind};
use crate::links::{project_clicks, CreateError, Stage};
use crate::store::links::{Alerts, LinkChange, LinkRow, Tally};

pub fn router() -> OpenApiRouter<AppState> {
    let beacon = OpenApiRouter::new()
        .routes(routes!(visit))
        .layer(DefaultBodyLimit::max(MAX_BEACON_BYTES));
    let owner = OpenApiRouter::new()
        .routes(routes!(list, create))
        .routes(routes!(export))
        .routes(routes!(read, update, delete))
        .layer(crate::http::layers::no_store::no_store());
    beacon.merge(owner)
}

/// Where a link stands: `sent` (never opened), `opened`, `engaged` (a section past the first
/// came into view, a case study or a post was opened, a link was clicked or the resume
/// downloaded) or `wrote` (a message was sent through it). A revoked or expired link keeps its
/// state.
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LinkState {
    Sent,
    Opened,
    Engaged,
    Wrote,
}

impl From<Stage> for LinkState {
    fn from(stage: Stage) -> Self {
        match stage {
            Stage::Sent => Self::Sent,
            Stage::Opened => Self::Opened,
            Stage::Engaged => Self::Engaged,
            Stage::Wrote => Self::Wrote,
        }
    }
}

/// Which events are told to the owner (by e-mail and the webhooks, when configured).
#[derive(Debug, Clone, Copy, Serialize, ToSchema)]
pub struct LinkAlerts {
    /// The first open.
    open: bool,
    /// A resume download (the first of each day).
    resume: bool,
    /// A message sent during a visit through the link.
    message: bool,
}

/// A link's counts over every day.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkTotals {
    opens: i64,
    /// Distinct visitors, counted once a day each.
    visitors: i64,
    resume_downloads: i64,
    /// Clicks on a project's links (targets starting `project:`).
    project_clicks: i64,
    messages: i64,
    /// Each section's id (e.g. `projects`) and how many times it came into view (once a
    /// visitor a day).
    sections: BTreeMap<String, i64>,
    /// Each case study opened from the link's page and how many times (once a visitor a day),
    /// the most opened first.
    case_studies: Vec<CaseStudyCount>,
    /// Each post read through the link (opened from its page, directly or through the
    /// writing's index) and how many times (once a visitor a day), the most read first.
    posts: Vec<PostCount>,
}

/// An application link.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    id: i64,
    #[schema(example = "acme-3q2-7wX1b_kPz9QeL")]
    slug: String,
    /// Where it is served: `/a/<slug>`.
    #[schema(example = "/a/acme-3q2-7wX1b_kPz9QeL")]
    path: String,
    company: String,
    role: String,
    note: String,
    /// The language of the page it serves (`/` when that language is no longer published).
    language: String,
    /// Unix milliseconds; `null` when it never expires.
    expires_at: Option<i64>,
    /// Unix milliseconds; `null` while it is live.
    revoked_at: Option<i64>,
    created_at: i64,
    first_opened_at: Option<i64>,
    last_activity_at: Option<i64>,
    state: LinkState,
    alerts: LinkAlerts,
    totals: LinkTotals,
    /// Its own resume; `null` for the page's.
    resume: Option<LinkResume>,
    /// Whom the application went to, where a follow-up goes; `null` when not given.
    #[schema(example = "jane@acme.example")]
    recipient_email: Option<String>,
    /// The days after the first open, with no message through the link, before a follow-up
    /// comes up.
    #[schema(minimum = 1, maximum = 60, example = 5)]
    follow_up_days: i64,
    /// What the owner did with its follow-up; `null` while nothing was (it may be due: see
    /// `/api/follow-ups`).
    follow_up: Option<FollowUpState>,
}

/// A tally's case studies, the most opened first, titled from the published `document`.
fn case_studies(tally: &Tally, document: &ContentDocument) -> Vec<CaseStudyCount> {
    let mut counts: Vec<(String, i64)> = tally
        .case_studies
        .iter()
        .map(|(project, n)| (project.clone(), *n))
        .collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    titled(counts, |id| crate::content::project_title(document, id))
}

/// What a link's counts are titled from: the published page and posts.
struct Published<'a> {
    document: &'a ContentDocument,
    posts: &'a Posts,
}

/// A tally's posts, the most read first, each with its title and address while published.
fn posts(tally: &Tally, published: &Published<'_>) -> Vec<PostCount> {
    let mut counts: Vec<(String, i64)> = tally
        .posts
        .iter()
        .map(|(post, n)| (post.clone(), *n))
        .collect();
    counts.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
    titled_posts(counts, |id| {
        crate::content::post_title_and_path(published.document, published.posts, id)
    })
}

impl Link {
    fn new(
        row: LinkRow,
        tally: &Tally,
        published: &Published<'_>,
        follow_ups: &mut BTreeMap<i64, FollowUpState>,
    ) -> Self {
        let state = Stage::of(&row, tally).into();
        Self {
            follow_up: follow_ups.remove(&row.id),
            id: row.id,
            path: format!("/a/{}", row.slug),
            slug: row.slug,
            company: row.company,
            role: row.role,
            note: row.note,
            language: row.language,
            expires_at: row.expires_at,
            revoked_at: row.revoked_at,
            created_at: row.created_at,
            first_opened_at: row.first_opened_at,
            last_activity_at: row.last_activity_at,
            state,
            resume: LinkResume::read(row.resume.as_deref()),
            recipient_email: row.recipient_email,
            follow_up_days: row.follow_up_days,
            alerts: LinkAlerts {
                open: row.alert_open,
                resume: row.alert_resume,
                message: row.alert_message,
            },
            totals: LinkTotals {
                opens: tally.opens,
                visitors: tally.visitors,
                resume_downloads: tally.resume_downloads,
                project_clicks: project_clicks(tally),
                messages: tally.messages,
                sections: tally.sections.clone(),
                case_studies: case_studies(tally, published.document),
                posts: posts(tally, published),
            },
        }
    }
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LinkList {
    /// The most recently active first (a link never opened by when it was made).
    links: Vec<Link>,
}

/// One day's counts of a link.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LinkDay {
    /// `YYYY-MM-DD` in the owner's time zone (`--insights-time-zone`).
    day: String,
    opens: i64,
    visitors: i64,
    resume_downloads: i64,
    project_clicks: i64,
    messages: i64,
    sections: BTreeMap<String, i64>,
    /// The case studies opened that day, the most opened first.
    case_studies: Vec<CaseStudyCount>,
    /// The posts read that day, the most read first.
    posts: Vec<PostCount>,
    /// Each clicked target (e.g. `project:shop:demo`) and its clicks.
    clicks: BTreeMap<String, i64>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LinkDetail {
    link: Link,
    /// The days with activity of the last 90, oldest first.
    days: Vec<LinkDay>,
}

/// Which events to tell the owner about; those left out stay as they are (all on for a new link).
#[derive(Debug, Default, ToSchema)]
pub struct AlertsChange {
    open: Option<bool>,
    resume: Option<bool>,
    message: Option<bool>,
}

/// Read from an object only: serde's derive would also fill it from an array, by position.
impl<'de> Deserialize<'de> for AlertsChange {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> std::result::Result<Self, D::Error> {
        const FIELDS: &[&str] = &["open", "resume", "message"];
        struct Fields;
        impl<'de> serde::de::Visitor<'de> for Fields {
            type Value = AlertsChange;

            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object of open, resume and message")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> std::result::Result<AlertsChange, A::Error> {
                let mut alerts = AlertsChange::default();
                while let Some(key) = map.next_key::<String>()? {
                    let slot = match key.as_str() {
                        "open" => &mut alerts.open,
                        "resume" => &mut alerts.resume,
                        "message" => &mut alerts.message,
                        _ => return Err(serde::de::Error::unknown_field(&key, FIELDS)),
                    };
                    *slot = map.next_value()?;
                }
                Ok(alerts)
            }
        }
        deserializer.deserialize_map(Fields)
    }
}

/// A new link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct NewLinkRequest {
    /// 1 to 100 characters once trimmed, one line.
    #[schema(min_length = 1, max_length = 100, example = "Acme")]
    company: String,
    /// 1 to 100 characters once trimmed, one line.
    #[schema(min_length = 1, max_length = 100, example = "Frontend Developer")]
    role: String,
    /// The owner's own words, at most 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    note: Option<String>,
    /// A published language's tag (the page's default language when left out).
    #[serde(default)]
    language: Option<String>,
    /// When it stops working (Unix milliseconds, in the future); never when left out.
    #[serde(default)]
    #[schema(minimum = 0, maximum = 253_402_300_799_999_i64)]
    expires_at: Option<i64>,
    #[serde(default)]
    alerts: Option<AlertsChange>,
    /// Its own resume: which sections, projects and jobs the resume of its page shows (each left
    /// out: the page's choice); left out, the page's resume.
    #[serde(default)]
    resume: Option<LinkResume>,
    /// Whom the application goes to (where a follow-up is sent); empty or left out: no one.
    #[serde(default)]
    #[schema(max_length = 254, example = "jane@acme.example")]
    recipient_email: Option<String>,
    /// The days after the first open, with no message through the link, before a follow-up
    /// comes up: 1 to 60, 5 when left out.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 60)]
    follow_up_days: Option<i64>,
}

/// `Some(value)` for a field that is present, `null` included, so that `null` can clear it.
fn present<'de, D, T>(deserializer: D) -> std::result::Result<Option<Option<T>>, D::Error>
where
    D: Deserializer<'de>,
    T: Deserialize<'de>,
{
    Option::<T>::deserialize(deserializer).map(Some)
}

/// What to change; fields left out stay as they are.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LinkUpdate {
    /// At most 1,000 characters.
    #[serde(default)]
    #[schema(max_length = 1000)]
    note: Option<String>,
    /// Unix milliseconds (a time past expires the link now); `null` clears the expiry.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<i64>, minimum = 0, maximum = 253_402_300_799_999_i64)]
    expires_at: Option<Option<i64>>,
    /// `true` revokes the link (its address then shows the page and counts nothing), `false`
    /// makes it live again.
    #[serde(default)]
    revoked: Option<bool>,
    #[serde(default)]
    alerts: Option<AlertsChange>,
    /// Its own resume; `null` gives it the page's.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<LinkResume>)]
    resume: Option<Option<LinkResume>>,
    /// Whom the application went to; `null` or empty forgets it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 254)]
    recipient_email: Option<Option<String>>,
    /// The days before a follow-up comes up, 1 to 60.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 60)]
    follow_up_days: Option<i64>,
}

fn alerts_from(change: Option<&AlertsChange>) -> Alerts {
    let change = change.map_or_else(AlertsChange::default, |c| AlertsChange {
        open: c.open,
        resume: c.resume,
        message: c.message,
    });
    let all = Alerts::default();
    Alerts {
        open: change.open.unwrap_or(all.open),
        resume: change.resume.unwrap_or(all.resume),
        message: change.message.unwrap_or(all.message),
    }
}

/// Every link with its totals and state, the most recently active first.
#[utoipa::path(get, path = "/links", tag = "links",
    operation_id = "listLinks", security(("session" = [])),
    responses(
        (status = 200, body = LinkList),
        NoSession,
    ))]
async fn list(State(state): State<AppState>, _owner: Owner) -> Result<ApiJson<LinkList>> {
    let (page, posts) = (state.content.current(), state.content.posts());
    let published = Published {
        document: &page.document,
        posts: &posts,
    };
    let mut follow_ups = states(&state, None).await?;
    let links = state
        .links
        .list()
        .await?
        .into_iter()
        .map(|(row, tally)| Link::new(row, &tally, &published, &mut follow_ups))
        .collect();
    Ok(ApiJson(LinkList { links }))
}

/// Makes a link for one application; its address serves the page in its language at once.
#[utoipa::path(post, path = "/links", tag = "links", request_body = NewLinkRequest,
    operation_id = "createLink", security(("session" = [])),
    responses(
        (status = 201, description = "Made", body = Link),
        (status = 409, description = "Already 1,000 links: delete some first", body = ErrorBody),
        NoSession, CrossSite, JsonBody, InvalidFields,
    ))]
async fn create(
    State(state): State<AppState>,
    _owner: Owner,
    ApiJson(request): ApiJson<NewLinkRequest>,
) -> Result<(StatusCode, ApiJson<Link>)> {
    let published = state.content.current();
    let form = LinkForm::parse(
        RawLink {
            company: &request.company,
            role: &request.role,
            note: request.note.as_deref(),
            language: request.language.as_deref(),
            expires_at: request.expires_at,
            alerts: alerts_from(request.alerts.as_ref()),
            resume: request.resume.as_ref(),
            recipient_email: request.recipient_email.as_deref(),
            follow_up_days: request.follow_up_days,
        },
        &published.document,
        state.links.now_ms(),
    )
    .map_err(ApiError::Validation)?;
    let row = state
        .links
        .create(&form)
        .await
        .map_err(|error| match error {
            CreateError::TooMany => ApiError::Conflict(error.to_string()),
            CreateError::Store(error) => error.into(),
        })?;
    tracing::info!(id = row.id, "the owner made an application link");
    Ok((
        StatusCode::CREATED,
        ApiJson(Link::new(
            row,
            &Tally::default(),
            &Published {
                document: &published.document,
                posts: &Posts::new(),
            },
            &mut BTreeMap::new(),
        )),
    ))
}

/// The `{id}` of `/links/{id}`.
#[derive(Debug, Deserialize)]
pub struct LinkId {
    id: i64,
}

/// One link with its days of the last 90 that had activity.
#[utoipa::path(get, path = "/links/{id}", tag = "links",
    operation_id = "readLink", security(("session" = [])),
    params(("id" = i64, Path, description = "The link's id")),
    responses(
        (status = 200, body = LinkDetail),
        NoSession, IdNotWhole, NoSuchLink,
    ))]
async fn read(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(LinkId { id }): ApiPath<LinkId>,
) -> Result<ApiJson<LinkDetail>> {
    let (row, totals, days) = state.links.detail(id).await?.ok_or(ApiError::NotFound)?;
    let (page, posts) = (state.content.current(), state.content.posts());
    let published = Published {
        document: &page.document,
        posts: &posts,
    };
    let days = days
        .into_iter()
        .map(|(day, tally)| LinkDay {
            case_studies: case_studies(&tally, &page.document),
            posts: self::posts(&tally, &published),
            day,
            opens: tally.opens,
            visitors: tally.visitors,
            resume_downloads: tally.resume_downloads,
            project_clicks: project_clicks(&tally),
            messages: tally.messages,
            sections: tally.sections,
            clicks: tally.clicks,
        })
        .collect();
    Ok(ApiJson(LinkDetail {
        link: Link::new(
            row,
            &totals,
            &published,
            &mut states(&state, Some(id)).await?,
        ),
        days,
    }))
}

/// Changes a link's note, expiry or alerts, or revokes it (and back).
#[utoipa::path(patch, path = "/links/{id}", tag = "links", request_body = LinkUpdate,
    operation_id = "updateLink", security(("session" = [])),
    params(("id" = i64, Path, description = "The link's id")),
    responses(
        (status = 200, body = Link),
        (status = 422, description = "The id or a field is not valid, each named", body = ErrorBody),
        NoSession, CrossSite, JsonBody, NoSuchLink,
    ))]
async fn update(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(LinkId { id }): ApiPath<LinkId>,
    ApiJson(update): ApiJson<LinkUpdate>,
) -> Result<ApiJson<Link>> {
    let change = change_of(&state, &update)?;
    if !state.links.change(id, &change).await? {
        return Err(ApiError::NotFound);
    }
    let (row, totals, _) = state.links.detail(id).await?.ok_or(ApiError::NotFound)?;
    let (page, posts) = (state.content.current(), state.content.posts());
    let published = Published {
        document: &page.document,
        posts: &posts,
    };
    Ok(ApiJson(Link::new(
        row,
        &totals,
        &published,
        &mut states(&state, Some(id)).await?,
    )))
}

/// What `update` changes, each field checked (every failing one named at once).
fn change_of(state: &AppState, update: &LinkUpdate) -> Result<LinkChange> {
    let mut errors = FieldErrors::new();
    let note = update
        .note
        .as_deref()
        .map(form::note)
        .transpose()
        .map_err(|e| errors.insert("note".into(), e))
        .ok()
        .flatten();
    let expires_at = match update.expires_at {
        Some(Some(at)) => form::expiry(at)
            .map_err(|problem| errors.insert("expiresAt".into(), problem))
            .ok()
            .map(Some),
        other => other,
    };
    let resume = update.resume.as_ref().map(|resume| {
        let resume = resume.clone().unwrap_or_default();
        errors.extend(resume.check(&state.content.current().document));
        resume.stored()
    });
    let recipient_email = update.recipient_email.as_ref().and_then(|recipient| {
        form::recipient(recipient.as_deref().unwrap_or_default())
            .map_err(|e| errors.insert("recipientEmail".into(), e))
            .ok()
    });
    let follow_up_days = update.follow_up_days.and_then(|days| {
        form::follow_up_days(days)
            .map_err(|e| errors.insert("followUpDays".into(), e))
            .ok()
    });
    if !errors.is_empty() {
        return Err(ApiError::Validation(errors));
    }
    let alerts = update.alerts.as_ref();
    Ok(LinkChange {
        note,
        expires_at,
        revoked_at: update
            .revoked
            .map(|revoked| revoked.then(|| state.links.now_ms())),
        alert_open: alerts.and_then(|a| a.open),
        alert_resume: alerts.and_then(|a| a.resume),
        alert_message: alerts.and_then(|a| a.message),
        resume,
        recipient_email,
        follow_up_days,
    })
}

/// Deletes a link and its counts; messages sent through it stay, without it.
#[utoipa::path(delete, path = "/links/{id}", tag = "links",
    operation_id = "deleteLink", security(("session" = [])),
    params(("id" = i64, Path, description = "The link's id")),
    responses(
        (status = 204, description = "Deleted"),
        NoSession, CrossSite, IdNotWhole, NoSuchLink,
    ))]
async fn delete(
    State(state): State<AppState>,
    _owner: Owner,
    ApiPath(LinkId { id }): ApiPath<LinkId>,
) -> Result<StatusCode> {
    if state.links.delete(id).await? {
        tracing::info!(id, "the owner deleted an application link");
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(ApiError::NotFound)
    }
}

/// Every link with its totals and state as a CSV attachment (cells a spreadsheet would run as
/// formulas defused, as in the messages' export).
#[utoipa::path(get, path = "/links.csv", tag = "links",
    operation_id = "exportLinks", security(("session" = [])),
    responses(
        (status = 200, description = "A CSV attachment", content((String = "text/csv"))),
        NoSession,
    ))]
async fn export(State(state): State<AppState>, _owner: Owner) -> Result<Response> {
    let body = crate::links::export::csv(state.links.list().await?)?;
    let date = chrono::DateTime::from_timestamp_millis(state.links.now_ms())
        .unwrap_or_default()
        .format("%Y-%m-%d");
    let disposition = format!("attachment; filename=\"links-{date}.csv\"");
    Ok((
        [
            (
                CONTENT_TYPE,
                HeaderValue::from_static("text/csv; charset=utf-8"),
            ),
            (
                CONTENT_DISPOSITION,
                HeaderValue::from_str(&disposition).expect("an ASCII file name"),
            ),
        ],
        body,
    )
        .into_response())
}

/// One event of a visit through an application link.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LinkVisit {
    /// The link's slug, from its address `/a/<slug>` (1 to 64 of `A-Z`, `a-z`, `0-9`, `-`, `_`).
    #[schema(pattern = "^[A-Za-z0-9_-]{1,64}$", example = "acme-3q2-7wX1b_kPz9QeL")]
    slug: String,
    kind: VisitKind,
    /// For a click: the link's stable content id, e.g. `project:shop:demo` (1 to 64 of `a-z`,
    /// `0-9`, `:`, `.`, `_`, `-`, starting with a letter or digit).
    #[serde(default)]
    #[schema(
        pattern = "^[a-z0-9][a-z0-9:._-]{0,63}$",
        example = "project:shop:demo"
    )]
    target: Option<String>,
    /// For a section: its id, e.g. `projects` (the same characters as a target).
    #[serde(default)]
    #[schema(pattern = "^[a-z0-9][a-z0-9:._-]{0,63}$", example = "projects")]
    section: Option<String>,
    /// For a case study: its project's id, from its page's `data-case-study`.
    #[serde(default, rename = "caseStudy")]
    #[schema(pattern = "^[a-z0-9][a-z0-9-]{0,40}$", example = "portfolio")]
    case_study: Option<String>,
    /// For a post: its id, from its page's `data-post`.
    #[serde(default)]
    #[schema(pattern = "^[a-z0-9][a-z0-9-]{0,40}$", example = "hello-world")]
    post: Option<String>,
}

impl LinkVisit {
    fn parse(self) -> Result<(String, Visit)> {
        let fields = VisitFields {
            target: self.target,
            section: self.section,
            case_study: self.case_study,
            post: self.post,
        };
        let visit = Visit::parse(&self.slug, self.kind, fields).map_err(ApiError::Validation)?;
        Ok((self.slug, visit))
    }
}

/// Counts an event of a visit through a link: an open (and a new visitor today), a section that
/// came into view (once a visitor a day), a case study or a post opened from the link's page (once
/// a visitor a day each), a click. The answer is 204 whether or not anything was counted: nothing
/// is for an unknown, revoked or expired link, for a case study or a post not published, with
/// insights off, for `DNT: 1` or `Sec-GPC: 1`, for bots, headless browsers and link-preview
/// fetchers. Each network shares the insights beacon's rate limit and allowances.
#[utoipa::path(
    post,
    path = "/links/visits",
    operation_id = "recordLinkVisit",
    tag = "links",
    request_body = LinkVisit,
    responses(
        (status = 204, description = "Received (counted unless there is nothing to count)"),
        CrossSite, BeaconBody, InvalidFields, TooManyEvents,
    )
)]
async fn visit(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    ApiJson(visit): ApiJson<LinkVisit>,
) -> Result<StatusCode> {
    let (slug, visit) = visit.parse()?;
    let published = match &visit {
        Visit::CaseStudy(project) => published_case_study(&state, Some(project.clone())).is_some(),
        Visit::Post(post) => published_post(&state, Some(post.clone())).is_some(),
        _ => true,
    };
    if !published {
        return Ok(StatusCode::NO_CONTENT);
    }
    let site = site_host(&state, &headers);
    let from = Sender {
        client,
        headers: &headers,
        site: &site,
    };
    let counted = state
        .links
        .count_visit(&state.insights, &state.contact, from, &slug, visit)
        .await?;
    match counted {
        Counted::Done => Ok(StatusCode::NO_CONTENT),
        Counted::TooMany(wait) => Err(ApiError::TooManyRequests {
            retry_after_secs: wait.as_secs().max(1),
            message: "Too many events from your connection.".to_owned(),
        }),
    }
}
