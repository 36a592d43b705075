//! Moving in: a resume file fills a new draft of the document. A JSON Resume file, or the ZIP of
//! a LinkedIn data export (told apart by the ZIP's signature), is read into one shape
//! ([`source`]), placed in a copy of the base document ([`place`]), and checked as a draft is
//! before it is saved; what could not be placed is listed, each as a short sentence naming it as
//! the file does and why. Nothing here stores or publishes: the API and `portfolio content
//! import-resume` save the result as the draft, and the owner publishes it.
//!
//! The ZIP is read in memory ([`zip`]), never extracted: the file at most [`MAX_FILE_BYTES`], at
//! most [`MAX_ENTRIES`] entries, each at most [`MAX_ENTRY_BYTES`] and all at most
//! [`MAX_INFLATED_BYTES`] uncompressed, by their headers and again by the bytes inflated.

mod json_resume;
mod linkedin;
mod place;
mod source;
mod zip;

use std::fmt;

use crate::document::ContentDocument;
use crate::domain::FieldErrors;

/// The largest file read, JSON or ZIP.
pub const MAX_FILE_BYTES: usize = 10 * 1024 * 1024;
/// Entries of a ZIP at most, folders counted.
pub const MAX_ENTRIES: usize = 100;
/// Each entry of a ZIP at most, uncompressed.
pub const MAX_ENTRY_BYTES: u64 = 5 * 1024 * 1024;
/// All entries of a ZIP at most, uncompressed.
pub const MAX_INFLATED_BYTES: u64 = 20 * 1024 * 1024;
/// Lines of `unplaced` at most: the rest are counted in a last one.
pub const MAX_UNPLACED: usize = 100;

/// The base document with the file's fields placed, and what could not be placed.
#[derive(Debug, Clone)]
pub struct Imported {
    pub document: ContentDocument,
    /// Each a short sentence: `volunteer[0] (Red Cross): the page has no volunteering`.
    pub unplaced: Vec<String>,
}

/// Why a file was refused: nothing was placed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ImportError {
    /// What is wrong with the file, said of it: `is not valid JSON: …`, `is a ZIP of 101
    /// entries; …`.
    File(String),
    /// The document made from it would not be valid (a bug here: it is never saved).
    Invalid(FieldErrors),
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ImportError::File(problem) => f.write_str(problem),
            ImportError::Invalid(fields) => {
                let fields: Vec<String> = fields
                    .iter()
                    .map(|(path, problem)| format!("{path}: {problem}"))
                    .collect();
                write!(
                    f,
                    "could not be made into a valid draft ({}); nothing was imported",
                    fields.join("; ")
                )
            }
        }
    }
}

impl std::error::Error for ImportError {}

/// Whether `file` is a ZIP, by its first bytes.
pub fn is_zip(file: &[u8]) -> bool {
    zip::looks_like_zip(file)
}

/// Reads `file` (a JSON Resume, or a LinkedIn export's ZIP) and places what it says in a copy
/// of `base`: the imported document passes [`crate::validate::check`], and `unplaced`
/// says what of the file it does not show.
pub fn import(base: &ContentDocument, file: &[u8]) -> Result<Imported, ImportError> {
    if file.len() > MAX_FILE_BYTES {
        return Err(ImportError::File(format!(
            "is over {} MB",
            MAX_FILE_BYTES / (1024 * 1024)
        )));
    }
    let source = if is_zip(file) {
        let limits = zip::Limits {
            entries: MAX_ENTRIES,
            entry_bytes: MAX_ENTRY_BYTES,
            total_bytes: MAX_INFLATED_BYTES,
        };
        let mut archive =
            zip::Archive::open(file, limits).map_err(|e| ImportError::File(e.to_string()))?;
        linkedin::read(&mut archive).map_err(ImportError::File)?
    } else if file.trim_ascii().is_empty() {
        return Err(ImportError::File(
            "is empty: send a JSON Resume or the ZIP of a LinkedIn export".into(),
        ));
    } else {
        json_resume::read(file).map_err(ImportError::File)?
    };
    let (document, mut unplaced) = place::place(base, source);
    crate::validate::check(&document).map_err(ImportError::Invalid)?;
    if unplaced.len() > MAX_UNPLACED {
        let more = unplaced.len() - (MAX_UNPLACED - 1);
        unplaced.truncate(MAX_UNPLACED - 1);
        unplaced.push(format!("… and {more} more not placed"));
    }
    Ok(Imported { document, unplaced })
}

#[cfg(test)]
mod tests {
    use super::source::{fit, read_date, span, Date, Moment};
    use super::zip::write::{zip, File};
    use super::*;
    use crate::document::default_document;

