//! A post's body: Markdown (CommonMark with tables, footnotes and strikethrough), checked when the
//! post is saved ([`check`]) and written to HTML once, at publish ([`render`]), by pulldown-cmark's
//! own writer from the same parser, so what [`check`] took is exactly what [`render`] writes.
//!
//! Refused: raw HTML (comments too), links to anything but `http:`, `https:`, `mailto:`, a path
//! on this site or a place in the post (`#…`), images that are not the owner's uploads, and math.
//! Written by us around the writer: headings with ids and an anchor link (and the table of
//! contents made from them), code blocks highlighted into spans with classes (syntect; the CSP
//! allows no inline style), images with their upload's sizes, tables in a scrolling box, and the
//! footnotes numbered in the order they are referred to, at the end. [`render`] keeps its own
//! guards (what [`check`] refuses becomes text) and never panics on any input.

use std::collections::HashMap;
use std::fmt::Write as _;
use std::sync::OnceLock;

use pulldown_cmark::{
    CodeBlockKind, CowStr, Event, HeadingLevel, LinkType, Options, Parser, Tag, TagEnd,
};
use serde::Serialize;

use super::markdown::{language, same_site_path, shown, trimmed};

/// The most a post's body may hold, in bytes.
pub const MAX_BODY_BYTES: usize = 100_000;
/// A code block longer than this is shown without highlighting (a grammar's regular expressions
/// on a pathological block are the one slow part of a publish).
const MAX_HIGHLIGHTED: usize = 20_000;
/// Words read in a minute, for the reading time.
const WORDS_PER_MINUTE: usize = 200;
/// A table of contents is shown from this many headings.
const TOC_FROM: usize = 3;

fn options() -> Options {
    Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_STRIKETHROUGH
}

/// A problem of a body, for the owner: the line it is on (from 1) and what to change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Problem {
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Line {}: {}", self.line, self.message)
    }
}

/// The line (from 1) of byte `offset` of `source`.
fn line_of(source: &str, offset: usize) -> usize {
    source.as_bytes()[..offset.min(source.len())]
        .iter()
        .filter(|b| **b == b'\n')
        .count()
        + 1
}

/// Where a link may lead: a web or e-mail address ([`super::markdown::safe_href`]), a path on
/// this site, or a place in the post.
pub fn safe_link(link_type: &LinkType, destination: &str) -> Option<String> {
    if let Some(href) = super::markdown::safe_href(link_type, destination) {
        return Some(href);
    }
    let address = trimmed(destination);
    let fragment = address.strip_prefix('#').is_some_and(|rest| {
        !rest.is_empty() && !rest.chars().any(|c| c.is_whitespace() || c.is_control())
    });
    (fragment || (same_site_path(address) && !address.contains(':'))).then(|| address.to_owned())
}

/// The first problem of `source`, with its line; `own_image` tells whether an image's address is
/// one of the owner's uploads (and it must be a path on this site).
pub fn check(source: &str, own_image: impl Fn(&str) -> bool) -> Result<(), Problem> {
    if source.len() > MAX_BODY_BYTES {
        return Err(Problem {
            line: 1,
            message: format!(
                "The text is longer than {} kB: split it into two posts.",
                MAX_BODY_BYTES / 1000
            ),
        });
    }
    let problem = |range: std::ops::Range<usize>, message: String| Problem {
        line: line_of(source, range.start),
        message,
    };
    for (event, range) in Parser::new_ext(source, options()).into_offset_iter() {
        match event {
            Event::Html(html) | Event::InlineHtml(html) => {
                let html = html.trim();
                let tag = match html.find('>') {
                    Some(end) if !html.starts_with("<!--") => &html[..=end],
                    _ if html.starts_with("<!--") => "<!--",
                    _ => html,
                };
                return Err(problem(
                    range,
                    format!(
                        "HTML is not taken in a post (found \u{201c}{}\u{201d}): write it in \
                         Markdown instead. To show a tag as it is, put it between backquotes, as \
                         in `<b>`.",
                        shown(tag)
                    ),
                ));
            }
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                ..
            }) if safe_link(&link_type, &dest_url).is_none() => {
                return Err(problem(
                    range,
                    format!(
                        "The link to \u{201c}{}\u{201d} cannot be kept: a link may go to a web \
                         address starting with https:// or http://, an e-mail address written \
                         mailto:name@example.com, a page of this site (/writing/…) or a \
                         heading of the post (#…).",
                        shown(&dest_url)
                    ),
                ));
            }
            Event::Start(Tag::Image { dest_url, .. }) => {
                let src = trimmed(&dest_url);
                if !same_site_path(src) || !own_image(src) {
                    return Err(problem(
                        range,
                        format!(
                            "The image \u{201c}{}\u{201d} is not one of your uploads: upload it and \
                             use the address the upload gives (an image from another site would \
                             tell that site who reads your post).",
                            shown(&dest_url)
                        ),
                    ));
                }
            }
            Event::InlineMath(_) | Event::DisplayMath(_) => {
                return Err(problem(range, "Math is not taken in a post.".into()))
            }
            _ => {}
        }
    }
    Ok(())
}

