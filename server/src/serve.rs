//! The accept loop shared by every listener (HTTP, HTTPS and the redirect listener), with the
//! limits a public server needs against slow or numerous clients:
//!
//! - at most `max_connections` open at once, and `max_per_client` from one address; beyond
//!   them a new connection is closed as soon as it is accepted, before any byte is read or any
//!   task is spawned;
//! - a TLS handshake, the first request of a connection and each HTTP/1 request's headers must
//!   arrive within the header timeout;
//! - a connection with no request in progress for the idle timeout is shut down gracefully, on
//!   HTTP/2 whatever PINGs arrive (a request is in progress until its answer's body has ended or
//!   was dropped), and closed a second later whether or not the client acknowledges the
//!   shutdown's PING (longer only while its socket's buffer is full, up to the send timeout);
//!   one on which nothing moves either way for it is closed;
//! - a connection whose answers send nothing for the send timeout is closed (a client that does
//!   not read, or an HTTP/2 window left at zero);
//! - at most [`MAX_STREAMS`] requests at once on one HTTP/2 connection;
//! - the whole of a request, body included, is bounded by the request timeout (see
//!   [`RequestTimeoutLayer`]).

use std::collections::HashMap;
use std::convert::Infallible;
use std::future::Future;
use std::io;
use std::net::{IpAddr, SocketAddr};
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::{ConnectInfo, Request};
use axum::response::{IntoResponse, Response};
use axum::Router;
use futures_util::future::Either;
use http_body::Frame;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use pin_project_lite::pin_project;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{mpsc, oneshot, watch, Notify, OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};
use tokio_rustls::TlsAcceptor;
use tower::{Layer, Service, ServiceExt};

use crate::config::LimitSettings;
use crate::error::ApiError;

/// Concurrent requests at most on one HTTP/2 connection (hyper's default is 200).
pub const MAX_STREAMS: u32 = 100;

/// The limits of one listener.
#[derive(Debug, Clone)]
pub struct Limits {
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    pub send_timeout: Duration,
    pub max_connections: usize,
    pub max_per_client: usize,
    /// Peers the per-client cap does not apply to: the trusted proxies, with --trust-proxy.
    pub exempt: Arc<[ipnet::IpNet]>,
    /// Threads serving the connections (see [`ConnectionThreads`]); 0: the accepting runtime.
    pub connection_threads: usize,
}

impl From<&LimitSettings> for Limits {
    fn from(settings: &LimitSettings) -> Self {
        Self {
            header_timeout: settings.header_timeout(),
            idle_timeout: settings.idle_timeout(),
            send_timeout: settings.send_timeout(),
            max_connections: usize::try_from(settings.max_connections).unwrap_or(usize::MAX),
            max_per_client: usize::try_from(settings.max_connections_per_client)
                .unwrap_or(usize::MAX),
            exempt: Arc::from([]),
            connection_threads: match settings.connection_threads {
                0 => default_connection_threads(),
                count => usize::from(count),
            },
        }
    }
}

/// One connection thread fewer than the cores, at least one: the core left serves the
/// application's runtime (the API, the database), the log writer and the kernel's network work.
/// Measured on two cores with the load generator beside it (issue 32): one thread served static
/// answers at 9.3 us of CPU each and 107,000 a second with a p99 of 0.7 ms; two threads spent
/// 10.7 us, served 93,000 and had a p99 of 3.8 ms, as they slept and woke in turn (14,000 context
/// switches a second against 30: under load one thread always has work and never sleeps).
fn default_connection_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |cores| cores.get().saturating_sub(1).max(1))
}

impl Limits {
    /// Exempts `proxies` from the per-client cap: behind them, every visitor has their address.
    pub fn trusting(mut self, proxies: &[ipnet::IpNet]) -> Self {
        self.exempt = proxies.into();
        self
    }

    /// Serves the connections on the accepting runtime: for listeners with little to serve.
    pub fn on_the_runtime(mut self) -> Self {
        self.connection_threads = 0;
        self
    }
}

/// Answers some requests itself, before the router sees them: the main listener's site, from
/// memory ([`crate::http::front`]). What it leaves (`None`) goes to the router.
pub trait Front: Send + Sync + 'static {
    fn answer(
        &self,
        request: &Request<hyper::body::Incoming>,
        peer: SocketAddr,
    ) -> Option<Response>;
}

