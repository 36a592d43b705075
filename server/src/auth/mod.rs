//! Owner accounts: password hashing, sessions and sign-in throttling, the second factor,
//! passkeys and password-reset links; and the flows that sign in and guard the changes (`flows`),
//! which the HTTP handlers call.

pub mod ceremony;
pub mod device;
pub mod flows;
pub mod forgot;
pub mod notice;
pub mod owner;
pub mod passkey;
pub mod password;
pub mod reset;
pub mod second_factor;
pub mod session;
pub mod state;
pub mod throttle;

use crate::config::Settings;
use crate::store::Db;

pub use session::Owner;
pub use state::AuthState;

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
