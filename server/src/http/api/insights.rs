//! `/api/insights`: the page's beacon (`POST /api/insights/events`), the owner's figures and
//! their CSV export.

use axum::extract::{DefaultBodyLimit, State};
use axum::http::header::{CONTENT_DISPOSITION, CONTENT_TYPE};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::responses::{
    BeaconBody, CrossSite, InvalidFields, InvalidQuery, NoSession, TooManyEvents,
};
use crate::auth::Owner;
use crate::domain::FieldErrors;
use crate::error::{ApiError, Result};
use crate::http::extract::client_ip::ClientIp;
use crate::http::extract::json::ApiJson;
use crate::http::extract::query::{is_unknown_parameter, unknown_parameter, ApiQuery, QueryParams};
use crate::http::extract::site_host::site_host;
use crate::http::state::AppState;
use crate::insights::figures::{titled, titled_posts, InsightsFigures};
use crate::insights::{
    is_content_id, is_post_id, is_project_id, Event, Outcome, MAX_BEACON_BYTES, POST_ID_RULE,
    PROJECT_ID_RULE,
};

/// Referrer hosts and campaign parts are cut to this many characters.
const MAX_VALUE_CHARS: usize = 100;
/// The ranges the owner can look at, in days.
const RANGES: [u64; 3] = [7, 30, 90];

pub fn router() -> OpenApiRouter<AppState> {
    let beacon = OpenApiRouter::new()
        .routes(routes!(beacon))
        .layer(DefaultBodyLimit::max(MAX_BEACON_BYTES));
    let owner = OpenApiRouter::new()
        .routes(routes!(figures))
        .routes(routes!(export))
        .layer(crate::http::layers::no_store::no_store());
    beacon.merge(owner)
}

/// What the beacon reports.
#[derive(Debug, Clone, Copy, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum EventKind {
    /// A published page was loaded (`/`, a language's, a link's, a case study's, a post's).
    View,
    /// A counted link was clicked.
    Click,
}

/// One event from the page.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct BeaconEvent {
    pub kind: EventKind,
    /// For a click: the link's stable content id, e.g. `project:shop:code` or `social:github`
    /// (1 to 64 of `a-z`, `0-9`, `:`, `.`, `_`, `-`, starting with a letter or digit).
    #[serde(default)]
    #[schema(example = "project:shop:code")]
    pub target: Option<String>,
    /// For a view: `document.referrer`; only its host is kept.
    #[serde(default)]
    pub referrer: Option<String>,
    /// For a view: the page's `utm_source`, cut to 100 characters.
    #[serde(default)]
    pub utm_source: Option<String>,
    /// For a view: the page's `utm_medium`, cut to 100 characters.
    #[serde(default)]
    pub utm_medium: Option<String>,
    /// For a view: the page's `utm_campaign`, cut to 100 characters.
    #[serde(default)]
    pub utm_campaign: Option<String>,
    /// For a view of a case study's page: its project's id (`data-case-study`), counted among
    /// the case studies' visits while that case study is published.
    #[serde(default)]
    #[schema(pattern = "^[a-z0-9][a-z0-9-]{0,40}$", example = "portfolio")]
    pub case_study: Option<String>,
    /// For a view of a post's page: its id (`data-post`), counted among the posts' visits while
    /// that post is published.
    #[serde(default)]
    #[schema(pattern = "^[a-z0-9][a-z0-9-]{0,40}$", example = "hello-world")]
    pub post: Option<String>,
}