/// A heading of the table of contents.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct TocEntry {
    pub id: String,
    pub text: String,
    pub level: u8,
}

/// A body written to HTML, and what the page shows beside it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Article {
    pub html: String,
    /// Empty for a short post (fewer than [`TOC_FROM`] headings of levels 2 and 3).
    pub toc: Vec<TocEntry>,
    /// Minutes, at least 1.
    pub minutes: usize,
    /// The words of the body, for the reading time.
    pub words: usize,
}

/// The texts the HTML carries for people using screen readers, in the post's language.
#[derive(Debug, Clone)]
pub struct Labels {
    /// The anchor link of a heading: "Link to this section".
    pub anchor: String,
    /// The list of footnotes: "Footnotes".
    pub footnotes: String,
    /// A footnote's link back to where it is referred to: "Back to the text".
    pub back: String,
}

impl Default for Labels {
    fn default() -> Self {
        Self {
            anchor: "Link to this section".into(),
            footnotes: "Footnotes".into(),
            back: "Back to the text".into(),
        }
    }
}

/// `text` with `&`, `<`, `>` and `"` written as references.
fn escape(text: &str) -> String {
    super::head::escape_html(text)
}

/// An id made of a heading's text: lower case letters, digits and dashes; `section` for a
/// heading with none of them (a text in another script), numbered when taken.
fn heading_id(text: &str, taken: &mut HashMap<String, usize>) -> String {
    let mut base = String::new();
    for c in text.chars() {
        if c.is_alphanumeric() {
            base.extend(c.to_lowercase());
        } else if !base.is_empty() && !base.ends_with('-') {
            base.push('-');
        }
        if base.len() >= 60 {
            break;
        }
    }
    let base = base.trim_end_matches('-');
    let base = if base.is_empty() { "section" } else { base };
    let count = taken.entry(base.to_owned()).or_insert(0);
    *count += 1;
    if *count == 1 {
        base.to_owned()
    } else {
        format!("{base}-{count}")
    }
}

/// The grammars, loaded at the first code block a publish highlights.
fn syntaxes() -> &'static syntect::parsing::SyntaxSet {
    static SYNTAXES: OnceLock<syntect::parsing::SyntaxSet> = OnceLock::new();
    SYNTAXES.get_or_init(syntect::parsing::SyntaxSet::load_defaults_newlines)
}

/// Common names of languages the bundled grammars know by another.
fn grammar_token(lang: &str) -> &str {
    match lang.to_ascii_lowercase().as_str() {
        "ts" | "typescript" | "tsx" | "jsx" | "mjs" | "cjs" => "js",
        "shell" | "console" | "zsh" => "sh",
        "yml" => "yaml",
        "py3" => "py",
        "rs" => "rs",
        "c++" => "cpp",
        "html" | "svelte" | "vue" => "html",
        _ => lang,
    }
}

/// A code block as HTML: highlighted with classes (`hl-` and the grammar's scope names) when its
/// language is one the bundled grammars know, else escaped as it is.
pub fn code_block(lang: Option<&str>, code: &str) -> String {
    let class = lang
        .map(|lang| format!(" class=\"language-{}\"", escape(lang)))
        .unwrap_or_default();
    let highlighted = lang
        .filter(|_| code.len() <= MAX_HIGHLIGHTED)
        .and_then(|lang| highlight(grammar_token(lang), code));
    let inner = highlighted.unwrap_or_else(|| escape(code));
    // Focusable, so that a keyboard scrolls a block wider than the screen; left to right in every
    // language.
    format!("<pre class=\"code\" tabindex=\"0\" dir=\"ltr\"><code{class}>{inner}</code></pre>\n")
}

