//! `ContactForm`: a visitor's message whose every field is valid.

use super::field_errors::FieldErrors;

use super::email_address::EmailAddress;
use super::text::{MessageBody, Name, Subject};

/// The only form name the page sends (the original product's hidden `form-name` field).
pub const FORM_NAME: &str = "contact";

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContactForm {
    pub name: Name,
    pub email: EmailAddress,
    pub subject: Subject,
    pub message: MessageBody,
}

impl ContactForm {
    /// Parses every field and reports every failing one, keyed by its JSON name.
    pub fn parse(
        name: &str,
        email: &str,
        subject: &str,
        message: &str,
        form_name: &str,
    ) -> Result<Self, FieldErrors> {
        let mut errors = FieldErrors::new();
        let name = Name::parse(name).map_err(|e| errors.insert("name".into(), e));
        let email = EmailAddress::parse(email).map_err(|e| errors.insert("email".into(), e.into()));
        let subject = Subject::parse(subject).map_err(|e| errors.insert("subject".into(), e));
        let message = MessageBody::parse(message).map_err(|e| errors.insert("message".into(), e));
        if form_name != FORM_NAME {
            errors.insert("form-name".into(), format!("must be \"{FORM_NAME}\""));
        }
        match (name, email, subject, message) {
            (Ok(name), Ok(email), Ok(subject), Ok(message)) if errors.is_empty() => Ok(Self {
                name,
                email,
                subject,
                message,
            }),
            _ => Err(errors),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_valid_form_parses() {
        let form =
            ContactForm::parse(" Ada ", "ada@example.com", "Hi", "Hello there", "contact").unwrap();
        assert_eq!(form.name.as_str(), "Ada");
        assert_eq!(form.message.as_str(), "Hello there");
    }

    #[test]
    fn every_failing_field_is_reported_at_once() {
        let errors = ContactForm::parse("", "nope", "", &"m".repeat(5001), "other").unwrap_err();
        let names: Vec<&str> = errors.keys().map(String::as_str).collect();
        assert_eq!(names, ["email", "form-name", "message", "name", "subject"]);
    }
}