impl BeaconEvent {
    fn parse(self) -> Result<Event> {
        let mut errors = FieldErrors::new();
        let event = match self.kind {
            EventKind::Click => {
                for (name, value) in [
                    ("referrer", &self.referrer),
                    ("utmSource", &self.utm_source),
                    ("utmMedium", &self.utm_medium),
                    ("utmCampaign", &self.utm_campaign),
                    ("caseStudy", &self.case_study),
                    ("post", &self.post),
                ] {
                    if value.is_some() {
                        errors.insert(name.to_owned(), "is only for a view".to_owned());
                    }
                }
                match self.target {
                    Some(target) if is_content_id(&target) => Some(Event::Click { target }),
                    Some(_) => {
                        errors.insert(
                            "target".to_owned(),
                            "must be 1 to 64 of a-z, 0-9, ':', '.', '_' and '-', starting with a letter or digit"
                                .to_owned(),
                        );
                        None
                    }
                    None => {
                        errors.insert("target".to_owned(), "is required for a click".to_owned());
                        None
                    }
                }
            }
            EventKind::View => {
                if self.target.is_some() {
                    errors.insert("target".to_owned(), "is only for a click".to_owned());
                }
                let parts = [&self.utm_source, &self.utm_medium, &self.utm_campaign]
                    .map(|part| part.as_deref().map(clean).filter(|p| !p.is_empty()));
                let campaign = parts.iter().any(Option::is_some).then(|| {
                    parts
                        .iter()
                        .map(|part| part.as_deref().unwrap_or("-"))
                        .collect::<Vec<_>>()
                        .join(" / ")
                });
                let case_study = match self.case_study {
                    Some(id) if is_project_id(&id) => Some(id),
                    Some(_) => {
                        errors.insert("caseStudy".to_owned(), PROJECT_ID_RULE.to_owned());
                        None
                    }
                    None => None,
                };
                let post = match self.post {
                    Some(id) if is_post_id(&id) => Some(id),
                    Some(_) => {
                        errors.insert("post".to_owned(), POST_ID_RULE.to_owned());
                        None
                    }
                    None => None,
                };
                Some(Event::View {
                    referrer_host: self.referrer.as_deref().and_then(referrer_host),
                    campaign,
                    case_study,
                    post,
                })
            }
        };
        match event {
            Some(event) if errors.is_empty() => Ok(event),
            _ => Err(ApiError::Validation(errors)),
        }
    }
}

/// `project` when it has a published case study that visitors can open (its project on the
/// published page): a well-formed id of no such case study is not counted.
pub fn published_case_study(state: &AppState, project: Option<String>) -> Option<String> {
    let project = project?;
    let page = state.content.current();
    (page.document.projects.iter().any(|p| p.id == project)
        && state.content.case_studies().contains_key(&project))
    .then_some(project)
}

/// `post` when it is published and served (see [`crate::content::post_title_and_path`]): a
/// well-formed id of no such post is not counted.
pub fn published_post(state: &AppState, post: Option<String>) -> Option<String> {
    let post = post?;
    let page = state.content.current();
    crate::content::post_title_and_path(&page.document, &state.content.posts(), &post)
        .is_some()
        .then_some(post)
}

/// A campaign value: trimmed, control characters out, lower case, at most 100 characters.
fn clean(text: &str) -> String {
    text.trim()
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_VALUE_CHARS)
        .collect::<String>()
        .to_lowercase()
}

/// The host of an `http(s)` referrer, without `www.`; nothing else of the address is kept.
fn referrer_host(referrer: &str) -> Option<String> {
    let url = url::Url::parse(referrer.trim()).ok()?;
    if !matches!(url.scheme(), "http" | "https") {
        return None;
    }
    let host = url.host_str()?.to_ascii_lowercase();
    let host = host.strip_prefix("www.").unwrap_or(&host);
    Some(host.chars().take(MAX_VALUE_CHARS).collect())
}

/// Counts a page view or a click. Answers at once: counts are written in batches. Nothing is
/// counted when insights are off, for `DNT: 1` or `Sec-GPC: 1`, or for a bot; the answer is the
/// same. Each network (an IPv4 address or an IPv6 /64) has a rate limit and a daily allowance
/// of new visitors, referrers, campaigns, click targets, case studies and posts.
#[utoipa::path(
    post,
    path = "/insights/events",
    operation_id = "recordInsightsEvent",
    tag = "insights",
    request_body = BeaconEvent,
    responses(
        (status = 204, description = "Received (counted unless the visitor is not to be)"),
        CrossSite, BeaconBody, InvalidFields, TooManyEvents,
    )
)]
async fn beacon(
    State(state): State<AppState>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
    ApiJson(event): ApiJson<BeaconEvent>,
) -> Result<StatusCode> {
    let event = match event.parse()? {
        Event::View {
            referrer_host,
            campaign,
            case_study,
            post,
        } => Event::View {
            referrer_host,
            campaign,
            case_study: published_case_study(&state, case_study),
            post: published_post(&state, post),
        },
        click => click,
    };
    let site = site_host(&state, &headers);
    match state
        .insights
        .record(event, client, &headers, &site)
        .await?
    {
        Outcome::Counted | Outcome::Ignored => Ok(StatusCode::NO_CONTENT),
        Outcome::TooMany(wait) => Err(ApiError::TooManyRequests {
            retry_after_secs: wait.as_secs().max(1),
            message: "Too many events from your connection.".to_owned(),
        }),
    }
}

