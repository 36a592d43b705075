//! ChaCha20-Poly1305 (RFC 8439), by the system's OpenSSL: the secrets the database keeps
//! (`store::sealed`) and the passkey ceremonies' cookies (`auth::ceremony`). A sealed text is the
//! ciphertext followed by its 16-byte tag, as ring's `seal_in_place_append_tag` wrote it before,
//! so what was sealed then still opens.

use openssl::symm::{decrypt_aead, encrypt_aead, Cipher};

/// Bytes of a key.
pub const KEY_LEN: usize = 32;
/// Bytes of a nonce.
pub const NONCE_LEN: usize = 12;
/// Bytes of the tag after the ciphertext.
const TAG_LEN: usize = 16;

/// A ChaCha20-Poly1305 key.
#[derive(Clone)]
pub struct Key([u8; KEY_LEN]);

impl std::fmt::Debug for Key {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Key(..)")
    }
}

impl Key {
    /// The key of `bytes`, which must be [`KEY_LEN`] long.
    pub fn new(bytes: &[u8]) -> Option<Self> {
        Some(Self(bytes.try_into().ok()?))
    }

    /// `plain` sealed under `nonce` (used once with this key), bound to `aad`: the ciphertext and
    /// its tag.
    pub fn seal(
        &self,
        nonce: &[u8; NONCE_LEN],
        aad: &[u8],
        plain: &[u8],
    ) -> anyhow::Result<Vec<u8>> {
        let mut tag = [0u8; TAG_LEN];
        let mut sealed = encrypt_aead(
            Cipher::chacha20_poly1305(),
            &self.0,
            Some(nonce),
            aad,
            plain,
            &mut tag,
        )
        .map_err(|_| anyhow::anyhow!("ChaCha20-Poly1305 failed to seal"))?;
        sealed.extend_from_slice(&tag);
        Ok(sealed)
    }

    /// What [`Key::seal`] sealed under `nonce` and `aad`, or `None` when `sealed` was not sealed so
    /// (another key, nonce or associated data, or altered).
    pub fn open(&self, nonce: &[u8; NONCE_LEN], aad: &[u8], sealed: &[u8]) -> Option<Vec<u8>> {
        let split = sealed.len().checked_sub(TAG_LEN)?;
        let (ciphertext, tag) = sealed.split_at(split);
        decrypt_aead(
            Cipher::chacha20_poly1305(),
            &self.0,
            Some(nonce),
            aad,
            ciphertext,
            tag,
        )
        .ok()
    }
}

/// A nonce of the system's random numbers.
pub fn random_nonce() -> anyhow::Result<[u8; NONCE_LEN]> {
    let mut nonce = [0u8; NONCE_LEN];
    random(&mut nonce)?;
    Ok(nonce)
}

/// `bytes` filled with the system's random numbers (OpenSSL's generator, seeded by the kernel).
pub fn random(bytes: &mut [u8]) -> anyhow::Result<()> {
    openssl::rand::rand_bytes(bytes)
        .map_err(|_| anyhow::anyhow!("the system's random numbers failed"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// RFC 8439, section 2.8.2: the AEAD's test vector.
    #[test]
    fn seals_as_rfc_8439_says_and_opens_only_what_it_sealed() {
        let key = Key::new(
            &hex::decode("808182838485868788898a8b8c8d8e8f909192939495969798999a9b9c9d9e9f")
                .unwrap(),
        )
        .unwrap();
        let nonce: [u8; NONCE_LEN] = hex::decode("070000004041424344454647")
            .unwrap()
            .try_into()
            .unwrap();
        let aad = hex::decode("50515253c0c1c2c3c4c5c6c7").unwrap();
        let plain = b"Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.";
        let sealed = key.seal(&nonce, &aad, plain).unwrap();
        assert_eq!(
            hex::encode(&sealed[..16]),
            "d31a8d34648e60db7b86afbc53ef7ec2"
        );
        assert_eq!(
            hex::encode(&sealed[sealed.len() - 16..]),
            "1ae10b594f09e26a7e902ecbd0600691",
            "the tag follows the ciphertext"
        );
        assert_eq!(sealed.len(), plain.len() + 16);
        assert_eq!(key.open(&nonce, &aad, &sealed).unwrap(), plain);

        let mut altered = sealed.clone();
        altered[3] ^= 1;
        assert!(key.open(&nonce, &aad, &altered).is_none());
        assert!(key.open(&nonce, b"other", &sealed).is_none());
        assert!(key.open(&[0; NONCE_LEN], &aad, &sealed).is_none());
        assert!(Key::new(&[7; KEY_LEN])
            .unwrap()
            .open(&nonce, &aad, &sealed)
            .is_none());
        assert!(key.open(&nonce, &aad, &sealed[..15]).is_none());
        assert!(Key::new(&[0; 31]).is_none());
        assert_ne!(random_nonce().unwrap(), random_nonce().unwrap());
    }
}
