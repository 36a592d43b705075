//! What the page says about its owner outside the page itself, generated from the published
//! document: the head's tags (title, description, canonical link, Open Graph and Twitter cards,
//! icons), the JSON-LD `Person` for search engines, and the web app manifest. The server writes
//! them at start-up and at each publish; the build no longer does.

use serde::Serialize;

use super::document::ContentDocument;

/// The link preview image's path and size (see [`super::preview`]).
pub const PREVIEW_PATH: &str = "/og-image.png";
pub const PREVIEW_WIDTH: u32 = 1200;
pub const PREVIEW_HEIGHT: u32 = 630;

/// Text escaped for HTML element content and double- or single-quoted attribute values.
pub fn escape_html(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// `Name · Role`: the page's title, the manifest's name and the preview's heading.
pub fn title(document: &ContentDocument) -> String {
    format!("{} · {}", document.profile.name, document.profile.role)
}

/// Which language's page a head is for, and the page's other languages.
#[derive(Debug, Clone, PartialEq)]
pub struct PageLanguage {
    /// The page's BCP 47 tag.
    pub tag: String,
    /// Where the page is served: `/`, or `/<tag in lower case>/`.
    pub path: String,
    /// Where its link preview is served: [`PREVIEW_PATH`] or `/<tag>/og-image.png`.
    pub preview: String,
    /// Every published language's tag and path, the default first, when there is more than one;
    /// else empty (no alternates).
    pub alternates: Vec<(String, String)>,
}

impl PageLanguage {
    /// The page of a document in English alone, as it was before languages existed.
    pub fn plain() -> Self {
        Self {
            tag: super::document::DEFAULT_LANGUAGE.to_owned(),
            path: "/".to_owned(),
            preview: PREVIEW_PATH.to_owned(),
            alternates: Vec::new(),
        }
    }

    /// `og:locale`: see [`og_locale`].
    fn og_locale(&self) -> String {
        og_locale(&self.tag)
    }
}

/// The usual territory of a language written without one, for Open Graph's `language_TERRITORY`
/// locales (`de` is `de_DE`; Arabic is `ar_AR`, as Facebook names it). A language not listed
/// takes its own code in capitals (`xx_XX`).
#[rustfmt::skip]
const USUAL_TERRITORIES: &[(&str, &str)] = &[
    ("af", "ZA"), ("ar", "AR"), ("bg", "BG"), ("bn", "IN"), ("ca", "ES"), ("cs", "CZ"),
    ("cy", "GB"), ("da", "DK"), ("de", "DE"), ("el", "GR"), ("en", "US"), ("es", "ES"),
    ("et", "EE"), ("eu", "ES"), ("fa", "IR"), ("fi", "FI"), ("fil", "PH"), ("fr", "FR"),
    ("ga", "IE"), ("gl", "ES"), ("gu", "IN"), ("he", "IL"), ("hi", "IN"), ("hr", "HR"),
    ("hu", "HU"), ("hy", "AM"), ("id", "ID"), ("is", "IS"), ("it", "IT"), ("ja", "JP"),
    ("ka", "GE"), ("kk", "KZ"), ("km", "KH"), ("kn", "IN"), ("ko", "KR"), ("lt", "LT"),
    ("lv", "LV"), ("mk", "MK"), ("ml", "IN"), ("mr", "IN"), ("ms", "MY"), ("nb", "NO"),
    ("ne", "NP"), ("nl", "NL"), ("nn", "NO"), ("no", "NO"), ("pa", "IN"), ("pl", "PL"),
    ("pt", "PT"), ("ro", "RO"), ("ru", "RU"), ("sk", "SK"), ("sl", "SI"), ("sq", "AL"),
    ("sr", "RS"), ("sv", "SE"), ("sw", "KE"), ("ta", "IN"), ("te", "IN"), ("th", "TH"),
    ("tr", "TR"), ("uk", "UA"), ("ur", "PK"), ("uz", "UZ"), ("vi", "VN"), ("zh", "CN"),
];

/// Open Graph's locale for a BCP 47 tag: `language_TERRITORY`. A tag's own region is kept
/// (`pt-BR` is `pt_BR`, `zh-Hant-TW` is `zh_TW`); a tag without one takes its language's usual
/// territory ([`USUAL_TERRITORIES`]).
pub fn og_locale(tag: &str) -> String {
    let mut subtags = tag.split(['-', '_']);
    let language = subtags.next().unwrap_or_default().to_ascii_lowercase();
    let region = subtags
        .find(|s| s.len() == 2 && s.bytes().all(|b| b.is_ascii_alphabetic()))
        .map(str::to_ascii_uppercase);
    let territory = region.unwrap_or_else(|| {
        USUAL_TERRITORIES
            .iter()
            .find(|(l, _)| *l == language)
            .map_or_else(|| language.to_ascii_uppercase(), |(_, t)| (*t).to_owned())
    });
    format!("{language}_{territory}")
}

/// What a page's link preview says, each value escaped for HTML already: the Open Graph and
/// Twitter tags every page shows (the home page's and each case study's).
pub struct Preview<'a> {
    /// `og:type`: `profile`, `article`.
    pub kind: &'a str,
    pub site_name: &'a str,
    pub title: &'a str,
    pub description: &'a str,
    pub url: &'a str,
    pub image: &'a str,
    pub image_alt: &'a str,
    pub locale: &'a str,
}