#[derive(Debug, Deserialize, IntoParams)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct RangeQuery {
    /// The last 7, 30 or 90 days, today included (7 when not given).
    days: Option<u64>,
}

/// Every bad `days` value, whether it parses or not, gets the one message.
fn bad_range() -> ApiError {
    ApiError::field("days", "must be 7, 30 or 90")
}

impl QueryParams for RangeQuery {
    fn rejected(rejection: &axum::extract::rejection::QueryRejection) -> ApiError {
        if is_unknown_parameter(rejection) {
            unknown_parameter(rejection)
        } else {
            bad_range()
        }
    }
}

fn parse_range(query: RangeQuery) -> Result<u64> {
    let days = query.days.unwrap_or(7);
    if RANGES.contains(&days) {
        Ok(days)
    } else {
        Err(bad_range())
    }
}

/// Visitors, page views, referrers, campaigns, clicks, case studies' and posts' visits, resume
/// downloads and messages per day.
#[utoipa::path(get, path = "/insights", tag = "insights", params(RangeQuery),
    operation_id = "readInsights", security(("session" = [])),
    responses(
        (status = 200, body = InsightsFigures),
        NoSession, InvalidQuery,
    ))]
async fn figures(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<RangeQuery>,
) -> Result<ApiJson<InsightsFigures>> {
    let range = parse_range(query)?;
    let mut figures = state.insights.figures(range).await?;
    let counts = std::mem::take(&mut figures.case_studies);
    let page = state.content.current();
    figures.case_studies = titled(counts.into_iter().map(|c| (c.project, c.count)), |id| {
        crate::content::project_title(&page.document, id)
    });
    let counts = std::mem::take(&mut figures.posts);
    let posts = state.content.posts();
    figures.posts = titled_posts(counts.into_iter().map(|c| (c.post, c.count)), |id| {
        crate::content::post_title_and_path(&page.document, &posts, id)
    });
    Ok(ApiJson(figures))
}

/// The daily figures as a CSV attachment (cells a spreadsheet would run as formulas defused).
#[utoipa::path(get, path = "/insights/export", tag = "insights", params(RangeQuery),
    operation_id = "exportInsights", security(("session" = [])),
    responses(
        (status = 200, description = "A CSV attachment", content((String = "text/csv"))),
        NoSession, InvalidQuery,
    ))]
async fn export(
    State(state): State<AppState>,
    _owner: Owner,
    ApiQuery(query): ApiQuery<RangeQuery>,
) -> Result<Response> {
    let range = parse_range(query)?;
    let figures = state.insights.figures(range).await?;
    let rows = figures.days.iter().map(|d| {
        [
            d.day.clone(),
            d.visitors.to_string(),
            d.page_views.to_string(),
            d.resume_downloads.to_string(),
            d.messages.to_string(),
        ]
    });
    let body = crate::contact::export::csv_table(
        &[
            "day",
            "visitors",
            "page_views",
            "resume_downloads",
            "messages",
        ],
        rows,
    )?;
    let disposition = format!(
        "attachment; filename=\"insights-{}-{range}d.csv\"",
        state.insights.today()
    );
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_referrers_host_is_kept() {
        assert_eq!(
            referrer_host("https://www.linkedin.com/in/someone?trk=x").as_deref(),
            Some("linkedin.com")
        );
        assert_eq!(referrer_host("android-app://com.slack"), None);
        assert_eq!(referrer_host("not a url"), None);
    }

    #[test]
    fn project_and_post_ids_follow_the_documents_pattern() {
        let pattern = regex::Regex::new(crate::content::document::ID_PATTERN).unwrap();
        for id in ["portfolio", "a", "food-recipes", "2048", &"a".repeat(41)] {
            assert!(is_project_id(id) && is_post_id(id), "{id}");
            assert!(pattern.is_match(id), "{id}");
        }
        for bad in ["", "-x", "Portfolio", "a_b", "a:b", "a b", &"a".repeat(42)] {
            assert!(!is_project_id(bad) && !is_post_id(bad), "{bad}");
            assert!(!pattern.is_match(bad), "{bad}");
        }
    }

    #[test]
    fn content_ids_are_plain() {
        assert!(is_content_id("project:shop:code"));
        assert!(is_content_id("social:github"));
        for bad in ["", "Project", ":x", "a b", "=cmd()", &"a".repeat(65)] {
            assert!(!is_content_id(bad), "{bad}");
        }
    }
}
