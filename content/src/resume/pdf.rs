//! The resume as a tagged PDF: laid out by parley (shaping, bidirectional text, line breaking)
//! with the fonts the binary embeds for link previews, written by krilla (fonts embedded and
//! subset, the structure tree, links). One column: the header, then each section's heading and
//! its items. Pagination is ours: an item that does not fit on the last page allowed is left out
//! whole, never cut, and named in [`Rendered::left_out`].

use std::collections::HashMap;
use std::num::NonZeroU16;
use std::sync::Arc;

use anyhow::{anyhow, Context as _};
use krilla::action::{Action, LinkAction};
use krilla::annotation::{Annotation, LinkAnnotation, Target};
use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::Fill;
use krilla::surface::Surface;
use krilla::tagging::{
    Artifact, ArtifactType, ContentTag, Identifier, SpanTag, Tag, TagGroup, TagKind, TagTree,
};
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::{Document, SerializeSettings};
use parley::{
    Alignment, AlignmentOptions, FontContext, FontWeight, Layout, LayoutContext, LineHeight,
    PositionedLayoutItem, StyleProperty,
};

use super::sheet::{Body, Entry, ProjectItem, Sheet};
use crate::appearance::Rgb;
use crate::glyphs::{font_context, FAMILY, LTR_MARK, RTL_MARK};

/// The paper a resume is set on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paper {
    A4,
    Letter,
}

impl Paper {
    /// Width and height in points.
    fn size(self) -> (f32, f32) {
        match self {
            Paper::A4 => (595.276, 841.89),
            Paper::Letter => (612.0, 792.0),
        }
    }
}

/// How a resume is set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub paper: Paper,
    /// At most this many pages (1 or 2).
    pub pages: usize,
    /// The accent colour of the headings.
    pub accent: Rgb,
}

/// A resume set as a PDF.
#[derive(Debug, Clone, PartialEq)]
pub struct Rendered {
    pub pdf: Vec<u8>,
    pub pages: usize,
    /// What did not fit in the pages allowed, as "section: item" in the resume's language.
    pub left_out: Vec<String>,
}

/// The page's margins, in points.
const MARGIN: f32 = 50.0;
const INK: Rgb = [0x11, 0x18, 0x27];
const MUTED: Rgb = [0x4b, 0x55, 0x63];

/// One way of setting text.
#[derive(Debug, Clone, Copy)]
struct Style {
    size: f32,
    bold: bool,
    color: Rgb,
    /// Line height as a multiple of the size.
    leading: f32,
}

const NAME: Style = Style {
    size: 22.0,
    bold: true,
    color: INK,
    leading: 1.2,
};
const ROLE: Style = Style {
    size: 12.5,
    bold: false,
    color: MUTED,
    leading: 1.3,
};
const CONTACT: Style = Style {
    size: 8.5,
    bold: false,
    color: MUTED,
    leading: 1.45,
};
const HEADING: Style = Style {
    size: 11.5,
    bold: true,
    color: INK,
    leading: 1.3,
};
const ITEM: Style = Style {
    size: 10.0,
    bold: true,
    color: INK,
    leading: 1.35,
};
const DETAIL: Style = Style {
    size: 8.5,
    bold: false,
    color: MUTED,
    leading: 1.35,
};
const BODY: Style = Style {
    size: 9.0,
    bold: false,
    color: INK,
    leading: 1.42,
};

/// What a piece of text is in the structure tree.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Title,
    Heading,
    ItemHeading,
    Paragraph,
}

/// A laid-out piece of text at a place in its block, perhaps a link.
struct Piece {
    layout: Layout<rgb::Color>,
    text: String,
    x: f32,
    y: f32,
    role: Role,
    link: Option<String>,
    /// Starts a new structure element (a piece continuing the one before it, as a link in a
    /// line of links, does not).
    starts: bool,
}

/// Something drawn that is not text: a rule under a heading.
struct Rule {
    y: f32,
    color: Rgb,
}

/// Text drawn as decoration, outside the structure tree (a separator).
struct Decoration {
    layout: Layout<rgb::Color>,
    x: f32,
    y: f32,
}

