//! What the owner sends to make or change a link, checked at the boundary: every failing field
//! named at once, keyed by its JSON name.

use crate::content::resume::{Choice, SectionKind};
use crate::content::ContentDocument;
use crate::domain::FieldErrors;
use crate::store::links::Alerts;

/// The most characters of a company's and a role's name...
pub const MAX_NAME_CHARS: usize = 100;
/// ...and of the owner's note.
pub const MAX_NOTE_CHARS: usize = 1000;
/// The latest time an expiry may name: the last millisecond of the year 9999.
pub const MAX_TIME_MS: i64 = 253_402_300_799_999;
/// The days after a link's first open, with no message through it, before a follow-up comes
/// up: 5 unless the owner says otherwise, 1 to 60.
pub const FOLLOW_UP_DAYS: i64 = 5;
pub const MAX_FOLLOW_UP_DAYS: i64 = 60;

/// An application link's own resume: which sections, projects and jobs its page's resume shows
/// (each left out takes the page's own choice), with the page's paper and pages.
#[derive(
    Debug, Clone, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize, utoipa::ToSchema,
)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct LinkResume {
    /// The sections, in order; empty or left out: the page's choice.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schema(max_items = 5)]
    pub sections: Vec<SectionKind>,
    /// The projects by id, in order; left out: the page's choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_items = 30)]
    pub projects: Option<Vec<String>>,
    /// The jobs by their place in the page's experience (0 the first), in order; left out: the
    /// page's choice.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_items = 30)]
    pub jobs: Option<Vec<u8>>,
}

impl LinkResume {
    /// Checks it against the published `document`: each section once, each project one of its
    /// projects (once), each job one of its jobs (once). The problems by field.
    pub fn check(&self, document: &ContentDocument) -> FieldErrors {
        let mut errors = FieldErrors::new();
        if self.sections.len() > 5
            || self.projects.as_ref().is_some_and(|p| p.len() > 30)
            || self.jobs.as_ref().is_some_and(|j| j.len() > 30)
        {
            errors.insert(
                "resume".into(),
                "names more sections (5), projects or jobs (30) than there can be".into(),
            );
            return errors;
        }
        let mut twice = |field: String, new: bool| {
            if !new {
                errors.insert(field, "is named twice".into());
            }
        };
        let mut seen = std::collections::BTreeSet::new();
        for (i, kind) in self.sections.iter().enumerate() {
            twice(format!("resume.sections[{i}]"), seen.insert(*kind as u8));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, id) in self.projects.iter().flatten().enumerate() {
            twice(format!("resume.projects[{i}]"), seen.insert(id));
        }
        let mut seen = std::collections::BTreeSet::new();
        for (i, job) in self.jobs.iter().flatten().enumerate() {
            twice(format!("resume.jobs[{i}]"), seen.insert(job));
        }
        for (i, id) in self.projects.iter().flatten().enumerate() {
            if !document.projects.iter().any(|project| &project.id == id) {
                errors.insert(
                    format!("resume.projects[{i}]"),
                    "is not a project of the published page".into(),
                );
            }
        }
        for (i, job) in self.jobs.iter().flatten().enumerate() {
            if usize::from(*job) >= document.experience.len() {
                errors.insert(
                    format!("resume.jobs[{i}]"),
                    "is not a job of the published page".into(),
                );
            }
        }
        errors
    }

    /// The choice it makes over the page's own (`page`).
    pub fn over(&self, page: &Choice) -> Choice {
        Choice {
            sections: if self.sections.is_empty() {
                page.sections.clone()
            } else {
                self.sections.clone()
            },
            projects: self.projects.clone().or_else(|| page.projects.clone()),
            jobs: self
                .jobs
                .as_ref()
                .map(|jobs| jobs.iter().map(|&job| usize::from(job)).collect())
                .or_else(|| page.jobs.clone()),
        }
    }

