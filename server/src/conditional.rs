//! Conditional GET: whether a request's `If-None-Match` names the current ETag, so the answer is a
//! `304 Not Modified`. One rule for the site, the published content, media files and the resume.

use axum::http::header::IF_NONE_MATCH;
use axum::http::HeaderMap;

/// True when `If-None-Match` lists `etag` (quotes included, compared byte for byte) or is `*`.
pub fn is_fresh(headers: &HeaderMap, etag: impl AsRef<[u8]>) -> bool {
    let etag = etag.as_ref();
    headers
        .get(IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|tags| {
            tags.split(',')
                .any(|t| t.trim().as_bytes() == etag || t.trim() == "*")
        })
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn asking(value: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(IF_NONE_MATCH, HeaderValue::from_str(value).unwrap());
        headers
    }

    #[test]
    fn a_listed_tag_or_a_star_is_fresh() {
        assert!(is_fresh(&asking("\"abc\""), "\"abc\""));
        assert!(is_fresh(&asking("\"x\", \"abc\""), "\"abc\""));
        assert!(is_fresh(&asking("*"), "\"abc\""));
        assert!(!is_fresh(&asking("\"abd\""), "\"abc\""));
        assert!(!is_fresh(&asking("abc"), "\"abc\""));
        assert!(!is_fresh(&HeaderMap::new(), "\"abc\""));
    }
}
