//! The 1200x630 link preview (`/og-image.png`, and `/<tag>/og-image.png` for each published
//! language whose texts its font can draw): the owner's name, role, summary and photo (or
//! initials without one), drawn from an SVG template by `resvg`, its texts as the outlines of
//! a bundled font's glyphs (`glyphs`), at start-up and at each publish; mirrored for a language
//! written right to left.

use std::sync::OnceLock;

use anyhow::Context;
use base64::Engine as _;
use resvg::{tiny_skia, usvg};

use super::appearance::{hex, palette, parse_hex, DEFAULT_ACCENT};
use super::document::ContentDocument;
use super::head::{PREVIEW_HEIGHT, PREVIEW_WIDTH};

use super::glyphs::{draws, svg_path, Anchor, Line, BOLD, REGULAR};

/// Whether the preview's font can draw the texts of `document` the preview shows: the name (in
/// bold), the role and the summary. A page in a language whose script the font lacks takes the
/// default language's preview instead of one of empty boxes.
pub fn can_draw(document: &ContentDocument) -> bool {
    let profile = &document.profile;
    draws(BOLD, &profile.name) && draws(REGULAR, &profile.role) && draws(REGULAR, &profile.summary)
}

/// Greedy word wrap by an estimated glyph width (DejaVu Sans averages about 0.55 em); the last
/// kept line ends with an ellipsis when the text is longer.
fn wrap(text: &str, font_size: f64, max_width: f64, max_lines: usize) -> Vec<String> {
    let per_line = (max_width / (font_size * 0.55)).floor() as usize;
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > per_line {
            lines.push(std::mem::take(&mut line));
            line.push_str(word);
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    if !line.is_empty() {
        lines.push(line);
    }
    if lines.len() > max_lines {
        lines.truncate(max_lines);
        let last = lines.last_mut().expect("max_lines > 0");
        let kept = last
            .rfind(char::is_whitespace)
            .map_or("", |at| last[..at].trim_end());
        *last = format!("{kept}…");
    }
    lines
}

/// The photo as a data URL resvg can draw, by its bytes' type (PNG, JPEG, WebP or GIF).
fn data_url(bytes: &[u8]) -> Option<String> {
    let mime = if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        "image/png"
    } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
        "image/jpeg"
    } else if bytes.len() > 12 && &bytes[..4] == b"RIFF" && &bytes[8..12] == b"WEBP" {
        "image/webp"
    } else if bytes.starts_with(b"GIF8") {
        "image/gif"
    } else {
        return None;
    };
    Some(format!(
        "data:{mime};base64,{}",
        base64::engine::general_purpose::STANDARD.encode(bytes)
    ))
}

/// The accent's shades the preview is drawn with, as the page uses them: the glow (600, the
/// accent itself), the bar under the heading and the ring round the portrait (500), the role
/// (400, the dark page's accent text) and the initials' disc (900).
struct Shades {
    glow: String,
    bar: String,
    role: String,
    disc: String,
}

fn shades(document: &ContentDocument) -> Shades {
    let accent = parse_hex(&document.appearance.accent)
        .or_else(|| parse_hex(DEFAULT_ACCENT))
        .expect("the default accent is #rrggbb");
    let ladder = palette(accent);
    let shade = |wanted: u16| {
        ladder
            .iter()
            .find(|(shade, _)| *shade == wanted)
            .map_or_else(|| hex(accent), |(_, rgb)| hex(*rgb))
    };
    Shades {
        glow: shade(600),
        bar: shade(500),
        role: shade(400),
        disc: shade(900),
    }
}

/// A text of a preview, drawn as its glyphs' outlines (`glyphs::svg_path`) only when the preview
/// is drawn: writing a sketch at each publish stays a matter of formatting (shaping every
/// preview's texts took some 10 to 40 ms of a publish).
#[derive(Debug, Clone, PartialEq)]
struct Text {
    content: String,
    line: Line,
}

