//! An HTML page (or `robots.txt`, the sitemap) as sent: compressed once, with its ETag and the
//! CSP allowing its own inline styles and scripts (see [`super::csp`]).

use axum::body::Bytes;
use axum::http::{header, HeaderMap, HeaderName, HeaderValue, StatusCode};
use axum::response::Response;
use sha2::{Digest, Sha256};

use super::asset::{
    accepted_encodings, accepts, new_response, Body, Refine, Variants, BR, GZIP, VARY,
};
use super::built::REVALIDATE;
use super::csp::{inline_hashes, InlineHashes, PagePolicy};
use crate::conditional::is_fresh;
use crate::config::Effort;

pub(super) struct Page {
    content_type: HeaderValue,
    /// The hash sources of an HTML page's inline styles and scripts; none for other pages. The
    /// answers carry the policy made of them; the tests read them.
    #[cfg_attr(not(test), expect(dead_code))]
    inline: InlineHashes,
    /// The CSP allowing them, made once with the page, which goes with every answer that
    /// serves it, in place of the default one (see `http::layers::security`).
    policy: Option<PagePolicy>,
    etag: HeaderValue,
    pub(super) identity: Body,
    variants: Variants,
}

impl Page {
    pub(super) fn new(content_type: &'static str, text: String, effort: Effort) -> Self {
        let inline = if content_type.starts_with("text/html") {
            inline_hashes(text.as_bytes())
        } else {
            InlineHashes::default()
        };
        let policy = PagePolicy::for_page(&inline);
        let identity = Bytes::from(text.into_bytes());
        let etag = format!("\"{}\"", hex::encode(&Sha256::digest(&identity)[..16]));
        let variants = Variants::of(&identity, effort);
        Self {
            content_type: HeaderValue::from_static(content_type),
            inline,
            policy,
            etag: HeaderValue::from_str(&etag).expect("hex digits in quotes make a header value"),
            identity: Body::new(identity),
            variants,
        }
    }

    pub(super) fn respond(
        &self,
        headers: &HeaderMap,
        extra: Option<(HeaderName, HeaderValue)>,
    ) -> Response {
        if is_fresh(headers, self.etag.as_bytes()) {
            let mut response = new_response(axum::body::Body::empty());
            *response.status_mut() = StatusCode::NOT_MODIFIED;
            self.headers(&mut response, extra);
            response
                .headers_mut()
                .insert(header::ETAG, self.etag.clone());
            return response;
        }
        let mut response = self.body(headers);
        self.headers(&mut response, extra);
        response
            .headers_mut()
            .insert(header::ETAG, self.etag.clone());
        response
    }

    /// The page as the body of a 404: no ETag, so a cache never turns it into a 304.
    pub(super) fn not_found(
        &self,
        headers: &HeaderMap,
        extra: Option<(HeaderName, HeaderValue)>,
    ) -> Response {
        let mut response = self.body(headers);
        *response.status_mut() = StatusCode::NOT_FOUND;
        self.headers(&mut response, extra);
        response
    }

    fn headers(&self, response: &mut Response, extra: Option<(HeaderName, HeaderValue)>) {
        let out = response.headers_mut();
        if let Some(policy) = &self.policy {
            out.insert(header::CONTENT_SECURITY_POLICY, policy.value());
        }
        out.insert(header::CONTENT_TYPE, self.content_type.clone());
        out.insert(header::CACHE_CONTROL, HeaderValue::from_static(REVALIDATE));
        out.insert(header::VARY, VARY);
        if let Some((name, value)) = extra {
            out.insert(name, value);
        }
    }

    /// The body in the best encoding the client accepts.
    fn body(&self, headers: &HeaderMap) -> Response {
        let accepted = accepted_encodings(headers);
        let encoded = self.variants.load();
        let length = self.identity.len();
        let (body, encoding) = match (
            encoded.brotli.as_ref().filter(|b| b.len() < length),
            encoded.gzip.as_ref().filter(|b| b.len() < length),
        ) {
            (Some(brotli), _) if accepts(accepted, "br") => (brotli, Some(BR)),
            (_, Some(gzip)) if accepts(accepted, "gzip") => (gzip, Some(GZIP)),
            _ => (&self.identity, None),
        };
        let mut response = new_response(axum::body::Body::from(body.bytes.clone()));
        let out = response.headers_mut();
        if let Some(encoding) = encoding {
            out.insert(header::CONTENT_ENCODING, encoding);
        }
        out.insert(header::CONTENT_LENGTH, body.length.clone());
        response
    }
}

impl Refine for Page {
    fn refine(&self) {
        self.variants.refine(&self.identity.bytes);
    }
}

pub(super) fn noindex() -> (HeaderName, HeaderValue) {
    (
        HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex"),
    )
}

#[cfg(test)]
mod tests {
    use super::Page;

    #[test]
    fn an_html_page_carries_its_hashes_and_other_pages_none() {
        let html = Page::new(
            "text/html; charset=utf-8",
            "<style>body{color:red}</style><script>alert(1)</script>".to_owned(),
            crate::config::Effort::Quick,
        );
        assert_eq!(html.inline.styles.len(), 1);
        assert_eq!(html.inline.scripts.len(), 1);
        let text = Page::new(
            "text/plain; charset=utf-8",
            "<style>x</style>".to_owned(),
            crate::config::Effort::Quick,
        );
        assert!(text.inline.is_empty());
    }
}
