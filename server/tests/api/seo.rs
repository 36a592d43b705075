//! Link previews and search engines: the public URL rendered at serve time, robots.txt,
//! sitemap.xml, noindex on private routes, and what the build put into index.html.

use std::io::Read;

use crate::helpers::{spawn_app, spawn_app_with};

const PUBLIC: &str = "https://portfolio.example.com";

#[tokio::test]
async fn robots_txt_and_the_sitemap_follow_the_public_url() {
    let app = spawn_app_with(|s| s.public_url = Some(PUBLIC.parse().unwrap())).await;

    let robots = app.get("/robots.txt").await;
    assert_eq!(robots.status(), 200);
    assert!(robots.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    let robots = robots.text().await.unwrap();
    assert!(robots.contains("User-agent: *"), "{robots}");
    assert!(
        robots.contains(&format!("Sitemap: {PUBLIC}/sitemap.xml")),
        "{robots}"
    );

    let sitemap = app.get("/sitemap.xml").await;
    assert_eq!(sitemap.status(), 200);
    assert!(sitemap.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("xml"));
    let sitemap = sitemap.text().await.unwrap();
    assert!(sitemap.contains("<urlset"), "{sitemap}");
    assert!(
        sitemap.contains(&format!("<loc>{PUBLIC}/</loc>")),
        "{sitemap}"
    );
    assert!(!sitemap.contains("/login") && !sitemap.contains("/dashboard"));
}

#[tokio::test]
async fn without_a_public_url_they_follow_the_listen_address() {
    let app = spawn_app().await;
    let robots = app.get("/robots.txt").await.text().await.unwrap();
    assert!(
        robots.contains(&format!("Sitemap: {}/sitemap.xml", app.address)),
        "{robots}"
    );
    let html = app.get("/").await.text().await.unwrap();
    assert!(html.contains(&format!(
        "<link rel=\"canonical\" href=\"{}/\"",
        app.address
    )));
}

#[tokio::test]
async fn the_page_links_and_previews_follow_the_public_url_without_a_rebuild() {
    let app = spawn_app_with(|s| s.public_url = Some(format!("{PUBLIC}/").parse().unwrap())).await;
    let html = app.get("/").await.text().await.unwrap();
    assert!(
        html.contains(&format!("<link rel=\"canonical\" href=\"{PUBLIC}/\"")),
        "canonical link"
    );
    assert!(html.contains(&format!("<meta property=\"og:url\" content=\"{PUBLIC}/\"")));
    assert!(html.contains(&format!(
        "<meta property=\"og:image\" content=\"{PUBLIC}/og-image.png\""
    )));
    assert!(html.contains(&format!(
        "<meta name=\"twitter:image\" content=\"{PUBLIC}/og-image.png\""
    )));
    assert!(
        !html.contains("portfolio.invalid"),
        "no placeholder is left"
    );
}

#[tokio::test]
async fn the_rendered_page_is_precompressed_and_revalidated_by_etag() {
    let app = spawn_app_with(|s| s.public_url = Some(PUBLIC.parse().unwrap())).await;
    let original = app.get("/").await.bytes().await.unwrap();

    let response = app.get_with("/", &[("accept-encoding", "br")]).await;
    assert_eq!(response.headers()["content-encoding"], "br");
    let etag = response.headers()["etag"].to_str().unwrap().to_owned();
    let compressed = response.bytes().await.unwrap();
    assert!(compressed.len() < original.len());
    let mut decompressed = Vec::new();
    brotli::Decompressor::new(&compressed[..], 4096)
        .read_to_end(&mut decompressed)
        .unwrap();
    assert_eq!(decompressed, original);

    let response = app.get_with("/", &[("accept-encoding", "gzip")]).await;
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let mut decompressed = Vec::new();
    flate2::read::GzDecoder::new(&response.bytes().await.unwrap()[..])
        .read_to_end(&mut decompressed)
        .unwrap();
    assert_eq!(decompressed, original);

    let response = app.get_with("/", &[("if-none-match", &etag)]).await;
    assert_eq!(response.status(), 304);
}

#[tokio::test]
async fn the_owners_private_pages_are_marked_noindex_and_the_home_page_is_not() {
    let app = spawn_app().await;
    for path in ["/login", "/dashboard"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["x-robots-tag"], "noindex", "{path}");
        let html = response.text().await.unwrap();
        assert!(
            html.contains("<meta name=\"robots\" content=\"noindex\""),
            "{path}"
        );
    }
    let home = app.get("/").await;
    assert!(home.headers().get("x-robots-tag").is_none());
    assert!(!home.text().await.unwrap().contains("noindex"));
}

