//! A software authenticator for the tests: what a browser and a platform authenticator do with
//! WebAuthn's options, in a few dozen lines. It makes P-256 passkeys (discoverable, with the user
//! verified), answers `navigator.credentials.create` with a "none" attestation and
//! `navigator.credentials.get` with a signed assertion that names the user (as a discoverable
//! credential does), in the JSON form a browser's `credential.toJSON()` gives. The webauthn-rs
//! project's own software authenticators keep no user handle and make no discoverable
//! credentials, so the login page's passkey sign-in could not be tested with them.

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use ring::rand::SystemRandom;
use ring::signature::{EcdsaKeyPair, KeyPair, ECDSA_P256_SHA256_ASN1_SIGNING};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

pub struct Credential {
    pub id: Vec<u8>,
    pkcs8: Vec<u8>,
    user_handle: Vec<u8>,
    counter: u32,
}

pub struct SoftAuthenticator {
    /// The page's origin, as the browser writes it into the client data.
    origin: String,
    pub credentials: Vec<Credential>,
    rng: SystemRandom,
}

fn b64(bytes: &[u8]) -> String {
    URL_SAFE_NO_PAD.encode(bytes)
}

fn unb64(text: &str) -> Vec<u8> {
    URL_SAFE_NO_PAD
        .decode(text.trim_end_matches('='))
        .expect("base64url")
}

// --- Just enough CBOR (RFC 8949) for an attestation object and a COSE key ---

fn head(major: u8, n: u64, out: &mut Vec<u8>) {
    let major = major << 5;
    match n {
        0..=23 => out.push(major | n as u8),
        24..=0xff => out.extend([major | 24, n as u8]),
        0x100..=0xffff => {
            out.push(major | 25);
            out.extend((n as u16).to_be_bytes());
        }
        _ => {
            out.push(major | 26);
            out.extend((n as u32).to_be_bytes());
        }
    }
}

fn int(i: i64, out: &mut Vec<u8>) {
    if i >= 0 {
        head(0, i as u64, out);
    } else {
        head(1, (-1 - i) as u64, out);
    }
}

fn bytes(b: &[u8], out: &mut Vec<u8>) {
    head(2, b.len() as u64, out);
    out.extend_from_slice(b);
}

fn text(s: &str, out: &mut Vec<u8>) {
    head(3, s.len() as u64, out);
    out.extend_from_slice(s.as_bytes());
}

fn map(entries: u64, out: &mut Vec<u8>) {
    head(5, entries, out);
}

/// The public key as COSE: EC2, ES256, P-256, x and y.
fn cose_key(public: &[u8]) -> Vec<u8> {
    assert_eq!(public.len(), 65, "an uncompressed P-256 point");
    let mut out = Vec::new();
    map(5, &mut out);
    int(1, &mut out);
    int(2, &mut out); // kty: EC2
    int(3, &mut out);
    int(-7, &mut out); // alg: ES256
    int(-1, &mut out);
    int(1, &mut out); // crv: P-256
    int(-2, &mut out);
    bytes(&public[1..33], &mut out);
    int(-3, &mut out);
    bytes(&public[33..], &mut out);
    out
}

/// Flags: user present, user verified.
const UP_UV: u8 = 0x01 | 0x04;
/// ...and attested credential data follows.
const AT: u8 = 0x40;

impl SoftAuthenticator {
    pub fn new(origin: &str) -> Self {
        Self {
            origin: origin.trim_end_matches('/').to_owned(),
            credentials: Vec::new(),
            rng: SystemRandom::new(),
        }
    }

    fn client_data(&self, kind: &str, challenge: &str) -> Vec<u8> {
        serde_json::to_vec(&json!({
            "type": kind,
            "challenge": challenge,
            "origin": self.origin,
            "crossOrigin": false,
        }))
        .unwrap()
    }

