//! Logging set-up: lines through `tracing`, filtered by `RUST_LOG`, as text for people or as one
//! JSON object per line (`--log-format json`) for a collector.
//!
//! As nginx's `access_log … buffer=`, lines are gathered in memory and written to standard
//! output in batches: when 64 KiB are waiting, or at most [`DELAY`] after the first line of a
//! batch, by a thread that sleeps while there is nothing to write. A request thus never waits for
//! a write of its own line, and the process makes no write and no wake-up per line. The
//! [`LogGuard`] writes what is left when the process ends; a process killed outright (SIGKILL)
//! loses at most the last [`DELAY`] of lines.

use std::io::{IsTerminal, Write};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, PoisonError};
use std::thread::JoinHandle;
use std::time::Duration;

use tracing_subscriber::fmt::MakeWriter;
use tracing_subscriber::EnvFilter;

use crate::config::ops::LogFormat;

/// How long a line may wait for the lines after it before it is written.
pub const DELAY: Duration = Duration::from_millis(50);

/// A batch this large is written at once, by the thread that filled it.
const BATCH_BYTES: usize = 64 * 1024;

/// Keeps the log writer running; dropping it writes every waiting line and stops the writer.
#[must_use = "dropping the guard stops the log writer"]
pub struct LogGuard {
    writer: Option<(Arc<Shared>, JoinHandle<()>)>,
}

impl Drop for LogGuard {
    fn drop(&mut self) {
        if let Some((shared, thread)) = self.writer.take() {
            shared.batch().stopping = true;
            shared.ready.notify_one();
            let _ = thread.join();
        }
    }
}

/// Where lines written without `tracing`'s formatter go (see [`write_line`]), and in which format:
/// set by [`init`] when standard output is not a terminal (a terminal keeps tracing's colours).
static LINES: OnceLock<(Arc<Shared>, LogFormat)> = OnceLock::new();

/// The format of the lines [`write_line`] takes, or `None` when it takes none (no subscriber of
/// ours, or a terminal): then the line goes through `tracing` as any other.
pub fn line_format() -> Option<LogFormat> {
    LINES.get().map(|(_, format)| *format)
}

/// Adds one whole line, already formatted in [`line_format`], to the batch every other line
/// joins. The request log writes its line this way: `tracing`'s formatter took a tenth of the
/// CPU of a static answer (issue 32).
pub fn write_line(line: &[u8]) {
    if let Some((shared, _)) = LINES.get() {
        let _ = (&**shared).write_all(line);
    }
}

/// The log target of the IMAP client's protocol, which holds the mailbox's password.
pub const PROTOCOL_LOG_OFF: &str = "async_imap::imap_stream=off";

/// Installs the global subscriber once; later calls (as in tests) are ignored and their guard
/// holds nothing.
pub fn init(format: LogFormat) -> LogGuard {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"))
        // The IMAP client logs LOGIN's password and every mail's bytes at this target's trace
        // level (see `contact::imap`): off, whatever RUST_LOG asks.
        .add_directive(PROTOCOL_LOG_OFF.parse().expect("a valid directive"));
    let ansi = std::io::stdout().is_terminal();
    let shared = Arc::new(Shared::default());
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(Batched(shared.clone()));
    let installed = match format {
        LogFormat::Text => builder.with_target(false).with_ansi(ansi).try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .with_target(false)
            .try_init(),
    };
    if installed.is_err() {
        return LogGuard { writer: None };
    }
    if !ansi {
        let _ = LINES.set((shared.clone(), format));
    }
    let writer = shared.clone();
    let thread = std::thread::Builder::new()
        .name("log-writer".into())
        .spawn(move || writer.run());
    match thread {
        Ok(thread) => LogGuard {
            writer: Some((shared, thread)),
        },
        Err(error) => {
            // Without the thread, every line is written as it comes.
            shared.batch().stopping = true;
            tracing::warn!(%error, "cannot start the log writer: lines are written one by one");
            LogGuard { writer: None }
        }
    }
}

struct Shared {
    batch: Mutex<Batch>,
    /// Signalled when a batch begins, and when the process ends.
    ready: Condvar,
}

