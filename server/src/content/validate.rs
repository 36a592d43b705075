//! The content crate's checks ([`portfolio_content::validate`]), and reading a document, a case
//! study or a post sent as JSON with the API's errors: a field that does not fit is named by its
//! path.

pub use portfolio_content::validate::*;

use portfolio_content::case_study::CaseStudy;
use portfolio_content::document::ContentDocument;
use serde_json::Value;

use crate::error::ApiError;

/// Parses and checks a document sent as JSON; every failing field is named by its path
/// (`projects[2].title`).
pub fn parse_document(bytes: &[u8]) -> Result<ContentDocument, ApiError> {
    let document = read_document(crate::json::parse(bytes)?)?;
    check(&document).map_err(ApiError::Validation)?;
    Ok(document)
}

/// Reads a document sent as JSON, one from an older release brought to today's shape first (see
/// [`super::migrate`]); a field that does not fit is named by its path. Its bounds are [`check`]ed
/// apart.
pub fn read_document(mut value: Value) -> Result<ContentDocument, ApiError> {
    portfolio_content::migrate::upgrade(&mut value);
    let bytes = serde_json::to_vec(&value).map_err(anyhow::Error::from)?;
    crate::json::parse(&bytes)
}

/// Reads a case study sent as JSON; a field that does not fit is named by its path.
pub fn read_case_study(value: Value) -> Result<CaseStudy, ApiError> {
    let bytes = serde_json::to_vec(&value).map_err(anyhow::Error::from)?;
    crate::json::parse(&bytes)
}

/// Reads a post sent as JSON; a field that does not fit is named by its path.
pub fn read_post(value: Value) -> Result<portfolio_content::post::Post, ApiError> {
    let bytes = serde_json::to_vec(&value).map_err(anyhow::Error::from)?;
    crate::json::parse(&bytes)
}
