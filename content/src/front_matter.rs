//! Posts as Markdown files with YAML front matter, as Hugo, Jekyll and Astro write them: read by
//! [`read`] (each problem with its line) and written by [`write`], for `portfolio posts import`
//! and `export`. The YAML is read and written by yaml-rust2, never by hand, so a title with a
//! colon or a quote round-trips.
//!
//! Read: `title`; the date from `date`, `pubDatetime`, `publishDate` or `pubDate` (a day, RFC
//! 3339, or Jekyll's `2024-01-15 10:00:00 +0100`); `slug` (else the file's name, or its folder's
//! for a page bundle's `index.md`); `tags` (a list, or words separated by commas) and Jekyll's
//! `categories`; `draft: true` or Jekyll's `published: false`; the summary from `description`,
//! `summary` or `excerpt`. Every other key is left, and said.

use yaml_rust2::yaml::Hash;
use yaml_rust2::{Yaml, YamlEmitter, YamlLoader};

/// A problem of a file, at a line (from 1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

/// A post as a file has it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FilePost {
    pub title: String,
    /// Unix ms.
    pub date: Option<i64>,
    pub slug: String,
    pub tags: Vec<String>,
    pub draft: bool,
    pub summary: String,
    pub body: String,
    /// The line (from 1) the body starts on, for its problems.
    pub body_line: usize,
    /// The line of each key, for the problems of its field.
    pub lines: Vec<(String, usize)>,
    /// Keys read but not taken (`cover`, `layout` …), for the report.
    pub left: Vec<String>,
}

impl FilePost {
    /// The line of `key` in the front matter, else 1.
    pub fn line_of(&self, key: &str) -> usize {
        self.lines
            .iter()
            .find(|(k, _)| k == key)
            .map_or(1, |(_, line)| *line)
    }
}

const DATE_KEYS: [&str; 4] = ["date", "pubDatetime", "publishDate", "pubDate"];
const SUMMARY_KEYS: [&str; 3] = ["description", "summary", "excerpt"];
const TAKEN: [&str; 13] = [
    "title",
    "date",
    "pubDatetime",
    "publishDate",
    "pubDate",
    "slug",
    "tags",
    "categories",
    "draft",
    "published",
    "description",
    "summary",
    "excerpt",
];

/// A moment as front matter writes it (Unix ms).
pub fn parse_date(text: &str) -> Option<i64> {
    let text = text.trim();
    if let Ok(moment) = chrono::DateTime::parse_from_rfc3339(text) {
        return Some(moment.timestamp_millis());
    }
    for format in [
        "%Y-%m-%d %H:%M:%S %z",
        "%Y-%m-%d %H:%M %z",
        "%Y-%m-%dT%H:%M:%S%z",
    ] {
        if let Ok(moment) = chrono::DateTime::parse_from_str(text, format) {
            return Some(moment.timestamp_millis());
        }
    }
    for format in ["%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M"] {
        if let Ok(moment) = chrono::NaiveDateTime::parse_from_str(text, format) {
            return Some(moment.and_utc().timestamp_millis());
        }
    }
    chrono::NaiveDate::parse_from_str(text, "%Y-%m-%d")
        .ok()
        .and_then(|day| day.and_hms_opt(0, 0, 0))
        .map(|moment| moment.and_utc().timestamp_millis())
}

fn text_of(value: &Yaml) -> Option<String> {
    match value {
        Yaml::String(s) | Yaml::Real(s) => Some(s.clone()),
        Yaml::Integer(n) => Some(n.to_string()),
        Yaml::Boolean(b) => Some(b.to_string()),
        _ => None,
    }
}