    fn moment(year: u16, month: Option<u8>) -> Moment {
        Moment { year, month }
    }

    fn shown(start: &str, end: &str) -> Option<String> {
        let read = |text: &str| match read_date(text) {
            Date::At(moment) => Some(moment),
            _ => None,
        };
        span(read(start), read(end), "Present")
    }

    #[test]
    fn dates_are_shown_the_pages_way() {
        assert_eq!(
            shown("2021-03-15", "2023-06-30").unwrap(),
            "Mar 2021 - Jun 2023"
        );
        assert_eq!(shown("2021", "2023").unwrap(), "2021 - 2023");
        assert_eq!(shown("2023-01", "").unwrap(), "Jan 2023 - Present");
        assert_eq!(shown("2023", "").unwrap(), "2023 - Present");
        assert_eq!(shown("", "2019").unwrap(), "2019");
        assert_eq!(shown("2019", "2019").unwrap(), "2019");
        assert_eq!(shown("", ""), None);
        // LinkedIn's.
        assert_eq!(
            shown("Mar 2021", "Jun 2023").unwrap(),
            "Mar 2021 - Jun 2023"
        );
        assert_eq!(shown("Sept. 2015", "2019").unwrap(), "Sep 2015 - 2019");
        assert_eq!(shown("March 2021", "").unwrap(), "Mar 2021 - Present");
        assert_eq!(read_date("03/2021"), Date::At(moment(2021, Some(3))));
        assert_eq!(
            read_date("2021-03-15T10:00:00Z"),
            Date::At(moment(2021, Some(3)))
        );
        assert_eq!(read_date("Present"), Date::Ongoing);
        for unreadable in ["soon", "2021-13", "1850", "21", "2021-02-40", "Smarch 2021"] {
            assert_eq!(read_date(unreadable), Date::Unreadable, "{unreadable}");
        }
        // Within the page's 40 characters, whatever is read.
        assert!(
            shown("September 2021", "December 2023")
                .unwrap()
                .chars()
                .count()
                <= 40
        );
    }

    #[test]
    fn a_long_text_is_cut_at_a_sentence_or_a_word_within_its_bound() {
        assert_eq!(fit("Short.", 10), ("Short.".into(), false));
        let text = "I build fast things for people. I also test them well and ship them often.";
        let (cut, was) = fit(text, 40);
        assert!(was);
        assert_eq!(cut, "I build fast things for people.");
        // A sentence that keeps less than half of the room: cut at a word instead.
        let (cut, _) = fit("I build. I also test them well and ship them often.", 40);
        assert_eq!(cut, "I build. I also test them well and ship…");
        let (cut, _) = fit("one two three four five six seven", 16);
        assert_eq!(cut, "one two three…");
        assert!(cut.chars().count() <= 16);
        let (cut, _) = fit(&"x".repeat(50), 10);
        assert_eq!(cut, format!("{}…", "x".repeat(9)));
        // Characters, not bytes.
        let (cut, _) = fit(&"é".repeat(30), 20);
        assert_eq!(cut.chars().count(), 20);
    }

    fn resume() -> serde_json::Value {
        serde_json::json!({
            "basics": {
                "name": "Ada Lovelace",
                "label": "Analytical Engine Programmer",
                "email": "ada@example.com",
                "phone": "+44 20 7946 0000",
                "summary": format!("First paragraph. {}\n\nSecond paragraph.", "Long words here. ".repeat(40)),
                "location": { "city": "London", "countryCode": "GB", "address": "12 St James's Square" },
                "profiles": [{ "network": "GitHub", "username": "ada" }]
            },
            "work": [{
                "name": "Analytical Engines Ltd", "position": "Programmer",
                "startDate": "2019-10", "summary": "x ".repeat(700),
                "highlights": ["Wrote the first program"]
            }],
            "education": [{ "institution": "Home", "area": "Mathematics", "studyType": "Tutoring",
                            "startDate": "2010", "endDate": "2014" }],
            "skills": [{ "name": "Mathematics", "level": "Master", "keywords": ["Rust", "Node.js", "Poetry"] }],
            "projects": [{ "name": "Note G", "url": "https://github.com/ada/note-g", "keywords": ["Rust"] }],
            "volunteer": [{ "organization": "Red Cross" }],
            "interests": [{ "name": "Horses" }]
        })
    }

