//! The auth feature's state in memory, shared by all requests: the keys read from the database at
//! start-up, the clock, the relying party and the "Forgot password?" queue.

use std::net::SocketAddr;
use std::sync::OnceLock;

use super::{ceremony, forgot, passkey};
use crate::clock::SharedClock;
use crate::config::Settings;

/// In-memory state of the auth feature, shared by all requests.
#[derive(Debug)]
pub struct AuthState {
    /// The salt that client addresses are hashed with; read from the database at start-up.
    pub(super) client_salt: OnceLock<Vec<u8>>,
    /// The key that signs known-device cookies; read from the database at start-up.
    pub(super) device_key: OnceLock<Vec<u8>>,
    /// The owner's WebAuthn user handle; read from the database at start-up.
    pub(super) webauthn_user: OnceLock<webauthn_rs::prelude::Uuid>,
    /// Seals passkey ceremonies into their cookies; its key is read from the database at
    /// start-up.
    pub(super) ceremonies: OnceLock<ceremony::Sealer>,
    /// The clock every sign-in feature reads (a test may move it).
    pub clock: SharedClock,
    /// This site as a WebAuthn relying party, when it can be one (see
    /// [`passkey::relying_party`]).
    relying_party: Option<webauthn_rs::prelude::Webauthn>,
    /// The name authenticator apps show for this site's codes: the public URL's host.
    issuer: String,
    /// "Forgot password?" requests: admitted in memory, queued to a fixed number of workers.
    pub forgot: forgot::Requests,
}

impl AuthState {
    /// The auth feature's state for a server with these settings, listening on `listen`.
    pub fn new(settings: &Settings, listen: SocketAddr) -> Self {
        let relying_party = passkey::relying_party(
            settings.public_url.as_ref(),
            listen,
            settings.tls_cert.is_some(),
        );
        let issuer = settings
            .public_url
            .as_ref()
            .and_then(|url| url.host_str())
            .map_or_else(|| "Portfolio".to_owned(), str::to_owned);
        Self {
            client_salt: OnceLock::new(),
            device_key: OnceLock::new(),
            webauthn_user: OnceLock::new(),
            ceremonies: OnceLock::new(),
            clock: SharedClock::ahead_by(settings.clock.clock_offset),
            relying_party,
            issuer,
            forgot: forgot::Requests::new(),
        }
    }

    /// Now, on the sign-in features' clock.
    pub fn now_ms(&self) -> i64 {
        self.clock.now_ms()
    }

    /// This site as a WebAuthn relying party, if passkeys are possible here.
    pub fn relying_party(&self) -> Option<&webauthn_rs::prelude::Webauthn> {
        self.relying_party.as_ref()
    }

    /// The owner's WebAuthn user handle.
    pub fn webauthn_user(&self) -> webauthn_rs::prelude::Uuid {
        self.webauthn_user.get().copied().unwrap_or_default()
    }

    /// What seals passkey ceremonies into their cookies.
    pub fn ceremonies(&self) -> anyhow::Result<&ceremony::Sealer> {
        self.ceremonies
            .get()
            .ok_or_else(|| anyhow::anyhow!("the passkey ceremonies' key is not loaded"))
    }

    /// The issuer named in the second factor's `otpauth://` address.
    pub fn issuer(&self) -> &str {
        &self.issuer
    }

    pub fn client_salt(&self) -> &[u8] {
        self.client_salt.get().map_or(&[], Vec::as_slice)
    }

    pub fn device_key(&self) -> &[u8] {
        self.device_key.get().map_or(&[], Vec::as_slice)
    }
}
