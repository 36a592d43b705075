//! `note_storage_faults`: a request that met a storage fault turns readiness off.

use axum::extract::State;
use axum::middleware;

use crate::http::state::AppState;

/// Turns readiness off when a request met a storage fault (the error marked its answer).
pub async fn note_storage_faults(
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
