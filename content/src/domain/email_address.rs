//! `EmailAddress`: a syntactically valid address of at most 254 characters.

use std::fmt;

/// The longest address SMTP can carry (RFC 5321, as corrected by erratum 1690).
pub const MAX_EMAIL_CHARS: usize = 254;

/// An e-mail address that a mail library will accept as a Reply-To, stored as typed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailAddress(String);

impl EmailAddress {
    /// Parses an address; the error is a sentence for the visitor.
    pub fn parse(raw: &str) -> Result<Self, &'static str> {
        if raw.trim().is_empty() {
            return Err("is required");
        }
        if raw.chars().count() > MAX_EMAIL_CHARS {
            return Err("must be at most 254 characters");
        }
        // The same parser the notification uses for Reply-To, so a stored address can always be replied to.
        raw.parse::<lettre::Address>()
            .map_err(|_| "must be a valid e-mail address, like name@example.com")?;
        Ok(Self(raw.to_owned()))
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for EmailAddress {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for EmailAddress {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_plain_address_is_accepted() {
        assert_eq!(
            EmailAddress::parse("ada@example.com").unwrap().as_str(),
            "ada@example.com"
        );
    }

    #[test]
    fn an_internationalised_address_is_accepted() {
        assert!(EmailAddress::parse("josé@exämple.com").is_ok());
    }

    #[test]
    fn empty_and_blank_are_required() {
        assert_eq!(EmailAddress::parse(""), Err("is required"));
        assert_eq!(EmailAddress::parse("   "), Err("is required"));
    }

    #[test]
    fn addresses_without_at_or_domain_are_rejected() {
        for bad in [
            "ada",
            "ada@",
            "@example.com",
            "ada@@example.com",
            "ada example@x.com",
            "ada@exa mple.com",
            " ada@example.com",
            "ada@example.com\r\nBcc: x@y.z",
        ] {
            assert!(EmailAddress::parse(bad).is_err(), "{bad:?} was accepted");
        }
    }

    #[test]
    fn the_length_bound_is_254_characters() {
        let at_bound = format!(
            "{}@{}.{}.{}.com",
            "a".repeat(64),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(57)
        );
        assert_eq!(at_bound.chars().count(), 254);
        assert!(EmailAddress::parse(&at_bound).is_ok());
        let past = format!(
            "{}@{}.{}.{}.com",
            "a".repeat(64),
            "b".repeat(63),
            "c".repeat(63),
            "d".repeat(58)
        );
        assert_eq!(
            EmailAddress::parse(&past),
            Err("must be at most 254 characters")
        );
    }
}