/// The `content` of `<meta {attr}="{name}" content="…">` in `html`.
fn meta<'a>(html: &'a str, attr: &str, name: &str) -> Option<&'a str> {
    let needle = format!("<meta {attr}=\"{name}\" content=\"");
    let start = html.find(&needle)? + needle.len();
    Some(&html[start..start + html[start..].find('"')?])
}

#[tokio::test]
async fn the_built_page_carries_title_description_previews_and_a_json_ld_person() {
    let app = spawn_app_with(|s| s.public_url = Some(PUBLIC.parse().unwrap())).await;
    let html = app.get("/").await.text().await.unwrap();

    let title_start = html.find("<title>").expect("a title") + "<title>".len();
    let title = &html[title_start..title_start + html[title_start..].find("</title>").unwrap()];
    assert!(title.len() > 10, "a real title: {title}");
    let description = meta(&html, "name", "description").expect("a meta description");
    assert!(description.len() > 50, "{description}");
    for (attr, name) in [
        ("property", "og:title"),
        ("property", "og:description"),
        ("property", "og:type"),
        ("property", "og:image:alt"),
        ("name", "twitter:title"),
        ("name", "twitter:description"),
    ] {
        assert!(
            meta(&html, attr, name).is_some_and(|v| !v.is_empty()),
            "{name}"
        );
    }
    assert_eq!(meta(&html, "property", "og:image:width"), Some("1200"));
    assert_eq!(meta(&html, "property", "og:image:height"), Some("630"));
    assert_eq!(
        meta(&html, "name", "twitter:card"),
        Some("summary_large_image")
    );

    let start = html
        .find("<script type=\"application/ld+json\">")
        .expect("a JSON-LD block")
        + "<script type=\"application/ld+json\">".len();
    let json = &html[start..start + html[start..].find("</script>").unwrap()];
    let page: serde_json::Value = serde_json::from_str(json).expect("valid JSON-LD");
    assert_eq!(page["@context"], "https://schema.org");
    assert_eq!(page["@type"], "ProfilePage");
    assert_eq!(page["url"], format!("{PUBLIC}/"));
    assert_eq!(page["inLanguage"], "en");
    let person = &page["mainEntity"];
    assert_eq!(person["@type"], "Person");
    assert!(
        person.get("inLanguage").is_none(),
        "a Person has no language"
    );
    assert_eq!(person["url"], format!("{PUBLIC}/"));
    let name = person["name"].as_str().expect("a name");
    assert!(title.contains(name), "the title names {name}: {title}");
    assert!(person["jobTitle"].as_str().is_some_and(|t| !t.is_empty()));
    assert!(person["email"]
        .as_str()
        .is_some_and(|e| e.starts_with("mailto:")));
    let same_as = person["sameAs"].as_array().expect("sameAs links");
    assert!(same_as.len() >= 2, "{same_as:?}");
    assert!(same_as
        .iter()
        .all(|l| l.as_str().unwrap().starts_with("https://")));
}

#[tokio::test]
async fn the_preview_image_is_a_1200_by_630_png() {
    let app = spawn_app().await;
    let response = app.get("/og-image.png").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "image/png");
    let png = response.bytes().await.unwrap();
    assert_eq!(&png[1..4], b"PNG");
    let width = u32::from_be_bytes(png[16..20].try_into().unwrap());
    let height = u32::from_be_bytes(png[20..24].try_into().unwrap());
    assert_eq!((width, height), (1200, 630));
}

#[tokio::test]
async fn the_favicon_set_and_the_manifest_are_served() {
    let app = spawn_app().await;
    let html = app.get("/").await.text().await.unwrap();
    for (path, size) in [
        ("/icon-32.png", 32),
        ("/icon-192.png", 192),
        ("/icon-512.png", 512),
        ("/icon-maskable-512.png", 512),
        ("/apple-touch-icon.png", 180),
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        let png = response.bytes().await.unwrap();
        assert_eq!(
            u32::from_be_bytes(png[16..20].try_into().unwrap()),
            size,
            "{path}"
        );
    }
    assert!(html.contains("<link rel=\"icon\" href=\"/favicon.svg\""));
    assert!(html.contains("<link rel=\"apple-touch-icon\" href=\"/apple-touch-icon.png\""));
    assert!(html.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\""));
    let manifest = app.get("/manifest.webmanifest").await;
    assert_eq!(manifest.status(), 200);
    let manifest: serde_json::Value = manifest.json().await.unwrap();
    assert_eq!(manifest["start_url"], "/");
    assert!(manifest["name"].as_str().is_some_and(|n| !n.is_empty()));
    let icons = manifest["icons"].as_array().unwrap();
    for size in ["192x192", "512x512"] {
        assert!(icons.iter().any(|i| i["sizes"] == size), "{size}");
    }
}

