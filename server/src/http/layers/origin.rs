//! Cross-site request forgery protection: a state-changing request under `/api` must come
//! from the site's own pages. Browsers say where a request comes from in `Sec-Fetch-Site`
//! (and, in older ones, `Origin`); a request with neither is not from a browser, so no
//! visitor's cookies can be abused by it.

use axum::extract::{Request, State};
use axum::http::{header, HeaderMap, Method};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use crate::error::ApiError;
use crate::http::state::AppState;

pub async fn require_same_origin(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Response {
    if matches!(
        *request.method(),
        Method::GET | Method::HEAD | Method::OPTIONS
    ) || is_same_origin(request.headers(), state.settings.public_url.as_ref())
    {
        return next.run(request).await;
    }
    ApiError::Forbidden("This request must come from the site's own pages.".into()).into_response()
}

fn is_same_origin(headers: &HeaderMap, public_url: Option<&url::Url>) -> bool {
    if let Some(site) = headers.get("sec-fetch-site").and_then(|v| v.to_str().ok()) {
        return matches!(site, "same-origin" | "none");
    }
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let Ok(origin) = url::Url::parse(origin) else {
        return false;
    };
    if let Some(public) = public_url {
        if origin.origin() == public.origin() {
            return true;
        }
    }
    // Same host and port as the request was addressed to.
    let host = headers.get(header::HOST).and_then(|v| v.to_str().ok());
    let origin_host = match (origin.host_str(), origin.port()) {
        (Some(h), Some(p)) => format!("{h}:{p}"),
        (Some(h), None) => h.to_owned(),
        _ => return false,
    };
    host.is_some_and(|h| h.eq_ignore_ascii_case(&origin_host))
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn sec_fetch_site_decides_when_present() {
        assert!(is_same_origin(
            &headers(&[("sec-fetch-site", "same-origin")]),
            None
        ));
        assert!(!is_same_origin(
            &headers(&[("sec-fetch-site", "cross-site")]),
            None
        ));
        assert!(!is_same_origin(
            &headers(&[("sec-fetch-site", "same-site")]),
            None
        ));
    }

    #[test]
    fn origin_must_match_the_host_without_sec_fetch_site() {
        let ok = headers(&[
            ("origin", "http://127.0.0.1:8080"),
            ("host", "127.0.0.1:8080"),
        ]);
        assert!(is_same_origin(&ok, None));
        let evil = headers(&[
            ("origin", "https://evil.example"),
            ("host", "127.0.0.1:8080"),
        ]);
        assert!(!is_same_origin(&evil, None));
        let null = headers(&[("origin", "null"), ("host", "127.0.0.1:8080")]);
        assert!(!is_same_origin(&null, None));
    }

    #[test]
    fn the_public_url_counts_as_our_origin() {
        let public = url::Url::parse("https://me.example").unwrap();
        let proxied = headers(&[("origin", "https://me.example"), ("host", "127.0.0.1:8080")]);
        assert!(is_same_origin(&proxied, Some(&public)));
    }

    #[test]
    fn a_request_from_no_browser_passes() {
        assert!(is_same_origin(&HeaderMap::new(), None));
    }
}
