//! `AppState`: what every handler can reach (the store, the settings and each feature's state).

use std::sync::Arc;

use crate::config::Settings;
use crate::store::Db;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub settings: Arc<Settings>,
    /// The contact form's rate limits and the notification outbox's wake-up.
    pub contact: Arc<crate::contact::ContactState>,
    /// Sign-in and session state.
    pub auth: Arc<crate::auth::AuthState>,
    /// Visitor insights: counts gathered in memory and written in batches.
    pub insights: Arc<crate::insights::Insights>,
    /// The published content, kept in memory and followed across instances.
    pub content: Arc<crate::content::live::LiveContent>,
    /// Application links: the owner's links, their addresses in memory, their counts.
    pub links: Arc<crate::links::Links>,
}