/// The texts of a preview being written, each standing in its SVG as a comment that names it.
#[derive(Default)]
struct Texts(std::cell::RefCell<Vec<Text>>);

impl Texts {
    fn add(&self, text: Text) -> String {
        let mut texts = self.0.borrow_mut();
        texts.push(text);
        format!("<!--text {}-->", texts.len() - 1)
    }

    /// Adds the lines of one column, each at `x` by `anchor`, read right to left when `rtl`:
    /// `line(text, y, size, bold, fill)` gives the line's place in the SVG.
    fn column(
        &self,
        x: f32,
        anchor: Anchor,
        rtl: bool,
    ) -> impl Fn(&str, f32, f32, bool, &str) -> String + '_ {
        move |text, y, size, bold, fill| {
            self.add(Text {
                content: text.to_owned(),
                line: Line {
                    x,
                    y,
                    anchor,
                    size,
                    bold,
                    rtl,
                    fill: fill.to_owned(),
                },
            })
        }
    }
}

/// The preview's sketch.
fn svg(document: &ContentDocument, photo: Option<&[u8]>) -> Sketch {
    let profile = &document.profile;
    let Shades {
        glow,
        bar,
        role: role_colour,
        disc,
    } = shades(document);
    let (width, height) = (PREVIEW_WIDTH, PREVIEW_HEIGHT);
    let name_size = if profile.name.chars().count() > 18 {
        60
    } else {
        72
    };
    let initials: String = profile
        .name
        .split_whitespace()
        .filter_map(|part| part.chars().next())
        .take(2)
        .flat_map(char::to_uppercase)
        .collect();
    // A page written right to left is drawn mirrored: the portrait on the left, the text
    // aligned right, each line a paragraph read right to left (so a line mixing scripts reads
    // in the right order).
    let rtl = super::language::direction(&document.language) == "rtl";
    let (cx, cy, r) = (if rtl { 255 } else { 945 }, 315, 165);
    let (text_x, bar_x, anchor) = if rtl {
        (1120.0, 1056, Anchor::End)
    } else {
        (80.0, 80, Anchor::Start)
    };
    let texts = Texts::default();
    let line = texts.column(text_x, anchor, rtl);
    let portrait = match photo.and_then(data_url) {
        Some(href) => format!(
            "<image x=\"{x}\" y=\"{y}\" width=\"{d}\" height=\"{d}\" preserveAspectRatio=\"xMidYMid slice\" clip-path=\"url(#round)\" href=\"{href}\"/>",
            x = cx - r,
            y = cy - r,
            d = 2 * r
        ),
        None => format!(
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{disc}\"/>{initials}",
            initials = texts.add(Text {
                content: initials,
                line: Line {
                    x: cx as f32,
                    y: (cy + 40) as f32,
                    anchor: Anchor::Middle,
                    size: 120.0,
                    bold: true,
                    rtl: false,
                    fill: "#fff".to_owned(),
                },
            })
        ),
    };
    let summary = wrap(&profile.summary, 26.0, 640.0, 4)
        .iter()
        .enumerate()
        .map(|(i, text)| {
            line(
                text,
                (310 + name_size + i * 38) as f32,
                26.0,
                false,
                "#d1d5db",
            )
        })
        .collect::<Vec<_>>()
        .join("\n  ");
    let source = format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#030712"/><stop offset="1" stop-color="#111827"/>
    </linearGradient>
    <radialGradient id="glow" cx="0.79" cy="0.5" r="0.45">
      <stop offset="0" stop-color="{glow}" stop-opacity="0.35"/><stop offset="1" stop-color="{glow}" stop-opacity="0"/>
    </radialGradient>
    <clipPath id="round"><circle cx="{cx}" cy="{cy}" r="{r}"/></clipPath>
  </defs>
  <rect width="{width}" height="{height}" fill="url(#bg)"/>
  <rect width="{width}" height="{height}" fill="url(#glow)"/>
  <rect x="{bar_x}" y="120" width="64" height="6" rx="3" fill="{bar}"/>
  {name}
  {role}
  {summary}
  <circle cx="{cx}" cy="{cy}" r="{ring}" fill="none" stroke="{bar}" stroke-width="6"/>
  {portrait}
</svg>"##,
        name = line(
            &profile.name,
            (160 + name_size) as f32,
            name_size as f32,
            true,
            "#ffffff"
        ),
        role = line(
            &profile.role,
            (230 + name_size) as f32,
            36.0,
            false,
            &role_colour
        ),
        ring = r + 10,
    );
    Sketch {
        source,
        texts: texts.0.take(),
    }
}

