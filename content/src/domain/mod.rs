//! Validated types: a value of one of these is known to be valid, so handlers and the store never re-check.

mod contact_form;
mod email_address;
mod field_errors;
mod spam_reason;
mod text;

pub use contact_form::{ContactForm, FORM_NAME};
pub use email_address::EmailAddress;
pub use field_errors::FieldErrors;
pub use spam_reason::SpamReason;
pub use text::{MessageBody, Name, Subject};
