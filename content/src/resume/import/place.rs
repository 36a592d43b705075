//! A [`Source`] placed in a copy of the base document: each text within its field's bound (cut
//! at a sentence's end or a word, and noted), each list the file gives replacing the base's
//! (social links are merged by their id instead, as clicks are counted by it), an item the base
//! has already (the same job, school or project) keeping what the file cannot say (its awards,
//! its picture, its id), and every image a new item needs borrowed from the base, and noted:
//!
//! - a skill with no logo of its own shows the base's `logo-generic` when the owner has one,
//!   else the placeholder's Git logo (`logo-git`: an abstract mark, not a product's name, that
//!   reads as "a tool of the trade" beside any skill), else the base's first skill's logo;
//! - a new project shows the base's first project's screenshot;
//! - a new award opens the certificate of the base's award of the same title, else the base's
//!   first certificate (an award is only placed when the base has one).
//!
//! The other languages keep their translations: those of texts that are gone are dropped (the
//! document allows no others), those of replaced texts are kept but no longer match, and a
//! published language that now lacks some is unpublished in this draft; all of it noted.

use std::collections::{BTreeMap, BTreeSet};

use super::source::{
    fit, icon_slug, named, one_line, paragraphs, read_date, same_name, sentence, slug, span, Date,
    Entry, Link, ProjectItem, Source, Text,
};
use crate::document::{Award, ContentDocument, Project, Skill, SocialLink, Stack, TimelineEntry};

/// What the page holds at most (the document's bounds, `document.rs`).
const NAME: usize = 100;
const ROLE: usize = 100;
const SUMMARY: usize = 300;
const INTRO: usize = 600;
const PARAGRAPH: usize = 1500;
const PARAGRAPHS: usize = 6;
const LOCATION: usize = 100;
const MAPS_QUERY: usize = 200;
const PHONE: usize = 40;
const SOCIAL: usize = 10;
const SOCIAL_LABEL: usize = 40;
const URL: usize = 500;
const SKILLS: usize = 60;
const SKILL: usize = 40;
const PROJECTS: usize = 30;
const PROJECT_TITLE: usize = 100;
const PROJECT_TEXT: usize = 600;
const TECHNOLOGIES: usize = 12;
const ENTRIES: usize = 30;
const ENTRY_LINE: usize = 120;
const ENTRY_TEXT: usize = 1000;
const AWARDS: usize = 10;
const AWARD: usize = 100;

/// The base document with `source` placed in it, and what could not be placed.
pub fn place(base: &ContentDocument, source: Source) -> (ContentDocument, Vec<String>) {
    let mut placing = Placing {
        base,
        doc: base.clone(),
        notes: source.notes.clone(),
        ongoing: ongoing_word(base),
    };
    placing.profile(&source);
    placing.social(&source.links);
    if !source.jobs.is_empty() {
        placing.doc.experience = placing.entries(&source.jobs, Kind::Job);
        if placing.doc.resume.jobs.take().is_some() {
            placing.notes.push(
                "resume.jobs: the resume's choice of jobs named the jobs the import replaced: \
                 it shows every job again until you choose"
                    .into(),
            );
        }
    }
    if !source.schools.is_empty() {
        placing.doc.education = placing.entries(&source.schools, Kind::School);
    }
    placing.awards(&source);
    if !source.skills.is_empty() {
        placing.skills(&source.skills, &source.skills_from);
    }
    if !source.projects.is_empty() {
        placing.projects(&source.projects, &source.projects_from);
    }
    placing.languages();
    (placing.doc, placing.notes)
}

struct Placing<'a> {
    base: &'a ContentDocument,
    doc: ContentDocument,
    notes: Vec<String>,
    /// The word after the start of what goes on (`2023 - Present`).
    ongoing: String,
}

/// The word the base's dates use for what goes on (`Present`, `heute`), else `Present`.
fn ongoing_word(base: &ContentDocument) -> String {
    base.experience
        .iter()
        .chain(&base.education)
        .filter_map(|entry| entry.date.rsplit_once(" - "))
        .map(|(_, end)| end.trim())
        .find(|end| {
            !end.is_empty() && end.chars().count() <= 20 && !end.chars().any(|c| c.is_ascii_digit())
        })
        .unwrap_or("Present")
        .to_owned()
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Job,
    School,
}

