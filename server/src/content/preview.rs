//! The 1200x630 link preview (`/og-image.png`, and `/<tag>/og-image.png` for each published
//! language whose texts its font can draw): the owner's name, role, summary and photo (or
//! initials without one), drawn from an SVG template by `resvg` with a bundled font, at
//! start-up and at each publish; mirrored for a language written right to left.

use std::sync::{Arc, OnceLock};

use anyhow::Context;
use base64::Engine as _;
use resvg::{tiny_skia, usvg};

use super::appearance::{hex, palette, parse_hex, DEFAULT_ACCENT};
use super::document::ContentDocument;
use super::head::{PREVIEW_HEIGHT, PREVIEW_WIDTH};

const FONT_FAMILY: &str = "DejaVu Sans";
// DejaVu Sans, as the build's icons use, embedded so the binary needs no font on the host:
// subset to the Latin, Greek, Cyrillic, Hebrew and Arabic scripts and common punctuation,
// without hinting (resvg does not hint), 293 KB instead of 1.46 MB. How they were made: fonts/README.md.
pub(super) const REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");
pub(super) const BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.ttf");

fn fonts() -> Arc<usvg::fontdb::Database> {
    static FONTS: OnceLock<Arc<usvg::fontdb::Database>> = OnceLock::new();
    FONTS
        .get_or_init(|| {
            let mut db = usvg::fontdb::Database::new();
            db.load_font_data(REGULAR.to_vec());
            db.load_font_data(BOLD.to_vec());
            db.set_sans_serif_family(FONT_FAMILY);
            Arc::new(db)
        })
        .clone()
}

/// The characters a font maps to a glyph, read from its `cmap` table (formats 4 and 12, the
/// Unicode ones), as sorted inclusive ranges.
fn covered(font: &[u8]) -> Vec<(u32, u32)> {
    let u16_at = |at: usize| -> Option<u32> {
        Some(u32::from(u16::from_be_bytes(
            font.get(at..at + 2)?.try_into().ok()?,
        )))
    };
    let u32_at = |at: usize| -> Option<u32> {
        Some(u32::from_be_bytes(font.get(at..at + 4)?.try_into().ok()?))
    };
    let cmap = (0..u16_at(4).unwrap_or(0) as usize).find_map(|i| {
        let record = 12 + 16 * i;
        (font.get(record..record + 4)? == b"cmap").then(|| u32_at(record + 8))?
    });
    let Some(cmap) = cmap.map(|offset| offset as usize) else {
        return Vec::new();
    };
    let mut ranges = Vec::new();
    for i in 0..u16_at(cmap + 2).unwrap_or(0) as usize {
        let record = cmap + 4 + 8 * i;
        let (Some(platform), Some(encoding), Some(offset)) =
            (u16_at(record), u16_at(record + 2), u32_at(record + 4))
        else {
            break;
        };
        if !(platform == 0 || (platform == 3 && (encoding == 1 || encoding == 10))) {
            continue;
        }
        let table = cmap + offset as usize;
        match u16_at(table) {
            Some(4) => {
                let segments = u16_at(table + 6).unwrap_or(0) as usize / 2;
                let ends = table + 14;
                let starts = ends + 2 * segments + 2;
                let deltas = starts + 2 * segments;
                let range_offsets = deltas + 2 * segments;
                for s in 0..segments {
                    let (Some(start), Some(end), Some(delta), Some(range_offset)) = (
                        u16_at(starts + 2 * s),
                        u16_at(ends + 2 * s),
                        u16_at(deltas + 2 * s),
                        u16_at(range_offsets + 2 * s),
                    ) else {
                        break;
                    };
                    for c in start..=end.min(0xfffe) {
                        let glyph = if range_offset == 0 {
                            (c + delta) & 0xffff
                        } else {
                            let at = range_offsets
                                + 2 * s
                                + range_offset as usize
                                + 2 * (c - start) as usize;
                            match u16_at(at) {
                                Some(0) | None => 0,
                                Some(glyph) => (glyph + delta) & 0xffff,
                            }
                        };
                        if glyph != 0 {
                            ranges.push((c, c));
                        }
                    }
                }
            }
            Some(12) => {
                let groups = u32_at(table + 12).unwrap_or(0) as usize;
                for g in 0..groups.min(100_000) {
                    let group = table + 16 + 12 * g;
                    match (u32_at(group), u32_at(group + 4)) {
                        (Some(start), Some(end)) if start <= end => ranges.push((start, end)),
                        _ => break,
                    }
                }
            }
            _ => {}
        }
    }
    ranges.sort_unstable();
    let mut merged: Vec<(u32, u32)> = Vec::new();
    for (start, end) in ranges {
        match merged.last_mut() {
            Some(last) if start <= last.1.saturating_add(1) => last.1 = last.1.max(end),
            _ => merged.push((start, end)),
        }
    }
    merged
}

