//! The server's clock: Unix milliseconds, as the database stores them. One place, so every
//! feature reads the same time (nothing else calls `chrono::Utc::now`); and [`Clock`], the same time shifted by the hidden
//! `--clock-offset` setting, for the features a test moves through days (retention, insights).

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    now().timestamp_millis()
}

/// The time now, for what is written as a date (a backup's or an export's name, a header).
#[expect(
    clippy::disallowed_methods,
    reason = "the one place that reads the system's time"
)]
pub fn now() -> chrono::DateTime<chrono::Utc> {
    chrono::Utc::now()
}

/// The clock of the features a test may move ahead: [`now_ms`] plus an offset (0 in use).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Clock {
    offset_ms: i64,
}

impl Clock {
    /// A clock `seconds` ahead of the real one.
    pub fn ahead_by(seconds: i64) -> Self {
        Self {
            offset_ms: seconds.saturating_mul(1000),
        }
    }

    /// Milliseconds since the Unix epoch, on this clock.
    pub fn now_ms(&self) -> i64 {
        now_ms().saturating_add(self.offset_ms)
    }
}

/// The sign-in features' clock ([`now_ms`] plus an offset, 0 in use): sessions, the throttle,
/// second-factor codes, pending sign-ins, passkey challenges and reset links all read it. Unlike
/// [`Clock`], every copy shares one offset that a test may move while the server runs (to reach
/// the next code's time step, or past a link's expiry).
#[derive(Debug, Clone, Default)]
pub struct SharedClock {
    offset_ms: std::sync::Arc<std::sync::atomic::AtomicI64>,
}

impl SharedClock {
    /// A clock `seconds` ahead of the real one.
    pub fn ahead_by(seconds: i64) -> Self {
        Self {
            offset_ms: std::sync::Arc::new(std::sync::atomic::AtomicI64::new(
                seconds.saturating_mul(1000),
            )),
        }
    }

    /// Milliseconds since the Unix epoch, on this clock.
    pub fn now_ms(&self) -> i64 {
        now_ms().saturating_add(self.offset_ms.load(std::sync::atomic::Ordering::Relaxed))
    }

    /// Moves this clock (and every copy of it) `ms` milliseconds ahead, or back when negative.
    pub fn advance_ms(&self, ms: i64) {
        self.offset_ms
            .fetch_add(ms, std::sync::atomic::Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_shared_clock_moves_every_copy() {
        let clock = SharedClock::ahead_by(10);
        let copy = clock.clone();
        let before = copy.now_ms();
        assert!(before >= now_ms() + 9_000);
        clock.advance_ms(60_000);
        assert!(copy.now_ms() >= before + 60_000);
    }
}
