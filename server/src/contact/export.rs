//! Exports every contact message as JSON (the original product's document shape) or CSV.

use crate::store::Db;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Format {
    Json,
    Csv,
}

/// Every message in the chosen format. Used by `portfolio messages export` and the inbox's export.
pub async fn export_all(_db: &Db, _format: Format) -> anyhow::Result<Vec<u8>> {
    anyhow::bail!("export is not implemented yet")
}
