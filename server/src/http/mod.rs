//! The HTTP surface: one module per resource, merged under `/api`; the embedded site is the fallback.

pub mod client_ip;
pub mod contact;
pub mod content;
pub mod delivery;
pub mod health;
pub mod inbox;
pub mod insights;
pub mod json;
pub mod media;
pub mod origin;
pub mod owner;
pub mod path;
pub mod request_log;
pub mod security;
pub mod session;
pub mod state;

use axum::extract::{DefaultBodyLimit, State};
use axum::routing::get;
use axum::{middleware, Json, Router};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::error::{ApiError, ErrorBody};
use crate::http::state::AppState;

/// The largest request body any API endpoint accepts.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Portfolio API",
        description = "Contact messages and the owner's inbox."
    ),
    components(schemas(ErrorBody))
)]
struct ApiDoc;

/// The API's routes, with the OpenAPI document generated from their annotations.
pub fn api() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .nest(
            "/api",
            OpenApiRouter::new()
                .merge(contact::router())
                .merge(session::router())
                .merge(inbox::router())
                .merge(delivery::router())
                .merge(insights::router())
                .merge(content::router())
                .merge(media::router()),
        )
        .split_for_parts()
}

/// Every route of the server.
/// Turns readiness off when a request met a storage fault (the error marked its answer).
async fn note_storage_faults(
    State(state): State<AppState>,
    request: axum::extract::Request,
    next: middleware::Next,
) -> axum::response::Response {
    let response = next.run(request).await;
    if response
        .extensions()
        .get::<crate::error::StorageFault>()
        .is_some()
    {
        state.db.health().write_failed();
    }
    response
}

pub fn router(state: AppState) -> Router {
    let (api, openapi) = api();
    let api = api
        .route(
            "/api/openapi.json",
            get(move || async move { Json(openapi) }),
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
            origin::require_same_origin,
        ))
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES))
        .layer(middleware::from_fn_with_state(
            state.clone(),
            note_storage_faults,
        ));

    Router::new()
        .merge(health::router())
        .merge(api)
        .route("/resume.pdf", get(insights::resume))
        .route("/media/{file}", get(media::serve_file))
        .fallback(crate::site::serve)
        .with_state(state)
}
