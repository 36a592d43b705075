//! A listener's accept loop: each connection admitted under the caps, handed to a connection
//! thread (or spawned), and answered by the listener's front or its router.

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

use hyper_util::rt::{TokioExecutor, TokioTimer};
use hyper_util::server::conn::auto;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};
use tokio::time::Instant;

use super::caps::PerClient;
use super::connections::{Answers, Connections};
use super::limits::{Limits, MAX_STREAMS};
use super::threads::ConnectionThreads;

/// Serves `answers` on `listener` until `stop` completes, then lets open connections finish for
/// at most `grace`. With `tls`, each connection is a TLS handshake first. Connections are served
/// on `limits.connection_threads` threads of their own (see [`ConnectionThreads`]), or on the
/// calling runtime when that is 0.
pub async fn run_listener(
    listener: TcpListener,
    answers: impl Into<Answers>,
    tls: Option<crate::tls::Acceptor>,
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
                let connection =
                    connections
                        .clone()
                        .run_connection(stream, peer, held, stopped.clone());
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
