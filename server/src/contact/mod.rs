//! Contact messages beyond the HTTP handler: rate limits, spam checks and the notification outbox.

pub mod export;

use crate::config::Settings;

/// In-memory state of the contact feature, shared by all requests.
#[derive(Debug, Default)]
pub struct ContactState {}

impl ContactState {
    pub fn new(_settings: &Settings) -> Self {
        Self::default()
    }
}

/// Starts the background work of the contact feature (the notification outbox), if any.
pub fn start(_state: &crate::state::AppState) {}
