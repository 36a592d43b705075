//! A case study's page, `/projects/<slug>/` and `/<language>/projects/<slug>/`: which case
//! studies each language's pages show, what the render bundle draws one from (its
//! [`View`]: the case study in the page's language, its Markdown texts as trees, its figures
//! written the language's way), its head (title, description, canonical, alternates, Open Graph)
//! and its JSON-LD (a `CreativeWork` by the owner, and the breadcrumbs). Rendered at publish
//! with the pages of `/` (see `content::render`), never per request.

use serde::Serialize;

use super::case_study::{is_translated, translated, CaseStudy};
use super::case_study_entry::CaseStudies;
use super::document::ContentDocument;
use super::head::{
    alternate_link, escape_html, og_locale, og_locale_alternates, open_graph_tags,
    twitter_and_icon_tags, Preview, PREVIEW_PATH,
};
use super::language;
use super::markdown::{self, Block};

use crate::addresses::CASE_STUDY_SEGMENT as SEGMENT;

/// The address of the case study `slug` in the language whose page is at `home` (`/`, `/de/`).
pub fn path(home: &str, slug: &str) -> String {
    format!("{home}{SEGMENT}/{slug}/")
}

/// A case study a language's pages show.
#[derive(Debug, Clone)]
pub struct Shown<'a> {
    /// As published, with its translations.
    pub study: &'a CaseStudy,
    /// Its project's title, on the page of that language.
    pub title: String,
    /// When it was published (Unix ms); `None` for the placeholder's.
    pub published_at: Option<i64>,
}

/// The case studies the page of `page` (the document localized into `tag`) shows, in the order of
/// their projects on the page: those whose project is on it and, in a language besides the
/// default, those translated into it (until then that language leaves them out).
pub fn shown<'a>(
    document: &ContentDocument,
    page: &ContentDocument,
    tag: &str,
    studies: &'a CaseStudies,
) -> Vec<Shown<'a>> {
    let default = document.language.eq_ignore_ascii_case(tag);
    page.projects
        .iter()
        .filter_map(|project| {
            let served = studies.get(&project.id)?;
            let study = &served.document;
            (default || is_translated(study, tag)).then(|| Shown {
                study,
                title: project.title.clone(),
                published_at: served.published_at,
            })
        })
        .collect()
}

/// A neighbouring case study, for the way to the previous and the next one.
#[derive(Debug, Serialize)]
pub struct Neighbour {
    title: String,
    path: String,
}

/// The Markdown texts of a case study, as trees.
#[derive(Debug, Serialize)]
pub struct Texts {
    problem: Vec<Block>,
    role: Vec<Block>,
    team: Vec<Block>,
    constraints: Vec<Block>,
    outcome: Vec<Block>,
    decisions: Vec<Vec<Block>>,
}

/// What the render bundle draws a case study's page from (`CaseStudyView` in
/// `web/src/content/case-study-view.ts`).
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct View {
    study: CaseStudy,
    texts: Texts,
    figures: Vec<String>,
    path: String,
    home: String,
    /// The writing index of its language, for the header's Writing item, where the home page's
    /// header has it (see [`View::with_writing`]).
    writing: Option<String>,
    previous: Option<Neighbour>,
    next: Option<Neighbour>,
}

impl View {
    /// The view with the header's Writing item leading to `writing`, the language's writing index
    /// as [`super::post_page::header_item`] gives it (`None`: no item). A case study's page has
    /// the header of the home page of its language, that item too.
    pub fn with_writing(mut self, writing: Option<String>) -> Self {
        self.writing = writing;
        self
    }
}