/// A unit of the page's flow: never split across pages.
#[derive(Default)]
struct Block {
    height: f32,
    pieces: Vec<Piece>,
    rules: Vec<Rule>,
    decorations: Vec<Decoration>,
    /// Its name when left out ("Projects: Portfolio").
    name: String,
}

/// A section: its heading, kept with its first item, and its items.
struct SectionBlocks {
    heading: Block,
    items: Vec<Block>,
}

/// The bytes of the direction's mark each laid-out text begins with (both marks are three).
const MARK_LEN: usize = 3;

/// Lays text out with the embedded fonts.
struct Typesetter {
    fonts: FontContext,
    layouts: LayoutContext<rgb::Color>,
    width: f32,
    rtl: bool,
}

impl Typesetter {
    fn new(width: f32, rtl: bool) -> Self {
        Typesetter {
            fonts: font_context(),
            layouts: LayoutContext::new(),
            width,
            rtl,
        }
    }

    /// `text` in `style`, broken into lines of the column's width and aligned to the resume's
    /// start (its right edge right to left).
    fn layout(&mut self, text: &str, style: Style) -> Layout<rgb::Color> {
        self.set(text, style, false, false)
    }

    /// `text` in `style` on the left edge of its own width, to be placed by the caller; `ltr`
    /// forces left to right (addresses).
    fn piece(&mut self, text: &str, style: Style, ltr: bool) -> Layout<rgb::Color> {
        self.set(text, style, true, ltr)
    }

    fn set(&mut self, text: &str, style: Style, left: bool, ltr: bool) -> Layout<rgb::Color> {
        // The paragraph's direction: its first strong character's, so the text is laid out behind
        // the mark for the direction it must read in (`MARK_LEN` bytes, which drawing leaves out).
        let mark = if self.rtl && !ltr { RTL_MARK } else { LTR_MARK };
        let text = &format!("{mark}{text}");
        let mut builder = self
            .layouts
            .ranged_builder(&mut self.fonts, text, 1.0, false);
        builder.push_default(StyleProperty::FontFamily(parley::FontFamily::named(FAMILY)));
        builder.push_default(StyleProperty::FontSize(style.size));
        builder.push_default(StyleProperty::LineHeight(LineHeight::FontSizeRelative(
            style.leading,
        )));
        builder.push_default(StyleProperty::FontWeight(if style.bold {
            FontWeight::BOLD
        } else {
            FontWeight::NORMAL
        }));
        let [r, g, b] = style.color;
        builder.push_default(StyleProperty::Brush(rgb::Color::new(r, g, b)));
        let mut layout = builder.build(text);
        layout.break_all_lines(Some(self.width));
        let alignment = if left || !self.rtl {
            Alignment::Left
        } else {
            Alignment::Right
        };
        layout.align(alignment, AlignmentOptions::default());
        layout
    }
}

/// Sets `sheet` as a PDF with `options`.
pub fn render(sheet: &Sheet, options: &Options) -> anyhow::Result<Rendered> {
    let (page_width, page_height) = options.paper.size();
    let column = page_width - 2.0 * MARGIN;
    let mut typesetter = Typesetter::new(column, sheet.rtl);
    let header = header(&mut typesetter, sheet);
    let sections: Vec<SectionBlocks> = sheet
        .sections
        .iter()
        .map(|section| SectionBlocks {
            heading: heading(&mut typesetter, &section.title, options.accent),
            items: items(&mut typesetter, section),
        })
        .collect();
    let (pages, left_out) = paginate(header, sections, page_height - 2.0 * MARGIN, options.pages);
    let pdf = write(sheet, options, &pages)?;
    Ok(Rendered {
        pdf,
        pages: pages.len(),
        left_out,
    })
}

/// A block's pieces stacked from `y`, each below the one before it; returns the new bottom.
fn stack(block: &mut Block, layout: Layout<rgb::Color>, text: &str, role: Role, y: f32) -> f32 {
    let height = layout.height();
    block.pieces.push(Piece {
        layout,
        text: text.to_owned(),
        x: 0.0,
        y,
        role,
        link: None,
        starts: true,
    });
    y + height
}

