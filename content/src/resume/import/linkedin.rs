//! The ZIP of a LinkedIn data export read into a [`Source`]: `Profile.csv`, `Positions.csv`,
//! `Education.csv`, `Skills.csv`, `Projects.csv` and `Recommendations_Received.csv` (and, when
//! the export has them, `Email Addresses.csv` and `PhoneNumbers.csv`), found by their names in
//! any folder of the archive, their columns by their headers. Only those entries are inflated;
//! the others are counted and noted. A column the page does not show is noted with its file.

use std::collections::HashMap;

use super::source::{named, one_line, Entry, Link, Location, ProjectItem, Source, Text};
use super::zip::Archive;

const PROFILE: &str = "Profile.csv";
const POSITIONS: &str = "Positions.csv";
const EDUCATION: &str = "Education.csv";
const SKILLS: &str = "Skills.csv";
const PROJECTS: &str = "Projects.csv";
const RECOMMENDATIONS: &str = "Recommendations_Received.csv";
const EMAILS: &str = "Email Addresses.csv";
const PHONES: &str = "PhoneNumbers.csv";

/// The files read, in the order they are.
const READ: [&str; 8] = [
    PROFILE,
    POSITIONS,
    EDUCATION,
    SKILLS,
    PROJECTS,
    RECOMMENDATIONS,
    EMAILS,
    PHONES,
];

/// Reads the export in `archive`; the error says what is wrong with the file.
pub fn read(archive: &mut Archive<'_>) -> Result<Source, String> {
    let mut found: HashMap<&'static str, usize> = HashMap::new();
    let mut others = Vec::new();
    for (index, entry) in archive.entries.iter().enumerate() {
        if entry.is_folder() {
            continue;
        }
        match READ
            .iter()
            .find(|name| name.eq_ignore_ascii_case(entry.file_name()))
        {
            Some(name) if !found.contains_key(name) => {
                found.insert(name, index);
            }
            _ => others.push(entry.file_name().to_owned()),
        }
    }
    if !READ[..5].iter().any(|name| found.contains_key(name)) {
        return Err(format!(
            "is a ZIP but not a LinkedIn data export: it has none of {}",
            READ[..5].join(", ")
        ));
    }
    let mut tables = HashMap::new();
    for name in READ {
        if let Some(&index) = found.get(name) {
            let bytes = archive.read(index).map_err(|error| error.to_string())?;
            tables.insert(name, Table::parse(name, &bytes)?);
        }
    }
    let mut source = Source {
        skills_from: SKILLS.into(),
        projects_from: PROJECTS.into(),
        ..Source::default()
    };
    if let Some(table) = tables.get(PROFILE) {
        read_profile(table, &mut source);
    }
    if let Some(table) = tables.get(EMAILS) {
        read_email(table, &mut source);
    }
    if let Some(table) = tables.get(PHONES) {
        read_phone(table, &mut source);
    }
    for row in tables.get(POSITIONS).map(Table::rows).unwrap_or_default() {
        source.jobs.push(read_position(row, &mut source.notes));
    }
    for row in tables.get(EDUCATION).map(Table::rows).unwrap_or_default() {
        source.schools.push(read_school(row, &mut source.notes));
    }
    for mut row in tables.get(SKILLS).map(Table::rows).unwrap_or_default() {
        if let Some(name) = row.text("Name") {
            source.skills.push(name);
        }
        row.note_rest("", "the page shows a skill's name", &mut source.notes);
    }
    for row in tables.get(PROJECTS).map(Table::rows).unwrap_or_default() {
        source.projects.push(read_project(row, &mut source.notes));
    }
    if let Some(table) = tables.get(RECOMMENDATIONS) {
        let count = table.rows().len();
        if count > 0 {
            source.notes.push(format!(
                "{RECOMMENDATIONS}: {count} recommendation{}: the page has no recommendations",
                if count == 1 { "" } else { "s" }
            ));
        }
    }
    if !others.is_empty() {
        others.sort();
        let shown: Vec<&str> = others.iter().take(3).map(String::as_str).collect();
        let more = if others.len() > 3 { ", …" } else { "" };
        source.notes.push(format!(
            "{} other file{} of the export ({}{more}): not read: the page has no place for them",
            others.len(),
            if others.len() == 1 { "" } else { "s" },
            shown.join(", ")
        ));
    }
    Ok(source)
}

/// A CSV file: its columns by header, its rows.
struct Table {
    name: &'static str,
    columns: HashMap<String, usize>,
    headers: Vec<String>,
    rows: Vec<csv::StringRecord>,
}

