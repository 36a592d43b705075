//! `portfolio content ...`: the page's content as a JSON file, for owners who keep it in git.

use std::path::PathBuf;

use anyhow::Context;
use clap::Subcommand;

use crate::config::DatabaseSettings;
use crate::content::{validate, KEPT_VERSIONS, MAX_DOCUMENT_BYTES};
use crate::error::ApiError;
use crate::store::content::EntryKey;

#[derive(Debug, Subcommand)]
pub enum ContentCommand {
    /// Write the published document (the default one when nothing was published) as JSON.
    Export {
        #[arg(long, short, value_name = "FILE")]
        output: PathBuf,
        #[command(flatten)]
        database: DatabaseSettings,
    },
    /// Check a JSON document and make it the draft; with --publish, also publish it. A running
    /// server serves a published one within 5 seconds.
    Import {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// Publish it as a new version too.
        #[arg(long)]
        publish: bool,
        #[command(flatten)]
        database: DatabaseSettings,
    },
}

pub async fn run(command: ContentCommand) -> anyhow::Result<()> {
    match command {
        ContentCommand::Export { output, database } => {
            let db = crate::store::connect(&database.url).await?;
            let published = db.published_content(EntryKey::PAGE).await;
            db.close().await;
            let (version, json) = match published? {
                Some(row) => {
                    let value: serde_json::Value = serde_json::from_str(&row.document)
                        .context("the published document is not JSON")?;
                    (row.version, value)
                }
                None => (0, serde_json::to_value(crate::content::default_document())?),
            };
            let mut text = serde_json::to_string_pretty(&json)?;
            text.push('\n');
            std::fs::write(&output, text)
                .with_context(|| format!("output: cannot write {}", output.display()))?;
            println!("Wrote version {version} to {}.", output.display());
            Ok(())
        }
        ContentCommand::Import {
            file,
            publish,
            database,
        } => {
            let bytes = std::fs::read(&file)
                .with_context(|| format!("file: cannot read {}", file.display()))?;
            anyhow::ensure!(
                bytes.len() <= MAX_DOCUMENT_BYTES,
                "file: {} is over {} KB",
                file.display(),
                MAX_DOCUMENT_BYTES / 1024
            );
            let document =
                validate::parse_document(&bytes).map_err(|error| describe(&file, error))?;
            let json = serde_json::to_string(&document)?;
            let db = crate::store::connect(&database.url).await?;
            let result = import(&db, &json, publish).await;
            db.close().await;
            let (revision, version) = result?;
            match version {
                Some(version) => println!(
                    "Published {} as version {version} (it is the draft too).",
                    file.display()
                ),
                None => println!(
                    "{} is the draft now (revision {revision}); publish it from the dashboard or with --publish.",
                    file.display()
                ),
            }
            Ok(())
        }
    }
}

/// Makes the document the draft whatever its revision, and publishes it when asked.
async fn import(
    db: &crate::store::Db,
    json: &str,
    publish: bool,
) -> anyhow::Result<(i64, Option<i64>)> {
    let now = crate::clock::now_ms();
    if publish {
        check_renders(db, json).await?;
        let row = db
            .publish_content(EntryKey::PAGE, json, now, KEPT_VERSIONS, true)
            .await?;
        let revision = db
            .content_draft(EntryKey::PAGE)
            .await?
            .map_or(0, |d| d.revision);
        return Ok((revision, Some(row.version)));
    }
    loop {
        let current = db
            .content_draft(EntryKey::PAGE)
            .await?
            .map_or(0, |d| d.revision);
        if let Some(revision) = db
            .save_content_draft(EntryKey::PAGE, json, current, now)
            .await?
        {
            return Ok((revision, None));
        }
    }
}

/// Renders the page from the document, as the API does before a publish: a document the page
/// cannot be drawn from (the link preview refuses characters XML has no place for, say) is
/// refused here rather than stopping the server at its next start.
async fn check_renders(db: &crate::store::Db, json: &str) -> anyhow::Result<()> {
    let document = crate::content::migrate::read(json)?;
    let url = url::Url::parse("http://127.0.0.1/").expect("a valid literal URL");
    let pages = std::sync::Arc::new(crate::site::Pages::render(
        &url,
        crate::config::Effort::Quick,
    ));
    let renderer = crate::content::render::PageRenderer::start(pages, Some(db.clone()))?;
    renderer.prepare(&document, None).await.context(
        "the page cannot be rendered from this document, so it was not published (nothing was imported)",
    )?;
    Ok(())
}

/// Every invalid field on its own line, by its path.
fn describe(file: &std::path::Path, error: ApiError) -> anyhow::Error {
    match error {
        ApiError::Validation(fields) => {
            let lines: Vec<String> = fields
                .iter()
                .map(|(path, problem)| format!("  {path}: {problem}"))
                .collect();
            anyhow::anyhow!(
                "file: {} is not a valid content document (nothing was imported):\n{}",
                file.display(),
                lines.join("\n")
            )
        }
        other => anyhow::anyhow!("file: {}: {other}", file.display()),
    }
}
