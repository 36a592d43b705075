//! `no_store`: answers that carry private data must not be kept by any cache.

use axum::http::header::{HeaderValue, CACHE_CONTROL};
use tower_http::set_header::SetResponseHeaderLayer;

/// Answers that carry private data must not be kept by any cache.
pub fn no_store() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(CACHE_CONTROL, HeaderValue::from_static("no-store"))
}
