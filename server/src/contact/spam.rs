//! Spam checks that cost a person nothing and a flood a lot: a honeypot field, a form token
//! signed by the server (when it was issued, and a nonce: each is good for one message and an
//! hour), a proof-of-work challenge solved in the background (the ALTCHA protocol; larger for a
//! network that asks for many, see [`super::difficulty`]), content signals and a site-wide
//! ceiling. A caught message is still stored, in Spam, with one of the stable codes of
//! [`SpamReason`]. The token and the challenge are used up in the transaction that stores the
//! message (see `store::NewMessage::proofs`), so a message refused with a 4xx or 5xx uses up
//! neither.

use std::time::Duration;

use base64::Engine as _;
use hmac::{Hmac, Mac};
use rand::Rng;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

type HmacSha256 = Hmac<Sha256>;

/// A person takes longer than this to fill in four fields; a script does not.
pub const MIN_FILL_TIME: Duration = Duration::from_secs(3);

/// The names of the keys in the database (`Store::secret`).
pub const FORM_KEY_NAME: &str = "contact_form_key";
pub const CHALLENGE_KEY_NAME: &str = "contact_challenge_key";

/// How long a challenge can be solved and sent.
pub const CHALLENGE_LIFETIME: Duration = Duration::from_secs(60 * 60);

/// A token issued this far ahead of the server's clock is forged (instances' clocks may differ).
const CLOCK_SKEW_MS: i64 = 5_000;

/// The only algorithm offered and accepted.
pub const ALGORITHM: &str = "SHA-256";

pub use crate::domain::SpamReason;

/// The honeypot: any text in the hidden field.
pub fn honeypot(website: Option<&str>) -> Option<SpamReason> {
    website
        .is_some_and(|value| !value.is_empty())
        .then_some(SpamReason::Honeypot)
}

fn mac(key: &[u8]) -> HmacSha256 {
    HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length")
}

// --- The form token: when it was issued and a nonce, signed; good for one message ---

/// How long a form token can be used: as long as the challenge fetched with it.
pub const TOKEN_LIFETIME: Duration = CHALLENGE_LIFETIME;

/// A form token that passed the checks: its nonce (the key to remember it by as used) and when
/// it expires (Unix milliseconds), after which it need not be remembered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TokenUse {
    pub id: String,
    pub expires_at: i64,
}

fn token_mac(key: &[u8], payload: &str) -> HmacSha256 {
    let mut mac = mac(key);
    mac.update(b"form-token:2:");
    mac.update(payload.as_bytes());
    mac
}

/// A token that says "issued at `now_ms`, nonce N", signed with `key`:
/// `<ms>.<hex nonce>.<base64url HMAC>`.
pub fn issue_token(key: &[u8], now_ms: i64) -> String {
    let nonce: [u8; 12] = rand::thread_rng().gen();
    let payload = format!("{now_ms}.{}", hex::encode(nonce));
    let signature = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .encode(token_mac(key, &payload).finalize().into_bytes());
    format!("{payload}.{signature}")
}

/// Checks a form token: present, signed by `key`, not from the future, not expired, and at least
/// `min_fill` old at `now_ms`. Whether it was used before is for the store to say, in the
/// transaction that stores the message.
pub fn check_token(
    key: &[u8],
    token: Option<&str>,
    now_ms: i64,
    min_fill: Duration,
) -> Result<TokenUse, SpamReason> {
    let token = match token {
        None | Some("") => return Err(SpamReason::TokenMissing),
        Some(token) => token,
    };
    let (payload, signature) = token.rsplit_once('.').ok_or(SpamReason::TokenForged)?;
    let signature = base64::engine::general_purpose::URL_SAFE_NO_PAD
        .decode(signature)
        .map_err(|_| SpamReason::TokenForged)?;
    token_mac(key, payload)
        .verify_slice(&signature)
        .map_err(|_| SpamReason::TokenForged)?;
    let (issued, nonce) = payload.split_once('.').ok_or(SpamReason::TokenForged)?;
    let issued: i64 = issued.parse().map_err(|_| SpamReason::TokenForged)?;
    if issued > now_ms + CLOCK_SKEW_MS {
        return Err(SpamReason::TokenForged);
    }
    let expires_at = issued.saturating_add(TOKEN_LIFETIME.as_millis() as i64);
    if now_ms >= expires_at {
        return Err(SpamReason::TokenExpired);
    }
    let min_ms = i64::try_from(min_fill.as_millis()).unwrap_or(i64::MAX);
    if now_ms - issued < min_ms {
        return Err(SpamReason::TooFast);
    }
    Ok(TokenUse {
        id: nonce.to_owned(),
        expires_at,
    })
}

