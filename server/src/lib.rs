//! Portfolio: a one-binary web server for a developer's portfolio site and its contact inbox.

pub use portfolio_content::{addresses, clock, domain};

pub mod aead;
pub mod app;
pub mod auth;
pub mod cli;
pub mod conditional;
pub mod config;
pub mod contact;
pub mod content;
pub mod digest;
pub mod embedded;
pub mod error;
pub mod http;
pub mod insights;
pub mod json;
pub mod links;
pub mod mail;
pub mod media;
pub mod net;
pub mod ops;
pub mod rate_limit;
pub mod serve;
pub mod site;
pub mod store;
pub mod telemetry;
pub mod tls;
