//! The case studies' texts: a safe subset of Markdown, parsed on the server only.
//!
//! A text is [`check`]ed when its document is saved (the first problem comes back as a sentence
//! for the owner) and turned into a small tree by [`to_tree`] when a page is rendered; the page's
//! React draws the tree as elements (`web/src/components/markdown.tsx`), so no Markdown library
//! ships to the browser and no HTML string is ever put into the page.
//!
//! Taken: paragraphs, emphasis, strong emphasis, links to `http:`, `https:` and `mailto:`
//! addresses, images that are the owner's own uploads, lists (nested at most
//! [`MAX_LIST_DEPTH`] deep), code spans, code blocks and hard line breaks. Refused: raw HTML
//! (comments too), every other link or image, headings, block quotes, dividers, and what the
//! parser's extensions would read as tables, footnotes or task lists. The parser
//! (pulldown-cmark, plain CommonMark, no extension) is the same for both functions, so what
//! [`check`] took is exactly what [`to_tree`] draws; [`to_tree`] keeps its own guards anyway
//! (a link or image it would refuse becomes its text) and never panics on any input.

use pulldown_cmark::{CodeBlockKind, Event, LinkType, Options, Parser, Tag, TagEnd};
use serde::Serialize;

/// Lists inside lists: at most this many levels.
pub const MAX_LIST_DEPTH: usize = 4;

/// Emphasis, strong emphasis, links and images inside one another: at most this many levels
/// (a long run of `*` nests one level per pair; the tree stays shallow for every renderer).
pub const MAX_INLINE_DEPTH: usize = 8;

/// What a text may hold, as the refusals tell the owner.
const TAKEN: &str = "write paragraphs, *emphasis*, **strong emphasis**, [links](https://example.com), \
                     lists (lines starting with - or 1.), `code` and code blocks (between lines of ```)";

/// A block of a text.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Block {
    Paragraph {
        children: Vec<Inline>,
    },
    /// `tight` as CommonMark has it: no blank line between the items, whose paragraphs are then
    /// drawn without `<p>`. `start` only for an ordered list.
    List {
        ordered: bool,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        start: Option<u32>,
        tight: bool,
        items: Vec<Vec<Block>>,
    },
    /// `lang`, the first word of a fenced block's info string when it is a plain name (letters,
    /// digits, `+ - _ . #`, at most 32 characters).
    Code {
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        lang: Option<String>,
        text: String,
    },
}

/// A piece of a paragraph: plain text is a bare string.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Inline {
    Emphasis {
        children: Vec<Inline>,
    },
    Strong {
        children: Vec<Inline>,
    },
    Code {
        text: String,
    },
    /// `href` starts with `http://`, `https://` or `mailto:` ([`safe_href`]).
    Link {
        href: String,
        children: Vec<Inline>,
    },
    /// `src` is a path on this site ([`same_site_path`]); `width` and `height`, the upload's own
    /// in pixels when the caller knows them ([`to_tree_sized`]), so the page keeps its place.
    Image {
        src: String,
        alt: String,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        width: Option<u32>,
        #[serde(skip_serializing_if = "Option::is_none")]
        #[cfg_attr(test, ts(optional))]
        height: Option<u32>,
    },
    Break,
    #[serde(untagged)]
    Text(String),
}

fn parser(source: &str) -> Parser<'_> {
    // No extension: tables, footnotes, task lists, strikethrough, math, heading attributes and
    // smart punctuation all stay text.
    Parser::new_ext(source, Options::empty())
}

