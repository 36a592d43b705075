//! The owner's maintenance commands, beside `serve`.

pub mod backup;
pub mod content;
pub mod db;
pub mod messages;
pub mod owner;