/// The view of the `index`th of `shown` (a language's case studies, see [`shown`]) on the page
/// at `home`, in the language `tag`.
/// Its pictures are given where they are served: a bundled picture's hashed path from `media`
/// (the build's map, as `images/case-studies/…` names them), an upload's own path, so that the
/// page's script carries no map of the bundled pictures.
pub fn view(
    shown: &[Shown<'_>],
    index: usize,
    tag: &str,
    home: &str,
    media: &std::collections::HashMap<String, String>,
) -> View {
    let entry = &shown[index];
    let mut study = translated(entry.study, tag);
    study.former_slugs.clear();
    for item in &mut study.media {
        for source in &mut item.sources {
            if let Some(served) = media.get(&source.src) {
                source.src.clone_from(served);
            }
        }
    }
    let size_of = |src: &str| {
        study
            .media
            .iter()
            .find(|item| item.sources.iter().any(|source| source.src == src))
            .map(|item| (item.width, item.height))
    };
    let tree = |text: &str| markdown::to_tree_sized(text, size_of);
    let texts = Texts {
        problem: tree(&study.problem),
        role: tree(&study.role),
        team: tree(&study.team),
        constraints: tree(&study.constraints),
        outcome: tree(&study.outcome),
        decisions: study.decisions.iter().map(|d| tree(&d.why)).collect(),
    };
    let figures = study
        .figures
        .iter()
        .map(|figure| format_number(figure.value, tag))
        .collect();
    let neighbour = |at: usize| {
        shown.get(at).map(|other| Neighbour {
            title: other.title.clone(),
            path: path(home, &other.study.slug),
        })
    };
    View {
        texts,
        figures,
        path: path(home, &study.slug),
        home: home.to_owned(),
        writing: None,
        previous: index.checked_sub(1).and_then(neighbour),
        next: neighbour(index + 1),
        study,
    }
}

/// A number as the language `tag` writes it: its digits grouped by threes (`1,200.5` in English,
/// `1.200,5` in German, `1 200,5` in French), at most three decimals, without trailing zeros.
/// The render bundle runs without `Intl`, so the server writes it.
pub fn format_number(value: f64, tag: &str) -> String {
    let language = tag
        .split(['-', '_'])
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let (group, decimal) = match language.as_str() {
        "de" | "es" | "pt" | "it" | "nl" | "da" | "id" | "tr" | "el" => (".", ","),
        "fr" | "nb" | "no" | "sv" | "fi" | "cs" | "pl" | "ru" | "uk" | "sk" | "hu" => {
            ("\u{202f}", ",")
        }
        _ => (",", "."),
    };
    if !value.is_finite() {
        return String::new();
    }
    let text = format!("{:.3}", value.abs());
    let (whole, fraction) = text.split_once('.').unwrap_or((&text, ""));
    let fraction = fraction.trim_end_matches('0');
    let mut grouped = String::new();
    for (i, digit) in whole.chars().enumerate() {
        if i > 0 && (whole.len() - i) % 3 == 0 {
            grouped.push_str(group);
        }
        grouped.push(digit);
    }
    let sign = if value < 0.0 && (whole != "0" || !fraction.is_empty()) {
        "\u{2212}"
    } else {
        ""
    };
    if fraction.is_empty() {
        format!("{sign}{grouped}")
    } else {
        format!("{sign}{grouped}{decimal}{fraction}")
    }
}

/// The languages a case study's page is in: the default language and each published language
/// it is translated into, with the case study's path there, the default first; the page's
/// alternates and the sitemap's.
pub fn alternates(document: &ContentDocument, study: &CaseStudy) -> Vec<(String, String)> {
    language::published_tags(document)
        .into_iter()
        .filter(|tag| document.language.eq_ignore_ascii_case(tag) || is_translated(study, tag))
        .map(|tag| {
            let home = language::href(document, &tag);
            let path = path(&home, &study.slug);
            (tag, path)
        })
        .collect()
}

/// The head of a case study's page, one tag per line, indented as the template's head is.
/// `page` is the document in the page's language, `label` its word for a case study, `preview`
/// the path of its link preview.
pub struct Head<'a> {
    pub page: &'a ContentDocument,
    pub shown: &'a Shown<'a>,
    pub summary: &'a str,
    pub tag: &'a str,
    pub path: &'a str,
    pub preview: &'a str,
    pub label: &'a str,
    pub alternates: &'a [(String, String)],
}

/// `Project · Case study · Name`: the page's title.
fn page_title(head: &Head<'_>) -> String {
    format!(
        "{} · {} · {}",
        head.shown.title, head.label, head.page.profile.name
    )
}

pub fn head_tags(head: &Head<'_>, base: &str) -> String {
    let title = escape_html(&page_title(head));
    let description = escape_html(head.summary);
    let url = format!("{base}{}", escape_html(head.path));
    let image = format!("{base}{}", escape_html(head.preview));
    let name = escape_html(&head.page.profile.name);
    let image_alt = escape_html(&format!("{}: {}", head.label, head.shown.title));
    let mut tags = vec![
        format!("<title>{title}</title>"),
        format!("<meta name=\"description\" content=\"{description}\" />"),
        format!("<meta name=\"author\" content=\"{name}\" />"),
        format!("<link rel=\"canonical\" href=\"{url}\" />"),
    ];
    if head.alternates.len() > 1 {
        for (tag, path) in head.alternates {
            tags.push(alternate_link(base, tag, path));
        }
        tags.push(alternate_link(base, "x-default", &head.alternates[0].1));
    }
    let locale = escape_html(&og_locale(head.tag));
    let preview = Preview {
        kind: "article",
        site_name: &name,
        title: &title,
        description: &description,
        url: &url,
        image: &image,
        image_alt: &image_alt,
        locale: &locale,
    };
    tags.extend(open_graph_tags(&preview));
    tags.extend(og_locale_alternates(head.tag, head.alternates));
    tags.extend(twitter_and_icon_tags(&preview));
    tags.join("\n    ")
}

