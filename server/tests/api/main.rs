//! Integration tests: the real server on port 0 with its own temporary database, spoken to over HTTP.

mod cli;
mod connections;
mod contact;
mod contact_crash;
mod contact_outbox;
mod contact_smtp;
mod content;
mod delivery;
mod faults;
mod group_commit;
mod hardening;
mod helpers;
mod inbox;
mod insights;
mod instances;
mod media;
mod ops;
mod owner;
mod security;
mod seo;
mod session;
mod site;
mod spam;
mod store;
mod throttle;
mod tls;
