//! The resume, made from the published document: a tagged PDF, a JSON Resume and plain text,
//! in each published language whose script the embedded fonts cover (another gets the default
//! language's), from one [`Sheet`] each. Made after a publish, off the request path (or at the
//! first request), and kept while what it says is the same.

pub mod import;
mod json;
pub mod pdf;
pub mod sheet;
mod text;

use sha2::{Digest, Sha256};

use super::appearance::{parse_hex, DEFAULT_ACCENT};
use super::document::{ContentDocument, PaperSize};
pub use pdf::{Options, Paper, Rendered};
pub use sheet::{Choice, SectionKind, Sheet};

/// Where the resume's files are served under a page's path (`/resume.pdf`, `/de/resume.json`).
pub const PDF_FILE: &str = "resume.pdf";
pub const JSON_FILE: &str = "resume.json";
pub const TEXT_FILE: &str = "resume.txt";

/// The owner's choice of sections, projects and jobs, from the document.
pub fn choice(document: &ContentDocument) -> Choice {
    let resume = &document.resume;
    Choice {
        sections: resume.sections.clone(),
        projects: resume.projects.clone(),
        jobs: resume
            .jobs
            .as_ref()
            .map(|jobs| jobs.iter().map(|&job| usize::from(job)).collect()),
    }
}

/// How the document's resume is set: its paper, its pages and its accent.
pub fn options(document: &ContentDocument) -> Options {
    Options {
        paper: match document.resume.paper {
            PaperSize::A4 => Paper::A4,
            PaperSize::Letter => Paper::Letter,
        },
        pages: usize::from(document.resume.pages.clamp(1, 2)),
        accent: parse_hex(&document.appearance.accent)
            .or_else(|| parse_hex(DEFAULT_ACCENT))
            .unwrap_or([0x25, 0x63, 0xeb]),
    }
}

/// Whether the embedded fonts can set every text of `sheet`.
pub fn can_set(sheet: &Sheet) -> bool {
    use super::glyphs::{draws, BOLD, REGULAR};
    let mut regular = vec![
        sheet.role.as_str(),
        sheet.email.as_str(),
        sheet.phone.as_str(),
        sheet.location.as_str(),
    ];
    let mut bold = vec![sheet.name.as_str()];
    for section in &sheet.sections {
        bold.push(&section.title);
        match &section.body {
            sheet::Body::Text(paragraphs) => regular.extend(paragraphs.iter().map(String::as_str)),
            sheet::Body::Names(names) => regular.extend(names.iter().map(String::as_str)),
            sheet::Body::Entries(entries) => {
                for entry in entries {
                    bold.push(&entry.title);
                    regular.extend([entry.place.as_str(), &entry.date, &entry.description]);
                    regular.extend(entry.awards.iter().map(String::as_str));
                }
            }
            sheet::Body::Projects(projects) => {
                for project in projects {
                    bold.push(&project.title);
                    regular.push(&project.description);
                    regular.extend(project.technologies.iter().map(String::as_str));
                }
            }
        }
    }
    regular.iter().all(|text| draws(REGULAR, text)) && bold.iter().all(|text| draws(BOLD, text))
}

/// A resume to make: what it says and how it is set. Its `sheet.site` is the page's path (`/`,
/// `/de/`), the public URL put before it when it is made.
#[derive(Debug)]
pub struct Draft {
    sheet: Sheet,
    options: Options,
    /// When the document was published (RFC 3339), for the JSON Resume's `meta.lastModified`.
    modified: Option<String>,
    key: [u8; 32],
}

/// A resume's three files.
pub struct Made {
    /// The tag of the language it is in.
    pub language: String,
    pub pdf: Rendered,
    pub json: String,
    pub text: String,
}

impl Draft {
    pub fn new(sheet: Sheet, options: Options, modified: Option<String>) -> Self {
        let mut hash = Sha256::new();
        hash.update(format!("{sheet:?}{options:?}{modified:?}"));
        Draft {
            key: hash.finalize().into(),
            sheet,
            options,
            modified,
        }
    }

