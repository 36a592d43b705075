//! Network keys for per-client limits: what the sign-in throttle, the contact form's limits and the
//! beacon budgets count a client as.

use std::net::{IpAddr, Ipv6Addr};

/// What a per-client limit counts: the address itself for IPv4, its /64 for IPv6 (one customer's
/// usual allocation, in which every address is free to use).
pub fn limit_network(ip: IpAddr) -> IpAddr {
    match ip.to_canonical() {
        IpAddr::V6(v6) => {
            let bits = u128::from(v6) & !((1u128 << 64) - 1);
            IpAddr::V6(Ipv6Addr::from(bits))
        }
        v4 => v4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_limits_count_the_slash_64() {
        assert_eq!(
            limit_network(ip("2001:db8:1:2:aaaa:bbbb:cccc:dddd")),
            ip("2001:db8:1:2::")
        );
        assert_eq!(limit_network(ip("203.0.113.7")), ip("203.0.113.7"));
        assert_eq!(limit_network(ip("::ffff:203.0.113.7")), ip("203.0.113.7"));
    }
}
