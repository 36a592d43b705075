//! "Forgot password?" with bounded work. A request is admitted in memory, with no database work:
//! limited per network (an IPv6 /64, as every per-client limit) and by an overall ceiling; an
//! address asked for within [`super::reset::EVERY_MS`] is not asked for again; what is left goes
//! to a queue of fixed capacity that a fixed number of workers take from (each looks the address
//! up, and makes and e-mails the link when it is the owner's). A full queue sheds the request.
//! Whatever happens, the answer is the same for every address, and as fast: the work happens
//! after it, a bounded amount of it.

use std::collections::HashMap;
use std::future::Future;
use std::hash::{BuildHasher, RandomState};
use std::net::IpAddr;
use std::num::NonZeroU32;
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

use governor::clock::{Clock, DefaultClock};
use governor::{DefaultDirectRateLimiter, DefaultKeyedRateLimiter, Quota, RateLimiter};
use sha2::{Digest, Sha256};
use tokio::sync::mpsc;

use super::reset::EVERY_MS;
use crate::net::limit_network;

/// Requests one network may make: this many at once, then one per [`NETWORK_EVERY`].
pub const NETWORK_BURST: u32 = 5;
pub const NETWORK_EVERY: Duration = Duration::from_secs(2 * 60);
/// Requests every network together may make: this many at once, then one per [`OVERALL_EVERY`].
pub const OVERALL_BURST: u32 = 30;
pub const OVERALL_EVERY: Duration = Duration::from_secs(2);
/// The networks tracked at most. A flood from more networks than this within their
/// [`NETWORK_EVERY`] is refused as a whole, as the overall ceiling would refuse it anyway.
pub const MAX_NETWORKS: usize = 10_000;
/// The addresses remembered at most (the ceiling admits far fewer within five minutes).
const MAX_ADDRESSES: usize = 10_000;
/// The requests waiting for a worker at most; past it, a request is shed.
pub const QUEUE: usize = 32;
/// The workers that make and e-mail links.
pub const WORKERS: usize = 2;

/// What became of a request. The client's answer tells only [`Admission::Limited`] apart, which
/// depends on its network and on the others', never on the address.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Admission {
    /// Queued for a worker (or nothing to do: links cannot be e-mailed here).
    Queued,
    /// The address was asked for within five minutes: nothing more to do.
    Cooling,
    /// The queue was full: dropped.
    Shed,
    /// Over its network's limit or the overall ceiling: try again after this long.
    Limited(Duration),
}

/// The admission of "Forgot password?" requests, and the queue to its workers.
pub struct Requests {
    /// Keyed by a hash of the network with this process's random key: no address is kept.
    networks: DefaultKeyedRateLimiter<u64>,
    network_key: RandomState,
    overall: DefaultDirectRateLimiter,
    clock: DefaultClock,
    /// When the networks were last scanned for those that recovered.
    pruned: Mutex<Option<Instant>>,
    /// The SHA-256 of each address asked for lately (lower case), and when.
    asked: Mutex<HashMap<[u8; 32], i64>>,
    queue: OnceLock<mpsc::Sender<String>>,
}

impl std::fmt::Debug for Requests {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Requests")
            .field("networks", &self.networks.len())
            .finish()
    }
}

impl Default for Requests {
    fn default() -> Self {
        Self::new()
    }
}

fn quota(burst: u32, every: Duration) -> Quota {
    Quota::with_period(every)
        .expect("a non-zero period")
        .allow_burst(NonZeroU32::new(burst).expect("a non-zero burst"))
}

impl Requests {
    pub fn new() -> Self {
        Self::with_quotas(
            quota(NETWORK_BURST, NETWORK_EVERY),
            quota(OVERALL_BURST, OVERALL_EVERY),
        )
    }

    fn with_quotas(network: Quota, overall: Quota) -> Self {
        Self {
            networks: RateLimiter::keyed(network),
            network_key: RandomState::new(),
            overall: RateLimiter::direct(overall),
            clock: DefaultClock::default(),
            pruned: Mutex::new(None),
            asked: Mutex::new(HashMap::new()),
            queue: OnceLock::new(),
        }
    }

    /// Starts [`WORKERS`] workers, each doing `work` with one queued address at a time. The
    /// workers end when these requests are dropped.
    pub fn start<F, Fut>(&self, work: F)
    where
        F: Fn(String) -> Fut + Clone + Send + Sync + 'static,
        Fut: Future<Output = ()> + Send + 'static,
    {
        let (sender, receiver) = mpsc::channel::<String>(QUEUE);
        if self.queue.set(sender).is_err() {
            return;
        }
        let receiver = std::sync::Arc::new(tokio::sync::Mutex::new(receiver));
        for _ in 0..WORKERS {
            let (receiver, work) = (receiver.clone(), work.clone());
            tokio::spawn(async move {
                loop {
                    let next = receiver.lock().await.recv().await;
                    let Some(email) = next else { break };
                    work(email).await;
                }
            });
        }
    }

