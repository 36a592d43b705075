//! `AppState`: what every handler can reach (the store, the settings and each feature's state).

use std::sync::Arc;

use crate::config::Settings;
use crate::store::Db;

/// Handed to every request's handler, so cloned once per request: one reference count, whatever
/// it holds (its fields are reached through `Deref`).
#[derive(Clone)]
pub struct AppState(Arc<Shared>);

impl AppState {
    pub fn new(shared: Shared) -> Self {
        Self(Arc::new(shared))
    }
}

impl std::ops::Deref for AppState {
    type Target = Shared;

    fn deref(&self) -> &Shared {
        &self.0
    }
}

/// What [`AppState`] holds.
pub struct Shared {
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
    /// The embedded site and the pages rendered from the published document.
    pub pages: Arc<crate::site::Pages>,
    /// The files made from uploads that were served lately, kept in memory.
    pub files: Arc<crate::media::cache::FileCache>,
}
