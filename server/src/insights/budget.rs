//! What one network may add to a day's insights: at most so many new visitors, new keys of each
//! kind (referrers, campaigns, click targets, case studies, posts) and resume downloads. A network is an IPv4 address
//! or an IPv6 /64 (one customer's), so a new User-Agent per beacon or a new address in the same
//! /64 adds nothing past the allowance, while an office behind one address is still counted.
//!
//! Kept in memory only, per instance: with several instances on one PostgreSQL each keeps its
//! own, so a network may add the allowance once per instance, which still bounds a flood. The
//! networks are forgotten when the day changes, and at most `max_networks` are tracked a day.

use std::collections::hash_map::RandomState;
use std::collections::HashMap;
use std::hash::BuildHasher;
use std::net::IpAddr;

/// What a network's new values are counted as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    Visitor,
    Referrer,
    Campaign,
    Target,
    /// A case study's project id, from a view of its page.
    CaseStudy,
    /// A post's id, from a view of its page.
    Post,
}

/// The allowances per network and day, from the settings.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Allowances {
    pub visitors: u32,
    pub keys: u32,
    pub downloads: u32,
    pub max_networks: usize,
}

/// One network's day: the fingerprints of what it added, by kind, and its downloads.
#[derive(Debug, Default)]
struct NetworkDay {
    added: [Vec<u64>; 6],
    downloads: u32,
}

pub struct Budgets {
    allowances: Allowances,
    /// Keyed at random per process: the fingerprints say nothing outside it, and no address is
    /// kept, not even in memory.
    hasher: RandomState,
    day: String,
    networks: HashMap<u64, NetworkDay>,
    warned_full: bool,
}

impl std::fmt::Debug for Budgets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Budgets")
            .field("day", &self.day)
            .field("networks", &self.networks.len())
            .finish()
    }
}

impl Budgets {
    pub fn new(allowances: Allowances) -> Self {
        Self {
            allowances,
            hasher: RandomState::new(),
            day: String::new(),
            networks: HashMap::new(),
            warned_full: false,
        }
    }

    /// The network `ip` belongs to, as a keyed fingerprint.
    pub fn network_of(&self, ip: IpAddr) -> u64 {
        self.hasher.hash_one(crate::net::limit_network(ip))
    }

    /// Whether `value` of `kind` from `network` may be counted on `day`: yes when the network
    /// already added it today or has room for a new one (which is then remembered).
    pub fn admit(&mut self, day: &str, network: u64, kind: Kind, value: &[u8]) -> bool {
        let max = match kind {
            Kind::Visitor => self.allowances.visitors,
            Kind::Referrer | Kind::Campaign | Kind::Target | Kind::CaseStudy | Kind::Post => {
                self.allowances.keys
            }
        } as usize;
        let fingerprint = self.hasher.hash_one(value);
        let Some(entry) = self.entry(day, network) else {
            return false;
        };
        let added = &mut entry.added[kind as usize];
        if added.contains(&fingerprint) {
            return true;
        }
        if added.len() >= max {
            return false;
        }
        added.push(fingerprint);
        true
    }

    /// Whether one more resume download from `network` may be counted on `day`.
    pub fn admit_download(&mut self, day: &str, network: u64) -> bool {
        let max = self.allowances.downloads;
        let Some(entry) = self.entry(day, network) else {
            return false;
        };
        if entry.downloads >= max {
            return false;
        }
        entry.downloads += 1;
        true
    }

    /// The network's day, starting a new day when it changed; `None` for a network not yet
    /// tracked when `max_networks` are: past that, new networks add nothing new that day
    /// (their page views still count), so memory stays bounded whatever arrives.
    fn entry(&mut self, day: &str, network: u64) -> Option<&mut NetworkDay> {
        if self.day != day {
            self.networks = HashMap::new();
            self.day = day.to_owned();
            self.warned_full = false;
        }
        let full = self.networks.len() >= self.allowances.max_networks;
        if full && !self.networks.contains_key(&network) {
            if !self.warned_full {
                self.warned_full = true;
                tracing::warn!(
                    networks = self.networks.len(),
                    "insights track their most networks for today (--insights-max-networks): \
                     new networks' visitors and referrers are not counted until tomorrow"
                );
            }
            return None;
        }
        Some(self.networks.entry(network).or_default())
    }

    #[cfg(test)]
    fn tracked(&self) -> usize {
        self.networks.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn budgets(max_networks: usize) -> Budgets {
        Budgets::new(Allowances {
            visitors: 2,
            keys: 3,
            downloads: 1,
            max_networks,
        })
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn a_network_adds_at_most_its_allowance_and_repeats_stay_counted() {
        let mut b = budgets(10);
        let net = b.network_of(ip("203.0.113.7"));
        assert!(b.admit("d", net, Kind::Visitor, b"a"));
        assert!(b.admit("d", net, Kind::Visitor, b"b"));
        assert!(!b.admit("d", net, Kind::Visitor, b"c"));
        // One already added is still counted; another kind has its own allowance.
        assert!(b.admit("d", net, Kind::Visitor, b"a"));
        for key in [b"x", b"y", b"z"] {
            assert!(b.admit("d", net, Kind::Referrer, key));
        }
        assert!(!b.admit("d", net, Kind::Referrer, b"w"));
        assert!(b.admit("d", net, Kind::Campaign, b"w"));
        assert!(b.admit("d", net, Kind::CaseStudy, b"w"));
        assert!(b.admit("d", net, Kind::Post, b"w"));
        assert!(b.admit_download("d", net));
        assert!(!b.admit_download("d", net));
        // Another network is not held up.
        let other = b.network_of(ip("203.0.113.8"));
        assert!(b.admit("d", other, Kind::Visitor, b"c"));
        assert!(b.admit_download("d", other));
        // A new day starts afresh.
        assert!(b.admit("e", net, Kind::Visitor, b"c"));
        assert!(b.admit_download("e", net));
        assert_eq!(b.tracked(), 1);
    }

    #[test]
    fn an_ipv6_slash_64_is_one_network() {
        let b = budgets(10);
        assert_eq!(
            b.network_of(ip("2001:db8:1:2::1")),
            b.network_of(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        );
        assert_ne!(
            b.network_of(ip("2001:db8:1:2::1")),
            b.network_of(ip("2001:db8:1:3::1"))
        );
    }

    #[test]
    fn past_the_most_networks_new_ones_add_nothing_until_the_next_day() {
        let mut b = budgets(2);
        let nets: Vec<u64> = ["192.0.2.1", "192.0.2.2", "192.0.2.3"]
            .iter()
            .map(|a| b.network_of(ip(a)))
            .collect();
        assert!(b.admit("d", nets[0], Kind::Visitor, b"a"));
        assert!(b.admit("d", nets[1], Kind::Visitor, b"a"));
        assert!(!b.admit("d", nets[2], Kind::Visitor, b"a"));
        assert!(!b.admit_download("d", nets[2]));
        // The tracked ones go on.
        assert!(b.admit("d", nets[0], Kind::Visitor, b"b"));
        assert_eq!(b.tracked(), 2);
        assert!(b.admit("e", nets[2], Kind::Visitor, b"a"));
        assert_eq!(b.tracked(), 1);
    }
}
