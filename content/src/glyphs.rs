//! Text drawn as the outlines of its glyphs: the link previews' texts (`preview`), laid out by
//! parley (shaping, right to left) in the bundled DejaVu Sans and written as SVG paths, so that
//! resvg draws them without a text engine of its own. The resume's PDF (`resume::pdf`) lays its
//! text out with the same fonts and the same parley, and krilla reads their outlines with the
//! same skrifa: one font stack in the binary.

use std::fmt::Write as _;
use std::sync::{Arc, Mutex, OnceLock};

use parley::fontique::{Blob, Collection, CollectionOptions, SourceCache};
use parley::{FontContext, FontWeight, LayoutContext, PositionedLayoutItem, StyleProperty};
use skrifa::instance::{LocationRef, Size};
use skrifa::outline::{DrawSettings, OutlinePen};
use skrifa::{FontRef, GlyphId, MetadataProvider};

/// The bundled fonts' family name.
pub const FAMILY: &str = "DejaVu Sans";
// DejaVu Sans, as the build's icons use, embedded so the binary needs no font on the host:
// subset to the Latin, Greek, Cyrillic, Hebrew and Arabic scripts and common punctuation,
// without hinting, 293 KB instead of 1.46 MB. How they were made: fonts/README.md.
pub const REGULAR: &[u8] = include_bytes!("fonts/DejaVuSans.ttf");
pub const BOLD: &[u8] = include_bytes!("fonts/DejaVuSans-Bold.ttf");

/// A font context that knows the bundled fonts alone (never the host's).
pub fn font_context() -> FontContext {
    let mut collection = Collection::new(CollectionOptions {
        shared: false,
        system_fonts: false,
    });
    for data in [REGULAR, BOLD] {
        collection.register_fonts(Blob::new(Arc::new(data)), None);
    }
    FontContext {
        collection,
        source_cache: SourceCache::default(),
    }
}

/// Left-to-right and right-to-left marks: a paragraph's direction is that of its first strong
/// character, so a text that must read one way is laid out behind the mark for it.
pub const LTR_MARK: char = '\u{200e}';
pub const RTL_MARK: char = '\u{200f}';

/// Whether `font` (the regular or the bold face) has a glyph for every character of `text` that
/// is drawn at all (spaces and the invisible format characters need none).
pub fn draws(font: &[u8], text: &str) -> bool {
    let Ok(font) = FontRef::new(font) else {
        return false;
    };
    let charmap = font.charmap();
    text.chars()
        .filter(|&c| {
            !(c.is_whitespace()
                || c.is_control()
                || ('\u{200b}'..='\u{200f}').contains(&c)
                || ('\u{202a}'..='\u{202e}').contains(&c)
                || ('\u{2060}'..='\u{2069}').contains(&c))
        })
        .all(|c| charmap.map(c).is_some_and(|glyph| glyph != GlyphId::NOTDEF))
}

/// Where a line of text stands against its `x`, as SVG's `text-anchor`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    Start,
    Middle,
    End,
}

/// How a line of text is drawn.
#[derive(Debug, Clone, PartialEq)]
pub struct Line {
    /// Its baseline's start, by `anchor`.
    pub x: f32,
    pub y: f32,
    pub anchor: Anchor,
    pub size: f32,
    pub bold: bool,
    /// Its paragraph reads right to left.
    pub rtl: bool,
    /// An SVG paint (`#rrggbb`).
    pub fill: String,
}

/// The one layout context of the previews, kept between drawings (a few milliseconds each).
fn shaper() -> &'static Mutex<(FontContext, LayoutContext<()>)> {
    static SHAPER: OnceLock<Mutex<(FontContext, LayoutContext<()>)>> = OnceLock::new();
    SHAPER.get_or_init(|| Mutex::new((font_context(), LayoutContext::new())))
}

