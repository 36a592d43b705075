//! Extractors with the API's error contract: `ApiJson`, `ApiPath`, `ApiQuery`, `ClientIp` and
//! `Owner`; what handlers read of a request beside them (`site_host`); and the auth flows as the
//! handlers reach them (`auth_flows`).

pub mod auth_flows;
pub mod client_ip;
pub mod json;
pub mod owner;
pub mod path;
pub mod query;
pub mod site_host;
