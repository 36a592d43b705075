//! The embedded site: caching, precompression, the client routes and the 404s.

use std::io::Read;

use crate::helpers::spawn_app;
use crate::security::assert_security_headers;

/// The hashed script that `index.html` loads.
async fn entry_script(app: &crate::helpers::TestApp) -> String {
    let html = app.get("/").await.text().await.unwrap();
    let start = html
        .find("/assets/")
        .expect("index.html references a hashed asset");
    let end = start + html[start..].find('"').unwrap();
    let path = &html[start..end];
    assert!(
        path.ends_with(".js"),
        "first asset is the entry script: {path}"
    );
    path.to_owned()
}

#[tokio::test]
async fn index_html_is_served_at_the_root_and_revalidated() {
    let app = spawn_app().await;
    let response = app.get("/").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-cache");
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    assert!(response.text().await.unwrap().contains("<div id=\"root\""));
}

#[tokio::test]
async fn hashed_assets_are_cached_forever() {
    let app = spawn_app().await;
    let script = entry_script(&app).await;
    let response = app.get(&script).await;
    assert_eq!(response.status(), 200);
    assert_eq!(
        response.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .contains("javascript"));
}

#[tokio::test]
async fn brotli_is_served_precompressed_and_decompresses_to_the_original() {
    let app = spawn_app().await;
    let script = entry_script(&app).await;
    let original = app.get(&script).await.bytes().await.unwrap();

    let response = app
        .get_with(&script, &[("accept-encoding", "gzip, deflate, br")])
        .await;
    assert_eq!(response.headers()["content-encoding"], "br");
    assert_eq!(response.headers()["vary"], "Accept-Encoding");
    let compressed = response.bytes().await.unwrap();
    assert!(compressed.len() < original.len());
    let mut decompressed = Vec::new();
    brotli::Decompressor::new(&compressed[..], 4096)
        .read_to_end(&mut decompressed)
        .unwrap();
    assert_eq!(decompressed, original);
}

#[tokio::test]
async fn gzip_is_served_when_brotli_is_not_accepted() {
    let app = spawn_app().await;
    let script = entry_script(&app).await;
    let original = app.get(&script).await.bytes().await.unwrap();

    let response = app.get_with(&script, &[("accept-encoding", "gzip")]).await;
    assert_eq!(response.headers()["content-encoding"], "gzip");
    let compressed = response.bytes().await.unwrap();
    let mut decompressed = Vec::new();
    flate2::read::GzDecoder::new(&compressed[..])
        .read_to_end(&mut decompressed)
        .unwrap();
    assert_eq!(decompressed, original);
}

#[tokio::test]
async fn without_accept_encoding_the_body_is_identity() {
    let app = spawn_app().await;
    let script = entry_script(&app).await;
    let response = app.get(&script).await;
    assert!(response.headers().get("content-encoding").is_none());
}

#[tokio::test]
async fn an_unchanged_asset_answers_304_to_its_etag() {
    let app = spawn_app().await;
    let script = entry_script(&app).await;
    let etag = app.get(&script).await.headers()["etag"]
        .to_str()
        .unwrap()
        .to_owned();
    let response = app.get_with(&script, &[("if-none-match", &etag)]).await;
    assert_eq!(response.status(), 304);
}

#[tokio::test]
async fn client_routes_get_the_app_shell() {
    let app = spawn_app().await;
    for path in ["/login", "/dashboard", "/login/", "/Dashboard"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 200, "{path}");
        assert_eq!(response.headers()["cache-control"], "no-cache", "{path}");
        assert!(
            response.text().await.unwrap().contains("<div id=\"root\""),
            "{path}"
        );
    }
}

/// The routes the build listed from `web/src/routes.tsx`.
fn app_routes() -> Vec<String> {
    let json = portfolio::site::file("routes.json").expect("the build lists the app's routes");
    serde_json::from_slice(json).expect("routes.json is a list of paths")
}

/// A path that `pattern` matches: a sample value for each parameter, something for a splat.
fn sample_path(pattern: &str) -> String {
    let segments: Vec<&str> = pattern
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| match s.trim_end_matches('?') {
            "*" => "any/thing",
            s if s.starts_with(':') => "sample",
            s => s,
        })
        .collect();
    format!("/{}", segments.join("/"))
}

#[tokio::test]
async fn every_route_of_the_app_answers_200() {
    let app = spawn_app().await;
    let routes = app_routes();
    for known in ["/", "/login", "/dashboard"] {
        assert!(routes.iter().any(|r| r == known), "{known} in {routes:?}");
    }
    for pattern in &routes {
        let path = sample_path(pattern);
        let response = app.get(&path).await;
        assert_eq!(response.status(), 200, "{path} (route {pattern})");
        assert!(
            response.text().await.unwrap().contains("<div id=\"root\""),
            "{path}"
        );
    }
}

