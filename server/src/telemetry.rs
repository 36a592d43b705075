//! Logging set-up: lines through `tracing`, filtered by `RUST_LOG`, as text for people or as one
//! JSON object per line (`--log-format json`) for a collector.
//!
//! Lines are formatted on the thread that logs them and written by a thread of their own, through
//! a buffer emptied whenever no line is waiting: a request never waits for a write to its log,
//! and under load many lines go out in one write. Nothing is dropped (a full queue makes the
//! logging thread wait) and the [`LogGuard`] writes what is left when the process ends.

use std::io::{BufWriter, IsTerminal};

use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_subscriber::EnvFilter;

use crate::ops::LogFormat;

/// Lines that may wait for the writer before a logging thread waits in turn (each slot of the
/// queue is allocated up front, so it stays small).
const QUEUED_LINES: usize = 4_096;

/// Keeps the log writer running; dropping it writes every queued line and stops the writer.
#[must_use = "dropping the guard stops the log writer"]
pub struct LogGuard {
    _writer: Option<WorkerGuard>,
}

/// Installs the global subscriber once; later calls (as in tests) are ignored and their guard
/// holds nothing.
pub fn init(format: LogFormat) -> LogGuard {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let ansi = std::io::stdout().is_terminal();
    let (writer, guard) = NonBlockingBuilder::default()
        .lossy(false)
        .buffered_lines_limit(QUEUED_LINES)
        .thread_name("log-writer")
        .finish(BufWriter::with_capacity(64 * 1024, std::io::stdout()));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(writer);
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
    LogGuard {
        _writer: installed.is_ok().then_some(guard),
    }
}