    /// As stored: JSON, or `None` when it chooses nothing of its own.
    pub fn stored(&self) -> Option<String> {
        (*self != Self::default()).then(|| serde_json::to_string(self).unwrap_or_default())
    }

    /// As it was stored; `None` for none (or one that no longer reads, logged).
    pub fn read(stored: Option<&str>) -> Option<Self> {
        serde_json::from_str(stored?)
            .inspect_err(|error| {
                tracing::warn!(%error, "an application link's resume does not read");
            })
            .ok()
    }
}

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
    /// Its own resume, checked, as stored.
    pub resume: Option<String>,
    pub recipient_email: Option<String>,
    pub follow_up_days: i64,
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
    pub resume: Option<&'a LinkResume>,
    pub recipient_email: Option<&'a str>,
    pub follow_up_days: Option<i64>,
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
        if let Some(resume) = raw.resume {
            errors.extend(resume.check(document));
        }
        let recipient_email = raw
            .recipient_email
            .map(recipient)
            .transpose()
            .map_err(|e| errors.insert("recipientEmail".into(), e))
            .ok()
            .flatten()
            .flatten();
        let follow_up_days = follow_up_days(raw.follow_up_days.unwrap_or(FOLLOW_UP_DAYS))
            .map_err(|e| errors.insert("followUpDays".into(), e));
        match (company, role, note, language, follow_up_days) {
            (Ok(company), Ok(role), Ok(note), Ok(language), Ok(follow_up_days))
                if errors.is_empty() =>
            {
                Ok(Self {
                    company,
                    role,
                    note,
                    language,
                    expires_at: raw.expires_at,
                    alerts: raw.alerts,
                    resume: raw.resume.and_then(LinkResume::stored),
                    recipient_email,
                    follow_up_days,
                })
            }
            _ => Err(errors),
        }
    }
}

/// The recipient's e-mail address: empty (none) or one address, as the contact form takes it.
pub fn recipient(raw: &str) -> Result<Option<String>, String> {
    let trimmed = raw.trim();
    if trimmed.is_empty() {
        return Ok(None);
    }
    crate::domain::EmailAddress::parse(trimmed)
        .map(|address| Some(address.as_str().to_owned()))
        .map_err(str::to_owned)
}

/// The days before a follow-up comes up: 1 to [`MAX_FOLLOW_UP_DAYS`].
pub fn follow_up_days(days: i64) -> Result<i64, String> {
    if (1..=MAX_FOLLOW_UP_DAYS).contains(&days) {
        Ok(days)
    } else {
        Err(format!(
            "must be a whole number of days from 1 to {MAX_FOLLOW_UP_DAYS}"
        ))
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
            resume: None,
            recipient_email: None,
            follow_up_days: None,
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

    #[test]
    fn the_recipient_and_the_follow_up_days_are_checked() {
        let document = crate::content::default_document();
        let form = LinkForm::parse(raw("Acme", "Dev"), document, 0).unwrap();
        assert_eq!(
            (form.recipient_email, form.follow_up_days),
            (None, FOLLOW_UP_DAYS)
        );
        let mut given = raw("Acme", "Dev");
        given.recipient_email = Some(" jane@acme.example ");
        given.follow_up_days = Some(14);
        let form = LinkForm::parse(given, document, 0).unwrap();
        assert_eq!(form.recipient_email.as_deref(), Some("jane@acme.example"));
        assert_eq!(form.follow_up_days, 14);
        given.recipient_email = Some("  ");
        assert_eq!(
            LinkForm::parse(given, document, 0).unwrap().recipient_email,
            None
        );
        for days in [0, 61, -1] {
            given.recipient_email = Some("jane@");
            given.follow_up_days = Some(days);
            let errors = LinkForm::parse(given, document, 0).unwrap_err();
            let names: Vec<&str> = errors.keys().map(String::as_str).collect();
            assert_eq!(names, ["followUpDays", "recipientEmail"], "{days}");
        }
    }
}