/// The name, the role and the contact line.
fn header(typesetter: &mut Typesetter, sheet: &Sheet) -> Block {
    let mut block = Block::default();
    let name = typesetter.layout(&sheet.name, NAME);
    let mut y = stack(&mut block, name, &sheet.name, Role::Title, 0.0);
    let role = typesetter.layout(&sheet.role, ROLE);
    y = stack(&mut block, role, &sheet.role, Role::Paragraph, y + 2.0);
    y += 6.0;
    let mut contacts: Vec<(String, Option<String>, bool)> = Vec::new();
    if !sheet.email.is_empty() {
        contacts.push((
            sheet.email.clone(),
            Some(format!("mailto:{}", sheet.email)),
            true,
        ));
    }
    if !sheet.phone.is_empty() {
        let dial = (!sheet.phone_dial.is_empty()).then(|| format!("tel:{}", sheet.phone_dial));
        contacts.push((sheet.phone.clone(), dial, true));
    }
    if !sheet.location.is_empty() {
        contacts.push((sheet.location.clone(), None, false));
    }
    if !sheet.site.is_empty() {
        contacts.push((shown_url(&sheet.site), Some(sheet.site.clone()), true));
    }
    for link in &sheet.links {
        contacts.push((shown_url(&link.url), Some(link.url.clone()), true));
    }
    block.height = flow(typesetter, &mut block, contacts, y) + 4.0;
    block.name = sheet.name.clone();
    block
}

/// An address as a reader types it: without the scheme and a trailing slash.
fn shown_url(url: &str) -> String {
    let bare = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"))
        .unwrap_or(url);
    bare.strip_suffix('/').unwrap_or(bare).to_owned()
}

/// Short texts (each perhaps a link) in a row from the resume's start, separated by a dot and
/// wrapped to the next row when the column is full: one paragraph in the structure tree (the
/// dots are decoration).
fn flow(
    typesetter: &mut Typesetter,
    block: &mut Block,
    parts: Vec<(String, Option<String>, bool)>,
    top: f32,
) -> f32 {
    let separator = typesetter.piece("  ·  ", CONTACT, false);
    let separator_width = separator.width();
    let mut x = 0.0;
    let mut y = top;
    let mut row_height: f32 = 0.0;
    let mut first = true;
    let from_start = |x: f32, width: f32, typesetter: &Typesetter| {
        // The left edge left to right, the right edge right to left.
        if typesetter.rtl {
            typesetter.width - x - width
        } else {
            x
        }
    };
    for (text, link, ltr) in parts {
        let layout = typesetter.piece(&text, CONTACT, ltr);
        let width = layout.width();
        if x > 0.0 && x + separator_width + width > typesetter.width {
            x = 0.0;
            y += row_height;
            row_height = 0.0;
        } else if x > 0.0 {
            block.decorations.push(Decoration {
                layout: typesetter.piece("  ·  ", CONTACT, false),
                x: from_start(x, separator_width, typesetter),
                y,
            });
            x += separator_width;
        }
        row_height = row_height.max(layout.height());
        block.pieces.push(Piece {
            layout,
            text,
            x: from_start(x, width, typesetter),
            y,
            role: Role::Paragraph,
            link,
            starts: first,
        });
        first = false;
        x += width;
    }
    y + row_height
}

/// A section's heading with a rule in the accent colour below it.
fn heading(typesetter: &mut Typesetter, title: &str, accent: Rgb) -> Block {
    let mut block = Block::default();
    let style = Style {
        color: accent,
        ..HEADING
    };
    let layout = typesetter.layout(title, style);
    let bottom = stack(&mut block, layout, title, Role::Heading, 14.0);
    block.rules.push(Rule {
        y: bottom + 2.0,
        color: accent,
    });
    block.height = bottom + 7.0;
    block.name = title.to_owned();
    block
}