    #[test]
    fn a_json_resume_fills_the_draft_within_its_bounds_and_names_what_it_cannot_place() {
        let file = serde_json::to_vec(&resume()).unwrap();
        let imported = import(default_document(), &file).expect("imported");
        let document = &imported.document;
        assert_eq!(document.profile.name, "Ada Lovelace");
        assert_eq!(document.profile.role, "Analytical Engine Programmer");
        assert_eq!(document.contact.phone.dial, "+442079460000");
        assert_eq!(document.contact.phone.display, "+44 20 7946 0000");
        assert_eq!(document.profile.location.display, "London, GB");
        assert!(document.profile.summary.chars().count() <= 300);
        assert_eq!(document.about.paragraphs.len(), 2);
        assert_eq!(document.experience.len(), 1);
        assert_eq!(document.experience[0].date, "Oct 2019 - Present");
        assert_eq!(document.experience[0].description.chars().count(), 1000);
        assert_eq!(document.education[0].title, "Tutoring in Mathematics");
        assert_eq!(document.education[0].date, "2010 - 2014");
        let skills: Vec<&str> = document.skills.iter().map(|s| s.name.as_str()).collect();
        assert_eq!(skills, ["Rust", "Node.js", "Poetry"]);
        assert_eq!(document.skills[1].logo, "logo-nodedotjs");
        assert_eq!(document.skills[0].logo, "logo-git");
        assert_eq!(document.projects[0].id, "note-g");
        assert_eq!(
            document.projects[0].code_url,
            "https://github.com/ada/note-g"
        );
        assert_eq!(
            document.projects[0].image,
            default_document().projects[0].image
        );
        assert_eq!(document.social[0].url, "https://github.com/ada");
        let unplaced = imported.unplaced.join("\n");
        for expected in [
            "volunteer[0] (Red Cross): the page has no volunteering",
            "interests[0] (Horses): the page has no interests",
            "work[0].summary and highlights: cut to 1000 characters",
            "basics.summary: cut to 300 characters for the page's summary",
            "skills: levels (Master): not placed",
            "basics.location: address: not placed",
        ] {
            assert!(unplaced.contains(expected), "{expected} in\n{unplaced}");
        }
        crate::validate::check(document).expect("valid");
    }

    #[test]
    fn a_linkedin_export_fills_the_draft() {
        let profile = "First Name,Last Name,Headline,Summary,Geo Location,Birth Date\n\
                       Ada,Lovelace,Programmer,I write programs.,\"London, United Kingdom\",1990-12-10\n";
        let positions = "Company Name,Title,Description,Location,Started On,Finished On\n\
                         Engines Ltd,Programmer,Wrote programs.,London,Mar 2018,\n";
        let recommendations =
            "First Name,Last Name,Text\nCharles,Babbage,Great.\nMary,Somerville,Yes.\n";
        let file = zip(&[
            File::deflated("Profile.csv", profile.as_bytes()),
            File::deflated("Positions.csv", positions.as_bytes()),
            File::deflated("Recommendations_Received.csv", recommendations.as_bytes()),
            File::deflated("Connections.csv", b"First Name\nX\n"),
        ]);
        let imported = import(default_document(), &file).expect("imported");
        assert_eq!(imported.document.profile.name, "Ada Lovelace");
        assert_eq!(
            imported.document.profile.location.display,
            "London, United Kingdom"
        );
        assert_eq!(imported.document.experience[0].date, "Mar 2018 - Present");
        assert_eq!(imported.document.experience[0].place, "Engines Ltd, London");
        // What it does not say stays as the base has it.
        assert_eq!(imported.document.skills, default_document().skills);
        let unplaced = imported.unplaced.join("\n");
        for expected in [
            "Recommendations_Received.csv: 2 recommendations: the page has no recommendations",
            "Profile.csv: Birth Date: not placed",
            "1 other file of the export (Connections.csv): not read",
        ] {
            assert!(unplaced.contains(expected), "{expected} in\n{unplaced}");
        }
    }