struct Batch {
    lines: Vec<u8>,
    stopping: bool,
    /// Standard output, but for the tests.
    sink: Box<dyn Write + Send>,
}

impl Default for Shared {
    fn default() -> Self {
        Self::new(Box::new(std::io::stdout()))
    }
}

impl Shared {
    fn new(sink: Box<dyn Write + Send>) -> Self {
        Self {
            batch: Mutex::new(Batch {
                lines: Vec::new(),
                stopping: false,
                sink,
            }),
            ready: Condvar::new(),
        }
    }

    fn batch(&self) -> MutexGuard<'_, Batch> {
        self.batch.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The writer thread: waits for a batch to begin, lets it gather lines for [`DELAY`], writes
    /// it; at the end, writes what is left.
    fn run(&self) {
        let mut batch = self.batch();
        loop {
            while batch.lines.is_empty() && !batch.stopping {
                batch = self
                    .ready
                    .wait(batch)
                    .unwrap_or_else(PoisonError::into_inner);
            }
            if batch.stopping {
                batch.write_out();
                return;
            }
            batch = self
                .ready
                .wait_timeout_while(batch, DELAY, |batch| !batch.stopping)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
            batch.write_out();
        }
    }
}

impl Batch {
    /// Writes the gathered lines out, in order (the batch is locked).
    fn write_out(&mut self) {
        if self.lines.is_empty() {
            return;
        }
        // Nowhere to report a failed write of the log itself: the lines are dropped.
        let _ = self
            .sink
            .write_all(&self.lines)
            .and_then(|()| self.sink.flush());
        self.lines.clear();
        if self.lines.capacity() > 4 * BATCH_BYTES {
            self.lines.shrink_to(BATCH_BYTES);
        }
    }
}

/// The subscriber's writer: each formatted line (or JSON object) is one `write` call here.
struct Batched(Arc<Shared>);

impl<'a> MakeWriter<'a> for Batched {
    type Writer = &'a Shared;

    fn make_writer(&'a self) -> Self::Writer {
        &self.0
    }
}

impl Write for &Shared {
    fn write(&mut self, line: &[u8]) -> std::io::Result<usize> {
        let mut batch = self.batch();
        let begins = batch.lines.is_empty();
        batch.lines.extend_from_slice(line);
        if batch.stopping || batch.lines.len() >= BATCH_BYTES {
            batch.write_out();
        } else if begins {
            self.ready.notify_one();
        }
        Ok(line.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A sink whose bytes the test can read.
    #[derive(Clone, Default)]
    struct Sink(Arc<Mutex<Vec<u8>>>);

    impl Write for Sink {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(buf);
            Ok(buf.len())
        }

        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn lines_wait_for_the_writer_and_are_all_written_in_order_at_the_end() {
        let sink = Sink::default();
        let shared = Arc::new(Shared::new(Box::new(sink.clone())));
        (&*shared).write_all(b"one\n").unwrap();
        (&*shared).write_all(b"two\n").unwrap();
        assert!(
            sink.0.lock().unwrap().is_empty(),
            "nothing written per line"
        );
        let writer = shared.clone();
        let thread = std::thread::spawn(move || writer.run());
        let guard = LogGuard {
            writer: Some((shared, thread)),
        };
        drop(guard);
        assert_eq!(*sink.0.lock().unwrap(), b"one\ntwo\n");
    }

    #[test]
    fn a_batch_is_written_after_the_delay_or_once_full() {
        let sink = Sink::default();
        let shared = Arc::new(Shared::new(Box::new(sink.clone())));
        let writer = shared.clone();
        let thread = std::thread::spawn(move || writer.run());
        (&*shared).write_all(b"soon\n").unwrap();
        let deadline = std::time::Instant::now() + DELAY * 20;
        while sink.0.lock().unwrap().is_empty() {
            assert!(std::time::Instant::now() < deadline, "never written");
            std::thread::sleep(DELAY / 5);
        }
        (&*shared).write_all(&vec![b'x'; BATCH_BYTES]).unwrap();
        assert_eq!(
            sink.0.lock().unwrap().len(),
            5 + BATCH_BYTES,
            "written at once"
        );
        drop(LogGuard {
            writer: Some((shared, thread)),
        });
    }
}
