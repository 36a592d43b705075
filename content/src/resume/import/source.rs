//! What a resume file says, in one shape whichever format it came in (a JSON Resume, a LinkedIn
//! export), each text with the place in the file it came from, so that what cannot be placed is
//! named as the file names it (`work[2].summary`, `Positions.csv row 3, Description`). Also the
//! small rules both formats share: texts made fit for the page, dates read and shown the page's
//! way, ids made from names.

/// A text of the file and where in the file it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Text {
    pub value: String,
    /// `basics.summary`, `Profile.csv, Headline`.
    pub from: String,
}

impl Text {
    pub fn new(value: impl Into<String>, from: impl Into<String>) -> Self {
        Text {
            value: value.into(),
            from: from.into(),
        }
    }
}

/// Everything the file says that the page may show.
#[derive(Debug, Default)]
pub struct Source {
    pub name: Option<Text>,
    pub role: Option<Text>,
    /// The longer text about the owner, its paragraphs apart by blank lines.
    pub summary: Option<Text>,
    pub email: Option<Text>,
    pub phone: Option<Text>,
    pub location: Option<Location>,
    pub links: Vec<Link>,
    pub jobs: Vec<Entry>,
    pub schools: Vec<Entry>,
    pub skills: Vec<Text>,
    pub projects: Vec<ProjectItem>,
    pub awards: Vec<AwardItem>,
    /// What the reader already knows it cannot place, each a sentence naming it and why.
    pub notes: Vec<String>,
    /// The lists of skills and of projects as the file names them in a note (`skills`,
    /// `Skills.csv`).
    pub skills_from: String,
    pub projects_from: String,
}

/// Where the owner is, as shown and as a maps search looks for it.
#[derive(Debug, Clone)]
pub struct Location {
    pub display: String,
    pub maps: String,
    pub from: String,
}

/// A profile elsewhere.
#[derive(Debug, Clone)]
pub struct Link {
    /// `basics.profiles[1]`.
    pub from: String,
    /// The site's name as the file gives it (`GitHub`), maybe empty.
    pub network: String,
    pub url: Option<String>,
    pub username: Option<String>,
}

/// A job or a school.
#[derive(Debug, Clone, Default)]
pub struct Entry {
    /// `work[2]`, `Positions.csv row 3`.
    pub from: String,
    /// The position, or the degree.
    pub title: Option<Text>,
    /// The company, or the school.
    pub place: Option<Text>,
    /// Where it was, added to the place as the page shows it (`Acme, Berlin`).
    pub location: Option<String>,
    pub start: Option<Text>,
    pub end: Option<Text>,
    pub description: Option<Text>,
    /// Achievements, each a sentence of the description.
    pub highlights: Vec<Text>,
}

impl Entry {
    /// How a note names it: its place, else its title.
    pub fn label(&self) -> String {
        self.place
            .as_ref()
            .or(self.title.as_ref())
            .map_or_else(String::new, |t| one_line(&t.value))
    }
}

/// A project.
#[derive(Debug, Clone, Default)]
pub struct ProjectItem {
    pub from: String,
    pub title: Option<Text>,
    pub description: Option<Text>,
    pub highlights: Vec<Text>,
    pub url: Option<Text>,
    pub keywords: Vec<Text>,
}

/// An award, given by a school or an employer.
#[derive(Debug, Clone)]
pub struct AwardItem {
    pub from: String,
    pub title: Text,
    pub awarder: Option<String>,
}

/// `(from)` with its label: `work[2] (Acme)`, or `work[2]` when it has none.
pub fn named(from: &str, label: &str) -> String {
    if label.is_empty() {
        from.to_owned()
    } else {
        format!("{from} ({label})")
    }
}

// --- Texts ---