/// Whether `font` (the regular or the bold face) has a glyph for every character of `text` that
/// is drawn at all (spaces and the invisible format characters need none).
pub(super) fn draws(font: &[u8], text: &str) -> bool {
    static REGULAR_COVERS: OnceLock<Vec<(u32, u32)>> = OnceLock::new();
    static BOLD_COVERS: OnceLock<Vec<(u32, u32)>> = OnceLock::new();
    let ranges = if std::ptr::eq(font, BOLD) {
        BOLD_COVERS.get_or_init(|| covered(BOLD))
    } else {
        REGULAR_COVERS.get_or_init(|| covered(REGULAR))
    };
    text.chars()
        .filter(|&c| {
            !(c.is_whitespace()
                || c.is_control()
                || ('\u{200b}'..='\u{200f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2060}'..='\u{2069}').contains(&c))
        })
        .all(|c| {
            let c = u32::from(c);
            let at = ranges.partition_point(|&(_, end)| end < c);
            ranges.get(at).is_some_and(|&(start, _)| start <= c)
        })
}

/// Whether the preview's font can draw the texts of `document` the preview shows: the name (in
/// bold), the role and the summary. A page in a language whose script the font lacks takes the
/// default language's preview instead of one of empty boxes.
pub fn can_draw(document: &ContentDocument) -> bool {
    let profile = &document.profile;
    draws(BOLD, &profile.name) && draws(REGULAR, &profile.role) && draws(REGULAR, &profile.summary)
}

/// Text escaped for SVG (XML) content and attributes.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            c => out.push(c),
        }
    }
    out
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