impl Placing<'_> {
    /// `text` on one line within `most` characters; a cut noted as `<from>: cut to <most>
    /// characters<why>`.
    fn fitted(&mut self, text: &Text, most: usize, why: &str) -> String {
        let (value, cut) = fit(&one_line(&text.value), most);
        if cut {
            self.notes
                .push(format!("{}: cut to {most} characters{why}", text.from));
        }
        value
    }

    fn profile(&mut self, source: &Source) {
        if let Some(name) = &source.name {
            self.doc.profile.name = self.fitted(name, NAME, "");
        }
        if let Some(role) = &source.role {
            self.doc.profile.role = self.fitted(role, ROLE, "");
        }
        if let Some(summary) = &source.summary {
            self.summary(summary);
        }
        if let Some(email) = &source.email {
            let address = one_line(&email.value);
            if crate::domain::EmailAddress::parse(&address).is_ok() && address.len() <= 254 {
                self.doc.contact.email = address;
            } else {
                self.notes.push(format!(
                    "{} ({address}): not an e-mail address: not placed",
                    email.from
                ));
            }
        }
        if let Some(phone) = &source.phone {
            match dial(&phone.value) {
                Some(dial) => {
                    self.doc.contact.phone.display = self.fitted(phone, PHONE, "");
                    self.doc.contact.phone.dial = dial;
                }
                None => self.notes.push(format!(
                    "{} ({}): not a phone number: not placed",
                    phone.from,
                    one_line(&phone.value)
                )),
            }
        }
        if let Some(location) = &source.location {
            let display = Text::new(location.display.clone(), location.from.clone());
            self.doc.profile.location.display = self.fitted(&display, LOCATION, "");
            let maps = Text::new(location.maps.clone(), location.from.clone());
            self.doc.profile.location.maps_query = self.fitted(&maps, MAPS_QUERY, "");
        }
    }

    /// The summary: the about section's paragraphs (six at most, the rest joined to the sixth),
    /// the page's summary and the hero's introduction (each its first sentences that fit).
    fn summary(&mut self, summary: &Text) {
        let mut parts = paragraphs(&summary.value);
        if parts.is_empty() {
            return;
        }
        if parts.len() > PARAGRAPHS {
            let rest = parts.split_off(PARAGRAPHS - 1).join(" ");
            parts.push(rest);
        }
        let mut whole = true;
        let mut about = Vec::new();
        for (i, part) in parts.iter().enumerate() {
            let (text, cut) = fit(part, PARAGRAPH);
            if cut {
                whole = false;
                self.notes.push(format!(
                    "{}: paragraph {} cut to {PARAGRAPH} characters for the about section",
                    summary.from,
                    i + 1
                ));
            }
            about.push(text);
        }
        self.doc.about.paragraphs = about;
        let all = parts.join(" ");
        let whole = if whole {
            " (the about section shows it whole)"
        } else {
            ""
        };
        for (field, most, what) in [
            (Field::Summary, SUMMARY, "the page's summary"),
            (Field::Intro, INTRO, "the hero's introduction"),
        ] {
            let (text, cut) = fit(&all, most);
            if cut {
                self.notes.push(format!(
                    "{}: cut to {most} characters for {what}{whole}",
                    summary.from
                ));
            }
            match field {
                Field::Summary => self.doc.profile.summary = text,
                Field::Intro => self.doc.profile.intro = text,
            }
        }
    }

    /// Each profile merged into the social links by id: one the base has (the same id, or the
    /// same site) keeps its id and takes the file's address.
    fn social(&mut self, links: &[Link]) {
        for link in links {
            let Some(url) = link_url(link) else {
                let what = if link.url.is_some() {
                    "not an http or https address of at most 500 characters"
                } else {
                    "no address"
                };
                self.notes.push(format!(
                    "{}: {what}: not placed",
                    named(&link.from, &link.network)
                ));
                continue;
            };
            let host = host_of(&url);
            let label = if link.network.trim().is_empty() {
                host.clone()
            } else {
                one_line(&link.network)
            };
            let label = fit(&label, SOCIAL_LABEL).0;
            let wanted = match slug(&link.network) {
                id if id.is_empty() => slug(&host),
                id => id,
            };
            let known = self.doc.social.iter().position(|s| {
                s.id == wanted || (!host.is_empty() && same_site(&host_of(&s.url), &host))
            });
            match known {
                Some(i) => {
                    self.doc.social[i].url = url;
                    if self
                        .base
                        .social
                        .iter()
                        .all(|s| s.id != self.doc.social[i].id)
                    {
                        self.doc.social[i].label = label;
                    }
                }
                None if self.doc.social.len() >= SOCIAL => self.notes.push(format!(
                    "{}: not placed: the page shows at most {SOCIAL} social links",
                    named(&link.from, &label)
                )),
                None => {
                    let taken: BTreeSet<String> =
                        self.doc.social.iter().map(|s| s.id.clone()).collect();
                    let id = unique_id(if wanted.is_empty() { "link" } else { &wanted }, &taken);
                    self.doc.social.push(SocialLink { id, label, url });
                }
            }
        }
    }

    /// The jobs or schools of the file, in its order, each with its dates as the page shows them.
    fn entries(&mut self, list: &[Entry], kind: Kind) -> Vec<TimelineEntry> {
        let base = match kind {
            Kind::Job => &self.base.experience,
            Kind::School => &self.base.education,
        };
        let mut placed = Vec::new();
        let mut over: Vec<&Entry> = Vec::new();
        for entry in list {
            if placed.len() == ENTRIES {
                over.push(entry);
            } else if let Some(timeline) = self.entry(entry, kind, base) {
                placed.push(timeline);
            }
        }
        if let Some(first) = over.first() {
            let labels: Vec<String> = over.iter().map(|e| e.label()).collect();
            self.notes.push(format!(
                "{}: not placed: the page shows at most {ENTRIES} {}",
                beyond(&first.from, &labels),
                if kind == Kind::Job { "jobs" } else { "schools" }
            ));
        }
        placed
    }

    fn entry(
        &mut self,
        entry: &Entry,
        kind: Kind,
        base: &[TimelineEntry],
    ) -> Option<TimelineEntry> {
        let label = entry.label();
        let (Some(place), title) = (&entry.place, &entry.title) else {
            let missing = if kind == Kind::Job {
                "no company"
            } else {
                "no school"
            };
            self.notes.push(format!(
                "{}: {missing}: not placed",
                named(&entry.from, &label)
            ));
            return None;
        };
        let title = match (title, kind) {
            (Some(title), _) => self.fitted(title, ENTRY_LINE, ""),
            (None, Kind::School) => {
                self.notes.push(format!(
                    "{}: no degree: shown as “Studies” until you name it",
                    named(&entry.from, &label)
                ));
                "Studies".to_owned()
            }
            (None, Kind::Job) => {
                self.notes.push(format!(
                    "{}: no position: not placed",
                    named(&entry.from, &label)
                ));
                return None;
            }
        };
        let mut where_ = one_line(&place.value);
        if let Some(location) = &entry.location {
            if !where_.to_lowercase().contains(&location.to_lowercase()) {
                where_ = format!("{where_}, {location}");
            }
        }
        let place = self.fitted(&Text::new(where_, place.from.clone()), ENTRY_LINE, "");
        let known = base
            .iter()
            .find(|b| same_name(&b.title, &title) && same_name(&b.place, &place));
        let Some(date) = self.dates(entry).or_else(|| known.map(|b| b.date.clone())) else {
            self.notes.push(format!(
                "{}: no dates: not placed: the page shows when each {} was",
                named(&entry.from, &label),
                if kind == Kind::Job { "job" } else { "school" }
            ));
            return None;
        };
        let awards = known.map(|b| b.awards.clone()).unwrap_or_default();
        let mut parts: Vec<String> = entry
            .description
            .iter()
            .map(|d| one_line(&d.value))
            .collect();
        parts.extend(
            entry
                .highlights
                .iter()
                .map(|h| one_line(&h.value))
                .filter(|h| !awards.iter().any(|a| same_name(&a.title, h)))
                .map(|h| sentence(&h)),
        );
        let from = match (&entry.description, entry.highlights.is_empty()) {
            (Some(d), true) => d.from.clone(),
            (None, true) => entry.from.clone(),
            _ => format!("{}.summary and highlights", entry.from),
        };
        let description = if parts.is_empty() {
            match known {
                Some(b) => b.description.clone(),
                None => {
                    let said = match kind {
                        Kind::Job => format!("{title} at {}.", one_line(&place)),
                        Kind::School => format!("{title}, {}.", one_line(&place)),
                    };
                    let said = fit(&said, ENTRY_TEXT).0;
                    self.notes.push(format!(
                        "{}: no description: it says “{said}” until you write one",
                        named(&entry.from, &label)
                    ));
                    said
                }
            }
        } else {
            self.fitted(&Text::new(parts.join(" "), from), ENTRY_TEXT, "")
        };
        Some(TimelineEntry {
            title,
            place,
            date,
            description,
            awards,
        })
    }

    /// The entry's dates as the page shows them; a date that does not read as one noted.
    fn dates(&mut self, entry: &Entry) -> Option<String> {
        let mut read = |date: &Option<Text>| match date.as_ref().map(|d| (d, read_date(&d.value))) {
            Some((_, Date::At(moment))) => Some(moment),
            Some((text, Date::Unreadable)) => {
                self.notes.push(format!(
                    "{} ({}): not a date: left out",
                    text.from,
                    one_line(&text.value)
                ));
                None
            }
            Some((_, Date::Ongoing)) | None => None,
        };
        let start = read(&entry.start);
        let end = read(&entry.end);
        span(start, end, &self.ongoing)
    }

    /// Each award under the school, else the job, that gave it, opening a certificate the base
    /// has.
    fn awards(&mut self, source: &Source) {
        for award in &source.awards {
            let title = one_line(&award.title.value);
            let said = named(&award.from, &title);
            let Some(awarder) = award.awarder.as_deref().map(one_line) else {
                self.notes.push(format!(
                    "{said}: no awarder: not placed: the page shows an award under the school or job that gave it"
                ));
                continue;
            };
            let gave = |entry: &TimelineEntry| {
                let place = entry.place.to_lowercase();
                let awarder = awarder.to_lowercase();
                place.contains(&awarder) || awarder.contains(&place)
            };
            let target = match self.doc.education.iter().position(gave) {
                Some(i) => Some((Kind::School, i)),
                None => self
                    .doc
                    .experience
                    .iter()
                    .position(gave)
                    .map(|i| (Kind::Job, i)),
            };
            let Some((kind, i)) = target else {
                self.notes.push(format!(
                    "{said}: its awarder ({awarder}) is none of the schools or jobs: not placed"
                ));
                continue;
            };
            let awards = match kind {
                Kind::School => &self.doc.education[i].awards,
                Kind::Job => &self.doc.experience[i].awards,
            };
            if awards.iter().any(|a| same_name(&a.title, &title)) {
                continue;
            }
            if awards.len() >= AWARDS {
                self.notes.push(format!(
                    "{said}: not placed: the page shows at most {AWARDS} awards of a school or job"
                ));
                continue;
            }
            let Some(certificate) = self.certificate(&title, &said) else {
                continue;
            };
            let title = self.fitted(&award.title, AWARD, "");
            let award = Award { title, certificate };
            match kind {
                Kind::School => self.doc.education[i].awards.push(award),
                Kind::Job => self.doc.experience[i].awards.push(award),
            }
        }
    }

    /// The certificate an award of `title` opens: the base's award of that title's, else the
    /// base's first one (noted), else none (noted: the award is not placed).
    fn certificate(&mut self, title: &str, said: &str) -> Option<String> {
        let awards: Vec<&Award> = self
            .base
            .education
            .iter()
            .chain(&self.base.experience)
            .flat_map(|entry| &entry.awards)
            .collect();
        if let Some(same) = awards.iter().find(|a| same_name(&a.title, title)) {
            return Some(same.certificate.clone());
        }
        match awards.first() {
            Some(first) => {
                self.notes.push(format!(
                    "{said}: no certificate of its own: it opens {}'s until you upload it",
                    first.title
                ));
                Some(first.certificate.clone())
            }
            None => {
                self.notes.push(format!(
                    "{said}: not placed: the page's awards open their certificate, and the page has none yet"
                ));
                None
            }
        }
    }

    /// The skills, each once, each with its logo (the base's, by its name or its logo's name,
    /// else the generic one, noted once for all).
    fn skills(&mut self, skills: &[Text], from: &str) {
        let generic = generic_logo(self.base);
        let generic_name = self
            .base
            .skills
            .iter()
            .find(|s| s.logo == generic)
            .map_or_else(|| generic.clone(), |s| s.name.clone());
        let mut placed: Vec<Skill> = Vec::new();
        let mut seen = BTreeSet::new();
        let mut borrowed = Vec::new();
        let mut over = Vec::new();
        for skill in skills {
            let name = one_line(&skill.value);
            if !seen.insert(name.to_lowercase()) {
                continue;
            }
            if placed.len() == SKILLS {
                over.push(name);
                continue;
            }
            let name = self.fitted(skill, SKILL, "");
            let logo = match logo_of(self.base, &name) {
                Some(logo) => logo,
                None => {
                    borrowed.push(name.clone());
                    generic.clone()
                }
            };
            placed.push(Skill { name, logo });
        }
        self.doc.skills = placed;
        if !over.is_empty() {
            self.notes.push(format!(
                "{from}: {} more skill{} ({}): not placed: the page shows at most {SKILLS}",
                over.len(),
                if over.len() == 1 { "" } else { "s" },
                listed(&over)
            ));
        }
        if !borrowed.is_empty() {
            self.notes.push(format!(
                "{from}: {} skill{} no logo of {} own ({}): {} {generic_name}'s logo until you upload {}",
                borrowed.len(),
                if borrowed.len() == 1 { " has" } else { "s have" },
                if borrowed.len() == 1 { "its" } else { "their" },
                listed(&borrowed),
                if borrowed.len() == 1 { "it shows" } else { "they show" },
                if borrowed.len() == 1 { "its" } else { "theirs" },
            ));
        }
    }

    /// The projects, each linked to its code or its demo (a code host's address is the code's);
    /// one the base has (by title or id) keeps its id, picture and what the file does not say.
    fn projects(&mut self, projects: &[ProjectItem], from: &str) {
        let mut placed: Vec<Project> = Vec::new();
        let mut borrowed = Vec::new();
        let mut over: Vec<(&str, String)> = Vec::new();
        for item in projects {
            let Some(title_text) = &item.title else {
                self.notes.push(format!(
                    "{}: a project without a name: not placed",
                    item.from
                ));
                continue;
            };
            let label = one_line(&title_text.value);
            if placed.len() == PROJECTS {
                over.push((&item.from, label));
                continue;
            }
            let title = self.fitted(title_text, PROJECT_TITLE, "");
            let known = self
                .base
                .projects
                .iter()
                .find(|p| same_name(&p.title, &title) || p.id == slug(&title));
            let Some((code_url, demo_url)) = self.project_links(item, &label, known) else {
                continue;
            };
            let taken: BTreeSet<String> = placed.iter().map(|p| p.id.clone()).collect();
            let id = match known {
                Some(p) if !taken.contains(&p.id) => p.id.clone(),
                _ => unique_id(
                    &Some(slug(&title))
                        .filter(|s| !s.is_empty())
                        .unwrap_or_else(|| "project".into()),
                    &taken,
                ),
            };
            let description = self.project_description(item, &title, &label, known);
            let technologies = self.technologies(item, known);
            let stack = known.map_or_else(|| guess_stack(&technologies), |p| p.stack);
            let image = match known {
                Some(p) => p.image.clone(),
                None => {
                    borrowed.push(title.clone());
                    default_image(self.base)
                }
            };
            placed.push(Project {
                id,
                title,
                description,
                image,
                code_url,
                demo_url,
                technologies,
                stack,
            });
        }
        self.doc.projects = placed;
        if let Some((first, _)) = over.first() {
            let labels: Vec<String> = over.iter().map(|(_, label)| label.clone()).collect();
            self.notes.push(format!(
                "{}: not placed: the page shows at most {PROJECTS} projects",
                beyond(first, &labels)
            ));
        }
        if !borrowed.is_empty() {
            let shown = self.base.projects.first().map_or_else(
                || "the photo".to_owned(),
                |p| format!("{}'s screenshot", p.title),
            );
            self.notes.push(format!(
                "{from}: {} new project{} no screenshot of {} own ({}): {} {shown} until you upload {}",
                borrowed.len(),
                if borrowed.len() == 1 { " has" } else { "s have" },
                if borrowed.len() == 1 { "its" } else { "their" },
                listed(&borrowed),
                if borrowed.len() == 1 { "it shows" } else { "they show" },
                if borrowed.len() == 1 { "one" } else { "theirs" },
            ));
        }
        if let Some(chosen) = self.doc.resume.projects.as_mut() {
            let before = chosen.len();
            chosen.retain(|id| self.doc.projects.iter().any(|p| &p.id == id));
            if chosen.len() < before {
                self.notes.push(format!(
                    "resume.projects: {} of the projects the resume showed are gone: choose again",
                    before - chosen.len()
                ));
            }
        }
    }

    /// The project's code and demo addresses; `None` (noted) when it has none.
    fn project_links(
        &mut self,
        item: &ProjectItem,
        label: &str,
        known: Option<&Project>,
    ) -> Option<(String, String)> {
        let url = item.url.as_ref().and_then(|url| {
            let link = one_line(&url.value);
            if is_web_link(&link) {
                Some(link)
            } else {
                self.notes.push(format!(
                    "{} ({link}): not an http or https address of at most {URL} characters: not placed",
                    url.from
                ));
                None
            }
        });
        match (url, known) {
            (Some(url), known) if is_code_host(&url) => {
                let demo = known.map_or_else(|| url.clone(), |p| p.demo_url.clone());
                Some((url, demo))
            }
            (Some(url), known) => {
                let code = known.map_or_else(|| url.clone(), |p| p.code_url.clone());
                Some((code, url))
            }
            (None, Some(p)) => Some((p.code_url.clone(), p.demo_url.clone())),
            (None, None) => {
                self.notes.push(format!(
                    "{}: no link: not placed: the page links each project's code or demo; add it in the editor with one",
                    named(&item.from, label)
                ));
                None
            }
        }
    }

    fn project_description(
        &mut self,
        item: &ProjectItem,
        title: &str,
        label: &str,
        known: Option<&Project>,
    ) -> String {
        let mut parts: Vec<String> = item
            .description
            .iter()
            .map(|d| one_line(&d.value))
            .collect();
        parts.extend(
            item.highlights
                .iter()
                .map(|h| sentence(&one_line(&h.value))),
        );
        if parts.is_empty() {
            if let Some(p) = known {
                return p.description.clone();
            }
            let said = sentence(title);
            self.notes.push(format!(
                "{}: no description: it says “{said}” until you write one",
                named(&item.from, label)
            ));
            return said;
        }
        let from = match (&item.description, item.highlights.is_empty()) {
            (Some(d), true) => d.from.clone(),
            _ => format!("{}.description and highlights", item.from),
        };
        self.fitted(&Text::new(parts.join(" "), from), PROJECT_TEXT, "")
    }

    fn technologies(&mut self, item: &ProjectItem, known: Option<&Project>) -> Vec<String> {
        if item.keywords.is_empty() {
            return known.map(|p| p.technologies.clone()).unwrap_or_default();
        }
        let mut technologies: Vec<String> = Vec::new();
        let mut seen = BTreeSet::new();
        let mut over = Vec::new();
        for keyword in &item.keywords {
            let name = one_line(&keyword.value);
            if !seen.insert(name.to_lowercase()) {
                continue;
            }
            if technologies.len() == TECHNOLOGIES {
                over.push(name);
                continue;
            }
            technologies.push(self.fitted(keyword, SKILL, ""));
        }
        if !over.is_empty() {
            self.notes.push(format!(
                "{}.keywords: {} more ({}): not placed: the page shows at most {TECHNOLOGIES} technologies of a project",
                item.from,
                over.len(),
                listed(&over)
            ));
        }
        technologies
    }

    /// The other languages' translations against the imported texts (see the module's comment).
    fn languages(&mut self) {
        let before: BTreeMap<String, String> = text_map(self.base);
        let after: BTreeMap<String, String> = text_map(&self.doc);
        for (i, language) in self.doc.languages.iter_mut().enumerate() {
            let count = language.texts.len() + language.same.len();
            language.texts.retain(|path, _| after.contains_key(path));
            language.same.retain(|path| after.contains_key(path));
            let dropped = count - language.texts.len() - language.same.len();
            let stale = language
                .texts
                .keys()
                .filter(|path| before.get(*path) != after.get(*path))
                .count();
            let said = format!("languages[{i}] ({})", language.tag);
            if stale > 0 || dropped > 0 {
                self.notes.push(format!(
                    "{said}: {stale} translation{} of replaced texts no longer match{}: the imported texts are the default language's; translate them again",
                    if stale == 1 { "" } else { "s" },
                    if dropped > 0 {
                        format!(", and {dropped} of texts the import removed were dropped")
                    } else {
                        String::new()
                    }
                ));
            }
            if language.published {
                let missing = after
                    .iter()
                    .filter(|&(path, text)| {
                        !text.is_empty()
                            && !language.same.contains(path)
                            && language.texts.get(path).is_none_or(|t| t.is_empty())
                    })
                    .count();
                if missing > 0 {
                    language.published = false;
                    self.notes.push(format!(
                        "{said}: unpublished in this draft until its {missing} new text{} translated (the live page keeps it until you publish)",
                        if missing == 1 { " is" } else { "s are" }
                    ));
                }
            }
        }
    }
}

