//! Exports every contact message as JSON (the original product's document shape) or CSV.
//!
//! "Every message" is every message in the inbox: spam and deleted messages are left out, so an
//! export can be imported elsewhere as real correspondence.

use anyhow::Context;
use chrono::SecondsFormat;
use serde::Serialize;

use crate::store::{Db, ExportRow};

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Json,
    Csv,
}

/// One message in the original product's document shape (note the capital E of `Email`).
#[derive(Debug, Serialize)]
struct Document<'a> {
    name: &'a str,
    #[serde(rename = "Email")]
    email: &'a str,
    subject: &'a str,
    message: &'a str,
    #[serde(rename = "form-name")]
    form_name: &'a str,
    /// RFC 3339, UTC, with milliseconds.
    #[serde(rename = "createdAt")]
    created_at: String,
}

/// The CSV's columns: the document's, and `via`, the application link the message was sent
/// through (`Acme, Frontend Developer`; empty for most).
const COLUMNS: [&str; 7] = [
    "name",
    "Email",
    "subject",
    "message",
    "form-name",
    "createdAt",
    "via",
];

fn rfc3339(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .unwrap_or_default()
        .to_rfc3339_opts(SecondsFormat::Millis, true)
}

fn document(row: &ExportRow) -> Document<'_> {
    Document {
        name: &row.name,
        email: &row.email,
        subject: &row.subject,
        message: &row.message,
        form_name: &row.form_name,
        created_at: rfc3339(row.created_at),
    }
}

/// Every message in the chosen format. Used by `portfolio messages export` and the inbox's export.
pub async fn export_all(db: &Db, format: Format) -> anyhow::Result<Vec<u8>> {
    let rows = db.messages_for_export().await?;
    match format {
        Format::Json => to_json(&rows),
        Format::Csv => to_csv(&rows),
    }
}

fn to_json(rows: &[ExportRow]) -> anyhow::Result<Vec<u8>> {
    let documents: Vec<Document<'_>> = rows.iter().map(document).collect();
    let mut bytes = serde_json::to_vec_pretty(&documents).context("Failed to write JSON")?;
    bytes.push(b'\n');
    Ok(bytes)
}

fn to_csv(rows: &[ExportRow]) -> anyhow::Result<Vec<u8>> {
    // RFC 4180: CRLF line ends, fields quoted when they hold a comma, quote or line break.
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    writer
        .write_record(COLUMNS)
        .context("Failed to write CSV")?;
    for row in rows {
        let doc = document(row);
        writer
            .write_record([
                defuse(doc.name).as_ref(),
                defuse(doc.email).as_ref(),
                defuse(doc.subject).as_ref(),
                defuse(doc.message).as_ref(),
                defuse(doc.form_name).as_ref(),
                doc.created_at.as_str(),
                defuse(row.via.as_deref().unwrap_or_default()).as_ref(),
            ])
            .context("Failed to write CSV")?;
    }
    writer
        .into_inner()
        .map_err(|e| anyhow::anyhow!("Failed to write CSV: {e}"))
}

/// A CSV table (RFC 4180, CRLF) with a header row, every cell defused as in the message export.
pub fn csv_table<R, C>(
    header: &[&str],
    rows: impl IntoIterator<Item = R>,
) -> anyhow::Result<Vec<u8>>
where
    R: IntoIterator<Item = C>,
    C: AsRef<str>,
{
    let mut writer = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .from_writer(Vec::new());
    writer.write_record(header).context("Failed to write CSV")?;
    for row in rows {
        let cells: Vec<String> = row
            .into_iter()
            .map(|cell| defuse(cell.as_ref()).into_owned())
            .collect();
        writer.write_record(&cells).context("Failed to write CSV")?;
    }
    writer
        .into_inner()
        .map_err(|e| anyhow::anyhow!("Failed to write CSV: {e}"))
}

/// A spreadsheet runs a cell that starts with `=`, `+`, `-`, `@`, tab or carriage return as a
/// formula; a leading `'` makes it text (OWASP's advice on CSV injection).
fn defuse(cell: &str) -> std::borrow::Cow<'_, str> {
    if cell.starts_with(['=', '+', '-', '@', '\t', '\r']) {
        format!("'{cell}").into()
    } else {
        cell.into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(name: &str, message: &str) -> ExportRow {
        ExportRow {
            name: name.into(),
            email: "ada@example.com".into(),
            subject: "Hi".into(),
            message: message.into(),
            form_name: "contact".into(),
            created_at: 1_700_000_000_123,
            via: None,
        }
    }

    #[test]
    fn json_uses_the_original_document_shape() {
        let bytes = to_json(&[row("Ada", "Hello")]).unwrap();
        let value: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        assert_eq!(
            value,
            serde_json::json!([{
                "name": "Ada", "Email": "ada@example.com", "subject": "Hi", "message": "Hello",
                "form-name": "contact", "createdAt": "2023-11-14T22:13:20.123Z"
            }])
        );
    }

    #[test]
    fn csv_quotes_per_rfc_4180_and_defuses_formulas() {
        let bytes = to_csv(&[
            row("=HYPERLINK(\"x\")", "a, \"b\"\r\nc"),
            row("@SUM(A1)", "-1"),
            row("+1", "\tx"),
        ])
        .unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let mut lines = text.split("\r\n");
        assert_eq!(
            lines.next().unwrap(),
            "name,Email,subject,message,form-name,createdAt,via"
        );
        assert!(text.contains("\"'=HYPERLINK(\"\"x\"\")\""), "{text}");
        assert!(text.contains("\"a, \"\"b\"\"\r\nc\""), "{text}");
        assert!(text.contains("'@SUM(A1)"), "{text}");
        assert!(text.contains(",'-1,"), "{text}");
        assert!(text.contains("'+1,"), "{text}");
        assert!(
            text.contains("\"'\tx\"") || text.contains(",'\tx,"),
            "{text}"
        );
        assert!(text.ends_with("\r\n"));
    }
}
