//! Known browsers (OWASP's device-cookie pattern): a browser that has signed in successfully
//! keeps a long-lived cookie signed by the server, and is judged by its own failure counter
//! rather than the account-wide lock. So someone who knows the owner's e-mail can lock out
//! every other browser, but not the owner's own.

use axum::http::header::HeaderValue;
use axum_extra::extract::CookieJar;
use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};

use crate::config::Settings;

type HmacSha256 = Hmac<Sha256>;

/// How long a browser stays known without signing in again.
pub const KNOWN_FOR_SECS: u64 = 365 * 24 * 60 * 60;

pub fn cookie_name(settings: &Settings) -> &'static str {
    if settings.is_https() {
        "__Host-portfolio_device"
    } else {
        "portfolio_device"
    }
}

fn mac(key: &[u8], id: &str) -> String {
    let mut mac = HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(b"device:");
    mac.update(id.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// A new device cookie's value: a random id and its signature.
pub fn issue(key: &[u8]) -> String {
    let id = hex::encode(rand::random::<[u8; 16]>());
    let signature = mac(key, &id);
    format!("{id}.{signature}")
}

/// The device this request's cookie proves, if its signature holds: the throttle key for it.
pub fn known(jar: &CookieJar, settings: &Settings, key: &[u8]) -> Option<String> {
    let value = jar.get(cookie_name(settings))?.value();
    let (id, signature) = value.split_once('.')?;
    if id.len() != 32 || !id.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let mut check = HmacSha256::new_from_slice(key).expect("HMAC takes a key of any length");
    check.update(b"device:");
    check.update(id.as_bytes());
    check.verify_slice(&hex::decode(signature).ok()?).ok()?;
    Some(format!(
        "device:{}",
        hex::encode(Sha256::digest(id.as_bytes()))
    ))
}

/// `Set-Cookie` for a device cookie.
pub fn set_cookie(settings: &Settings, value: &str) -> HeaderValue {
    let secure = if settings.is_https() { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={KNOWN_FOR_SECS}{secure}",
        cookie_name(settings)
    ))
    .expect("hex and a dot make a valid header")
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum_extra::extract::cookie::Cookie;

    fn jar_with(value: &str) -> CookieJar {
        CookieJar::new().add(Cookie::new("portfolio_device", value.to_owned()))
    }

    #[test]
    fn only_a_cookie_signed_with_the_key_is_known() {
        let settings = Settings::for_database("sqlite::memory:");
        let value = issue(b"key one");
        let known_key = known(&jar_with(&value), &settings, b"key one").expect("known");
        assert!(known_key.starts_with("device:"));
        assert!(!known_key.contains(value.split('.').next().unwrap()));
        assert_eq!(known(&jar_with(&value), &settings, b"key two"), None);
        let (id, _) = value.split_once('.').unwrap();
        assert_eq!(
            known(&jar_with(&format!("{id}.00")), &settings, b"key one"),
            None
        );
        assert_eq!(known(&jar_with("nonsense"), &settings, b"key one"), None);
    }
}
