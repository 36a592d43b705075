//! The site's pages as `content::render` composes them, and its small parts.

use super::pages::{base_url, Pages};
use crate::content::appearance::Scheme;
use crate::content::composed::PUBLIC_URL_PLACEHOLDER;
use crate::content::render::{self, PageRenderer};

fn no_studies() -> crate::content::case_study_entry::CaseStudies {
    crate::content::case_study_entry::CaseStudies::new()
}

#[test]
fn the_base_url_has_no_trailing_slash_query_or_fragment() {
    let base = |s: &str| base_url(&s.parse().unwrap());
    assert_eq!(base("https://example.com"), "https://example.com");
    assert_eq!(base("https://example.com/"), "https://example.com");
    assert_eq!(
        base("http://127.0.0.1:8080/?a=1&b=2#x"),
        "http://127.0.0.1:8080"
    );
    assert_eq!(base("https://example.com/me/"), "https://example.com/me");
}

#[tokio::test]
async fn the_servers_pages_for_the_default_document_equal_the_builds() {
    let url = url::Url::parse(PUBLIC_URL_PLACEHOLDER).unwrap();
    let pages = std::sync::Arc::new(Pages::render(&url, crate::config::Effort::Quick));
    let renderer = PageRenderer::start(pages, None).unwrap();
    let composed = renderer
        .compose(
            crate::content::document::default_document(),
            (
                &crate::content::live::default_case_studies(),
                &Default::default(),
            ),
            None,
        )
        .await
        .unwrap();
    let built = |name| String::from_utf8(super::built::file(name).unwrap().to_vec()).unwrap();
    assert!(
        composed.pages[0].1.html == built("index.html"),
        "/ differs from the build's"
    );
    // In English alone it draws no language switch, and goes without its rules.
    assert!(!composed.pages[0].1.html.contains(".lang-button"));
    assert!(
        composed.pages[0].1.data == built("page-data.json"),
        "/page-data.json differs from the build's"
    );
    assert!(
        composed.pages[0].1.shell == built("app.html"),
        "app.html differs from the build's"
    );
}