#[tokio::test]
async fn unknown_paths_answer_404_with_the_app_shell_and_noindex() {
    let app = spawn_app().await;
    for path in [
        "/no-such-page",
        "/no/such/page",
        "/login/extra",
        "/dashboard/x",
        "/index",
        "/%E2%9C%93",
    ] {
        let response = app
            .get_with(path, &[("accept-encoding", "gzip, deflate, br")])
            .await;
        assert_eq!(response.status(), 404, "{path}");
        let headers = response.headers().clone();
        assert!(headers["content-type"]
            .to_str()
            .unwrap()
            .starts_with("text/html"));
        assert_eq!(headers["x-robots-tag"], "noindex", "{path}");
        assert_eq!(headers["cache-control"], "no-cache", "{path}");
        assert_eq!(headers["content-encoding"], "br", "{path}");
        assert!(headers.get("etag").is_none(), "no ETag on a 404: {path}");
        assert_security_headers(&headers, false, path);

        let compressed = response.bytes().await.unwrap();
        let mut html = String::new();
        brotli::Decompressor::new(&compressed[..], 4096)
            .read_to_string(&mut html)
            .unwrap();
        assert!(html.contains("<div id=\"root\"></div>"), "{path}");
        assert!(
            html.contains("<meta name=\"robots\" content=\"noindex\""),
            "{path}"
        );
        assert!(html.contains("/assets/"), "the shell loads the app: {path}");
    }
}

#[tokio::test]
async fn a_404_is_never_turned_into_a_304() {
    let app = spawn_app().await;
    let response = app
        .get_with("/no-such-page", &[("if-none-match", "*")])
        .await;
    assert_eq!(response.status(), 404);
    let head = app
        .client
        .head(app.url("/no-such-page"))
        .send()
        .await
        .unwrap();
    assert_eq!(head.status(), 404);
}

#[tokio::test]
async fn an_unknown_api_path_gets_a_json_404() {
    let app = spawn_app().await;
    for path in ["/api/nothing-here", "/api/a/b/c", "/api"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert!(response.headers()["content-type"]
            .to_str()
            .unwrap()
            .starts_with("application/json"));
        let body: serde_json::Value = response.json().await.unwrap();
        assert_eq!(body["error"]["code"], "not_found", "{path}");
    }
}

#[tokio::test]
async fn a_missing_asset_is_a_404_not_index_html() {
    let app = spawn_app().await;
    for path in [
        "/assets/missing-abc123.js",
        "/favicon-that-does-not-exist.png",
        "/nothing.css",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert!(
            !response.text().await.unwrap().contains("<div id=\"root\""),
            "{path}"
        );
    }
}

#[tokio::test]
async fn health_answers_200() {
    let app = spawn_app().await;
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
}

#[tokio::test]
async fn the_server_stops_gracefully_and_closes_the_database() {
    let app = spawn_app().await;
    let db = app.db.clone();
    assert_eq!(app.get("/healthz").await.status(), 200);
    app.shutdown().await;
    assert!(db.is_closed());
}

#[tokio::test]
async fn nothing_the_build_wrote_for_the_server_alone_is_reachable_by_url() {
    let app = spawn_app().await;
    for path in [
        "/.render/render.js",
        "/.render/default.html",
        "/.render/index.html",
        "/.render/app.html",
        "/.render/head.html",
        "/%2erender/render.js",
        "/.render/render.js.br",
        "/.ssr/build-facts.js",
    ] {
        let answer = app.get(path).await;
        assert_eq!(answer.status(), 404, "{path}");
        let body = answer.text().await.unwrap();
        assert!(
            !body.contains("renderLanding"),
            "{path} serves the render bundle"
        );
        assert!(
            !body.contains("<!--app-html-->"),
            "{path} serves a template"
        );
    }
    // The embedded site holds none of it either.
    assert!(!portfolio::site::contains(".render/render.js"));
    assert!(!portfolio::site::contains(".render/default.html"));
    app.shutdown().await;
}

/// The main listener's front answers the site's addresses without the router; an address the
/// router takes (`/media/…`) but has no route for reaches the router's fallback, the same site.
/// Both answer the same page with the same headers, but the two that differ per answer (the
/// request id and the date), so a layer of the main listener's stack cannot miss either way.
#[tokio::test]
async fn the_front_and_the_routers_fallback_answer_a_page_with_the_same_headers() {
    use std::collections::BTreeMap;

    let (by_front, by_router) = ("/no/such/page", "/media/no/such/page");
    assert!(!portfolio::addresses::is_routed(by_front));
    assert!(portfolio::addresses::is_routed(by_router));
    let app = spawn_app().await;
    let headers = |response: &reqwest::Response| -> BTreeMap<String, String> {
        response
            .headers()
            .iter()
            .filter(|(name, _)| !matches!(name.as_str(), "x-request-id" | "date"))
            .map(|(name, value)| (name.to_string(), value.to_str().unwrap().to_owned()))
            .collect()
    };
    let front = app.get(by_front).await;
    let router = app.get(by_router).await;
    assert_eq!(front.status(), 404);
    assert_eq!(router.status(), 404);
    assert_security_headers(front.headers(), false, "the front's page");
    assert_security_headers(router.headers(), false, "the router's fallback's page");
    assert!(front.headers().contains_key("x-request-id"));
    assert!(router.headers().contains_key("x-request-id"));
    assert_eq!(headers(&front), headers(&router));
    assert_eq!(front.bytes().await.unwrap(), router.bytes().await.unwrap());
}
