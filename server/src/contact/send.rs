//! A message to send, once its fields are checked, and what became of it: the terms of
//! [`super::ContactState::send`], whose outcome `POST /api/contact` turns into its answer.

use std::time::Duration;

use chrono::{DateTime, Utc};

use crate::domain::ContactForm;
use crate::store::LinkVisit;

/// The longest User-Agent kept with a message, in characters.
pub const MAX_USER_AGENT_CHARS: usize = 512;

/// A message whose fields are checked, with what came with it.
pub struct Submission<'a> {
    pub form: &'a ContactForm,
    /// The key the client's messages are counted under (a salted hash of its network).
    pub client_key: &'a str,
    pub proofs: Proofs<'a>,
    /// The request's User-Agent, as sent (cut to 512 characters when kept).
    pub user_agent: Option<&'a str>,
    /// The application link the visit came through, for a visitor who may be counted.
    pub link: Option<LinkVisit<'a>>,
}

/// What the form sent to tell a person from a bot, each as given.
#[derive(Debug, Clone, Copy, Default)]
pub struct Proofs<'a> {
    /// The signed form token.
    pub token: Option<&'a str>,
    /// The solved proof-of-work challenge (the ALTCHA payload).
    pub altcha: Option<&'a str>,
    /// The honeypot field, which people leave empty.
    pub honeypot: Option<&'a str>,
}

/// What became of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sent {
    /// Stored (and committed), as spam or not: its id and the server's time of receipt.
    Stored { id: i64, created_at: DateTime<Utc> },
    /// Over the client's rate limit: not stored; try again in this many seconds (at least one).
    TooMany { wait_secs: u64 },
}

/// A wait in whole seconds, rounded up.
pub fn whole_seconds(wait: Duration) -> u64 {
    wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_wait_is_rounded_up_to_whole_seconds() {
        assert_eq!(whole_seconds(Duration::from_secs(3)), 3);
        assert_eq!(whole_seconds(Duration::from_millis(3_001)), 4);
        assert_eq!(whole_seconds(Duration::from_nanos(1)), 1);
        assert_eq!(whole_seconds(Duration::ZERO), 0);
    }
}