    /// `navigator.credentials.create(options)`, then `credential.toJSON()`.
    pub fn create(&mut self, options: &Value) -> Value {
        let options = &options["publicKey"];
        let rp_id = options["rp"]["id"].as_str().expect("rp.id");
        let challenge = options["challenge"].as_str().expect("a challenge");
        let user_handle = unb64(options["user"]["id"].as_str().expect("user.id"));
        let excluded: Vec<Vec<u8>> = options["excludeCredentials"]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|c| unb64(c["id"].as_str().unwrap()))
                    .collect()
            })
            .unwrap_or_default();
        assert!(
            !self.credentials.iter().any(|c| excluded.contains(&c.id)),
            "this authenticator holds an excluded credential"
        );

        let pkcs8 = EcdsaKeyPair::generate_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &self.rng)
            .unwrap()
            .as_ref()
            .to_vec();
        let pair =
            EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &pkcs8, &self.rng).unwrap();
        let id: [u8; 32] = rand::random();

        let mut auth_data = Sha256::digest(rp_id.as_bytes()).to_vec();
        auth_data.push(UP_UV | AT);
        auth_data.extend(0u32.to_be_bytes());
        auth_data.extend([0u8; 16]); // AAGUID
        auth_data.extend((id.len() as u16).to_be_bytes());
        auth_data.extend(id);
        auth_data.extend(cose_key(pair.public_key().as_ref()));

        let mut attestation = Vec::new();
        map(3, &mut attestation);
        text("fmt", &mut attestation);
        text("none", &mut attestation);
        text("attStmt", &mut attestation);
        map(0, &mut attestation);
        text("authData", &mut attestation);
        bytes(&auth_data, &mut attestation);

        let client_data = self.client_data("webauthn.create", challenge);
        self.credentials.push(Credential {
            id: id.to_vec(),
            pkcs8,
            user_handle,
            counter: 0,
        });
        json!({
            "id": b64(&id),
            "rawId": b64(&id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "response": {
                "clientDataJSON": b64(&client_data),
                "attestationObject": b64(&attestation),
                "transports": ["internal"],
            },
            "clientExtensionResults": {},
        })
    }

    /// `navigator.credentials.get(options)` with the first credential allowed (any, when the
    /// options name none: a discoverable credential), then `credential.toJSON()`.
    pub fn get(&mut self, options: &Value) -> Value {
        let options = &options["publicKey"];
        let rp_id = options["rpId"].as_str().expect("rpId");
        let challenge = options["challenge"].as_str().expect("a challenge");
        let client_data = self.client_data("webauthn.get", challenge);
        let allowed: Vec<Vec<u8>> = options["allowCredentials"]
            .as_array()
            .map(|list| {
                list.iter()
                    .map(|c| unb64(c["id"].as_str().unwrap()))
                    .collect()
            })
            .unwrap_or_default();
        let rng = &self.rng;
        let credential = self
            .credentials
            .iter_mut()
            .find(|c| allowed.is_empty() || allowed.contains(&c.id))
            .expect("a credential for these options");
        credential.counter += 1;

        let mut auth_data = Sha256::digest(rp_id.as_bytes()).to_vec();
        auth_data.push(UP_UV);
        auth_data.extend(credential.counter.to_be_bytes());
        let mut signed = auth_data.clone();
        signed.extend(Sha256::digest(&client_data));
        let pair =
            EcdsaKeyPair::from_pkcs8(&ECDSA_P256_SHA256_ASN1_SIGNING, &credential.pkcs8, rng)
                .unwrap();
        let signature = pair.sign(rng, &signed).unwrap();
        json!({
            "id": b64(&credential.id),
            "rawId": b64(&credential.id),
            "type": "public-key",
            "authenticatorAttachment": "platform",
            "response": {
                "clientDataJSON": b64(&client_data),
                "authenticatorData": b64(&auth_data),
                "signature": b64(signature.as_ref()),
                "userHandle": b64(&credential.user_handle),
            },
            "clientExtensionResults": {},
        })
    }
}
