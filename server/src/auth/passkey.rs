//! Passkeys (WebAuthn, with `webauthn-rs`): the relying party this site is, and the glue between
//! its ceremonies and the store. Registration asks the authenticator for a discoverable
//! credential (a passkey proper, which the login page can offer without an e-mail and in its
//! autofill) with user verification, so that a passkey sign-in counts as both factors. Each
//! ceremony's state travels sealed in a cookie of its own between its two requests (see
//! [`super::ceremony`]), so any instance finishes what another began.

use std::net::SocketAddr;

use anyhow::Context;
use url::Url;
use webauthn_rs::prelude::{
    CreationChallengeResponse, CredentialID, DiscoverableAuthentication, DiscoverableKey, Passkey,
    PasskeyRegistration, PublicKeyCredential, RegisterPublicKeyCredential,
    RequestChallengeResponse, Uuid, Webauthn, WebauthnBuilder,
};

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// The longest name a passkey may have, in characters.
pub const MAX_NAME_CHARS: usize = 60;

/// This site as a WebAuthn relying party: its ID is the public URL's host, and the one origin
/// accepted is the public URL's. Without a public URL, a server listening on loopback is
/// `localhost` at its port (a browser on the same machine may use passkeys there); an IP address
/// cannot be a relying-party ID, so a public URL (or a listen address) that is one leaves
/// passkeys off.
pub fn relying_party(public_url: Option<&Url>, listen: SocketAddr, tls: bool) -> Option<Webauthn> {
    let origin = match public_url {
        Some(url) => {
            url.domain()?;
            Url::parse(&url.origin().ascii_serialization()).ok()?
        }
        None if listen.ip().is_loopback() || listen.ip().is_unspecified() => {
            let scheme = if tls { "https" } else { "http" };
            Url::parse(&format!("{scheme}://localhost:{}", listen.port())).ok()?
        }
        None => return None,
    };
    let id = origin.domain()?.to_owned();
    WebauthnBuilder::new(&id, &origin)
        .ok()?
        .rp_name(&id)
        .build()
        .ok()
}

/// The relying party's ID (the host passkeys are bound to), as shown to the owner.
pub fn rp_id(webauthn: &Webauthn) -> Option<String> {
    webauthn
        .get_allowed_origins()
        .first()
        .and_then(|origin| origin.domain())
        .map(str::to_owned)
}

/// The owner's user handle: 16 of the bytes of a secret kept in the database, the same on every
/// instance and never an e-mail (an authenticator may show or keep it).
pub fn user_id(secret: &[u8]) -> Uuid {
    let mut bytes = [0u8; 16];
    for (to, from) in bytes.iter_mut().zip(secret) {
        *to = *from;
    }
    Uuid::from_bytes(bytes)
}

/// A credential id as stored and looked up: base64url, no padding.
pub fn credential_key(id: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(id)
}

/// A new passkey's id in the API: 64 random bits, hex.
pub fn new_id() -> String {
    hex::encode(rand::random::<[u8; 8]>())
}

/// A new ceremony's id: 128 random bits, base64url.
pub fn new_challenge_id() -> String {
    URL_SAFE_NO_PAD.encode(rand::random::<[u8; 16]>())
}

/// A passkey's name as typed: trimmed, 1 to [`MAX_NAME_CHARS`] characters, no control
/// characters; otherwise what is wrong, completing "name …".
pub fn clean_name(name: &str) -> Result<String, String> {
    let name = name.trim();
    if name.is_empty() {
        return Err("must not be empty".into());
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(format!("must be at most {MAX_NAME_CHARS} characters long"));
    }
    if name.chars().any(char::is_control) {
        return Err("must not contain control characters".into());
    }
    Ok(name.to_owned())
}

/// Reads a stored passkey.
pub fn parse_passkey(json: &str) -> anyhow::Result<Passkey> {
    serde_json::from_str(json).context("a stored passkey does not parse")
}

/// Begins registering a passkey for the owner: the options for the browser (WebAuthn's JSON,
/// `{"publicKey": …}`), and the state to keep. The owner's passkeys are excluded, so one
/// authenticator is not registered twice.
pub fn start_registration(
    webauthn: &Webauthn,
    user: Uuid,
    email: &str,
    existing: &[Passkey],
) -> anyhow::Result<(serde_json::Value, String)> {
    let exclude: Vec<CredentialID> = existing.iter().map(|p| p.cred_id().clone()).collect();
    let (options, state): (CreationChallengeResponse, _) = webauthn
        .start_passkey_registration(user, email, email, Some(exclude).filter(|e| !e.is_empty()))
        .context("Failed to begin a passkey registration")?;
    let mut options = serde_json::to_value(&options).context("Failed to write the options")?;
    // A passkey proper: a discoverable credential, which the login page can ask for without
    // knowing who signs in (the library asks for none by default, and does not check it).
    let selection = &mut options["publicKey"]["authenticatorSelection"];
    selection["residentKey"] = "required".into();
    selection["requireResidentKey"] = true.into();
    let state = serde_json::to_string(&state).context("Failed to keep a registration's state")?;
    Ok((options, state))
}

/// Finishes a registration: the new passkey, or why the browser's answer was refused.
pub fn finish_registration(
    webauthn: &Webauthn,
    credential: &RegisterPublicKeyCredential,
    state: &str,
) -> anyhow::Result<Result<Passkey, String>> {
    let state: PasskeyRegistration =
        serde_json::from_str(state).context("a registration's state does not parse")?;
    Ok(webauthn
        .finish_passkey_registration(credential, &state)
        .map_err(|error| error.to_string()))
}

