//! The connection threads, each a single-threaded runtime serving the connections handed to it.

use std::io;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use tokio::net::TcpStream;
use tokio::sync::{mpsc, oneshot, watch};

use super::connections::{Connections, Held};

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
pub(super) struct ConnectionThreads {
    threads: Vec<ConnectionThread>,
}

pub(super) struct ConnectionThread {
    handover: Option<mpsc::UnboundedSender<Handover>>,
    /// Connections handed over and not yet ended.
    open: Arc<AtomicUsize>,
    /// Dropped to end the thread's runtime; `ended` hears when it has.
    end: Option<oneshot::Sender<()>>,
    ended: oneshot::Receiver<()>,
}

pub(super) struct Handover {
    stream: std::net::TcpStream,
    peer: SocketAddr,
    held: Held,
    counted: Counted,
}

/// One open connection of a thread's count, until dropped.
pub(super) struct Counted(Arc<AtomicUsize>);

impl Drop for Counted {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}

impl ConnectionThreads {
    pub(super) fn start(
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
                            let serving = connections.clone().run_connection(
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
    pub(super) fn hand_over(&self, stream: TcpStream, peer: SocketAddr, held: Held) {
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
    pub(super) fn close(&mut self) {
        for thread in &mut self.threads {
            thread.handover = None;
        }
    }

    /// Ends the threads' runtimes, dropping the connections still open, and waits for them.
    pub(super) async fn end(mut self) {
        for thread in &mut self.threads {
            thread.end = None;
        }
        for thread in self.threads {
            let _ = thread.ended.await;
        }
    }
}
