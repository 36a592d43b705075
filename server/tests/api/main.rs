//! Integration tests: the real server on port 0 with its own temporary database, spoken to over HTTP.

mod cli;
mod contact;
mod contact_crash;
mod contact_outbox;
mod contact_smtp;
mod delivery;
mod helpers;
mod inbox;
mod instances;
mod owner;
mod security;
mod seo;
mod session;
mod site;
mod store;
mod throttle;
mod tls;
