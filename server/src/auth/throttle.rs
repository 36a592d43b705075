//! Sign-in throttling: attempts are counted per account (the e-mail typed) and per client (its
//! address, hashed with a secret salt), or, for a browser that has signed in before, per that
//! browser (see [`super::device`]). Each attempt is counted in the database *before* the
//! password is checked, in one statement that also says whether the attempt may go on, so N
//! parallel guesses cost N counts and at most the free ones reach the password check. From the
//! fifth failure on, each counted attempt locks the key for twice as long as the last, up to a
//! cap; after a lock ends, one attempt is admitted again. A success clears the key; the count is
//! forgotten a while after the last attempt, so a lock never lasts forever.

use sha2::{Digest, Sha256};

use crate::store::{Db, ThrottlePolicy};

/// Failures allowed before the first lock.
pub const FREE_FAILURES: i64 = 5;
/// The first lock; each further failure doubles it.
pub const FIRST_LOCK_MS: i64 = 30_000;
/// No lock lasts longer than this.
pub const MAX_LOCK_MS: i64 = 15 * 60_000;
/// Failures are forgotten this long after the last one.
pub const FORGET_AFTER_MS: i64 = 60 * 60_000;

pub const POLICY: ThrottlePolicy = ThrottlePolicy {
    free_failures: FREE_FAILURES,
    first_lock_ms: FIRST_LOCK_MS,
    max_lock_ms: MAX_LOCK_MS,
    forget_after_ms: FORGET_AFTER_MS,
};

/// The key for an account: a hash of the e-mail as typed, lower-cased.
pub fn account_key(email: &str) -> String {
    format!(
        "account:{}",
        hex::encode(Sha256::digest(email.trim().to_lowercase().as_bytes()))
    )
}

/// The key for a client: its address (for IPv6 its /64, see
/// [`crate::net::limit_network`]) hashed with the server's secret salt, so the raw
/// address is never stored and the hash cannot be reversed by trying every address. The contact
/// form's limit counts the same key.
pub fn client_key(salt: &[u8], ip: std::net::IpAddr) -> String {
    let network = crate::net::limit_network(ip);
    let mut hasher = Sha256::new();
    hasher.update(salt);
    hasher.update(network.to_string().as_bytes());
    format!("client:{}", hex::encode(hasher.finalize()))
}

/// How a key appears in the logs: hashed again with the secret salt and shortened, so related
/// failures can be tied together while no log line holds an e-mail hash anyone could recompute.
pub fn logged_key(salt: &[u8], key: &str) -> String {
    let mut hasher = Sha256::new();
    hasher.update(salt);
    hasher.update(b"log:");
    hasher.update(key.as_bytes());
    hex::encode(&hasher.finalize()[..8])
}

/// The lock after `failures` failures, in milliseconds (0 while they are free). The stores
/// compute the same in SQL; this is its specification, checked against them by the tests.
pub fn lock_after(failures: i64) -> i64 {
    if failures < FREE_FAILURES {
        return 0;
    }
    let doublings = (failures - FREE_FAILURES).min(20) as u32;
    FIRST_LOCK_MS
        .saturating_mul(1 << doublings)
        .min(MAX_LOCK_MS)
}

/// Counts one attempt against every key. `Err(wait_ms)` when a key is locked: the attempt must
/// stop before the password is checked.
pub async fn admit(db: &Db, keys: &[&str], now: i64) -> anyhow::Result<Result<(), i64>> {
    let mut wait_ms = 0;
    for key in keys {
        let attempt = db.count_sign_in_attempt(key, now, &POLICY).await?;
        if !attempt.admitted {
            wait_ms = wait_ms.max((attempt.locked_until - now).max(1));
        }
    }
    Ok(if wait_ms > 0 { Err(wait_ms) } else { Ok(()) })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locks_start_after_the_free_failures_double_and_are_capped() {
        assert_eq!(lock_after(FREE_FAILURES - 1), 0);
        assert_eq!(lock_after(FREE_FAILURES), FIRST_LOCK_MS);
        assert_eq!(lock_after(FREE_FAILURES + 1), 2 * FIRST_LOCK_MS);
        assert_eq!(lock_after(1_000), MAX_LOCK_MS);
    }

    #[test]
    fn keys_never_contain_the_raw_values() {
        let ip: std::net::IpAddr = "203.0.113.9".parse().unwrap();
        assert!(!client_key(b"salt", ip).contains("203.0.113.9"));
        assert_ne!(client_key(b"salt", ip), client_key(b"other", ip));
        assert_eq!(
            account_key(" Me@Example.com"),
            account_key("me@example.com")
        );
        assert!(!account_key("me@example.com").contains("example"));
    }

    #[test]
    fn an_ipv6_client_is_keyed_on_its_slash_64() {
        let one: std::net::IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let other: std::net::IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let next: std::net::IpAddr = "2001:db8:1:3::1".parse().unwrap();
        assert_eq!(client_key(b"s", one), client_key(b"s", other));
        assert_ne!(client_key(b"s", one), client_key(b"s", next));
    }

    #[test]
    fn logged_keys_are_salted_and_stable() {
        let key = account_key("me@example.com");
        assert_eq!(logged_key(b"s", &key), logged_key(b"s", &key));
        assert_ne!(logged_key(b"s", &key), logged_key(b"t", &key));
        assert!(!key.contains(&logged_key(b"s", &key)));
    }
}
