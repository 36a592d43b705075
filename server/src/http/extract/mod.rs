//! Extractors with the API's error contract: `ApiJson`, `ApiPath`, `ApiQuery`, `ClientIp` and
//! `Owner`; and the auth flows as the handlers reach them (`auth_flows`).

pub mod auth_flows;
pub mod client_ip;
pub mod json;
pub mod owner;
pub mod path;
pub mod query;