/// The first problem of a text for the owner, as a sentence naming what to change; `own_image`
/// tells whether an image's address (decoded and trimmed) is one of the owner's uploads, and an
/// image must also be a path on this site ([`same_site_path`]).
pub fn check(source: &str, own_image: impl Fn(&str) -> bool) -> Result<(), String> {
    let mut lists = 0usize;
    let mut inline = 0usize;
    let mut in_html_block = false;
    for event in parser(source) {
        match event {
            Event::Start(tag) => match tag {
                Tag::Paragraph | Tag::Item | Tag::CodeBlock(_) => {}
                Tag::List(_) => {
                    lists += 1;
                    if lists > MAX_LIST_DEPTH {
                        return Err(format!(
                            "Lists are nested more than {MAX_LIST_DEPTH} deep: indent the \
                             deepest items less, or write them as a paragraph."
                        ));
                    }
                }
                Tag::Emphasis | Tag::Strong | Tag::Link { .. } | Tag::Image { .. } => {
                    inline += 1;
                    if inline > MAX_INLINE_DEPTH {
                        return Err(format!(
                            "Emphasis and links are nested more than {MAX_INLINE_DEPTH} deep \
                             (a long run of * or _ does that): write them with fewer marks."
                        ));
                    }
                    if let Tag::Link {
                        link_type,
                        dest_url,
                        ..
                    } = &tag
                    {
                        if safe_href(link_type, dest_url).is_none() {
                            return Err(format!(
                                "The link to \u{201c}{}\u{201d} cannot be kept: a link may only go \
                                 to a web address starting with https:// or http://, or to an \
                                 e-mail address written mailto:name@example.com.",
                                shown(dest_url)
                            ));
                        }
                    }
                    if let Tag::Image { dest_url, .. } = &tag {
                        let src = trimmed(dest_url);
                        if !same_site_path(src) || !own_image(src) {
                            return Err(format!(
                                "The image \u{201c}{}\u{201d} is not one of your uploads: upload \
                                 it and use the address the upload gives (an image from another \
                                 site would tell that site who reads your page).",
                                shown(dest_url)
                            ));
                        }
                    }
                }
                Tag::HtmlBlock => in_html_block = true,
                Tag::Heading { .. } => {
                    return Err(format!(
                        "Headings are not taken here (a line starting with #, or a line of text \
                         with a line of --- or === right under it): the page gives the text its \
                         own heading. Instead, {TAKEN}."
                    ))
                }
                Tag::BlockQuote(_) => {
                    return Err(format!(
                        "Quotes (lines starting with >) are not taken here. Instead, {TAKEN}."
                    ))
                }
                other => return Err(not_taken(describe(&other))),
            },
            Event::End(TagEnd::List(_)) => lists = lists.saturating_sub(1),
            Event::End(TagEnd::Emphasis | TagEnd::Strong | TagEnd::Link | TagEnd::Image) => {
                inline = inline.saturating_sub(1)
            }
            Event::End(_)
            | Event::Text(_)
            | Event::Code(_)
            | Event::SoftBreak
            | Event::HardBreak => {}
            Event::Html(html) | Event::InlineHtml(html) => return Err(html_refused(&html)),
            Event::Rule => {
                return Err(format!(
                    "Dividers (a line of ---, *** or ___) are not taken here: leave an empty line \
                     between paragraphs instead. Otherwise, {TAKEN}."
                ))
            }
            Event::InlineMath(_) | Event::DisplayMath(_) => return Err(not_taken("Math")),
            Event::FootnoteReference(_) => return Err(not_taken("Footnotes")),
            Event::TaskListMarker(_) => return Err(not_taken("Task lists")),
        }
    }
    if in_html_block {
        // An HTML block always has a line of HTML; this is only a guard.
        return Err(html_refused(""));
    }
    // What plain CommonMark leaves as text but an owner used to GitHub's Markdown means as a
    // table, a footnote or a task list: refused rather than shown as pipes and brackets.
    let extended = Options::ENABLE_TABLES | Options::ENABLE_FOOTNOTES | Options::ENABLE_TASKLISTS;
    for event in Parser::new_ext(source, extended) {
        match event {
            Event::Start(Tag::Table(_)) => return Err(not_taken("Tables")),
            Event::Start(Tag::FootnoteDefinition(_)) | Event::FootnoteReference(_) => {
                return Err(not_taken("Footnotes"))
            }
            Event::TaskListMarker(_) => return Err(not_taken("Task lists")),
            _ => {}
        }
    }
    Ok(())
}

fn not_taken(what: &str) -> String {
    format!("{what} are not taken here. Instead, {TAKEN}.")
}

