//! Security headers: on the site's pages and assets, on API answers, on 404s; HSTS only over HTTPS.

use crate::helpers::{spawn_app, spawn_app_with, TestApp};

const EXPECTED: &[(&str, &str)] = &[
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "strict-origin-when-cross-origin"),
    ("cross-origin-opener-policy", "same-origin"),
    ("cross-origin-resource-policy", "same-origin"),
];

/// Asserts every security header on one response, HSTS present or absent as `https` says.
pub fn assert_security_headers(headers: &reqwest::header::HeaderMap, https: bool, what: &str) {
    for (name, value) in EXPECTED {
        assert_eq!(
            headers.get(*name).map(|v| v.to_str().unwrap()),
            Some(*value),
            "{name} on {what}"
        );
    }
    let csp = headers
        .get("content-security-policy")
        .unwrap_or_else(|| panic!("content-security-policy on {what}"))
        .to_str()
        .unwrap();
    for directive in [
        "default-src 'self'",
        "script-src 'self'",
        "object-src 'none'",
        "base-uri 'none'",
        "frame-ancestors 'none'",
        "form-action 'self'",
    ] {
        assert!(csp.contains(directive), "{directive} in the CSP on {what}");
    }
    assert!(!csp.contains("unsafe-inline"), "no unsafe-inline on {what}");
    assert!(!csp.contains("unsafe-eval"), "no unsafe-eval on {what}");
    let permissions = headers
        .get("permissions-policy")
        .unwrap_or_else(|| panic!("permissions-policy on {what}"))
        .to_str()
        .unwrap();
    for feature in [
        "camera=()",
        "microphone=()",
        "geolocation=()",
        "payment=()",
        // Passkeys: the site's own pages register and use them.
        "publickey-credentials-create=(self)",
        "publickey-credentials-get=(self)",
    ] {
        assert!(permissions.contains(feature), "{feature} on {what}");
    }
    assert!(
        !permissions.contains("publickey-credentials-get=()"),
        "passkeys are not disabled on {what}"
    );
    let hsts = headers
        .get("strict-transport-security")
        .map(|v| v.to_str().unwrap().to_owned());
    if https {
        let hsts = hsts.unwrap_or_else(|| panic!("strict-transport-security on {what}"));
        let max_age: u64 = hsts
            .split(';')
            .find_map(|part| part.trim().strip_prefix("max-age="))
            .and_then(|age| age.parse().ok())
            .unwrap_or_else(|| panic!("a max-age in {hsts}"));
        assert!(max_age >= 31_536_000, "at least a year: {hsts}");
        assert!(hsts.contains("includeSubDomains"), "{hsts}");
    } else {
        assert_eq!(hsts, None, "no HSTS over plain HTTP on {what}");
    }
}

/// The hashed script that `/` loads.
pub async fn entry_script(app: &TestApp) -> String {
    let html = app.get("/").await.text().await.unwrap();
    let start = html.find("/assets/").expect("a hashed asset");
    let end = start + html[start..].find('"').unwrap();
    html[start..end].to_owned()
}

async fn check_every_kind_of_response(app: &TestApp, https: bool) {
    let script = entry_script(app).await;
    for path in [
        "/",
        "/index.html",
        script.as_str(),
        "/favicon.svg",
        "/login",
        "/dashboard",
        "/robots.txt",
        "/api/openapi.json",
        "/api/no-such-endpoint",
        "/missing-file.png",
        "/healthz",
    ] {
        let response = app.get(path).await;
        assert!(
            response.status().is_success() || response.status() == 404,
            "{path}: {}",
            response.status()
        );
        assert_security_headers(response.headers(), https, path);
    }
}

#[tokio::test]
async fn every_response_carries_the_security_headers_without_hsts_over_plain_http() {
    let app = spawn_app().await;
    check_every_kind_of_response(&app, false).await;
}

#[tokio::test]
async fn an_api_answer_carries_the_security_headers() {
    let app = spawn_app().await;
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("application/json"));
    assert_security_headers(response.headers(), false, "an API answer");
}

#[tokio::test]
async fn a_rejected_cross_site_post_and_a_304_carry_them_too() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(app.url("/api/contact"))
        .header("Origin", "https://evil.example")
        .header("Sec-Fetch-Site", "cross-site")
        .json(&serde_json::json!({}))
        .send()
        .await
        .unwrap();
    assert!(response.status().is_client_error(), "{}", response.status());
    assert_security_headers(response.headers(), false, "a rejected POST");

    let etag = app.get("/").await.headers()["etag"].clone();
    let response = app
        .get_with("/", &[("if-none-match", etag.to_str().unwrap())])
        .await;
    assert_eq!(response.status(), 304);
    assert_security_headers(response.headers(), false, "a 304");
}

#[tokio::test]
async fn behind_a_proxy_with_an_https_public_url_every_response_carries_hsts() {
    let app = spawn_app_with(|settings| {
        settings.public_url = Some("https://portfolio.example.com".parse().unwrap());
    })
    .await;
    check_every_kind_of_response(&app, true).await;
}

/// One directive of a policy, e.g. `script-src 'self' 'sha256-…'`.
fn directive<'a>(csp: &'a str, name: &str) -> &'a str {
    csp.split(';')
        .map(str::trim)
        .find(|directive| directive.starts_with(&format!("{name} ")))
        .unwrap_or_else(|| panic!("a {name} directive in {csp}"))
}

