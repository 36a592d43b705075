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
