//! Layers wrapped around the routes: security headers, the same-origin check, the request log,
//! `no-store` for private answers, and the storage-fault watch.

pub mod no_store;
pub mod origin;
pub mod request_log;
pub mod security;
pub mod storage_faults;