/// What a listener answers with: its router, and the [`Front`] before it, if any.
pub struct Answers {
    pub router: Router,
    pub front: Option<Arc<dyn Front>>,
}

impl From<Router> for Answers {
    fn from(router: Router) -> Self {
        Self {
            router,
            front: None,
        }
    }
}

/// Serves `answers` on `listener` until `stop` completes, then lets open connections finish for
/// at most `grace`. With `tls`, each connection is a TLS handshake first. Connections are served
/// on `limits.connection_threads` threads of their own (see [`ConnectionThreads`]), or on the
/// calling runtime when that is 0.
pub async fn serve(
    listener: TcpListener,
    answers: impl Into<Answers>,
    tls: Option<TlsAcceptor>,
    limits: Limits,
    stop: impl Future<Output = ()> + Send,
    grace: Duration,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let clients = Arc::new(PerClient::new(&limits));
    // Each connection's task holds a receiver: the sender sees them all gone once they end.
    let (stopping, stopped) = watch::channel(false);
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    builder
        .http2()
        .timer(TokioTimer::new())
        .max_concurrent_streams(MAX_STREAMS);
    let Answers { router, front } = answers.into();
    let connections = Arc::new(Connections {
        router,
        front,
        builder,
        tls,
        limits: limits.clone(),
    });
    let mut threads = match limits.connection_threads {
        0 => None,
        count => match ConnectionThreads::start(count, &connections, &stopped) {
            Ok(threads) => Some(threads),
            Err(error) => {
                tracing::warn!(%error, "cannot start the connection threads: serving on the runtime");
                None
            }
        },
    };
    let mut refused_logged = false;
    let mut client_refused_logged: Option<Instant> = None;

    tokio::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            () = &mut stop => break,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(error) => {
                    // Out of file descriptors or a connection reset before it was accepted:
                    // wait a moment rather than spin, and go on.
                    tracing::warn!(%error, "cannot accept a connection");
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
        };
        let Some(client) = clients.admit(peer.ip()) else {
            // Logged at most once a minute: a client at its cap may try thousands of times.
            if client_refused_logged.is_none_or(|at| at.elapsed() >= Duration::from_secs(60)) {
                tracing::warn!(
                    client = %peer.ip(),
                    max = limits.max_per_client,
                    "per-client connection limit reached: closing its new connections"
                );
                client_refused_logged = Some(Instant::now());
            }
            drop(stream);
            continue;
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            if !refused_logged {
                tracing::warn!(
                    max = limits.max_connections,
                    "connection limit reached: closing new connections until some end"
                );
                refused_logged = true;
            }
            drop(stream);
            continue;
        };
        refused_logged = false;
        let _ = stream.set_nodelay(true);
        let held = (slot, client);
        match &threads {
            Some(threads) => threads.hand_over(stream, peer, held),
            None => {
                let connection = connections
                    .clone()
                    .serve(stream, peer, held, stopped.clone());
                tokio::spawn(connection);
            }
        }
    }
    drop(listener);
    // The threads take no more connections and let go of their receivers.
    if let Some(threads) = &mut threads {
        threads.close();
    }
    let _ = stopping.send(true);
    drop(stopped);
    if tokio::time::timeout(grace, stopping.closed())
        .await
        .is_err()
    {
        tracing::warn!("some connections were still open after the grace period");
    }
    // Their runtimes end, dropping what is still open.
    if let Some(threads) = threads {
        threads.end().await;
    }
}

/// What every connection of a listener shares.
struct Connections {
    router: Router,
    front: Option<Arc<dyn Front>>,
    builder: auto::Builder<TokioExecutor>,
    tls: Option<TlsAcceptor>,
    limits: Limits,
}

/// What a connection holds until it ends: its places under the listener's cap and its client's.
type Held = (OwnedSemaphorePermit, Option<ClientSlot>);

