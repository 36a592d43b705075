//! The resume as a JSON Resume document (schema 1.0.0), written from a [`Sheet`] so that it says
//! what the PDF and the plain text say, in the same order. Empty texts and lists are left out, and
//! a date the page shows is only given when it reads as one (`2021`, `Mar 2021`, `03/2021`).

use serde_json::{Map, Value};

use super::sheet::{Body, Entry, ProjectItem, Section, SectionKind, Sheet};

/// The JSON Resume schema the document follows, as its `$schema` names it (never fetched).
pub const SCHEMA_URL: &str =
    "https://raw.githubusercontent.com/jsonresume/resume-schema/v1.0.0/schema.json";

/// The version of the schema, as `meta.version` gives it.
const SCHEMA_VERSION: &str = "v1.0.0";

type Object = Map<String, Value>;

/// The resume `sheet` as a JSON Resume 1.0.0 document: `basics`, then the sheet's sections
/// (`work`, `education` and its `awards`, `projects`, `skills`) and `meta`. `last_modified`
/// (ISO 8601, `2024-05-01T10:00:00`) becomes `meta.lastModified` when given.
pub fn json_resume(sheet: &Sheet, last_modified: Option<&str>) -> Value {
    let mut root = Object::new();
    root.insert("$schema".to_owned(), Value::from(SCHEMA_URL));
    put_object(&mut root, "basics", basics(sheet));
    for section in &sheet.sections {
        add_section(&mut root, section);
    }
    put_object(&mut root, "meta", meta(sheet, last_modified));
    Value::Object(root)
}

/// `basics`: who the owner is and where to find them.
fn basics(sheet: &Sheet) -> Object {
    let mut basics = Object::new();
    put_text(&mut basics, "name", &sheet.name);
    put_text(&mut basics, "label", &sheet.role);
    put_text(&mut basics, "email", &sheet.email);
    put_text(&mut basics, "phone", &sheet.phone);
    put_text(&mut basics, "url", &sheet.site);
    put_text(&mut basics, "summary", &summary(sheet));
    let mut location = Object::new();
    put_text(&mut location, "address", &sheet.location);
    put_object(&mut basics, "location", location);
    let profiles = sheet.links.iter().map(|link| {
        let mut profile = Object::new();
        put_text(&mut profile, "network", &link.label);
        put_text(&mut profile, "url", &link.url);
        put_text(
            &mut profile,
            "username",
            username(&link.url).unwrap_or_default(),
        );
        profile
    });
    extend(&mut basics, "profiles", profiles);
    basics
}

/// The Summary sections' paragraphs, a blank line between two.
fn summary(sheet: &Sheet) -> String {
    let paragraphs: Vec<&str> = sheet
        .sections
        .iter()
        .filter(|section| section.kind == SectionKind::Summary)
        .filter_map(|section| match &section.body {
            Body::Text(paragraphs) => Some(paragraphs),
            _ => None,
        })
        .flatten()
        .map(|paragraph| paragraph.trim())
        .filter(|paragraph| !paragraph.is_empty())
        .collect();
    paragraphs.join("\n\n")
}

/// The last non-empty segment of `url`'s path (`your-handle` of
/// `https://github.com/your-handle/`), if it has one.
fn username(url: &str) -> Option<&str> {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let rest = rest.split(['?', '#']).next().unwrap_or_default();
    let mut segments = rest.split('/');
    segments.next(); // the host
    segments.rfind(|segment| !segment.is_empty())
}

/// Adds what `section` says to the document. The summary is in `basics`; a section whose body
/// does not fit its kind adds nothing.
fn add_section(root: &mut Object, section: &Section) {
    match (section.kind, &section.body) {
        (SectionKind::Experience, Body::Entries(entries)) => {
            extend(root, "work", entries.iter().map(work));
        }
        (SectionKind::Education, Body::Entries(entries)) => {
            extend(root, "education", entries.iter().map(education));
            extend(root, "awards", entries.iter().flat_map(awards));
        }
        (SectionKind::Projects, Body::Projects(projects)) => {
            extend(root, "projects", projects.iter().map(project));
        }
        (SectionKind::Skills, Body::Names(names)) => {
            let skills = names.iter().map(|name| {
                let mut skill = Object::new();
                put_text(&mut skill, "name", name);
                skill
            });
            extend(root, "skills", skills);
        }
        _ => {}
    }
}

