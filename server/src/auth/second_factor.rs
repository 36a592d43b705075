//! The second factor: time-based one-time codes (RFC 6238: HMAC-SHA-1, six digits, 30-second
//! steps, the usual authenticator apps' defaults), set up from a QR code this server draws, and
//! ten single-use recovery codes. A code is accepted for the step before, the current one and the
//! one after (clocks drift), and never twice: the store remembers the last step accepted and
//! takes no code of that step or an earlier one again ([`crate::store::auth::SecondFactorStore::use_code_step`]).

use sha2::{Digest, Sha256};
use totp_rs::{Algorithm, TOTP};

use crate::store::Db;

/// Seconds per code.
pub const STEP_SECS: i64 = 30;
/// Digits per code.
pub const DIGITS: usize = 6;
/// Bytes of the key: 160 bits, as RFC 4226 recommends.
pub const SECRET_BYTES: usize = 20;
/// Recovery codes made at once.
pub const RECOVERY_CODES: usize = 10;
/// Random bytes per recovery code: 80 bits, written as 16 base32 characters.
const RECOVERY_BYTES: usize = 10;

/// A new random key.
pub fn new_secret() -> Vec<u8> {
    let bytes: [u8; SECRET_BYTES] = rand::random();
    bytes.to_vec()
}

/// The codes' generator for `secret`, labelled for the authenticator app with the site's
/// `issuer` (the public URL's host, without a port) and the owner's `account` (e-mail).
pub fn totp(secret: &[u8], issuer: &str, account: &str) -> anyhow::Result<TOTP> {
    // An issuer or an account name may not hold a colon (the URI's label separator).
    let issuer = issuer.replace(':', " ");
    let account = account.replace(':', " ");
    TOTP::new(
        Algorithm::SHA1,
        DIGITS,
        1,
        STEP_SECS as u64,
        secret.to_vec(),
        Some(issuer),
        account,
    )
    .map_err(|error| anyhow::anyhow!("Failed to make the one-time codes' generator: {error}"))
}

/// The key as authenticator apps type it: base32, no padding.
pub fn secret_base32(totp: &TOTP) -> String {
    totp.get_secret_base32()
}

/// The `otpauth://totp/…` address that the QR code carries.
pub fn otpauth_uri(totp: &TOTP) -> String {
    totp.get_url()
}

/// The QR code of `text` as an SVG document, drawn here (no image encoder, no third party):
/// black modules on white with the standard quiet zone, at least 200 px wide.
pub fn qr_svg(text: &str) -> anyhow::Result<String> {
    use qrcode::render::svg;
    let code = qrcode::QrCode::with_error_correction_level(text.as_bytes(), qrcode::EcLevel::M)
        .map_err(|error| anyhow::anyhow!("Failed to make the QR code: {error}"))?;
    Ok(code
        .render::<svg::Color<'_>>()
        .min_dimensions(200, 200)
        .dark_color(svg::Color("#000000"))
        .light_color(svg::Color("#ffffff"))
        .build())
}

/// The step a time (Unix milliseconds) falls in.
pub fn step_at(now_ms: i64) -> i64 {
    now_ms.div_euclid(1000 * STEP_SECS)
}

/// A code refused (wrong, used, or too old), as the sign-in, the reset and the setup say it: what
/// happened, and why the next one may work.
pub const CODE_MISMATCH: &str = "That code didn't match. Codes change every 30 seconds.";

/// Whether `input` looks like a one-time code (six digits, spaces allowed) rather than a recovery
/// code; the digits alone.
pub fn as_totp_code(input: &str) -> Option<String> {
    let digits: String = input.chars().filter(|c| !c.is_whitespace()).collect();
    (digits.len() == DIGITS && digits.bytes().all(|b| b.is_ascii_digit())).then_some(digits)
}

/// The step among the one before `now`, its own and the one after whose code is `code`, latest
/// first; compared in constant time.
pub fn matching_step(totp: &TOTP, code: &str, now_ms: i64) -> Option<i64> {
    let current = step_at(now_ms);
    [current + 1, current, current - 1]
        .into_iter()
        .filter(|step| *step >= 0)
        .find(|step| {
            let expected = totp.generate((*step * STEP_SECS) as u64);
            constant_time_eq(expected.as_bytes(), code.as_bytes())
        })
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Crockford's base32 alphabet: no I, L, O or U to misread.
const RECOVERY_ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";

/// New recovery codes: ten of 80 random bits each, written `xxxx-xxxx-xxxx-xxxx` in lower-case
/// Crockford base32.
pub fn new_recovery_codes() -> Vec<String> {
    (0..RECOVERY_CODES)
        .map(|_| {
            let bytes: [u8; RECOVERY_BYTES] = rand::random();
            let bits = bytes
                .iter()
                .fold(0u128, |acc, b| (acc << 8) | u128::from(*b));
            let chars: Vec<u8> = (0..16)
                .rev()
                .map(|i| RECOVERY_ALPHABET[((bits >> (i * 5)) & 31) as usize])
                .collect();
            chars
                .chunks(4)
                .map(|chunk| std::str::from_utf8(chunk).expect("the alphabet is ASCII"))
                .collect::<Vec<_>>()
                .join("-")
        })
        .collect()
}

/// How a recovery code is stored: the SHA-256 of its characters, lower-cased, without the
/// dashes and spaces a person may type or leave out, and with the letters Crockford's base32
/// reads as digits (i and l as 1, o as 0). 80 random bits need no slow hash.
pub fn recovery_code_hash(code: &str) -> String {
    let normal: String = code
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .flat_map(char::to_lowercase)
        .map(|c| match c {
            'i' | 'l' => '1',
            'o' => '0',
            other => other,
        })
        .collect();
    let mut hasher = Sha256::new();
    hasher.update(b"recovery:");
    hasher.update(normal.as_bytes());
    hex::encode(hasher.finalize())
}

/// Whether the second factor is on for the owner.
pub async fn is_on(db: &Db, owner_id: i64) -> anyhow::Result<bool> {
    Ok(db
        .second_factor(owner_id)
        .await?
        .is_some_and(|row| row.enabled_at.is_some()))
}

/// What checking a code found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeCheck {
    /// A one-time code, accepted (and its step used up).
    Totp,
    /// A recovery code, accepted (and used up).
    Recovery,
    /// Wrong, already used, or the second factor is off.
    Wrong,
}