impl Connections {
    /// Serves one accepted connection to its end (a TLS handshake first, with TLS).
    async fn serve(
        self: Arc<Self>,
        stream: TcpStream,
        peer: SocketAddr,
        held: Held,
        stopped: watch::Receiver<bool>,
    ) {
        let _held = held;
        let limits = &self.limits;
        let streams = Arc::new(Streams::new(limits));
        let service = {
            let streams = streams.clone();
            let router = self.router.clone();
            let front = self.front.clone();
            hyper::service::service_fn(move |mut request: Request<hyper::body::Incoming>| {
                let stream = StreamGuard::open(streams.clone());
                let answer = match front
                    .as_ref()
                    .and_then(|front| front.answer(&request, peer))
                {
                    Some(response) => {
                        Either::Left(std::future::ready(Ok::<_, Infallible>(response)))
                    }
                    None => {
                        request.extensions_mut().insert(ConnectInfo(peer));
                        Either::Right(router.clone().oneshot(request))
                    }
                };
                async move {
                    let response = answer.await?;
                    let stream = stream.answering();
                    Ok::<_, std::convert::Infallible>(response.map(|body| Tracked {
                        inner: body,
                        stream: Some(stream),
                    }))
                }
            })
        };
        let io = Idle::new(stream, limits, streams.clone());
        match &self.tls {
            None => drive(&self.builder, io, service, &streams, limits, stopped).await,
            Some(acceptor) => {
                let handshake = acceptor.accept(io);
                let Ok(Ok(io)) = tokio::time::timeout(limits.header_timeout, handshake).await
                else {
                    return;
                };
                drive(&self.builder, io, service, &streams, limits, stopped).await;
            }
        }
    }
}

