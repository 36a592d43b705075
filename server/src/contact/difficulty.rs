//! The proof of work grows for a network that asks for many challenges, as ALTCHA's and Friendly
//! Captcha's adaptive difficulty do: each network (an IPv4 address, an IPv6 /64) gets
//! `--spam-challenge-free-per-hour` challenges an hour at the base size, and each one after that
//! is twice as large as the one before, up to [`MAX_NUMBER_CEILING`]. A person sending a message
//! or two never notices; a script that fills the site-wide ceiling from one network pays seconds,
//! then minutes of CPU per message, so it takes many networks.
//!
//! Kept in memory only, per instance (a restart forgets it; several instances on one PostgreSQL
//! each count their own, which still bounds a flood). At most [`MAX_NETWORKS`] networks are
//! tracked; past that, a network not yet tracked is treated as one that has used its allowance.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::Mutex;

/// How long a network's count lasts from its first challenge.
const WINDOW_MS: i64 = 60 * 60 * 1000;
/// The largest challenge ever issued: Chromium tries about 75,000 numbers a second on a busy
/// two-core machine, so about a minute on average at this size.
pub const MAX_NUMBER_CEILING: u64 = 10_000_000;
/// The most networks remembered at once.
const MAX_NETWORKS: usize = 100_000;

#[derive(Debug, Clone, Copy)]
struct Window {
    started_ms: i64,
    issued: u32,
}

#[derive(Debug)]
pub struct ChallengeLoad {
    free_per_hour: u32,
    max_networks: usize,
    networks: Mutex<HashMap<IpAddr, Window>>,
}

impl ChallengeLoad {
    pub fn new(free_per_hour: u32) -> Self {
        Self::with_capacity(free_per_hour, MAX_NETWORKS)
    }

    fn with_capacity(free_per_hour: u32, max_networks: usize) -> Self {
        Self {
            free_per_hour,
            max_networks,
            networks: Mutex::new(HashMap::new()),
        }
    }

    /// Counts one more challenge for `ip`'s network at `now_ms` and returns the largest secret
    /// number it gets: `base` while within the allowance, doubled for each challenge past it.
    pub fn max_number(&self, ip: IpAddr, now_ms: i64, base: u64) -> u64 {
        let network = crate::net::limit_network(ip);
        let mut networks = self.networks.lock().unwrap_or_else(|e| e.into_inner());
        if !networks.contains_key(&network) && networks.len() >= self.max_networks {
            networks.retain(|_, window| now_ms - window.started_ms < WINDOW_MS);
        }
        let issued = if !networks.contains_key(&network) && networks.len() >= self.max_networks {
            self.free_per_hour.saturating_add(1)
        } else {
            let window = networks.entry(network).or_insert(Window {
                started_ms: now_ms,
                issued: 0,
            });
            if now_ms - window.started_ms >= WINDOW_MS {
                *window = Window {
                    started_ms: now_ms,
                    issued: 0,
                };
            }
            window.issued = window.issued.saturating_add(1);
            window.issued
        };
        drop(networks);
        let doublings = issued.saturating_sub(self.free_per_hour).min(32);
        base.saturating_mul(1u64 << doublings)
            .min(MAX_NUMBER_CEILING.max(base))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const NOW: i64 = 1_800_000_000_000;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_busy_network_gets_larger_challenges_and_others_do_not() {
        let load = ChallengeLoad::new(3);
        let sizes: Vec<u64> = (0..6)
            .map(|_| load.max_number(ip("203.0.113.7"), NOW, 1000))
            .collect();
        assert_eq!(sizes, [1000, 1000, 1000, 2000, 4000, 8000]);
        // Another address, and another address in the same IPv6 /64.
        assert_eq!(load.max_number(ip("203.0.113.8"), NOW, 1000), 1000);
        for n in 0..3 {
            let address = format!("2001:db8:1:2::{n}");
            assert_eq!(load.max_number(ip(&address), NOW, 1000), 1000);
        }
        assert_eq!(load.max_number(ip("2001:db8:1:2::ff"), NOW, 1000), 2000);
        // The ceiling, then an hour later the allowance again.
        for _ in 0..40 {
            load.max_number(ip("203.0.113.7"), NOW, 1000);
        }
        assert_eq!(
            load.max_number(ip("203.0.113.7"), NOW, 1000),
            MAX_NUMBER_CEILING
        );
        assert_eq!(
            load.max_number(ip("203.0.113.7"), NOW + WINDOW_MS, 1000),
            1000
        );
    }

    #[test]
    fn past_the_networks_it_can_track_a_new_one_pays_as_a_busy_one() {
        let load = ChallengeLoad::with_capacity(1, 2);
        assert_eq!(load.max_number(ip("192.0.2.1"), NOW, 1000), 1000);
        assert_eq!(load.max_number(ip("192.0.2.2"), NOW, 1000), 1000);
        assert_eq!(load.max_number(ip("192.0.2.3"), NOW, 1000), 2000);
        // Once the first two are an hour old, they are forgotten and there is room again.
        assert_eq!(
            load.max_number(ip("192.0.2.3"), NOW + WINDOW_MS, 1000),
            1000
        );
    }
}