/// Which of the two texts a summary fills besides the about section.
#[derive(Clone, Copy)]
enum Field {
    Summary,
    Intro,
}

/// The document's translatable texts by path.
fn text_map(document: &ContentDocument) -> BTreeMap<String, String> {
    crate::language::text_fields(document)
        .into_iter()
        .map(|(path, text)| (path, text.to_owned()))
        .collect()
}

/// The items past a list's bound, as a note names them: `work[30] (Acme)`, or `work[30] and 4
/// after it (Acme, Globex, Initech, …)`.
fn beyond(first: &str, labels: &[String]) -> String {
    match labels {
        [one] => named(first, one),
        _ => format!(
            "{first} and {} after it ({})",
            labels.len() - 1,
            listed(labels)
        ),
    }
}

/// `names` as a note lists them: the first three, then `…`.
fn listed(names: &[String]) -> String {
    let mut shown: Vec<&str> = names.iter().take(3).map(String::as_str).collect();
    if names.len() > 3 {
        shown.push("…");
    }
    shown.join(", ")
}

/// `wanted`, or `wanted-2`, `wanted-3` … when taken; within the id's 41 characters.
fn unique_id(wanted: &str, taken: &BTreeSet<String>) -> String {
    if !taken.contains(wanted) {
        return wanted.to_owned();
    }
    (2..)
        .map(|n| {
            let suffix = format!("-{n}");
            let stem: String = wanted.chars().take(41 - suffix.len()).collect();
            format!("{}{suffix}", stem.trim_end_matches('-'))
        })
        .find(|id| !taken.contains(id))
        .expect("a free id")
}