/// A case study's link preview (`/projects/<slug>/og-image.png`): the word for a case study and
/// the owner's name over the project's title and the summary, beside the case study's first
/// picture in a rounded frame, in the page's accent; mirrored for a language written right to left.
pub struct CaseStudyCard<'a> {
    /// The page's document, in the page's language: the name, the accent, the direction.
    pub page: &'a ContentDocument,
    pub label: &'a str,
    pub title: &'a str,
    pub summary: &'a str,
    /// The picture's bytes (PNG, JPEG, WebP or GIF), if it has one.
    pub image: Option<&'a [u8]>,
}

impl CaseStudyCard<'_> {
    fn svg(&self) -> Sketch {
        let Shades {
            glow, bar, role, ..
        } = shades(self.page);
        let (width, height) = (PREVIEW_WIDTH, PREVIEW_HEIGHT);
        // Whether each text can be drawn with the preview's font: one that cannot (a script the
        // font lacks) falls back to the name alone.
        let drawable = |font: &[u8], text: &str| draws(font, text);
        let rtl = super::language::direction(&self.page.language) == "rtl";
        let (text_x, anchor, frame_x) = if rtl {
            (1120.0, Anchor::End, 60)
        } else {
            (80.0, Anchor::Start, 660)
        };
        let collected = Texts::default();
        let line = collected.column(text_x, anchor, rtl);
        let eyebrow = format!("{} · {}", self.label, self.page.profile.name);
        let eyebrow = if drawable(REGULAR, &eyebrow) {
            eyebrow
        } else {
            self.page.profile.name.clone()
        };
        let title_size = if self.title.chars().count() > 22 {
            48.0
        } else {
            60.0
        };
        let title_lines = if drawable(BOLD, self.title) {
            wrap(self.title, title_size, 520.0, 2)
        } else {
            Vec::new()
        };
        let mut y = 200.0;
        let mut texts = vec![line(&eyebrow, 150.0, 26.0, false, &role)];
        for text in &title_lines {
            y += title_size * 1.15;
            texts.push(line(text, y as f32, title_size as f32, true, "#ffffff"));
        }
        if drawable(REGULAR, self.summary) {
            y += 24.0;
            for text in wrap(self.summary, 24.0, 520.0, 5) {
                y += 36.0;
                texts.push(line(&text, y as f32, 24.0, false, "#d1d5db"));
            }
        }
        let (frame_y, frame_w, frame_h) = (115, 480, 400);
        let picture = match self.image.and_then(data_url) {
            Some(href) => format!(
                "<image x=\"{frame_x}\" y=\"{frame_y}\" width=\"{frame_w}\" height=\"{frame_h}\" preserveAspectRatio=\"xMidYMin slice\" clip-path=\"url(#frame)\" href=\"{href}\"/>"
            ),
            None => format!(
                "<rect x=\"{frame_x}\" y=\"{frame_y}\" width=\"{frame_w}\" height=\"{frame_h}\" rx=\"24\" fill=\"#111827\"/>"
            ),
        };
        let source = format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">
  <defs>
    <linearGradient id="bg" x1="0" y1="0" x2="1" y2="1">
      <stop offset="0" stop-color="#030712"/><stop offset="1" stop-color="#111827"/>
    </linearGradient>
    <radialGradient id="glow" cx="{glow_x}" cy="0.5" r="0.5">
      <stop offset="0" stop-color="{glow}" stop-opacity="0.35"/><stop offset="1" stop-color="{glow}" stop-opacity="0"/>
    </radialGradient>
    <clipPath id="frame"><rect x="{frame_x}" y="{frame_y}" width="{frame_w}" height="{frame_h}" rx="24"/></clipPath>
  </defs>
  <rect width="{width}" height="{height}" fill="url(#bg)"/>
  <rect width="{width}" height="{height}" fill="url(#glow)"/>
  <rect x="{bar_x}" y="90" width="64" height="6" rx="3" fill="{bar}"/>
  {texts}
  {picture}
  <rect x="{frame_x}" y="{frame_y}" width="{frame_w}" height="{frame_h}" rx="24" fill="none" stroke="{bar}" stroke-width="4"/>
</svg>"##,
            glow_x = if rtl { "0.25" } else { "0.75" },
            bar_x = if rtl { 1056 } else { 80 },
            texts = texts.join("\n  "),
        );
        Sketch {
            source,
            texts: collected.0.take(),
        }
    }

    /// The preview, ready to draw.
    pub fn sketch(&self) -> Sketch {
        self.svg()
    }
}