/// Begins a sign-in with whichever passkey the browser offers (a discoverable credential, also
/// for the e-mail field's autofill): the options, and the state to keep.
pub fn start_sign_in(webauthn: &Webauthn) -> anyhow::Result<(RequestChallengeResponse, String)> {
    let (options, state) = webauthn
        .start_discoverable_authentication()
        .context("Failed to begin a passkey sign-in")?;
    let state = serde_json::to_string(&state).context("Failed to keep a sign-in's state")?;
    Ok((options, state))
}

/// Which user and credential a sign-in's answer names (neither is checked yet).
pub fn identify(webauthn: &Webauthn, credential: &PublicKeyCredential) -> Option<(Uuid, String)> {
    webauthn
        .identify_discoverable_authentication(credential)
        .ok()
        .map(|(user, id)| (user, credential_key(id)))
}

/// Finishes a sign-in with `passkey`: the passkey as updated by this use (its counter), or why
/// the answer was refused.
pub fn finish_sign_in(
    webauthn: &Webauthn,
    credential: &PublicKeyCredential,
    state: &str,
    mut passkey: Passkey,
) -> anyhow::Result<Result<Passkey, String>> {
    let state: DiscoverableAuthentication =
        serde_json::from_str(state).context("a sign-in's state does not parse")?;
    let key = DiscoverableKey::from(&passkey);
    Ok(
        match webauthn.finish_discoverable_authentication(credential, state, &[key]) {
            Ok(result) if result.user_verified() => {
                passkey.update_credential(&result);
                Ok(passkey)
            }
            Ok(_) => Err("the authenticator did not verify the user".to_owned()),
            Err(error) => Err(error.to_string()),
        },
    )
}

/// Begins a re-authentication with one of the owner's passkeys: the options, naming them (so
/// the browser goes straight to them, with no autofill), and the state to keep. It is a
/// discoverable ceremony whose options name the passkeys, so that its state holds no
/// credential and stays small however many the owner has (it travels in a cookie); the finish
/// checks the answer against the owner's passkey it names ([`finish_sign_in`]).
pub fn start_reauth(
    webauthn: &Webauthn,
    passkeys: &[Passkey],
) -> anyhow::Result<(serde_json::Value, String)> {
    let (options, state) = webauthn
        .start_discoverable_authentication()
        .context("Failed to begin a passkey re-authentication")?;
    let mut options = serde_json::to_value(&options).context("Failed to write the options")?;
    options["publicKey"]["allowCredentials"] = passkeys
        .iter()
        .map(|key| {
            serde_json::json!({ "type": "public-key", "id": credential_key(key.cred_id().as_ref()) })
        })
        .collect();
    if let Some(options) = options.as_object_mut() {
        options.remove("mediation");
    }
    let state = serde_json::to_string(&state).context("Failed to keep a re-authentication")?;
    Ok((options, state))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn listen(addr: &str) -> SocketAddr {
        addr.parse().unwrap()
    }

    #[test]
    fn the_relying_party_is_the_public_urls_host_or_localhost() {
        let url: Url = "https://me.example.com/".parse().unwrap();
        let rp = relying_party(Some(&url), listen("0.0.0.0:8080"), false).unwrap();
        assert_eq!(rp_id(&rp).as_deref(), Some("me.example.com"));

        let rp = relying_party(None, listen("127.0.0.1:8080"), false).unwrap();
        assert_eq!(rp_id(&rp).as_deref(), Some("localhost"));
        assert_eq!(
            rp.get_allowed_origins()[0].as_str(),
            "http://localhost:8080/"
        );

        let ip: Url = "http://192.0.2.7:8080/".parse().unwrap();
        assert!(relying_party(Some(&ip), listen("0.0.0.0:8080"), false).is_none());
        assert!(relying_party(None, listen("192.0.2.7:8080"), false).is_none());
    }

    #[test]
    fn registration_asks_for_a_discoverable_credential_with_user_verification() {
        let rp = relying_party(None, listen("127.0.0.1:8080"), false).unwrap();
        let (options, state) =
            start_registration(&rp, user_id(&[7; 32]), "me@example.com", &[]).unwrap();
        let json = options;
        let selection = &json["publicKey"]["authenticatorSelection"];
        assert_eq!(selection["residentKey"], "required");
        assert_eq!(selection["requireResidentKey"], true);
        assert_eq!(selection["userVerification"], "required");
        assert_eq!(json["publicKey"]["rp"]["id"], "localhost");
        assert!(serde_json::from_str::<PasskeyRegistration>(&state).is_ok());
        assert_eq!(user_id(&[7; 32]).as_bytes(), &[7; 16]);
    }

    #[test]
    fn a_sign_in_asks_for_any_passkey_of_this_site() {
        let rp = relying_party(None, listen("127.0.0.1:8080"), false).unwrap();
        let (options, state) = start_sign_in(&rp).unwrap();
        let json = serde_json::to_value(&options).unwrap();
        assert_eq!(json["publicKey"]["rpId"], "localhost");
        assert_eq!(json["publicKey"]["allowCredentials"], serde_json::json!([]));
        assert_eq!(json["publicKey"]["userVerification"], "required");
        assert!(serde_json::from_str::<DiscoverableAuthentication>(&state).is_ok());
    }

    #[test]
    fn names_are_trimmed_and_bounded() {
        assert_eq!(clean_name("  My phone ").unwrap(), "My phone");
        assert!(clean_name("   ").is_err());
        assert!(clean_name(&"x".repeat(MAX_NAME_CHARS + 1)).is_err());
        assert!(clean_name("a\u{0}b").is_err());
    }
}
