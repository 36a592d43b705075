//! Per-client submission limits (5 a minute, 20 an hour), in memory only: no address is stored.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// Above this many tracked clients, forget the ones whose limits have fully recovered.
const PRUNE_ABOVE: usize = 10_000;

pub struct SubmissionLimiter {
    per_minute: DefaultKeyedRateLimiter<IpAddr>,
    per_hour: DefaultKeyedRateLimiter<IpAddr>,
    clock: DefaultClock,
}

impl std::fmt::Debug for SubmissionLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubmissionLimiter")
            .field("clients", &self.per_hour.len())
            .finish()
    }
}

impl Default for SubmissionLimiter {
    fn default() -> Self {
        Self::new()
    }
}

impl SubmissionLimiter {
    pub fn new() -> Self {
        let five = NonZeroU32::new(5).expect("non-zero");
        let twenty = NonZeroU32::new(20).expect("non-zero");
        Self {
            per_minute: RateLimiter::keyed(Quota::per_minute(five)),
            per_hour: RateLimiter::keyed(Quota::per_hour(twenty)),
            clock: DefaultClock::default(),
        }
    }

    /// Counts one submission from `client`; when over a limit, how long until the next is allowed.
    pub fn check(&self, client: IpAddr) -> Result<(), Duration> {
        if self.per_hour.len() > PRUNE_ABOVE {
            self.per_minute.retain_recent();
            self.per_hour.retain_recent();
        }
        let now = self.clock.now();
        // The hourly limit first, so a request it refuses does not also spend a minute's allowance.
        self.per_hour
            .check_key(&client)
            .map_err(|not_until| not_until.wait_time_from(now))?;
        self.per_minute
            .check_key(&client)
            .map_err(|not_until| not_until.wait_time_from(now))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_submission_in_a_minute_waits_and_others_are_unaffected() {
        let limiter = SubmissionLimiter::new();
        let me: IpAddr = [192, 0, 2, 1].into();
        for _ in 0..5 {
            assert!(limiter.check(me).is_ok());
        }
        let wait = limiter.check(me).unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(60),
            "{wait:?}"
        );
        assert!(limiter.check([192, 0, 2, 2].into()).is_ok());
    }
}
