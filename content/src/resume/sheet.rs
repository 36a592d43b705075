//! What a resume says, in one language: the published document's texts resolved for that
//! language, with the owner's (or an application link's) choice of sections, projects and jobs
//! applied. The PDF, the plain text and the JSON Resume are each written from one `Sheet`, so they
//! never say different things.

pub use crate::document::SectionKind;
use crate::document::{ContentDocument, TimelineEntry};
use crate::language;

/// Which sections, projects and jobs a resume shows, in which order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Choice {
    /// The sections, in order; empty for all, in [`SectionKind::ALL`]'s order.
    pub sections: Vec<SectionKind>,
    /// The projects by id, in order; `None` for all of them in the page's order.
    pub projects: Option<Vec<String>>,
    /// The jobs by their place in `experience` (0 the first), in order; `None` for all.
    pub jobs: Option<Vec<usize>>,
}

/// A resume's texts in one language.
#[derive(Debug, Clone, PartialEq)]
pub struct Sheet {
    /// The BCP 47 tag of its language.
    pub language: String,
    /// Written right to left (Arabic, Hebrew …).
    pub rtl: bool,
    pub name: String,
    pub role: String,
    pub email: String,
    /// The phone number as shown (`+91 90000 00000`) and as dialled (`+919000000000`).
    pub phone: String,
    pub phone_dial: String,
    /// Where the owner is, as shown.
    pub location: String,
    /// The address of the page in this language (`https://example.dev/de/`).
    pub site: String,
    /// The owner's profiles elsewhere, in the page's order.
    pub links: Vec<Link>,
    /// The labels of the contact lines, in this language.
    pub labels: Labels,
    /// The sections, in order.
    pub sections: Vec<Section>,
}

/// The fixed words of a resume's header, in its language.
#[derive(Debug, Clone, PartialEq)]
pub struct Labels {
    pub email: String,
    pub phone: String,
    pub location: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Link {
    /// The site's name (`GitHub`).
    pub label: String,
    pub url: String,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Section {
    pub kind: SectionKind,
    /// Its heading, in the resume's language.
    pub title: String,
    pub body: Body,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Body {
    /// Paragraphs (the summary).
    Text(Vec<String>),
    /// Jobs or schools, in order.
    Entries(Vec<Entry>),
    Projects(Vec<ProjectItem>),
    /// The skills' names, in order.
    Names(Vec<String>),
}

/// A job or a school.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The job's title or the degree.
    pub title: String,
    /// The employer or the school, and where.
    pub place: String,
    /// As shown (`2021 - 2023`, `2023 - Present`).
    pub date: String,
    pub description: String,
    /// The awards' titles.
    pub awards: Vec<String>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ProjectItem {
    pub id: String,
    pub title: String,
    pub description: String,
    pub technologies: Vec<String>,
    pub code_url: String,
    pub demo_url: String,
}

impl Sheet {
    /// The resume of `document` (the whole published document) in the language `tag`, as
    /// `choice` picks; `site` is the page's address in that language. `None` for a tag the
    /// document does not have.
    pub fn new(
        document: &ContentDocument,
        tag: &str,
        site: &str,
        choice: &Choice,
    ) -> Option<Sheet> {
        let page = language::localize(document, tag)?;
        let table = language::table(document, tag);
        let english = language::built_in_table("en");
        let label = |key: &str| {
            table
                .get(key)
                .or_else(|| english.and_then(|english| english.get(key)))
                .cloned()
                .unwrap_or_else(|| key.to_owned())
        };
        let kinds: &[SectionKind] = if choice.sections.is_empty() {
            &SectionKind::ALL
        } else {
            &choice.sections
        };
        let mut sections = Vec::new();
        for &kind in kinds {
            if sections
                .iter()
                .any(|section: &Section| section.kind == kind)
            {
                continue;
            }
            let body = match kind {
                SectionKind::Summary => Body::Text(vec![page.profile.intro.clone()]),
                SectionKind::Experience => Body::Entries(match &choice.jobs {
                    None => page.experience.iter().map(entry).collect(),
                    Some(jobs) => jobs
                        .iter()
                        .filter_map(|&index| page.experience.get(index))
                        .map(entry)
                        .collect(),
                }),
                SectionKind::Projects => Body::Projects(match &choice.projects {
                    None => page.projects.iter().map(project).collect(),
                    Some(ids) => ids
                        .iter()
                        .filter_map(|id| page.projects.iter().find(|p| &p.id == id))
                        .map(project)
                        .collect(),
                }),
                SectionKind::Skills => {
                    Body::Names(page.skills.iter().map(|skill| skill.name.clone()).collect())
                }
                SectionKind::Education => Body::Entries(page.education.iter().map(entry).collect()),
            };
            let empty = match &body {
                Body::Text(paragraphs) => paragraphs.iter().all(|p| p.trim().is_empty()),
                Body::Entries(entries) => entries.is_empty(),
                Body::Projects(projects) => projects.is_empty(),
                Body::Names(names) => names.is_empty(),
            };
            if !empty {
                sections.push(Section {
                    kind,
                    title: label(kind.label_key()),
                    body,
                });
            }
        }
        Some(Sheet {
            rtl: language::direction(&page.language) == "rtl",
            language: page.language.clone(),
            name: page.profile.name.clone(),
            role: page.profile.role.clone(),
            email: page.contact.email.clone(),
            phone: page.contact.phone.display.clone(),
            phone_dial: page.contact.phone.dial.clone(),
            location: page.profile.location.display.clone(),
            site: site.to_owned(),
            links: page
                .social
                .iter()
                .map(|link| Link {
                    label: link.label.clone(),
                    url: link.url.clone(),
                })
                .collect(),
            labels: Labels {
                email: label("about.email"),
                phone: label("contact.phone"),
                location: label("contact.location"),
            },
            sections,
        })
    }
}

fn entry(entry: &TimelineEntry) -> Entry {
    Entry {
        title: entry.title.clone(),
        place: entry.place.clone(),
        date: entry.date.clone(),
        description: entry.description.clone(),
        awards: entry
            .awards
            .iter()
            .map(|award| award.title.clone())
            .collect(),
    }
}

fn project(project: &crate::document::Project) -> ProjectItem {
    ProjectItem {
        id: project.id.clone(),
        title: project.title.clone(),
        description: project.description.clone(),
        technologies: project.technologies.clone(),
        code_url: project.code_url.clone(),
        demo_url: project.demo_url.clone(),
    }
}
