//! What every handler can reach.

use std::sync::Arc;

use crate::config::Settings;
use crate::store::Db;

#[derive(Clone)]
pub struct AppState {
    pub db: Db,
    pub settings: Arc<Settings>,
}
