//! Owner accounts: password hashing, sessions and sign-in throttling.

use crate::config::Settings;

/// In-memory state of the auth feature, shared by all requests.
#[derive(Debug, Default)]
pub struct AuthState {}

impl AuthState {
    pub fn new(_settings: &Settings) -> Self {
        Self::default()
    }
}

/// At start-up: creates the owner from the environment when none exists, or says how to.
pub async fn bootstrap(_state: &crate::state::AppState) -> anyhow::Result<()> {
    Ok(())
}
