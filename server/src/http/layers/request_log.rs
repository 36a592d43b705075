//! One log line per request, with its matched route (never the query string: the owner's
//! searches stay private), status, latency and a request id that the answer echoes in
//! `X-Request-Id`. The id comes from the request only behind a trusted proxy; otherwise it is
//! made here. Every request is also counted in the metrics.

use std::cell::{Cell, RefCell};
use std::future::Future;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::{Duration, Instant, SystemTime};

use axum::extract::{ConnectInfo, MatchedPath, Request};
use axum::http::{HeaderName, HeaderValue, Method, Uri};
use axum::response::Response;
use ipnet::IpNet;
use pin_project_lite::pin_project;
use rand::Rng;
use tower::{Layer, Service};
use tracing::instrument::Instrumented;
use tracing::{Instrument, Level};

use crate::config::ops::LogFormat;

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
        let peer = request
            .extensions()
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip());
        let begun = Begun::start(&self.trusted, &request, peer);
        request
            .headers_mut()
            .insert(X_REQUEST_ID.clone(), begun.id.clone());
        let route = request.extensions().get::<MatchedPath>().cloned();
        let method = request.method().clone();
        let uri = request.uri().clone();
        // The handlers' own lines carry the request id through this span. The embedded site's
        // files and pages (the fallback, no route) are answered without a line of their own, so
        // they go without one: a span costs its formatted fields and its bookkeeping, on the
        // server's busiest path.
        let span = if route.is_some() {
            tracing::info_span!("request", request_id = %begun.id.to_str().unwrap_or_default())
        } else {
            tracing::Span::none()
        };
        let inner = span.in_scope(|| self.inner.call(request));
        Logged {
            inner: inner.instrument(span),
            begun,
            route,
            method,
            uri,
        }
    }
}

/// A request from its start until its answer is logged: what the layer keeps for each request,
/// and the site's front ([`crate::http::front`]) for the answers it gives without the router.
pub struct Begun {
    start: Instant,
    id: HeaderValue,
}

impl Begun {
    /// Starts `request`'s clock and gives it its id: the one it carries when it comes from a
    /// trusted `peer`, else a new one.
    pub fn start<B>(
        trusted: &TrustRequestId,
        request: &axum::http::Request<B>,
        peer: Option<IpAddr>,
    ) -> Self {
        let start = Instant::now();
        crate::ops::memory::note_request();
        let trust = trusted.from(peer);
        let id = request
            .headers()
            .get(&X_REQUEST_ID)
            .filter(|value| trust && acceptable(value))
            .cloned()
            .unwrap_or_else(new_id);
        Self { start, id }
    }

    /// Logs the answer to the request (`method` at `path`, matching `route`; `None`: the site,
    /// the router's fallback) and counts it in the metrics; the answer echoes the request's id.
    pub fn finish(
        &self,
        method: &Method,
        path: &str,
        route: Option<&MatchedPath>,
        response: &mut Response,
    ) {
        let latency = self.start.elapsed();
        let status = response.status().as_u16();
        let route = route.map_or("fallback", MatchedPath::as_str);
        if crate::ops::metrics::enabled() {
            crate::ops::metrics::request(route, status, latency.as_secs_f64());
        }
        let line = Line {
            request_id: self.id.to_str().unwrap_or_default(),
            method: method.as_str(),
            route,
            path,
            status,
            latency,
        };
        // A load balancer asks for health every few seconds: those lines only at debug level.
        let probe = matches!(route, "/healthz" | "/readyz") && status < 500;
        line.log(probe);
        response
            .headers_mut()
            .insert(X_REQUEST_ID.clone(), self.id.clone());
    }
}

pin_project! {
    /// A request on its way: logged when its answer is ready.
    pub struct Logged<F> {
        #[pin]
        inner: Instrumented<F>,
        begun: Begun,
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
        this.begun.finish(
            this.method,
            this.uri.path(),
            this.route.as_ref(),
            &mut response,
        );
        Poll::Ready(Ok(response))
    }
}

/// One request's line: the same fields, in the same order and format, as `tracing`'s text and
/// JSON formatters give any other line, but written here, straight into the log's batch
/// ([`crate::telemetry::write_line`]): `tracing`'s formatter (its field visitors, `core::fmt`,
/// its timestamp) took 9 % of the CPU of a static answer, the batch's lock 2 % more (issue 32).
/// On a terminal, or without our subscriber (the tests), the line goes through `tracing`.
struct Line<'a> {
    request_id: &'a str,
    method: &'a str,
    route: &'a str,
    path: &'a str,
    status: u16,
    latency: Duration,
}

/// The target `RUST_LOG` names the request lines by, as if `tracing` had written them here.
const TARGET: &str = module_path!();

