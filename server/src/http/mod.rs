//! The HTTP surface, by role: resources in `api/` (merged under `/api`), extractors in `extract/`,
//! layers in `layers/`, and `AppState`; the embedded site is the fallback. The main listener's
//! stack (the router, its layers and the site's front before it) is built here alone, by
//! [`main_listener`], from the one list of routed addresses (`crate::addresses`).

pub mod api;
pub mod extract;
pub mod front;
pub mod layers;
pub mod state;

use std::sync::Arc;
use std::time::Duration;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::{middleware, Router};

use crate::addresses::{API, LINK_PREFIX, MEDIA_PREFIX, RESUME_PATH};
use crate::error::ApiError;
use crate::http::front::SiteFront;
use crate::http::layers::request_log::{RequestLogLayer, TrustRequestId};
use crate::http::layers::security;
use crate::http::state::AppState;
use crate::serve::{Answers, RequestTimeoutLayer};

/// The largest request body any API endpoint accepts.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// The main listener's answers, built in this one place: the router with [`layered`]'s layers,
/// and the site's front before it, which gives the answers it makes without the router what
/// those layers give (the security headers, the request id and the log line; see
/// [`front::SiteFront`]), made from the same values. A layer added to [`layered`] must be given to
/// the front's answers too: a test compares a page the front answers with the same page answered
/// by the router's fallback (`tests/api/site.rs`).
pub fn main_listener(state: AppState, https: bool, trusted: TrustRequestId) -> Answers {
    let timeout = state.settings.limits.request_timeout();
    let front = SiteFront::new(state.clone(), https, trusted.clone());
    Answers {
        router: layered(router(state), timeout, https, trusted),
        front: Some(Arc::new(front)),
    }
}

/// The layers every answer of a listener's router gets, innermost first: the request timeout,
/// the security headers (`Strict-Transport-Security` with `https`), and the request's id and log
/// line.
pub fn layered(router: Router, timeout: Duration, https: bool, trusted: TrustRequestId) -> Router {
    let router = router.layer(RequestTimeoutLayer(timeout));
    security::apply(router, https).layer(RequestLogLayer(trusted))
}

/// Every route of the server: the addresses of `crate::addresses::ROUTED`, which the site's front
/// leaves to it.
pub fn router(state: AppState) -> Router {
    let (api, openapi) = api::api(crate::auth::session::cookie_name(&state.settings));
    // Made at its first request: 100 KB of JSON, sent compressed, revalidated by its ETag after
    // five minutes.
    let openapi = std::sync::Arc::new(crate::site::GeneratedFile::new(
        "application/json",
        "public, max-age=300",
        move || serde_json::to_vec(&openapi).expect("the API's description serialises"),
    ));
    let api = api
        .route(
            "/api/openapi.json",
            get(move |headers: HeaderMap| async move { openapi.respond(&headers) }),
        )
        .route(API, axum::routing::any(|| async { ApiError::NotFound }))
        .route(
            &format!("{API}/{{*rest}}"),
            axum::routing::any(|| async { ApiError::NotFound }),
        )
        // A known path with a method it does not take: the JSON error shape too.
        .method_not_allowed_fallback(|| async { ApiError::MethodNotAllowed })
        .layer(middleware::from_fn_with_state(
            state.clone(),
            layers::origin::require_same_origin,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            layers::storage_faults::note_storage_faults,
        ));

    Router::new()
        .merge(api::health::router())
        .merge(api::well_known::router())
        .merge(api)
        .route(RESUME_PATH, get(api::media::resume))
        .route(
            &format!("/{{language}}{RESUME_PATH}"),
            get(api::media::language_resume),
        )
        .route(
            &format!("{LINK_PREFIX}{{slug}}{RESUME_PATH}"),
            get(api::media::link_resume),
        )
        .route(
            &format!("{MEDIA_PREFIX}{{file}}"),
            get(api::media::serve_file),
        )
        // Every route may reach the database: its work runs on the application's runtime. The
        // site (the fallback) is answered from memory on the connection's own thread.
        .route_layer(layers::app_runtime::AppRuntimeLayer::current())
        .fallback(site)
        .with_state(state)
}

/// Every other address: the embedded site (see [`crate::site::answer`]).
async fn site(State(state): State<AppState>, request: Request) -> Response {
    crate::site::answer(&state.pages, &state.links.directory, &request)
}