fn highlight(token: &str, code: &str) -> Option<String> {
    use syntect::html::{ClassStyle, ClassedHTMLGenerator};
    let syntaxes = syntaxes();
    let syntax = syntaxes.find_syntax_by_token(token)?;
    let mut generator = ClassedHTMLGenerator::new_with_class_style(
        syntax,
        syntaxes,
        ClassStyle::SpacedPrefixed { prefix: "hl-" },
    );
    for line in syntect::util::LinesWithEndings::from(code) {
        generator
            .parse_html_for_line_which_includes_newline(line)
            .ok()?;
    }
    Some(generator.finalize())
}

/// The text of events, as a table of contents or an `alt` shows it.
fn plain_text(events: &[Event<'_>]) -> String {
    let mut text = String::new();
    for event in events {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(t),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            _ => {}
        }
    }
    text
}

/// Events written to HTML by pulldown-cmark's writer.
fn to_html<'a>(events: impl IntoIterator<Item = Event<'a>>) -> String {
    let mut html = String::new();
    pulldown_cmark::html::push_html(&mut html, events.into_iter());
    html
}

/// Writes `source` to HTML. `size_of` tells an upload's width and height by its address;
/// `labels` are the screen readers' texts in the post's language.
pub fn render(
    source: &str,
    size_of: impl Fn(&str) -> Option<(u32, u32, String)>,
    labels: &Labels,
) -> Article {
    let mut out: Vec<Event<'_>> = Vec::new();
    let mut toc = Vec::new();
    let mut ids = HashMap::new();
    let mut words = 0usize;
    // Footnotes: their numbers in the order they are referred to, and their definitions' HTML.
    let mut numbers: HashMap<String, usize> = HashMap::new();
    let mut definitions: HashMap<String, String> = HashMap::new();
    let mut events = Parser::new_ext(source, options());
    // Links refused by `check` are left out around their text.
    let mut link_stack = Links::default();
    while let Some(event) = events.next() {
        match event {
            Event::Start(Tag::Heading { level, .. }) => {
                let mut inner = Vec::new();
                for event in events.by_ref() {
                    if matches!(event, Event::End(TagEnd::Heading(_))) {
                        break;
                    }
                    inner.push(event);
                }
                let inner = sanitize_inline(inner);
                let text = plain_text(&inner);
                words += text.split_whitespace().count();
                let id = heading_id(&text, &mut ids);
                let level = match level {
                    HeadingLevel::H1 | HeadingLevel::H2 => 2u8,
                    HeadingLevel::H3 => 3,
                    HeadingLevel::H4 => 4,
                    HeadingLevel::H5 => 5,
                    HeadingLevel::H6 => 6,
                };
                if level <= 3 {
                    toc.push(TocEntry {
                        id: id.clone(),
                        text: text.trim().to_owned(),
                        level,
                    });
                }
                let html = format!(
                    "<h{level} id=\"{id}\">{}<a class=\"anchor\" href=\"#{id}\" aria-label=\"{}\">#</a></h{level}>\n",
                    to_html(inner),
                    escape(&labels.anchor),
                );
                out.push(Event::Html(CowStr::from(html)));
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match &kind {
                    CodeBlockKind::Fenced(info) => language(info),
                    CodeBlockKind::Indented => None,
                };
                let mut code = String::new();
                for event in events.by_ref() {
                    match event {
                        Event::End(TagEnd::CodeBlock) => break,
                        Event::Text(text) => code.push_str(&text),
                        _ => {}
                    }
                }
                out.push(Event::Html(CowStr::from(code_block(
                    lang.as_deref(),
                    &code,
                ))));
            }
            Event::Start(Tag::Image {
                dest_url, title, ..
            }) => {
                let mut inner = Vec::new();
                let mut depth = 0usize;
                for event in events.by_ref() {
                    match event {
                        Event::End(TagEnd::Image) if depth == 0 => break,
                        Event::Start(Tag::Image { .. }) => depth += 1,
                        Event::End(TagEnd::Image) => depth -= 1,
                        _ => {}
                    }
                    inner.push(event);
                }
                let alt = plain_text(&inner);
                let src = trimmed(&dest_url);
                let html = match size_of(src).filter(|_| same_site_path(src)) {
                    Some((width, height, srcset)) => {
                        let title = if title.is_empty() {
                            String::new()
                        } else {
                            format!(" title=\"{}\"", escape(&title))
                        };
                        let srcset = if srcset.is_empty() {
                            String::new()
                        } else {
                            format!(
                                " srcset=\"{}\" sizes=\"(min-width: 800px) 736px, 92vw\"",
                                escape(&srcset)
                            )
                        };
                        format!(
                            "<img src=\"{}\"{srcset} width=\"{width}\" height=\"{height}\" alt=\"{}\"{title} loading=\"lazy\" decoding=\"async\">",
                            escape(src),
                            escape(&alt)
                        )
                    }
                    None => escape(&alt),
                };
                out.push(Event::InlineHtml(CowStr::from(html)));
            }
            event @ (Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link)) => {
                link_stack.take(event, &mut out)
            }
            Event::Start(Tag::Table(alignments)) => {
                out.push(Event::Html(CowStr::from(
                    "<div class=\"table-scroll\" tabindex=\"0\">",
                )));
                out.push(Event::Start(Tag::Table(alignments)));
            }
            Event::End(TagEnd::Table) => {
                out.push(Event::End(TagEnd::Table));
                out.push(Event::Html(CowStr::from("</div>\n")));
            }
            Event::FootnoteReference(label) => {
                let next = numbers.len() + 1;
                let n = *numbers.entry(label.to_string()).or_insert(next);
                out.push(Event::InlineHtml(CowStr::from(format!(
                    "<sup class=\"footnote-ref\"><a href=\"#fn-{n}\" id=\"fnref-{n}\">{n}</a></sup>"
                ))));
            }
            Event::Start(Tag::FootnoteDefinition(label)) => {
                let mut inner = Vec::new();
                let mut depth = 0usize;
                for event in events.by_ref() {
                    match &event {
                        Event::End(TagEnd::FootnoteDefinition) if depth == 0 => break,
                        Event::Start(Tag::FootnoteDefinition(_)) => depth += 1,
                        Event::End(TagEnd::FootnoteDefinition) => depth -= 1,
                        _ => {}
                    }
                    inner.push(event);
                }
                words += plain_text(&inner).split_whitespace().count();
                definitions
                    .entry(label.to_string())
                    .or_insert_with(|| to_html(sanitize_inline(inner)));
            }
            Event::Html(html) | Event::InlineHtml(html) => out.push(Event::Text(html)),
            Event::InlineMath(math) | Event::DisplayMath(math) => out.push(Event::Code(math)),
            Event::Text(text) => {
                words += text.split_whitespace().count();
                out.push(Event::Text(text));
            }
            Event::Code(code) => {
                words += code.split_whitespace().count();
                out.push(Event::Code(code));
            }
            other => out.push(other),
        }
    }
    // A column's alignment as a class: the writer's `style` attribute is one the CSP refuses.
    let mut html = to_html(out)
        .replace(" style=\"text-align: left\"", " class=\"align-left\"")
        .replace(" style=\"text-align: center\"", " class=\"align-center\"")
        .replace(" style=\"text-align: right\"", " class=\"align-right\"");
    let mut notes: Vec<(usize, &String)> = definitions
        .iter()
        .filter_map(|(label, html)| numbers.get(label).map(|n| (*n, html)))
        .collect();
    notes.sort_by_key(|(n, _)| *n);
    if !notes.is_empty() {
        let _ = write!(
            html,
            "<section class=\"footnotes\" aria-label=\"{}\">\n<ol>\n",
            escape(&labels.footnotes)
        );
        for (n, note) in notes {
            let note = note.trim_end();
            // The link back goes at the end of the note's last paragraph.
            let back = format!(
                " <a href=\"#fnref-{n}\" class=\"footnote-back\" aria-label=\"{}\">\u{21a9}\u{fe0e}</a>",
                escape(&labels.back)
            );
            let note = match note.strip_suffix("</p>") {
                Some(start) => format!("{start}{back}</p>"),
                None => format!("{note}{back}"),
            };
            let _ = writeln!(html, "<li id=\"fn-{n}\">{note}</li>");
        }
        html.push_str("</ol>\n</section>\n");
    }
    if toc.len() < TOC_FROM {
        toc.clear();
    }
    Article {
        html,
        toc,
        minutes: words.div_ceil(WORDS_PER_MINUTE).max(1),
        words,
    }
}

