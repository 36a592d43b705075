//! A listener's limits, from the settings, and the process's open-file limit.

use std::sync::Arc;
use std::time::Duration;

use crate::config::LimitSettings;

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
pub(super) fn default_connection_threads() -> usize {
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
    pub(super) fn limits_follow_the_settings() {
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