/// The Open Graph tags of `preview`, its locale last.
pub fn open_graph_tags(preview: &Preview<'_>) -> [String; 11] {
    let Preview {
        kind,
        site_name,
        title,
        description,
        url,
        image,
        image_alt,
        locale,
    } = preview;
    [
        format!("<meta property=\"og:type\" content=\"{kind}\" />"),
        format!("<meta property=\"og:site_name\" content=\"{site_name}\" />"),
        format!("<meta property=\"og:title\" content=\"{title}\" />"),
        format!("<meta property=\"og:description\" content=\"{description}\" />"),
        format!("<meta property=\"og:url\" content=\"{url}\" />"),
        format!("<meta property=\"og:image\" content=\"{image}\" />"),
        "<meta property=\"og:image:type\" content=\"image/png\" />".to_owned(),
        format!("<meta property=\"og:image:width\" content=\"{PREVIEW_WIDTH}\" />"),
        format!("<meta property=\"og:image:height\" content=\"{PREVIEW_HEIGHT}\" />"),
        format!("<meta property=\"og:image:alt\" content=\"{image_alt}\" />"),
        format!("<meta property=\"og:locale\" content=\"{locale}\" />"),
    ]
}

/// The page's other languages (of `alternates`, by tag and path, but `tag`), for link previews
/// that pick one.
pub fn og_locale_alternates(tag: &str, alternates: &[(String, String)]) -> Vec<String> {
    alternates
        .iter()
        .filter(|(other, _)| !other.eq_ignore_ascii_case(tag))
        .map(|(other, _)| {
            format!(
                "<meta property=\"og:locale:alternate\" content=\"{}\" />",
                escape_html(&og_locale(other))
            )
        })
        .collect()
}

/// `<link rel="alternate">` to the page in `tag`, at `path` under `base`.
pub fn alternate_link(base: &str, tag: &str, path: &str) -> String {
    format!(
        "<link rel=\"alternate\" hreflang=\"{}\" href=\"{base}{}\" />",
        escape_html(tag),
        escape_html(path)
    )
}

/// The Twitter card of `preview`, then the site's icons and manifest: the head's last tags.
pub fn twitter_and_icon_tags(preview: &Preview<'_>) -> [String; 9] {
    let Preview {
        title,
        description,
        image,
        image_alt,
        ..
    } = preview;
    [
        "<meta name=\"twitter:card\" content=\"summary_large_image\" />".to_owned(),
        format!("<meta name=\"twitter:title\" content=\"{title}\" />"),
        format!("<meta name=\"twitter:description\" content=\"{description}\" />"),
        format!("<meta name=\"twitter:image\" content=\"{image}\" />"),
        format!("<meta name=\"twitter:image:alt\" content=\"{image_alt}\" />"),
        "<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\" />".to_owned(),
        "<link rel=\"icon\" href=\"/icon-32.png\" sizes=\"32x32\" type=\"image/png\" />".to_owned(),
        "<link rel=\"apple-touch-icon\" href=\"/apple-touch-icon.png\" />".to_owned(),
        "<link rel=\"manifest\" href=\"/manifest.webmanifest\" />".to_owned(),
    ]
}