impl Table {
    fn parse(name: &'static str, bytes: &[u8]) -> Result<Self, String> {
        let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
        let unreadable =
            |error: csv::Error| format!("has a {name} that is not a readable CSV: {error}");
        let mut reader = csv::ReaderBuilder::new().flexible(true).from_reader(bytes);
        let headers: Vec<String> = reader
            .headers()
            .map_err(unreadable)?
            .iter()
            .map(|h| h.trim().to_owned())
            .collect();
        let columns = headers
            .iter()
            .enumerate()
            .map(|(i, h)| (h.to_lowercase(), i))
            .collect();
        let rows = reader
            .records()
            .collect::<Result<Vec<_>, _>>()
            .map_err(unreadable)?
            .into_iter()
            .filter(|row| row.iter().any(|cell| !cell.trim().is_empty()))
            .collect();
        Ok(Table {
            name,
            columns,
            headers,
            rows,
        })
    }

    fn rows(&self) -> Vec<Row<'_>> {
        self.rows
            .iter()
            .enumerate()
            .map(|(i, record)| Row {
                table: self,
                record,
                from: format!("{} row {}", self.name, i + 1),
                used: Vec::new(),
            })
            .collect()
    }
}

/// A row, its cells read by their column's header, so that those left over can be noted.
struct Row<'a> {
    table: &'a Table,
    record: &'a csv::StringRecord,
    /// `Positions.csv row 3`.
    from: String,
    used: Vec<usize>,
}

impl Row<'_> {
    /// The text in `column`, if it has one that is not blank.
    fn text(&mut self, column: &str) -> Option<Text> {
        let index = *self.table.columns.get(&column.to_lowercase())?;
        self.used.push(index);
        let value = self.record.get(index)?.trim();
        (!one_line(value).is_empty()).then(|| Text::new(value, format!("{}, {column}", self.from)))
    }

    /// Notes the columns not read that hold something: `Positions.csv row 1 (Acme): Foo: not
    /// placed: <why>`.
    fn note_rest(&self, label: &str, why: &str, notes: &mut Vec<String>) {
        let rest: Vec<&str> = self
            .record
            .iter()
            .enumerate()
            .filter(|(i, cell)| !self.used.contains(i) && !cell.trim().is_empty())
            .map(|(i, _)| {
                self.table
                    .headers
                    .get(i)
                    .map_or("a column without a name", String::as_str)
            })
            .collect();
        if !rest.is_empty() {
            notes.push(format!(
                "{}: {}: not placed: {why}",
                named(&self.from, label),
                rest.join(", ")
            ));
        }
    }
}

fn read_profile(table: &Table, source: &mut Source) {
    let Some(mut row) = table.rows().into_iter().next() else {
        return;
    };
    row.from = PROFILE.to_owned();
    let name: Vec<String> = ["First Name", "Last Name"]
        .into_iter()
        .filter_map(|column| row.text(column))
        .map(|t| one_line(&t.value))
        .collect();
    if !name.is_empty() {
        source.name = Some(Text::new(
            name.join(" "),
            format!("{PROFILE}, First Name and Last Name"),
        ));
    }
    source.role = row.text("Headline");
    source.summary = row.text("Summary");
    if let Some(place) = row.text("Geo Location") {
        source.location = Some(Location {
            display: one_line(&place.value),
            maps: one_line(&place.value),
            from: place.from,
        });
    }
    if let Some(handles) = row.text("Twitter Handles") {
        for handle in list_cells(&handles.value) {
            source.links.push(Link {
                from: handles.from.clone(),
                network: "X".into(),
                url: None,
                username: Some(handle.trim_start_matches('@').to_owned()),
            });
        }
    }
    if let Some(websites) = row.text("Websites") {
        for site in list_cells(&websites.value) {
            source.links.push(website(&websites.from, &site));
        }
    }
    row.note_rest("", "the page has no place for them", &mut source.notes);
}

/// The items of a cell such as `[jdoe, ada]` or `[PERSONAL:https://ada.dev,BLOG:https://…]`.
fn list_cells(cell: &str) -> Vec<String> {
    cell.trim()
        .trim_start_matches('[')
        .trim_end_matches(']')
        .split(',')
        .map(one_line)
        .filter(|item| !item.is_empty())
        .collect()
}

