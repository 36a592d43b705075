//! Per-client submission limits (by default 5 a minute, 20 an hour). The client is a salted hash of its
//! address, so no address is kept. Where the counts live is the store's choice (see
//! `Store::take_submission_slot`): this in-memory limiter serves a single instance.

use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};

/// At most `max` submissions per `window`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RateLimit {
    pub window: Duration,
    pub max: u32,
}

/// The contact form's default limits, the longest window first: a request the hourly limit
/// refuses does not also spend a minute's allowance.
pub const SUBMISSION_LIMITS: [RateLimit; 2] = submission_limits(5, 20);

/// The contact form's limits for `per_minute` and `per_hour` submissions, the longest first.
pub const fn submission_limits(per_minute: u32, per_hour: u32) -> [RateLimit; 2] {
    [
        RateLimit {
            window: Duration::from_secs(60 * 60),
            max: per_hour,
        },
        RateLimit {
            window: Duration::from_secs(60),
            max: per_minute,
        },
    ]
}

/// Above this many tracked clients, forget the ones whose limits have fully recovered.
const PRUNE_ABOVE: usize = 10_000;

pub struct SubmissionLimiter {
    limiters: Vec<DefaultKeyedRateLimiter<String>>,
    clock: DefaultClock,
}

impl std::fmt::Debug for SubmissionLimiter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SubmissionLimiter")
            .field(
                "clients",
                &self.limiters.first().map_or(0, RateLimiter::len),
            )
            .finish()
    }
}

impl SubmissionLimiter {
    pub fn new(limits: &[RateLimit]) -> Self {
        let limiters = limits
            .iter()
            .map(|limit| {
                let max = NonZeroU32::new(limit.max.max(1)).expect("non-zero");
                let quota = Quota::with_period(limit.window / max.get())
                    .expect("a non-zero window")
                    .allow_burst(max);
                RateLimiter::keyed(quota)
            })
            .collect();
        Self {
            limiters,
            clock: DefaultClock::default(),
        }
    }

    /// Counts one submission from `client`; when over a limit, how long until the next is allowed.
    pub fn check(&self, client: &str) -> Result<(), Duration> {
        if self.limiters.first().map_or(0, RateLimiter::len) > PRUNE_ABOVE {
            for limiter in &self.limiters {
                limiter.retain_recent();
            }
        }
        let now = self.clock.now();
        let client = client.to_owned();
        for limiter in &self.limiters {
            limiter
                .check_key(&client)
                .map_err(|not_until| not_until.wait_time_from(now))?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_submission_in_a_minute_waits_and_others_are_unaffected() {
        let limiter = SubmissionLimiter::new(&SUBMISSION_LIMITS);
        for _ in 0..5 {
            assert!(limiter.check("me").is_ok());
        }
        let wait = limiter.check("me").unwrap_err();
        assert!(
            wait > Duration::ZERO && wait <= Duration::from_secs(60),
            "{wait:?}"
        );
        assert!(limiter.check("someone else").is_ok());
    }
}
