//! A passkey ceremony between its two requests, kept by the browser rather than by the server:
//! its state (webauthn-rs's, serialised, with its kind, the session that began it, the passkey's
//! name and when it expires) is sealed with ChaCha20-Poly1305 under a key of the server's (the
//! same on every instance) and sent in a cookie of its own, HttpOnly, SameSite=Strict, for five
//! minutes, named after the ceremony's `challengeId` (the sealed value is bound to that id), so
//! that two ceremonies of one browser (the login page's autofill and its button) never meet.
//! Nothing is stored when a ceremony begins, so no crowd can fill a store of open ceremonies;
//! the finish records the id as used (see [`crate::store::auth::PasskeyStore::use_challenge`]), so a
//! cookie works once on any instance.

use axum::http::HeaderValue;
use axum_extra::extract::CookieJar;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde::{Deserialize, Serialize};

use crate::aead::{self, NONCE_LEN};
use crate::config::Settings;

/// How long a ceremony may take, from its options to the authenticator's answer (WebAuthn's
/// recommended timeout); its cookie lasts as long.
pub const CEREMONY_MS: i64 = 5 * 60_000;
/// The ceremony cookies one browser keeps at once: a start that finds this many drops the ones
/// that expire first (prompts left open and forgotten).
pub const MAX_OPEN: usize = 6;
/// The longest sealed value a cookie carries (browsers keep about 4,096 bytes per cookie).
pub const MAX_SEALED: usize = 3_800;
/// The longest ceremony id read back; the ids made here have 22 characters.
const MAX_ID: usize = 64;
/// The cookie's name, before the ceremony's id.
const PREFIX: &str = "portfolio_ceremony_";
/// What the sealed value is bound to, besides the ceremony's id.
const PURPOSE: &[u8] = b"portfolio passkey ceremony v1\0";

/// What a ceremony is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Kind {
    /// Adding a passkey (signed in).
    Register,
    /// Signing in (no session).
    SignIn,
    /// Proving it is the owner again (signed in).
    Reauth,
}

/// A ceremony begun, as its cookie carries it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Ceremony {
    pub kind: Kind,
    /// The hash of the session that began it (registration and re-authentication): only that
    /// session may finish it.
    pub session: Option<String>,
    /// The passkey's name (registration).
    pub name: Option<String>,
    /// When it stops working (Unix milliseconds, the sign-in features' clock).
    pub expires_at: i64,
    /// webauthn-rs's state, serialised.
    pub state: String,
}

/// Seals and opens ceremonies with the server's key.
pub struct Sealer(aead::Key);

impl std::fmt::Debug for Sealer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Sealer(..)")
    }
}

impl Sealer {
    /// A sealer with the first 32 bytes of `secret` as its key.
    pub fn new(secret: &[u8]) -> anyhow::Result<Self> {
        let key = secret
            .get(..aead::KEY_LEN)
            .and_then(aead::Key::new)
            .ok_or_else(|| anyhow::anyhow!("the passkey ceremonies' key is too short"))?;
        Ok(Self(key))
    }

    /// The ceremony sealed for the cookie of `id`: base64url of a random nonce, the ciphertext
    /// and its tag.
    pub fn seal(&self, id: &str, ceremony: &Ceremony) -> anyhow::Result<String> {
        let nonce = aead::random_nonce()?;
        let body = self
            .0
            .seal(&nonce, &aad(id), &serde_json::to_vec(ceremony)?)
            .map_err(|_| anyhow::anyhow!("a passkey ceremony could not be sealed"))?;
        let mut sealed = nonce.to_vec();
        sealed.extend(body);
        Ok(URL_SAFE_NO_PAD.encode(sealed))
    }

    /// The ceremony the cookie of `id` carries, if this server sealed it for that id (whether it
    /// has expired is the caller's to check).
    pub fn open(&self, id: &str, value: &str) -> Option<Ceremony> {
        if value.len() > MAX_SEALED * 2 {
            return None;
        }
        let sealed = URL_SAFE_NO_PAD.decode(value).ok()?;
        let (nonce, body) = sealed.split_at_checked(NONCE_LEN)?;
        let plain = self.0.open(nonce.try_into().ok()?, &aad(id), body)?;
        serde_json::from_slice(&plain).ok()
    }
}

/// The associated data: the purpose and the ceremony's id, so that a sealed value works under
/// its own cookie's name only.
fn aad(id: &str) -> Vec<u8> {
    let mut aad = PURPOSE.to_vec();
    aad.extend_from_slice(id.as_bytes());
    aad
}