/// The tags of the head, one per line, indented as the page's template indents its head.
/// `base` is the public URL without a trailing slash; `document` is the page's own (localized).
pub fn head_tags(document: &ContentDocument, base: &str, language: &PageLanguage) -> String {
    let profile = &document.profile;
    let t = escape_html(&title(document));
    let description = escape_html(&profile.summary);
    let image = format!("{base}{}", escape_html(&language.preview));
    let url = format!("{base}{}", escape_html(&language.path));
    let image_alt = escape_html(&format!("{}, {}", profile.name, profile.role));
    let name = escape_html(&profile.name);
    let mut words = profile.name.split(' ');
    let first_name = escape_html(words.next().unwrap_or_default());
    let last_name = escape_html(&words.collect::<Vec<_>>().join(" "));
    let mut alternates: Vec<String> = language
        .alternates
        .iter()
        .map(|(tag, path)| alternate_link(base, tag, path))
        .collect();
    if !alternates.is_empty() {
        alternates.push(alternate_link(base, "x-default", "/"));
    }
    let locale = escape_html(&language.og_locale());
    let preview = Preview {
        kind: "profile",
        site_name: &name,
        title: &t,
        description: &description,
        url: &url,
        image: &image,
        image_alt: &image_alt,
        locale: &locale,
    };
    [
        format!("<title>{t}</title>"),
        format!("<meta name=\"description\" content=\"{description}\" />"),
        format!("<meta name=\"author\" content=\"{name}\" />"),
        // The page's URL, which is also its owner's h-card's (`u-url`: the page's template
        // makes `<html>` the h-card, see `web/scripts/prerender.mjs`).
        format!("<link rel=\"canonical\" href=\"{url}\" class=\"u-url\" />"),
    ]
    .into_iter()
    .chain(alternates)
    .chain(open_graph_tags(&preview))
    .chain(og_locale_alternates(&language.tag, &language.alternates))
    .chain([
        format!("<meta property=\"profile:first_name\" content=\"{first_name}\" />"),
        format!("<meta property=\"profile:last_name\" content=\"{last_name}\" />"),
    ])
    .chain(twitter_and_icon_tags(&preview))
    .collect::<Vec<_>>()
    .join("\n    ")
}

/// A schema.org `ProfilePage` (a `WebPage`, so it has a language and a date of its own) whose
/// `mainEntity` is the owner, as Google's profile-page structured data asks.
#[derive(Serialize)]
struct ProfilePage<'a> {
    #[serde(rename = "@context")]
    context: &'static str,
    #[serde(rename = "@type")]
    kind: &'static str,
    url: String,
    #[serde(rename = "inLanguage")]
    in_language: &'a str,
    #[serde(rename = "dateModified", skip_serializing_if = "Option::is_none")]
    date_modified: Option<String>,
    #[serde(rename = "mainEntity")]
    main_entity: Person<'a>,
}

/// A schema.org `Person`, its fields in the order search engines' examples give them; only
/// properties schema.org gives a `Person` (its language belongs to the page).
#[derive(Serialize)]
struct Person<'a> {
    #[serde(rename = "@type")]
    kind: &'static str,
    name: &'a str,
    #[serde(rename = "jobTitle")]
    job_title: &'a str,
    description: &'a str,
    url: String,
    email: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    image: Option<String>,
    #[serde(rename = "sameAs")]
    same_as: Vec<&'a str>,
}