/// How a phone number is dialled: a leading `+` (or `00`) and its digits, an extension left out;
/// `None` unless 3 to 20 digits.
fn dial(phone: &str) -> Option<String> {
    let phone = phone.trim();
    let main = phone
        .to_lowercase()
        .split(['x', ';', ','])
        .next()
        .unwrap_or_default()
        .split("ext")
        .next()
        .unwrap_or_default()
        .to_owned();
    let digits: String = main.chars().filter(char::is_ascii_digit).collect();
    let (plus, digits) = if main.trim_start().starts_with('+') {
        (true, digits)
    } else if let Some(rest) = digits.strip_prefix("00") {
        (true, rest.to_owned())
    } else {
        (false, digits)
    };
    (3..=20)
        .contains(&digits.len())
        .then(|| format!("{}{digits}", if plus { "+" } else { "" }))
}

/// The address of a profile: its URL, else one made from its user name on a site whose
/// addresses are known; `None` when neither is an http or https address within bounds.
fn link_url(link: &Link) -> Option<String> {
    if let Some(url) = &link.url {
        return is_web_link(url).then(|| url.clone());
    }
    let user = link.username.as_deref()?.trim().trim_start_matches('@');
    if user.is_empty()
        || !user
            .chars()
            .all(|c| c.is_alphanumeric() || "-_.".contains(c))
    {
        return None;
    }
    let url = match link.network.to_lowercase().as_str() {
        "github" => format!("https://github.com/{user}"),
        "gitlab" => format!("https://gitlab.com/{user}"),
        "linkedin" => format!("https://www.linkedin.com/in/{user}"),
        "x" | "twitter" | "x (twitter)" => format!("https://x.com/{user}"),
        "stack overflow" | "stackoverflow" => return None,
        _ => return None,
    };
    Some(url)
}