thread_local! {
    /// This thread's line being written, kept for the next one.
    static BUFFER: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// The last whole second formatted (`2026-11-26T19:23:55`), and its Unix time.
    static SECOND: Cell<(u64, [u8; 19])> = const { Cell::new((u64::MAX, [0; 19])) };
}

impl Line<'_> {
    fn log(&self, probe: bool) {
        let Some(format) = crate::telemetry::line_format() else {
            let Line {
                request_id,
                method,
                route,
                path,
                status,
                ..
            } = *self;
            // Whole microseconds, as the line written here has them.
            let micros = u32::try_from(self.latency.as_micros()).unwrap_or(u32::MAX);
            let latency_ms = f64::from(micros) / 1000.0;
            if probe {
                tracing::debug!(request_id = %request_id, method = %method, route = %route, path = %path, status, latency_ms, "request");
            } else {
                tracing::info!(request_id = %request_id, method = %method, route = %route, path = %path, status, latency_ms, "request");
            }
            return;
        };
        let level = if probe { Level::DEBUG } else { Level::INFO };
        let enabled = if probe {
            tracing::enabled!(target: TARGET, Level::DEBUG)
        } else {
            tracing::enabled!(target: TARGET, Level::INFO)
        };
        if !enabled {
            return;
        }
        BUFFER.with_borrow_mut(|line| {
            line.clear();
            self.write(line, format, level, SystemTime::now());
            crate::telemetry::write_line(line);
        });
    }

    /// The line, ending with a newline, as `tracing`'s formatter in `format` writes it.
    fn write(&self, out: &mut Vec<u8>, format: LogFormat, level: Level, now: SystemTime) {
        let fields = [
            ("request_id", self.request_id),
            ("method", self.method),
            ("route", self.route),
            ("path", self.path),
        ];
        match format {
            LogFormat::Text => {
                timestamp(out, now);
                // The level right-aligned in five columns, as tracing's `Full` format has it.
                out.extend_from_slice(if level == Level::DEBUG {
                    b" DEBUG "
                } else {
                    b"  INFO "
                });
                out.extend_from_slice(b"request");
                for (name, value) in fields {
                    out.push(b' ');
                    out.extend_from_slice(name.as_bytes());
                    out.push(b'=');
                    out.extend_from_slice(value.as_bytes());
                }
                out.extend_from_slice(b" status=");
                decimal(out, u128::from(self.status));
                out.extend_from_slice(b" latency_ms=");
            }
            LogFormat::Json => {
                out.extend_from_slice(b"{\"timestamp\":\"");
                timestamp(out, now);
                out.extend_from_slice(if level == Level::DEBUG {
                    b"\",\"level\":\"DEBUG\""
                } else {
                    b"\",\"level\":\"INFO\""
                });
                out.extend_from_slice(b",\"message\":\"request\"");
                for (name, value) in fields {
                    out.extend_from_slice(b",\"");
                    out.extend_from_slice(name.as_bytes());
                    out.extend_from_slice(b"\":");
                    json_string(out, value);
                }
                out.extend_from_slice(b",\"status\":");
                decimal(out, u128::from(self.status));
                out.extend_from_slice(b",\"latency_ms\":");
            }
        }
        // Milliseconds with three decimals: the microsecond the clock measured, no float's tail.
        let micros = self.latency.as_micros();
        decimal(out, micros / 1000);
        out.push(b'.');
        out.extend_from_slice(&three_digits(micros));
        if format == LogFormat::Json {
            out.push(b'}');
        }
        out.push(b'\n');
    }
}

/// `2026-11-26T19:23:55.763331Z`, as tracing's default timer writes it (UTC, microseconds); the
/// part up to the second is formatted once a second.
fn timestamp(out: &mut Vec<u8>, now: SystemTime) {
    let since = now
        .duration_since(SystemTime::UNIX_EPOCH)
        .unwrap_or_default();
    let secs = since.as_secs();
    let (cached, mut text) = SECOND.get();
    if cached != secs {
        let formatted = i64::try_from(secs)
            .ok()
            .and_then(|secs| chrono::DateTime::from_timestamp(secs, 0))
            .unwrap_or_default()
            .format("%Y-%m-%dT%H:%M:%S")
            .to_string();
        if formatted.len() == text.len() {
            text.copy_from_slice(formatted.as_bytes());
            SECOND.set((secs, text));
        }
    }
    out.extend_from_slice(&text);
    out.push(b'.');
    let micros = since.subsec_micros();
    out.extend_from_slice(&three_digits(u128::from(micros / 1000)));
    out.extend_from_slice(&three_digits(u128::from(micros)));
    out.push(b'Z');
}

/// The last three decimal digits of `n`, with leading zeros.
fn three_digits(n: u128) -> [u8; 3] {
    let digit = |n: u128| b'0' + u8::try_from(n % 10).unwrap_or(0);
    [digit(n / 100), digit(n / 10), digit(n)]
}

