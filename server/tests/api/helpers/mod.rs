//! The test application: a fresh server and database per test ([`Spawn`], or the binary as a
//! process of its own with [`Serve`]), a [`TestApp`] with one method per endpoint, and waiting
//! on the server with one deadline ([`eventually`], [`PATIENCE`]).
#![allow(dead_code)] // The feature modules use what the foundation tests do not.

mod binary;
mod database;
pub mod dovecot;
pub mod feeds;
mod owner;
mod requests;
mod site;
mod spawn;
mod wait;

pub use binary::*;
pub use database::*;
pub use owner::*;
pub use requests::*;
pub use site::*;
pub use spawn::*;
pub use wait::*;
