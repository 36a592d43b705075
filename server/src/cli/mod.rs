//! The owner's maintenance commands, beside `serve`.

pub mod messages;
pub mod owner;