/// A section's items, each a block.
fn items(typesetter: &mut Typesetter, section: &super::sheet::Section) -> Vec<Block> {
    let named = |block: Block, item: &str| Block {
        name: format!("{}: {item}", section.title),
        ..block
    };
    match &section.body {
        Body::Text(paragraphs) => paragraphs
            .iter()
            .map(|paragraph| {
                let mut block = Block::default();
                let layout = typesetter.layout(paragraph, BODY);
                block.height = stack(&mut block, layout, paragraph, Role::Paragraph, 0.0) + 4.0;
                named(block, &first_words(paragraph))
            })
            .collect(),
        Body::Entries(entries) => entries
            .iter()
            .map(|entry| {
                let block = entry_block(typesetter, entry);
                named(block, &entry.title)
            })
            .collect(),
        Body::Projects(projects) => projects
            .iter()
            .map(|project| {
                let block = project_block(typesetter, project);
                named(block, &project.title)
            })
            .collect(),
        Body::Names(names) => {
            let text = names.join("  ·  ");
            let mut block = Block::default();
            let layout = typesetter.layout(&text, BODY);
            block.height = stack(&mut block, layout, &text, Role::Paragraph, 0.0) + 4.0;
            vec![named(block, &section.title)]
        }
    }
}

/// The first few words of a paragraph, to name it.
fn first_words(text: &str) -> String {
    let words: Vec<&str> = text.split_whitespace().take(6).collect();
    let mut name = words.join(" ");
    if text.split_whitespace().count() > 6 {
        name.push('…');
    }
    name
}

/// A job or a school: title, place and date, description, awards.
fn entry_block(typesetter: &mut Typesetter, entry: &Entry) -> Block {
    let mut block = Block::default();
    let title = typesetter.layout(&entry.title, ITEM);
    let mut y = stack(&mut block, title, &entry.title, Role::ItemHeading, 0.0);
    let detail = [entry.place.as_str(), &entry.date]
        .into_iter()
        .filter(|text| !text.is_empty())
        .collect::<Vec<_>>()
        .join("  ·  ");
    let layout = typesetter.layout(&detail, DETAIL);
    y = stack(&mut block, layout, &detail, Role::Paragraph, y);
    let description = typesetter.layout(&entry.description, BODY);
    y = stack(
        &mut block,
        description,
        &entry.description,
        Role::Paragraph,
        y + 2.0,
    );
    for award in &entry.awards {
        let text = format!("•  {award}");
        let layout = typesetter.layout(&text, BODY);
        y = stack(&mut block, layout, &text, Role::Paragraph, y);
    }
    block.height = y + 8.0;
    block
}

/// A project: title, technologies, description, its addresses.
fn project_block(typesetter: &mut Typesetter, project: &ProjectItem) -> Block {
    let mut block = Block::default();
    let title = typesetter.layout(&project.title, ITEM);
    let mut y = stack(&mut block, title, &project.title, Role::ItemHeading, 0.0);
    if !project.technologies.is_empty() {
        let technologies = project.technologies.join(", ");
        let layout = typesetter.layout(&technologies, DETAIL);
        y = stack(&mut block, layout, &technologies, Role::Paragraph, y);
    }
    let description = typesetter.layout(&project.description, BODY);
    y = stack(
        &mut block,
        description,
        &project.description,
        Role::Paragraph,
        y + 2.0,
    );
    let links: Vec<(String, Option<String>, bool)> = [&project.demo_url, &project.code_url]
        .into_iter()
        .filter(|url| !url.is_empty())
        .map(|url| (shown_url(url), Some(url.clone()), true))
        .collect();
    if !links.is_empty() {
        y = flow(typesetter, &mut block, links, y + 1.0);
    }
    block.height = y + 8.0;
    block
}

/// A block placed on a page, at `y` from the top margin.
struct Placed {
    block: Block,
    y: f32,
    /// Opens a new section in the structure tree (a heading's block).
    section: bool,
}

