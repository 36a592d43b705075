//! Network keys for per-client limits: what the sign-in throttle, the contact form's limits and the
//! beacon budgets count a client as; and the TLS client's configuration for the servers the binary
//! connects to (the site's mailbox, the webhooks).

use std::net::{IpAddr, Ipv6Addr};
use std::sync::Arc;

use anyhow::Context;
use rustls::pki_types::ServerName;

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

/// A URL's host as the address to connect to (an IP address in its plain form, a name in lower
/// case) and as the name TLS checks the server's certificate for, `None` for a name it cannot
/// check. An IPv4 address that the url crate leaves as a name (in a URL of a scheme it does not
/// know, such as `imaps://`) is read as the address it is.
pub fn host_and_server_name(host: url::Host<&str>) -> (String, Option<ServerName<'static>>) {
    let ip = match host {
        url::Host::Ipv4(ip) => IpAddr::V4(ip),
        url::Host::Ipv6(ip) => IpAddr::V6(ip),
        url::Host::Domain(name) => match name.parse::<IpAddr>() {
            Ok(ip) => ip,
            Err(_) => {
                let name = name.to_ascii_lowercase();
                let server_name = ServerName::try_from(name.clone()).ok();
                return (name, server_name);
            }
        },
    };
    (ip.to_string(), Some(ServerName::IpAddress(ip.into())))
}

/// Mozilla's root certificates (webpki-roots, as lettre uses them), the trust of every TLS
/// connection the binary makes unless a setting adds its own.
pub fn web_roots() -> rustls::RootCertStore {
    let mut roots = rustls::RootCertStore::empty();
    roots.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned());
    roots
}

/// A TLS client trusting `roots`: the ring provider (chosen explicitly, as the server's own
/// listener does), TLS 1.2 and 1.3, no client certificate.
pub fn tls_client(roots: rustls::RootCertStore) -> anyhow::Result<rustls::ClientConfig> {
    Ok(rustls::ClientConfig::builder_with_provider(Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .context("no TLS protocol version available")?
    .with_root_certificates(roots)
    .with_no_client_auth())
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
