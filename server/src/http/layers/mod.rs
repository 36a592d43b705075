//! Layers wrapped around the routes: security headers, the same-origin check, the request log,
//! `no-store` for private answers, the storage-fault watch, and the hand-over of the routes'
//! work to the application's runtime.

pub mod app_runtime;
pub mod no_store;
pub mod origin;
pub mod request_log;
pub mod security;
pub mod storage_faults;