/// A job, as `work` has it.
fn work(entry: &Entry) -> Object {
    let mut work = Object::new();
    put_text(&mut work, "name", &entry.place);
    put_text(&mut work, "position", &entry.title);
    put_dates(&mut work, &entry.date);
    put_text(&mut work, "summary", &entry.description);
    put_texts(&mut work, "highlights", &entry.awards);
    work
}

/// A school, as `education` has it (its awards are in `awards`).
fn education(entry: &Entry) -> Object {
    let mut education = Object::new();
    put_text(&mut education, "institution", &entry.place);
    put_text(&mut education, "area", &entry.title);
    put_dates(&mut education, &entry.date);
    education
}

/// A school's awards, as `awards` has them.
fn awards(entry: &Entry) -> Vec<Object> {
    entry
        .awards
        .iter()
        .map(|title| {
            let mut award = Object::new();
            put_text(&mut award, "title", title);
            put_text(&mut award, "awarder", &entry.place);
            award
        })
        .collect()
}

/// A project, as `projects` has it: its `url` is the demo's, or the code's when it has no demo.
fn project(item: &ProjectItem) -> Object {
    let mut project = Object::new();
    put_text(&mut project, "name", &item.title);
    put_text(&mut project, "description", &item.description);
    let url = if item.demo_url.trim().is_empty() {
        &item.code_url
    } else {
        &item.demo_url
    };
    put_text(&mut project, "url", url);
    put_texts(&mut project, "keywords", &item.technologies);
    project
}

/// `meta`: the schema's version, when the content last changed and where this document lives.
fn meta(sheet: &Sheet, last_modified: Option<&str>) -> Object {
    let mut meta = Object::new();
    put_text(&mut meta, "version", SCHEMA_VERSION);
    put_text(&mut meta, "lastModified", last_modified.unwrap_or_default());
    let site = sheet.site.trim();
    if !site.is_empty() {
        let slash = if site.ends_with('/') { "" } else { "/" };
        put_text(&mut meta, "canonical", &format!("{site}{slash}resume.json"));
    }
    meta
}

/// Sets `key` to `text`, trimmed, unless it is empty.
fn put_text(object: &mut Object, key: &str, text: &str) {
    let text = text.trim();
    if !text.is_empty() {
        object.insert(key.to_owned(), Value::from(text));
    }
}

/// Sets `key` to the texts that are not empty, unless none is.
fn put_texts(object: &mut Object, key: &str, texts: &[String]) {
    let texts: Vec<Value> = texts
        .iter()
        .map(|text| text.trim())
        .filter(|text| !text.is_empty())
        .map(Value::from)
        .collect();
    if !texts.is_empty() {
        object.insert(key.to_owned(), Value::Array(texts));
    }
}

/// Sets `key` to `value` unless it is empty.
fn put_object(object: &mut Object, key: &str, value: Object) {
    if !value.is_empty() {
        object.insert(key.to_owned(), Value::Object(value));
    }
}

/// Appends the objects that are not empty to the list `key`, making it if need be.
fn extend(object: &mut Object, key: &str, items: impl IntoIterator<Item = Object>) {
    let items: Vec<Value> = items
        .into_iter()
        .filter(|item| !item.is_empty())
        .map(Value::Object)
        .collect();
    if items.is_empty() {
        return;
    }
    match object.get_mut(key) {
        Some(Value::Array(list)) => list.extend(items),
        _ => {
            object.insert(key.to_owned(), Value::Array(items));
        }
    }
}

/// Sets `startDate` and `endDate` from the dates as shown, as far as they read as dates.
fn put_dates(object: &mut Object, shown: &str) {
    let dates = parse_dates(shown);
    put_text(
        object,
        "startDate",
        dates.start.as_deref().unwrap_or_default(),
    );
    put_text(object, "endDate", dates.end.as_deref().unwrap_or_default());
}

/// A span of time in the schema's form (`2021`, `2021-03` or `2021-03-15`); `end` is `None`
/// for one that goes on (or a single date).
#[derive(Debug, Default, PartialEq, Eq)]
struct Dates {
    start: Option<String>,
    end: Option<String>,
}

/// The longest dates (in bytes) read: `September 2021 – September 2023` is 34.
const LONGEST_DATES: usize = 80;

/// What may stand between two dates, tried in this order.
const SEPARATORS: [&str; 4] = ["–", "—", " to ", "-"];