    #[test]
    fn a_file_of_many_items_keeps_within_the_pages_counts_and_the_list_within_its_own() {
        let skills: String = (0..200_000)
            .map(|i| format!("Skill {}\n", i % 70))
            .collect();
        let jobs: String = (0..500)
            .map(|i| format!("Company {i},Engineer,Built.,,2020,\n"))
            .collect();
        let file = zip(&[
            File::deflated("Skills.csv", format!("Name\n{skills}").as_bytes()),
            File::deflated(
                "Positions.csv",
                format!("Company Name,Title,Description,Location,Started On,Finished On\n{jobs}")
                    .as_bytes(),
            ),
        ]);
        let imported = import(default_document(), &file).expect("imported");
        assert_eq!(imported.document.skills.len(), 60);
        assert_eq!(imported.document.experience.len(), 30);
        assert_eq!(
            imported.unplaced[0],
            "Positions.csv row 31 and 469 after it (Company 30, Company 31, Company 32, …): \
             not placed: the page shows at most 30 jobs"
        );
        assert!(imported.unplaced[1].starts_with(
            "Skills.csv: 10 more skills (Skill 60, Skill 61, Skill 62, …): not placed"
        ));
        // However many, the list keeps to its own bound.
        let positions: String = (0..500)
            .map(|i| format!("Company {i},Engineer,Built.,,2020,,extra {i}\n"))
            .collect();
        let header = "Company Name,Title,Description,Location,Started On,Finished On,Notes";
        let file = zip(&[File::deflated(
            "Positions.csv",
            format!("{header}\n{positions}").as_bytes(),
        )]);
        let imported = import(default_document(), &file).expect("imported");
        assert_eq!(imported.unplaced.len(), MAX_UNPLACED);
        assert_eq!(imported.unplaced[99], "… and 402 more not placed");
    }

    #[test]
    fn files_that_are_no_resume_are_refused_with_what_is_wrong() {
        let base = default_document();
        let refused = |file: &[u8]| match import(base, file) {
            Err(ImportError::File(problem)) => problem,
            other => panic!("refused, not {other:?}"),
        };
        assert!(refused(b"{\"basics\": ").starts_with("is not valid JSON"));
        assert!(refused(b"[1, 2]").contains("not a JSON Resume"));
        assert!(refused(b"{\"hello\": 1}").contains("none of basics"));
        assert!(refused(crate::document::DEFAULT_DOCUMENT_JSON.as_bytes())
            .contains("portfolio content import"));
        assert!(refused(b"  ").starts_with("is empty"));
        let other = zip(&[File::deflated("notes.txt", b"hello")]);
        assert!(refused(&other).contains("not a LinkedIn data export"));
        assert!(refused(&vec![b' '; MAX_FILE_BYTES + 1]).contains("over 10 MB"));
    }

    #[test]
    fn other_languages_keep_their_translations_and_are_told_what_no_longer_matches() {
        let base = crate::language::with_language("de", true);
        let job = |name: &str| {
            serde_json::json!({ "name": name, "position": "Engineer", "startDate": "2020",
                                "summary": "Builds things." })
        };
        let file = serde_json::json!({ "basics": { "label": "Engineer" }, "work": [job("Acme")] });
        let imported = import(&base, &serde_json::to_vec(&file).unwrap()).expect("imported");
        let german = &imported.document.languages[0];
        // The second job is gone, and its translations with it; the first's are kept, stale.
        assert!(german
            .texts
            .keys()
            .all(|path| !path.starts_with("experience[1]")));
        assert_eq!(
            german.texts["experience[0].title"],
            base.languages[0].texts["experience[0].title"]
        );
        assert!(german.published, "every text it has is still translated");
        let unplaced = imported.unplaced.join("\n");
        assert!(
            unplaced.contains("languages[0] (de): ")
                && unplaced.contains("of replaced texts no longer match")
                && unplaced.contains("of texts the import removed were dropped"),
            "{unplaced}"
        );

        // More jobs than the translations know: the language waits in this draft.
        let file = serde_json::json!({ "work": [job("Acme"), job("Globex"), job("Initech")] });
        let imported = import(&base, &serde_json::to_vec(&file).unwrap()).expect("imported");
        assert!(!imported.document.languages[0].published);
        assert!(
            imported.unplaced.iter().any(|line| line.starts_with(
                "languages[0] (de): unpublished in this draft until its 4 new texts are translated"
            )),
            "{:?}",
            imported.unplaced
        );
    }

    #[test]
    fn the_pages_own_resume_comes_back_as_it_was() {
        // The JSON Resume the site serves, imported over the document it was made from.
        use super::super::sheet::{Choice, Sheet};
        let base = default_document();
        let every = Choice {
            sections: Vec::new(),
            projects: None,
            jobs: None,
        };
        let sheet = Sheet::new(base, "en", "https://example.dev/", &every).expect("a sheet");
        let json = super::super::json::json_resume(&sheet, None).to_string();
        let imported = import(base, json.as_bytes()).expect("imported");
        let document = &imported.document;
        assert_eq!(document.experience, base.experience);
        assert_eq!(document.education, base.education);
        assert_eq!(document.skills, base.skills);
        assert_eq!(document.projects, base.projects);
        assert_eq!(document.profile.name, base.profile.name);
    }
}
