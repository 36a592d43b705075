//! Operations' settings: logs, metrics, scheduled backups and retention.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::{Args, ValueEnum};

/// How log lines are written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, ValueEnum)]
pub enum LogFormat {
    /// One human-readable line per event.
    #[default]
    Text,
    /// One JSON object per line, for a log collector.
    Json,
}

/// Operations: logs, metrics, scheduled backups and retention.
#[derive(Debug, Clone, Args)]
pub struct OpsSettings {
    /// Log lines as `text` (for people) or `json` (one object per line, for a collector).
    #[arg(long, env = "PORTFOLIO_LOG_FORMAT", value_enum, default_value = "text")]
    pub log_format: LogFormat,

    /// Serve Prometheus metrics at /metrics on this address (keep it private: not the public
    /// listener). Off when not given.
    #[arg(long, env = "PORTFOLIO_METRICS_LISTEN", value_name = "ADDR")]
    pub metrics_listen: Option<SocketAddr>,

    /// Take scheduled backups into this folder (a mounted volume on a throwaway disk). Off when
    /// not given.
    #[arg(long, env = "PORTFOLIO_BACKUP_DIR", value_name = "DIR")]
    pub backup_dir: Option<PathBuf>,

    /// How often a scheduled backup is taken, e.g. `24h`, `6h`, `30m`.
    #[arg(long, env = "PORTFOLIO_BACKUP_EVERY", value_name = "DURATION", default_value = "24h",
          value_parser = parse_interval)]
    pub backup_every: Duration,

    /// How many scheduled backups are kept; older ones are deleted.
    #[arg(long, env = "PORTFOLIO_BACKUP_KEEP", value_name = "N", default_value_t = 7,
          value_parser = clap::value_parser!(u32).range(1..))]
    pub backup_keep: u32,

    #[command(flatten)]
    pub retention: RetentionSettings,
}

/// How long removable data is kept (also read by `portfolio messages purge`).
#[derive(Debug, Clone, Args)]
pub struct RetentionSettings {
    /// Days after which messages in Trash, Spam caught by a trap no person trips, and sent
    /// notifications are deleted for good; 0 keeps them forever.
    #[arg(
        long,
        env = "PORTFOLIO_RETENTION_DAYS",
        value_name = "DAYS",
        default_value_t = 30
    )]
    pub retention_days: u32,
}

impl Default for OpsSettings {
    fn default() -> Self {
        super::defaults::clap_defaults()
    }
}

impl Default for RetentionSettings {
    fn default() -> Self {
        super::defaults::clap_defaults()
    }
}

/// A duration such as `24h`, `90m` or `1h 30m`, at least one second.
fn parse_interval(text: &str) -> Result<Duration, String> {
    let duration = super::duration::parse(text)?;
    if duration < Duration::from_secs(1) {
        return Err("must be at least 1s".to_owned());
    }
    Ok(duration)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_read_as_people_write_them() {
        assert_eq!(parse_interval("24h"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_interval("1h 30m"), Ok(Duration::from_secs(5_400)));
        assert!(parse_interval("0s").is_err());
        assert!(parse_interval("daily").is_err());
    }
}
