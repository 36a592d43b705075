//! Spam checks that cost a person nothing: a honeypot field and a time trap.

use std::time::Duration;

/// A person takes longer than this to fill in four fields; a script does not.
pub const MIN_FILL_TIME: Duration = Duration::from_secs(3);

/// Why a submission looks automated, or `None` when it looks like a person's.
///
/// `honeypot` is the hidden field people never see; `elapsed_ms` is how long the form was
/// on screen before it was sent, as measured by the page.
pub fn verdict(honeypot: Option<&str>, elapsed_ms: Option<u64>) -> Option<&'static str> {
    if honeypot.is_some_and(|value| !value.is_empty()) {
        return Some("honeypot: the hidden field was filled in");
    }
    match elapsed_ms {
        None => Some("time trap: the form's display time was not sent"),
        Some(ms) if u128::from(ms) < MIN_FILL_TIME.as_millis() => {
            Some("time trap: sent less than 3 seconds after the form appeared")
        }
        Some(_) => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_person_passes() {
        assert_eq!(verdict(Some(""), Some(3000)), None);
        assert_eq!(verdict(None, Some(60_000)), None);
    }

    #[test]
    fn a_filled_honeypot_is_spam() {
        assert!(verdict(Some("http://spam.example"), Some(10_000))
            .unwrap()
            .starts_with("honeypot"));
    }

    #[test]
    fn a_fast_or_untimed_submission_is_spam() {
        assert!(verdict(Some(""), Some(2999))
            .unwrap()
            .starts_with("time trap"));
        assert!(verdict(Some(""), None).unwrap().starts_with("time trap"));
    }
}
