//! The server's clock: Unix milliseconds, as the database stores them. One function, so every
//! feature reads the same time; and [`Clock`], the same time shifted by the hidden
//! `--clock-offset` setting, for the features a test moves through days (retention, insights).

/// Milliseconds since the Unix epoch.
pub fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
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