/// Places the header and the sections on at most `max_pages` pages of `height` points: an item
/// goes on the page it fits on, else on a new page while one is allowed, else it is left out; a
/// heading goes with its section's first item that fits, and a section none of whose items
/// fit is left out with its heading.
fn paginate(
    header: Block,
    sections: Vec<SectionBlocks>,
    height: f32,
    max_pages: usize,
) -> (Vec<Vec<Placed>>, Vec<String>) {
    let mut pages: Vec<Vec<Placed>> = vec![Vec::new()];
    let mut y = 0.0;
    let mut left_out = Vec::new();
    let header_height = header.height;
    pages[0].push(Placed {
        block: header,
        y: 0.0,
        section: false,
    });
    y += header_height;
    for section in sections {
        let mut heading = Some(section.heading);
        for item in section.items {
            let needed = item.height + heading.as_ref().map_or(0.0, |h| h.height);
            if y + needed > height {
                if pages.len() < max_pages && needed <= height {
                    pages.push(Vec::new());
                    y = 0.0;
                } else {
                    left_out.push(item.name);
                    continue;
                }
            }
            let page = pages.last_mut().expect("a page");
            if let Some(heading) = heading.take() {
                let h = heading.height;
                page.push(Placed {
                    block: heading,
                    y,
                    section: true,
                });
                y += h;
            }
            let h = item.height;
            page.push(Placed {
                block: item,
                y,
                section: false,
            });
            y += h;
        }
        if let Some(heading) = heading {
            left_out.retain(|name| !name.starts_with(&format!("{}: ", heading.name)));
            left_out.push(heading.name);
        }
    }
    (pages, left_out)
}

/// A structure element's child: drawn content, or a link (its text and its annotation, by
/// the link's number: annotations are added once the page's drawing is done).
enum Child {
    Content(Identifier),
    Link(Vec<Identifier>, usize),
}

/// A structure element: a heading, a paragraph.
struct Element {
    tag: TagKind,
    children: Vec<Child>,
}

/// The structure tree as it is drawn: the document's elements in reading order, sections
/// holding their heading and items.
#[derive(Default)]
struct Structure {
    root: Vec<(Option<usize>, Element)>,
    sections: usize,
    current_section: Option<usize>,
    /// Each link's area, address and (once added) annotation.
    links: Vec<(Rect, String, Option<Identifier>)>,
}

impl Structure {
    /// The tag tree: elements, their sections, links with their annotations.
    fn into_tree(self, language: &str) -> TagTree {
        let mut annotations: Vec<Option<Identifier>> =
            self.links.into_iter().map(|(_, _, id)| id).collect();
        let mut tree = TagTree::new().with_lang(Some(language.to_owned()));
        let mut section: Option<(usize, TagGroup)> = None;
        for (in_section, element) in self.root {
            let mut group = TagGroup::new(element.tag);
            for child in element.children {
                match child {
                    Child::Content(identifier) => group.push(identifier),
                    Child::Link(identifiers, index) => {
                        let mut link = TagGroup::new(Tag::Link);
                        for identifier in identifiers {
                            link.push(identifier);
                        }
                        if let Some(annotation) = annotations.get_mut(index).and_then(Option::take)
                        {
                            link.push(annotation);
                        }
                        group.push(link);
                    }
                }
            }
            match in_section {
                Some(number) => {
                    if section.as_ref().is_some_and(|(open, _)| *open != number) {
                        if let Some((_, done)) = section.take() {
                            tree.push(done);
                        }
                    }
                    section
                        .get_or_insert_with(|| (number, TagGroup::new(Tag::Section)))
                        .1
                        .push(group);
                }
                None => {
                    if let Some((_, done)) = section.take() {
                        tree.push(done);
                    }
                    tree.push(group);
                }
            }
        }
        if let Some((_, done)) = section.take() {
            tree.push(done);
        }
        tree
    }
}

/// The tag of a piece's structure element.
fn tag_of(role: Role, text: &str) -> TagKind {
    let level = |n: u16| NonZeroU16::new(n).unwrap_or(NonZeroU16::MIN);
    match role {
        Role::Title => Tag::Hn(level(1), Some(text.to_owned())).into(),
        Role::Heading => Tag::Hn(level(2), Some(text.to_owned())).into(),
        Role::ItemHeading => Tag::Hn(level(3), Some(text.to_owned())).into(),
        Role::Paragraph => Tag::P.into(),
    }
}