/// The links open around the events being written: whether each was kept. A link [`safe_link`]
/// refuses is left out around its text (its start and its end).
#[derive(Default)]
struct Links(Vec<bool>);

impl Links {
    /// Writes a link's start (its address as [`safe_link`] gives it) or end into `out`, unless
    /// the link is refused.
    fn take<'a>(&mut self, event: Event<'a>, out: &mut Vec<Event<'a>>) {
        match event {
            Event::Start(Tag::Link {
                link_type,
                dest_url,
                title,
                id,
            }) => match safe_link(&link_type, &dest_url) {
                Some(href) => {
                    self.0.push(true);
                    out.push(Event::Start(Tag::Link {
                        link_type,
                        dest_url: CowStr::from(href),
                        title,
                        id,
                    }));
                }
                None => self.0.push(false),
            },
            Event::End(TagEnd::Link) => {
                if self.0.pop().unwrap_or(false) {
                    out.push(Event::End(TagEnd::Link));
                }
            }
            other => out.push(other),
        }
    }
}

/// Inline events as [`render`] takes them anywhere: raw HTML as text, unsafe links as their text,
/// images as their description (inside a heading or a footnote).
fn sanitize_inline(events: Vec<Event<'_>>) -> Vec<Event<'_>> {
    let mut out = Vec::with_capacity(events.len());
    let mut links = Links::default();
    for event in events {
        match event {
            Event::Html(html) | Event::InlineHtml(html) => out.push(Event::Text(html)),
            event @ (Event::Start(Tag::Link { .. }) | Event::End(TagEnd::Link)) => {
                links.take(event, &mut out)
            }
            Event::Start(Tag::Image { .. }) | Event::End(TagEnd::Image) => {}
            Event::InlineMath(math) | Event::DisplayMath(math) => out.push(Event::Code(math)),
            Event::FootnoteReference(label) => out.push(Event::Text(label)),
            other => out.push(other),
        }
    }
    out
}

/// The body as plain text, for a summary made of its start: Markdown's marks left out.
pub fn plain(source: &str) -> String {
    let mut text = String::new();
    for event in Parser::new_ext(source, options()) {
        match event {
            Event::Text(t) | Event::Code(t) => text.push_str(&t),
            Event::SoftBreak | Event::HardBreak => text.push(' '),
            Event::End(TagEnd::Paragraph | TagEnd::Heading(_) | TagEnd::Item) => text.push(' '),
            _ => {}
        }
    }
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn own(src: &str) -> bool {
        src.starts_with("/media/")
    }

    fn sizes(src: &str) -> Option<(u32, u32, String)> {
        own(src).then(|| (1200, 800, format!("{src} 1200w")))
    }

    #[test]
    fn raw_html_and_scripted_links_are_refused_with_their_line() {
        let problem = check("Fine.\n\n<script>alert(1)</script>\n", own).unwrap_err();
        assert_eq!(problem.line, 3);
        assert!(problem.message.contains("<script>"), "{problem}");
        let problem = check("One\ntwo [x](javascript:alert(1))\n", own).unwrap_err();
        assert_eq!(problem.line, 2);
        assert!(problem.message.contains("javascript:alert(1)"), "{problem}");
        assert!(check("a <!-- hidden --> b", own).is_err());
        assert!(check("![x](https://tracker.example/p.gif)", own).is_err());
        assert!(check("![x](/media/a.webp)", own).is_ok());
        assert!(check("$x^2$", own).is_ok(), "math is off: plain text");
    }

    #[test]
    fn links_may_go_to_the_web_mail_this_site_and_the_post() {
        for ok in [
            "[a](https://example.com)",
            "[a](mailto:me@example.com)",
            "[a](/writing/other/)",
            "[a](#setup)",
            "<me@example.com>",
        ] {
            assert!(check(ok, own).is_ok(), "{ok}");
        }
        for bad in [
            "[a](javascript:alert(1))",
            "[a](//evil.example/)",
            "[a](data:text/html,x)",
            "[a](ftp://x.example/)",
            "[a](vbscript:x)",
        ] {
            assert!(check(bad, own).is_err(), "{bad}");
        }
    }

    #[test]
    fn headings_get_ids_anchors_and_a_table_of_contents() {
        let article = render(
            "# Start\n\nText.\n\n## Set up\n\n### The *tools*\n\n## Set up\n",
            sizes,
            &Labels::default(),
        );
        assert!(article.html.contains(
            "<h2 id=\"start\">Start<a class=\"anchor\" href=\"#start\" aria-label=\"Link to this section\">#</a></h2>"
        ), "{}", article.html);
        assert!(article
            .html
            .contains("<h3 id=\"the-tools\">The <em>tools</em>"));
        assert!(article.html.contains("<h2 id=\"set-up-2\">"));
        let ids: Vec<&str> = article.toc.iter().map(|e| e.id.as_str()).collect();
        assert_eq!(ids, ["start", "set-up", "the-tools", "set-up-2"]);
        assert_eq!(article.toc[2].text, "The tools");
        assert_eq!(article.toc[2].level, 3);
        let short = render("## One\n\n## Two\n", sizes, &Labels::default());
        assert!(short.toc.is_empty());
    }

    #[test]
    fn code_is_highlighted_with_classes_and_never_styles() {
        let article = render(
            "```rust\nfn main() { let x = \"<b>\"; }\n```\n",
            sizes,
            &Labels::default(),
        );
        assert!(article.html.starts_with(
            "<pre class=\"code\" tabindex=\"0\" dir=\"ltr\"><code class=\"language-rust\">"
        ));
        assert!(article.html.contains("class=\"hl-"), "{}", article.html);
        assert!(!article.html.contains("style="));
        assert!(article.html.contains("&lt;b&gt;"));
        assert!(!article.html.contains("<b>"));
        let unknown = render("```nosuchlang\n<i>\n```\n", sizes, &Labels::default());
        assert_eq!(
            unknown.html,
            "<pre class=\"code\" tabindex=\"0\" dir=\"ltr\"><code class=\"language-nosuchlang\">&lt;i&gt;\n</code></pre>\n"
        );
    }

    #[test]
    fn tables_footnotes_and_images_are_written() {
        let article = render(
            "| a | b |\n|---|--:|\n| 1 | 2 |\n\nA claim.[^src] Again.[^src]\n\n![A chart](/media/c.webp)\n\n[^src]: The *source*.\n",
            sizes,
            &Labels::default(),
        );
        let html = &article.html;
        assert!(
            html.contains("<div class=\"table-scroll\" tabindex=\"0\"><table>"),
            "{html}"
        );
        assert!(html.contains("<th class=\"align-right\">b</th>"), "{html}");
        assert!(!html.contains("style="), "{html}");
        assert!(html
            .contains("<sup class=\"footnote-ref\"><a href=\"#fn-1\" id=\"fnref-1\">1</a></sup>"));
        assert!(
            html.contains("<li id=\"fn-1\"><p>The <em>source</em>. <a href=\"#fnref-1\""),
            "{html}"
        );
        assert!(html.contains(
            "<img src=\"/media/c.webp\" srcset=\"/media/c.webp 1200w\" sizes=\"(min-width: 800px) 736px, 92vw\" width=\"1200\" height=\"800\" alt=\"A chart\" loading=\"lazy\" decoding=\"async\">"
        ), "{html}");
    }

    #[test]
    fn what_check_refuses_is_written_as_text() {
        let article = render(
            "<script>alert(1)</script>\n\n[x](javascript:alert(1)) ![y](https://t.example/p.gif)",
            sizes,
            &Labels::default(),
        );
        assert!(!article.html.contains("<script"), "{}", article.html);
        assert!(!article.html.contains("href=\"javascript"));
        assert!(!article.html.contains("t.example"));
        assert!(article.html.contains("&lt;script&gt;"));
    }

    #[test]
    fn the_reading_time_counts_words() {
        let words = "word ".repeat(450);
        assert_eq!(render(&words, sizes, &Labels::default()).minutes, 3);
        assert_eq!(render("", sizes, &Labels::default()).minutes, 1);
        assert_eq!(plain("# Hi\n\n*a* `b` [c](https://x.example)"), "Hi a b c");
    }
}
