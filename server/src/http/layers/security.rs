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

// The policy and a page's hashes are the site's (made with each page); this layer serves them.
pub use crate::site::csp::{
    content_security_policy, InlineHashes, PagePolicy, CONTENT_SECURITY_POLICY,
};

/// Every powerful feature off but passkeys (WebAuthn's `publickey-credentials-create` and
/// `-get`), which the site's own pages may use and no frame may.
pub const PERMISSIONS_POLICY: &str = "accelerometer=(), autoplay=(), camera=(), \
     display-capture=(), encrypted-media=(), fullscreen=(), geolocation=(), gyroscope=(), \
     hid=(), idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), \
     picture-in-picture=(), publickey-credentials-create=(self), \
     publickey-credentials-get=(self), screen-wake-lock=(), serial=(), usb=(), \
     xr-spatial-tracking=()";

/// Two years, subdomains included: the value the preload list asks for.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000; includeSubDomains";

/// The headers, as (name, value) pairs; `Strict-Transport-Security` only when `https`. The
/// policy allows no inline element: a page that has some carries their hashes (see [`apply`]).
pub fn headers(https: bool) -> Vec<(HeaderName, HeaderValue)> {
    let mut headers = vec![
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
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

/// Wraps `router` so that every response it gives carries the security headers. A page served
/// with its [`PagePolicy`] in its extensions (the site's HTML pages, the draft preview) gets that
/// policy, which allows exactly its inline styles and scripts, so a page and its policy never
/// disagree, even while a publish replaces the page. The headers are made once; each response
/// gets them in one pass.
pub fn apply<S: Clone + Send + Sync + 'static>(router: Router<S>, https: bool) -> Router<S> {
    router.layer(SecurityHeadersLayer(Headers::new(https)))
}

/// The security headers, made once, and how a response gets them: the layer's way, and the
/// site's front's ([`crate::http::front`]) for the answers it gives without the router.
#[derive(Clone)]
pub struct Headers(Arc<[(HeaderName, HeaderValue)]>);

impl Headers {
    pub fn new(https: bool) -> Self {
        Self(headers(https).into())
    }

    /// Sets them on `response`, replacing any of the same name but a `Content-Security-Policy`
    /// the handler set; a [`PagePolicy`] in its extensions replaces the default policy, and
    /// [`FramedBySelf`] lets the site's own pages frame it.
    pub fn set_on(&self, response: &mut Response) {
        let framed = response.extensions().get::<FramedBySelf>().is_some();
        let page = response
            .extensions()
            .get::<PagePolicy>()
            .map(PagePolicy::value);
        let out = response.headers_mut();
        for (name, value) in self.0.iter() {
            let mut value = value.clone();
            if name == header::CONTENT_SECURITY_POLICY {
                // A handler's own policy is a stricter one (an uploaded SVG's): it stays.
                if out.contains_key(name) {
                    continue;
                }
                if let Some(page) = &page {
                    value = page.clone();
                }
                if framed {
                    value = value
                        .to_str()
                        .ok()
                        .map(|policy| {
                            policy.replacen("frame-ancestors 'none'", "frame-ancestors 'self'", 1)
                        })
                        .and_then(|policy| HeaderValue::from_str(&policy).ok())
                        .unwrap_or(value);
                }
            } else if framed && name == header::X_FRAME_OPTIONS {
                value = HeaderValue::from_static("SAMEORIGIN");
            }
            out.insert(name.clone(), value);
        }
    }
}

/// In a response's extensions: this page may be framed by the site's own pages (the draft
/// preview in the dashboard's editor), still by no other site: `frame-ancestors 'self'` and
/// `X-Frame-Options: SAMEORIGIN` for this response only.
#[derive(Clone, Copy, Debug)]
pub struct FramedBySelf;

/// Sets the [`Headers`] on every response.
#[derive(Clone)]
struct SecurityHeadersLayer(Headers);

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
    headers: Headers,
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
        headers: Headers,
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
        this.headers.set_on(&mut response);
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
    fn inline_hashes_join_their_own_directive_and_nothing_else() {
        let inline = InlineHashes {
            styles: vec!["sha256-abc=".to_owned(), "sha256-def=".to_owned()],
            scripts: vec!["sha256-ghi=".to_owned()],
        };
        let policy = content_security_policy(&inline);
        assert!(policy.contains("; style-src 'self' 'sha256-abc=' 'sha256-def='; img-src"));
        assert!(policy.contains("; script-src 'self' 'sha256-ghi='; style-src"));
        assert!(!policy.contains("unsafe"));
        assert_eq!(
            content_security_policy(&InlineHashes::default()),
            CONTENT_SECURITY_POLICY
        );
        assert_eq!(
            policy
                .replace(" 'sha256-abc=' 'sha256-def='", "")
                .replace(" 'sha256-ghi='", ""),
            CONTENT_SECURITY_POLICY
        );
    }

    #[tokio::test]
    async fn a_page_gets_the_policy_of_its_own_inline_elements() {
        use tower::ServiceExt as _;

        let page = |styles: &[&str], scripts: &[&str]| {
            Arc::new(InlineHashes {
                styles: styles.iter().map(|s| (*s).to_owned()).collect(),
                scripts: scripts.iter().map(|s| (*s).to_owned()).collect(),
            })
        };
        let first = page(&["sha256-one="], &["sha256-run="]);
        let second = page(&["sha256-two="], &[]);
        let served = Arc::new(std::sync::Mutex::new(Some(first.clone())));
        let router = {
            let served = served.clone();
            apply(
                Router::new().route(
                    "/",
                    axum::routing::get(move || {
                        let inline = served.lock().unwrap().clone();
                        async move {
                            let mut response = Response::new(axum::body::Body::empty());
                            if let Some(policy) =
                                inline.and_then(|inline| PagePolicy::for_page(&inline))
                            {
                                response.extensions_mut().insert(policy);
                            }
                            response
                        }
                    }),
                ),
                false,
            )
        };
        let policy = |router: Router| async move {
            let response = router
                .oneshot(Request::get("/").body(axum::body::Body::empty()).unwrap())
                .await
                .unwrap();
            response.headers()[header::CONTENT_SECURITY_POLICY]
                .to_str()
                .unwrap()
                .to_owned()
        };
        assert_eq!(
            policy(router.clone()).await,
            content_security_policy(&first)
        );
        // Again, from the kept policy.
        assert_eq!(
            policy(router.clone()).await,
            content_security_policy(&first)
        );
        // A page published since: its own hashes, none of the last one's.
        *served.lock().unwrap() = Some(second.clone());
        let now = policy(router.clone()).await;
        assert_eq!(now, content_security_policy(&second));
        assert!(!now.contains("sha256-one=") && !now.contains("sha256-run="));
        // An answer that is no page: no inline element allowed.
        *served.lock().unwrap() = None;
        assert_eq!(policy(router).await, CONTENT_SECURITY_POLICY);
    }

    #[test]
    fn hsts_is_only_sent_over_https() {
        let has_hsts = |https| {
            headers(https)
                .iter()
                .any(|(name, _)| name == header::STRICT_TRANSPORT_SECURITY)
        };
        assert!(has_hsts(true));
        assert!(!has_hsts(false));
    }
}