thread_local! {
    static CONNECTION_THREAD: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Whether the caller runs on one of the [`ConnectionThreads`]: work that needs the application's
/// runtime (its database pools, its tasks) must be handed to it from here.
pub fn on_connection_thread() -> bool {
    CONNECTION_THREAD.get()
}

/// Threads that each run a single-threaded runtime and serve the connections handed to them. A
/// connection's reads, writes and in-memory answers (the site's pages and files) stay on its
/// thread, as in nginx's workers, without the wake-ups and work stealing between a shared
/// runtime's workers (issue 32: 13.7 -> 11.9 us of CPU per static answer with one worker). The
/// accept loop gives each new connection to the thread with the fewest open, so that a few
/// long-lived connections spread evenly. What touches the database runs on the application's
/// runtime ([`crate::http::layers::app_runtime`]): a pool's connections belong to the runtime
/// that opened them.
struct ConnectionThreads {
    threads: Vec<ConnectionThread>,
}

struct ConnectionThread {
    handover: Option<mpsc::UnboundedSender<Handover>>,
    /// Connections handed over and not yet ended.
    open: Arc<AtomicUsize>,
    /// Dropped to end the thread's runtime; `ended` hears when it has.
    end: Option<oneshot::Sender<()>>,
    ended: oneshot::Receiver<()>,
}

struct Handover {
    stream: std::net::TcpStream,
    peer: SocketAddr,
    held: Held,
    counted: Counted,
}

/// One open connection of a thread's count, until dropped.
struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl ConnectionThreads {
    fn start(
        count: usize,
        connections: &Arc<Connections>,
        stopped: &watch::Receiver<bool>,
    ) -> io::Result<Self> {
        let mut threads = Vec::with_capacity(count);
        for index in 0..count {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            let (handover, mut handed) = mpsc::unbounded_channel::<Handover>();
            let (end, ending) = oneshot::channel::<()>();
            let (finished, ended) = oneshot::channel::<()>();
            let (connections, stopped) = (connections.clone(), stopped.clone());
            std::thread::Builder::new()
                .name(format!("connections-{index}"))
                .spawn(move || {
                    CONNECTION_THREAD.set(true);
                    runtime.block_on(async move {
                        while let Some(handed) = handed.recv().await {
                            let Ok(stream) = TcpStream::from_std(handed.stream) else {
                                continue;
                            };
                            let serving = connections.clone().serve(
                                stream,
                                handed.peer,
                                handed.held,
                                stopped.clone(),
                            );
                            let counted = handed.counted;
                            tokio::spawn(async move {
                                serving.await;
                                drop(counted);
                            });
                        }
                        drop(stopped);
                        let _ = ending.await;
                    });
                    // Drops the connections still open after the grace period.
                    drop(runtime);
                    let _ = finished.send(());
                })?;
            threads.push(ConnectionThread {
                handover: Some(handover),
                open: Arc::new(AtomicUsize::new(0)),
                end: Some(end),
                ended,
            });
        }
        Ok(Self { threads })
    }

    /// Gives a connection to the thread with the fewest open (it closes when no thread takes it).
    fn hand_over(&self, stream: TcpStream, peer: SocketAddr, held: Held) {
        let thread = self
            .threads
            .iter()
            .min_by_key(|thread| thread.open.load(Ordering::Relaxed));
        let (Some(thread), Ok(stream)) = (thread, stream.into_std()) else {
            return;
        };
        let Some(handover) = &thread.handover else {
            return;
        };
        thread.open.fetch_add(1, Ordering::Relaxed);
        let counted = Counted(thread.open.clone());
        let _ = handover.send(Handover {
            stream,
            peer,
            held,
            counted,
        });
    }

    /// Takes no more connections: each thread drops its receiver of the stop signal.
    fn close(&mut self) {
        for thread in &mut self.threads {
            thread.handover = None;
        }
    }

    /// Ends the threads' runtimes, dropping the connections still open, and waits for them.
    async fn end(mut self) {
        for thread in &mut self.threads {
            thread.end = None;
        }
        for thread in self.threads {
            let _ = thread.ended.await;
        }
    }
}

/// How long a connection shut down for idleness may take to say goodbye (HTTP/2: its GOAWAY and
/// PING) before it is closed, unless its last answer is still being sent.
const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// Serves one connection until it ends, shutting it down gracefully when it has been idle (or
/// the server stops), and closing it when its answers stall or a graceful shutdown takes longer
/// than the send timeout.
async fn drive<I, S>(
    builder: &auto::Builder<TokioExecutor>,
    io: I,
    service: S,
    streams: &Streams,
    limits: &Limits,
    mut stopped: watch::Receiver<bool>,
) where
    I: AsyncRead + AsyncWrite + Unpin + Send + 'static,
    S: hyper::service::Service<
            Request<hyper::body::Incoming>,
            Response = hyper::Response<Tracked>,
            Error = std::convert::Infallible,
        > + Send
        + 'static,
    S::Future: Send + 'static,
{
    let connection = builder.serve_connection_with_upgrades(TokioIo::new(io), service);
    tokio::pin!(connection);
    let mut shutting_down = false;
    // Once shut down for idleness, the connection is closed after a short grace (HTTP/2's
    // GOAWAY and PING sent), whether or not the client acknowledges the PING; only while the
    // socket's buffer is full (the last answer still on its way to a slow reader) does it wait
    // longer, up to the send timeout from the shutdown.
    let mut close_by: Option<Instant> = None;
    let mut send_by: Option<Instant> = None;
    loop {
        let now = Instant::now();
        match streams.check(now) {
            Check::Stalled => return,
            Check::Idle if !shutting_down => {
                connection.as_mut().graceful_shutdown();
                shutting_down = true;
                close_by = Some(now + SHUTDOWN_GRACE);
                send_by = Some(now + limits.send_timeout);
            }
            Check::Idle | Check::Busy => {}
        }
        if close_by.is_some_and(|by| now >= by) {
            match send_by.filter(|last| now < *last) {
                Some(last) if streams.write_blocked.load(Ordering::Relaxed) => {
                    close_by = Some((now + SHUTDOWN_GRACE).min(last));
                }
                _ => return,
            }
        }
        // Once shutting down, the idle deadline (past by then) no longer counts: only the sending.
        let idle = if shutting_down {
            None
        } else {
            streams.idle_deadline()
        };
        let next = [idle, streams.send_deadline(), close_by]
            .into_iter()
            .flatten()
            .min();
        streams.arm(next);
        tokio::select! {
            _ = connection.as_mut() => return,
            _ = stopped.wait_for(|stop| *stop), if !shutting_down => {
                connection.as_mut().graceful_shutdown();
                shutting_down = true;
            }
            () = streams.changed.notified() => {}
            () = sleep_until_some(next) => {}
        }
    }
}

async fn sleep_until_some(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// What one connection's requests and its task share: how many are in progress, and the clocks
/// of idleness and of sending. Times are milliseconds since `epoch`, so that they fit atomics.
struct Streams {
    epoch: Instant,
    header_timeout: Duration,
    idle_timeout: Duration,
    send_timeout: Duration,
    /// Requests from their headers until their answer's body has ended or was dropped.
    open: AtomicUsize,
    /// Answers whose body is being sent.
    sending: AtomicUsize,
    /// Requests ever begun: before the first, the header timeout applies instead of the idle one.
    begun: AtomicUsize,
    /// When `open` last fell to zero.
    idle_since: AtomicU64,
    /// When an answer last began or handed body data to the connection.
    sent_at: AtomicU64,
    /// The deadline the task sleeps until (`u64::MAX`: none); an earlier one must wake it.
    armed: AtomicU64,
    changed: Notify,
    /// The socket's last write found its buffer full (the client is not reading): bytes the
    /// connection has written are still on their way.
    write_blocked: AtomicBool,
}

enum Check {
    /// No request in progress for the idle timeout (the header timeout before the first).
    Idle,
    /// Answers are being sent, and none has sent anything for the send timeout.
    Stalled,
    Busy,
}

impl Streams {
    fn new(limits: &Limits) -> Self {
        Self {
            epoch: Instant::now(),
            header_timeout: limits.header_timeout,
            idle_timeout: limits.idle_timeout,
            send_timeout: limits.send_timeout,
            open: AtomicUsize::new(0),
            sending: AtomicUsize::new(0),
            begun: AtomicUsize::new(0),
            idle_since: AtomicU64::new(0),
            sent_at: AtomicU64::new(0),
            armed: AtomicU64::new(u64::MAX),
            changed: Notify::new(),
            write_blocked: AtomicBool::new(false),
        }
    }

    fn ms(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.epoch).as_millis()).unwrap_or(u64::MAX)
    }

    fn at(&self, ms: u64) -> Instant {
        self.epoch + Duration::from_millis(ms)
    }

    fn now_ms(&self) -> u64 {
        self.ms(Instant::now())
    }

    /// Wakes the task when `deadline` comes before the one it sleeps until. Transitions that
    /// only push deadlines later (most of them) cost no wake-up.
    fn deadline_at(&self, deadline: u64) {
        if deadline < self.armed.load(Ordering::SeqCst) {
            self.changed.notify_one();
        }
    }

    fn arm(&self, deadline: Option<Instant>) {
        let ms = deadline.map_or(u64::MAX, |at| self.ms(at));
        self.armed.store(ms, Ordering::SeqCst);
    }

    fn idle_deadline(&self) -> Option<Instant> {
        if self.open.load(Ordering::SeqCst) > 0 {
            return None;
        }
        let wait = if self.begun.load(Ordering::SeqCst) == 0 {
            self.header_timeout
        } else {
            self.idle_timeout
        };
        Some(self.at(self.idle_since.load(Ordering::SeqCst)) + wait)
    }

    fn send_deadline(&self) -> Option<Instant> {
        (self.sending.load(Ordering::SeqCst) > 0)
            .then(|| self.at(self.sent_at.load(Ordering::SeqCst)) + self.send_timeout)
    }

    fn check(&self, now: Instant) -> Check {
        if self.send_deadline().is_some_and(|at| now >= at) {
            Check::Stalled
        } else if self.idle_deadline().is_some_and(|at| now >= at) {
            Check::Idle
        } else {
            Check::Busy
        }
    }
}