/// The dates a page shows (`2021 - 2023`, `Jan 2020 – Mar 2022`, `2023 - Present`, `2019`,
/// `03/2018 - 06/2020`). An end without a digit (`Present`, `heute`) goes on; anything else
/// that does not read as dates gives none at all.
fn parse_dates(shown: &str) -> Dates {
    let shown = normalize(shown);
    if shown.len() > LONGEST_DATES {
        return Dates::default();
    }
    if let Some(date) = parse_date(&shown) {
        return Dates {
            start: Some(date),
            end: None,
        };
    }
    for separator in SEPARATORS {
        for (at, _) in shown.match_indices(separator) {
            let start = shown.get(..at).unwrap_or_default();
            let end = shown.get(at + separator.len()..).unwrap_or_default();
            if let Some(dates) = span(start, end) {
                return dates;
            }
        }
    }
    Dates::default()
}

/// The span from `start` to `end` if `start` is a date and `end` one no earlier (or an end
/// without a digit, for one that goes on).
fn span(start: &str, end: &str) -> Option<Dates> {
    let start = parse_date(start)?;
    let end = end.trim();
    if !end.chars().any(char::is_numeric) && month(end).is_none() {
        return Some(Dates {
            start: Some(start),
            end: None,
        });
    }
    let end = parse_date(end)?;
    let common = start.len().min(end.len());
    if end.get(..common) < start.get(..common) {
        return None;
    }
    Some(Dates {
        start: Some(start),
        end: Some(end),
    })
}

/// `text` in lower case, its Arabic-Indic digits as ASCII ones, its direction marks dropped and
/// its spaces plain.
fn normalize(text: &str) -> String {
    text.chars()
        .filter(|&c| !is_direction_mark(c))
        .map(|c| match c {
            '\u{0660}'..='\u{0669}' => char::from_digit(u32::from(c) - 0x0660, 10).unwrap_or(c),
            '\u{06F0}'..='\u{06F9}' => char::from_digit(u32::from(c) - 0x06F0, 10).unwrap_or(c),
            '\u{2010}' | '\u{2011}' | '\u{2212}' => '-',
            c if c.is_whitespace() => ' ',
            c => c,
        })
        .flat_map(char::to_lowercase)
        .collect::<String>()
        .trim()
        .to_owned()
}

/// A character that only sets the direction of the text around it.
fn is_direction_mark(c: char) -> bool {
    matches!(
        c,
        '\u{200E}' | '\u{200F}' | '\u{061C}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}'
    )
}

/// One date (`2021`, `mar 2021`, `march, 2021`, `03/2021`, `2021-03`, `2021-03-15`) in the
/// schema's form. `text` is normalized.
fn parse_date(text: &str) -> Option<String> {
    let words: Vec<&str> = text
        .split([' ', ','])
        .filter(|word| !word.is_empty())
        .collect();
    match words.as_slice() {
        [word] => numeric_date(word),
        [name, year_word] => Some(format!("{}-{:02}", year(year_word)?, month(name)?)),
        _ => None,
    }
}

/// A date in digits: `2021`, `3/2021`, `03.2021`, `2021-03`, `2021/03` or `2021-03-15`.
fn numeric_date(word: &str) -> Option<String> {
    let Some(separator) = word.chars().find(|c| matches!(c, '/' | '.' | '-')) else {
        return year(word).map(|year| year.to_string());
    };
    let parts: Vec<&str> = word.split(separator).collect();
    match parts.as_slice() {
        [first, second] if first.len() == 4 => {
            Some(format!("{}-{:02}", year(first)?, month_number(second)?))
        }
        [first, second] => Some(format!("{}-{:02}", year(second)?, month_number(first)?)),
        [first, second, third] if first.len() == 4 => {
            let (year, month) = (year(first)?, month_number(second)?);
            let day = number(third, 2).filter(|day| (1..=days_in(year, month)).contains(day))?;
            Some(format!("{year}-{month:02}-{day:02}"))
        }
        _ => None,
    }
}

/// A year of four digits, 1900 to 2199.
fn year(word: &str) -> Option<u32> {
    number(word, 4)
        .filter(|_| word.len() == 4)
        .filter(|year| (1900..=2199).contains(year))
}

/// A month of one or two digits, 1 to 12.
fn month_number(word: &str) -> Option<u32> {
    number(word, 2).filter(|month| (1..=12).contains(month))
}

/// `word` as a number if it is 1 to `most` ASCII digits.
fn number(word: &str, most: usize) -> Option<u32> {
    if word.is_empty() || word.len() > most || !word.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    word.parse().ok()
}

/// The English months, in lower case: how the shown dates and the imported ones name them.
pub(super) const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