/// Reads a file's text; `stem` is the slug its name gives (the folder's for `index.md`).
pub fn read(text: &str, stem: &str) -> Result<FilePost, Vec<Problem>> {
    let problem = |line: usize, message: &str| Problem {
        line,
        message: message.to_owned(),
    };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    if lines.next().map(str::trim_end) != Some("---") {
        return Err(vec![problem(
            1,
            "the file does not begin with front matter: a line of ---, then `title: …` and the \
             other fields, then a line of ---",
        )]);
    }
    let mut yaml = String::new();
    let mut closed = None;
    for (i, line) in lines.enumerate() {
        if line.trim_end() == "---" || line.trim_end() == "..." {
            closed = Some(i + 2);
            break;
        }
        yaml.push_str(line);
    }
    let Some(closing_line) = closed else {
        return Err(vec![problem(
            1,
            "the front matter is not closed: end it with a line of ---",
        )]);
    };
    let body_start: usize = text
        .split_inclusive('\n')
        .take(closing_line)
        .map(str::len)
        .sum();
    let after = &text[body_start.min(text.len())..];
    let body = after.trim_start_matches(['\n', '\r']);
    let body_line = closing_line + 1 + after[..after.len() - body.len()].matches('\n').count();
    let docs = YamlLoader::load_from_str(&yaml).map_err(|error| {
        vec![problem(
            error.marker().line() + 1,
            &format!("the front matter is not YAML: {}", error.info()),
        )]
    })?;
    let Some(Yaml::Hash(map)) = docs.into_iter().next() else {
        return Err(vec![problem(
            2,
            "the front matter has no fields: write `title: …` and the others, one per line",
        )]);
    };
    let key_lines: Vec<(String, usize)> = yaml
        .lines()
        .enumerate()
        .filter_map(|(i, line)| {
            let key = line.split(':').next()?;
            (!key.starts_with([' ', '\t', '-', '#']) && line.contains(':'))
                .then(|| (key.trim().trim_matches(['"', '\'']).to_owned(), i + 2))
        })
        .collect();
    let line_of = |key: &str| {
        key_lines
            .iter()
            .find(|(k, _)| k == key)
            .map_or(2, |(_, line)| *line)
    };
    let get = |key: &str| map.get(&Yaml::String(key.to_owned()));
    let mut problems = Vec::new();
    let title = match get("title").map(text_of) {
        Some(Some(title)) if !title.trim().is_empty() => title.trim().to_owned(),
        Some(_) => {
            problems.push(problem(line_of("title"), "`title` must be a text"));
            String::new()
        }
        None => {
            problems.push(problem(2, "the front matter has no `title`"));
            String::new()
        }
    };
    let mut date = None;
    for key in DATE_KEYS {
        if let Some(value) = get(key) {
            match text_of(value).as_deref().and_then(parse_date) {
                Some(moment) => date = Some(moment),
                None => problems.push(problem(
                    line_of(key),
                    &format!("`{key}` is not a date: write 2024-01-15 or 2024-01-15T10:00:00Z"),
                )),
            }
            break;
        }
    }
    let slug = match get("slug").map(text_of) {
        Some(Some(slug)) => slug,
        Some(None) => {
            problems.push(problem(line_of("slug"), "`slug` must be a text"));
            String::new()
        }
        None if !stem.is_empty() => super::case_study::slug_from_title(stem),
        None => super::case_study::slug_from_title(&title),
    };
    let mut tags = Vec::new();
    for key in ["tags", "categories"] {
        match get(key) {
            Some(Yaml::Array(items)) => {
                for item in items {
                    match text_of(item) {
                        Some(tag) => tags.push(tag),
                        None => problems.push(problem(
                            line_of(key),
                            &format!("each of `{key}` must be a word"),
                        )),
                    }
                }
            }
            Some(Yaml::Null) | None => {}
            Some(value) => match text_of(value) {
                Some(words) => tags.extend(
                    words
                        .split([',', ' '])
                        .map(str::trim)
                        .filter(|w| !w.is_empty())
                        .map(str::to_owned),
                ),
                None => problems.push(problem(
                    line_of(key),
                    &format!("`{key}` must be a list of words"),
                )),
            },
        }
    }
    let mut seen = std::collections::HashSet::new();
    tags.retain(|tag| seen.insert(super::post::tag_slug(tag)));
    let draft = match (get("draft"), get("published")) {
        (Some(Yaml::Boolean(draft)), _) => *draft,
        (Some(_), _) => {
            problems.push(problem(line_of("draft"), "`draft` must be true or false"));
            true
        }
        (None, Some(Yaml::Boolean(published))) => !published,
        (None, Some(_)) => {
            problems.push(problem(
                line_of("published"),
                "`published` must be true or false",
            ));
            true
        }
        (None, None) => false,
    };
    let summary = SUMMARY_KEYS
        .iter()
        .find_map(|key| get(key).and_then(text_of))
        .unwrap_or_default()
        .trim()
        .to_owned();
    let left = map
        .keys()
        .filter_map(|k| k.as_str())
        .filter(|k| !TAKEN.contains(k))
        .map(str::to_owned)
        .collect();
    if !problems.is_empty() {
        return Err(problems);
    }
    Ok(FilePost {
        title,
        date,
        slug,
        tags,
        draft,
        summary,
        body: body.to_owned(),
        body_line,
        lines: key_lines,
        left,
    })
}