/// One request in progress on a connection, until its answer's body ends or is dropped (a
/// reset HTTP/2 stream drops it).
struct StreamGuard {
    streams: Arc<Streams>,
    sending: bool,
}

impl StreamGuard {
    fn open(streams: Arc<Streams>) -> Self {
        streams.begun.fetch_add(1, Ordering::SeqCst);
        streams.open.fetch_add(1, Ordering::SeqCst);
        Self {
            streams,
            sending: false,
        }
    }

    /// The answer is ready: from now on its body must keep moving.
    fn answering(mut self) -> Self {
        let now = self.streams.now_ms();
        self.streams.sent_at.fetch_max(now, Ordering::SeqCst);
        if self.streams.sending.fetch_add(1, Ordering::SeqCst) == 0 {
            let timeout = millis(self.streams.send_timeout);
            self.streams.deadline_at(now.saturating_add(timeout));
        }
        self.sending = true;
        self
    }

    fn sent(&self) {
        let now = self.streams.now_ms();
        self.streams.sent_at.fetch_max(now, Ordering::SeqCst);
    }
}

fn millis(duration: Duration) -> u64 {
    u64::try_from(duration.as_millis()).unwrap_or(u64::MAX)
}

impl Drop for StreamGuard {
    fn drop(&mut self) {
        let streams = &self.streams;
        let now = streams.now_ms();
        if self.sending {
            streams.sending.fetch_sub(1, Ordering::SeqCst);
        }
        // Set before the count falls, so that a zero count never pairs with an older time.
        streams.idle_since.fetch_max(now, Ordering::SeqCst);
        if streams.open.fetch_sub(1, Ordering::SeqCst) == 1 {
            streams.deadline_at(now.saturating_add(millis(streams.idle_timeout)));
        }
    }
}

