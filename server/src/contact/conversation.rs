//! A message's conversation: the owner's reply written in the inbox, made into the mail the
//! visitor receives (threaded after what it answers), and stored with its outbox row.

use rand::RngCore;

use crate::store::replies::{ReplyRow, DIRECTION_ANSWER};
use crate::store::MessageRow;

/// The longest reply, in characters.
pub const MAX_REPLY_CHARS: usize = 10_000;
/// The most Message-IDs a reply's References carries: the message's own and the latest ones.
const MAX_REFERENCES: usize = 20;

/// Why a reply was not stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Refusal {
    /// The server sends no e-mail (no `--smtp-url` and `--notify-email`).
    MailOff,
    /// The message is in Spam: it is moved out first.
    Spam,
}

/// The Message-ID the site gives a contact message, which came through the form and had none:
/// the first reply answers it, so the visitor's mail client starts the thread there.
pub fn message_mail_id(message: &MessageRow, domain: &str) -> String {
    format!("contact.{}.{}@{domain}", message.id, message.created_at)
}

/// A new follow-up's Message-ID under the site's `domain`, made at random: the recipient's
/// answer names it.
pub fn follow_up_mail_id(link_id: i64, domain: &str) -> String {
    let mut token = [0u8; 12];
    rand::thread_rng().fill_bytes(&mut token);
    format!("follow-up.{link_id}.{}@{domain}", hex::encode(token))
}

/// What a new reply sends: its Message-ID, the id it answers, its References and the text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Composed {
    pub mail_id: String,
    pub in_reply_to: String,
    pub refs: String,
    pub sent_text: String,
}

/// Makes the reply `body` to `message`, after the conversation so far (`earlier`, oldest
/// first): it answers the latest mail of the conversation, quoting the visitor's latest words
/// (their last answer, else the message), and lists the conversation's ids, the message's first.
pub fn compose(message: &MessageRow, earlier: &[ReplyRow], body: &str, domain: &str) -> Composed {
    let first = message_mail_id(message, domain);
    let mut ids: Vec<&str> = std::iter::once(first.as_str())
        .chain(earlier.iter().map(|row| row.mail_id.as_str()))
        .collect();
    let in_reply_to = ids.last().copied().unwrap_or(first.as_str()).to_owned();
    if ids.len() > MAX_REFERENCES {
        ids.drain(1..ids.len() - (MAX_REFERENCES - 1));
    }
    let (original, at) = earlier
        .iter()
        .rev()
        .find(|row| row.direction == DIRECTION_ANSWER)
        .map_or((message.message.as_str(), message.created_at), |answer| {
            (
                answer.body.as_str(),
                answer.mail_date.unwrap_or(answer.created_at),
            )
        });
    let mut token = [0u8; 12];
    rand::thread_rng().fill_bytes(&mut token);
    Composed {
        mail_id: format!("reply.{}.{}@{domain}", message.id, hex::encode(token)),
        in_reply_to,
        refs: ids.join(" "),
        sent_text: crate::mail::quoted_reply(body, original, &message.name, at),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn follow_up_message_ids_are_the_sites_and_never_repeat() {
        let one = follow_up_mail_id(3, "alex.example");
        assert!(one.starts_with("follow-up.3.") && one.ends_with("@alex.example"));
        assert_ne!(one, follow_up_mail_id(3, "alex.example"));
    }
}