fn is_web_link(text: &str) -> bool {
    text.chars().count() <= URL
        && (text.starts_with("https://") || text.starts_with("http://"))
        && crate::validate::is_link(text)
}

/// The host of `url`, without `www.`.
fn host_of(url: &str) -> String {
    url::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .map(|h| h.trim_start_matches("www.").to_owned())
        .unwrap_or_default()
}

/// Whether two hosts are the same site (X answers at its former name too).
fn same_site(a: &str, b: &str) -> bool {
    let name = |h: &str| match h {
        "twitter.com" => "x.com".to_owned(),
        h => h.to_owned(),
    };
    !a.is_empty() && name(a) == name(b)
}

/// Whether the address is on a code host (its code's, rather than a demo's).
fn is_code_host(url: &str) -> bool {
    let host = host_of(url);
    [
        "github.com",
        "gitlab.com",
        "bitbucket.org",
        "codeberg.org",
        "sr.ht",
        "git.sr.ht",
    ]
    .iter()
    .any(|code| host == *code || host.ends_with(&format!(".{code}")))
}

/// The base's logo for a skill of this name: its skill of the same name's, else its logo named
/// as the skill is (`logo-nodedotjs` for `Node.js`; `logo-html5` for `HTML`).
fn logo_of(base: &ContentDocument, name: &str) -> Option<String> {
    if let Some(skill) = base.skills.iter().find(|s| same_name(&s.name, name)) {
        return Some(skill.logo.clone());
    }
    let wanted = icon_slug(name);
    if wanted.is_empty() {
        return None;
    }
    base.media
        .iter()
        .filter_map(|m| Some((m, m.id.strip_prefix("logo-")?)))
        .find(|(_, logo)| {
            *logo == wanted || logo.trim_end_matches(|c: char| c.is_ascii_digit()) == wanted
        })
        .map(|(m, _)| m.id.clone())
}

