//! What every flow takes from the server ([`Ctx`]), and the checks and answers they share.

use crate::auth::password;
use crate::auth::session::Owner;
use crate::auth::state::AuthState;
use crate::config::Settings;
use crate::error::ApiError;
use crate::store::Db;

/// Where the owner's security notices go: e-mail, when it is configured. The mailer lives in
/// `contact/`, above `auth/`; the layer that holds both hands it in as this.
pub trait Outbox: Send + Sync {
    /// Sends a notice in the background (its failure is logged, never answered).
    fn send_notice(&self, subject: &str, body: String);
}

/// The metrics a flow counts: `ops/` keeps them and sits above `auth/`, so they are handed in.
#[derive(Clone, Copy)]
pub struct Counters {
    /// A password or a code refused at sign-in.
    pub sign_in_failed: fn(),
    /// A sign-in (its password or its code) refused while its keys are locked.
    pub sign_in_locked: fn(),
}

/// What the flows need from the server: the store, the settings, the sign-in state (its clock,
/// keys, relying party), where notices go and the metrics to count.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    pub db: &'a Db,
    pub settings: &'a Settings,
    pub auth: &'a AuthState,
    /// `None` without e-mail: no notice is sent.
    pub outbox: Option<&'a dyn Outbox>,
    pub counters: Counters,
}

impl Ctx<'_> {
    /// Now, on the sign-in features' clock.
    pub fn now_ms(&self) -> i64 {
        self.auth.now_ms()
    }
}

/// Refuses a change unless this session proved the password or a passkey within five minutes
/// (a sign-in counts).
pub fn require_recent_authentication(ctx: &Ctx<'_>, owner: &Owner) -> Result<(), ApiError> {
    if owner.recently_authenticated(ctx.now_ms()) {
        Ok(())
    } else {
        Err(ApiError::ReauthenticationRequired)
    }
}

/// A password check that found every hashing slot taken is 503, not 500.
pub fn hashing_error(error: anyhow::Error) -> ApiError {
    if error.is::<password::Busy>() {
        ApiError::ServiceUnavailable {
            retry_after_secs: 1,
            message: "The server is busy checking other sign-ins. Try again in a moment.".into(),
        }
    } else {
        ApiError::from(error)
    }
}
