//! `ClientIp`: the address a request came from, for rate limits. Never stored raw.
//!
//! Without `--trust-proxy` it is the connection's peer. With it, and only when the peer is one of
//! `--trusted-proxies`, `X-Forwarded-For` is read from the right (each proxy appends the address
//! it saw) and the first address that is not a trusted proxy is the client, as nginx's
//! `real_ip_recursive` and Rails' `RemoteIp` do: whatever a client writes itself stays to the
//! left and is never reached. IPv4-mapped IPv6 addresses are read as the IPv4 address.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum::http::HeaderMap;
use ipnet::IpNet;

use crate::http::state::AppState;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct ClientIp(pub IpAddr);

impl<S> FromRequestParts<S> for ClientIp
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|ConnectInfo(addr)| addr.ip())
            .unwrap_or(IpAddr::from([0, 0, 0, 0]));
        let trusted: &[IpNet] = if state.settings.trust_proxy {
            &state.settings.limits.trusted_proxies
        } else {
            &[]
        };
        Ok(Self(client_address(peer, &parts.headers, trusted)))
    }
}

/// The client behind `peer`, believing `X-Forwarded-For` only as far as `trusted` proxies vouch.
pub fn client_address(peer: IpAddr, headers: &HeaderMap, trusted: &[IpNet]) -> IpAddr {
    let is_trusted = |ip: &IpAddr| trusted.iter().any(|net| net.contains(ip));
    let mut client = peer.to_canonical();
    if !is_trusted(&client) {
        return client;
    }
    // Several header lines are one list, in order.
    let entries: Vec<&str> = headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|value| value.to_str().ok())
        .flat_map(|value| value.split(','))
        .collect();
    for entry in entries.iter().rev() {
        let Some(ip) = parse_entry(entry) else {
            // Garbage can only come from the left of what our proxies wrote: stop at it.
            break;
        };
        client = ip;
        if !is_trusted(&ip) {
            break;
        }
    }
    client
}

/// One `X-Forwarded-For` entry: an address, possibly with a port (`203.0.113.7:4711`,
/// `[2001:db8::1]:4711`).
fn parse_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    let ip = entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|addr| addr.ip()))?;
    Some(ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(values: &[&str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for value in values {
            headers.append("x-forwarded-for", value.parse().unwrap());
        }
        headers
    }

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn loopback() -> Vec<IpNet> {
        vec!["127.0.0.0/8".parse().unwrap(), "::1/128".parse().unwrap()]
    }

    #[test]
    fn the_rightmost_untrusted_address_is_the_client() {
        let trusted = vec![
            "127.0.0.0/8".parse().unwrap(),
            "10.0.0.0/8".parse().unwrap(),
        ];
        let forged = headers(&["6.6.6.6, 203.0.113.7, 10.1.2.3"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &forged, &trusted),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn several_header_lines_are_one_list() {
        let split = headers(&["6.6.6.6", "203.0.113.7"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &split, &loopback()),
            ip("203.0.113.7")
        );
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_writes() {
        let forged = headers(&["6.6.6.6"]);
        assert_eq!(
            client_address(ip("198.51.100.1"), &forged, &loopback()),
            ip("198.51.100.1")
        );
        assert_eq!(
            client_address(ip("127.0.0.1"), &forged, &[]),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn garbage_and_ports_are_handled() {
        let odd = headers(&["nonsense, [2001:db8::1]:4711"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &odd, &loopback()),
            ip("2001:db8::1")
        );
        let garbage_last = headers(&["203.0.113.7, nonsense"]);
        assert_eq!(
            client_address(ip("127.0.0.1"), &garbage_last, &loopback()),
            ip("127.0.0.1")
        );
    }

    #[test]
    fn ipv4_mapped_addresses_are_ipv4() {
        assert_eq!(
            client_address(ip("::ffff:203.0.113.7"), &HeaderMap::new(), &loopback()),
            ip("203.0.113.7")
        );
        let mapped = headers(&["::ffff:203.0.113.8"]);
        assert_eq!(
            client_address(ip("::ffff:127.0.0.1"), &mapped, &loopback()),
            ip("203.0.113.8")
        );
    }
}