/// `text` on one line: control characters dropped, every run of white space one space, trimmed.
pub fn one_line(text: &str) -> String {
    text.split(|c: char| c.is_whitespace() || c.is_control())
        .filter(|word| !word.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text`'s paragraphs: apart by blank lines (or by line breaks when it has no blank line), each
/// on one line, none empty.
pub fn paragraphs(text: &str) -> Vec<String> {
    let text = text.replace("\r\n", "\n").replace('\r', "\n");
    let blocks: Vec<&str> = if text.contains("\n\n") {
        text.split("\n\n").collect()
    } else {
        text.split('\n').collect()
    };
    blocks
        .into_iter()
        .map(one_line)
        .filter(|p| !p.is_empty())
        .collect()
}

/// `text` (on one line) within `most` characters, and whether it was cut. A cut ends at the last
/// sentence's end that keeps at least half of the room, else at the last word boundary that fits
/// with an ellipsis after it (a word longer than the room is cut inside).
pub fn fit(text: &str, most: usize) -> (String, bool) {
    if text.chars().count() <= most {
        return (text.to_owned(), false);
    }
    let room: String = text.chars().take(most).collect();
    // A sentence's end: `.`, `!` or `?` followed by a space in the text.
    let mut sentence_end = None;
    for (at, c) in room.char_indices() {
        let next = text[at + c.len_utf8()..].chars().next();
        if matches!(c, '.' | '!' | '?') && next.is_some_and(char::is_whitespace) {
            sentence_end = Some(at + c.len_utf8());
        }
    }
    if let Some(end) = sentence_end.filter(|&end| room[..end].chars().count() * 2 >= most) {
        return (room[..end].to_owned(), true);
    }
    let shorter: String = text.chars().take(most.saturating_sub(1)).collect();
    let next_is_space = text
        .chars()
        .nth(most.saturating_sub(1))
        .is_some_and(char::is_whitespace);
    let cut = if next_is_space {
        shorter.as_str()
    } else {
        match shorter.rfind(' ') {
            Some(space) if space > 0 => &shorter[..space],
            _ => shorter.as_str(),
        }
    };
    let cut =
        cut.trim_end_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '-'));
    (format!("{cut}…"), true)
}

/// `text` as a sentence: ends with `.`, `!` or `?` (a period added when it has none).
pub fn sentence(text: &str) -> String {
    let text = text.trim();
    if text.ends_with(['.', '!', '?']) {
        text.to_owned()
    } else {
        format!("{text}.")
    }
}

/// An id of the page (`^[a-z0-9][a-z0-9-]{0,40}$`) made from a name: its ASCII letters and digits
/// in lower case, words joined by dashes; empty when it has none.
pub fn slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        let c = fold_accent(c).to_ascii_lowercase();
        if c.is_ascii_alphanumeric() {
            slug.push(c);
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
    }
    let slug: String = slug.chars().take(41).collect();
    slug.trim_end_matches('-').to_owned()
}

/// A Latin letter with an accent as the letter without it (`é` → `e`), for ids and matching.
fn fold_accent(c: char) -> char {
    match c {
        'à'..='å' | 'À'..='Å' => 'a',
        'ç' | 'Ç' => 'c',
        'è'..='ë' | 'È'..='Ë' => 'e',
        'ì'..='ï' | 'Ì'..='Ï' => 'i',
        'ñ' | 'Ñ' => 'n',
        'ò'..='ö' | 'Ò'..='Ö' | 'ø' | 'Ø' => 'o',
        'ù'..='ü' | 'Ù'..='Ü' => 'u',
        'ý' | 'ÿ' | 'Ý' => 'y',
        c => c,
    }
}

/// A technology's name as its logo is named (simple-icons' slugs, which the placeholder's logos
/// follow: `Node.js` → `nodedotjs`, `C++` → `cplusplus`, `C#` → `csharp`).
pub fn icon_slug(name: &str) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        match fold_accent(c).to_ascii_lowercase() {
            '.' => slug.push_str("dot"),
            '+' => slug.push_str("plus"),
            '#' => slug.push_str("sharp"),
            '&' => slug.push_str("and"),
            c if c.is_ascii_alphanumeric() => slug.push(c),
            _ => {}
        }
    }
    slug
}

/// Whether two names are the same, case and spacing aside.
pub fn same_name(a: &str, b: &str) -> bool {
    one_line(a).to_lowercase() == one_line(b).to_lowercase()
}

// --- Dates ---

/// A month of a year, or a year alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Moment {
    pub year: u16,
    pub month: Option<u8>,
}