/// The JSON-LD of the page and its owner: data for search engines, never executed, so the CSP
/// allows it. `photo` is the site path of the owner's photo, if the document has one; `modified`
/// when the page was published (Unix ms), if it was.
pub fn json_ld(
    document: &ContentDocument,
    base: &str,
    photo: Option<&str>,
    language: &PageLanguage,
    modified: Option<i64>,
) -> String {
    let profile = &document.profile;
    let page = ProfilePage {
        context: "https://schema.org",
        kind: "ProfilePage",
        url: format!("{base}{}", language.path),
        in_language: &language.tag,
        date_modified: modified
            .and_then(chrono::DateTime::from_timestamp_millis)
            .map(|at| at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        main_entity: Person {
            kind: "Person",
            name: &profile.name,
            job_title: &profile.role,
            description: &profile.summary,
            url: format!("{base}/"),
            email: format!("mailto:{}", document.contact.email),
            image: photo.map(|path| format!("{base}{path}")),
            same_as: document
                .social
                .iter()
                .map(|link| link.url.as_str())
                .collect(),
        },
    };
    // `<` escaped so that no value can close the script element.
    serde_json::to_string(&page)
        .expect("a page serialises")
        .replace('<', "\\u003c")
}

/// The `<script type="application/ld+json">` element, placed at the end of the body.
pub fn json_ld_tag(
    document: &ContentDocument,
    base: &str,
    photo: Option<&str>,
    language: &PageLanguage,
    modified: Option<i64>,
) -> String {
    format!(
        "<script type=\"application/ld+json\">{}</script>",
        json_ld(document, base, photo, language, modified)
    )
}

#[derive(Serialize)]
struct Manifest<'a> {
    name: String,
    short_name: &'a str,
    description: &'a str,
    start_url: &'static str,
    scope: &'static str,
    display: &'static str,
    background_color: &'static str,
    theme_color: &'static str,
    icons: [Icon; 4],
}

#[derive(Serialize)]
struct Icon {
    src: &'static str,
    sizes: &'static str,
    #[serde(rename = "type")]
    kind: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    purpose: Option<&'static str>,
}

/// The web app manifest (`/manifest.webmanifest`), pretty-printed with a final newline.
pub fn manifest(document: &ContentDocument) -> String {
    let icon = |src, sizes, kind| Icon {
        src,
        sizes,
        kind,
        purpose: None,
    };
    let manifest = Manifest {
        name: title(document),
        short_name: &document.profile.name,
        description: &document.profile.summary,
        start_url: "/",
        scope: "/",
        display: "browser",
        background_color: "#030712",
        theme_color: "#030712",
        icons: [
            icon("/favicon.svg", "any", "image/svg+xml"),
            icon("/icon-192.png", "192x192", "image/png"),
            icon("/icon-512.png", "512x512", "image/png"),
            Icon {
                purpose: Some("maskable"),
                ..icon("/icon-maskable-512.png", "512x512", "image/png")
            },
        ],
    };
    let mut text = serde_json::to_string_pretty(&manifest).expect("a manifest serialises");
    text.push('\n');
    text
}

#[cfg(test)]
mod og_locale_tests {
    use super::og_locale;

