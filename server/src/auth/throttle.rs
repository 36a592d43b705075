//! Sign-in throttling: failures are counted per account (the e-mail typed) and per client
//! (its address, hashed with a secret salt) in the database. After a few free tries each
//! further failure locks the key for twice as long as the last, up to a cap; the count is
//! forgotten a while after the last failure, so a lock never lasts forever.

use sha2::{Digest, Sha256};

use crate::store::Db;

/// Failures allowed before the first lock.
pub const FREE_FAILURES: i64 = 5;
/// The first lock; each further failure doubles it.
pub const FIRST_LOCK_MS: i64 = 30_000;
/// No lock lasts longer than this.
pub const MAX_LOCK_MS: i64 = 15 * 60_000;
/// Failures are forgotten this long after the last one.
pub const FORGET_AFTER_MS: i64 = 60 * 60_000;

/// The key for an account: a hash of the e-mail as typed, lower-cased.
pub fn account_key(email: &str) -> String {
    format!(
        "account:{}",
        hex::encode(Sha256::digest(email.trim().to_lowercase().as_bytes()))
    )
}

/// The key for a client: its address hashed with the server's secret salt, so the raw
/// address is never stored and the hash cannot be reversed by trying every address.
pub fn client_key(salt: &[u8], ip: std::net::IpAddr) -> String {
    let mut hasher = Sha256::new();
    hasher.update(salt);
    hasher.update(ip.to_string().as_bytes());
    format!("client:{}", hex::encode(hasher.finalize()))
}

/// Milliseconds until the key may try again, if it is locked now.
pub async fn locked_for(db: &Db, key: &str, now: i64) -> anyhow::Result<Option<i64>> {
    Ok(db
        .sign_in_failures(key)
        .await?
        .filter(|row| row.locked_until > now)
        .map(|row| row.locked_until - now))
}

/// The lock after `failures` failures, in milliseconds (0 while they are free).
pub fn lock_after(failures: i64) -> i64 {
    if failures < FREE_FAILURES {
        return 0;
    }
    let doublings = (failures - FREE_FAILURES).min(20) as u32;
    FIRST_LOCK_MS
        .saturating_mul(1 << doublings)
        .min(MAX_LOCK_MS)
}

/// Counts one failure for the key (incremented in the database, so parallel failures each
/// count, on every instance) and locks the key when the count calls for it.
pub async fn record_failure(db: &Db, key: &str, now: i64) -> anyhow::Result<i64> {
    let failures = db.add_sign_in_failure(key, now, FORGET_AFTER_MS).await?;
    let lock = lock_after(failures);
    if lock > 0 {
        db.lock_sign_in(key, now + lock).await?;
    }
    Ok(failures)
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
}
