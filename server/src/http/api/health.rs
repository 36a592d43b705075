//! `GET /healthz` (liveness: the process answers and reaches its database) and `GET /readyz`
//! (readiness: the database takes writes, every migration is applied, and on SQLite the file is
//! the one opened; 503 otherwise).

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;

use crate::http::state::AppState;

/// The liveness check's address.
pub use crate::addresses::HEALTHZ;

/// The readiness check's address.
pub use crate::addresses::READYZ;

/// The checks' routes: never cached (a cached "ok" would hide an instance that is down).
pub fn router() -> Router<AppState> {
    Router::new()
        .route(HEALTHZ, get(healthz))
        .route(READYZ, get(readyz))
        .layer(crate::http::layers::no_store::no_store())
}

async fn healthz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    match state.db.ping().await {
        Ok(_) => (StatusCode::OK, "ok"),
        Err(error) => {
            tracing::error!(error = %format!("{error:#}"), "health check cannot reach the database");
            (StatusCode::SERVICE_UNAVAILABLE, "database unavailable")
        }
    }
}

/// Ready while writes work (a cached verdict: see [`crate::store::health`]) and the database is
/// still the one opened (on SQLite, a `stat` of the file). No query and no new connection per
/// request.
async fn readyz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    if !state.db.health().is_ready() {
        return (StatusCode::SERVICE_UNAVAILABLE, "not ready");
    }
    if let Err(error) = state.db.check_in_place() {
        tracing::warn!(error = %format!("{error:#}"), "not ready");
        return (StatusCode::SERVICE_UNAVAILABLE, "not ready");
    }
    (StatusCode::OK, "ready")
}
