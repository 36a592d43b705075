//! The two outbox rows of a conversation: the owner's reply, sent to the visitor with the
//! threading headers that let their mail client put it with the rest, and the owner's notice of
//! the visitor's answer, the same on e-mail and every webhook.

use anyhow::Context;
use lettre::message::header::ContentType;
use lettre::message::Mailbox;
use lettre::Message;

use super::headers::one_line;
use crate::store::delivery::PendingDelivery;

/// The owner's reply to the visitor of its message: From the site, To the visitor, Reply-To the
/// site's reply address (so the answer comes back to the conversation), with its Message-ID,
/// In-Reply-To and References as stored when it was written, and the text as written then (the
/// owner's words, the original quoted below).
pub fn reply_message(
    pending: &PendingDelivery,
    from: &Mailbox,
    reply_to: &Mailbox,
) -> anyhow::Result<Message> {
    let text = |field: &Option<String>| field.clone().unwrap_or_default();
    let visitor = Mailbox::new(
        Some(one_line(&text(&pending.name))),
        text(&pending.email)
            .parse()
            .context("the stored address no longer parses")?,
    );
    let bracket = |id: &str| format!("<{id}>");
    let references = text(&pending.reply_refs)
        .split_whitespace()
        .map(bracket)
        .collect::<Vec<_>>()
        .join(" ");
    let mut builder = Message::builder()
        .from(from.clone())
        .to(visitor)
        .reply_to(reply_to.clone())
        .subject(reply_subject(&text(&pending.subject)))
        .message_id(Some(bracket(&text(&pending.reply_mail_id))))
        .header(ContentType::TEXT_PLAIN);
    if let Some(answered) = pending
        .reply_in_reply_to
        .as_deref()
        .filter(|id| !id.is_empty())
    {
        builder = builder.in_reply_to(bracket(answered));
    }
    if !references.is_empty() {
        builder = builder.references(references);
    }
    builder
        .body(text(&pending.reply_sent_text))
        .context("Failed to build the reply")
}

/// The owner's follow-up to a link's recipient: From the site, To the recipient, Reply-To the
/// site's reply address, under its own subject and Message-ID (a new thread: the application it
/// follows up went from the owner's own mailbox), with the text as the owner sent it.
pub fn follow_up_message(
    pending: &PendingDelivery,
    from: &Mailbox,
    reply_to: &Mailbox,
) -> anyhow::Result<Message> {
    let text = |field: &Option<String>| field.clone().unwrap_or_default();
    let recipient: Mailbox = text(&pending.email)
        .parse()
        .context("the stored address no longer parses")?;
    Message::builder()
        .from(from.clone())
        .to(recipient)
        .reply_to(reply_to.clone())
        .subject(one_line(&text(&pending.subject)))
        .message_id(Some(format!("<{}>", text(&pending.reply_mail_id))))
        .header(ContentType::TEXT_PLAIN)
        .body(text(&pending.reply_sent_text))
        .context("Failed to build the follow-up")
}

/// `Re: ` and the message's subject, on one line, without a second `Re:`.
pub fn reply_subject(subject: &str) -> String {
    let subject = one_line(subject);
    let trimmed = subject.trim();
    if trimmed
        .get(..3)
        .is_some_and(|start| start.eq_ignore_ascii_case("re:"))
    {
        trimmed.to_owned()
    } else {
        format!("Re: {trimmed}")
    }
}

/// The owner's notice of a visitor's answer, as read from its outbox row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AnswerNotice {
    pub message_id: Option<i64>,
    pub answer_id: Option<i64>,
    pub name: String,
    pub email: String,
    /// The conversation's subject (the contact message's).
    pub subject: String,
    /// What the visitor wrote, as the mail's text part gives it.
    pub text: String,
    /// When it was filed, RFC 3339 UTC.
    pub at: String,
}

impl AnswerNotice {
    pub fn of(pending: &PendingDelivery) -> Self {
        let text = |field: &Option<String>| field.clone().unwrap_or_default();
        Self {
            message_id: pending.message_id,
            answer_id: pending.reply_id,
            name: text(&pending.name),
            email: text(&pending.email),
            subject: text(&pending.subject),
            text: text(&pending.reply_body),
            at: chrono::DateTime::from_timestamp_millis(pending.event_at)
                .unwrap_or_default()
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }
    }

    pub fn mail_subject(&self) -> String {
        format!(
            "Answer from {}: {}",
            one_line(&self.name),
            one_line(&self.subject)
        )
    }

    /// The e-mail's text: who answered, what they wrote, and where the conversation is.
    pub fn mail_text(&self) -> String {
        format!(
            "{name} <{email}> answered your reply.\n\n{text}\n\n-- \nThe conversation is in your \
             dashboard's inbox, where you can reply again.\n",
            name = self.name,
            email = self.email,
            text = self.text,
        )
    }

    /// The chat's summary, with `escape` applied to everything the visitor wrote.
    pub fn summary(&self, escape: fn(&str) -> String) -> String {
        format!(
            "Answer from {} ({})\nSubject: {}\n\n{}",
            escape(&self.name),
            escape(&self.email),
            escape(&self.subject),
            escape(&self.text),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_reply_subject_has_one_re() {
        assert_eq!(reply_subject("Hello"), "Re: Hello");
        assert_eq!(reply_subject("RE: Hello"), "RE: Hello");
        assert_eq!(reply_subject("Line\r\nBcc: x@y.z"), "Re: Line Bcc: x@y.z");
        assert_eq!(reply_subject("Ré"), "Re: Ré");
        assert_eq!(reply_subject("a€ b"), "Re: a€ b");
    }
}
