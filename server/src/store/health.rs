//! Whether the store takes writes, as `/readyz` tells it: a cached verdict, turned off by any
//! write that fails for the storage's own reasons (see [`super::fault`]) and turned on again by a
//! small write the server tries itself, every few seconds while it fails, so that an instance a
//! load balancer sends no traffic to still finds out that it works again.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use tokio::sync::Notify;

/// How often the probe runs while writes work: a full disk that no request has met yet is seen
/// within this time.
pub const PROBE_EVERY_WHILE_READY: Duration = Duration::from_secs(5);

/// How often the probe runs while writes fail.
pub const PROBE_EVERY_WHILE_FAILING: Duration = Duration::from_secs(1);

/// The store's health, shared by every request and task of one server.
#[derive(Debug, Default)]
pub struct StorageHealth {
    /// Whether the last write failed for the storage's own reasons: not ready meanwhile.
    failing: AtomicBool,
    /// Writes refused for the storage's own reasons since start-up.
    failures: AtomicU64,
    /// Wakes the probe when a write has failed.
    pub(super) failed: Notify,
}

impl StorageHealth {
    /// Whether the last write (the probe's or a request's) worked.
    pub fn is_ready(&self) -> bool {
        !self.failing.load(Ordering::Relaxed)
    }

    /// Writes refused for the storage's own reasons since start-up.
    pub fn failures(&self) -> u64 {
        self.failures.load(Ordering::Relaxed)
    }

    /// Notes a failed write when `error` is the storage's own trouble; returns whether it was.
    pub fn report(&self, error: &anyhow::Error) -> bool {
        let unavailable = super::fault::is_storage_unavailable(error);
        if unavailable {
            self.write_failed();
        }
        unavailable
    }

    /// A write failed for the storage's own reasons: not ready until a write works again.
    pub fn write_failed(&self) {
        self.failures.fetch_add(1, Ordering::Relaxed);
        if !self.failing.swap(true, Ordering::Relaxed) {
            tracing::warn!("writes to the database fail: not ready until one works again");
        }
        self.failed.notify_one();
    }

    pub(super) fn probed(&self, result: anyhow::Result<()>) {
        match result {
            Ok(()) => {
                if self.failing.swap(false, Ordering::Relaxed) {
                    tracing::info!("writes to the database work again: ready");
                }
            }
            Err(error) => {
                if !self.failing.swap(true, Ordering::Relaxed) {
                    tracing::warn!(error = %format!("{error:#}"), "the storage probe failed: not ready");
                } else {
                    tracing::debug!(error = %format!("{error:#}"), "the storage probe still fails");
                }
            }
        }
    }
}