    #[test]
    fn a_tag_becomes_language_and_territory() {
        for (tag, locale) in [
            ("en", "en_US"),
            ("de", "de_DE"),
            ("ar", "ar_AR"),
            ("he", "he_IL"),
            ("pt-BR", "pt_BR"),
            ("pt", "pt_PT"),
            ("en-GB", "en_GB"),
            ("zh-Hant-TW", "zh_TW"),
            ("ZH", "zh_CN"),
            ("eo", "eo_EO"),
        ] {
            assert_eq!(og_locale(tag), locale, "{tag}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::document::default_document;

    const BASE: &str = "https://example.com";

    #[test]
    fn the_head_names_the_owner_and_escapes_what_they_wrote() {
        let mut document = default_document().clone();
        document.profile.name = "Ada \"Countess\" <Lovelace>".to_owned();
        document.profile.role = "Analyst & Poet".to_owned();
        let head = head_tags(&document, BASE, &PageLanguage::plain());
        assert!(head.starts_with(
            "<title>Ada &quot;Countess&quot; &lt;Lovelace&gt; · Analyst &amp; Poet</title>\n    "
        ));
        assert!(head
            .contains("<link rel=\"canonical\" href=\"https://example.com/\" class=\"u-url\" />"));
        assert!(head.contains(
            "<meta property=\"og:image\" content=\"https://example.com/og-image.png\" />"
        ));
        assert!(head.contains("<meta property=\"profile:first_name\" content=\"Ada\" />"));
        assert!(head.contains(
            "<meta property=\"profile:last_name\" content=\"&quot;Countess&quot; &lt;Lovelace&gt;\" />"
        ));
        assert!(!head.contains("<Lovelace>"));
    }

    #[test]
    fn the_json_ld_cannot_close_its_script_element() {
        let mut document = default_document().clone();
        document.profile.summary = "</script><script>alert(1)</script>".to_owned();
        let modified = Some(1_764_842_400_000);
        let tag = json_ld_tag(
            &document,
            BASE,
            Some("/assets/me.webp"),
            &PageLanguage::plain(),
            modified,
        );
        assert_eq!(tag.matches("</script>").count(), 1, "{tag}");
        let json = tag
            .strip_prefix("<script type=\"application/ld+json\">")
            .and_then(|rest| rest.strip_suffix("</script>"))
            .expect("one element");
        let page: serde_json::Value = serde_json::from_str(json).expect("JSON");
        assert!(json.starts_with("{\"@context\":\"https://schema.org\",\"@type\":\"ProfilePage\""));
        assert_eq!(page["url"], "https://example.com/");
        assert_eq!(page["inLanguage"], "en");
        assert_eq!(page["dateModified"], "2025-12-04T10:00:00Z");
        let value = &page["mainEntity"];
        assert_eq!(value["@type"], "Person");
        assert_eq!(value["description"], document.profile.summary.as_str());
        assert_eq!(value["image"], "https://example.com/assets/me.webp");
        assert_eq!(value["email"], format!("mailto:{}", document.contact.email));
        assert_eq!(
            value["sameAs"].as_array().map(Vec::len),
            Some(document.social.len())
        );
        assert!(
            value.get("inLanguage").is_none(),
            "a Person has no language"
        );
    }

    #[test]
    fn without_a_photo_the_person_has_no_image() {
        let json = json_ld(default_document(), BASE, None, &PageLanguage::plain(), None);
        assert!(!json.contains("\"image\""));
        assert!(!json.contains("\"dateModified\""), "a page never published");
    }

    #[test]
    fn the_manifest_is_named_after_the_owner() {
        let text = manifest(default_document());
        let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
        assert_eq!(value["name"], title(default_document()).as_str());
        assert_eq!(
            value["short_name"],
            default_document().profile.name.as_str()
        );
        assert_eq!(value["icons"][3]["purpose"], "maskable");
        assert!(value["icons"][0].get("purpose").is_none());
        assert!(text.ends_with("}\n"));
    }

    #[test]
    fn a_languages_head_has_its_canonical_alternates_locale_and_preview() {
        let language = PageLanguage {
            tag: "pt-BR".to_owned(),
            path: "/pt-br/".to_owned(),
            preview: "/pt-br/og-image.png".to_owned(),
            alternates: vec![
                ("en".to_owned(), "/".to_owned()),
                ("pt-BR".to_owned(), "/pt-br/".to_owned()),
            ],
        };
        let head = head_tags(default_document(), BASE, &language);
        assert!(head.contains("<link rel=\"canonical\" href=\"https://example.com/pt-br/\" class=\"u-url\" />\n    <link rel=\"alternate\" hreflang=\"en\" href=\"https://example.com/\" />\n    <link rel=\"alternate\" hreflang=\"pt-BR\" href=\"https://example.com/pt-br/\" />\n    <link rel=\"alternate\" hreflang=\"x-default\" href=\"https://example.com/\" />"), "{head}");
        assert!(
            head.contains("<meta property=\"og:url\" content=\"https://example.com/pt-br/\" />")
        );
        assert!(head.contains("<meta property=\"og:locale\" content=\"pt_BR\" />"));
        assert!(head.contains(
            "<meta property=\"og:image\" content=\"https://example.com/pt-br/og-image.png\" />"
        ));
        let plain = head_tags(default_document(), BASE, &PageLanguage::plain());
        assert!(!plain.contains("hreflang"));
        assert!(plain.contains("<meta property=\"og:locale\" content=\"en_US\" />"));
        let json = json_ld(default_document(), BASE, None, &language, None);
        assert!(
            json.contains("\"url\":\"https://example.com/pt-br/\",\"inLanguage\":\"pt-BR\""),
            "{json}"
        );
    }
}