/// Writes the placed pages as a tagged PDF.
fn write(sheet: &Sheet, options: &Options, pages: &[Vec<Placed>]) -> anyhow::Result<Vec<u8>> {
    let (page_width, page_height) = options.paper.size();
    let mut document = Document::new_with(SerializeSettings {
        enable_tagging: true,
        ..SerializeSettings::default()
    });
    let mut fonts: HashMap<u64, Font> = HashMap::new();
    let mut structure = Structure::default();
    for placed in pages {
        let settings = PageSettings::from_wh(page_width, page_height)
            .ok_or_else(|| anyhow!("the paper's size"))?;
        let mut page = document.start_page_with(settings);
        let first_link = structure.links.len();
        {
            let mut surface = page.surface();
            for item in placed {
                if item.section {
                    structure.sections += 1;
                    structure.current_section = Some(structure.sections);
                }
                draw_block(&mut surface, &mut fonts, &mut structure, item, page_width)?;
            }
            surface.finish();
        }
        for (rect, url, identifier) in &mut structure.links[first_link..] {
            let annotation = Annotation::new_link(
                LinkAnnotation::new(
                    *rect,
                    Target::Action(Action::Link(LinkAction::new(url.clone()))),
                ),
                Some(url.clone()),
            );
            *identifier = Some(page.add_tagged_annotation(annotation));
        }
        page.finish();
    }
    document.set_tag_tree(structure.into_tree(&sheet.language));
    let title = if sheet.role.is_empty() {
        sheet.name.clone()
    } else {
        format!("{} – {}", sheet.name, sheet.role)
    };
    document.set_metadata(
        Metadata::new()
            .title(title)
            .authors(vec![sheet.name.clone()])
            .language(sheet.language.clone())
            .creator("Portfolio".to_owned()),
    );
    document
        .finish()
        .map_err(|error| anyhow!("the resume's PDF could not be written: {error:?}"))
}

/// Draws a placed block's rules (as artifacts) and pieces (tagged), noting its links.
fn draw_block(
    surface: &mut Surface<'_>,
    fonts: &mut HashMap<u64, Font>,
    structure: &mut Structure,
    placed: &Placed,
    page_width: f32,
) -> anyhow::Result<()> {
    let top = MARGIN + placed.y;
    for rule in &placed.block.rules {
        surface.start_tagged(ContentTag::Artifact(Artifact::with_kind(
            ArtifactType::Other,
        )));
        let [r, g, b] = rule.color;
        surface.set_fill(Some(Fill {
            paint: rgb::Color::new(r, g, b).into(),
            opacity: NormalizedF32::ONE,
            rule: Default::default(),
        }));
        let mut path = PathBuilder::new();
        path.push_rect(
            Rect::from_xywh(MARGIN, top + rule.y, page_width - 2.0 * MARGIN, 0.8)
                .context("a rule's size")?,
        );
        if let Some(path) = path.finish() {
            surface.draw_path(&path);
        }
        surface.end_tagged();
    }
    for decoration in &placed.block.decorations {
        surface.start_tagged(ContentTag::Artifact(Artifact::with_kind(
            ArtifactType::Other,
        )));
        draw_glyph_runs(
            surface,
            fonts,
            &decoration.layout,
            "  ·  ",
            MARGIN + decoration.x,
            top + decoration.y,
        )?;
        surface.end_tagged();
    }
    let section = structure.current_section;
    for piece in &placed.block.pieces {
        let identifiers = draw_piece(surface, fonts, piece, MARGIN + piece.x, top + piece.y)?;
        if piece.starts || structure.root.is_empty() {
            structure.root.push((
                section,
                Element {
                    tag: tag_of(piece.role, &piece.text),
                    children: Vec::new(),
                },
            ));
        }
        let child = match &piece.link {
            Some(url) => {
                let rect = Rect::from_xywh(
                    MARGIN + piece.x,
                    top + piece.y,
                    piece.layout.width().max(1.0),
                    piece.layout.height().max(1.0),
                )
                .context("a link's area")?;
                structure.links.push((rect, url.clone(), None));
                Child::Link(identifiers, structure.links.len() - 1)
            }
            None => {
                let mut identifiers = identifiers.into_iter();
                let Some(first) = identifiers.next() else {
                    continue;
                };
                let element = structure.root.last_mut().map(|(_, element)| element);
                if let Some(element) = element {
                    element.children.push(Child::Content(first));
                    element.children.extend(identifiers.map(Child::Content));
                }
                continue;
            }
        };
        if let Some((_, element)) = structure.root.last_mut() {
            element.children.push(child);
        }
    }
    Ok(())
}

