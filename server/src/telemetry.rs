//! Logging set-up: lines through `tracing`, filtered by `RUST_LOG`, as text for people or as one
//! JSON object per line (`--log-format json`) for a collector.

use std::io::IsTerminal;

use tracing_subscriber::EnvFilter;

use crate::ops::LogFormat;

/// Installs the global subscriber once; later calls (as in tests) are ignored.
pub fn init(format: LogFormat) {
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("info,sqlx=warn,tower_http=info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stdout);
    let _ = match format {
        LogFormat::Text => builder
            .with_target(false)
            .with_ansi(std::io::stdout().is_terminal())
            .try_init(),
        LogFormat::Json => builder
            .json()
            .flatten_event(true)
            .with_current_span(true)
            .with_span_list(false)
            .with_target(false)
            .try_init(),
    };
}
