//! The HTTP surface, by role: resources in `api/` (merged under `/api`), extractors in `extract/`,
//! layers in `layers/`, and `AppState`; the embedded site is the fallback.

pub mod api;
pub mod extract;
pub mod front;
pub mod layers;
pub mod state;

use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use axum::{middleware, Router};

use crate::error::ApiError;
use crate::http::state::AppState;

/// The largest request body any API endpoint accepts.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// Every route of the server.
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
        .route("/api", axum::routing::any(|| async { ApiError::NotFound }))
        .route(
            "/api/{*rest}",
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
        .route(api::media::RESUME_PATH, get(api::media::resume))
        .route("/media/{file}", get(api::media::serve_file))
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