/// The JSON-LD of a case study's page: a `CreativeWork` whose author is the owner, and the
/// breadcrumbs (the owner's page, its projects, the case study). `home` is the page of the
/// language, `projects` its word for the projects, `image` the path of the case study's first
/// picture, if any.
pub struct JsonLd<'a> {
    pub head: &'a Head<'a>,
    pub home: &'a str,
    pub projects: &'a str,
    pub image: Option<&'a str>,
    pub technologies: &'a [String],
}

pub fn json_ld_tag(ld: &JsonLd<'_>, base: &str) -> String {
    let head = ld.head;
    let url = format!("{base}{}", head.path);
    let modified = head
        .shown
        .published_at
        .and_then(chrono::DateTime::from_timestamp_millis)
        .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true));
    let mut work = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "CreativeWork",
        "name": head.shown.title,
        "headline": page_title(head),
        "description": head.summary,
        "url": url,
        "inLanguage": head.tag,
        "genre": head.label,
        "author": {
            "@type": "Person",
            "name": head.page.profile.name,
            "url": format!("{base}/"),
        },
        "image": ld.image.map_or_else(
            || format!("{base}{}", head.preview),
            |path| format!("{base}{path}"),
        ),
    });
    if !ld.technologies.is_empty() {
        work["keywords"] = serde_json::json!(ld.technologies.join(", "));
    }
    if let Some(modified) = modified {
        work["dateModified"] = serde_json::json!(modified);
    }
    let crumbs = serde_json::json!({
        "@context": "https://schema.org",
        "@type": "BreadcrumbList",
        "itemListElement": [
            {"@type": "ListItem", "position": 1, "name": head.page.profile.name, "item": format!("{base}{}", ld.home)},
            {"@type": "ListItem", "position": 2, "name": ld.projects, "item": format!("{base}{}#projects", ld.home)},
            {"@type": "ListItem", "position": 3, "name": head.shown.title, "item": url},
        ],
    });
    let json = serde_json::to_string(&[work, crumbs])
        .expect("JSON-LD serialises")
        .replace('<', "\\u003c");
    format!("<script type=\"application/ld+json\">{json}</script>")
}

/// The link preview's path of a case study's page.
pub fn preview_path(page_path: &str) -> String {
    format!("{page_path}{}", PREVIEW_PATH.trim_start_matches('/'))
}

#[cfg(test)]
mod tests {
    use super::format_number;

    #[test]
    fn the_view_names_the_writing_index_for_the_header_only_when_given() {
        let document = super::super::document::default_document();
        let studies: super::CaseStudies = super::super::case_study::default_case_studies()
            .iter()
            .map(|study| {
                let served = super::super::case_study_entry::PublishedCaseStudy {
                    version: 0,
                    published_at: None,
                    document: study.clone(),
                };
                (study.project.clone(), std::sync::Arc::new(served))
            })
            .collect();
        let shown = super::shown(document, document, &document.language, &studies);
        assert!(
            !shown.is_empty(),
            "the placeholder's case studies are shown"
        );
        let media = std::collections::HashMap::new();
        let view = || super::view(&shown, 0, &document.language, "/", &media);
        let json = |view: super::View| serde_json::to_value(view).unwrap();
        assert_eq!(json(view())["writing"], serde_json::Value::Null);
        assert_eq!(
            json(view().with_writing(Some("/writing/".into())))["writing"],
            "/writing/"
        );
    }

    #[test]
    fn numbers_are_written_the_languages_way() {
        assert_eq!(format_number(1200.5, "en"), "1,200.5");
        assert_eq!(format_number(1200.5, "de"), "1.200,5");
        assert_eq!(format_number(1200.5, "fr"), "1\u{202f}200,5");
        assert_eq!(format_number(38.0, "en"), "38");
        assert_eq!(format_number(0.25, "pt-BR"), "0,25");
        assert_eq!(format_number(-1234567.0, "en"), "\u{2212}1,234,567");
        assert_eq!(format_number(100.0, "ar"), "100");
        assert_eq!(format_number(2.0 / 3.0, "en"), "0.667");
        assert_eq!(format_number(-0.0001, "en"), "0");
    }
}