#[tokio::test]
async fn the_home_page_html_holds_the_page_itself_not_an_empty_root() {
    let app = spawn_app().await;
    let html = app.get("/").await.text().await.unwrap();
    let root = html.find("<div id=\"root\">").expect("the root") + "<div id=\"root\">".len();
    let rendered = &html[root..];
    assert!(!rendered.starts_with("</div>"), "the root is pre-rendered");
    for text in ["<main", "id=\"home\"", "<h1"] {
        assert!(rendered.contains(text), "{text} in the pre-rendered page");
    }
}

#[tokio::test]
async fn security_txt_names_the_published_email_and_never_lapses_and_a_setting_turns_it_off() {
    let app = spawn_app_with(|s| s.public_url = Some(PUBLIC.parse().unwrap())).await;
    let published: serde_json::Value = app.get("/api/content").await.json().await.unwrap();
    let email = published["document"]["contact"]["email"].as_str().unwrap();

    let answer = app.get("/.well-known/security.txt").await;
    assert_eq!(answer.status(), 200);
    assert!(answer.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/plain"));
    assert!(answer.headers().contains_key("content-security-policy"));
    let text = answer.text().await.unwrap();
    assert!(
        text.contains(&format!("Contact: mailto:{email}\n")),
        "{text}"
    );
    assert!(
        text.contains(&format!("Canonical: {PUBLIC}/.well-known/security.txt\n")),
        "{text}"
    );
    let expires = text
        .lines()
        .find_map(|line| line.strip_prefix("Expires: "))
        .expect("an Expires field");
    let expires = chrono::DateTime::parse_from_rfc3339(expires).expect("RFC 3339");
    let ahead = expires.with_timezone(&chrono::Utc) - portfolio::clock::now();
    assert!(
        ahead > chrono::Duration::days(29) && ahead <= chrono::Duration::days(30),
        "{ahead:?}"
    );
    app.shutdown().await;

    let off = spawn_app_with(|s| s.security_txt = false).await;
    assert_eq!(off.get("/.well-known/security.txt").await.status(), 404);
    off.shutdown().await;
}

#[tokio::test]
async fn the_health_checks_are_never_cached_and_the_apis_description_is_compressed_and_revalidated()
{
    let app = spawn_app().await;
    for path in ["/healthz", "/readyz"] {
        let answer = app.get(path).await;
        assert_eq!(answer.status(), 200, "{path}");
        assert_eq!(answer.headers()["cache-control"], "no-store", "{path}");
    }

    let plain = app.get("/api/openapi.json").await;
    assert_eq!(plain.status(), 200);
    assert_eq!(plain.headers()["cache-control"], "public, max-age=300");
    assert_eq!(plain.headers()["content-type"], "application/json");
    let etag = plain.headers()["etag"].to_str().unwrap().to_owned();
    let json = plain.bytes().await.unwrap();
    let described: serde_json::Value = serde_json::from_slice(&json).unwrap();
    assert!(described["paths"].as_object().unwrap().len() > 20);

    let compressed = app
        .get_with("/api/openapi.json", &[("Accept-Encoding", "br, gzip")])
        .await;
    assert_eq!(compressed.headers()["content-encoding"], "br");
    assert_eq!(compressed.headers()["vary"], "Accept-Encoding");
    let brotli = compressed.bytes().await.unwrap();
    assert!(
        brotli.len() * 5 < json.len(),
        "{} bytes of Brotli for {} of JSON",
        brotli.len(),
        json.len()
    );
    let mut unpacked = Vec::new();
    brotli::Decompressor::new(&brotli[..], 4096)
        .read_to_end(&mut unpacked)
        .unwrap();
    assert_eq!(unpacked, json);

    let again = app
        .get_with("/api/openapi.json", &[("If-None-Match", &etag)])
        .await;
    assert_eq!(again.status(), 304);
    app.shutdown().await;
}
