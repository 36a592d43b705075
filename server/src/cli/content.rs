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
    /// Write the published document (the default one when nothing was published) as JSON; with
    /// --case-study, a project's published case study.
    Export {
        #[arg(long, short, value_name = "FILE")]
        output: PathBuf,
        /// The project whose case study to write, by its id.
        #[arg(long, value_name = "PROJECT")]
        case_study: Option<String>,
        #[command(flatten)]
        database: DatabaseSettings,
    },
    /// Check a JSON document and make it the draft; with --publish, also publish it. A running
    /// server serves a published one within 5 seconds. With --case-study, the file is that
    /// project's case study, checked against the page.
    Import {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        /// The project whose case study the file is, by its id.
        #[arg(long, value_name = "PROJECT")]
        case_study: Option<String>,
        /// Publish it as a new version too.
        #[arg(long)]
        publish: bool,
        #[command(flatten)]
        database: DatabaseSettings,
    },
    /// Fill a new draft of the page from a resume: a JSON Resume file, or the ZIP of a LinkedIn
    /// data export. Prints what it could not place; nothing is published until you publish.
    ImportResume {
        #[arg(value_name = "FILE")]
        file: PathBuf,
        #[command(flatten)]
        database: DatabaseSettings,
    },
}

pub async fn run(command: ContentCommand) -> anyhow::Result<()> {
    match command {
        ContentCommand::Export {
            output,
            case_study: Some(project),
            database,
        } => {
            let db = crate::store::connect(&database.url).await?;
            let published = crate::content::case_study_entry::published(&db, &project).await;
            db.close().await;
            let study = published?.with_context(|| {
                format!("case-study: the project {project:?} has no published case study")
            })?;
            let mut text = serde_json::to_string_pretty(&study)?;
            text.push('\n');
            std::fs::write(&output, text)
                .with_context(|| format!("output: cannot write {}", output.display()))?;
            println!("Wrote the case study of {project} to {}.", output.display());
            Ok(())
        }
        ContentCommand::Export {
            output,
            case_study: None,
            database,
        } => {
            let db = crate::store::connect(&database.url).await?;
            let published = db
                .published_content(EntryKey::PAGE, crate::clock::now_ms())
                .await;
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
            case_study: Some(project),
            publish,
            database,
        } => {
            let bytes = read_file(&file)?;
            let db = crate::store::connect(&database.url).await?;
            let result = import_case_study(&db, &project, &bytes, publish).await;
            db.close().await;
            let version = result.map_err(|error| describe(&file, error))?;
            match version {
                Some(version) => println!(
                    "Published {} as version {version} of the case study of {project} (it is the draft too).",
                    file.display()
                ),
                None => println!(
                    "{} is the draft of the case study of {project} now; publish it from the dashboard or with --publish.",
                    file.display()
                ),
            }
            Ok(())
        }
        ContentCommand::ImportResume { file, database } => import_resume(&file, &database).await,
        ContentCommand::Import {
            file,
            case_study: None,
            publish,
            database,
        } => {
            let bytes = read_file(&file)?;
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

/// The file to import, at most as large as the API takes a document.
fn read_file(file: &std::path::Path) -> anyhow::Result<Vec<u8>> {
    let bytes =
        std::fs::read(file).with_context(|| format!("file: cannot read {}", file.display()))?;
    anyhow::ensure!(
        bytes.len() <= MAX_DOCUMENT_BYTES,
        "file: {} is over {} KB",
        file.display(),
        MAX_DOCUMENT_BYTES / 1024
    );
    Ok(bytes)
}

/// `content import-resume`: the file placed in the draft (else the published document, else the
/// default one) and saved as the draft whatever its revision, as `content import` does; what it
/// could not place printed a line each. A file refused changes nothing.
async fn import_resume(file: &std::path::Path, database: &DatabaseSettings) -> anyhow::Result<()> {
    use crate::content::resume::import::{import as place_resume, MAX_FILE_BYTES};
    let size = std::fs::metadata(file)
        .with_context(|| format!("file: cannot read {}", file.display()))?
        .len();
    anyhow::ensure!(
        size <= MAX_FILE_BYTES as u64,
        "file: {} is over {} MB; nothing was imported",
        file.display(),
        MAX_FILE_BYTES / (1024 * 1024)
    );
    let bytes =
        std::fs::read(file).with_context(|| format!("file: cannot read {}", file.display()))?;
    let db = crate::store::connect(&database.url).await?;
    let result = async {
        let base = draft_or_published(&db).await?;
        let imported = place_resume(&base, &bytes).map_err(|error| {
            anyhow::anyhow!("file: {} {error}; nothing was imported", file.display())
        })?;
        let json = serde_json::to_string(&imported.document)?;
        let (revision, _) = import(&db, &json, false).await?;
        anyhow::Ok((revision, imported.unplaced))
    }
    .await;
    db.close().await;
    let (revision, unplaced) = result?;
    println!(
        "{} filled the draft (revision {revision}); nothing is published until you publish it.",
        file.display()
    );
    if unplaced.is_empty() {
        println!("Everything in it was placed.");
    } else {
        println!("Not placed ({}):", unplaced.len());
        for line in &unplaced {
            println!("  {line}");
        }
    }
    Ok(())
}

/// The page's draft, else its published document, else the default one.
async fn draft_or_published(
    db: &crate::store::Db,
) -> anyhow::Result<crate::content::ContentDocument> {
    let row = match db.content_draft(EntryKey::PAGE).await? {
        Some(row) => Some(row.document),
        None => db
            .published_content(EntryKey::PAGE, crate::clock::now_ms())
            .await?
            .map(|row| row.document),
    };
    Ok(match row {
        Some(document) => crate::content::migrate::read(&document)?,
        None => crate::content::default_document().clone(),
    })
}

/// Makes the case study the draft of `project`'s whatever its revision, checked against the
/// page's draft; with `publish`, checks it against the published page and publishes it. The
/// published version's number, when published.
async fn import_case_study(
    db: &crate::store::Db,
    project: &str,
    bytes: &[u8],
    publish: bool,
) -> Result<Option<i64>, ApiError> {
    use crate::content::case_study_entry as entry;
    let mut study = validate::read_case_study(crate::json::parse(bytes)?)?;
    if study.project != project {
        return Err(ApiError::field(
            "project",
            format!("must be {project:?}, the project named by --case-study"),
        ));
    }
    let now = crate::clock::now_ms();
    if publish {
        let page = match db
            .published_content(EntryKey::PAGE, crate::clock::now_ms())
            .await?
        {
            Some(row) => {
                crate::content::migrate::read(&row.document).map_err(anyhow::Error::from)?
            }
            None => crate::content::default_document().clone(),
        };
        let study = entry::ready_to_publish(db, study, &page).await?;
        let json = serde_json::to_string(&study).map_err(anyhow::Error::from)?;
        let row = db
            .publish_content(entry::key(project), &json, now, KEPT_VERSIONS, true)
            .await?;
        return Ok(Some(row.version));
    }
    let page = match db.content_draft(EntryKey::PAGE).await? {
        Some(row) => crate::content::migrate::read(&row.document).map_err(anyhow::Error::from)?,
        None => match db
            .published_content(EntryKey::PAGE, crate::clock::now_ms())
            .await?
        {
            Some(row) => {
                crate::content::migrate::read(&row.document).map_err(anyhow::Error::from)?
            }
            None => crate::content::default_document().clone(),
        },
    };
    validate::check_case_study(&study, &page).map_err(ApiError::Validation)?;
    if let Some(problem) = entry::slug_problem(db, &study).await? {
        return Err(ApiError::field("slug", problem));
    }
    // The slugs it answers at are the server's, as the API keeps them.
    study.former_slugs = entry::published(db, project)
        .await?
        .map(|p| p.former_slugs)
        .unwrap_or_default();
    let json = serde_json::to_string(&study).map_err(anyhow::Error::from)?;
    loop {
        let current = db
            .content_draft(entry::key(project))
            .await?
            .map_or(0, |d| d.revision);
        if db
            .save_content_draft(entry::key(project), &json, current, now)
            .await?
            .is_some()
        {
            return Ok(None);
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
    let studies = crate::content::case_study_entry::CaseStudies::new();
    renderer.prepare(&document, (&studies, &Default::default()), None).await.context(
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
