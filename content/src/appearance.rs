//! How the page looks: its colour scheme, its accent colour, which sections show and whether the
//! hero says the owner is available. The accent is checked for contrast before it is taken
//! ([`accent_problems`]) and becomes the page's blue ladder ([`palette`], [`accent_style`]): the
//! page's classes name Tailwind's blue shades, so an inline `<style>` that sets
//! `--color-blue-50` … `--color-blue-950` recolours every use of the accent at once.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
#[cfg(test)]
use ts_rs::TS;

/// An accent colour: `#` and six hexadecimal digits.
pub const ACCENT_PATTERN: &str = "^#[0-9a-fA-F]{6}$";

/// The page's accent today: Tailwind v4's blue-600, `oklch(0.546 0.245 262.881)`.
pub const DEFAULT_ACCENT: &str = "#155dfc";

/// How the page looks.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Appearance {
    /// The colour scheme a visitor sees until they choose one: `dark` (today's page), `light`, or `system` (the visitor's system setting).
    pub scheme: Scheme,
    /// The accent colour, `#rrggbb`: primary buttons, links, the active item, focus rings.
    #[schemars(regex(pattern = ACCENT_PATTERN))]
    pub accent: String,
    /// Which sections of the page show.
    pub sections: Sections,
    /// Whether the hero shows the "Available for new projects" badge.
    pub available: bool,
}

impl Default for Appearance {
    /// Today's page: dark, blue, every section, available.
    fn default() -> Self {
        Self {
            scheme: Scheme::Dark,
            accent: DEFAULT_ACCENT.to_owned(),
            sections: Sections::default(),
            available: true,
        }
    }
}

/// A colour scheme: `dark`, `light`, or `system` (the visitor's system setting).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "lowercase")]
pub enum Scheme {
    #[default]
    Dark,
    Light,
    System,
}

/// Which sections of the page show (the hero always does); the navigation follows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
#[cfg_attr(test, derive(TS))]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Sections {
    /// Whether the About section shows.
    pub about: bool,
    /// Whether the Skills section shows.
    pub skills: bool,
    /// Whether the Projects section shows.
    pub projects: bool,
    /// Whether the Experience section (work and education) shows.
    pub experience: bool,
    /// Whether the Contact section shows.
    pub contact: bool,
    /// Whether the Writing section (the latest posts) shows, once there is a post. Written only
    /// when hidden: a document from before posts, and the build's, stay as they were.
    #[serde(default = "shown", skip_serializing_if = "is_shown")]
    #[cfg_attr(test, ts(as = "Option<bool>", optional))]
    pub writing: bool,
}

fn shown() -> bool {
    true
}

fn is_shown(writing: &bool) -> bool {
    *writing
}

impl Default for Sections {
    fn default() -> Self {
        Self {
            about: true,
            skills: true,
            projects: true,
            experience: true,
            contact: true,
            writing: true,
        }
    }
}

/// An 8-bit sRGB colour.
pub type Rgb = [u8; 3];

/// `#rrggbb` (either case) as bytes; `None` for anything else.
pub fn parse_hex(text: &str) -> Option<Rgb> {
    let digits = text.strip_prefix('#')?;
    if digits.len() != 6 || !digits.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let byte = |i: usize| u8::from_str_radix(&digits[i..i + 2], 16).ok();
    Some([byte(0)?, byte(2)?, byte(4)?])
}

/// `#rrggbb`, lower case.
pub fn hex(rgb: Rgb) -> String {
    format!("#{:02x}{:02x}{:02x}", rgb[0], rgb[1], rgb[2])
}

/// An sRGB channel (0 to 1) made linear.
fn to_linear(c: f64) -> f64 {
    if c <= 0.04045 {
        c / 12.92
    } else {
        ((c + 0.055) / 1.055).powf(2.4)
    }
}

/// A linear channel encoded with the sRGB transfer function.
fn from_linear(c: f64) -> f64 {
    if c <= 0.003_130_8 {
        c * 12.92
    } else {
        1.055 * c.powf(1.0 / 2.4) - 0.055
    }
}

