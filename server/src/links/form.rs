//! What the owner sends to make or change a link, checked at the boundary: every failing field
//! named at once, keyed by its JSON name.

use crate::content::ContentDocument;
use crate::domain::FieldErrors;
use crate::store::links::Alerts;

/// The most characters of a company's and a role's name...
pub const MAX_NAME_CHARS: usize = 100;
/// ...and of the owner's note.
pub const MAX_NOTE_CHARS: usize = 1000;
/// The latest time an expiry may name: the last millisecond of the year 9999.
pub const MAX_TIME_MS: i64 = 253_402_300_799_999;

/// A new link whose every field is valid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LinkForm {
    pub company: String,
    pub role: String,
    pub note: String,
    /// A published language's tag, as the document spells it.
    pub language: String,
    pub expires_at: Option<i64>,
    pub alerts: Alerts,
}

/// A new link's fields as sent.
#[derive(Debug, Clone, Copy)]
pub struct RawLink<'a> {
    pub company: &'a str,
    pub role: &'a str,
    pub note: Option<&'a str>,
    pub language: Option<&'a str>,
    pub expires_at: Option<i64>,
    pub alerts: Alerts,
}

impl LinkForm {
    /// Parses every field: the language must be the published document's or one of its published
    /// languages (the document's own when none is given), the expiry after `now`.
    pub fn parse(
        raw: RawLink<'_>,
        document: &ContentDocument,
        now: i64,
    ) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let company = name(raw.company).map_err(|e| errors.insert("company".into(), e));
        let role = name(raw.role).map_err(|e| errors.insert("role".into(), e));
        let note = note(raw.note.unwrap_or_default()).map_err(|e| errors.insert("note".into(), e));
        let tags = crate::content::language::published_tags(document);
        let language = match raw.language {
            None => Ok(document.language.clone()),
            Some(asked) => tags
                .iter()
                .find(|tag| tag.eq_ignore_ascii_case(asked.trim()))
                .cloned()
                .ok_or_else(|| format!("must be a published language: {}", tags.join(", "))),
        }
        .map_err(|e| errors.insert("language".into(), e));
        if let Some(at) = raw.expires_at {
            if let Err(problem) = expiry(at) {
                errors.insert("expiresAt".into(), problem);
            } else if at <= now {
                errors.insert("expiresAt".into(), "must be in the future".into());
            }
        }
        match (company, role, note, language) {
            (Ok(company), Ok(role), Ok(note), Ok(language)) if errors.is_empty() => Ok(Self {
                company,
                role,
                note,
                language,
                expires_at: raw.expires_at,
                alerts: raw.alerts,
            }),
            _ => Err(errors),
        }
    }
}

/// A company's or a role's name: 1 to 100 characters, trimmed, on one line.
pub fn name(raw: &str) -> Result<String, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Err("is required".to_owned());
    }
    if raw.chars().count() > MAX_NAME_CHARS {
        return Err(format!("must be at most {MAX_NAME_CHARS} characters"));
    }
    if trimmed.chars().any(char::is_control) {
        return Err("must be one line without control characters".to_owned());
    }
    Ok(trimmed.to_owned())
}

/// The owner's note: at most 1,000 characters, line breaks and tabs allowed.
pub fn note(raw: &str) -> Result<String, String> {
    if raw.chars().count() > MAX_NOTE_CHARS {
        return Err(format!("must be at most {MAX_NOTE_CHARS} characters"));
    }
    if raw
        .chars()
        .any(|c| c.is_control() && !matches!(c, '\n' | '\r' | '\t'))
    {
        return Err("must not hold control characters".to_owned());
    }
    Ok(raw.trim().to_owned())
}

/// An expiry: Unix milliseconds between 1970 and the year 9999.
pub fn expiry(at: i64) -> Result<i64, String> {
    if (0..=MAX_TIME_MS).contains(&at) {
        Ok(at)
    } else {
        Err(format!(
            "must be Unix milliseconds between 0 and {MAX_TIME_MS}"
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn raw<'a>(company: &'a str, role: &'a str) -> RawLink<'a> {
        RawLink {
            company,
            role,
            note: None,
            language: None,
            expires_at: None,
            alerts: Alerts::default(),
        }
    }

    #[test]
    fn a_valid_link_parses_with_the_documents_language() {
        let document = crate::content::default_document();
        let form = LinkForm::parse(raw(" Acme ", "Frontend Developer"), document, 0).unwrap();
        assert_eq!(form.company, "Acme");
        assert_eq!(form.language, document.language);
        assert_eq!(form.note, "");
    }

    #[test]
    fn every_failing_field_is_named() {
        let document = crate::content::default_document();
        let long = "r".repeat(101);
        let mut bad = raw("", &long);
        bad.note = Some("\u{7}");
        bad.language = Some("xx");
        bad.expires_at = Some(5);
        let errors = LinkForm::parse(bad, document, 10).unwrap_err();
        let names: Vec<&str> = errors.keys().map(String::as_str).collect();
        assert_eq!(names, ["company", "expiresAt", "language", "note", "role"]);
        let line = LinkForm::parse(raw("Acme\nCorp", "x"), document, 0).unwrap_err();
        assert!(line.contains_key("company"));
    }
}