pin_project! {
    /// An answer's body, holding its request's [`StreamGuard`] until it ends.
    pub struct Tracked {
        #[pin]
        inner: Body,
        stream: Option<StreamGuard>,
    }
}

impl http_body::Body for Tracked {
    type Data = Bytes;
    type Error = axum::Error;

    fn poll_frame(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
    ) -> Poll<Option<Result<Frame<Bytes>, axum::Error>>> {
        let this = self.project();
        let frame = ready!(this.inner.poll_frame(cx));
        match &frame {
            Some(Ok(frame)) => {
                if let (Some(stream), Some(data)) = (this.stream.as_ref(), frame.data_ref()) {
                    if !data.is_empty() {
                        stream.sent();
                    }
                }
            }
            None | Some(Err(_)) => *this.stream = None,
        }
        Poll::Ready(frame)
    }

    fn is_end_stream(&self) -> bool {
        self.inner.is_end_stream()
    }

    fn size_hint(&self) -> http_body::SizeHint {
        self.inner.size_hint()
    }
}

/// Open connections per client address (an IPv6 client by its /64), each released when its
/// connection ends.
struct PerClient {
    max: usize,
    exempt: Arc<[ipnet::IpNet]>,
    open: Mutex<HashMap<IpAddr, usize>>,
}

/// One client's connection, counted until dropped.
struct ClientSlot {
    clients: Arc<PerClient>,
    client: IpAddr,
}

impl PerClient {
    fn new(limits: &Limits) -> Self {
        Self {
            max: limits.max_per_client,
            exempt: limits.exempt.clone(),
            open: Mutex::new(HashMap::new()),
        }
    }

    /// A slot for a connection from `peer`, or `None` when it has as many as allowed.
    fn admit(self: &Arc<Self>, peer: IpAddr) -> Option<Option<ClientSlot>> {
        let peer = peer.to_canonical();
        if self.exempt.iter().any(|net| net.contains(&peer)) {
            return Some(None);
        }
        let client = match peer {
            IpAddr::V4(_) => peer,
            IpAddr::V6(v6) => IpAddr::V6((u128::from(v6) & !((1u128 << 64) - 1)).into()),
        };
        let mut open = self.open.lock().unwrap_or_else(|e| e.into_inner());
        let count = open.entry(client).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(Some(ClientSlot {
            clients: self.clone(),
            client,
        }))
    }
}

impl Drop for ClientSlot {
    fn drop(&mut self) {
        let mut open = self.clients.open.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(count) = open.get_mut(&self.client) {
            *count -= 1;
            if *count == 0 {
                open.remove(&self.client);
            }
        }
    }
}

/// A connection that fails with `TimedOut` once nothing has moved either way for the idle
/// timeout; before the first byte arrives the (shorter) header timeout applies. Moving bytes only
/// pushes the deadline back; the timer is re-armed when it fires early, so that reads and writes
/// never touch the runtime's timer.
struct Idle {
    inner: TcpStream,
    timer: Pin<Box<Sleep>>,
    deadline: Instant,
    idle: Duration,
    /// Where a write that finds the socket's buffer full is noted (see [`Streams::write_blocked`]).
    streams: Arc<Streams>,
}

impl Idle {
    fn new(inner: TcpStream, limits: &Limits, streams: Arc<Streams>) -> Self {
        let deadline = Instant::now() + limits.header_timeout;
        Self {
            inner,
            timer: Box::pin(tokio::time::sleep_until(deadline)),
            deadline,
            idle: limits.idle_timeout,
            streams,
        }
    }

    /// Notes whether a write found the socket's buffer full.
    fn write_blocked(&self, blocked: bool) {
        self.streams.write_blocked.store(blocked, Ordering::Relaxed);
    }

    fn moved(&mut self) {
        self.deadline = Instant::now() + self.idle;
    }

    fn expired(&mut self, cx: &mut Context<'_>) -> bool {
        while self.timer.as_mut().poll(cx).is_ready() {
            if self.timer.deadline() >= self.deadline {
                return true;
            }
            // Bytes moved since the timer was set: wait for the later deadline.
            let deadline = self.deadline;
            self.timer.as_mut().reset(deadline);
        }
        false
    }
}

