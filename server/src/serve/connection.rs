//! One connection served to its end: idle and send timeouts, graceful shutdown, and each
//! request's stream counted until its answer's body ends.

use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::body::{Body, Bytes};
use axum::extract::Request;
use http_body::Frame;
use hyper_util::rt::{TokioExecutor, TokioIo};
use hyper_util::server::conn::auto;
use pin_project_lite::pin_project;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::sync::{watch, Notify};
use tokio::time::Instant;

use super::limits::Limits;

/// How long a connection shut down for idleness may take to say goodbye (HTTP/2: its GOAWAY and
/// PING) before it is closed, unless its last answer is still being sent.
pub(super) const SHUTDOWN_GRACE: Duration = Duration::from_secs(1);

/// Serves one connection until it ends, shutting it down gracefully when it has been idle (or
/// the server stops), and closing it when its answers stall or a graceful shutdown takes longer
/// than the send timeout.
pub(super) async fn drive<I, S>(
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

pub(super) async fn sleep_until_some(deadline: Option<Instant>) {
    match deadline {
        Some(deadline) => tokio::time::sleep_until(deadline).await,
        None => std::future::pending().await,
    }
}

/// What one connection's requests and its task share: how many are in progress, and the clocks
/// of idleness and of sending. Times are milliseconds since `epoch`, so that they fit atomics.
pub(super) struct Streams {
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
    pub(super) write_blocked: AtomicBool,
}

pub(super) enum Check {
    /// No request in progress for the idle timeout (the header timeout before the first).
    Idle,
    /// Answers are being sent, and none has sent anything for the send timeout.
    Stalled,
    Busy,
}

impl Streams {
    pub(super) fn new(limits: &Limits) -> Self {
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

    pub(super) fn ms(&self, at: Instant) -> u64 {
        u64::try_from(at.saturating_duration_since(self.epoch).as_millis()).unwrap_or(u64::MAX)
    }

    pub(super) fn at(&self, ms: u64) -> Instant {
        self.epoch + Duration::from_millis(ms)
    }

    pub(super) fn now_ms(&self) -> u64 {
        self.ms(Instant::now())
    }

    /// Wakes the task when `deadline` comes before the one it sleeps until. Transitions that
    /// only push deadlines later (most of them) cost no wake-up.
    pub(super) fn deadline_at(&self, deadline: u64) {
        if deadline < self.armed.load(Ordering::SeqCst) {
            self.changed.notify_one();
        }
    }

    pub(super) fn arm(&self, deadline: Option<Instant>) {
        let ms = deadline.map_or(u64::MAX, |at| self.ms(at));
        self.armed.store(ms, Ordering::SeqCst);
    }

    pub(super) fn idle_deadline(&self) -> Option<Instant> {
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

    pub(super) fn send_deadline(&self) -> Option<Instant> {
        (self.sending.load(Ordering::SeqCst) > 0)
            .then(|| self.at(self.sent_at.load(Ordering::SeqCst)) + self.send_timeout)
    }

    pub(super) fn check(&self, now: Instant) -> Check {
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
pub(super) struct StreamGuard {
    streams: Arc<Streams>,
    sending: bool,
}

impl StreamGuard {
    pub(super) fn open(streams: Arc<Streams>) -> Self {
        streams.begun.fetch_add(1, Ordering::SeqCst);
        streams.open.fetch_add(1, Ordering::SeqCst);
        Self {
            streams,
            sending: false,
        }
    }

    /// The answer is ready: from now on its body must keep moving.
    pub(super) fn answering(mut self) -> Self {
        let now = self.streams.now_ms();
        self.streams.sent_at.fetch_max(now, Ordering::SeqCst);
        if self.streams.sending.fetch_add(1, Ordering::SeqCst) == 0 {
            let timeout = millis(self.streams.send_timeout);
            self.streams.deadline_at(now.saturating_add(timeout));
        }
        self.sending = true;
        self
    }

    pub(super) fn sent(&self) {
        let now = self.streams.now_ms();
        self.streams.sent_at.fetch_max(now, Ordering::SeqCst);
    }
}

pub(super) fn millis(duration: Duration) -> u64 {
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
        pub(super) inner: Body,
        pub(super) stream: Option<StreamGuard>,
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
