//! A JSON Resume file (schema 1.0.0, <https://jsonresume.org/schema>) read into a [`Source`]:
//! `basics`, `work`, `education`, `awards`, `skills` and `projects` for the page; the sections the
//! page has no place for (`volunteer`, `certificates`, `publications`, `languages`, `interests`,
//! `references`) and every field it does not show are noted, each by its path. A field of the
//! wrong type is noted rather than refused: only a file that is not JSON, or JSON that is no
//! resume, is.

use serde_json::{Map, Value};

use super::source::{named, one_line, AwardItem, Entry, Link, Location, ProjectItem, Source, Text};

/// The sections of the schema.
const SECTIONS: [&str; 14] = [
    "$schema",
    "meta",
    "basics",
    "work",
    "volunteer",
    "education",
    "awards",
    "certificates",
    "publications",
    "skills",
    "languages",
    "interests",
    "references",
    "projects",
];

/// The sections the page has no place for, and what it would have to have.
const ELSEWHERE: [(&str, &str, &str); 6] = [
    ("volunteer", "organization", "volunteering"),
    ("certificates", "name", "certificates"),
    ("publications", "name", "publications"),
    ("languages", "language", "spoken languages"),
    ("interests", "name", "interests"),
    ("references", "name", "references"),
];

/// Reads `bytes` as a JSON Resume; the error says what is wrong with the file.
pub fn read(bytes: &[u8]) -> Result<Source, String> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let value: Value =
        serde_json::from_slice(bytes).map_err(|error| format!("is not valid JSON: {error}"))?;
    let Value::Object(root) = value else {
        return Err(
            "is JSON but not a JSON Resume: a JSON Resume is an object with basics, work, \
             education, skills and projects"
                .into(),
        );
    };
    if root.contains_key("profile") && root.contains_key("typewriterPhrases") {
        return Err(
            "is the page's own content document, not a JSON Resume: import it with \
             `portfolio content import`"
                .into(),
        );
    }
    if !SECTIONS[2..]
        .iter()
        .any(|section| root.contains_key(*section))
    {
        return Err(
            "is JSON but not a JSON Resume: it has none of basics, work, education, skills or \
             projects"
                .into(),
        );
    }
    let mut source = Source {
        skills_from: "skills".into(),
        projects_from: "projects".into(),
        ..Source::default()
    };
    for key in root.keys().filter(|key| !SECTIONS.contains(&key.as_str())) {
        source
            .notes
            .push(format!("{key}: not a section of JSON Resume: not read"));
    }
    if let Some(basics) = object(&root, "basics", "basics", &mut source.notes) {
        read_basics(basics, &mut source);
    }
    for (from, item) in items(&root, "work", &mut source.notes) {
        let entry = read_job(&from, item, &mut source.notes);
        source.jobs.push(entry);
    }
    for (from, item) in items(&root, "education", &mut source.notes) {
        let entry = read_school(&from, item, &mut source.notes);
        source.schools.push(entry);
    }
    for (from, item) in items(&root, "awards", &mut source.notes) {
        let mut fields = Fields::new(item, &from);
        match fields.text("title") {
            Some(title) => {
                let awarder = fields.text("awarder").map(|t| t.value);
                fields.note_rest(
                    &title.value,
                    "the page shows an award's title, under the school or job that gave it",
                    &mut source.notes,
                );
                source.awards.push(AwardItem {
                    from,
                    title,
                    awarder,
                });
            }
            None => source
                .notes
                .push(format!("{from}: an award without a title: not placed")),
        }
    }
    read_skills(&root, &mut source);
    for (from, item) in items(&root, "projects", &mut source.notes) {
        let project = read_project(&from, item, &mut source.notes);
        source.projects.push(project);
    }
    for (section, label_key, what) in ELSEWHERE {
        for (from, item) in items(&root, section, &mut source.notes) {
            let label = Fields::new(item, &from)
                .text(label_key)
                .map(|t| t.value)
                .unwrap_or_default();
            source
                .notes
                .push(format!("{}: the page has no {what}", named(&from, &label)));
        }
    }
    Ok(source)
}

/// `root[key]` when it is an object; noted when it is something else.
fn object<'a>(
    root: &'a Map<String, Value>,
    key: &str,
    from: &str,
    notes: &mut Vec<String>,
) -> Option<&'a Map<String, Value>> {
    match root.get(key)? {
        Value::Object(object) => Some(object),
        Value::Null => None,
        _ => {
            notes.push(format!("{from}: not an object: not read"));
            None
        }
    }
}

