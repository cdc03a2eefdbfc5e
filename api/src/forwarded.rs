//! Who the client is and how it connected, behind trusted reverse proxies.
//!
//! Forwarding headers are believed only when the connection comes from a configured proxy
//! (`SEARCHDECK_TRUSTED_PROXIES`); anyone else could write them. The chain is read from the
//! right: every hop a trusted proxy appended is skipped, and the first address not in the
//! trusted set is the client (the rightmost untrusted hop). `Forwarded` (RFC 7239) is read
//! when present, else `X-Forwarded-For`.

use std::net::{IpAddr, SocketAddr};

use axum::http::{HeaderMap, header};
use ipnet::IpNet;

fn trusted(ip: IpAddr, proxies: &[IpNet]) -> bool {
    let ip = ip.to_canonical();
    proxies.iter().any(|net| net.contains(&ip))
}

/// Parses one `for=` value or `X-Forwarded-For` entry: an IP, with an optional port,
/// IPv6 in brackets, possibly quoted. Obfuscated names and `unknown` give `None`.
fn parse_node(raw: &str) -> Option<IpAddr> {
    let s = raw.trim().trim_matches('"');
    if let Ok(ip) = s.parse::<IpAddr>() {
        return Some(ip);
    }
    if let Ok(addr) = s.parse::<SocketAddr>() {
        return Some(addr.ip());
    }
    let inner = s.strip_prefix('[')?.split(']').next()?;
    inner.parse().ok()
}

/// The forwarded-for chain, leftmost (original client) first; `None` for an unreadable hop.
fn chain(headers: &HeaderMap) -> Vec<Option<IpAddr>> {
    let forwarded: Vec<&str> = headers
        .get_all(header::FORWARDED)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect();
    if !forwarded.is_empty() {
        return forwarded
            .iter()
            .flat_map(|v| v.split(','))
            .filter_map(|element| {
                element.split(';').find_map(|pair| {
                    let (name, value) = pair.split_once('=')?;
                    name.trim()
                        .eq_ignore_ascii_case("for")
                        .then(|| parse_node(value))
                })
            })
            .collect();
    }
    headers
        .get_all("x-forwarded-for")
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .map(parse_node)
        .collect()
}

/// The client's address: the peer itself unless it is a trusted proxy, else the rightmost
/// untrusted hop of the forwarded chain. An unreadable hop stops the walk at the last
/// trusted address (the client behind it cannot be told apart).
pub fn client_ip(peer: IpAddr, headers: &HeaderMap, proxies: &[IpNet]) -> IpAddr {
    let mut client = peer.to_canonical();
    if !trusted(client, proxies) {
        return client;
    }
    for hop in chain(headers).into_iter().rev() {
        match hop {
            Some(ip) => {
                client = ip.to_canonical();
                if !trusted(client, proxies) {
                    break;
                }
            }
            None => break,
        }
    }
    client
}

/// Whether the client reached a trusted proxy over HTTPS (`X-Forwarded-Proto: https` or
/// `Forwarded: proto=https`). Untrusted peers cannot claim it.
pub fn via_https(peer: IpAddr, headers: &HeaderMap, proxies: &[IpNet]) -> bool {
    if !trusted(peer, proxies) {
        return false;
    }
    let first = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::to_string)
    };
    if let Some(proto) = first("x-forwarded-proto") {
        return proto
            .split(',')
            .next()
            .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"));
    }
    first(header::FORWARDED.as_str()).is_some_and(|v| {
        v.split(',').next().is_some_and(|element| {
            element.split(';').any(|pair| {
                pair.split_once('=').is_some_and(|(n, v)| {
                    n.trim().eq_ignore_ascii_case("proto")
                        && v.trim().trim_matches('"').eq_ignore_ascii_case("https")
                })
            })
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.append(
                axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
                value.parse().unwrap(),
            );
        }
        h
    }

    fn ip(s: &str) -> IpAddr {
        s.parse().unwrap()
    }

    fn nets(list: &[&str]) -> Vec<IpNet> {
        list.iter().map(|s| s.parse().unwrap()).collect()
    }

    #[test]
    fn untrusted_peers_cannot_claim_another_address() {
        let h = headers(&[("x-forwarded-for", "1.2.3.4")]);
        assert_eq!(client_ip(ip("9.9.9.9"), &h, &[]), ip("9.9.9.9"));
        assert_eq!(
            client_ip(ip("9.9.9.9"), &h, &nets(&["10.0.0.0/8"])),
            ip("9.9.9.9")
        );
    }

    #[test]
    fn the_rightmost_untrusted_hop_is_the_client() {
        let proxies = nets(&["10.0.0.0/8", "127.0.0.1/32"]);
        // A client forging a leftmost entry does not get to pick its address.
        let h = headers(&[("x-forwarded-for", "6.6.6.6, 1.2.3.4, 10.0.0.2")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &proxies), ip("1.2.3.4"));
        let h = headers(&[
            ("x-forwarded-for", "6.6.6.6"),
            ("x-forwarded-for", "1.2.3.4"),
        ]);
        assert_eq!(client_ip(ip("127.0.0.1"), &h, &proxies), ip("1.2.3.4"));
        let h = headers(&[(
            "forwarded",
            "for=6.6.6.6, for=\"[2001:db8::17]:4711\";proto=https, for=10.0.0.3",
        )]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &proxies), ip("2001:db8::17"));
        let h = headers(&[("x-forwarded-for", "1.2.3.4:5678")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &proxies), ip("1.2.3.4"));
    }

    #[test]
    fn unreadable_hops_and_missing_headers_stop_at_the_proxy() {
        let proxies = nets(&["10.0.0.0/8"]);
        let h = headers(&[("x-forwarded-for", "1.2.3.4, unknown, 10.0.0.2")]);
        assert_eq!(client_ip(ip("10.0.0.1"), &h, &proxies), ip("10.0.0.2"));
        assert_eq!(
            client_ip(ip("10.0.0.1"), &HeaderMap::new(), &proxies),
            ip("10.0.0.1")
        );
        let mapped: IpAddr = "::ffff:10.0.0.1".parse().unwrap();
        let h = headers(&[("x-forwarded-for", "1.2.3.4")]);
        assert_eq!(client_ip(mapped, &h, &proxies), ip("1.2.3.4"));
    }

    #[test]
    fn https_is_believed_from_trusted_proxies_only() {
        let proxies = nets(&["10.0.0.0/8"]);
        let h = headers(&[("x-forwarded-proto", "https")]);
        assert!(via_https(ip("10.0.0.1"), &h, &proxies));
        assert!(!via_https(ip("8.8.8.8"), &h, &proxies));
        let h = headers(&[("forwarded", "for=1.2.3.4;proto=https")]);
        assert!(via_https(ip("10.0.0.1"), &h, &proxies));
        let h = headers(&[("x-forwarded-proto", "http")]);
        assert!(!via_https(ip("10.0.0.1"), &h, &proxies));
    }
}
