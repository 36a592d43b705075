//! `portfolio posts ...`: the writing as Markdown files with YAML front matter, as Hugo, Jekyll
//! and Astro keep it, in and out (see `content::front_matter`). An import checks every file
//! first and writes nothing unless all are good; each problem is named by its file and line.

use std::path::{Path, PathBuf};

use anyhow::Context;
use clap::Subcommand;

use crate::config::DatabaseSettings;
use crate::content::front_matter::{self, FilePost};
use crate::content::post::{self, Post, KIND};
use crate::content::{validate, ContentDocument, KEPT_VERSIONS};
use crate::store::content::{EntryKey, EVERY_VERSION};

#[derive(Debug, Subcommand)]
pub enum PostsCommand {
    /// Read every Markdown file under DIR (`*.md`, `*.markdown`; a page bundle's `index.md` takes
    /// its folder's name) and make each a post: published at its front matter's date unless it is
    /// a draft. Every file is checked first: on any problem, each is printed with its file and
    /// line, and nothing is imported. A post of the same slug is updated. A running server serves
    /// what was published within 5 seconds.
    Import {
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        #[command(flatten)]
        database: DatabaseSettings,
    },
    /// Write every post as `<slug>.md` in DIR (made if missing): its front matter (title, date,
    /// slug, description, tags, draft, language), then its Markdown.
    Export {
        #[arg(value_name = "DIR")]
        dir: PathBuf,
        #[command(flatten)]
        database: DatabaseSettings,
    },
}

pub async fn run(command: PostsCommand) -> anyhow::Result<()> {
    match command {
        PostsCommand::Import { dir, database } => {
            let files = markdown_files(&dir)?;
            let db = crate::store::connect(&database.url).await?;
            let result = import(&db, &dir, files).await;
            db.close().await;
            result
        }
        PostsCommand::Export { dir, database } => {
            let db = crate::store::connect(&database.url).await?;
            let result = export(&db, &dir).await;
            db.close().await;
            result
        }
    }
}

/// The Markdown files under `dir`, sorted, each with the slug its name gives: its stem, without
/// Jekyll's date (`2024-01-15-`), or its folder's for `index.md`; Hugo's `_index.md` (a
/// section's list) is not a post.
fn markdown_files(dir: &Path) -> anyhow::Result<Vec<(PathBuf, String)>> {
    let mut found = Vec::new();
    let mut folders = vec![dir.to_path_buf()];
    while let Some(folder) = folders.pop() {
        let entries = std::fs::read_dir(&folder)
            .with_context(|| format!("DIR: cannot read {}", folder.display()))?;
        for entry in entries {
            let path = entry?.path();
            if path.is_dir() {
                folders.push(path);
                continue;
            }
            let markdown = path.extension().and_then(|e| e.to_str()).is_some_and(|e| {
                e.eq_ignore_ascii_case("md") || e.eq_ignore_ascii_case("markdown")
            });
            let stem = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            if !markdown || stem == "_index" {
                continue;
            }
            let stem = if stem == "index" {
                path.parent()
                    .and_then(|p| p.file_name())
                    .and_then(|n| n.to_str())
                    .unwrap_or_default()
                    .to_owned()
            } else {
                jekyll_stem(stem).to_owned()
            };
            found.push((path, stem));
        }
    }
    found.sort();
    anyhow::ensure!(
        !found.is_empty(),
        "DIR: no Markdown file (*.md) under {}",
        dir.display()
    );
    Ok(found)
}

/// A Jekyll post's name without its date: `2024-01-15-hello` is `hello`.
fn jekyll_stem(stem: &str) -> &str {
    let bytes = stem.as_bytes();
    let dated = bytes.len() > 11
        && bytes[..10].iter().enumerate().all(|(i, b)| {
            if i == 4 || i == 7 {
                *b == b'-'
            } else {
                b.is_ascii_digit()
            }
        })
        && bytes[10] == b'-';
    if dated {
        &stem[11..]
    } else {
        stem
    }
}

/// The page the posts are checked against: the published one, else the default document.
async fn page(db: &crate::store::Db) -> anyhow::Result<ContentDocument> {
    match db
        .published_content(EntryKey::PAGE, crate::clock::now_ms())
        .await?
    {
        Some(row) => crate::content::migrate::read(&row.document)
            .context("the published page is not a valid document"),
        None => Ok(crate::content::default_document().clone()),
    }
}