/// A link preview ready to draw: its SVG source and its texts, which are everything the picture is
/// drawn from (the colours, the photo as a data URL, the texts standing in the source as
/// comments until they are drawn as their glyphs' outlines), so they are also what a drawn
/// picture is kept by: the same sketch draws the same picture.
pub struct Sketch {
    source: String,
    texts: Vec<Text>,
}

impl Sketch {
    /// The page's own link preview (`/og-image.png`, `/de/og-image.png`).
    pub fn page(document: &ContentDocument, photo: Option<&[u8]>) -> Self {
        svg(document, photo)
    }

    /// Whether it can be drawn: its source read as resvg reads it (a millisecond, where drawing
    /// and encoding take some 100), so that a publish whose preview could not be drawn later
    /// is refused now (its texts are paths, so no text of the owner's can break it: this checks
    /// the template and a photo's data).
    pub fn check(&self) -> anyhow::Result<()> {
        parse(&self.source).map(|_| ())
    }

    /// What the picture is kept by: its source and its texts, hashed.
    pub fn key(&self) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        let mut hash = Sha256::new();
        hash.update(self.source.as_bytes());
        hash.update(format!("{:?}", self.texts).as_bytes());
        hash.finalize().into()
    }

    /// The SVG with its texts drawn as paths.
    fn drawn(&self) -> String {
        let mut svg = self.source.clone();
        for (i, text) in self.texts.iter().enumerate() {
            svg = svg.replace(
                &format!("<!--text {i}-->"),
                &svg_path(&text.content, &text.line),
            );
        }
        svg
    }

    /// The picture as PNG bytes.
    pub fn png(&self) -> anyhow::Result<Vec<u8>> {
        draw(&self.drawn())
    }
}

/// A link preview drawn once, when first wanted: right after the publish that made it (by the
/// site's background thread, so that a publish is answered without waiting some 100 ms for
/// resvg and the PNG encoder), or at its first request, whichever comes first. Kept by its
/// sketch's key, so a publish that does not change what it shows keeps it drawn.
pub struct Drawing {
    sketch: Sketch,
    key: [u8; 32],
    png: OnceLock<Option<bytes::Bytes>>,
}

impl Drawing {
    pub fn new(sketch: Sketch) -> Self {
        Self {
            key: sketch.key(),
            sketch,
            png: OnceLock::new(),
        }
    }

    /// What it is kept by (see [`Sketch::key`]).
    pub fn key(&self) -> [u8; 32] {
        self.key
    }

    /// The picture as PNG bytes, drawn now if it was not yet (a caller that comes while another
    /// draws it waits for that one); `None`, logged, if it cannot be drawn.
    pub fn png(&self) -> Option<bytes::Bytes> {
        self.png
            .get_or_init(|| match self.sketch.png() {
                Ok(png) => Some(png.into()),
                Err(error) => {
                    tracing::error!(error = %format!("{error:#}"), "a link preview could not be drawn");
                    None
                }
            })
            .clone()
    }
}