/// WCAG 2's relative luminance.
fn luminance(rgb: Rgb) -> f64 {
    let [r, g, b] = rgb.map(|c| to_linear(f64::from(c) / 255.0));
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// WCAG 2's contrast ratio of two colours, from 1 to 21 (the lighter's over the darker's).
pub fn contrast(a: Rgb, b: Rgb) -> f64 {
    let (la, lb) = (luminance(a), luminance(b));
    let (light, dark) = if la >= lb { (la, lb) } else { (lb, la) };
    (light + 0.05) / (dark + 0.05)
}

/// OKLCH: lightness (0 to 1), chroma, hue in degrees. Björn Ottosson's OKLab, from sRGB.
fn to_oklch(rgb: Rgb) -> (f64, f64, f64) {
    let [r, g, b] = rgb.map(|c| to_linear(f64::from(c) / 255.0));
    let l = (0.412_221_470_8 * r + 0.536_332_536_3 * g + 0.051_445_992_9 * b).cbrt();
    let m = (0.211_903_498_2 * r + 0.680_699_545_1 * g + 0.107_396_956_6 * b).cbrt();
    let s = (0.088_302_461_9 * r + 0.281_718_837_6 * g + 0.629_978_700_5 * b).cbrt();
    let lightness = 0.210_454_255_3 * l + 0.793_617_785_0 * m - 0.004_072_046_8 * s;
    let a = 1.977_998_495_1 * l - 2.428_592_205_0 * m + 0.450_593_709_9 * s;
    let b = 0.025_904_037_1 * l + 0.782_771_766_2 * m - 0.808_675_766_0 * s;
    (
        lightness,
        a.hypot(b),
        b.atan2(a).to_degrees().rem_euclid(360.0),
    )
}

/// OKLCH back to linear sRGB, each channel possibly outside 0 to 1 (out of gamut).
fn oklch_to_linear(lightness: f64, chroma: f64, hue: f64) -> [f64; 3] {
    let (a, b) = (
        chroma * hue.to_radians().cos(),
        chroma * hue.to_radians().sin(),
    );
    let l = (lightness + 0.396_337_777_4 * a + 0.215_803_757_3 * b).powi(3);
    let m = (lightness - 0.105_561_345_8 * a - 0.063_854_172_8 * b).powi(3);
    let s = (lightness - 0.089_484_177_5 * a - 1.291_485_548_0 * b).powi(3);
    [
        4.076_741_662_1 * l - 3.307_711_591_3 * m + 0.230_969_929_2 * s,
        -1.268_438_004_6 * l + 2.609_757_401_1 * m - 0.341_319_396_5 * s,
        -0.004_196_086_3 * l - 0.703_418_614_7 * m + 1.707_614_701_0 * s,
    ]
}

fn in_gamut(linear: [f64; 3]) -> bool {
    const SLACK: f64 = 1e-7;
    linear.iter().all(|c| (-SLACK..=1.0 + SLACK).contains(c))
}

/// The OKLCH colour in 8-bit sRGB, its chroma reduced (lightness and hue kept) until it fits.
fn from_oklch(lightness: f64, chroma: f64, hue: f64) -> Rgb {
    let mut linear = oklch_to_linear(lightness, chroma, hue);
    if !in_gamut(linear) {
        // The largest chroma that fits, by bisection: 0 always fits, as 0 <= lightness <= 1.
        let (mut fits, mut too_much) = (0.0, chroma);
        for _ in 0..40 {
            let middle = (fits + too_much) / 2.0;
            if in_gamut(oklch_to_linear(lightness, middle, hue)) {
                fits = middle;
            } else {
                too_much = middle;
            }
        }
        linear = oklch_to_linear(lightness, fits, hue);
    }
    linear.map(|c| (from_linear(c.clamp(0.0, 1.0)) * 255.0).round() as u8)
}

/// Tailwind v4's blue ladder in OKLCH (shade, lightness, chroma); its hue is the accent's.
const LADDER: [(u16, f64, f64); 11] = [
    (50, 0.970, 0.014),
    (100, 0.932, 0.032),
    (200, 0.882, 0.059),
    (300, 0.809, 0.105),
    (400, 0.707, 0.165),
    (500, 0.623, 0.214),
    (600, 0.546, 0.245),
    (700, 0.488, 0.243),
    (800, 0.424, 0.199),
    (900, 0.379, 0.146),
    (950, 0.282, 0.091),
];

/// The ladder's chroma at 600, the shade the accent stands for.
const LADDER_ACCENT_CHROMA: f64 = 0.245;

/// The accent's eleven shades (50, 100, 200 … 900, 950): 600 is the accent itself; every other
/// shade has the blue ladder's lightness, the ladder's chroma scaled as the accent's chroma is to
/// blue-600's (a grey accent gives greys), and the accent's hue, its chroma reduced until it fits
/// in sRGB.
pub fn palette(accent: Rgb) -> [(u16, Rgb); 11] {
    let (_, chroma, hue) = to_oklch(accent);
    let scale = chroma / LADDER_ACCENT_CHROMA;
    LADDER.map(|(shade, lightness, ladder_chroma)| {
        let rgb = if shade == 600 {
            accent
        } else {
            from_oklch(lightness, ladder_chroma * scale, hue)
        };
        (shade, rgb)
    })
}

/// The CSS that recolours the page's blue with the accent's shades, for an inline `<style>` in
/// the page's head: `None` for the default accent (the page is then the build's, byte for byte)
/// and for an accent that is not `#rrggbb` (validation refuses it).
pub fn accent_style(appearance: &Appearance) -> Option<String> {
    if appearance.accent.eq_ignore_ascii_case(DEFAULT_ACCENT) {
        return None;
    }
    let accent = parse_hex(&appearance.accent)?;
    let declarations: Vec<String> = palette(accent)
        .iter()
        .map(|(shade, rgb)| format!("--color-blue-{shade}:{}", hex(*rgb)))
        .collect();
    Some(format!(":root{{{}}}", declarations.join(";")))
}

/// The shade of the page's blue a check reads.
fn shade(palette: &[(u16, Rgb); 11], wanted: u16) -> Rgb {
    palette
        .iter()
        .find(|(shade, _)| *shade == wanted)
        .map(|(_, rgb)| *rgb)
        .expect("the palette has every shade the checks read")
}

const WHITE: Rgb = [0xff, 0xff, 0xff];
/// The light scheme's bands: gray-50 and gray-100.
const GRAY_50: Rgb = [0xf9, 0xfa, 0xfb];
const GRAY_100: Rgb = [0xf3, 0xf4, 0xf6];
/// The dark scheme's bands: gray-900 (the lighter) and gray-950 (the page).
const GRAY_900: Rgb = [0x10, 0x18, 0x28];
const GRAY_950: Rgb = [0x03, 0x07, 0x12];

/// WCAG's least contrast for text (AA) and for parts of the interface such as a focus ring.
const TEXT: f64 = 4.5;
const NON_TEXT: f64 = 3.0;

/// A ratio as the messages write it: `4.5:1`, `3:1`.
fn ratio(value: f64) -> String {
    let text = format!("{value:.1}");
    format!("{}:1", text.strip_suffix(".0").unwrap_or(&text))
}

/// What is wrong with the accent's contrast, one message per failing pair, each with its measured
/// ratio (empty when it passes, or when the accent is not `#rrggbb`, which the schema reports).
/// Whichever scheme the page starts in, a visitor can choose the other, so both are checked.
/// The first, the second and the last read the accent's own lightness (the other shades take the
/// ladder's): a light accent can fail the first and the last, a dark one the second:
/// - white text on the accent (primary buttons): 4.5:1;
/// - the accent itself on the dark page (the section headings' bars, the buttons' edges: WCAG's
///   non-text contrast): 3:1;
/// - the dark scheme's accent text (shade 500) on gray-900 and gray-950: 4.5:1;
/// - the light scheme's accent text (shade 700) on white and on gray-100: 4.5:1;
/// - the focus ring: shade 400 on gray-950 (dark), shade 600 on gray-50 (light): 3:1.
pub fn accent_problems(appearance: &Appearance) -> Vec<String> {
    parse_hex(&appearance.accent).map_or_else(Vec::new, problems_of)
}

/// The colour nearest the accent that passes every check of [`accent_problems`], offered in its
/// place: the accent's hue, its OKLCH lightness moved as little as it must (in steps of 0.001, up
/// or down), its chroma kept where sRGB allows and lowered, a quarter at a time, only when no
/// lightness passes with it. `None` when even a grey fails (it never does for these checks).
pub fn nearest_passing(accent: Rgb) -> Option<Rgb> {
    let (lightness, chroma, hue) = to_oklch(accent);
    let from = (lightness * 1000.0).round() as i32;
    [1.0, 0.75, 0.5, 0.25, 0.0].into_iter().find_map(|share| {
        (0..=1000).find_map(|step| {
            [from - step, from + step]
                .into_iter()
                .filter(|l| (0..=1000).contains(l))
                .map(|l| from_oklch(f64::from(l) / 1000.0, chroma * share, hue))
                .find(|candidate| problems_of(*candidate).is_empty())
        })
    })
}

fn problems_of(accent: Rgb) -> Vec<String> {
    let accent_hex = hex(accent);
    let palette = palette(accent);
    let at = |wanted| shade(&palette, wanted);
    let checks: [(String, Rgb, Rgb, f64); 8] = [
        (
            format!("white text on the accent {accent_hex}"),
            WHITE,
            accent,
            TEXT,
        ),
        (
            format!("the accent {accent_hex} on the dark page #030712"),
            accent,
            GRAY_950,
            NON_TEXT,
        ),
        (
            format!("the dark scheme's accent text {} on #101828", hex(at(500))),
            at(500),
            GRAY_900,
            TEXT,
        ),
        (
            format!("the dark scheme's accent text {} on #030712", hex(at(500))),
            at(500),
            GRAY_950,
            TEXT,
        ),
        (
            format!("the light scheme's accent text {} on #ffffff", hex(at(700))),
            at(700),
            WHITE,
            TEXT,
        ),
        (
            format!("the light scheme's accent text {} on #f3f4f6", hex(at(700))),
            at(700),
            GRAY_100,
            TEXT,
        ),
        (
            format!("the dark scheme's focus ring {} on #030712", hex(at(400))),
            at(400),
            GRAY_950,
            NON_TEXT,
        ),
        (
            format!("the light scheme's focus ring {} on #f9fafb", hex(at(600))),
            at(600),
            GRAY_50,
            NON_TEXT,
        ),
    ];
    checks
        .into_iter()
        .filter_map(|(what, foreground, background, needed)| {
            let measured = contrast(foreground, background);
            // Shown rounded down, so a ratio that fails never reads as the one it needs.
            let shown = (measured * 10.0).floor() / 10.0;
            (measured < needed).then(|| {
                format!(
                    "{what} has a contrast of {}; it needs at least {}",
                    ratio(shown),
                    ratio(needed)
                )
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn with_accent(accent: &str) -> Appearance {
        Appearance {
            accent: accent.to_owned(),
            ..Appearance::default()
        }
    }

    #[test]
    fn contrast_is_wcags_ratio() {
        assert!((contrast(WHITE, [0, 0, 0]) - 21.0).abs() < 1e-9);
        assert!((contrast([0, 0, 0], WHITE) - 21.0).abs() < 1e-9);
        assert!((contrast(GRAY_50, GRAY_50) - 1.0).abs() < 1e-9);
        // #767676 on white is the well-known 4.54:1.
        assert_eq!(
            format!("{:.2}", contrast([0x76, 0x76, 0x76], WHITE)),
            "4.54"
        );
    }

    #[test]
    fn hex_colours_parse_in_either_case() {
        assert_eq!(parse_hex("#155DFC"), Some([0x15, 0x5d, 0xfc]));
        assert_eq!(hex([0x15, 0x5d, 0xfc]), "#155dfc");
        for bad in ["155dfc", "#155dfg", "#155df", "#155dfc0", "#+55dfc"] {
            assert_eq!(parse_hex(bad), None, "{bad}");
        }
    }

    #[test]
    fn blue_600_is_the_ladders_600_in_oklch() {
        let (lightness, chroma, hue) = to_oklch(parse_hex(DEFAULT_ACCENT).unwrap());
        assert!((lightness - 0.546).abs() < 0.002, "{lightness}");
        assert!((chroma - 0.245).abs() < 0.003, "{chroma}");
        assert!((hue - 262.881).abs() < 0.5, "{hue}");
        // And back.
        assert_eq!(from_oklch(lightness, chroma, hue), [0x15, 0x5d, 0xfc]);
    }

    #[test]
    fn the_default_accents_palette_is_close_to_tailwinds_blue() {
        // Tailwind v4's blue in sRGB. Ours differ a little: Tailwind's hue drifts along its
        // ladder (251.8 at 300, 267.9 at 950) where ours keeps the accent's, and ours reduce
        // chroma where a shade leaves sRGB rather than clip it.
        let tailwind: [(u16, Rgb); 11] = [
            (50, [0xef, 0xf6, 0xff]),
            (100, [0xdb, 0xea, 0xfe]),
            (200, [0xbe, 0xdb, 0xff]),
            (300, [0x8e, 0xc5, 0xff]),
            (400, [0x51, 0xa2, 0xff]),
            (500, [0x2b, 0x7f, 0xff]),
            (600, [0x15, 0x5d, 0xfc]),
            (700, [0x14, 0x47, 0xe6]),
            (800, [0x19, 0x3c, 0xb8]),
            (900, [0x1c, 0x39, 0x8e]),
            (950, [0x16, 0x24, 0x56]),
        ];
        let ours = palette(parse_hex(DEFAULT_ACCENT).unwrap());
        for ((shade, rgb), (tailwind_shade, expected)) in ours.iter().zip(tailwind) {
            assert_eq!(*shade, tailwind_shade);
            let off = rgb
                .iter()
                .zip(expected)
                .map(|(a, b)| a.abs_diff(b))
                .max()
                .unwrap();
            assert!(
                off <= 32,
                "shade {shade}: {} against Tailwind's {}",
                hex(*rgb),
                hex(expected)
            );
        }
        assert_eq!(ours[6], (600, [0x15, 0x5d, 0xfc]));
    }

    #[test]
    fn the_default_accent_passes_every_check_and_adds_no_style() {
        assert_eq!(
            accent_problems(&Appearance::default()),
            Vec::<String>::new()
        );
        assert_eq!(
            accent_problems(&with_accent("#155DFC")),
            Vec::<String>::new()
        );
        assert_eq!(accent_style(&Appearance::default()), None);
        assert_eq!(accent_style(&with_accent("#155DFC")), None);
    }

    #[test]
    fn a_light_accent_fails_white_text_and_the_light_focus_ring_with_their_ratios() {
        let problems = accent_problems(&with_accent("#ffcc00"));
        assert_eq!(
            problems,
            [
                "white text on the accent #ffcc00 has a contrast of 1.5:1; it needs at least 4.5:1",
                "the light scheme's focus ring #ffcc00 on #f9fafb has a contrast of 1.4:1; it needs at least 3:1",
            ]
        );
    }

    #[test]
    fn a_very_dark_accent_fails_only_on_the_dark_page() {
        // White text on it is 18.6:1 and its focus ring on gray-50 17.8:1; the shades the dark
        // scheme reads (400, 500) are as light as blue's, whatever the accent's own lightness;
        // but the accent itself (the headings' bars) vanishes on the dark page.
        let navy = with_accent("#0a0a40");
        assert_eq!(
            accent_problems(&navy),
            vec!["the accent #0a0a40 on the dark page #030712 has a contrast of 1:1; it needs at least 3:1".to_owned()]
        );
        // Indigo-600 passes.
        assert_eq!(
            accent_problems(&with_accent("#4f39f6")),
            Vec::<String>::new()
        );
        let shades = palette(parse_hex("#0a0a40").unwrap());
        assert!(contrast(shade(&shades, 500), GRAY_900) >= TEXT);
        assert!(contrast(shade(&shades, 400), GRAY_950) >= NON_TEXT);
    }

    #[test]
    fn a_teal_accent_passes_and_its_style_sets_every_shade() {
        let teal = with_accent("#0F766E");
        assert_eq!(accent_problems(&teal), Vec::<String>::new());
        let style = accent_style(&teal).expect("a style for another accent");
        assert_eq!(
            style,
            ":root{--color-blue-50:#f2f6f5;--color-blue-100:#e1ebea;--color-blue-200:#caddda;\
             --color-blue-300:#a7c9c4;--color-blue-400:#76ada6;--color-blue-500:#4c968e;\
             --color-blue-600:#0f766e;--color-blue-700:#006f67;--color-blue-800:#0d5a54;\
             --color-blue-900:#1c4b46;--color-blue-950:#152f2c}"
        );
        assert!(style.starts_with(":root{--color-blue-50:#"), "{style}");
        assert!(style.contains(";--color-blue-600:#0f766e;"), "{style}");
        assert!(style.ends_with('}') && !style.contains(' '), "{style}");
        let shades: Vec<&str> = style
            .trim_start_matches(":root{")
            .trim_end_matches('}')
            .split(';')
            .map(|declaration| declaration.split(':').next().unwrap())
            .collect();
        assert_eq!(
            shades,
            LADDER.map(|(shade, _, _)| format!("--color-blue-{shade}"))
        );
    }

    #[test]
    fn the_nearest_passing_shade_keeps_the_hue_and_passes_every_check() {
        for (accent, expected) in [
            ("#ffcc00", "#917300"),
            ("#0a0a40", "#4b5995"),
            ("#00ff00", "#008a00"),
        ] {
            let nearest = nearest_passing(parse_hex(accent).unwrap()).unwrap();
            assert_eq!(hex(nearest), expected, "{accent}");
            assert_eq!(problems_of(nearest), Vec::<String>::new(), "{accent}");
            let (_, _, hue) = to_oklch(parse_hex(accent).unwrap());
            let (_, _, nearest_hue) = to_oklch(nearest);
            assert!(
                (hue - nearest_hue).abs() < 2.0,
                "{accent}: {hue} and {nearest_hue}"
            );
        }
        // An accent that passes is its own nearest.
        let teal = parse_hex("#0f766e").unwrap();
        assert_eq!(nearest_passing(teal), Some(teal));
    }

    #[test]
    fn a_grey_accent_gives_grey_shades() {
        let shades = palette([0x55, 0x55, 0x55]);
        for (shade, [r, g, b]) in shades {
            assert!(r == g && g == b, "shade {shade}: {}", hex([r, g, b]));
        }
        // The ladder's greys, lightest first, around the accent itself at 600.
        let greys: Vec<u8> = shades.iter().map(|(_, rgb)| rgb[0]).collect();
        assert_eq!(greys, [245, 232, 216, 192, 160, 135, 0x55, 96, 78, 66, 41]);
    }

    #[test]
    fn every_shade_fits_in_srgb_whatever_the_accent() {
        for accent in [
            "#ff0000", "#00ff00", "#0000ff", "#ff00ff", "#00ffff", "#ffff00",
        ] {
            let accent = parse_hex(accent).unwrap();
            for (shade, rgb) in palette(accent) {
                // Back into OKLCH, the shade keeps the ladder's lightness (within rounding).
                if shade != 600 {
                    let (lightness, _, _) = to_oklch(rgb);
                    let expected = LADDER.iter().find(|l| l.0 == shade).unwrap().1;
                    assert!((lightness - expected).abs() < 0.01, "{shade}: {lightness}");
                }
            }
        }
    }

    #[test]
    fn appearance_defaults_to_todays_page() {
        let appearance = Appearance::default();
        assert_eq!(appearance.scheme, Scheme::Dark);
        assert_eq!(appearance.accent, "#155dfc");
        assert!(appearance.available);
        assert_eq!(appearance.sections, Sections::default());
        assert!(appearance.sections.about && appearance.sections.contact);
        let json = serde_json::to_value(&appearance).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "scheme": "dark",
                "accent": "#155dfc",
                "sections": {"about": true, "skills": true, "projects": true, "experience": true, "contact": true},
                "available": true,
            })
        );
    }
}