// --- The proof-of-work challenge (ALTCHA) ---

/// A challenge as the ALTCHA protocol gives it: find `number` in `0..=maxnumber` such that the
/// SHA-256 of `salt` followed by `number` (in decimal) is `challenge`.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Challenge {
    /// Always `SHA-256`.
    #[schema(example = "SHA-256")]
    pub algorithm: String,
    /// The hex SHA-256 to find.
    pub challenge: String,
    /// The largest number to try.
    pub maxnumber: u64,
    /// Random hex, then `?expires=` and the Unix time (seconds) after which it is refused.
    pub salt: String,
    /// The hex HMAC-SHA-256 of `challenge` with the server's key.
    pub signature: String,
}

/// What the browser sends back, as base64 of this JSON (ALTCHA's payload).
#[derive(Debug, Deserialize)]
struct Solution {
    algorithm: String,
    challenge: String,
    number: u64,
    salt: String,
    signature: String,
}

fn sha256_hex(salt: &str, number: u64) -> String {
    let mut hasher = Sha256::new();
    hasher.update(salt.as_bytes());
    hasher.update(number.to_string().as_bytes());
    hex::encode(hasher.finalize())
}

fn sign_challenge(key: &[u8], challenge: &str) -> String {
    let mut mac = mac(key);
    mac.update(challenge.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// A new challenge, valid for [`CHALLENGE_LIFETIME`] from `now_ms`.
pub fn issue_challenge(key: &[u8], now_ms: i64, max_number: u64) -> Challenge {
    let mut rng = rand::thread_rng();
    let random: [u8; 12] = rng.gen();
    let expires = now_ms / 1000 + CHALLENGE_LIFETIME.as_secs() as i64;
    let salt = format!("{}?expires={expires}", hex::encode(random));
    let number = rng.gen_range(0..=max_number);
    let challenge = sha256_hex(&salt, number);
    let signature = sign_challenge(key, &challenge);
    Challenge {
        algorithm: ALGORITHM.to_owned(),
        challenge,
        maxnumber: max_number,
        salt,
        signature,
    }
}

/// A correct solution: its signature (the key to remember it by) and when it expires.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Solved {
    pub signature: String,
    /// Unix milliseconds.
    pub expires_at: i64,
}

/// Checks a solution (ALTCHA's base64 JSON payload) against `key` at `now_ms`. Whether it was
/// used before is for the caller to ask the store.
pub fn verify_solution(
    key: &[u8],
    payload: Option<&str>,
    now_ms: i64,
) -> Result<Solved, SpamReason> {
    let payload = match payload {
        None | Some("") => return Err(SpamReason::ChallengeMissing),
        Some(payload) => payload,
    };
    let json = base64::engine::general_purpose::STANDARD
        .decode(payload.trim())
        .map_err(|_| SpamReason::ChallengeFailed)?;
    let solution: Solution =
        serde_json::from_slice(&json).map_err(|_| SpamReason::ChallengeFailed)?;
    if solution.algorithm != ALGORITHM {
        return Err(SpamReason::ChallengeFailed);
    }
    let signature = hex::decode(&solution.signature).map_err(|_| SpamReason::ChallengeFailed)?;
    let mut mac = mac(key);
    mac.update(solution.challenge.as_bytes());
    mac.verify_slice(&signature)
        .map_err(|_| SpamReason::ChallengeFailed)?;
    if sha256_hex(&solution.salt, solution.number) != solution.challenge {
        return Err(SpamReason::ChallengeFailed);
    }
    let expires = solution
        .salt
        .split_once('?')
        .and_then(|(_, query)| {
            url::form_urlencoded::parse(query.as_bytes())
                .find(|(name, _)| name == "expires")
                .and_then(|(_, value)| value.parse::<i64>().ok())
        })
        .ok_or(SpamReason::ChallengeFailed)?;
    let expires_at = expires.saturating_mul(1000);
    if expires_at <= now_ms {
        return Err(SpamReason::ChallengeFailed);
    }
    Ok(Solved {
        signature: solution.signature.to_ascii_lowercase(),
        expires_at,
    })
}

/// Solves a challenge by trying every number: what the browser's worker does (for tests and
/// scripts). Returns ALTCHA's payload, or `None` when no number up to `maxnumber` fits. Each try
/// hashes only the number's digits after the salt's hashed state and compares the digest's bytes:
/// the server suite solves a challenge for every message it sends, and hex strings made for each
/// try were the largest share of its processor time in the tests' unoptimised build.
pub fn solve(challenge: &Challenge) -> Option<String> {
    use std::fmt::Write as _;
    let wanted = hex::decode(&challenge.challenge).ok()?;
    let mut salted = Sha256::new();
    salted.update(challenge.salt.as_bytes());
    let mut digits = String::with_capacity(20);
    let number = (0..=challenge.maxnumber).find(|n| {
        digits.clear();
        let _ = write!(digits, "{n}");
        let mut hasher = salted.clone();
        hasher.update(digits.as_bytes());
        hasher.finalize().as_slice() == wanted.as_slice()
    })?;
    let json = serde_json::json!({
        "algorithm": challenge.algorithm,
        "challenge": challenge.challenge,
        "number": number,
        "salt": challenge.salt,
        "signature": challenge.signature,
    });
    Some(base64::engine::general_purpose::STANDARD.encode(json.to_string()))
}

// --- Content ---

/// More links than this in one message is spam.
pub const MAX_LINKS: usize = 5;

/// Too many links, or a message that is nothing but a link.
pub fn content(subject: &str, message: &str) -> Option<SpamReason> {
    let links = |text: &str| {
        let lower = text.to_lowercase();
        lower.matches("http://").count()
            + lower.matches("https://").count()
            + lower
                .split(|c: char| c.is_whitespace() || c == '(' || c == '<' || c == '[')
                .filter(|word| word.starts_with("www."))
                .count()
    };
    if links(subject) + links(message) > MAX_LINKS {
        return Some(SpamReason::Content);
    }
    let trimmed = message.trim();
    let only_a_link = !trimmed.contains(char::is_whitespace) && {
        let lower = trimmed.to_lowercase();
        lower.starts_with("http://") || lower.starts_with("https://") || lower.starts_with("www.")
    };
    only_a_link.then_some(SpamReason::Content)
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEY: &[u8] = b"0123456789abcdef0123456789abcdef";
    const NOW: i64 = 1_800_000_000_000;

    #[test]
    fn a_filled_honeypot_is_spam() {
        assert_eq!(
            honeypot(Some("http://spam.example")),
            Some(SpamReason::Honeypot)
        );
        assert_eq!(honeypot(Some("")), None);
        assert_eq!(honeypot(None), None);
    }

    #[test]
    fn a_token_is_accepted_once_old_enough_and_until_it_expires() {
        let token = issue_token(KEY, NOW);
        let used = check_token(KEY, Some(&token), NOW + 3000, MIN_FILL_TIME).unwrap();
        assert_eq!(used.expires_at, NOW + TOKEN_LIFETIME.as_millis() as i64);
        assert_eq!(used.id.len(), 24, "a 96-bit nonce in hex");
        assert_eq!(
            check_token(KEY, Some(&token), NOW + 2999, MIN_FILL_TIME),
            Err(SpamReason::TooFast)
        );
        assert_eq!(
            check_token(KEY, Some(&token), used.expires_at, MIN_FILL_TIME),
            Err(SpamReason::TokenExpired)
        );
        // Each token has a nonce of its own, so two issued in the same millisecond differ.
        let again = issue_token(KEY, NOW);
        assert_ne!(token, again);
        assert_ne!(
            check_token(KEY, Some(&again), NOW + 3000, MIN_FILL_TIME)
                .unwrap()
                .id,
            used.id
        );
    }

    #[test]
    fn a_missing_or_forged_token_is_spam() {
        let at = NOW + 10_000;
        assert_eq!(
            check_token(KEY, None, at, MIN_FILL_TIME),
            Err(SpamReason::TokenMissing)
        );
        assert_eq!(
            check_token(KEY, Some(""), at, MIN_FILL_TIME),
            Err(SpamReason::TokenMissing)
        );
        let token = issue_token(KEY, NOW);
        let (payload, signature) = token.rsplit_once('.').unwrap();
        let (_, nonce) = payload.split_once('.').unwrap();
        // An earlier time or another nonce with the same signature, another key, garbage.
        let earlier = format!("{}.{nonce}.{signature}", NOW - 60_000);
        let renonced = format!("{NOW}.{}.{signature}", "0".repeat(24));
        for forged in [earlier, renonced, issue_token(b"another key", NOW)] {
            assert_eq!(
                check_token(KEY, Some(&forged), at, MIN_FILL_TIME),
                Err(SpamReason::TokenForged),
                "{forged}"
            );
        }
        for junk in ["5000", "x.y", ".", "1.!!", "1.2.!!"] {
            assert_eq!(
                check_token(KEY, Some(junk), at, MIN_FILL_TIME),
                Err(SpamReason::TokenForged),
                "{junk}"
            );
        }
        // Signed, but from well in the future.
        let future = issue_token(KEY, at + 60_000);
        assert_eq!(
            check_token(KEY, Some(&future), at, MIN_FILL_TIME),
            Err(SpamReason::TokenForged)
        );
    }

    #[test]
    fn a_solved_challenge_verifies_until_it_expires() {
        let challenge = issue_challenge(KEY, NOW, 1000);
        assert!(challenge.salt.contains("?expires="));
        let payload = solve(&challenge).expect("a solution");
        let solved = verify_solution(KEY, Some(&payload), NOW + 1000).unwrap();
        assert_eq!(solved.signature, challenge.signature);
        assert_eq!(
            solved.expires_at,
            NOW + CHALLENGE_LIFETIME.as_millis() as i64
        );
        assert_eq!(
            verify_solution(KEY, Some(&payload), solved.expires_at),
            Err(SpamReason::ChallengeFailed)
        );
        assert_eq!(
            verify_solution(b"another key", Some(&payload), NOW),
            Err(SpamReason::ChallengeFailed)
        );
    }

    #[test]
    fn a_wrong_or_missing_solution_is_spam() {
        assert_eq!(
            verify_solution(KEY, None, NOW),
            Err(SpamReason::ChallengeMissing)
        );
        assert_eq!(
            verify_solution(KEY, Some(""), NOW),
            Err(SpamReason::ChallengeMissing)
        );
        let challenge = issue_challenge(KEY, NOW, 1000);
        let number = (0..=1000)
            .find(|n| sha256_hex(&challenge.salt, *n) == challenge.challenge)
            .unwrap();
        let wrong = serde_json::json!({
            "algorithm": "SHA-256", "challenge": challenge.challenge, "number": number + 1,
            "salt": challenge.salt, "signature": challenge.signature,
        });
        let wrong = base64::engine::general_purpose::STANDARD.encode(wrong.to_string());
        assert_eq!(
            verify_solution(KEY, Some(&wrong), NOW),
            Err(SpamReason::ChallengeFailed)
        );
        // A challenge made up by the sender, with a signature of its own.
        let salt = "abc?expires=99999999999";
        let made_up = serde_json::json!({
            "algorithm": "SHA-256", "challenge": sha256_hex(salt, 1), "number": 1,
            "salt": salt, "signature": "00".repeat(32),
        });
        let made_up = base64::engine::general_purpose::STANDARD.encode(made_up.to_string());
        assert_eq!(
            verify_solution(KEY, Some(&made_up), NOW),
            Err(SpamReason::ChallengeFailed)
        );
        assert_eq!(
            verify_solution(KEY, Some("not base64!"), NOW),
            Err(SpamReason::ChallengeFailed)
        );
    }

    #[test]
    fn many_links_or_only_a_link_is_spam() {
        assert_eq!(
            content("Hi", "Hello, see https://example.com and www.example.org"),
            None
        );
        let six = (0..6)
            .map(|i| format!("https://x{i}.example"))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(content("Offer", &six), Some(SpamReason::Content));
        let five = (0..5)
            .map(|i| format!("https://x{i}.example"))
            .collect::<Vec<_>>()
            .join(" ");
        assert_eq!(content("Offer", &format!("Look: {five}")), None);
        assert_eq!(
            content("Hi", "  https://cheap-pills.example/buy  "),
            Some(SpamReason::Content)
        );
        assert_eq!(
            content("Hi", "www.cheap-pills.example"),
            Some(SpamReason::Content)
        );
        assert_eq!(content("Hi", "Hello"), None);
    }
}
