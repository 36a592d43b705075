//! Bounded text fields of a contact message: `Name`, `Subject`, `MessageBody`.
//!
//! Lengths count Unicode characters (scalar values), not bytes, so an emoji or an accented
//! letter counts as one. Text is kept exactly as sent (HTML included); it is escaped where shown.

use std::fmt;

fn required_and_bounded(raw: &str, max: usize) -> Result<(), String> {
    if raw.trim().is_empty() {
        return Err("is required".to_owned());
    }
    if raw.chars().count() > max {
        return Err(format!("must be at most {max} characters"));
    }
    Ok(())
}

macro_rules! bounded_text {
    ($(#[$doc:meta])* $name:ident, $max:expr) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq)]
        pub struct $name(String);

        impl $name {
            /// The most characters this field may hold.
            pub const MAX_CHARS: usize = $max;

            pub fn as_str(&self) -> &str {
                &self.0
            }
        }

        impl AsRef<str> for $name {
            fn as_ref(&self) -> &str {
                &self.0
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(&self.0)
            }
        }
    };
}

bounded_text!(
    /// A sender's name: 1 to 100 characters once surrounding spaces are trimmed; stored trimmed.
    Name,
    100
);
bounded_text!(
    /// A subject line: required, at most 200 characters, stored as sent.
    Subject,
    200
);
bounded_text!(
    /// The message itself: required, at most 5,000 characters, stored as sent.
    MessageBody,
    5000
);

impl Name {
    pub fn parse(raw: &str) -> Result<Self, String> {
        let trimmed = raw.trim();
        required_and_bounded(trimmed, Self::MAX_CHARS)?;
        Ok(Self(trimmed.to_owned()))
    }
}

impl Subject {
    pub fn parse(raw: &str) -> Result<Self, String> {
        required_and_bounded(raw, Self::MAX_CHARS)?;
        Ok(Self(raw.to_owned()))
    }
}

impl MessageBody {
    pub fn parse(raw: &str) -> Result<Self, String> {
        required_and_bounded(raw, Self::MAX_CHARS)?;
        Ok(Self(raw.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_name_is_trimmed_and_bounded_after_trimming() {
        assert_eq!(Name::parse("  Ada  ").unwrap().as_str(), "Ada");
        let padded = format!("  {}  ", "n".repeat(100));
        assert_eq!(Name::parse(&padded).unwrap().as_str().len(), 100);
        assert_eq!(
            Name::parse(&"n".repeat(101)).unwrap_err(),
            "must be at most 100 characters"
        );
    }

    #[test]
    fn a_blank_name_is_required() {
        assert_eq!(Name::parse(" \t\n ").unwrap_err(), "is required");
        assert_eq!(Name::parse("").unwrap_err(), "is required");
        assert!(Name::parse("A").is_ok());
    }

    #[test]
    fn lengths_count_characters_not_bytes() {
        let emoji = "😀".repeat(200);
        assert!(Subject::parse(&emoji).is_ok());
        assert!(Subject::parse(&format!("{emoji}é")).is_err());
    }

    #[test]
    fn subject_and_message_keep_their_text_exactly() {
        let html = "  <b>hi</b> & \"bye\"\n";
        assert_eq!(Subject::parse(html).unwrap().as_str(), html);
        assert_eq!(MessageBody::parse(html).unwrap().as_str(), html);
    }

    #[test]
    fn message_bound_is_five_thousand() {
        assert!(MessageBody::parse(&"m".repeat(5000)).is_ok());
        assert_eq!(
            MessageBody::parse(&"m".repeat(5001)).unwrap_err(),
            "must be at most 5000 characters"
        );
        assert_eq!(MessageBody::parse("   ").unwrap_err(), "is required");
    }
}