/// Checks a one-time or recovery code of the owner's at `now_ms`, using it up when it is right.
pub async fn check_code(
    db: &Db,
    owner_id: i64,
    issuer: &str,
    account: &str,
    input: &str,
    now_ms: i64,
) -> anyhow::Result<CodeCheck> {
    let Some(row) = db.second_factor(owner_id).await? else {
        return Ok(CodeCheck::Wrong);
    };
    if row.enabled_at.is_none() {
        return Ok(CodeCheck::Wrong);
    }
    if let Some(code) = as_totp_code(input) {
        let generator = totp(&row.secret, issuer, account)?;
        return Ok(match matching_step(&generator, &code, now_ms) {
            Some(step) if db.use_code_step(owner_id, step).await? => CodeCheck::Totp,
            _ => CodeCheck::Wrong,
        });
    }
    if input.len() > 64 {
        return Ok(CodeCheck::Wrong);
    }
    Ok(
        if db
            .use_recovery_code(owner_id, &recovery_code_hash(input), now_ms)
            .await?
        {
            CodeCheck::Recovery
        } else {
            CodeCheck::Wrong
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_match_the_rfc_6238_test_vectors() {
        // RFC 6238, appendix B: the SHA-1 key "12345678901234567890", eight digits.
        let totp = TOTP::new(
            Algorithm::SHA1,
            8,
            1,
            30,
            b"12345678901234567890".to_vec(),
            None,
            "test".into(),
        )
        .unwrap();
        assert_eq!(totp.generate(59), "94287082");
        assert_eq!(totp.generate(1_111_111_109), "07081804");
        assert_eq!(totp.generate(2_000_000_000), "69279037");
    }

    #[test]
    fn a_code_matches_its_step_and_the_neighbouring_ones_only() {
        let secret = new_secret();
        let totp = totp(&secret, "example.com", "me@example.com").unwrap();
        let now = 1_700_000_000_000;
        let step = step_at(now);
        let code_at = |s: i64| totp.generate((s * STEP_SECS) as u64);
        assert_eq!(matching_step(&totp, &code_at(step), now), Some(step));
        assert_eq!(
            matching_step(&totp, &code_at(step - 1), now),
            Some(step - 1)
        );
        assert_eq!(
            matching_step(&totp, &code_at(step + 1), now),
            Some(step + 1)
        );
        let far = code_at(step - 5);
        if ![step - 1, step, step + 1]
            .iter()
            .any(|s| code_at(*s) == far)
        {
            assert_eq!(matching_step(&totp, &far, now), None);
        }
    }

    #[test]
    fn the_uri_names_the_site_and_the_owner_and_carries_the_key() {
        let secret = new_secret();
        let totp = totp(&secret, "example.com:8443", "me@example.com").unwrap();
        let uri = otpauth_uri(&totp);
        assert!(uri.starts_with("otpauth://totp/"), "{uri}");
        assert!(
            uri.contains(&format!("secret={}", secret_base32(&totp))),
            "{uri}"
        );
        assert!(uri.contains("me%40example.com"), "{uri}");
        let svg = qr_svg(&uri).unwrap();
        assert!(svg.contains("<svg") && svg.contains("</svg>"), "{svg}");
    }

    #[test]
    fn codes_are_told_apart_and_recovery_codes_are_read_loosely() {
        assert_eq!(as_totp_code("123 456").as_deref(), Some("123456"));
        assert_eq!(as_totp_code("12345"), None);
        assert_eq!(as_totp_code("abcd-efgh"), None);
        let codes = new_recovery_codes();
        assert_eq!(codes.len(), RECOVERY_CODES);
        let unique: std::collections::BTreeSet<_> = codes.iter().collect();
        assert_eq!(unique.len(), RECOVERY_CODES);
        for code in &codes {
            assert_eq!(code.len(), 19, "{code}");
            assert_eq!(
                recovery_code_hash(code),
                recovery_code_hash(&code.replace('-', "").to_uppercase())
            );
            assert!(code
                .bytes()
                .all(|b| b == b'-' || RECOVERY_ALPHABET.contains(&b)));
        }
        assert_eq!(
            recovery_code_hash("0l1o-abcd"),
            recovery_code_hash("O I 1 0 ABCD")
        );
    }
}
