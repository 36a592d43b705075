//! The accept loop shared by every listener (HTTP, HTTPS and the redirect listener), with the
//! limits a public server needs against slow or numerous clients:
//!
//! - at most `max_connections` open at once; beyond it a new connection is closed as soon as it
//!   is accepted, before any byte is read or any task is spawned;
//! - a TLS handshake and each request's headers must arrive within the header timeout;
//! - a connection on which nothing moves either way for the idle timeout is closed (keep-alive
//!   included, and HTTP/2 as well as HTTP/1);
//! - the whole of a request, body included, is bounded by the request timeout (see
//!   [`RequestTimeoutLayer`]).

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{ready, Context, Poll};
use std::time::Duration;

use axum::extract::{ConnectInfo, Request};
use axum::response::{IntoResponse, Response};
use axum::Router;
use hyper_util::rt::{TokioExecutor, TokioIo, TokioTimer};
use hyper_util::server::conn::auto;
use hyper_util::server::graceful::GracefulShutdown;
use pin_project_lite::pin_project;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;
use tokio::time::{Instant, Sleep};
use tokio_rustls::TlsAcceptor;
use tower::{Layer, Service, ServiceExt};

use crate::config::LimitSettings;
use crate::error::ApiError;

/// The limits of one listener.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub header_timeout: Duration,
    pub idle_timeout: Duration,
    pub max_connections: usize,
}

impl From<&LimitSettings> for Limits {
    fn from(settings: &LimitSettings) -> Self {
        Self {
            header_timeout: settings.header_timeout(),
            idle_timeout: settings.idle_timeout(),
            max_connections: usize::try_from(settings.max_connections).unwrap_or(usize::MAX),
        }
    }
}

/// Serves `router` on `listener` until `stop` completes, then lets open connections finish for
/// at most `grace`. With `tls`, each connection is a TLS handshake first.
pub async fn serve(
    listener: TcpListener,
    router: Router,
    tls: Option<TlsAcceptor>,
    limits: Limits,
    stop: impl Future<Output = ()> + Send,
    grace: Duration,
) {
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let graceful = GracefulShutdown::new();
    let mut builder = auto::Builder::new(TokioExecutor::new());
    builder
        .http1()
        .timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout);
    builder.http2().timer(TokioTimer::new());
    let builder = Arc::new(builder);
    let mut refused_logged = false;

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
        let router = router.clone();
        let builder = builder.clone();
        let watcher = graceful.watcher();
        let tls = tls.clone();
        tokio::spawn(async move {
            let _slot = slot;
            let service = hyper::service::service_fn(move |mut request: Request<_>| {
                request.extensions_mut().insert(ConnectInfo(peer));
                router.clone().oneshot(request)
            });
            match tls {
                None => {
                    let io = TokioIo::new(Idle::new(stream, &limits));
                    let _ = watcher
                        .watch(builder.serve_connection_with_upgrades(io, service))
                        .await;
                }
                Some(acceptor) => {
                    let handshake = acceptor.accept(Idle::new(stream, &limits));
                    let Ok(Ok(stream)) =
                        tokio::time::timeout(limits.header_timeout, handshake).await
                    else {
                        return;
                    };
                    let io = TokioIo::new(stream);
                    let _ = watcher
                        .watch(builder.serve_connection_with_upgrades(io, service))
                        .await;
                }
            }
        });
    }
    drop(listener);
    if tokio::time::timeout(grace, graceful.shutdown())
        .await
        .is_err()
    {
        tracing::warn!("some connections were still open after the grace period");
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
}

impl Idle {
    fn new(inner: TcpStream, limits: &Limits) -> Self {
        let deadline = Instant::now() + limits.header_timeout;
        Self {
            inner,
            timer: Box::pin(tokio::time::sleep_until(deadline)),
            deadline,
            idle: limits.idle_timeout,
        }
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
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
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
                if n > 0 {
                    self.moved();
                }
                Poll::Ready(Ok(n))
            }
            Poll::Pending if self.expired(cx) => Poll::Ready(Err(timed_out())),
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
        assert_eq!(limits.max_connections, 2048);
    }
}
