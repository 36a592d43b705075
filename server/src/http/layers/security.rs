//! Security headers set on every response: the site's, the API's, the 404s and the redirects.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};

use axum::http::{header, HeaderName, HeaderValue, Request};
use axum::response::Response;
use axum::Router;
use pin_project_lite::pin_project;
use tower::{Layer, Service};

/// Scripts and styles only from our own origin; no inline script, no plugins, no framing.
/// Inline `style` attributes set through React's `style` prop go through the CSSOM and need no
/// `'unsafe-inline'`. JSON-LD blocks are data, never run. The pre-rendered page's inline
/// `<style>` is allowed by its hash, added by [`content_security_policy`].
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     manifest-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; \
     form-action 'self'";

/// The policy with `style-src` also allowing the given `<style>` elements, each by its hash
/// source (`'sha256-…'`, see [`crate::site::Pages::style_hashes`]); never `'unsafe-inline'`.
pub fn content_security_policy(style_hashes: &[String]) -> String {
    let mut style_src = String::from("style-src 'self'");
    for hash in style_hashes {
        style_src.push_str(" '");
        style_src.push_str(hash);
        style_src.push('\'');
    }
    CONTENT_SECURITY_POLICY.replacen("style-src 'self'", &style_src, 1)
}

/// Every powerful feature off: the portfolio needs none of them.
pub const PERMISSIONS_POLICY: &str = "accelerometer=(), autoplay=(), camera=(), \
     display-capture=(), encrypted-media=(), fullscreen=(), geolocation=(), gyroscope=(), \
     hid=(), idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), \
     picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), \
     usb=(), xr-spatial-tracking=()";

/// Two years, subdomains included: the value the preload list asks for.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000; includeSubDomains";

/// The headers, as (name, value) pairs; `Strict-Transport-Security` only when `https`. The
/// policy allows the inline `<style>` elements whose hashes are given.
pub fn headers(https: bool, style_hashes: &[String]) -> Vec<(HeaderName, HeaderValue)> {
    let policy = HeaderValue::from_str(&content_security_policy(style_hashes))
        .expect("base64 hashes keep the policy a valid header value");
    let mut headers = vec![
        (header::CONTENT_SECURITY_POLICY, policy),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ),
        (
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("same-origin"),
        ),
        (
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static(PERMISSIONS_POLICY),
        ),
        // Older browsers ignore `frame-ancestors`; this says the same to them.
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
    ];
    if https {
        headers.push((
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(STRICT_TRANSPORT_SECURITY),
        ));
    }
    headers
}

/// Wraps `router` so that every response it gives carries the security headers, its policy
/// allowing the inline `<style>` elements whose hashes are given. The headers are made once; each
/// response gets them in one pass.
pub fn apply<S: Clone + Send + Sync + 'static>(
    router: Router<S>,
    https: bool,
    style_hashes: &[String],
) -> Router<S> {
    router.layer(SecurityHeadersLayer(headers(https, style_hashes).into()))
}

/// In a response's extensions: this page may be framed by the site's own pages (the draft
/// preview in the dashboard's editor), still by no other site: `frame-ancestors 'self'` and
/// `X-Frame-Options: SAMEORIGIN` for this response only.
#[derive(Clone, Copy, Debug)]
pub struct FramedBySelf;

/// Sets the given headers on every response, replacing any of the same name but a
/// `Content-Security-Policy` the handler set.
#[derive(Clone)]
struct SecurityHeadersLayer(Arc<[(HeaderName, HeaderValue)]>);

impl<S> Layer<S> for SecurityHeadersLayer {
    type Service = SecurityHeaders<S>;

    fn layer(&self, inner: S) -> Self::Service {
        SecurityHeaders {
            inner,
            headers: self.0.clone(),
        }
    }
}

#[derive(Clone)]
struct SecurityHeaders<S> {
    inner: S,
    headers: Arc<[(HeaderName, HeaderValue)]>,
}

impl<S, B> Service<Request<B>> for SecurityHeaders<S>
where
    S: Service<Request<B>, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = WithHeaders<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request<B>) -> Self::Future {
        WithHeaders {
            inner: self.inner.call(request),
            headers: self.headers.clone(),
        }
    }
}

pin_project! {
    struct WithHeaders<F> {
        #[pin]
        inner: F,
        headers: Arc<[(HeaderName, HeaderValue)]>,
    }
}

impl<F, E> Future for WithHeaders<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut response = ready!(this.inner.poll(cx))?;
        let framed = response.extensions().get::<FramedBySelf>().is_some();
        let out = response.headers_mut();
        for (name, value) in this.headers.iter() {
            // A handler's own policy is a stricter one (an uploaded SVG's): it stays.
            if name == header::CONTENT_SECURITY_POLICY && out.contains_key(name) {
                continue;
            }
            let value = match (framed, name) {
                (true, &header::CONTENT_SECURITY_POLICY) => value
                    .to_str()
                    .ok()
                    .map(|policy| {
                        policy.replacen("frame-ancestors 'none'", "frame-ancestors 'self'", 1)
                    })
                    .and_then(|policy| HeaderValue::from_str(&policy).ok())
                    .unwrap_or_else(|| value.clone()),
                (true, &header::X_FRAME_OPTIONS) => HeaderValue::from_static("SAMEORIGIN"),
                _ => value.clone(),
            };
            out.insert(name.clone(), value);
        }
        Poll::Ready(Ok(response))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_no_inline_or_evaluated_script() {
        assert!(!CONTENT_SECURITY_POLICY.contains("unsafe"));
        for directive in [
            "default-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
            "form-action 'self'",
        ] {
            assert!(CONTENT_SECURITY_POLICY.contains(directive), "{directive}");
        }
    }

    #[test]
    fn style_hashes_join_style_src_and_nothing_else() {
        let hashes = ["sha256-abc=".to_owned(), "sha256-def=".to_owned()];
        let policy = content_security_policy(&hashes);
        assert!(policy.contains("style-src 'self' 'sha256-abc=' 'sha256-def='; img-src"));
        assert!(!policy.contains("unsafe"));
        assert_eq!(content_security_policy(&[]), CONTENT_SECURITY_POLICY);
        assert_eq!(
            policy.replace(" 'sha256-abc=' 'sha256-def='", ""),
            CONTENT_SECURITY_POLICY
        );
    }

    #[test]
    fn hsts_is_only_sent_over_https() {
        let has_hsts = |https| {
            headers(https, &[])
                .iter()
                .any(|(name, _)| name == header::STRICT_TRANSPORT_SECURITY)
        };
        assert!(has_hsts(true));
        assert!(!has_hsts(false));
    }
}
