//! `GET /.well-known/security.txt` (RFC 9116): where to report a vulnerability of this site, the
//! owner's public e-mail from the published document, with its canonical address from the public
//! URL and an `Expires` a month ahead, made when served, so it never lapses. `--security-txt
//! false` turns it off (a plain 404).

use axum::extract::State;
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;

use crate::http::state::AppState;

/// The file's address.
pub use crate::addresses::SECURITY_TXT;

/// How far ahead `Expires` is set (RFC 9116 recommends less than a year).
const EXPIRES_IN_DAYS: i64 = 30;

pub fn router() -> Router<AppState> {
    Router::new().route(SECURITY_TXT, get(security_txt))
}

async fn security_txt(State(state): State<AppState>) -> Response {
    if !state.settings.security_txt {
        return (StatusCode::NOT_FOUND, "Not found").into_response();
    }
    let published = state.content.current();
    let text = text(
        &published.document.contact.email,
        state.pages.base(),
        crate::clock::now(),
    );
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (header::CACHE_CONTROL, "public, max-age=86400"),
        ],
        text,
    )
        .into_response()
}

/// The file for `email`, on a site at `base`, served at `now`.
fn text(email: &str, base: &str, now: chrono::DateTime<chrono::Utc>) -> String {
    let expires = (now + chrono::Duration::days(EXPIRES_IN_DAYS))
        .to_rfc3339_opts(chrono::SecondsFormat::Secs, true);
    format!("Contact: mailto:{email}\nExpires: {expires}\nCanonical: {base}{SECURITY_TXT}\n")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_rfc_9116_asks_for() {
        let now = chrono::DateTime::parse_from_rfc3339("2026-12-04T10:00:00Z")
            .unwrap()
            .with_timezone(&chrono::Utc);
        assert_eq!(
            text("me@example.com", "https://me.example.com", now),
            "Contact: mailto:me@example.com\nExpires: 2027-01-03T10:00:00Z\n\
             Canonical: https://me.example.com/.well-known/security.txt\n"
        );
    }
}
