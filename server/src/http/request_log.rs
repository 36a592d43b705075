//! One log line per request, with its matched route (never the query string: the owner's
//! searches stay private), status, latency and a request id that the answer echoes in
//! `X-Request-Id`. The id comes from the request only behind a trusted proxy; otherwise it is
//! made here. Every request is also counted in the metrics.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Instant;

use axum::extract::{ConnectInfo, MatchedPath, Request, State};
use axum::http::{HeaderName, HeaderValue};
use axum::middleware::Next;
use axum::response::Response;
use ipnet::IpNet;
use rand::Rng;
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

fn new_id() -> HeaderValue {
    let id = format!("{:032x}", rand::thread_rng().gen::<u128>());
    HeaderValue::from_str(&id).expect("hex digits make a header value")
}

pub async fn log_request(
    State(trusted): State<TrustRequestId>,
    mut request: Request,
    next: Next,
) -> Response {
    let start = Instant::now();
    let peer = request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|ConnectInfo(addr)| addr.ip());
    let trust = trusted.from(peer);
    let id = request
        .headers()
        .get(&X_REQUEST_ID)
        .filter(|value| trust && acceptable(value))
        .cloned()
        .unwrap_or_else(new_id);
    request
        .headers_mut()
        .insert(X_REQUEST_ID.clone(), id.clone());
    let route = request
        .extensions()
        .get::<MatchedPath>()
        .map_or("fallback", MatchedPath::as_str)
        .to_owned();
    let method = request.method().clone();
    let path = request.uri().path().to_owned();
    let request_id = id.to_str().unwrap_or_default().to_owned();

    let span = tracing::info_span!("request", request_id = %request_id);
    let mut response = next.run(request).instrument(span).await;

    let latency = start.elapsed();
    let status = response.status().as_u16();
    response.headers_mut().insert(X_REQUEST_ID.clone(), id);
    crate::ops::metrics::request(&route, status, latency.as_secs_f64());
    let latency_ms = latency.as_secs_f64() * 1000.0;
    // A load balancer asks for health every few seconds: those lines only at debug level.
    if matches!(route.as_str(), "/healthz" | "/readyz") && status < 500 {
        tracing::debug!(request_id = %request_id, method = %method, route = %route, path = %path, status, latency_ms, "request");
    } else {
        tracing::info!(request_id = %request_id, method = %method, route = %route, path = %path, status, latency_ms, "request");
    }
    response
}