    /// Admits a request for `email` (as typed) from `ip` at `now` (the sign-in features' clock).
    pub fn admit(&self, ip: IpAddr, email: &str, now: i64) -> Admission {
        if let Err(wait) = self.within_limits(limit_network(ip)) {
            return Admission::Limited(wait);
        }
        let key: [u8; 32] = Sha256::digest(email.trim().to_lowercase().as_bytes()).into();
        {
            let mut asked = self.asked.lock().unwrap_or_else(|e| e.into_inner());
            if asked
                .get(&key)
                .is_some_and(|at| now - at < EVERY_MS && *at <= now)
            {
                return Admission::Cooling;
            }
            if asked.len() >= MAX_ADDRESSES {
                asked.retain(|_, at| now - *at < EVERY_MS);
                if asked.len() >= MAX_ADDRESSES {
                    return Admission::Shed;
                }
            }
            asked.insert(key, now);
        }
        let Some(queue) = self.queue.get() else {
            return Admission::Queued;
        };
        match queue.try_send(email.trim().to_owned()) {
            Ok(()) => Admission::Queued,
            Err(_) => {
                // Not asked for after all: the address may be asked for again at once.
                let mut asked = self.asked.lock().unwrap_or_else(|e| e.into_inner());
                if asked.get(&key) == Some(&now) {
                    asked.remove(&key);
                }
                Admission::Shed
            }
        }
    }

    /// Counts a request from `network` and from everyone; how long to wait when over a limit.
    fn within_limits(&self, network: IpAddr) -> Result<(), Duration> {
        let network = self.network_key.hash_one(network);
        if self.networks.len() >= MAX_NETWORKS && !self.prune() {
            return Err(Duration::from_secs(60));
        }
        let now = self.clock.now();
        self.networks
            .check_key(&network)
            .map_err(|not_until| not_until.wait_time_from(now))?;
        self.overall
            .check()
            .map_err(|not_until| not_until.wait_time_from(now))
    }

    /// Forgets the networks whose limit has recovered, at most once a second; whether there is
    /// room for another network now.
    fn prune(&self) -> bool {
        let mut pruned = self.pruned.lock().unwrap_or_else(|e| e.into_inner());
        if pruned.is_none_or(|at| at.elapsed() >= Duration::from_secs(1)) {
            self.networks.retain_recent();
            self.networks.shrink_to_fit();
            *pruned = Some(Instant::now());
        }
        self.networks.len() < MAX_NETWORKS
    }

    /// How many networks and addresses are remembered (their memory is bounded).
    pub fn tracked(&self) -> (usize, usize) {
        let asked = self.asked.lock().unwrap_or_else(|e| e.into_inner()).len();
        (self.networks.len(), asked)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u32) -> IpAddr {
        IpAddr::from(n.to_be_bytes())
    }

    #[test]
    fn a_network_gets_a_few_and_then_waits_and_an_ipv6_network_is_its_64() {
        let requests = Requests::new();
        for n in 0..NETWORK_BURST {
            let email = format!("{n}@example.com");
            assert_eq!(requests.admit(ip(1), &email, 0), Admission::Queued);
        }
        assert!(matches!(
            requests.admit(ip(1), "x@example.com", 0),
            Admission::Limited(wait) if wait > Duration::ZERO
        ));
        assert_eq!(requests.admit(ip(2), "x@example.com", 0), Admission::Queued);

        let v6 = |last: &str| format!("2001:db8:1:2::{last}").parse::<IpAddr>().unwrap();
        for n in 0..NETWORK_BURST {
            let email = format!("v6-{n}@example.com");
            assert_eq!(
                requests.admit(v6(&n.to_string()), &email, 0),
                Admission::Queued
            );
        }
        assert!(matches!(
            requests.admit(v6("ffff"), "y@example.com", 0),
            Admission::Limited(_)
        ));
    }

    #[test]
    fn every_network_together_meets_the_ceiling() {
        let requests = Requests::new();
        let admitted = (0..1_000)
            .filter(|n| requests.admit(ip(*n), &format!("{n}@example.com"), 0) == Admission::Queued)
            .count();
        assert_eq!(admitted, OVERALL_BURST as usize);
        assert!(requests.tracked().1 <= OVERALL_BURST as usize);
    }

    #[test]
    fn an_address_is_asked_for_once_in_five_minutes_whatever_its_case() {
        let requests = Requests::new();
        assert_eq!(
            requests.admit(ip(1), "Me@Example.com", 1_000),
            Admission::Queued
        );
        assert_eq!(
            requests.admit(ip(2), " me@example.com ", 2_000),
            Admission::Cooling
        );
        assert_eq!(
            requests.admit(ip(3), "me@example.com", 1_000 + EVERY_MS),
            Admission::Queued
        );
    }

    #[tokio::test]
    async fn a_full_queue_sheds_and_the_address_may_be_asked_for_again() {
        let roomy = quota(10_000, Duration::from_millis(1));
        let requests = Requests::with_quotas(roomy, roomy);
        // Workers that never finish: the queue fills.
        requests.start(|_| std::future::pending::<()>());
        tokio::task::yield_now().await;
        let mut shed = 0;
        for n in 0..(QUEUE + WORKERS + 10) as u32 {
            if requests.admit(ip(n), &format!("{n}@example.com"), 0) == Admission::Shed {
                shed += 1;
            }
        }
        assert!(shed >= 8, "{shed}");
        let last = QUEUE + WORKERS + 9;
        assert_eq!(
            requests.admit(ip(9_999), &format!("{last}@example.com"), 0),
            Admission::Shed,
            "not cooling: it was shed, not asked for"
        );
    }

    #[test]
    fn the_networks_tracked_are_bounded() {
        let requests = Requests::new();
        for n in 0..(MAX_NETWORKS as u32 + 500) {
            requests.admit(ip(n), "a@example.com", 0);
        }
        assert!(
            requests.tracked().0 <= MAX_NETWORKS,
            "{:?}",
            requests.tracked()
        );
        assert!(matches!(
            requests.admit(ip(u32::MAX), "b@example.com", 0),
            Admission::Limited(_)
        ));
    }
}