/// `text` on one line as one SVG `<path>` of its glyphs' outlines (nothing for an empty text).
pub fn svg_path(text: &str, line: &Line) -> String {
    let marked = format!("{}{text}", if line.rtl { RTL_MARK } else { LTR_MARK });
    let mut shaper = shaper()
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let (fonts, layouts) = &mut *shaper;
    let mut builder = layouts.ranged_builder(fonts, &marked, 1.0, false);
    builder.push_default(StyleProperty::FontFamily(parley::FontFamily::named(FAMILY)));
    builder.push_default(StyleProperty::FontSize(line.size));
    builder.push_default(StyleProperty::FontWeight(if line.bold {
        FontWeight::BOLD
    } else {
        FontWeight::NORMAL
    }));
    let mut layout = builder.build(&marked);
    layout.break_all_lines(None);
    let left = match line.anchor {
        Anchor::Start => line.x,
        Anchor::Middle => line.x - layout.width() / 2.0,
        Anchor::End => line.x - layout.width(),
    };
    let mut pen = SvgPen::default();
    for row in layout.lines() {
        for item in row.items() {
            let PositionedLayoutItem::GlyphRun(run) = item else {
                continue;
            };
            let data = run.run().font();
            let Ok(font) = FontRef::from_index(data.data.as_ref(), data.index) else {
                continue;
            };
            let outlines = font.outline_glyphs();
            for glyph in run.positioned_glyphs() {
                let Some(outline) = outlines.get(GlyphId::new(glyph.id)) else {
                    continue;
                };
                pen.origin = (left + glyph.x, line.y + glyph.y - row.metrics().baseline);
                // A glyph that does not draw (a broken outline) is left out, as a browser would.
                let settings = DrawSettings::unhinted(Size::new(line.size), LocationRef::default());
                let _ = outline.draw(settings, &mut pen);
            }
        }
    }
    if pen.d.is_empty() {
        return String::new();
    }
    format!("<path fill=\"{}\" d=\"{}\"/>", line.fill, pen.d)
}

/// An outline written as SVG path data, each point moved by `origin` and flipped (a font's y
/// axis points up, SVG's down).
#[derive(Default)]
struct SvgPen {
    d: String,
    origin: (f32, f32),
}

impl SvgPen {
    fn point(&mut self, x: f32, y: f32) {
        let _ = write!(
            self.d,
            "{} {}",
            round(self.origin.0 + x),
            round(self.origin.1 - y)
        );
    }
}

/// A coordinate to a hundredth of a pixel, without trailing zeros.
fn round(value: f32) -> f32 {
    (value * 100.0).round() / 100.0
}

impl OutlinePen for SvgPen {
    fn move_to(&mut self, x: f32, y: f32) {
        self.d.push('M');
        self.point(x, y);
    }

    fn line_to(&mut self, x: f32, y: f32) {
        self.d.push('L');
        self.point(x, y);
    }

    fn quad_to(&mut self, cx0: f32, cy0: f32, x: f32, y: f32) {
        self.d.push('Q');
        self.point(cx0, cy0);
        self.d.push(' ');
        self.point(x, y);
    }

    fn curve_to(&mut self, cx0: f32, cy0: f32, cx1: f32, cy1: f32, x: f32, y: f32) {
        self.d.push('C');
        self.point(cx0, cy0);
        self.d.push(' ');
        self.point(cx1, cy1);
        self.d.push(' ');
        self.point(x, y);
    }

    fn close(&mut self) {
        self.d.push('Z');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(anchor: Anchor, rtl: bool) -> Line {
        Line {
            x: 600.0,
            y: 100.0,
            anchor,
            size: 40.0,
            bold: false,
            rtl,
            fill: "#fff".to_owned(),
        }
    }

    /// The x coordinates of a path's points.
    fn xs(path: &str) -> Vec<f32> {
        let d = path.split("d=\"").nth(1).unwrap().trim_end_matches("\"/>");
        d.split(|c: char| c.is_ascii_alphabetic())
            .flat_map(|segment| {
                let numbers: Vec<f32> = segment
                    .split_whitespace()
                    .map(|n| n.parse().unwrap())
                    .collect();
                numbers.chunks(2).map(|p| p[0]).collect::<Vec<_>>()
            })
            .collect()
    }

    #[test]
    fn a_line_is_drawn_on_its_side_of_the_anchor() {
        let start = xs(&svg_path("Alex Morgan", &line(Anchor::Start, false)));
        assert!(start.iter().all(|&x| x >= 599.0), "{start:?}");
        let end = xs(&svg_path("Alex Morgan", &line(Anchor::End, false)));
        assert!(end.iter().all(|&x| x <= 601.0), "{end:?}");
        let middle = xs(&svg_path("Alex Morgan", &line(Anchor::Middle, false)));
        assert!(middle.iter().any(|&x| x < 590.0) && middle.iter().any(|&x| x > 610.0));
        // Right to left, a line anchored at its end reads leftwards from x.
        let arabic = xs(&svg_path("أليكس مورغان", &line(Anchor::End, true)));
        assert!(
            !arabic.is_empty() && arabic.iter().all(|&x| x <= 601.0),
            "{arabic:?}"
        );
    }

    #[test]
    fn an_empty_text_draws_nothing_and_a_control_character_no_glyph() {
        assert_eq!(svg_path("", &line(Anchor::Start, false)), "");
        assert_eq!(svg_path("   ", &line(Anchor::Start, false)), "");
    }

    #[test]
    fn the_fonts_say_which_scripts_they_draw() {
        assert!(draws(REGULAR, "Ünïcödé Ελληνικά Кириллица עברית العربية"));
        assert!(draws(BOLD, "Alex Morgan\u{200f}"));
        assert!(!draws(REGULAR, "日本語"));
    }
}