/// A website of the profile (`PERSONAL:https://ada.dev`): its kind names it (`Blog`), a
/// personal or other one is the owner's `Website`.
fn website(from: &str, site: &str) -> Link {
    let (kind, url) = match site.split_once(':') {
        Some((kind, rest))
            if !kind.is_empty()
                && kind.chars().all(|c| c.is_ascii_alphabetic() || c == '_')
                && !matches!(kind.to_ascii_lowercase().as_str(), "http" | "https") =>
        {
            (kind.to_ascii_lowercase(), rest.trim())
        }
        _ => (String::new(), site),
    };
    let network = match kind.as_str() {
        "" | "personal" | "other" => "Website".to_owned(),
        kind => {
            let mut chars = kind.chars();
            chars.next().map_or_else(String::new, |first| {
                first.to_ascii_uppercase().to_string() + chars.as_str()
            })
        }
    };
    let url = if url.starts_with("http://") || url.starts_with("https://") {
        url.to_owned()
    } else {
        format!("https://{url}")
    };
    Link {
        from: from.to_owned(),
        network,
        url: Some(url),
        username: None,
    }
}

/// The primary address, else the first; any other noted.
fn read_email(table: &Table, source: &mut Source) {
    let mut addresses: Vec<(bool, Text)> = table
        .rows()
        .into_iter()
        .filter_map(|mut row| {
            let primary = row
                .text("Primary")
                .is_some_and(|t| t.value.eq_ignore_ascii_case("yes"));
            Some((primary, row.text("Email Address")?))
        })
        .collect();
    addresses.sort_by_key(|(primary, _)| !primary);
    let mut addresses = addresses.into_iter().map(|(_, address)| address);
    source.email = addresses.next();
    let others = addresses.count();
    if others > 0 {
        source.notes.push(format!(
            "{EMAILS}: {others} other address{}: not placed: the page shows one",
            if others == 1 { "" } else { "es" }
        ));
    }
}

/// The first number; any other noted.
fn read_phone(table: &Table, source: &mut Source) {
    let numbers: Vec<Text> = table
        .rows()
        .into_iter()
        .filter_map(|mut row| row.text("Number"))
        .collect();
    let others = numbers.len().saturating_sub(1);
    source.phone = numbers.into_iter().next();
    if others > 0 {
        source.notes.push(format!(
            "{PHONES}: {others} other number{}: not placed: the page shows one",
            if others == 1 { "" } else { "s" }
        ));
    }
}

fn read_position(mut row: Row<'_>, notes: &mut Vec<String>) -> Entry {
    let entry = Entry {
        from: row.from.clone(),
        title: row.text("Title"),
        place: row.text("Company Name"),
        location: row.text("Location").map(|t| one_line(&t.value)),
        start: row.text("Started On"),
        end: row.text("Finished On"),
        description: row.text("Description"),
        highlights: Vec::new(),
    };
    row.note_rest(
        &entry.label(),
        "the page shows a job's title, company, location, dates and description",
        notes,
    );
    entry
}

fn read_school(mut row: Row<'_>, notes: &mut Vec<String>) -> Entry {
    let described: Vec<Text> = [("Notes", ""), ("Activities", "Activities: ")]
        .into_iter()
        .filter_map(|(column, before)| {
            row.text(column)
                .map(|t| Text::new(format!("{before}{}", one_line(&t.value)), t.from))
        })
        .collect();
    let description = match described.as_slice() {
        [] => None,
        [one] => Some(one.clone()),
        several => Some(Text::new(
            several
                .iter()
                .map(|t| super::source::sentence(&t.value))
                .collect::<Vec<_>>()
                .join(" "),
            format!("{}, Notes and Activities", row.from),
        )),
    };
    let entry = Entry {
        from: row.from.clone(),
        title: row.text("Degree Name"),
        place: row.text("School Name"),
        location: None,
        start: row.text("Start Date"),
        end: row.text("End Date"),
        description,
        highlights: Vec::new(),
    };
    row.note_rest(
        &entry.label(),
        "the page shows a school's degree, name, dates, notes and activities",
        notes,
    );
    entry
}

fn read_project(mut row: Row<'_>, notes: &mut Vec<String>) -> ProjectItem {
    let project = ProjectItem {
        from: row.from.clone(),
        title: row.text("Title"),
        description: row.text("Description"),
        highlights: Vec::new(),
        url: row.text("Url"),
        keywords: Vec::new(),
    };
    let label = project
        .title
        .as_ref()
        .map(|t| one_line(&t.value))
        .unwrap_or_default();
    row.note_rest(
        &label,
        "the page shows a project's title, description and link",
        notes,
    );
    project
}
