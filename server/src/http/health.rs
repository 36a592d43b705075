//! `GET /healthz` (liveness: the process answers and reaches its database) and `GET /readyz`
//! (readiness: the database answers and every migration is applied; 503 otherwise).

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::routing::get;
use axum::Router;

use crate::state::AppState;

/// A readiness check that takes longer than this counts as a failure.
const READY_TIMEOUT: Duration = Duration::from_secs(3);

pub fn router() -> Router<AppState> {
    Router::new()
        .route("/healthz", get(healthz))
        .route("/readyz", get(readyz))
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

async fn readyz(State(state): State<AppState>) -> (StatusCode, &'static str) {
    let error = match tokio::time::timeout(READY_TIMEOUT, state.db.readiness()).await {
        Ok(Ok(())) => return (StatusCode::OK, "ready"),
        Ok(Err(error)) => format!("{error:#}"),
        Err(_) => format!("no answer within {READY_TIMEOUT:?}"),
    };
    tracing::warn!(error = %error, "not ready");
    (StatusCode::SERVICE_UNAVAILABLE, "not ready")
}
