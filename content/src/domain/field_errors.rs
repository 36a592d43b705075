/// Field name to a sentence saying what is wrong with it: what validation returns, and what a
/// 422 answer lists (`error::ApiError::Validation`).
pub type FieldErrors = std::collections::BTreeMap<String, String>;
