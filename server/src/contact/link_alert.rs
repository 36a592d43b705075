//! The owner's alert about an application link (its first open, a resume downloaded through it, a
//! message sent during a visit through it): one subject and one text, sent the same through
//! e-mail and every webhook. It names the link and the time, nothing about the visitor.

use crate::store::delivery::PendingDelivery;

/// A link's alert as read from its outbox row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkAlert {
    /// `open`, `resume` or `message`.
    pub event: String,
    pub company: String,
    pub role: String,
    /// `/a/<slug>`.
    pub path: String,
    /// RFC 3339, UTC, to the second.
    pub at: String,
}

impl LinkAlert {
    pub fn of(pending: &PendingDelivery) -> Self {
        let text = |field: &Option<String>| field.clone().unwrap_or_default();
        Self {
            event: text(&pending.link_event),
            company: text(&pending.link_company),
            role: text(&pending.link_role),
            path: format!("/a/{}", text(&pending.link_slug)),
            at: chrono::DateTime::from_timestamp_millis(pending.event_at)
                .unwrap_or_default()
                .to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        }
    }

    /// The link as people name it: `Acme, Frontend Developer`.
    pub fn link_name(&self) -> String {
        format!("{}, {}", self.company, self.role)
    }

    pub fn subject(&self) -> String {
        let what = match self.event.as_str() {
            "open" => "Application link opened",
            "resume" => "Resume downloaded through your link",
            "message" => "Message sent through your link",
            _ => "Application link",
        };
        format!("{what}: {}", self.link_name())
    }

    /// The text, with `name` the link's name as the channel shows it (escaped for a chat).
    pub fn text_with(&self, name: &str) -> String {
        let what = match self.event.as_str() {
            "open" => format!("Your application link for {name} was opened for the first time."),
            "resume" => format!(
                "Your resume was downloaded through your application link for {name} \
                 (the first download through it today)."
            ),
            "message" => format!(
                "A message was sent during a visit through your application link for {name}. \
                 It is in your inbox."
            ),
            _ => format!("Your application link for {name} was used."),
        };
        format!(
            "{what}\n\nLink: {}\nWhen: {}\n\nThe dashboard's Applications view shows what was \
             looked at through it.\n",
            self.path, self.at
        )
    }

    pub fn text(&self) -> String {
        self.text_with(&self.link_name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_alert_names_the_link_the_event_and_the_time() {
        let alert = LinkAlert {
            event: "open".into(),
            company: "Acme".into(),
            role: "Frontend Developer".into(),
            path: "/a/acme-0123456789abcdef".into(),
            at: "2026-11-28T10:00:00Z".into(),
        };
        assert_eq!(
            alert.subject(),
            "Application link opened: Acme, Frontend Developer"
        );
        let text = alert.text();
        assert!(text.starts_with("Your application link for Acme, Frontend Developer was opened"));
        assert!(text.contains("Link: /a/acme-0123456789abcdef\nWhen: 2026-11-28T10:00:00Z"));
    }
}
