//! One log line per request, with its matched route (never the query string: the owner's
//! searches stay private), status, latency and a request id that the answer echoes in
//! `X-Request-Id`. The id comes from the request only behind a trusted proxy; otherwise it is
//! made here. Every request is also counted in the metrics.

use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Instant;

use axum::extract::{ConnectInfo, MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue, Method, Uri};
use axum::response::Response;
use ipnet::IpNet;
use pin_project_lite::pin_project;
use rand::Rng;
use tower::{Layer, Service};
use tracing::instrument::Instrumented;
use tracing::Instrument;

pub static X_REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The peers whose `X-Request-Id` is taken (the trusted proxies with `--trust-proxy`, else none).
#[derive(Debug, Clone, Default)]
pub struct TrustRequestId(pub Arc<[IpNet]>);

impl TrustRequestId {
    fn from(&self, peer: Option<IpAddr>) -> bool {
        peer.is_some_and(|peer| {
            let peer = peer.to_canonical();
            self.0.iter().any(|net| net.contains(&peer))
        })
    }
}

/// A request id as a proxy may send it: 1 to 128 characters, letters, digits and `-_.:`.
fn acceptable(value: &HeaderValue) -> bool {
    let bytes = value.as_bytes();
    !bytes.is_empty()
        && bytes.len() <= 128
        && bytes
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

/// A new id: 32 random hex digits.
fn new_id() -> HeaderValue {
    let mut hex = [0u8; 32];
    hex::encode_to_slice(rand::thread_rng().gen::<u128>().to_be_bytes(), &mut hex)
        .expect("16 bytes make 32 hex digits");
    HeaderValue::from_bytes(&hex).expect("hex digits make a header value")
}

/// Logs each request and its answer (see the module's description).
#[derive(Debug, Clone, Default)]
pub struct RequestLogLayer(pub TrustRequestId);

impl<S> Layer<S> for RequestLogLayer {
    type Service = RequestLog<S>;

    fn layer(&self, inner: S) -> Self::Service {
        RequestLog {
            inner,
            trusted: self.0.clone(),
        }
    }
}

#[derive(Debug, Clone)]
pub struct RequestLog<S> {
    inner: S,
    trusted: TrustRequestId,
}

impl<S> Service<Request> for RequestLog<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Logged<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, mut request: Request) -> Self::Future {
        let start = Instant::now();
        crate::ops::memory::note_request();
        let peer = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip());
        let trust = self.trusted.from(peer);
        let id = request
            .headers()
            .get(&X_REQUEST_ID)
            .filter(|value| trust && acceptable(value))
            .cloned()
            .unwrap_or_else(new_id);
        request
            .headers_mut()
            .insert(X_REQUEST_ID.clone(), id.clone());
        let route = request.extensions().get::<MatchedPath>().cloned();
        let method = request.method().clone();
        let uri = request.uri().clone();
        // The handlers' own lines carry the request id through this span. The embedded site's
        // files and pages (the fallback, no route) are answered without a line of their own, so
        // they go without one: a span costs its formatted fields and its bookkeeping, on the
        // server's busiest path.
        let span = if route.is_some() {
            tracing::info_span!("request", request_id = %id.to_str().unwrap_or_default())
        } else {
            tracing::Span::none()
        };
        let inner = span.in_scope(|| self.inner.call(request));
        Logged {
            inner: inner.instrument(span),
            start,
            id,
            route,
            method,
            uri,
        }
    }
}

pin_project! {
    /// A request on its way: logged when its answer is ready.
    pub struct Logged<F> {
        #[pin]
        inner: Instrumented<F>,
        start: Instant,
        id: HeaderValue,
        route: Option<MatchedPath>,
        method: Method,
        uri: Uri,
    }
}

impl<F, E> Future for Logged<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        let this = self.project();
        let mut response = ready!(this.inner.poll(cx))?;
        let latency = this.start.elapsed();
        let status = response.status().as_u16();
        let route = this.route.as_ref().map_or("fallback", MatchedPath::as_str);
        if crate::ops::metrics::enabled() {
            crate::ops::metrics::request(route, status, latency.as_secs_f64());
        }
        let request_id = this.id.to_str().unwrap_or_default();
        let method = this.method.as_str();
        let path = this.uri.path();
        let latency_ms = latency.as_secs_f64() * 1000.0;
        // A load balancer asks for health every few seconds: those lines only at debug level.
        if matches!(route, "/healthz" | "/readyz") && status < 500 {
            tracing::debug!(request_id = %request_id, method = %method, route = %route, path = %path, status, latency_ms, "request");
        } else {
            tracing::info!(request_id = %request_id, method = %method, route = %route, path = %path, status, latency_ms, "request");
        }
        response
            .headers_mut()
            .insert(X_REQUEST_ID.clone(), this.id.clone());
        Poll::Ready(Ok(response))
    }
}