fn describe(tag: &Tag<'_>) -> &'static str {
    match tag {
        Tag::Table(_) | Tag::TableHead | Tag::TableRow | Tag::TableCell => "Tables",
        Tag::FootnoteDefinition(_) => "Footnotes",
        Tag::Strikethrough => "Struck-through texts",
        Tag::Superscript | Tag::Subscript => "Superscripts and subscripts",
        Tag::DefinitionList | Tag::DefinitionListTitle | Tag::DefinitionListDefinition => {
            "Definition lists"
        }
        Tag::MetadataBlock(_) => "Metadata blocks",
        _ => "These marks",
    }
}

fn html_refused(html: &str) -> String {
    let html = html.trim();
    let tag = match html.find('>') {
        Some(end) if !html.starts_with("<!--") => &html[..=end],
        _ if html.starts_with("<!--") => "<!--",
        _ => html,
    };
    let found = if tag.is_empty() {
        String::new()
    } else {
        format!(" (found {})", shown(tag))
    };
    format!(
        "Write the text without HTML tags{found}: instead, {TAKEN}. To show a tag as it is, put \
         it between backquotes, as in `<b>`."
    )
}

/// A piece of the owner's text for a message: without control characters, at most 60 of its
/// characters.
pub(super) fn shown(text: &str) -> String {
    let clean: String = text.chars().filter(|c| !c.is_control()).collect();
    let clean = clean.trim();
    if clean.chars().count() > 60 {
        let cut: String = clean.chars().take(59).collect();
        format!("{cut}\u{2026}")
    } else {
        clean.to_owned()
    }
}

/// An address without the spaces and control characters a browser drops around it.
pub(super) fn trimmed(address: &str) -> &str {
    address.trim_matches(|c: char| c.is_whitespace() || c.is_control())
}

/// The address a link may have, from the parser's (decoded) destination: `http://…`,
/// `https://…` or `mailto:…` (any case) with something after it, trimmed; an e-mail autolink
/// (`<name@example.com>`) gets its `mailto:`. None for every other address, relative ones too.
pub fn safe_href(link_type: &LinkType, destination: &str) -> Option<String> {
    let address = trimmed(destination);
    if matches!(link_type, LinkType::Email) {
        let plain = !address.is_empty()
            && address.contains('@')
            && !address.contains(':')
            && !address.chars().any(|c| c.is_whitespace() || c.is_control());
        return plain.then(|| format!("mailto:{address}"));
    }
    let lower = address.get(..8).unwrap_or(address).to_ascii_lowercase();
    let scheme = ["https://", "http://", "mailto:"]
        .into_iter()
        .find(|scheme| lower.starts_with(scheme))?;
    (address.len() > scheme.len()).then(|| address.to_owned())
}

/// Whether an image's address is a path on this site (`/media/…`), which a browser cannot read
/// as another site's: it starts with one `/`, not `//` or `/\`, and has no backslash or control
/// character (a browser drops tabs and line feeds, so `/<tab>/host` would be `//host`).
pub fn same_site_path(src: &str) -> bool {
    src.starts_with('/')
        && !matches!(src.as_bytes().get(1), Some(b'/' | b'\\'))
        && !src.chars().any(|c| c == '\\' || c.is_control())
}

/// The tree of a text that [`check`] took. Any other text gives a tree too, without a panic:
/// what the tree has no place for becomes text or is left out (raw HTML is kept as text, a link
/// to another scheme is its text, an image from elsewhere is its description, lists and
/// emphasis deeper than the limits are flattened).
pub fn to_tree(source: &str) -> Vec<Block> {
    to_tree_sized(source, |_| None)
}

/// [`to_tree`], each image given the width and height in pixels that `size_of` tells for its
/// address (the upload's), when it does.
pub fn to_tree_sized(source: &str, size_of: impl Fn(&str) -> Option<(u32, u32)>) -> Vec<Block> {
    let mut events = parser(source).peekable();
    let mut loose = false;
    blocks(&mut events, &size_of, 0, &mut loose)
}

/// What tells an image's size.
type Sizes<'s> = &'s dyn Fn(&str) -> Option<(u32, u32)>;

type Events<'a> = std::iter::Peekable<Parser<'a>>;

/// Blocks up to the end of the enclosing element (not consumed). `loose` is set when a paragraph
/// starts here (a list item's paragraphs are marked only in a loose list).
fn blocks(events: &mut Events<'_>, sizes: Sizes<'_>, lists: usize, loose: &mut bool) -> Vec<Block> {
    let mut out = Vec::new();
    // Elements the tree has no place for, whose contents are taken as if they were not there.
    let mut open = 0usize;
    while let Some(event) = events.peek() {
        match event {
            Event::End(_) => {
                if open == 0 {
                    break;
                }
                open -= 1;
                events.next();
            }
            Event::Start(Tag::Paragraph) => {
                events.next();
                *loose = true;
                let children = inlines(events, sizes, 0);
                end(events);
                push_paragraph(&mut out, children);
            }
            Event::Start(Tag::CodeBlock(kind)) => {
                let lang = match kind {
                    CodeBlockKind::Fenced(info) => language(info),
                    CodeBlockKind::Indented => None,
                };
                events.next();
                let mut text = String::new();
                while let Some(Event::Text(piece) | Event::Html(piece)) = events.peek() {
                    text.push_str(piece);
                    events.next();
                }
                end(events);
                out.push(Block::Code { lang, text });
            }
            Event::Start(Tag::List(start)) if lists < MAX_LIST_DEPTH => {
                let ordered = start.is_some();
                let start = start.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
                events.next();
                let mut items = Vec::new();
                let mut loose_items = false;
                loop {
                    match events.peek() {
                        None => break,
                        Some(Event::End(_)) => {
                            events.next(); // the list's end
                            break;
                        }
                        Some(Event::Start(Tag::Item)) => {
                            events.next();
                            items.push(blocks(events, sizes, lists + 1, &mut loose_items));
                            end(events);
                        }
                        // Only items are inside a list; anything else is taken as one.
                        Some(_) => items.push(blocks(events, sizes, lists + 1, &mut loose_items)),
                    }
                }
                out.push(Block::List {
                    ordered,
                    start,
                    tight: !loose_items,
                    items,
                });
            }
            Event::Start(Tag::HtmlBlock) => {
                events.next();
                let mut text = String::new();
                while let Some(Event::Html(piece) | Event::Text(piece)) = events.peek() {
                    text.push_str(piece);
                    events.next();
                }
                end(events);
                let text = text.trim();
                if !text.is_empty() {
                    push_paragraph(&mut out, vec![Inline::Text(text.to_owned())]);
                }
            }
            Event::Start(
                Tag::Emphasis
                | Tag::Strong
                | Tag::Strikethrough
                | Tag::Superscript
                | Tag::Subscript
                | Tag::Link { .. }
                | Tag::Image { .. },
            )
            | Event::Text(_)
            | Event::Code(_)
            | Event::InlineMath(_)
            | Event::DisplayMath(_)
            | Event::Html(_)
            | Event::InlineHtml(_)
            | Event::FootnoteReference(_)
            | Event::SoftBreak
            | Event::HardBreak
            | Event::TaskListMarker(_) => {
                // A tight list item's text, or a heading's or a table cell's (whose start was
                // taken as not there).
                let children = inlines(events, sizes, 0);
                push_paragraph(&mut out, children);
            }
            Event::Start(_) => {
                open += 1;
                events.next();
            }
            Event::Rule => {
                events.next();
            }
        }
    }
    out
}

/// Consumes the end of the element whose contents were just read.
fn end(events: &mut Events<'_>) {
    if let Some(Event::End(_)) = events.peek() {
        events.next();
    }
}

fn push_paragraph(out: &mut Vec<Block>, children: Vec<Inline>) {
    if !children.is_empty() {
        out.push(Block::Paragraph { children });
    }
}

pub(super) fn language(info: &str) -> Option<String> {
    let word = info.split_whitespace().next()?;
    let plain = word.len() <= 32
        && word
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-_.#".contains(c));
    plain.then(|| word.to_owned())
}

/// Inlines up to the end of the enclosing element or the next block (neither consumed).
fn inlines(events: &mut Events<'_>, sizes: Sizes<'_>, depth: usize) -> Vec<Inline> {
    let mut out = Vec::new();
    let mut open = 0usize;
    while let Some(event) = events.peek() {
        match event {
            Event::End(_) => {
                if open == 0 {
                    break;
                }
                open -= 1;
                events.next();
            }
            Event::Text(text)
            | Event::Html(text)
            | Event::InlineHtml(text)
            | Event::InlineMath(text)
            | Event::DisplayMath(text) => {
                push_text(&mut out, text);
                events.next();
            }
            Event::Code(text) => {
                out.push(Inline::Code {
                    text: text.to_string(),
                });
                events.next();
            }
            Event::SoftBreak => {
                push_text(&mut out, " ");
                events.next();
            }
            Event::HardBreak => {
                out.push(Inline::Break);
                events.next();
            }
            Event::FootnoteReference(label) => {
                push_text(&mut out, &format!("[^{label}]"));
                events.next();
            }
            Event::TaskListMarker(done) => {
                push_text(&mut out, if *done { "[x] " } else { "[ ] " });
                events.next();
            }
            Event::Start(tag) if depth < MAX_INLINE_DEPTH => match tag {
                Tag::Emphasis | Tag::Strong => {
                    let strong = matches!(tag, Tag::Strong);
                    events.next();
                    let children = inlines(events, sizes, depth + 1);
                    end(events);
                    out.push(if strong {
                        Inline::Strong { children }
                    } else {
                        Inline::Emphasis { children }
                    });
                }
                Tag::Link {
                    link_type,
                    dest_url,
                    ..
                } => {
                    let href = safe_href(link_type, dest_url);
                    events.next();
                    let children = inlines(events, sizes, depth + 1);
                    end(events);
                    match href {
                        Some(href) => out.push(Inline::Link { href, children }),
                        None => children.into_iter().for_each(|c| push_inline(&mut out, c)),
                    }
                }
                Tag::Image { dest_url, .. } => {
                    let src = trimmed(dest_url).to_owned();
                    events.next();
                    let mut alt = String::new();
                    plain_text(&inlines(events, sizes, depth + 1), &mut alt);
                    end(events);
                    if same_site_path(&src) {
                        let (width, height) = sizes(&src).unzip();
                        out.push(Inline::Image {
                            src,
                            alt,
                            width,
                            height,
                        });
                    } else if !alt.is_empty() {
                        push_text(&mut out, &alt);
                    }
                }
                Tag::Strikethrough | Tag::Superscript | Tag::Subscript => {
                    open += 1;
                    events.next();
                }
                // A block: the end of a tight list item's text.
                _ => break,
            },
            // Deeper than the limit: the element's text, without the element.
            Event::Start(
                Tag::Emphasis
                | Tag::Strong
                | Tag::Link { .. }
                | Tag::Image { .. }
                | Tag::Strikethrough
                | Tag::Superscript
                | Tag::Subscript,
            ) => {
                open += 1;
                events.next();
            }
            Event::Start(_) | Event::Rule => break,
        }
    }
    out
}

fn push_text(out: &mut Vec<Inline>, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(Inline::Text(last)) = out.last_mut() {
        last.push_str(text);
    } else {
        out.push(Inline::Text(text.to_owned()));
    }
}

fn push_inline(out: &mut Vec<Inline>, inline: Inline) {
    match inline {
        Inline::Text(text) => push_text(out, &text),
        other => out.push(other),
    }
}

fn plain_text(inlines: &[Inline], out: &mut String) {
    for inline in inlines {
        match inline {
            Inline::Text(text) | Inline::Code { text } => out.push_str(text),
            Inline::Emphasis { children }
            | Inline::Strong { children }
            | Inline::Link { children, .. } => plain_text(children, out),
            Inline::Image { alt, .. } => out.push_str(alt),
            Inline::Break => out.push(' '),
        }
    }
}

/// The tree's TypeScript types as committed under `web/src/content/markdown.generated.ts` (made
/// by a test, as the document's are: `make generate`).
#[cfg(test)]
pub fn typescript_file() -> String {
    use ts_rs::TS;
    let mut text = String::from(
        "// Generated from content/src/markdown.rs: do not edit. Regenerate with\n\
         // `make generate` (UPDATE_CONTENT_SCHEMA=1 cargo test --locked --workspace --lib).\n",
    );
    for declaration in [Block::decl(), Inline::decl()] {
        text.push_str("\nexport ");
        text.push_str(declaration.trim());
        text.push('\n');
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(s: &str) -> Inline {
        Inline::Text(s.to_owned())
    }

    fn paragraph(children: Vec<Inline>) -> Block {
        Block::Paragraph { children }
    }

    fn uploads(src: &str) -> bool {
        src.starts_with("/media/")
    }

    /// Checked with the uploads' rule, then the tree.
    fn tree(source: &str) -> Vec<Block> {
        assert_eq!(check(source, uploads), Ok(()), "{source:?} is taken");
        to_tree(source)
    }

    fn refused(source: &str) -> String {
        match check(source, uploads) {
            Err(message) => message,
            Ok(()) => panic!("{source:?} should be refused"),
        }
    }

    #[test]
    fn paragraphs_emphasis_code_and_breaks() {
        assert_eq!(
            tree("One *two* **three** `four`\nfive  \nsix\\\nseven\n\nEight &amp; \\*nine\\*"),
            [
                paragraph(vec![
                    text("One "),
                    Inline::Emphasis {
                        children: vec![text("two")]
                    },
                    text(" "),
                    Inline::Strong {
                        children: vec![text("three")]
                    },
                    text(" "),
                    Inline::Code {
                        text: "four".into()
                    },
                    text(" five"),
                    Inline::Break,
                    text("six"),
                    Inline::Break,
                    text("seven"),
                ]),
                paragraph(vec![text("Eight & *nine*")]),
            ]
        );
        assert_eq!(
            tree("***both***"),
            [paragraph(vec![Inline::Emphasis {
                children: vec![Inline::Strong {
                    children: vec![text("both")]
                }]
            }])]
        );
        assert_eq!(tree(""), []);
        assert_eq!(tree("   \n\n  "), []);
    }

    #[test]
    fn links_of_the_three_schemes() {
        assert_eq!(
            tree(
                "[a](https://example.com/x?y=1) [b](HTTP://example.com) [c](mailto:me@example.com) \
                 <https://example.org> <me@example.com> [d][ref] [e]\n\n[ref]: https://example.net\n[e]: http://e.example"
            ),
            [paragraph(vec![
                Inline::Link {
                    href: "https://example.com/x?y=1".into(),
                    children: vec![text("a")]
                },
                text(" "),
                Inline::Link {
                    href: "HTTP://example.com".into(),
                    children: vec![text("b")]
                },
                text(" "),
                Inline::Link {
                    href: "mailto:me@example.com".into(),
                    children: vec![text("c")]
                },
                text(" "),
                Inline::Link {
                    href: "https://example.org".into(),
                    children: vec![text("https://example.org")]
                },
                text(" "),
                Inline::Link {
                    href: "mailto:me@example.com".into(),
                    children: vec![text("me@example.com")]
                },
                text(" "),
                Inline::Link {
                    href: "https://example.net".into(),
                    children: vec![text("d")]
                },
                text(" "),
                Inline::Link {
                    href: "http://e.example".into(),
                    children: vec![text("e")]
                },
            ])]
        );
        // A link's text keeps its emphasis and code; its title is not kept.
        assert_eq!(
            tree("[*read* `it`](https://example.com \"title\")"),
            [paragraph(vec![Inline::Link {
                href: "https://example.com".into(),
                children: vec![
                    Inline::Emphasis {
                        children: vec![text("read")]
                    },
                    text(" "),
                    Inline::Code { text: "it".into() },
                ]
            }])]
        );
        // An undefined reference is text.
        assert_eq!(tree("[nowhere]"), [paragraph(vec![text("[nowhere]")])]);
    }

    #[test]
    fn images_of_the_owners_uploads() {
        assert_eq!(
            tree("![The *dashboard*](/media/abc.webp \"t\") [![logo](/media/l.webp)](https://example.com)"),
            [paragraph(vec![
                Inline::Image {
                    src: "/media/abc.webp".into(),
                    alt: "The dashboard".into(),
                    width: None,
                    height: None,
                },
                text(" "),
                Inline::Link {
                    href: "https://example.com".into(),
                    children: vec![Inline::Image {
                        src: "/media/l.webp".into(),
                        alt: "logo".into(),
                        width: None,
                        height: None,
                    }]
                },
            ])]
        );
    }

    #[test]
    fn images_get_the_uploads_sizes_when_the_caller_knows_them() {
        let sizes = |src: &str| (src == "/media/a.webp").then_some((1200, 800));
        assert_eq!(
            to_tree_sized("![a](/media/a.webp) ![b](/media/b.webp)", sizes),
            [paragraph(vec![
                Inline::Image {
                    src: "/media/a.webp".into(),
                    alt: "a".into(),
                    width: Some(1200),
                    height: Some(800),
                },
                text(" "),
                Inline::Image {
                    src: "/media/b.webp".into(),
                    alt: "b".into(),
                    width: None,
                    height: None,
                },
            ])]
        );
        assert_eq!(
            serde_json::to_string(&to_tree_sized("![a](/media/a.webp)", sizes)).unwrap(),
            r#"[{"type":"paragraph","children":[{"type":"image","src":"/media/a.webp","alt":"a","width":1200,"height":800}]}]"#
        );
    }

    #[test]
    fn lists_tight_loose_ordered_and_nested() {
        assert_eq!(
            tree("- one\n- *two*\n  1. a\n  2. b"),
            [Block::List {
                ordered: false,
                start: None,
                tight: true,
                items: vec![
                    vec![paragraph(vec![text("one")])],
                    vec![
                        paragraph(vec![Inline::Emphasis {
                            children: vec![text("two")]
                        }]),
                        Block::List {
                            ordered: true,
                            start: Some(1),
                            tight: true,
                            items: vec![
                                vec![paragraph(vec![text("a")])],
                                vec![paragraph(vec![text("b")])],
                            ]
                        }
                    ],
                ]
            }]
        );
        assert_eq!(
            tree("3. first\n\n4. second\n\n   more"),
            [Block::List {
                ordered: true,
                start: Some(3),
                tight: false,
                items: vec![
                    vec![paragraph(vec![text("first")])],
                    vec![
                        paragraph(vec![text("second")]),
                        paragraph(vec![text("more")])
                    ],
                ]
            }]
        );
        // Four levels are taken.
        let four = "- 1\n  - 2\n    - 3\n      - 4";
        assert_eq!(check(four, uploads), Ok(()));
        let mut blocks = to_tree(four);
        for level in 1..=4 {
            let Some(Block::List { mut items, .. }) = blocks.pop() else {
                panic!("level {level} is a list");
            };
            blocks = items.remove(0);
            assert_eq!(blocks[0], paragraph(vec![text(&level.to_string())]));
            blocks.remove(0);
        }
        assert!(blocks.is_empty());
    }

    #[test]
    fn code_blocks_fenced_and_indented() {
        assert_eq!(
            tree("```rust ignore\nfn main() {}\n<b>not html</b>\n```\n\n~~~\nplain\n~~~\n\n    indented\n\n```{weird}\nx\n```"),
            [
                Block::Code {
                    lang: Some("rust".into()),
                    text: "fn main() {}\n<b>not html</b>\n".into()
                },
                Block::Code {
                    lang: None,
                    text: "plain\n".into()
                },
                Block::Code {
                    lang: None,
                    text: "indented\n".into()
                },
                Block::Code {
                    lang: None,
                    text: "x\n".into()
                },
            ]
        );
        assert_eq!(
            tree("Tags in code: `<script>`"),
            [paragraph(vec![
                text("Tags in code: "),
                Inline::Code {
                    text: "<script>".into()
                }
            ])]
        );
    }

    #[test]
    fn the_tree_as_json_is_compact() {
        let json = serde_json::to_string(&tree(
            "A *b* [c](https://c.example)  \nd ![e](/media/e.webp)\n\n1. x\n\n```js\ny\n```",
        ))
        .unwrap();
        assert_eq!(
            json,
            r#"[{"type":"paragraph","children":["A ",{"type":"emphasis","children":["b"]}," ",{"type":"link","href":"https://c.example","children":["c"]},{"type":"break"},"d ",{"type":"image","src":"/media/e.webp","alt":"e"}]},{"type":"list","ordered":true,"start":1,"tight":true,"items":[[{"type":"paragraph","children":["x"]}]]},{"type":"code","lang":"js","text":"y\n"}]"#
        );
    }

    #[test]
    fn raw_html_is_refused_naming_the_tag() {
        for (source, found) in [
            ("Some <b>bold</b> text", "(found <b>)"),
            ("<div>\nblock\n</div>", "(found <div>)"),
            ("text <!-- a comment --> more", "(found <!--)"),
            ("<!-- comment -->", "(found <!--)"),
            ("<script>alert(1)</script>", "(found <script>)"),
            (
                "a <img src=x onerror=alert(1)>",
                "(found <img src=x onerror=alert(1)>)",
            ),
            ("- item <span>x</span>", "(found <span>)"),
            ("<?php echo 1; ?>", "(found <?php echo 1; ?>)"),
        ] {
            let message = refused(source);
            assert!(
                message.starts_with("Write the text without HTML tags") && message.contains(found),
                "{source:?}: {message}"
            );
        }
        // Not HTML: a comparison, a heart, an escaped tag.
        for source in ["1 < 2 and 3 > 2", "I <3 Rust", "\\<b>"] {
            assert_eq!(check(source, uploads), Ok(()), "{source:?}");
        }
    }

    #[test]
    fn links_of_other_schemes_are_refused() {
        for source in [
            "[x](javascript:alert(1))",
            "[x](JavaScript:alert(1))",
            "[x]( javascript:alert(1) )",
            "[x](<javascript:alert(1)>)",
            "[x](jav&#x61;script:alert(1))",
            "[x](&#106;avascript:alert(1))",
            "[x](java\\script:alert(1))",
            "[x](data:text/html;base64,PHNjcmlwdD4=)",
            "[x](vbscript:msgbox)",
            "[x](file:///etc/passwd)",
            "[x](ftp://example.com)",
            "[x](/relative/page)",
            "[x](//evil.example)",
            "[x](page.html)",
            "[x](#top)",
            "[x]()",
            "[x](https://)",
            "[x](mailto:)",
            "[x](http:example.com)",
            "<javascript:alert(1)>",
            "<data:text/html,hi>",
            "[x][r]\n\n[r]: javascript:alert(1)",
            "[r]\n\n[r]: jav&#x61;script:alert(1)",
            "[x][]\n\n[x]: data:,hi",
        ] {
            let message = refused(source);
            assert!(
                message.starts_with("The link to \u{201c}")
                    && message.contains("https:// or http://")
                    && message.contains("mailto:"),
                "{source:?}: {message}"
            );
        }
        assert!(refused("[x](jav&#x61;script:alert(1))")
            .contains("\u{201c}javascript:alert(1)\u{201d}"));
        // An unused definition draws nothing, so it is not a problem.
        assert_eq!(check("text\n\n[r]: javascript:alert(1)", uploads), Ok(()));
    }

    #[test]
    fn images_not_uploaded_are_refused() {
        for source in [
            "![x](https://tracker.example/pixel.gif)",
            "![x](http://example.com/a.png)",
            "![x](//tracker.example/a.png)",
            "![x](/\\tracker.example/a.png)",
            "![x](/other/a.png)",
            "![x](media/a.png)",
            "![x](data:image/png;base64,AAAA)",
            "![x](javascript:alert(1))",
            "![x][i]\n\n[i]: https://tracker.example/a.png",
            "![x](/media/a\\\\b.png)",
        ] {
            let message = refused(source);
            assert!(
                message.starts_with("The image \u{201c}")
                    && message.contains("not one of your uploads"),
                "{source:?}: {message}"
            );
        }
    }

    #[test]
    fn other_blocks_are_refused_saying_what_is_taken() {
        for (source, start) in [
            ("# Title", "Headings are not taken"),
            ("###### Small", "Headings are not taken"),
            ("Title\n=====", "Headings are not taken"),
            ("Title\n---", "Headings are not taken"),
            ("> quoted", "Quotes (lines starting with >) are not taken"),
            ("- > quoted in a list", "Quotes"),
            ("a\n\n---\n\nb", "Dividers"),
            ("***", "Dividers"),
            ("| a | b |\n| - | - |\n| 1 | 2 |", "Tables are not taken"),
            ("Said[^1].\n\n[^1]: A note.", "Footnotes are not taken"),
            ("- [ ] todo\n- [x] done", "Task lists are not taken"),
        ] {
            let message = refused(source);
            assert!(message.starts_with(start), "{source:?}: {message}");
            assert!(
                message.contains("*emphasis*") && message.contains("lists"),
                "{source:?} says what is taken: {message}"
            );
        }
        // Left as text: dollars, tildes, carets, pipes without a table.
        for source in ["$5 and $10", "~~not struck~~", "x^2^", "a | b"] {
            assert_eq!(check(source, uploads), Ok(()), "{source:?}");
            assert_eq!(to_tree(source), [paragraph(vec![text(source)])]);
        }
    }

    #[test]
    fn lists_deeper_than_four_are_refused() {
        let five = "- 1\n  - 2\n    - 3\n      - 4\n        - 5";
        assert!(refused(five).starts_with("Lists are nested more than 4 deep"));
        assert!(refused("1. - 1. - * five").starts_with("Lists are nested more than 4 deep"));
        // The tree of a text refused flattens them, still four deep.
        fn depth(blocks: &[Block]) -> usize {
            blocks
                .iter()
                .map(|b| match b {
                    Block::List { items, .. } => {
                        1 + items.iter().map(|i| depth(i)).max().unwrap_or(0)
                    }
                    _ => 0,
                })
                .max()
                .unwrap_or(0)
        }
        assert_eq!(depth(&to_tree(five)), 4);
        assert_eq!(depth(&to_tree(&format!("{}x", "1. ".repeat(10_000)))), 4);
        let indented: String = (0..200)
            .map(|i| format!("{}- {i}\n", "  ".repeat(i)))
            .collect();
        assert_eq!(depth(&to_tree(&indented)), 4);
    }

    #[test]
    fn emphasis_nested_too_deep_is_refused() {
        let deep = format!("{}x{}", "*".repeat(40), "*".repeat(40));
        assert!(refused(&deep).starts_with("Emphasis and links are nested more than 8 deep"));
        let eight = format!("{}x{}", "*".repeat(12), "*".repeat(12));
        assert_eq!(check(&eight, uploads), Ok(()));
    }

    #[test]
    fn the_tree_of_a_refused_text_is_safe() {
        assert_eq!(
            to_tree("[x](javascript:alert(1)) <b>y</b> ![z](https://t.example/p.gif)"),
            [paragraph(vec![text("x <b>y</b> z")])]
        );
        assert_eq!(
            to_tree("# Title\n\n> quote\n\n---\n\n<div>\nhi\n</div>"),
            [
                paragraph(vec![text("Title")]),
                paragraph(vec![text("quote")]),
                paragraph(vec![text("<div>\nhi\n</div>")]),
            ]
        );
    }

    /// A small generator of texts: the constructs' marks, dangerous addresses and HTML, mixed at
    /// random (a fixed seed, so a failure can be run again).
    fn random_texts(count: usize) -> Vec<String> {
        use rand::{rngs::StdRng, Rng, SeedableRng};
        const PIECES: &[&str] = &[
            "*",
            "**",
            "_",
            "__",
            "`",
            "```",
            "~~~",
            "\n",
            "\n\n",
            "  \n",
            "\\",
            " ",
            "    ",
            "- ",
            "1. ",
            "* ",
            "+ ",
            "> ",
            "# ",
            "---",
            "===",
            "|",
            "[",
            "]",
            "(",
            ")",
            "<",
            ">",
            "![",
            "](",
            "]: ",
            "[^1]",
            "$",
            "&#x61;",
            "&#106;",
            "&amp;",
            "&lt;",
            "javascript:",
            "JaVaScRiPt:",
            "data:",
            "vbscript:",
            "https://",
            "http://",
            "mailto:",
            "//",
            "/media/",
            "/\\",
            "\t",
            "word",
            "é",
            "ש",
            "\u{200b}",
            "<b>",
            "</b>",
            "<!--",
            "-->",
            "<a href=",
            "\"",
            "'",
            "x@example.com",
            "[ ] ",
            "{",
            "}",
        ];
        let mut rng = StdRng::seed_from_u64(48);
        (0..count)
            .map(|_| {
                let len = rng.gen_range(0..40);
                (0..len)
                    .map(|_| PIECES[rng.gen_range(0..PIECES.len())])
                    .collect()
            })
            .collect()
    }

    fn addresses(blocks: &[Block], hrefs: &mut Vec<String>, srcs: &mut Vec<String>) {
        fn inlines(list: &[Inline], hrefs: &mut Vec<String>, srcs: &mut Vec<String>) {
            for inline in list {
                match inline {
                    Inline::Link { href, children } => {
                        hrefs.push(href.clone());
                        inlines(children, hrefs, srcs);
                    }
                    Inline::Image { src, .. } => srcs.push(src.clone()),
                    Inline::Emphasis { children } | Inline::Strong { children } => {
                        inlines(children, hrefs, srcs)
                    }
                    _ => {}
                }
            }
        }
        for block in blocks {
            match block {
                Block::Paragraph { children } => inlines(children, hrefs, srcs),
                Block::List { items, .. } => {
                    items.iter().for_each(|item| addresses(item, hrefs, srcs))
                }
                Block::Code { .. } => {}
            }
        }
    }

    #[test]
    fn random_and_adversarial_texts_never_panic_and_keep_only_safe_addresses() {
        let mut texts = random_texts(600);
        texts.extend([
            "*".repeat(20_000),
            format!("{}x{}", "*".repeat(5_000), "*".repeat(5_000)),
            "[".repeat(10_000),
            format!(
                "{}x{}",
                "[".repeat(3_000),
                "](https://a.example)".repeat(3_000)
            ),
            "> ".repeat(10_000),
            "- ".repeat(10_000),
            "1. ".repeat(5_000),
            format!("{}x", "  ".repeat(2_000)),
            "<".repeat(5_000),
            "`".repeat(5_000),
            "![".repeat(5_000),
            "\u{0}\u{1}\r\r\n\u{7f}".repeat(100),
            "[x](<javascript:alert(1)\n>)".into(),
            "[x](https://a.example)".repeat(2_000),
        ]);
        let schemes = ["http://", "https://", "mailto:"];
        let mut taken = 0;
        for source in &texts {
            let blocks = to_tree(source);
            let json = serde_json::to_string(&blocks).expect("a tree is JSON");
            assert!(!json.is_empty());
            let (mut hrefs, mut srcs) = (Vec::new(), Vec::new());
            addresses(&blocks, &mut hrefs, &mut srcs);
            for href in &hrefs {
                let lower = href.to_ascii_lowercase();
                assert!(
                    schemes.iter().any(|s| lower.starts_with(s)),
                    "{source:?} drew a link to {href:?}"
                );
            }
            for src in &srcs {
                assert!(same_site_path(src), "{source:?} drew an image from {src:?}");
            }
            if check(source, uploads).is_ok() {
                taken += 1;
                assert!(srcs.iter().all(|s| uploads(s)), "{source:?}: {srcs:?}");
            }
        }
        // The generator reaches both sides.
        assert!(
            taken > 50 && taken < texts.len() - 50,
            "{taken} of {} taken",
            texts.len()
        );
    }
}