/// Draws a laid-out piece with its top-left corner at (`left`, `top`): each line a tagged span.
fn draw_piece(
    surface: &mut Surface<'_>,
    fonts: &mut HashMap<u64, Font>,
    piece: &Piece,
    left: f32,
    top: f32,
) -> anyhow::Result<Vec<Identifier>> {
    let mut identifiers = Vec::new();
    for line in piece.layout.lines() {
        let identifier = surface.start_tagged(ContentTag::Span(SpanTag::empty()));
        draw_line(surface, fonts, &line, &piece.text, left, top)?;
        surface.end_tagged();
        identifiers.push(identifier);
    }
    Ok(identifiers)
}

/// Draws every line of `layout` (of `text`) with its top-left corner at (`left`, `top`).
fn draw_glyph_runs(
    surface: &mut Surface<'_>,
    fonts: &mut HashMap<u64, Font>,
    layout: &Layout<rgb::Color>,
    text: &str,
    left: f32,
    top: f32,
) -> anyhow::Result<()> {
    for line in layout.lines() {
        draw_line(surface, fonts, &line, text, left, top)?;
    }
    Ok(())
}

/// The krilla font of a run's font data, loaded once.
fn font_of(fonts: &mut HashMap<u64, Font>, data: &parley::FontData) -> anyhow::Result<Font> {
    if let Some(font) = fonts.get(&data.data.id()) {
        return Ok(font.clone());
    }
    let bytes: Arc<dyn AsRef<[u8]> + Send + Sync> = Arc::new(data.data.as_ref().to_vec());
    let font = Font::new(bytes.into(), data.index).context("an embedded font does not load")?;
    fonts.insert(data.data.id(), font.clone());
    Ok(font)
}

/// Draws one line's glyph runs, each glyph mapped to the text it stands for.
fn draw_line(
    surface: &mut Surface<'_>,
    fonts: &mut HashMap<u64, Font>,
    line: &parley::Line<'_, rgb::Color>,
    text: &str,
    left: f32,
    top: f32,
) -> anyhow::Result<()> {
    for item in line.items() {
        let PositionedLayoutItem::GlyphRun(glyph_run) = item else {
            continue;
        };
        let run = glyph_run.run();
        let font = font_of(fonts, run.font())?;
        let size = run.font_size();
        let mut glyphs: Vec<KrillaGlyph> = Vec::new();
        for cluster in run.visual_clusters() {
            // The direction's mark before the text (see `Typesetter::set`) is no part of it.
            let range = cluster.text_range();
            if range.end <= MARK_LEN {
                continue;
            }
            let range = range.start.saturating_sub(MARK_LEN)..range.end - MARK_LEN;
            if cluster.is_ligature_continuation() {
                if let Some(glyph) = glyphs.last_mut() {
                    glyph.text_range.end = range.end;
                }
                continue;
            }
            for glyph in cluster.glyphs() {
                glyphs.push(KrillaGlyph::new(
                    GlyphId::new(glyph.id),
                    glyph.advance / size,
                    glyph.x / size,
                    glyph.y / size,
                    0.0,
                    range.clone(),
                    None,
                ));
            }
        }
        surface.set_fill(Some(Fill {
            paint: glyph_run.style().brush.into(),
            opacity: NormalizedF32::ONE,
            rule: Default::default(),
        }));
        surface.draw_glyphs(
            Point::from_xy(left + glyph_run.offset(), top + glyph_run.baseline()),
            &glyphs,
            font,
            text,
            size,
            false,
        );
    }
    Ok(())
}
