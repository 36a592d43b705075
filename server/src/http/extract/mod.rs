//! Extractors with the API's error contract: `ApiJson`, `ApiPath`, `ApiQuery`, `ClientIp` and
//! `Owner`.

pub mod client_ip;
pub mod json;
pub mod owner;
pub mod path;
pub mod query;
