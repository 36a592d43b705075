//! The host visitors reach the site at, which the insights' daily visitor hash includes: read
//! from the settings and the request, for the insights' beacon, a link's events and a resume
//! downloaded through a link.

use axum::http::{header, HeaderMap};

use crate::http::state::AppState;

/// The host visitors reach the site at: the public URL's, or the request's (without its port).
pub fn site_host(state: &AppState, headers: &HeaderMap) -> String {
    if let Some(host) = state
        .settings
        .public_url
        .as_ref()
        .and_then(|u| u.host_str())
    {
        return host.to_ascii_lowercase();
    }
    headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .map(|host| host.rsplit_once(':').map_or(host, |(name, _)| name))
        .unwrap_or_default()
        .to_ascii_lowercase()
}
