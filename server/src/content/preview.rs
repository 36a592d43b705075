//! The 1200x630 link preview (`/og-image.png`): the owner's name, role, summary and photo (or
//! initials without one), drawn from an SVG template by `resvg` with a bundled font, at
//! start-up and at each publish.

use std::sync::{Arc, OnceLock};

use anyhow::Context;
use base64::Engine as _;
use resvg::{tiny_skia, usvg};

use super::document::ContentDocument;
use super::head::{PREVIEW_HEIGHT, PREVIEW_WIDTH};

const FONT_FAMILY: &str = "DejaVu Sans";
// DejaVu Sans, as the build's icons use, embedded so the binary needs no font on the host:
// subset to the Latin, Greek and Cyrillic scripts and common punctuation, without hinting
// (resvg does not hint), 221 KB instead of 1.46 MB. How they were made: fonts/README.md.
const REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");
const BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.ttf");

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

/// The preview's SVG source.
fn svg(document: &ContentDocument, photo: Option<&[u8]>) -> String {
    let profile = &document.profile;
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
    let (cx, cy, r) = (945, 315, 165);
    let portrait = match photo.and_then(data_url) {
        Some(href) => format!(
            "<image x=\"{x}\" y=\"{y}\" width=\"{d}\" height=\"{d}\" preserveAspectRatio=\"xMidYMid slice\" clip-path=\"url(#round)\" href=\"{href}\"/>",
            x = cx - r,
            y = cy - r,
            d = 2 * r
        ),
        None => format!(
            "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{r}\" fill=\"#1e3a8a\"/><text x=\"{cx}\" y=\"{ty}\" text-anchor=\"middle\" font-size=\"120\" font-weight=\"bold\" fill=\"#fff\">{initials}</text>",
            ty = cy + 40,
            initials = escape(&initials)
        ),
    };
    let summary = wrap(&profile.summary, 26.0, 640.0, 4)
        .iter()
        .enumerate()
        .map(|(i, line)| {
            format!(
                "<text x=\"80\" y=\"{}\" font-size=\"26\" fill=\"#d1d5db\">{}</text>",
                310 + name_size + i * 38,
                escape(line)
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
      <stop offset="0" stop-color="#2563eb" stop-opacity="0.35"/><stop offset="1" stop-color="#2563eb" stop-opacity="0"/>
    </radialGradient>
    <clipPath id="round"><circle cx="{cx}" cy="{cy}" r="{r}"/></clipPath>
  </defs>
  <rect width="{width}" height="{height}" fill="url(#bg)"/>
  <rect width="{width}" height="{height}" fill="url(#glow)"/>
  <rect x="80" y="120" width="64" height="6" rx="3" fill="#3b82f6"/>
  <text x="80" y="{name_y}" font-size="{name_size}" font-weight="bold" fill="#ffffff">{name}</text>
  <text x="80" y="{role_y}" font-size="36" fill="#60a5fa">{role}</text>
  {summary}
  <circle cx="{cx}" cy="{cy}" r="{ring}" fill="none" stroke="#3b82f6" stroke-width="6"/>
  {portrait}
</svg>"##,
        name_y = 160 + name_size,
        role_y = 230 + name_size,
        name = escape(&profile.name),
        role = escape(&profile.role),
        ring = r + 10,
    )
}

/// The link preview as PNG bytes. `photo` is the owner's photo (PNG, JPEG, WebP or GIF bytes).
pub fn preview_png(document: &ContentDocument, photo: Option<&[u8]>) -> anyhow::Result<Vec<u8>> {
    let options = usvg::Options {
        fontdb: fonts(),
        font_family: FONT_FAMILY.to_owned(),
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_str(&svg(document, photo), &options)
        .context("the preview's SVG template does not parse")?;
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
}