/// The logo of a skill that has none of its own (see the module's comment); the profile's photo
/// when the base has no logo at all, as every media id must name an item.
fn generic_logo(base: &ContentDocument) -> String {
    let has = |id: &str| base.media.iter().any(|m| m.id == id);
    ["logo-generic", "logo-git"]
        .into_iter()
        .find(|id| has(id))
        .map(str::to_owned)
        .or_else(|| base.skills.first().map(|s| s.logo.clone()))
        .or_else(|| {
            base.media
                .iter()
                .find(|m| m.id.starts_with("logo-"))
                .map(|m| m.id.clone())
        })
        .unwrap_or_else(|| base.profile.photo.clone())
}

/// The picture of a new project: the base's first project's, else any screenshot, else the
/// profile's photo.
fn default_image(base: &ContentDocument) -> String {
    base.projects
        .first()
        .map(|p| p.image.clone())
        .or_else(|| {
            base.media
                .iter()
                .find(|m| m.id.starts_with("project-"))
                .map(|m| m.id.clone())
        })
        .unwrap_or_else(|| base.profile.photo.clone())
}

/// The filter a project shows under, from its technologies: the browser's and the server's make
/// it full-stack, either alone its side; none known: full-stack.
fn guess_stack(technologies: &[String]) -> Stack {
    const FRONT: [&str; 24] = [
        "react",
        "reactjs",
        "react.js",
        "vue",
        "vue.js",
        "angular",
        "svelte",
        "next.js",
        "nuxt",
        "html",
        "html5",
        "css",
        "css3",
        "tailwind",
        "tailwind css",
        "javascript",
        "typescript",
        "sass",
        "bootstrap",
        "jquery",
        "redux",
        "vite",
        "webpack",
        "astro",
    ];
    const BACK: [&str; 34] = [
        "node",
        "node.js",
        "nodejs",
        "express",
        "express.js",
        "django",
        "flask",
        "fastapi",
        "rails",
        "ruby on rails",
        "ruby",
        "spring",
        "spring boot",
        "java",
        "go",
        "golang",
        "rust",
        "php",
        "laravel",
        "postgresql",
        "postgres",
        "mysql",
        "sqlite",
        "mongodb",
        "redis",
        "sql",
        "graphql",
        "docker",
        "kubernetes",
        "python",
        ".net",
        "c#",
        "kotlin",
        "elixir",
    ];
    let has = |names: &[&str]| {
        technologies
            .iter()
            .any(|t| names.contains(&one_line(t).to_lowercase().as_str()))
    };
    match (has(&FRONT), has(&BACK)) {
        (true, false) => Stack::Frontend,
        (false, true) => Stack::Backend,
        _ => Stack::Fullstack,
    }
}
