//! Per-client submission limits (by default 5 a minute, 20 an hour). The client is a salted hash of its
//! address, so no address is kept. Where the counts live is the store's choice (see
//! `Store::take_submission_slot`): this in-memory limiter serves a single instance.

use std::num::NonZeroU32;
use std::sync::atomic::{AtomicUsize, Ordering};
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
    /// The number of tracked clients above which the next check prunes: twice what the last
    /// pruning kept (at least [`PRUNE_ABOVE`]), so that clients still within their hour are not
    /// scanned again at every request (a scan costs time in proportion to the clients).
    prune_above: AtomicUsize,
    /// How many times the clients were scanned.
    prunes: AtomicUsize,
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
            prune_above: AtomicUsize::new(PRUNE_ABOVE),
            prunes: AtomicUsize::new(0),
        }
    }

    fn clients(&self) -> usize {
        self.limiters.first().map_or(0, RateLimiter::len)
    }

    /// Counts one submission from `client`; when over a limit, how long until the next is allowed.
    pub fn check(&self, client: &str) -> Result<(), Duration> {
        if self.clients() > self.prune_above.load(Ordering::Relaxed) {
            for limiter in &self.limiters {
                limiter.retain_recent();
            }
            self.prunes.fetch_add(1, Ordering::Relaxed);
            let kept = self.clients();
            self.prune_above
                .store(PRUNE_ABOVE.max(kept.saturating_mul(2)), Ordering::Relaxed);
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

    #[test]
    fn many_clients_within_their_hour_are_not_scanned_at_every_request() {
        let limiter = SubmissionLimiter::new(&SUBMISSION_LIMITS);
        for client in 0..=PRUNE_ABOVE {
            assert!(limiter.check(&client.to_string()).is_ok());
        }
        // Each later client would have made a scan of them all, as none has recovered yet.
        for client in PRUNE_ABOVE + 1..PRUNE_ABOVE + 1_000 {
            assert!(limiter.check(&client.to_string()).is_ok());
        }
        assert_eq!(limiter.prunes.load(Ordering::Relaxed), 1);
        assert_eq!(limiter.clients(), PRUNE_ABOVE + 1_000);
        // The limits still hold for every one of them.
        for _ in 0..4 {
            assert!(limiter.check("7").is_ok());
        }
        assert!(limiter.check("7").is_err());
    }
}