    /// The resume of `document`'s page in `tag` with `choice`, published at `published_at` (Unix
    /// ms; `None` for a draft): in the default language's texts when the embedded fonts cannot
    /// set that language's. `None` for a tag the document does not have.
    pub fn of(
        document: &ContentDocument,
        tag: &str,
        choice: &Choice,
        published_at: Option<i64>,
    ) -> Option<Self> {
        let path = super::language::href(document, tag);
        let mut sheet = Sheet::new(document, tag, &path, choice)?;
        if !can_set(&sheet) {
            match Sheet::new(document, &document.language, &path, choice) {
                Some(default) if can_set(&default) => sheet = default,
                _ => tracing::warn!(language = %tag, "the resume's fonts cannot set its texts"),
            }
        }
        let modified = published_at
            .and_then(chrono::DateTime::from_timestamp_millis)
            .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
        Some(Draft::new(sheet, options(document), modified))
    }

    /// What the resume is made from: two drafts with the same key make the same files.
    pub fn key(&self) -> [u8; 32] {
        self.key
    }

    /// Its language's tag.
    pub fn language(&self) -> &str {
        &self.sheet.language
    }

    /// The files, for a site at `base` (`https://example.dev`, no trailing slash).
    pub fn make(&self, base: &str) -> anyhow::Result<Made> {
        let mut sheet = self.sheet.clone();
        sheet.site = format!("{base}{}", sheet.site);
        make(&sheet, &self.options, self.modified.as_deref())
    }
}

/// The resume of each published language by its page's path (`/`, `/de/`), as the document
/// chooses.
pub fn drafts(document: &ContentDocument, published_at: Option<i64>) -> Vec<(String, Draft)> {
    let choice = choice(document);
    super::language::published_tags(document)
        .into_iter()
        .filter_map(|tag| {
            let draft = Draft::of(document, &tag, &choice, published_at)?;
            Some((super::language::href(document, &tag), draft))
        })
        .collect()
}

/// The three files of `sheet`.
pub fn make(sheet: &Sheet, options: &Options, modified: Option<&str>) -> anyhow::Result<Made> {
    let started = std::time::Instant::now();
    let pdf = pdf::render(sheet, options)?;
    tracing::info!(
        language = %sheet.language,
        pages = pdf.pages,
        bytes = pdf.pdf.len(),
        left_out = pdf.left_out.len(),
        ms = started.elapsed().as_millis() as u64,
        "made the resume"
    );
    let mut json = serde_json::to_string_pretty(&json::json_resume(sheet, modified))?;
    json.push('\n');
    Ok(Made {
        language: sheet.language.clone(),
        pdf,
        json,
        text: text::plain_text(sheet),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::default_document;

    fn made(document: &ContentDocument, tag: &str) -> Made {
        let sheet = Sheet::new(document, tag, "https://example.dev/", &choice(document))
            .expect("the language");
        make(&sheet, &options(document), Some("2026-12-01T10:00:00Z")).expect("made")
    }

    #[test]
    fn the_default_document_makes_a_resume() {
        let made = made(default_document(), "en");
        if let Ok(dir) = std::env::var("RESUME_OUT") {
            std::fs::write(format!("{dir}/en.pdf"), &made.pdf.pdf).unwrap();
        }
        assert_eq!(made.pdf.left_out, Vec::<String>::new());
        assert!(made.pdf.pdf.starts_with(b"%PDF-"));
    }

    /// The default document with Arabic published: a few texts translated, the rest as in
    /// English.
    pub fn with_arabic() -> ContentDocument {
        let mut document = default_document().clone();
        let texts = [
            ("profile.role", "مطوّر ويب متكامل"),
            ("profile.intro", "أبني تطبيقات ويب سريعة وسهلة الوصول من البداية إلى النهاية باستخدام React و Node.js، وأهتم بشيفرة نظيفة ومختبرة."),
            ("profile.location.display", "أندرا براديش، الهند"),
            ("experience[0].title", "محلل"),
            ("experience[0].place", "شركة خدمات تقنية عالمية، حيدر آباد"),
            ("experience[0].date", "2023 - الآن"),
            ("experience[0].description", "أبني وأصون مكوّنات React لمواقع المؤسسات، وأحسّن سرعة الصفحات وإمكانية الوصول إليها."),
        ];
        document.languages.push(crate::document::Language {
            tag: "ar".to_owned(),
            published: true,
            texts: texts
                .iter()
                .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
                .collect(),
            strings: Default::default(),
            same: Default::default(),
        });
        document
    }

    #[test]
    fn an_arabic_resume_is_set_right_to_left() {
        let made = made(&with_arabic(), "ar");
        if let Ok(dir) = std::env::var("RESUME_OUT") {
            std::fs::write(format!("{dir}/ar.pdf"), &made.pdf.pdf).unwrap();
        }
        assert!(made.text.contains("محلل"));
    }
}