fn timed_out() -> io::Error {
    io::Error::new(io::ErrorKind::TimedOut, "the connection was idle too long")
}

impl AsyncRead for Idle {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let before = buf.filled().len();
        match Pin::new(&mut self.inner).poll_read(cx, buf) {
            Poll::Ready(Ok(())) => {
                if buf.filled().len() > before {
                    self.moved();
                }
                Poll::Ready(Ok(()))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            other => other,
        }
    }
}

impl AsyncWrite for Idle {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write(cx, buf) {
            Poll::Ready(Ok(n)) => {
                self.write_blocked(false);
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => {
                self.write_blocked(true);
                Poll::Pending
            }
            other => other,
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.inner).poll_write_vectored(cx, bufs) {
            Poll::Ready(Ok(n)) => {
                self.write_blocked(false);
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
            Poll::Pending => {
                self.write_blocked(true);
                Poll::Pending
            }
            other => other,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// Bounds each request, body included, once its headers are in: past the limit the answer is a
/// JSON 408 and the handler is dropped.
#[derive(Debug, Clone, Copy)]
pub struct RequestTimeoutLayer(pub Duration);

impl<S> Layer<S> for RequestTimeoutLayer {
    type Service = RequestTimeout<S>;

    fn layer(&self, inner: S) -> Self::Service {
        RequestTimeout {
            inner,
            limit: self.0,
        }
    }
}

#[derive(Debug, Clone)]
pub struct RequestTimeout<S> {
    inner: S,
    limit: Duration,
}

impl<S> Service<Request> for RequestTimeout<S>
where
    S: Service<Request, Response = Response>,
{
    type Response = Response;
    type Error = S::Error;
    type Future = Bounded<S::Future>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, request: Request) -> Self::Future {
        Bounded {
            inner: tokio::time::timeout(self.limit, self.inner.call(request)),
        }
    }
}

pin_project! {
    /// A request's answer, or a 408 once the limit has passed (the timer is only set when the
    /// answer is not ready at once).
    pub struct Bounded<F> {
        #[pin]
        inner: tokio::time::Timeout<F>,
    }
}

impl<F, E> Future for Bounded<F>
where
    F: Future<Output = Result<Response, E>>,
{
    type Output = Result<Response, E>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match ready!(self.project().inner.poll(cx)) {
            Ok(answer) => Poll::Ready(answer),
            Err(_elapsed) => Poll::Ready(Ok(ApiError::RequestTimeout.into_response())),
        }
    }
}

impl Limits {
    /// Lowers the connection cap when the open-file limit would be reached first, keeping some
    /// files for the database, the site and the logs.
    pub fn fit_open_files(mut self, listeners: u64) -> Self {
        let Ok((soft, _hard)) = rlimit::Resource::NOFILE.get() else {
            return self;
        };
        let room =
            usize::try_from(soft.saturating_sub(128) / listeners.max(1)).unwrap_or(usize::MAX);
        if self.max_connections > room {
            tracing::warn!(
                max_connections = room.max(1),
                open_file_limit = soft,
                "--max-connections lowered to fit the open-file limit"
            );
            self.max_connections = room.max(1);
        }
        self
    }
}

/// Raises this process's soft limit on open files to its hard limit, so the connection cap, not
/// the operating system's default of often 1,024, decides how many clients are served.
pub fn raise_open_file_limit() {
    match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(limit) => tracing::info!(limit, "open-file limit"),
        Err(error) => tracing::warn!(%error, "cannot raise the open-file limit"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_follow_the_settings() {
        let limits = Limits::from(&LimitSettings::default());
        assert_eq!(limits.header_timeout, Duration::from_secs(10));
        assert_eq!(limits.idle_timeout, Duration::from_secs(60));
        assert_eq!(limits.send_timeout, Duration::from_secs(60));
        assert_eq!(limits.max_connections, 2048);
        assert_eq!(limits.max_per_client, 256);
        assert!(limits.exempt.is_empty());
        let cores = std::thread::available_parallelism().map_or(1, usize::from);
        assert_eq!(
            limits.connection_threads,
            (cores - 1).max(1),
            "one fewer than the cores"
        );
    }
}