/// The preview's SVG source.
fn svg(document: &ContentDocument, photo: Option<&[u8]>) -> String {
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
    // aligned right (resvg lays text out left to right; each text is embedded right to left,
    // so a line mixing scripts reads in the right order).
    let rtl = super::language::direction(&document.language) == "rtl";
    let (cx, cy, r) = (if rtl { 255 } else { 945 }, 315, 165);
    let (text_x, bar_x, anchor) = if rtl {
        (1120, 1056, " text-anchor=\"end\"")
    } else {
        (80, 80, "")
    };
    let line = |text: &str| {
        if rtl {
            format!("\u{202b}{}\u{202c}", escape(text))
        } else {
            escape(text)
        }
    };
    let portrait = match photo.and_then(data_url) {
        Some(href) => format!(
            "<image x=\"{x}\" y=\"{y}\" width=\"{d}\" height=\"{d}\" preserveAspectRatio=\"xMidYMid slice\" clip-path=\"url(#round)\" href=\"{href}\"/>",
            x = cx - r,
            y = cy - r,
            d = 2 * r
        ),
        None => format!(
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"{disc}\"/><text x=\"{cx}\" y=\"{ty}\" text-anchor=\"middle\" font-size=\"120\" font-weight=\"bold\" fill=\"#fff\">{initials}</text>",
            ty = cy + 40,
            initials = escape(&initials)
        ),
    };
    let summary = wrap(&profile.summary, 26.0, 640.0, 4)
        .iter()
        .enumerate()
        .map(|(i, text)| {
            format!(
                "<text x=\"{text_x}\" y=\"{}\"{anchor} font-size=\"26\" fill=\"#d1d5db\">{}</text>",
                310 + name_size + i * 38,
                line(text)
            )
        })
        .collect::<Vec<_>>()
        .join("\n  ");
    format!(
        r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}">
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
  <text x="{text_x}" y="{name_y}"{anchor} font-size="{name_size}" font-weight="bold" fill="#ffffff">{name}</text>
  <text x="{text_x}" y="{role_y}"{anchor} font-size="36" fill="{role_colour}">{role}</text>
  {summary}
  <circle cx="{cx}" cy="{cy}" r="{ring}" fill="none" stroke="{bar}" stroke-width="6"/>
  {portrait}
</svg>"##,
        name_y = 160 + name_size,
        role_y = 230 + name_size,
        name = line(&profile.name),
        role = line(&profile.role),
        ring = r + 10,
    )
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
    fn svg(&self) -> String {
        let Shades {
            glow, bar, role, ..
        } = shades(self.page);
        let (width, height) = (PREVIEW_WIDTH, PREVIEW_HEIGHT);
        // Whether each text can be drawn with the preview's font: one that cannot (a script the
        // font lacks) falls back to the name alone.
        let drawable = |font: &[u8], text: &str| draws(font, text);
        let rtl = super::language::direction(&self.page.language) == "rtl";
        let (text_x, anchor, frame_x) = if rtl {
            (1120, " text-anchor=\"end\"", 60)
        } else {
            (80, "", 660)
        };
        let line = |text: &str| {
            if rtl {
                format!("\u{202b}{}\u{202c}", escape(text))
            } else {
                escape(text)
            }
        };
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
        let mut texts = vec![format!(
            "<text x=\"{text_x}\" y=\"150\"{anchor} font-size=\"26\" fill=\"{role}\">{}</text>",
            line(&eyebrow)
        )];
        for text in &title_lines {
            y += title_size * 1.15;
            texts.push(format!(
                "<text x=\"{text_x}\" y=\"{y}\"{anchor} font-size=\"{title_size}\" font-weight=\"bold\" fill=\"#ffffff\">{}</text>",
                line(text)
            ));
        }
        if drawable(REGULAR, self.summary) {
            y += 24.0;
            for text in wrap(self.summary, 24.0, 520.0, 5) {
                y += 36.0;
                texts.push(format!(
                    "<text x=\"{text_x}\" y=\"{y}\"{anchor} font-size=\"24\" fill=\"#d1d5db\">{}</text>",
                    line(&text)
                ));
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
        format!(
            r##"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="{FONT_FAMILY}">
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
        )
    }

    /// The preview, ready to draw.
    pub fn sketch(&self) -> Sketch {
        Sketch(self.svg())
    }
}

/// A link preview ready to draw: its SVG source, which is everything the picture is drawn from
/// (the texts, the colours, the photo as a data URL), so it is also what a drawn picture is kept
/// by: the same sketch draws the same picture.
pub struct Sketch(String);

impl Sketch {
    /// The page's own link preview (`/og-image.png`, `/de/og-image.png`).
    pub fn page(document: &ContentDocument, photo: Option<&[u8]>) -> Self {
        Self(svg(document, photo))
    }

    /// Whether it can be drawn: its source read as resvg reads it (a millisecond, where drawing
    /// and encoding take some 100), so that a publish whose preview could not be drawn later
    /// is refused now (text with a control character, which XML forbids, stored behind the API's
    /// back).
    pub fn check(&self) -> anyhow::Result<()> {
        parse(&self.0).map(|_| ())
    }

    /// What the picture is kept by: its source, hashed.
    pub fn key(&self) -> [u8; 32] {
        use sha2::{Digest, Sha256};
        Sha256::digest(self.0.as_bytes()).into()
    }

    /// The picture as PNG bytes.
    pub fn png(&self) -> anyhow::Result<Vec<u8>> {
        draw(&self.0)
    }
}

/// A link preview drawn once, when first wanted: right after the publish that made it (by the
/// site's background thread, so that a publish is answered without waiting some 100 ms for
/// resvg and the PNG encoder), or at its first request, whichever comes first. Kept by its
/// sketch's key, so a publish that does not change what it shows keeps it drawn.
pub struct Drawing {
    sketch: Sketch,
    key: [u8; 32],
    png: OnceLock<Option<axum::body::Bytes>>,
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
    pub fn png(&self) -> Option<axum::body::Bytes> {
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
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: FONT_FAMILY.to_owned(),
        ..usvg::Options::default()
    };
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
    use crate::content::document::default_document;

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
        assert!(svg(&document, None).contains("stop-color=\"#0f766e\""));
        assert!(!svg(&document, None).contains("#2563eb"));
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
    fn text_is_escaped_for_the_svg() {
        let mut document = default_document().clone();
        document.profile.role = "<script>&".to_owned();
        let source = svg(&document, None);
        assert!(source.contains("&lt;script&gt;&amp;"));
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