/// An SVG source read as the tree resvg draws.
fn parse(svg: &str) -> anyhow::Result<usvg::Tree> {
    let options = usvg::Options::default();
    usvg::Tree::from_str(svg, &options).context("the preview's SVG template does not parse")
}

/// An SVG source of the preview's size drawn as PNG bytes.
fn draw(svg: &str) -> anyhow::Result<Vec<u8>> {
    let tree = parse(svg)?;
    let mut pixmap = tiny_skia::Pixmap::new(PREVIEW_WIDTH, PREVIEW_HEIGHT)
        .context("a 1200x630 canvas cannot be allocated")?;
    resvg::render(
        &tree,
        tiny_skia::Transform::identity(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .context("the preview does not encode as PNG")
}

/// The link preview as PNG bytes. `photo` is the owner's photo (PNG, JPEG, WebP or GIF bytes).
pub fn preview_png(document: &ContentDocument, photo: Option<&[u8]>) -> anyhow::Result<Vec<u8>> {
    Sketch::page(document, photo).png()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::default_document;

    fn decoded(png: &[u8]) -> tiny_skia::Pixmap {
        tiny_skia::Pixmap::decode_png(png).expect("a PNG")
    }

    #[test]
    fn the_preview_is_a_1200_by_630_png_with_the_owners_text() {
        let png = preview_png(default_document(), None).expect("rendered");
        let image = decoded(&png);
        assert_eq!((image.width(), image.height()), (1200, 630));
        // The name is drawn in white over the dark background, left of the portrait.
        let white = image
            .pixels()
            .iter()
            .enumerate()
            .filter(|(i, p)| {
                let x = (*i as u32) % 1200;
                x < 700 && p.red() > 240 && p.green() > 240 && p.blue() > 240
            })
            .count();
        assert!(
            white > 500,
            "only {white} white pixels: the name was not drawn"
        );
    }

    #[test]
    fn another_name_gives_another_picture_and_a_photo_replaces_the_initials() {
        let first = preview_png(default_document(), None).expect("rendered");
        let mut document = default_document().clone();
        document.profile.name = "Grace Hopper".to_owned();
        let second = preview_png(&document, None).expect("rendered");
        assert_ne!(first, second);

        // A red 8x8 photo: the portrait's centre turns red.
        let mut red = tiny_skia::Pixmap::new(8, 8).expect("pixmap");
        red.fill(tiny_skia::Color::from_rgba8(255, 0, 0, 255));
        let photo = red.encode_png().expect("png");
        let with_photo = decoded(&preview_png(&document, Some(&photo)).expect("rendered"));
        let centre = with_photo.pixel(945, 315).expect("inside");
        assert!(
            centre.red() > 200 && centre.green() < 40,
            "centre {centre:?}"
        );
        // Bytes that are no image fall back to the initials rather than failing.
        assert!(preview_png(&document, Some(b"not an image")).is_ok());
    }

    #[test]
    fn the_accent_colours_the_glow_the_bar_the_ring_and_the_role() {
        let blue = decoded(&preview_png(default_document(), None).expect("rendered"));
        let mut document = default_document().clone();
        document.appearance.accent = "#0f766e".to_owned();
        assert!(svg(&document, None)
            .source
            .contains("stop-color=\"#0f766e\""));
        assert!(!svg(&document, None).source.contains("#2563eb"));
        let teal = decoded(&preview_png(&document, None).expect("rendered"));
        // The bar under the heading: blue by default, teal with a teal accent.
        let bar = blue.pixel(110, 123).expect("inside");
        assert!(bar.blue() > bar.green() + 60, "{bar:?}");
        let bar = teal.pixel(110, 123).expect("inside");
        assert!(
            bar.green() > bar.red() + 60 && bar.green() >= bar.blue(),
            "{bar:?}"
        );
        // The glow beside the portrait turns from blue to teal.
        let (before, after) = (
            blue.pixel(760, 315).expect("inside"),
            teal.pixel(760, 315).expect("inside"),
        );
        assert!(
            after.green() > before.green() && after.blue() < before.blue(),
            "{before:?} -> {after:?}"
        );
    }

    #[test]
    fn long_summaries_wrap_into_four_lines_ending_in_an_ellipsis() {
        let text = "word ".repeat(100);
        let lines = wrap(&text, 26.0, 640.0, 4);
        assert_eq!(lines.len(), 4);
        assert!(lines.iter().all(|line| line.chars().count() <= 45));
        assert!(lines[3].ends_with('…'));
        assert_eq!(wrap("short text", 26.0, 640.0, 4), vec!["short text"]);
    }

    #[test]
    fn text_never_enters_the_svg_as_markup() {
        let mut document = default_document().clone();
        document.profile.role = "<script>&\u{7}".to_owned();
        let source = svg(&document, None).drawn();
        assert!(
            !source.contains("<script>") && !source.contains("&"),
            "the role is drawn, not written"
        );
        assert!(!source.contains("<text"));
        assert!(preview_png(&document, None).is_ok());
    }

    #[test]
    fn the_fonts_cover_latin_greek_cyrillic_hebrew_and_arabic_and_say_what_they_lack() {
        for text in [
            "Ada Lovelace",
            "Ελληνικά",
            "Кириллица",
            "עברית",
            "العربية",
            "Ølé – “ok” …",
        ] {
            assert!(draws(REGULAR, text), "{text}");
            assert!(draws(BOLD, text), "{text}");
        }
        for text in ["日本語", "한국어", "हिन्दी", "ไทย", "🙂"] {
            assert!(!draws(REGULAR, text), "{text}");
        }
        let mut document = default_document().clone();
        assert!(can_draw(&document));
        document.profile.role = "ソフトウェア開発者".to_owned();
        assert!(!can_draw(&document));
    }

    /// The columns holding pixels of the role's blue (#60a5fa) on the role's line.
    fn role_columns(png: &[u8], name_size: u32) -> Vec<u32> {
        let image = decoded(png);
        let y0 = 230 + name_size - 30;
        (0..1200)
            .filter(|&x| {
                (y0..y0 + 36).any(|y| {
                    let p = image.pixel(x, y).unwrap();
                    p.blue() > 200 && p.red() < 140 && p.green() > 130 && p.green() < 200
                })
            })
            .collect()
    }

    #[test]
    fn a_page_written_right_to_left_is_drawn_mirrored_and_shaped() {
        let mut document = default_document().clone();
        document.language = "ar".to_owned();
        document.profile.role = "مطورة برمجيات".to_owned();
        let png = preview_png(&document, None).expect("drawn");
        let columns = role_columns(&png, 72);
        assert!(!columns.is_empty(), "the role is drawn");
        // Aligned right, ending at x = 1120, clear of the portrait now on the left.
        let (first, last) = (columns[0], *columns.last().unwrap());
        assert!(last <= 1121 && last > 1100, "{first}..{last}");
        assert!(first > 500, "{first}..{last}");
        // Joined letters: fewer gaps between columns than separate letters would leave.
        let gaps = columns.windows(2).filter(|w| w[1] > w[0] + 1).count();
        assert!(gaps < 8, "{gaps} gaps: the letters are not joined");
        if let Some(dir) = std::env::var_os("PREVIEW_OUT") {
            std::fs::write(std::path::Path::new(&dir).join("ar.png"), &png).unwrap();
            document.language = "he".to_owned();
            document.profile.role = "מפתחת תוכנה".to_owned();
            document.profile.summary = "מפתחת אתרים ואפליקציות מהירים ונגישים עם React.".to_owned();
            let png = preview_png(&document, None).unwrap();
            std::fs::write(std::path::Path::new(&dir).join("he.png"), &png).unwrap();
        }
    }
}