#[tokio::test]
async fn a_documents_appearance_is_on_its_page_and_not_on_the_shell() {
    let url = url::Url::parse(PUBLIC_URL_PLACEHOLDER).unwrap();
    let pages = std::sync::Arc::new(Pages::render(&url, crate::config::Effort::Quick));
    let renderer = PageRenderer::start(pages, None).unwrap();
    let default = crate::content::document::default_document();
    let mut document = default.clone();
    document.appearance.scheme = Scheme::Light;
    document.appearance.accent = "#0f766e".into();
    let composed = renderer
        .compose(&document, (&no_studies(), &Default::default()), None)
        .await
        .unwrap();
    let index = &composed.pages[0].1.html;
    assert!(index.contains("<html lang=\"en\" data-scheme=\"light\" class=\"h-card\">"));
    // The page names its data, which is served beside it, rather than carrying it.
    assert!(index.contains(
        "<script type=\"application/json\" id=\"page-data\" data-src=\"/page-data.json\"></script>"
    ));
    let data: serde_json::Value = serde_json::from_str(&composed.pages[0].1.data).unwrap();
    assert_eq!(data["document"]["appearance"]["accent"], "#0f766e");
    assert!(data["locale"].is_null());
    assert!(index.contains("<meta name=\"color-scheme\" content=\"light\" />"));
    assert!(index.contains(render::LIGHT_THEME_COLOR));
    assert!(!index.contains("content=\"dark\""));
    let css = crate::content::appearance::accent_style(&document.appearance).unwrap();
    assert!(index.contains(&format!("\n    <style>{css}</style>\n  </head>")));
    assert_eq!(
        super::csp::inline_hashes(index.as_bytes()).styles.len(),
        2,
        "the build's stylesheet and the accent's"
    );
    let built = |name| String::from_utf8(super::built::file(name).unwrap().to_vec()).unwrap();
    let default_shell = renderer
        .compose(
            default,
            (
                &crate::content::live::default_case_studies(),
                &Default::default(),
            ),
            None,
        )
        .await
        .unwrap()
        .pages
        .remove(0)
        .1
        .shell;
    let without_data = |page: &str| {
        regex::Regex::new(r#"<script type="application/json" id="page-data">[^<]*</script>"#)
            .unwrap()
            .replace(page, "")
            .into_owned()
    };
    assert_eq!(
        without_data(&composed.pages[0].1.shell),
        without_data(&default_shell),
        "the shell keeps the build's look"
    );
    assert!(default_shell == built("app.html"));
    // The error page of unknown addresses is drawn in the visitor's scheme, else the owner's,
    // with the accent: the shell with the scheme script and the document's appearance.
    let missing = &composed.pages[0].1.missing;
    assert!(missing.contains("<html lang=\"en\" data-scheme=\"light\">"));
    assert!(missing.contains("<meta name=\"color-scheme\" content=\"light\" />"));
    assert!(missing.contains(&format!("<style>{css}</style>")));
    assert!(missing.contains("localStorage.getItem(\"portfolio:scheme\")"));
    assert!(!composed.pages[0].1.shell.contains("portfolio:scheme"));
    assert_eq!(
        super::csp::inline_hashes(missing.as_bytes()).scripts.len(),
        1,
        "the scheme script, allowed by its hash"
    );
}

#[tokio::test]
async fn each_published_language_is_composed_with_its_root_head_and_data() {
    use crate::content::language::with_language;
    let url = url::Url::parse(PUBLIC_URL_PLACEHOLDER).unwrap();
    let pages = std::sync::Arc::new(Pages::render(&url, crate::config::Effort::Quick));
    let renderer = PageRenderer::start(pages, None).unwrap();
    let mut document = with_language("ar", true);
    document
        .languages
        .extend(with_language("de", false).languages);
    document.appearance.scheme = Scheme::Light;
    let composed = renderer
        .compose(&document, (&no_studies(), &Default::default()), None)
        .await
        .unwrap();
    let paths: Vec<&str> = composed.pages.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["/", "/ar/"], "only the published languages");
    assert_eq!(
        composed.published,
        [
            ("en".to_owned(), "/".to_owned()),
            ("ar".to_owned(), "/ar/".to_owned())
        ]
    );
    let arabic = &composed.pages[1].1.html;
    // The language and the scheme compose on the root element, which stays the owner's h-card.
    assert!(
        arabic.contains("<html lang=\"ar\" dir=\"rtl\" data-scheme=\"light\" class=\"h-card\">")
    );
    assert!(composed.pages[0]
        .1
        .html
        .contains("<html lang=\"en\" dir=\"ltr\" data-scheme=\"light\" class=\"h-card\">"));
    assert!(arabic.contains("id=\"page-data\" data-src=\"/ar/page-data.json\""));
    let data = &composed.pages[1].1.data;
    assert!(
        data.contains(r#""locale":{"tag":"ar","dir":"rtl""#),
        "{data}"
    );
    assert!(!data.contains("\"de 0\""), "no other language's texts");
    assert!(data.contains("\"ar 0\""));
    assert!(!composed.pages[0].1.data.contains("\"ar 0\""));
    // The shell keeps the build's root, no h-card, and carries the default language's data.
    assert!(composed.pages[0].1.shell.contains("<html lang=\"en\">"));
    assert!(composed.pages[0]
        .1
        .shell
        .contains(r#""locale":{"tag":"en""#));
    assert!(!composed.pages[0].1.shell.contains("\"ar 0\""));
    // A language's unknown addresses answer its error page, in its language and the scheme.
    let missing = &composed.pages[1].1.missing;
    assert!(missing.contains("<html lang=\"ar\" dir=\"rtl\" data-scheme=\"light\">"));
    assert!(missing.contains("data-src=\"/ar/page-data.json\""));
    assert!(missing.contains("portfolio:scheme"));
    // Both pages draw the language switch, and Arabic runs right to left: each carries the
    // build's rules for them as a second inline sheet, hashed into its own policy.
    let rules = format!(
        "<style>{}</style>",
        crate::content::engine::build_file("languages.css").unwrap()
    );
    assert!(rules.contains(".lang-button{") && rules.contains("[dir=rtl]"));
    for page in [&composed.pages[0].1.html, arabic] {
        assert_eq!(page.matches(&rules).count(), 1);
        assert_eq!(super::csp::inline_hashes(page.as_bytes()).styles.len(), 2);
    }
    assert!(
        !missing.contains(&rules),
        "the error page links the whole stylesheet"
    );
}