/// A post as a file: its front matter (title, date, slug, tags, draft, description, language)
/// written by the YAML emitter, then its body.
pub fn write(post: &super::post::Post, draft: bool) -> String {
    let mut map = Hash::new();
    let mut put = |key: &str, value: Yaml| {
        map.insert(Yaml::String(key.to_owned()), value);
    };
    put("title", Yaml::String(post.title.clone()));
    if let Some(date) = post.date.and_then(chrono::DateTime::from_timestamp_millis) {
        put(
            "date",
            Yaml::String(date.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        );
    }
    put("slug", Yaml::String(post.slug.clone()));
    if !post.summary.is_empty() {
        put("description", Yaml::String(post.summary.clone()));
    }
    if !post.tags.is_empty() {
        put(
            "tags",
            Yaml::Array(post.tags.iter().cloned().map(Yaml::String).collect()),
        );
    }
    put("draft", Yaml::Boolean(draft));
    put("language", Yaml::String(post.language.clone()));
    let mut yaml = String::new();
    YamlEmitter::new(&mut yaml)
        .dump(&Yaml::Hash(map))
        .expect("a map of texts is written");
    // The emitter begins with its own `---`.
    let yaml = yaml.strip_prefix("---\n").unwrap_or(&yaml);
    let mut text = format!("---\n{yaml}\n---\n\n{}", post.body);
    if !text.ends_with('\n') {
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hugos_and_astros_front_matter_is_read() {
        let hugo = "---\ntitle: \"Fish: & <Chips>\"\ndate: 2024-01-15T10:00:00+01:00\ntags: [rust, web]\ndraft: false\ndescription: A post.\nlayout: post\n---\n\nHello.\n";
        let post = read(hugo, "fish").unwrap();
        assert_eq!(post.title, "Fish: & <Chips>");
        assert_eq!(post.date, Some(1_705_309_200_000));
        assert_eq!(post.slug, "fish");
        assert_eq!(post.tags, ["rust", "web"]);
        assert!(!post.draft);
        assert_eq!(post.summary, "A post.");
        assert_eq!(post.body, "Hello.\n");
        assert_eq!(post.left, ["layout"]);
        let astro = "---\ntitle: Astro\npubDatetime: 2024-02-01\nslug: my-astro\ntags:\n  - one\n  - two\ndraft: true\n---\nBody\n";
        let post = read(astro, "ignored").unwrap();
        assert_eq!(post.slug, "my-astro");
        assert_eq!(post.date, Some(1_706_745_600_000));
        assert_eq!(post.tags, ["one", "two"]);
        assert!(post.draft);
        let jekyll = "---\ntitle: Jekyll\ndate: 2024-01-15 10:00:00 +0100\ncategories: a b\npublished: false\n---\nBody\n";
        let post = read(jekyll, "2024-01-15-jekyll").unwrap();
        assert_eq!(post.date, Some(1_705_309_200_000));
        assert_eq!(post.tags, ["a", "b"]);
        assert!(post.draft);
    }

    #[test]
    fn problems_name_their_line() {
        let bad = "---\ntitle: One\ndate: someday\n---\nBody\n";
        assert_eq!(read(bad, "x").unwrap_err()[0].line, 3);
        let broken = "---\ntitle: One\ntags: [a, b\n---\nBody\n";
        let problems = read(broken, "x").unwrap_err();
        assert!(problems[0].message.contains("not YAML"), "{problems:?}");
        assert!(problems[0].line >= 3, "{problems:?}");
        assert_eq!(read("Just text\n", "x").unwrap_err()[0].line, 1);
        assert_eq!(
            read("---\ndate: 2024-01-01\n---\n", "x").unwrap_err()[0].message,
            "the front matter has no `title`"
        );
    }

    #[test]
    fn a_written_post_reads_back_the_same() {
        let mut post =
            super::super::post::begun("x".into(), "A: \"quoted\" & <b>".into(), "en".into());
        post.tags = vec!["rust".into(), "yes".into()];
        post.summary = "Line: one".into();
        post.date = Some(1_705_309_200_000);
        post.body = "# Hi\n\nText.\n".into();
        let text = write(&post, false);
        let back = read(&text, "ignored").unwrap();
        assert_eq!(back.title, post.title);
        assert_eq!(back.tags, post.tags);
        assert_eq!(back.summary, post.summary);
        assert_eq!(back.date, post.date);
        assert_eq!(back.slug, "x");
        assert_eq!(back.body, post.body);
        assert!(!back.draft);
    }
}