/// A date as the file wrote it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Date {
    At(Moment),
    /// `Present`, `current`, `now`: it goes on.
    Ongoing,
    Unreadable,
}

const MONTHS: [&str; 12] = [
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec",
];

/// Reads a date: ISO 8601 as JSON Resume writes it (`2021`, `2021-03`, `2021-03-15`, a time
/// after it ignored), a month and a year as LinkedIn writes them (`Mar 2021`, `March 2021`),
/// `03/2021`, or a word for one that goes on.
pub fn read_date(text: &str) -> Date {
    let text = one_line(text);
    let lower = text.to_lowercase();
    if matches!(
        lower.as_str(),
        "present" | "current" | "now" | "today" | "ongoing"
    ) {
        return Date::Ongoing;
    }
    let moment = iso_date(&lower).or_else(|| worded_date(&lower));
    moment.map_or(Date::Unreadable, Date::At)
}

fn year(word: &str) -> Option<u16> {
    (word.len() == 4 && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
        .filter(|y| (1900..=2200).contains(y))
}

fn month_number(word: &str) -> Option<u8> {
    (!word.is_empty() && word.len() <= 2 && word.bytes().all(|b| b.is_ascii_digit()))
        .then(|| word.parse().ok())
        .flatten()
        .filter(|m| (1..=12).contains(m))
}

/// `2021`, `2021-03`, `2021-03-15` (and a time after a `T`), `03/2021`.
fn iso_date(text: &str) -> Option<Moment> {
    let date = text.split(['t', ' ']).next().unwrap_or_default();
    if let Some((month, y)) = date.split_once('/') {
        return Some(Moment {
            year: year(y)?,
            month: Some(month_number(month)?),
        });
    }
    let mut parts = date.split('-');
    let y = year(parts.next()?)?;
    let month = match parts.next() {
        Some(m) => Some(month_number(m)?),
        None => None,
    };
    if let Some(day) = parts.next() {
        let day: u8 =
            (!day.is_empty() && day.len() <= 2 && day.bytes().all(|b| b.is_ascii_digit()))
                .then(|| day.parse().ok())
                .flatten()
                .filter(|d| (1..=31).contains(d))?;
        month.filter(|_| day > 0)?;
    }
    parts.next().is_none().then_some(Moment { year: y, month })
}

/// `mar 2021`, `march 2021`, `sept. 2021`, `march, 2021`.
fn worded_date(text: &str) -> Option<Moment> {
    let words: Vec<&str> = text.split([' ', ',']).filter(|w| !w.is_empty()).collect();
    let [name, y] = words.as_slice() else {
        return None;
    };
    let name = name.trim_end_matches('.');
    let name = if name == "sept" { "sep" } else { name };
    let index = MONTHS.iter().position(|m| {
        let m = m.to_lowercase();
        name.len() >= 3 && (name == m || full_month(&m).is_some_and(|full| full == name))
    })?;
    Some(Moment {
        year: year(y)?,
        month: Some(u8::try_from(index + 1).ok()?),
    })
}

fn full_month(short: &str) -> Option<&'static str> {
    super::super::json::MONTHS
        .iter()
        .copied()
        .find(|full| full.starts_with(short))
}

/// A moment as the page shows it: `Mar 2021`, or `2021`.
pub fn shown(moment: Moment) -> String {
    match moment.month {
        Some(month) => format!("{} {}", MONTHS[usize::from(month - 1)], moment.year),
        None => moment.year.to_string(),
    }
}

/// The dates as the page shows them: `2021 - 2023`, `Mar 2021 - Jun 2023`, `2023 - Present`
/// (`ongoing` is the word for it), or one date alone (`2019`); `None` without a start or an end.
/// An entry with a start and no end goes on.
pub fn span(start: Option<Moment>, end: Option<Moment>, ongoing: &str) -> Option<String> {
    match (start, end) {
        (Some(start), Some(end)) if start == end => Some(shown(start)),
        (Some(start), Some(end)) => Some(format!("{} - {}", shown(start), shown(end))),
        (Some(start), None) => Some(format!("{} - {ongoing}", shown(start))),
        (None, Some(end)) => Some(shown(end)),
        (None, None) => None,
    }
}
