//! The owner's maintenance commands, beside `serve`.

pub mod backup;
pub mod db;
pub mod messages;
pub mod owner;
