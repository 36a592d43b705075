//! Why a contact message was filed as spam: the codes stored in `spam_reason`, stable for good
//! (retention, the dashboard and the store read them).

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SpamReason {
    /// The hidden field people never see was filled in.
    Honeypot,
    /// No form token was sent.
    TokenMissing,
    /// The form token was not one this server signed.
    TokenForged,
    /// The form token was older than its lifetime.
    TokenExpired,
    /// The form token had been used by an earlier message.
    TokenReplayed,
    /// Sent sooner after the token was issued than a person can fill in the form.
    TooFast,
    /// No proof-of-work solution was sent.
    ChallengeMissing,
    /// The solution was wrong, malformed, not signed by this server, or expired.
    ChallengeFailed,
    /// The challenge had been used by an earlier message.
    ChallengeReplayed,
    /// Too many links, or nothing but a link.
    Content,
    /// Over the site-wide ceiling of messages an hour.
    Ceiling,
}

impl SpamReason {
    pub const ALL: [SpamReason; 11] = [
        Self::Honeypot,
        Self::TokenMissing,
        Self::TokenForged,
        Self::TokenExpired,
        Self::TokenReplayed,
        Self::TooFast,
        Self::ChallengeMissing,
        Self::ChallengeFailed,
        Self::ChallengeReplayed,
        Self::Content,
        Self::Ceiling,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            Self::Honeypot => "honeypot",
            Self::TokenMissing => "token-missing",
            Self::TokenForged => "token-forged",
            Self::TokenExpired => "token-expired",
            Self::TokenReplayed => "token-replayed",
            Self::TooFast => "too-fast",
            Self::ChallengeMissing => "challenge-missing",
            Self::ChallengeFailed => "challenge-failed",
            Self::ChallengeReplayed => "challenge-replayed",
            Self::Content => "content",
            Self::Ceiling => "ceiling",
        }
    }

    /// The reason stored under `code`, if it is one of ours.
    pub fn from_code(code: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|reason| reason.code() == code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_codes_are_exactly_these() {
        let codes: Vec<&str> = SpamReason::ALL.iter().map(|r| r.code()).collect();
        assert_eq!(
            codes,
            [
                "honeypot",
                "token-missing",
                "token-forged",
                "token-expired",
                "token-replayed",
                "too-fast",
                "challenge-missing",
                "challenge-failed",
                "challenge-replayed",
                "content",
                "ceiling"
            ]
        );
        for reason in SpamReason::ALL {
            assert_eq!(SpamReason::from_code(reason.code()), Some(reason));
        }
        assert_eq!(SpamReason::from_code("old-text"), None);
    }
}
