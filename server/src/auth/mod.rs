//! Owner accounts: password hashing, sessions and sign-in throttling, the second factor,
//! passkeys and password-reset links.

pub mod ceremony;
pub mod device;
pub mod forgot;
pub mod notice;
pub mod owner;
pub mod passkey;
pub mod password;
pub mod reset;
pub mod second_factor;
pub mod session;
pub mod throttle;

use std::net::SocketAddr;
use std::sync::OnceLock;

use crate::clock::SharedClock;
use crate::config::Settings;
use crate::store::Db;

pub use session::Owner;

/// In-memory state of the auth feature, shared by all requests.
#[derive(Debug)]
pub struct AuthState {
    /// The salt that client addresses are hashed with; read from the database at start-up.
    client_salt: OnceLock<Vec<u8>>,
    /// The key that signs known-device cookies; read from the database at start-up.
    device_key: OnceLock<Vec<u8>>,
    /// The owner's WebAuthn user handle; read from the database at start-up.
    webauthn_user: OnceLock<webauthn_rs::prelude::Uuid>,
    /// Seals passkey ceremonies into their cookies; its key is read from the database at
    /// start-up.
    ceremonies: OnceLock<ceremony::Sealer>,
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

/// This program as the user can run it from where they are: `./target/release/portfolio` after
/// `make run`, the bare name when it is found on the `PATH`, else its full path.
fn this_program() -> String {
    let Ok(exe) = std::env::current_exe() else {
        return "portfolio".to_owned();
    };
    let on_path = std::env::var_os("PATH").is_some_and(|path| {
        std::env::split_paths(&path)
            .any(|dir| dir.join("portfolio").canonicalize().ok() == exe.canonicalize().ok())
    });
    if on_path {
        return "portfolio".to_owned();
    }
    match std::env::current_dir()
        .ok()
        .and_then(|cwd| exe.strip_prefix(cwd).ok().map(std::path::Path::to_path_buf))
    {
        Some(relative) => format!("./{}", relative.display()),
        None => exe.display().to_string(),
    }
}

/// At start-up: creates the owner from the environment when none exists, or says how to.
pub async fn bootstrap(db: &Db, auth: &AuthState, settings: &Settings) -> anyhow::Result<()> {
    let salt = db.secret("client_salt").await?;
    let _ = auth.client_salt.set(salt);
    let device_key = db.secret("device_cookie_key").await?;
    let _ = auth.device_key.set(device_key);
    let webauthn_user = db.secret("webauthn_user_id").await?;
    let _ = auth.webauthn_user.set(passkey::user_id(&webauthn_user));
    let ceremony_key = db.secret("webauthn_ceremony_key").await?;
    let _ = auth.ceremonies.set(ceremony::Sealer::new(&ceremony_key)?);

    if db.owner_exists().await? {
        return Ok(());
    }
    match (&settings.owner_email, &settings.owner_password) {
        (Some(email), Some(secret)) => {
            crate::domain::EmailAddress::parse(email.trim()).map_err(|problem| {
                anyhow::anyhow!("PORTFOLIO_OWNER_EMAIL {problem}")
            })?;
            match owner::set_password(db, owner::Whose::FirstOwner(email.trim()), secret.clone())
                .await
            {
                Ok(owner::PasswordSet::Created) => {
                    tracing::info!("created the owner account from PORTFOLIO_OWNER_EMAIL");
                }
                Ok(_) => {}
                Err(owner::SetPasswordError::Weak(problem)) => {
                    anyhow::bail!("PORTFOLIO_OWNER_PASSWORD {problem}")
                }
                Err(owner::SetPasswordError::Failed(error)) => {
                    return Err(error.context("Failed to create the owner from the environment"))
                }
            }
        }
        (Some(_), None) | (None, Some(_)) => anyhow::bail!(
            "PORTFOLIO_OWNER_EMAIL and PORTFOLIO_OWNER_PASSWORD must be set together"
        ),
        (None, None) => tracing::warn!(
            "no owner account yet: create one with `{} owner set --email YOUR_EMAIL --database-url {}` \
             (or start with PORTFOLIO_OWNER_EMAIL and PORTFOLIO_OWNER_PASSWORD set)",
            this_program(),
            crate::config::database::redact(&settings.database.url)
        ),
    }
    Ok(())
}