/// The English month `word` names (`march`, `mar`, `mar.`, `sept`), 1 to 12; lower case.
fn month(word: &str) -> Option<u32> {
    let word = word.trim().trim_end_matches('.');
    if word == "sept" {
        return Some(9);
    }
    let index = MONTHS
        .iter()
        .position(|name| *name == word || (word.len() == 3 && name.starts_with(word)))?;
    u32::try_from(index + 1).ok()
}

/// The number of days in `month` of `year`.
fn days_in(year: u32, month: u32) -> u32 {
    match month {
        2 if year.is_multiple_of(4) && (!year.is_multiple_of(100) || year.is_multiple_of(400)) => {
            29
        }
        2 => 28,
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use serde_json::json;

    use super::super::sheet::{Labels, Link};
    use super::*;

    pub(crate) fn entry(
        title: &str,
        place: &str,
        date: &str,
        description: &str,
        awards: &[&str],
    ) -> Entry {
        Entry {
            title: title.to_owned(),
            place: place.to_owned(),
            date: date.to_owned(),
            description: description.to_owned(),
            awards: awards.iter().map(|award| (*award).to_owned()).collect(),
        }
    }

    pub(crate) fn section(kind: SectionKind, title: &str, body: Body) -> Section {
        Section {
            kind,
            title: title.to_owned(),
            body,
        }
    }

    pub(crate) fn texts(texts: &[&str]) -> Vec<String> {
        texts.iter().map(|text| (*text).to_owned()).collect()
    }

    pub(crate) fn labels(email: &str, phone: &str, location: &str) -> Labels {
        Labels {
            email: email.to_owned(),
            phone: phone.to_owned(),
            location: location.to_owned(),
        }
    }

    pub(crate) fn link(label: &str, url: &str) -> Link {
        Link {
            label: label.to_owned(),
            url: url.to_owned(),
        }
    }

    pub(crate) fn project_item(
        title: &str,
        technologies: &[&str],
        code_url: &str,
        demo_url: &str,
    ) -> ProjectItem {
        ProjectItem {
            id: title.to_lowercase(),
            title: title.to_owned(),
            description: "This site.".to_owned(),
            technologies: texts(technologies),
            code_url: code_url.to_owned(),
            demo_url: demo_url.to_owned(),
        }
    }

    /// A sheet like the one the default content gives, in English.
    pub(crate) fn english() -> Sheet {
        Sheet {
            language: "en".to_owned(),
            rtl: false,
            name: "Alex Morgan".to_owned(),
            role: "Full Stack Developer".to_owned(),
            email: "alex.morgan@example.com".to_owned(),
            phone: "+91 90000 00000".to_owned(),
            phone_dial: "+919000000000".to_owned(),
            location: "AP, India".to_owned(),
            site: "https://example.dev/".to_owned(),
            links: vec![
                link("GitHub", "https://github.com/your-handle"),
                link("LinkedIn", "https://www.linkedin.com/in/your-handle/"),
            ],
            labels: labels("Email", "Phone", "Location"),
            sections: english_sections(),
        }
    }

    /// The English sheet's sections, in the default order.
    fn english_sections() -> Vec<Section> {
        let job = entry(
            "Analyst",
            "Global IT Services Company, Hyderabad",
            "2023 - Present",
            "Build and maintain internal tools.",
            &["Spot Award", "Applause Award"],
        );
        let school = entry(
            "B.Tech, Computer Science",
            "State University, AP",
            "2019 - 2023",
            "",
            &["Best Project Award"],
        );
        let portfolio = project_item(
            "Portfolio",
            &["React", "Tailwind CSS", "Node.js"],
            "https://github.com/your-handle/portfolio",
            "https://portfolio.example.dev",
        );
        let summary = texts(&["I build fast, accessible web apps."]);
        let skills = texts(&["React", "Node.js", "TypeScript"]);
        vec![
            section(SectionKind::Summary, "About", Body::Text(summary)),
            section(
                SectionKind::Experience,
                "Work Experience",
                Body::Entries(vec![job]),
            ),
            section(
                SectionKind::Projects,
                "Projects",
                Body::Projects(vec![portfolio]),
            ),
            section(SectionKind::Skills, "Skills", Body::Names(skills)),
            section(
                SectionKind::Education,
                "Education",
                Body::Entries(vec![school]),
            ),
        ]
    }

    /// The same owner in Arabic: texts, labels and the digits of the dates in Arabic.
    pub(crate) fn arabic() -> Sheet {
        let mut sheet = english();
        sheet.language = "ar".to_owned();
        sheet.rtl = true;
        sheet.name = "أليكس مورغان".to_owned();
        sheet.role = "مطور برمجيات متكامل".to_owned();
        sheet.location = "أندرا براديش، الهند".to_owned();
        sheet.site = "https://example.dev/ar/".to_owned();
        sheet.labels = labels("البريد الإلكتروني", "الهاتف", "الموقع");
        sheet.sections = vec![
            section(
                SectionKind::Summary,
                "نبذة",
                Body::Text(texts(&["أبني تطبيقات ويب سريعة."])),
            ),
            section(
                SectionKind::Experience,
                "الخبرة العملية",
                Body::Entries(vec![entry(
                    "محلل",
                    "شركة خدمات تقنية، حيدر أباد",
                    "٢٠٢٣ - الآن",
                    "أبني أدوات داخلية.",
                    &["جائزة التميز"],
                )]),
            ),
        ];
        sheet
    }

    /// Every sheet the tests write, with the `last_modified` each is written with.
    pub(crate) fn sheets() -> Vec<(Sheet, Option<&'static str>)> {
        vec![
            (english(), Some("2024-05-01T10:00:00")),
            (arabic(), None),
            (sparse(), None),
            (special(), None),
            (reordered(), Some("2024-05-01T10:00:00")),
        ]
    }

    fn special() -> Sheet {
        let mut sheet = english();
        sheet.sections[1] = section(
            SectionKind::Experience,
            "Work & <more>",
            Body::Entries(vec![entry(
                "R&D <Lead> \"Ops\"",
                "A & B <Ltd>",
                "Jan 2020 – Mar 2022",
                "Said \"hi\" & left </script>",
                &[],
            )]),
        );
        sheet
    }

    fn reordered() -> Sheet {
        let mut sheet = english();
        let sections = std::mem::take(&mut sheet.sections);
        sheet.sections = vec![sections[3].clone(), sections[1].clone()];
        sheet
    }

    /// Checks `value` against the saved schema file as far as this test can without a
    /// validator: the types, the keys the schema forbids and the dates' pattern.
    fn check_schema(value: &Value) {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../server/tests/resume/jsonresume-schema-1.0.0.json"
        );
        let text = std::fs::read_to_string(path).unwrap();
        let schema: Value = serde_json::from_str(&text).unwrap();
        let mut errors = Vec::new();
        conforms(value, &schema, &schema, "", &mut errors);
        assert!(errors.is_empty(), "{errors:#?}\n{value:#}");
    }

    fn conforms(value: &Value, node: &Value, root: &Value, at: &str, errors: &mut Vec<String>) {
        if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
            let target = root.pointer(reference.trim_start_matches('#')).unwrap();
            return conforms(value, target, root, at, errors);
        }
        let kind = match value {
            Value::Object(_) => "object",
            Value::Array(_) => "array",
            Value::String(_) => "string",
            _ => "other",
        };
        if node
            .get("type")
            .and_then(Value::as_str)
            .is_some_and(|t| t != kind)
        {
            errors.push(format!("{at}: not a {}", node["type"]));
        }
        match value {
            Value::Object(object) => {
                let closed = node.get("additionalProperties") == Some(&Value::Bool(false));
                for (key, item) in object {
                    match node.pointer(&format!("/properties/{}", key.replace('/', "~1"))) {
                        Some(inner) => conforms(item, inner, root, &format!("{at}/{key}"), errors),
                        None if closed => errors.push(format!("{at}/{key}: not allowed")),
                        None => {}
                    }
                }
            }
            Value::Array(list) => {
                for (index, item) in list.iter().enumerate() {
                    conforms(item, &node["items"], root, &format!("{at}/{index}"), errors);
                }
            }
            Value::String(text) => check_string(text, node, at, errors),
            _ => {}
        }
    }

    fn check_string(text: &str, node: &Value, at: &str, errors: &mut Vec<String>) {
        let iso8601 =
            "^([1-2][0-9]{3}-[0-1][0-9]-[0-3][0-9]|[1-2][0-9]{3}-[0-1][0-9]|[1-2][0-9]{3})$";
        match node.get("pattern").and_then(Value::as_str) {
            Some(pattern) if pattern != iso8601 => {
                errors.push(format!("{at}: unknown pattern {pattern}"));
            }
            Some(_) if !is_iso_date(text) => errors.push(format!("{at}: {text} is not a date")),
            _ => {}
        }
        let format = node.get("format").and_then(Value::as_str);
        if format == Some("uri") && !text.starts_with("https://") {
            errors.push(format!("{at}: {text} is not an address"));
        }
        if format == Some("email") && !text.contains('@') {
            errors.push(format!("{at}: {text} is not an email"));
        }
    }

    /// `YYYY`, `YYYY-MM` or `YYYY-MM-DD`, with a real month and day.
    fn is_iso_date(text: &str) -> bool {
        let parts: Vec<&str> = text.split('-').collect();
        let digits =
            |part: &str, len: usize| part.len() == len && part.bytes().all(|b| b.is_ascii_digit());
        let sizes = [4, 2, 2];
        parts.len() <= 3
            && parts.iter().zip(sizes).all(|(part, len)| digits(part, len))
            && parts.get(1).is_none_or(|m| ("01"..="12").contains(m))
            && parts.get(2).is_none_or(|d| ("01"..="31").contains(d))
    }

    #[test]
    fn the_schema_check_finds_what_the_schema_forbids() {
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../server/tests/resume/jsonresume-schema-1.0.0.json"
        );
        let schema: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        let wrong = [
            json!({ "repository": "https://example.dev/" }),
            json!({ "work": [{ "startDate": "2020-1" }] }),
            json!({ "work": [{ "endDate": "Present" }] }),
            json!({ "skills": { "name": "Rust" } }),
            json!({ "basics": { "name": ["Alex"] } }),
        ];
        for value in wrong {
            let mut errors = Vec::new();
            conforms(&value, &schema, &schema, "", &mut errors);
            assert!(!errors.is_empty(), "{value}");
        }
    }

    fn resume(sheet: &Sheet, last_modified: Option<&str>) -> Value {
        let value = json_resume(sheet, last_modified);
        check_schema(&value);
        value
    }

    /// The `basics` the English sheet gives.
    fn expected_english_basics() -> Value {
        json!({
            "name": "Alex Morgan",
            "label": "Full Stack Developer",
            "email": "alex.morgan@example.com",
            "phone": "+91 90000 00000",
            "url": "https://example.dev/",
            "summary": "I build fast, accessible web apps.",
            "location": { "address": "AP, India" },
            "profiles": [
                {
                    "network": "GitHub",
                    "url": "https://github.com/your-handle",
                    "username": "your-handle"
                },
                {
                    "network": "LinkedIn",
                    "url": "https://www.linkedin.com/in/your-handle/",
                    "username": "your-handle"
                }
            ]
        })
    }

    /// What the English sheet gives.
    fn expected_english() -> Value {
        json!({
            "$schema": SCHEMA_URL,
            "basics": expected_english_basics(),
            "work": [{
                "name": "Global IT Services Company, Hyderabad",
                "position": "Analyst",
                "startDate": "2023",
                "summary": "Build and maintain internal tools.",
                "highlights": ["Spot Award", "Applause Award"]
            }],
            "projects": [{
                "name": "Portfolio",
                "description": "This site.",
                "url": "https://portfolio.example.dev",
                "keywords": ["React", "Tailwind CSS", "Node.js"]
            }],
            "skills": [{ "name": "React" }, { "name": "Node.js" }, { "name": "TypeScript" }],
            "education": [{
                "institution": "State University, AP",
                "area": "B.Tech, Computer Science",
                "startDate": "2019",
                "endDate": "2023"
            }],
            "awards": [{ "title": "Best Project Award", "awarder": "State University, AP" }],
            "meta": {
                "version": "v1.0.0",
                "lastModified": "2024-05-01T10:00:00",
                "canonical": "https://example.dev/resume.json"
            }
        })
    }

    #[test]
    fn every_test_sheet_fits_the_schema() {
        for (sheet, last_modified) in sheets() {
            resume(&sheet, last_modified);
        }
    }

    #[test]
    fn writes_the_english_sheet() {
        let value = resume(&english(), Some("2024-05-01T10:00:00"));
        assert_eq!(value, expected_english());
    }

    #[test]
    fn writes_only_the_chosen_sections_in_their_order() {
        let mut sheet = reordered();
        if let Body::Entries(entries) = &mut sheet.sections[1].body {
            entries.push(entry("Intern", "Start-up", "2021 - 2022", "", &[]));
        }
        let value = resume(&sheet, None);
        let mut keys: Vec<&str> = value
            .as_object()
            .unwrap()
            .keys()
            .map(String::as_str)
            .collect();
        keys.sort_unstable();
        assert_eq!(keys, ["$schema", "basics", "meta", "skills", "work"]);
        assert!(value["basics"].get("summary").is_none());
        let places: Vec<&str> = value["work"]
            .as_array()
            .unwrap()
            .iter()
            .map(|job| job["name"].as_str().unwrap())
            .collect();
        assert_eq!(
            places,
            ["Global IT Services Company, Hyderabad", "Start-up"]
        );
        assert_eq!(value["work"][1]["endDate"], "2022");
        assert_eq!(value["skills"].as_array().unwrap().len(), 3);
    }

    #[test]
    fn keeps_arabic_texts_as_they_are() {
        let sheet = arabic();
        let value = resume(&sheet, None);
        assert_eq!(value["basics"]["name"], "أليكس مورغان");
        assert_eq!(value["basics"]["label"], "مطور برمجيات متكامل");
        assert_eq!(
            value["basics"]["location"]["address"],
            "أندرا براديش، الهند"
        );
        assert_eq!(value["basics"]["summary"], "أبني تطبيقات ويب سريعة.");
        assert_eq!(value["work"][0]["position"], "محلل");
        assert_eq!(value["work"][0]["highlights"], json!(["جائزة التميز"]));
        assert_eq!(value["work"][0]["startDate"], "2023");
        assert!(value["work"][0].get("endDate").is_none());
        assert_eq!(
            value["meta"]["canonical"],
            "https://example.dev/ar/resume.json"
        );
        assert!(value["meta"].get("lastModified").is_none());
        let text = serde_json::to_string(&value).unwrap();
        assert!(text.contains("أليكس مورغان"));
        assert_eq!(serde_json::from_str::<Value>(&text).unwrap(), value);
    }

    #[test]
    fn keeps_markup_characters_through_a_round_trip() {
        let value = resume(&special(), None);
        let text = serde_json::to_string(&value).unwrap();
        let back: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(back, value);
        assert_eq!(back["work"][0]["position"], "R&D <Lead> \"Ops\"");
        assert_eq!(back["work"][0]["name"], "A & B <Ltd>");
        assert_eq!(back["work"][0]["summary"], "Said \"hi\" & left </script>");
        assert_eq!(back["work"][0]["startDate"], "2020-01");
        assert_eq!(back["work"][0]["endDate"], "2022-03");
        assert!(back["work"][0].get("highlights").is_none());
    }

    /// The English sheet with many of its fields empty.
    fn sparse() -> Sheet {
        let mut sheet = english();
        sheet.phone = "  ".to_owned();
        sheet.site = String::new();
        sheet.links[0].url = String::new();
        sheet.links[1] = link("", "");
        sheet.sections = vec![
            section(
                SectionKind::Experience,
                "Work Experience",
                Body::Entries(vec![entry("Analyst", "", "someday", "", &["", " "])]),
            ),
            section(
                SectionKind::Projects,
                "Projects",
                Body::Projects(vec![ProjectItem {
                    description: String::new(),
                    ..project_item("Tool", &["", "Rust"], "", "")
                }]),
            ),
            section(
                SectionKind::Skills,
                "Skills",
                Body::Names(texts(&["", " "])),
            ),
        ];
        sheet
    }

    #[test]
    fn leaves_out_empty_fields() {
        let sheet = sparse();
        let value = resume(&sheet, None);
        assert_eq!(
            value["basics"],
            json!({
                "name": "Alex Morgan",
                "label": "Full Stack Developer",
                "email": "alex.morgan@example.com",
                "location": { "address": "AP, India" },
                "profiles": [{ "network": "GitHub" }]
            })
        );
        assert_eq!(value["work"], json!([{ "position": "Analyst" }]));
        assert_eq!(
            value["projects"],
            json!([{ "name": "Tool", "keywords": ["Rust"] }])
        );
        assert!(value.get("skills").is_none());
        assert_eq!(value["meta"], json!({ "version": "v1.0.0" }));
    }

    #[test]
    fn an_empty_sheet_has_only_the_schema_and_version() {
        let sheet = Sheet {
            language: String::new(),
            rtl: false,
            name: String::new(),
            role: String::new(),
            email: String::new(),
            phone: String::new(),
            phone_dial: String::new(),
            location: String::new(),
            site: String::new(),
            links: Vec::new(),
            labels: labels("", "", ""),
            sections: Vec::new(),
        };
        let value = resume(&sheet, Some(""));
        assert_eq!(
            value,
            json!({ "$schema": SCHEMA_URL, "meta": { "version": "v1.0.0" } })
        );
    }

    #[test]
    fn a_project_without_a_demo_links_its_code() {
        let mut sheet = english();
        if let Body::Projects(projects) = &mut sheet.sections[2].body {
            projects[0].demo_url = " ".to_owned();
        }
        let value = resume(&sheet, None);
        assert_eq!(
            value["projects"][0]["url"],
            "https://github.com/your-handle/portfolio"
        );
    }

    #[test]
    fn joins_summary_paragraphs_with_a_blank_line() {
        let mut sheet = english();
        sheet.sections[0].body = Body::Text(texts(&["One.", " ", "Two. "]));
        assert_eq!(resume(&sheet, None)["basics"]["summary"], "One.\n\nTwo.");
    }

    #[test]
    fn a_body_that_does_not_fit_its_kind_adds_nothing() {
        let mut sheet = english();
        sheet.sections = vec![
            section(SectionKind::Skills, "Skills", Body::Text(texts(&["React"]))),
            section(SectionKind::Summary, "About", Body::Names(texts(&["x"]))),
        ];
        let value = resume(&sheet, None);
        assert!(value.get("skills").is_none());
        assert!(value["basics"].get("summary").is_none());
    }

    #[test]
    fn finds_a_profiles_username() {
        assert_eq!(
            username("https://github.com/your-handle"),
            Some("your-handle")
        );
        assert_eq!(username("https://www.linkedin.com/in/me/"), Some("me"));
        assert_eq!(username("https://x.com/me?lang=en#top"), Some("me"));
        assert_eq!(username("github.com/me"), Some("me"));
        assert_eq!(username("https://example.dev/"), None);
        assert_eq!(username("https://example.dev"), None);
        assert_eq!(username(""), None);
    }

    fn dates(start: Option<&str>, end: Option<&str>) -> Dates {
        Dates {
            start: start.map(str::to_owned),
            end: end.map(str::to_owned),
        }
    }

    #[test]
    fn parses_the_dates_a_page_shows() {
        let cases = [
            ("2021 - 2023", Some("2021"), Some("2023")),
            ("2021-2023", Some("2021"), Some("2023")),
            ("2023 - Present", Some("2023"), None),
            ("2022 — heute", Some("2022"), None),
            ("2020 – now", Some("2020"), None),
            ("2020 -", Some("2020"), None),
            ("Jan 2020 – Mar 2022", Some("2020-01"), Some("2022-03")),
            (
                "January 2020 to March, 2022",
                Some("2020-01"),
                Some("2022-03"),
            ),
            ("Sept. 2019 - Dec 2019", Some("2019-09"), Some("2019-12")),
            ("2019", Some("2019"), None),
            (" May 2019 ", Some("2019-05"), None),
            ("03/2018 - 06/2020", Some("2018-03"), Some("2020-06")),
            ("3.2018 - 12.2018", Some("2018-03"), Some("2018-12")),
            ("2018-03 - 2020-06", Some("2018-03"), Some("2020-06")),
            ("2018-03", Some("2018-03"), None),
            (
                "2020-02-29 – 2021-01-31",
                Some("2020-02-29"),
                Some("2021-01-31"),
            ),
            ("٢٠٢١ - ٢٠٢٣", Some("2021"), Some("2023")),
            ("\u{200F}2021 - الآن", Some("2021"), None),
            ("2021\u{00A0}–\u{00A0}Present", Some("2021"), None),
        ];
        for (shown, start, end) in cases {
            assert_eq!(parse_dates(shown), dates(start, end), "{shown}");
        }
    }

    #[test]
    fn gives_no_dates_for_what_does_not_read_as_dates() {
        let cases = [
            "",
            "   ",
            "Present",
            "Summer 2021",
            "since 2020",
            "1899",
            "2200",
            "21 - 23",
            "2023 - 2021",
            "2021 - 23",
            "2021 - Dec",
            "Jan - Mar 2022",
            "13/2020",
            "00/2020",
            "2019-13",
            "2019-02-30",
            "2021-02-29",
            "12/05/2020",
            "2019 - 2020 - 2021",
            "20211",
            "Q1 2020",
            "2019 - 2020 ------------------------------------------------------------------------",
            "२०२१",
        ];
        for shown in cases {
            assert_eq!(parse_dates(shown), Dates::default(), "{shown}");
        }
    }

    #[test]
    fn never_writes_an_invalid_date() {
        let shown = [
            "2019-12-31 - 2020",
            "1900 – 2199",
            "feb 2024",
            "2024-02-29",
            "x-2020-y",
        ];
        for text in shown {
            let found = parse_dates(text);
            for date in found.start.iter().chain(found.end.iter()) {
                assert!(is_iso_date(date), "{text}: {date}");
            }
        }
    }
}
