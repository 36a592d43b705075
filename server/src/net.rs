//! Network keys for per-client limits: what the sign-in throttle, the contact form's limits and the
//! beacon budgets count a client as; and the host and TLS name of a server the binary connects to
//! (the site's mailbox, the webhooks).

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

/// A URL's host as the address to connect to (an IP address in its plain form, a name in lower
/// case) and as the name TLS checks the server's certificate for (`crate::tls::Connector`), `None`
/// for a name no certificate can hold. An IPv4 address that the url crate leaves as a name (in a
/// URL of a scheme it does not know, such as `imaps://`) is read as the address it is.
pub fn host_and_server_name(host: url::Host<&str>) -> (String, Option<String>) {
    let ip = match host {
        url::Host::Ipv4(ip) => IpAddr::V4(ip),
        url::Host::Ipv6(ip) => IpAddr::V6(ip),
        url::Host::Domain(name) => match name.parse::<IpAddr>() {
            Ok(ip) => ip,
            Err(_) => {
                let name = name.to_ascii_lowercase();
                let server_name = dns_name(&name).then(|| name.clone());
                return (name, server_name);
            }
        },
    };
    (ip.to_string(), Some(ip.to_string()))
}

/// Whether `name` is a DNS name a certificate can hold: dot-separated labels of ASCII letters,
/// digits, hyphens and underscores, none empty or starting or ending with a hyphen, each at most
/// 63 bytes and the whole at most 253 (a final dot allowed).
fn dns_name(name: &str) -> bool {
    let name = name.strip_suffix('.').unwrap_or(name);
    !name.is_empty()
        && name.len() <= 253
        && name.split('.').all(|label| {
            (1..=63).contains(&label.len())
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        })
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

    #[test]
    fn a_host_is_named_for_tls_as_its_certificate_would_name_it() {
        let named = |host: &str| {
            let url = url::Url::parse(&format!("https://{host}/")).unwrap();
            host_and_server_name(url.host().unwrap())
        };
        assert_eq!(
            named("Mail.Example.org"),
            ("mail.example.org".into(), Some("mail.example.org".into()))
        );
        assert_eq!(named("[::1]"), ("::1".into(), Some("::1".into())));
        assert_eq!(
            named("127.0.0.1"),
            ("127.0.0.1".into(), Some("127.0.0.1".into()))
        );
        let opaque = |host: &str| host_and_server_name(url::Host::Domain(host));
        assert_eq!(opaque("10.0.0.2").1.as_deref(), Some("10.0.0.2"));
        assert_eq!(opaque("bad..name").1, None);
        assert_eq!(opaque("-bad.example").1, None);
        assert_eq!(opaque("spa ce.example").1, None);
        assert_eq!(opaque(&format!("{}.example", "a".repeat(64))).1, None);
        assert_eq!(
            opaque("_dmarc.example.org.").1.as_deref(),
            Some("_dmarc.example.org.")
        );
    }
}