/// `n` in decimal.
fn decimal(out: &mut Vec<u8>, mut n: u128) {
    let mut digits = [0u8; 39];
    let mut start = digits.len();
    loop {
        start -= 1;
        digits[start] = b'0' + u8::try_from(n % 10).unwrap_or(0);
        n /= 10;
        if n == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[start..]);
}

/// A JSON string: quoted, with `"`, `\\` and control characters escaped.
fn json_string(out: &mut Vec<u8>, text: &str) {
    out.push(b'"');
    for &byte in text.as_bytes() {
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0..0x20 => {
                out.extend_from_slice(b"\\u00");
                out.extend_from_slice(&[HEX[usize::from(byte >> 4)], HEX[usize::from(byte & 15)]]);
            }
            _ => out.push(byte),
        }
    }
    out.push(b'"');
}

const HEX: &[u8; 16] = b"0123456789abcdef";

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::{Arc, Mutex};

    fn line(path: &'static str) -> Line<'static> {
        Line {
            request_id: "b77b57a04b42bf4809e72d4e3279a431",
            method: "GET",
            route: "fallback",
            path,
            status: 200,
            latency: Duration::from_micros(1_162),
        }
    }

    /// 2026-11-26T19:23:55.063331Z
    fn at() -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_micros(1_795_721_035_063_331)
    }

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// What `tracing`'s formatter, set up as `telemetry::init` sets it, writes for the same event.
    fn from_tracing(json: bool, probe: bool) -> String {
        let captured = Captured::default();
        let sink = captured.clone();
        let builder = tracing_subscriber::fmt()
            .with_max_level(Level::DEBUG)
            .with_writer(move || sink.clone())
            .with_target(false)
            .with_ansi(false);
        // Without our subscriber's own lines (none in the unit tests), `log` goes through `tracing`.
        let emit = || line("/assets/a.js").log(probe);
        if json {
            let subscriber = builder
                .json()
                .flatten_event(true)
                .with_current_span(true)
                .with_span_list(false)
                .finish();
            tracing::subscriber::with_default(subscriber, emit);
        } else {
            tracing::subscriber::with_default(builder.finish(), emit);
        }
        let bytes = captured.0.lock().unwrap().clone();
        String::from_utf8(bytes).unwrap()
    }

    fn ours(format: LogFormat, level: Level) -> String {
        let mut out = Vec::new();
        line("/assets/a.js").write(&mut out, format, level, at());
        String::from_utf8(out).unwrap()
    }

    #[test]
    fn the_text_line_is_tracings_but_for_its_time() {
        for (level, probe) in [(Level::INFO, false), (Level::DEBUG, true)] {
            let ours = ours(LogFormat::Text, level);
            assert!(ours.starts_with("2026-11-26T19:23:55.063331Z "), "{ours}");
            let theirs = from_tracing(false, probe);
            assert_eq!(ours[27..], theirs[27..], "ours: {ours} theirs: {theirs}");
        }
    }

    #[test]
    fn the_json_line_is_tracings_but_for_its_time() {
        for (level, probe) in [(Level::INFO, false), (Level::DEBUG, true)] {
            let ours: serde_json::Value =
                serde_json::from_str(&ours(LogFormat::Json, level)).unwrap();
            let mut theirs: serde_json::Value =
                serde_json::from_str(&from_tracing(true, probe)).unwrap();
            assert_eq!(ours["timestamp"], "2026-11-26T19:23:55.063331Z");
            theirs["timestamp"] = ours["timestamp"].clone();
            assert_eq!(ours, theirs);
        }
    }

    #[test]
    fn a_path_with_quotes_or_backslashes_stays_one_json_string() {
        let mut out = Vec::new();
        line("/a\"b\\c").write(&mut out, LogFormat::Json, Level::INFO, at());
        let value: serde_json::Value = serde_json::from_slice(&out).unwrap();
        assert_eq!(value["path"], "/a\"b\\c");
        let mut out = Vec::new();
        json_string(&mut out, "\u{1}\n");
        assert_eq!(out, b"\"\\u0001\\u000a\"");
    }

    #[test]
    fn latencies_and_times_keep_their_leading_zeros() {
        let mut out = Vec::new();
        Line {
            latency: Duration::from_micros(7),
            status: 404,
            ..line("/")
        }
        .write(
            &mut out,
            LogFormat::Text,
            Level::INFO,
            SystemTime::UNIX_EPOCH + Duration::from_micros(1_000_007),
        );
        let text = String::from_utf8(out).unwrap();
        assert!(
            text.starts_with("1970-01-01T00:00:01.000007Z  INFO request "),
            "{text}"
        );
        assert!(text.ends_with(" status=404 latency_ms=0.007\n"), "{text}");
    }
}
