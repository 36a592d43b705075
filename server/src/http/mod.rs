//! The HTTP surface: one module per resource, merged under `/api`; the embedded site is the fallback.

pub mod health;
pub mod json;

use axum::extract::DefaultBodyLimit;
use axum::Router;

use crate::error::ApiError;
use crate::state::AppState;

/// The largest request body any API endpoint accepts.
pub const MAX_BODY_BYTES: usize = 16 * 1024;

/// Every route of the server.
pub fn router(state: AppState) -> Router {
    let api = Router::new()
        .fallback(|| async { ApiError::NotFound })
        .layer(DefaultBodyLimit::max(MAX_BODY_BYTES));

    Router::new()
        .merge(health::router())
        .nest("/api", api)
        .fallback(crate::site::serve)
        .with_state(state)
}
