//! A connection's socket that times out when nothing moves.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::net::TcpStream;
use tokio::time::{Instant, Sleep};

use super::connection::Streams;
use super::limits::Limits;

/// A connection that fails with `TimedOut` once nothing has moved either way for the idle
/// timeout; before the first byte arrives the (shorter) header timeout applies. Moving bytes only
/// pushes the deadline back; the timer is re-armed when it fires early, so that reads and writes
/// never touch the runtime's timer.
pub(super) struct Idle {
    inner: TcpStream,
    timer: Pin<Box<Sleep>>,
    deadline: Instant,
    idle: Duration,
    /// Where a write that finds the socket's buffer full is noted (see [`Streams::write_blocked`]).
    streams: Arc<Streams>,
}

impl Idle {
    pub(super) fn new(inner: TcpStream, limits: &Limits, streams: Arc<Streams>) -> Self {
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
    pub(super) fn write_blocked(&self, blocked: bool) {
        self.streams.write_blocked.store(blocked, Ordering::Relaxed);
    }

    pub(super) fn moved(&mut self) {
        self.deadline = Instant::now() + self.idle;
    }

    pub(super) fn expired(&mut self, cx: &mut Context<'_>) -> bool {
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

pub(super) fn timed_out() -> io::Error {
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