fn sha256_base64(text: &str) -> String {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};
    base64::engine::general_purpose::STANDARD.encode(Sha256::digest(text))
}

#[tokio::test]
async fn each_inline_script_runs_by_its_hash_alone_and_data_blocks_are_json() {
    let app = spawn_app().await;
    for path in ["/", "/login"] {
        let response = app.get(path).await;
        let csp = response.headers()["content-security-policy"]
            .to_str()
            .unwrap()
            .to_owned();
        let html = response.text().await.unwrap();
        let mut expected = String::from("script-src 'self'");
        let mut rest = html.as_str();
        while let Some(start) = rest.find("<script") {
            let tag_end = start + rest[start..].find('>').unwrap();
            let tag = &rest[start..=tag_end];
            let close = tag_end + rest[tag_end..].find("</script>").unwrap();
            let body = &rest[tag_end + 1..close];
            // Data blocks (JSON-LD, the page's data, inline or named by `src`) are never run
            // by a browser.
            let data = tag.contains("type=\"application/ld+json\"")
                || tag.contains("type=\"application/json\"");
            if data && tag.contains("src=") {
                assert!(
                    body.is_empty(),
                    "a data block naming its file has no body on {path}"
                );
            } else if data {
                serde_json::from_str::<serde_json::Value>(body)
                    .unwrap_or_else(|e| panic!("a data block on {path} that is not JSON: {e}"));
            } else if tag.contains("src=") {
                assert!(body.is_empty(), "a script with a body on {path}: {tag}");
            } else {
                let hash = format!(" 'sha256-{}'", sha256_base64(body));
                if !expected.contains(&hash) {
                    expected.push_str(&hash);
                }
            }
            rest = &rest[close..];
        }
        // Exactly the page's own inline scripts: no other page's, no 'unsafe-inline'.
        assert_eq!(directive(&csp, "script-src"), expected, "on {path}");
        assert!(!csp.contains("unsafe"), "{csp}");
        assert!(!html.contains(" style=\""), "no style attribute on {path}");
    }
    // The shell's one <style> declares the web font (which the whole stylesheet leaves out), and
    // its hash alone allows it.
    let response = app.get("/login").await;
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let shell = response.text().await.unwrap();
    let styles = inline_styles(&shell);
    assert_eq!(styles.len(), 1, "one <style> element on /login");
    assert!(
        styles[0].starts_with("@font-face{font-family:Inter;")
            && styles[0].matches("@font-face{").count() == 2
            && styles[0].ends_with('}')
            && !styles[0].contains("}.")
            && !styles[0].contains("}:"),
        "the font faces alone: {}",
        styles[0]
    );
    assert_eq!(
        directive(&csp, "style-src"),
        format!("style-src 'self' 'sha256-{}'", sha256_base64(styles[0]))
    );
}

/// The text of each `<style>` element of `html`.
fn inline_styles(html: &str) -> Vec<&str> {
    html.split("<style")
        .skip(1)
        .map(|rest| {
            let body = &rest[rest.find('>').unwrap() + 1..];
            &body[..body.find("</style>").unwrap()]
        })
        .collect()
}

#[tokio::test]
async fn the_landing_pages_inline_stylesheet_is_allowed_by_its_hash() {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};

    let app = spawn_app().await;
    let response = app.get("/").await;
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let html = response.text().await.unwrap();
    let styles = inline_styles(&html);
    assert_eq!(styles.len(), 1, "one inline stylesheet on /");
    assert!(
        styles[0].contains(".container-page"),
        "the site's stylesheet, inline"
    );
    // The whole stylesheet is linked for a browser without JavaScript alone.
    let (before, rest) = html
        .split_once("<noscript>")
        .expect("a <noscript> with the whole stylesheet");
    let (noscript, after) = rest.split_once("</noscript>").unwrap();
    assert!(
        noscript.starts_with("<link rel=\"stylesheet\" href=\"/assets/index-"),
        "{noscript}"
    );
    assert!(
        !before.contains("<link rel=\"stylesheet\"") && !after.contains("<link rel=\"stylesheet\""),
        "/ fetches no stylesheet before its first paint"
    );
    let hash = base64::engine::general_purpose::STANDARD.encode(Sha256::digest(styles[0]));
    let style_src = csp
        .split(';')
        .map(str::trim)
        .find(|directive| directive.starts_with("style-src "))
        .expect("a style-src directive");
    assert_eq!(style_src, format!("style-src 'self' 'sha256-{hash}'"));
    assert!(!csp.contains("unsafe"), "{csp}");
    // The hash is the served text's, whatever the public URL rendered into the page.
    let other = spawn_app_with(|settings| {
        settings.public_url = Some("https://portfolio.example.com/me".parse().unwrap());
    })
    .await;
    let response = other.get("/").await;
    let csp = response.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    let html = response.text().await.unwrap();
    let hash =
        base64::engine::general_purpose::STANDARD.encode(Sha256::digest(inline_styles(&html)[0]));
    assert!(
        csp.contains(&format!("style-src 'self' 'sha256-{hash}';")),
        "{csp}"
    );
}