/// The post a file makes, with the problems its fields have, each at its line.
fn post_of(file: &FilePost, page: &ContentDocument) -> (Post, Vec<(usize, String)>) {
    let mut id = file.slug.clone();
    id.truncate(41);
    let id = id.trim_end_matches('-').to_owned();
    let mut post = post::begun(id, file.title.clone(), page.language.clone());
    post.slug.clone_from(&file.slug);
    post.summary.clone_from(&file.summary);
    post.tags.clone_from(&file.tags);
    post.body.clone_from(&file.body);
    post.date = file.date;
    let mut problems = Vec::new();
    if let Err(problem) = crate::content::article::check(&post.body, |_| false) {
        problems.push((file.body_line + problem.line - 1, problem.message));
    }
    if let Err(errors) = validate::check_post(&post, page) {
        for (field, message) in errors.iter() {
            if field == "body" {
                continue;
            }
            let key = match field.split(['[', '.']).next().unwrap_or_default() {
                "summary" => "description",
                "id" => "slug",
                other => other,
            };
            problems.push((file.line_of(key), format!("{field}: {message}")));
        }
    }
    (post, problems)
}

async fn import(
    db: &crate::store::Db,
    dir: &Path,
    files: Vec<(PathBuf, String)>,
) -> anyhow::Result<()> {
    let page = page(db).await?;
    let mut report = Vec::new();
    let mut posts: Vec<(Post, bool)> = Vec::new();
    let mut notes = Vec::new();
    for (path, stem) in &files {
        let shown = path.strip_prefix(dir).unwrap_or(path).display().to_string();
        let text = match std::fs::read_to_string(path) {
            Ok(text) => text,
            Err(error) => {
                report.push(format!("{shown}: cannot be read as UTF-8 text: {error}"));
                continue;
            }
        };
        let file = match front_matter::read(&text, stem) {
            Ok(file) => file,
            Err(problems) => {
                for problem in problems {
                    report.push(format!("{shown}:{}: {}", problem.line, problem.message));
                }
                continue;
            }
        };
        let (post, problems) = post_of(&file, &page);
        for (line, message) in problems {
            report.push(format!("{shown}:{line}: {message}"));
        }
        if let Some((other, _)) = posts.iter().find(|(p, _)| p.slug == post.slug) {
            report.push(format!(
                "{shown}:{}: the slug {:?} is also {:?}'s: give one of them another `slug`",
                file.line_of("slug"),
                post.slug,
                other.title
            ));
        }
        if !file.left.is_empty() {
            notes.push(format!(
                "{shown}: not imported: {} (a cover is chosen among your uploads in the editor)",
                file.left.join(", ")
            ));
        }
        posts.push((post, file.draft));
    }
    // A slug another post (of another id) has.
    let published = post::read_published(db, EVERY_VERSION).await?;
    for (post, _) in &posts {
        if let Some(problem) = post::slug_problem(post, &published) {
            report.push(format!("{}: slug: {problem}", post.slug));
        }
    }
    if !report.is_empty() {
        for line in &report {
            eprintln!("{line}");
        }
        anyhow::bail!(
            "nothing was imported: {} problem(s) in {}",
            report.len(),
            dir.display()
        );
    }
    let now = crate::clock::now_ms();
    let (mut published_count, mut drafts) = (0, 0);
    for (mut post, draft) in posts {
        let key = post::key(&post.id);
        let before = post::published(db, &post.id).await?;
        post.former_slugs = post::former_slugs(before.as_ref(), &post.slug);
        post.date = before.as_ref().and_then(|p| p.date).or(post.date);
        if draft {
            let revision = db.content_draft(key).await?.map_or(0, |row| row.revision);
            let json = serde_json::to_string(&post)?;
            db.save_content_draft(key, &json, revision, now)
                .await?
                .with_context(|| format!("{}: the draft changed while importing", post.slug))?;
            drafts += 1;
        } else {
            post.date = post.date.or(Some(now));
            let json = serde_json::to_string(&post)?;
            db.publish_content(key, &json, now, KEPT_VERSIONS, true)
                .await?;
            published_count += 1;
        }
    }
    for note in notes {
        println!("{note}");
    }
    println!(
        "Imported {} post(s) from {}: {published_count} published, {drafts} draft(s). A running \
         server serves what was published within 5 seconds.",
        published_count + drafts,
        dir.display()
    );
    Ok(())
}

async fn export(db: &crate::store::Db, dir: &Path) -> anyhow::Result<()> {
    std::fs::create_dir_all(dir).with_context(|| format!("DIR: cannot make {}", dir.display()))?;
    let mut written = 0;
    for entry in db.content_entries(KIND).await? {
        let (post, draft) = match post::published(db, &entry.entry).await? {
            Some(mut post) => {
                let withdrawn = std::mem::take(&mut post.withdrawn);
                (post, withdrawn)
            }
            None => match db.content_draft(post::key(&entry.entry)).await? {
                Some(row) => (serde_json::from_str::<Post>(&row.document)?, true),
                None => continue,
            },
        };
        let file = dir.join(format!("{}.md", post.slug));
        std::fs::write(&file, front_matter::write(&post, draft))
            .with_context(|| format!("DIR: cannot write {}", file.display()))?;
        written += 1;
    }
    println!("Wrote {written} post(s) to {}.", dir.display());
    Ok(())
}
