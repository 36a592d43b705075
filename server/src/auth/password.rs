//! Password hashing (Argon2id, off the async executor) and the password policy.

use std::collections::HashSet;
use std::sync::LazyLock;

use anyhow::Context;
use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHash, PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Params, Version};
use secrecy::{ExposeSecret, SecretString};

pub const MIN_LENGTH: usize = 12;
pub const MAX_LENGTH: usize = 128;

/// OWASP's minimum for Argon2id: 19 MiB of memory, 2 iterations, 1 lane.
fn hasher() -> Argon2<'static> {
    let params = Params::new(19 * 1024, 2, 1, None).expect("valid Argon2 parameters");
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Hashes a password on a blocking thread.
/// At most this many Argon2 runs (19 MiB each) at once, about one per core; a burst of sign-ins
/// waits for a slot a short while, then gets [`Busy`], which the API answers with 503.
static SLOTS: LazyLock<tokio::sync::Semaphore> = LazyLock::new(|| {
    tokio::sync::Semaphore::new(std::thread::available_parallelism().map_or(2, |n| n.get()))
});

/// How long a password check waits for a hashing slot.
const SLOT_WAIT: std::time::Duration = std::time::Duration::from_secs(2);

/// Every hashing slot stayed taken while this request waited.
#[derive(Debug, thiserror::Error)]
#[error("every password-hashing slot is taken")]
pub struct Busy;

async fn slot() -> anyhow::Result<tokio::sync::SemaphorePermit<'static>> {
    match tokio::time::timeout(SLOT_WAIT, SLOTS.acquire()).await {
        Ok(Ok(permit)) => Ok(permit),
        _ => Err(Busy.into()),
    }
}

pub async fn hash(password: SecretString) -> anyhow::Result<String> {
    let _slot = slot().await?;
    tokio::task::spawn_blocking(move || hash_blocking(&password))
        .await
        .context("The password hashing task failed")?
}

pub fn hash_blocking(password: &SecretString) -> anyhow::Result<String> {
    let salt = SaltString::generate(&mut OsRng);
    hasher()
        .hash_password(password.expose_secret().as_bytes(), &salt)
        .map(|hash| hash.to_string())
        .map_err(|error| anyhow::anyhow!("Failed to hash a password: {error}"))
}

/// A hash of a random password, checked when the e-mail is unknown so that the answer takes
/// as long as for the real account.
static DUMMY_HASH: LazyLock<String> = LazyLock::new(|| {
    let random: [u8; 16] = rand::random();
    hash_blocking(&SecretString::from(hex::encode(random))).expect("hashing a random password")
});

/// Computes the dummy hash ahead of the first sign-in, so that one is not slower.
pub async fn warm_up() {
    let _ = tokio::task::spawn_blocking(|| DUMMY_HASH.len()).await;
}

/// Checks a password against a stored hash (or the dummy one) on a blocking thread.
pub async fn verify(password: SecretString, stored: Option<String>) -> anyhow::Result<bool> {
    let _slot = slot().await?;
    tokio::task::spawn_blocking(move || {
        let stored = stored.unwrap_or_else(|| DUMMY_HASH.clone());
        let parsed = PasswordHash::new(&stored)
            .map_err(|error| anyhow::anyhow!("A stored password hash is invalid: {error}"))?;
        Ok(hasher()
            .verify_password(password.expose_secret().as_bytes(), &parsed)
            .is_ok())
    })
    .await
    .context("The password verification task failed")?
}

/// Common passwords, lower-cased: the list zxcvbn ships (`@zxcvbn-ts/language-common` 4.1.3,
/// MIT licence, see common-passwords.LICENSE), about 49,000 entries.
static COMMON: LazyLock<HashSet<&'static str>> = LazyLock::new(|| {
    include_str!("common-passwords.txt")
        .lines()
        .filter(|line| !line.is_empty())
        .collect()
});

/// Why a new password is refused, in a sentence fit for the owner; `None` when it is accepted.
pub fn weakness(password: &str) -> Option<String> {
    let length = password.chars().count();
    if length < MIN_LENGTH {
        return Some(format!(
            "must be at least {MIN_LENGTH} characters long (it has {length})"
        ));
    }
    if length > MAX_LENGTH {
        return Some(format!(
            "must be at most {MAX_LENGTH} characters long (it has {length})"
        ));
    }
    let lower = password.to_lowercase();
    if COMMON.contains(lower.as_str()) {
        return Some(
            "is one of the most common passwords; choose one that is harder to guess".into(),
        );
    }
    // A common password with a few digits or symbols around it, or repeated, is no better.
    let core = lower.trim_matches(|c: char| !c.is_alphanumeric());
    let core = core.trim_end_matches(|c: char| c.is_ascii_digit() || !c.is_alphanumeric());
    if core.chars().count() + 6 >= length && core.chars().count() >= 4 && COMMON.contains(core) {
        return Some(format!(
            "is a common password (\"{core}\") with a few characters added; choose one that is harder to guess"
        ));
    }
    if is_repetition(&lower) {
        return Some("repeats the same few characters; choose one that is harder to guess".into());
    }
    None
}

/// Whether the text is one short unit (up to 4 characters) repeated, like `abcabcabcabc`.
fn is_repetition(text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    (1..=4).any(|unit| {
        chars.len().is_multiple_of(unit) && chars.chunks(unit).all(|chunk| chunk == &chars[..unit])
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn short_and_long_passwords_are_refused() {
        assert!(weakness("short").unwrap().contains("at least 12"));
        assert!(weakness(&"x7!".repeat(50)).unwrap().contains("at most 128"));
    }

    #[test]
    fn length_counts_characters_not_bytes() {
        assert!(weakness("ééééééééééé").is_some(), "11 characters");
        assert_eq!(weakness("éléphant rose du matin"), None);
    }

    #[test]
    fn common_passwords_are_refused_whatever_their_case() {
        assert!(weakness("qwertyuiop123").is_some());
        assert!(weakness("1Qaz2wsx3edc").unwrap().contains("common"));
        assert!(weakness("Password1234!").unwrap().contains("common"));
        assert!(weakness("aaaaaaaaaaaaaa").is_some());
        assert!(weakness("abcdabcdabcdabcd").is_some());
    }

    #[test]
    fn an_uncommon_passphrase_is_accepted() {
        assert_eq!(weakness("correct horse battery staple"), None);
        assert_eq!(weakness("tangerine-Viaduct-41"), None);
    }

    #[test]
    fn a_hash_verifies_its_password_and_no_other() {
        let hash = hash_blocking(&SecretString::from("a long enough secret")).unwrap();
        assert!(hash.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"));
        let runtime = tokio::runtime::Runtime::new().unwrap();
        assert!(runtime
            .block_on(verify("a long enough secret".into(), Some(hash.clone())))
            .unwrap());
        assert!(!runtime
            .block_on(verify("another secret!!".into(), Some(hash)))
            .unwrap());
        assert!(!runtime
            .block_on(verify("anything at all".into(), None))
            .unwrap());
    }
}