/// Whether `id` can name a ceremony's cookie (base64url, as the ids made here are).
pub fn valid_id(id: &str) -> bool {
    !id.is_empty()
        && id.len() <= MAX_ID
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
}

/// The cookies' names begin with this: with the `__Host-` prefix over HTTPS, like every cookie
/// of the site's.
fn prefix(settings: &Settings) -> &'static str {
    if settings.is_https() {
        "__Host-portfolio_ceremony_"
    } else {
        PREFIX
    }
}

/// The name of the cookie of ceremony `id`.
pub fn cookie_name(settings: &Settings, id: &str) -> String {
    format!("{}{id}", prefix(settings))
}

fn cookie(settings: &Settings, id: &str, value: &str, max_age_secs: i64) -> HeaderValue {
    let secure = if settings.is_https() { "; Secure" } else { "" };
    HeaderValue::from_str(&format!(
        "{}={value}; Path=/; HttpOnly; SameSite=Strict; Max-Age={max_age_secs}{secure}",
        cookie_name(settings, id)
    ))
    .expect("a cookie of URL-safe characters is a valid header")
}

/// `Set-Cookie` for ceremony `id`, sealed.
pub fn set_cookie(settings: &Settings, id: &str, sealed: &str) -> HeaderValue {
    cookie(settings, id, sealed, CEREMONY_MS / 1000)
}

/// `Set-Cookie` that removes the cookie of ceremony `id`.
pub fn clear_cookie(settings: &Settings, id: &str) -> HeaderValue {
    cookie(settings, id, "", 0)
}

/// The sealed value of ceremony `id` that the request carries, if any.
pub fn from_jar<'a>(jar: &'a CookieJar, settings: &Settings, id: &str) -> Option<&'a str> {
    if !valid_id(id) {
        return None;
    }
    jar.get(&cookie_name(settings, id))
        .map(|c| c.value())
        .filter(|v| !v.is_empty())
}

/// The ids of the ceremony cookies to drop when a new one begins, so that at most
/// [`MAX_OPEN`] are kept: those that expire first (unreadable ones before any).
pub fn to_drop(jar: &CookieJar, settings: &Settings, sealer: &Sealer) -> Vec<String> {
    let prefix = prefix(settings);
    let mut open: Vec<(i64, String)> = jar
        .iter()
        .filter_map(|c| {
            let id = c.name().strip_prefix(prefix)?;
            if !valid_id(id) || c.value().is_empty() {
                return None;
            }
            let expires_at = sealer.open(id, c.value()).map_or(0, |c| c.expires_at);
            Some((expires_at, id.to_owned()))
        })
        .collect();
    if open.len() < MAX_OPEN {
        return Vec::new();
    }
    open.sort();
    let extra = open.len() + 1 - MAX_OPEN;
    open.into_iter().take(extra).map(|(_, id)| id).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ceremony() -> Ceremony {
        Ceremony {
            kind: Kind::Register,
            session: Some("abc".into()),
            name: Some("Phone".into()),
            expires_at: 42,
            state: "{\"x\":1}".into(),
        }
    }

    #[test]
    fn a_sealed_ceremony_opens_under_its_own_id_and_key_only() {
        let sealer = Sealer::new(&[7; 32]).unwrap();
        let sealed = sealer.seal("id1", &ceremony()).unwrap();
        assert_eq!(sealer.open("id1", &sealed), Some(ceremony()));
        assert_eq!(sealer.open("id2", &sealed), None, "another cookie's name");
        let other = Sealer::new(&[8; 32]).unwrap();
        assert_eq!(other.open("id1", &sealed), None, "another server's key");
        // Any change to the value is noticed.
        let mut bytes = URL_SAFE_NO_PAD.decode(&sealed).unwrap();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        assert_eq!(sealer.open("id1", &URL_SAFE_NO_PAD.encode(bytes)), None);
        assert_eq!(sealer.open("id1", ""), None);
        assert_eq!(sealer.open("id1", "not base64!"), None);
        // Nothing of the state is readable.
        assert!(
            !String::from_utf8_lossy(&URL_SAFE_NO_PAD.decode(&sealed).unwrap()).contains("Phone")
        );
        assert!(Sealer::new(&[1; 16]).is_err());
    }

    #[test]
    fn ids_are_what_a_cookie_name_may_hold() {
        assert!(valid_id("AbC-_09"));
        assert!(!valid_id(""));
        assert!(!valid_id("a=b"));
        assert!(!valid_id("a;b"));
        assert!(!valid_id(&"a".repeat(MAX_ID + 1)));
    }
}