/// The objects of the list `root[key]`, each with its path (`work[2]`); a list that is not one,
/// and an item that is not an object, noted.
fn items<'a>(
    root: &'a Map<String, Value>,
    key: &str,
    notes: &mut Vec<String>,
) -> Vec<(String, &'a Map<String, Value>)> {
    let list = match root.get(key) {
        None | Some(Value::Null) => return Vec::new(),
        Some(Value::Array(list)) => list,
        Some(_) => {
            notes.push(format!("{key}: not a list: not read"));
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    for (i, item) in list.iter().enumerate() {
        match item {
            Value::Object(object) => out.push((format!("{key}[{i}]"), object)),
            _ => notes.push(format!("{key}[{i}]: not an object: not read")),
        }
    }
    out
}

/// An object's fields, read one by one, so that those left over can be noted.
struct Fields<'a> {
    object: &'a Map<String, Value>,
    from: &'a str,
    used: Vec<&'static str>,
}

impl<'a> Fields<'a> {
    fn new(object: &'a Map<String, Value>, from: &'a str) -> Self {
        Fields {
            object,
            from,
            used: Vec::new(),
        }
    }

    /// The text `key` holds (a number as written), if it holds one that is not blank.
    fn text(&mut self, key: &'static str) -> Option<Text> {
        self.used.push(key);
        let value = match self.object.get(key)? {
            Value::String(text) => text.trim().to_owned(),
            Value::Number(number) => number.to_string(),
            _ => return None,
        };
        (!one_line(&value).is_empty()).then(|| Text::new(value, format!("{}.{key}", self.from)))
    }

    /// The texts of the list `key` holds.
    fn texts(&mut self, key: &'static str) -> Vec<Text> {
        self.used.push(key);
        let Some(Value::Array(list)) = self.object.get(key) else {
            return Vec::new();
        };
        list.iter()
            .enumerate()
            .filter_map(|(i, value)| match value {
                Value::String(text) if !one_line(text).is_empty() => {
                    Some(Text::new(text.trim(), format!("{}.{key}[{i}]", self.from)))
                }
                _ => None,
            })
            .collect()
    }

    /// The object `key` holds.
    fn object(&mut self, key: &'static str) -> Option<&'a Map<String, Value>> {
        self.used.push(key);
        self.object.get(key)?.as_object()
    }

    /// The list `key` holds.
    fn list(&mut self, key: &'static str) -> &'a [Value] {
        self.used.push(key);
        self.object
            .get(key)
            .and_then(Value::as_array)
            .map_or(&[], Vec::as_slice)
    }

    /// Notes the fields not read that hold something: `work[0] (Acme): url, description: not
    /// placed: <why>`.
    fn note_rest(&self, label: &str, why: &str, notes: &mut Vec<String>) {
        let rest: Vec<&str> = self
            .object
            .iter()
            .filter(|(key, value)| !self.used.contains(&key.as_str()) && !is_empty(value))
            .map(|(key, _)| key.as_str())
            .collect();
        if !rest.is_empty() {
            notes.push(format!(
                "{}: {}: not placed: {why}",
                named(self.from, &one_line(label)),
                rest.join(", ")
            ));
        }
    }
}

/// Whether a value says nothing: null, blank, or an empty list or object.
fn is_empty(value: &Value) -> bool {
    match value {
        Value::Null => true,
        Value::String(text) => text.trim().is_empty(),
        Value::Array(list) => list.is_empty(),
        Value::Object(object) => object.is_empty(),
        _ => false,
    }
}

fn read_basics(basics: &Map<String, Value>, source: &mut Source) {
    let mut fields = Fields::new(basics, "basics");
    source.name = fields.text("name");
    source.role = fields.text("label");
    source.summary = fields.text("summary");
    source.email = fields.text("email");
    source.phone = fields.text("phone");
    if let Some(image) = fields.text("image") {
        source.notes.push(format!(
            "basics.image: not placed: the page's photo is an upload of yours: upload {} in the editor",
            one_line(&image.value)
        ));
    }
    if let Some(url) = fields.text("url") {
        source.notes.push(format!(
            "basics.url ({}): not placed: the page is your site; add another site as a social link in the editor",
            one_line(&url.value)
        ));
    }
    if let Some(location) = fields.object("location") {
        source.location = read_location(location, &mut source.notes);
    }
    for (i, profile) in fields.list("profiles").iter().enumerate() {
        let from = format!("basics.profiles[{i}]");
        let Some(profile) = profile.as_object() else {
            source
                .notes
                .push(format!("{from}: not an object: not read"));
            continue;
        };
        let mut link = Fields::new(profile, &from);
        let network = link.text("network").map(|t| one_line(&t.value));
        let url = link.text("url").map(|t| one_line(&t.value));
        let username = link.text("username").map(|t| one_line(&t.value));
        link.note_rest(
            network.as_deref().unwrap_or_default(),
            "the page shows a profile's site and address",
            &mut source.notes,
        );
        source.links.push(Link {
            from,
            network: network.unwrap_or_default(),
            url,
            username,
        });
    }
    fields.note_rest("", "the page has no place for them", &mut source.notes);
}

fn read_location(location: &Map<String, Value>, notes: &mut Vec<String>) -> Option<Location> {
    let mut fields = Fields::new(location, "basics.location");
    let parts: Vec<String> = ["city", "region", "countryCode"]
        .into_iter()
        .filter_map(|key| fields.text(key))
        .map(|t| one_line(&t.value))
        .collect();
    fields.note_rest(
        "",
        "no street address is published: the page shows the city, the region and the country",
        notes,
    );
    (!parts.is_empty()).then(|| Location {
        display: parts.join(", "),
        maps: parts.join(", "),
        from: "basics.location".into(),
    })
}

fn read_job(from: &str, item: &Map<String, Value>, notes: &mut Vec<String>) -> Entry {
    let mut fields = Fields::new(item, from);
    let place = fields.text("name").or_else(|| fields.text("company"));
    let entry = Entry {
        from: from.to_owned(),
        title: fields.text("position"),
        place,
        location: fields.text("location").map(|t| one_line(&t.value)),
        start: fields.text("startDate"),
        end: fields.text("endDate"),
        description: fields.text("summary"),
        highlights: fields.texts("highlights"),
    };
    fields.note_rest(
        &entry.label(),
        "the page shows a job's position, company, location, dates, summary and highlights",
        notes,
    );
    entry
}

fn read_school(from: &str, item: &Map<String, Value>, notes: &mut Vec<String>) -> Entry {
    let mut fields = Fields::new(item, from);
    let kind = fields.text("studyType");
    let area = fields.text("area");
    let title = match (kind, area) {
        (Some(kind), Some(area)) => Some(Text::new(
            format!("{} in {}", one_line(&kind.value), one_line(&area.value)),
            format!("{from}.studyType and area"),
        )),
        (kind, area) => kind.or(area),
    };
    let mut described = Vec::new();
    if let Some(score) = fields.text("score") {
        described.push(format!("Score: {}.", one_line(&score.value)));
    }
    let courses: Vec<String> = fields
        .texts("courses")
        .iter()
        .map(|t| one_line(&t.value))
        .collect();
    if !courses.is_empty() {
        described.push(format!("Courses: {}.", courses.join(", ")));
    }
    let entry = Entry {
        from: from.to_owned(),
        title,
        place: fields.text("institution"),
        location: fields.text("location").map(|t| one_line(&t.value)),
        start: fields.text("startDate"),
        end: fields.text("endDate"),
        description: (!described.is_empty())
            .then(|| Text::new(described.join(" "), format!("{from}.score and courses"))),
        highlights: Vec::new(),
    };
    fields.note_rest(
        &entry.label(),
        "the page shows a school's degree, institution, dates, score and courses",
        notes,
    );
    entry
}

/// Skills: a skill's keywords are the page's skills when it has them (JSON Resume groups them:
/// `Web Development` of `HTML`, `CSS`), else its name is; levels are noted once for all.
fn read_skills(root: &Map<String, Value>, source: &mut Source) {
    let mut levels = Vec::new();
    for (from, item) in items(root, "skills", &mut source.notes) {
        let mut fields = Fields::new(item, &from);
        let name = fields.text("name");
        let keywords = fields.texts("keywords");
        if let Some(level) = fields.text("level") {
            levels.push(one_line(&level.value));
        }
        let label = name
            .as_ref()
            .map(|n| one_line(&n.value))
            .unwrap_or_default();
        fields.note_rest(&label, "the page shows a skill's name", &mut source.notes);
        match (name, keywords.is_empty()) {
            (Some(name), true) => source.skills.push(name),
            (name, false) => {
                if name.is_some() {
                    source.notes.push(format!(
                        "{}: a group: its keywords are the page's skills, the group's name is not shown",
                        named(&from, &label)
                    ));
                }
                source.skills.extend(keywords);
            }
            (None, true) => source
                .notes
                .push(format!("{from}: a skill without a name: not placed")),
        }
    }
    if !levels.is_empty() {
        levels.dedup();
        source.notes.push(format!(
            "skills: levels ({}): not placed: the page shows no skill levels",
            levels.join(", ")
        ));
    }
}

fn read_project(from: &str, item: &Map<String, Value>, notes: &mut Vec<String>) -> ProjectItem {
    let mut fields = Fields::new(item, from);
    let project = ProjectItem {
        from: from.to_owned(),
        title: fields.text("name"),
        description: fields.text("description"),
        highlights: fields.texts("highlights"),
        url: fields.text("url"),
        keywords: fields.texts("keywords"),
    };
    let label = project
        .title
        .as_ref()
        .map(|t| t.value.clone())
        .unwrap_or_default();
    fields.note_rest(
        &label,
        "the page shows a project's name, description, highlights, keywords and link",
        notes,
    );
    project
}
