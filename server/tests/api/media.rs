//! Uploads: images re-encoded as WebP without their metadata, SVG cleaned, types read from the
//! bytes, the size cap, the owner's routes guarded, files served hashed and immutable from the
//! database, and the uploaded resume at `/resume.pdf` on every instance.

use std::io::Cursor;

use reqwest::Method;
use serde_json::Value;

use crate::helpers::{fresh_database_url, on_postgres, spawn_app, spawn_app_with, Spawn};

/// A JPEG `width` x `height` of a gradient, with the EXIF segment `exif` (a TIFF structure)
/// put right after its start marker, as a camera writes it.
pub fn jpeg_with_exif(width: u32, height: u32, exif: &[u8]) -> Vec<u8> {
    let pixels = image::RgbImage::from_fn(width, height, |x, y| {
        image::Rgb([(x % 256) as u8, (y % 256) as u8, ((x + y) % 256) as u8])
    });
    let mut jpeg = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut jpeg, 90)
        .encode_image(&pixels)
        .unwrap();
    let mut payload = b"Exif\0\0".to_vec();
    payload.extend_from_slice(exif);
    let mut segment = vec![0xFF, 0xE1];
    segment.extend_from_slice(&u16::try_from(payload.len() + 2).unwrap().to_be_bytes());
    segment.extend_from_slice(&payload);
    assert_eq!(&jpeg[..2], [0xFF, 0xD8]);
    jpeg.splice(2..2, segment);
    jpeg
}

/// The text a test looks for in the served bytes: it must not be there.
const CAMERA_MARKER: &[u8] = b"SecretCam-9000";

/// A big-endian TIFF structure: IFD0 with Orientation 6 (turn 90 degrees clockwise to show),
/// the camera's model and a GPS IFD with latitude 52 deg 31' 12.34" N.
fn exif_with_gps() -> Vec<u8> {
    let mut t: Vec<u8> = b"MM\0\x2a\0\0\0\x08".to_vec();
    let entry = |t: &mut Vec<u8>, tag: u16, kind: u16, count: u32, value: [u8; 4]| {
        t.extend_from_slice(&tag.to_be_bytes());
        t.extend_from_slice(&kind.to_be_bytes());
        t.extend_from_slice(&count.to_be_bytes());
        t.extend_from_slice(&value);
    };
    // IFD0 at 8: three entries (2 + 36 + 4 bytes), then the model's text at 50, the GPS IFD at 66.
    let model_at: u32 = 8 + 2 + 3 * 12 + 4;
    let gps_at: u32 = model_at + 16;
    t.extend_from_slice(&3u16.to_be_bytes());
    entry(&mut t, 0x0110, 2, 15, model_at.to_be_bytes()); // Model (ASCII)
    entry(&mut t, 0x0112, 3, 1, [0, 6, 0, 0]); // Orientation: SHORT 6
    entry(&mut t, 0x8825, 4, 1, gps_at.to_be_bytes()); // GPS IFD pointer
    t.extend_from_slice(&0u32.to_be_bytes());
    let mut model = CAMERA_MARKER.to_vec();
    model.resize(16, 0);
    t.extend_from_slice(&model);
    assert_eq!(t.len() as u32, gps_at);
    // GPS IFD: two entries (2 + 24 + 4 bytes), then three rationals.
    let rationals_at = gps_at + 2 + 2 * 12 + 4;
    t.extend_from_slice(&2u16.to_be_bytes());
    entry(&mut t, 0x0001, 2, 2, *b"N\0\0\0"); // GPSLatitudeRef
    entry(&mut t, 0x0002, 5, 3, rationals_at.to_be_bytes()); // GPSLatitude
    t.extend_from_slice(&0u32.to_be_bytes());
    for (n, d) in [(52u32, 1u32), (31, 1), (1234, 100)] {
        t.extend_from_slice(&n.to_be_bytes());
        t.extend_from_slice(&d.to_be_bytes());
    }
    t
}

/// A tiny PNG (valid, opaque).
pub fn small_png() -> Vec<u8> {
    let mut png = Vec::new();
    image::RgbaImage::from_pixel(24, 12, image::Rgba([200, 30, 30, 255]))
        .write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png)
        .unwrap();
    png
}

pub const TINY_PDF: &[u8] = b"%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n\
2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n";

fn has(haystack: &[u8], needle: &[u8]) -> bool {
    haystack.windows(needle.len()).any(|w| w == needle)
}

#[tokio::test]
async fn a_jpeg_with_gps_exif_comes_back_upright_as_webp_without_any_metadata() {
    let app = spawn_app().await;
    app.signed_in().await;
    let jpeg = jpeg_with_exif(800, 400, &exif_with_gps());
    assert!(has(&jpeg, CAMERA_MARKER) && has(&jpeg, b"Exif"));

    let answer = app.upload("/api/media", jpeg, "holiday.jpg").await;
    assert_eq!(answer.status(), 201);
    let item: Value = answer.json().await.unwrap();
    assert_eq!(item["kind"], "image");
    assert_eq!(item["name"], "holiday.jpg");
    assert!(item["id"].as_str().unwrap().len() == 12);
    // Orientation 6 turns the 800 x 400 picture upright: 400 x 800, never made wider.
    assert_eq!(
        (item["width"].as_i64(), item["height"].as_i64()),
        (Some(400), Some(800))
    );
    let sources = item["sources"].as_array().unwrap();
    let widths: Vec<i64> = sources
        .iter()
        .map(|s| s["width"].as_i64().unwrap())
        .collect();
    assert_eq!(widths, [320, 400]);

    for source in sources {
        let src = source["src"].as_str().unwrap();
        assert!(
            src.starts_with("/media/") && src.ends_with(".webp"),
            "{src}"
        );
        let served = app.get(src).await;
        assert_eq!(served.status(), 200);
        let headers = served.headers().clone();
        assert_eq!(headers["content-type"], "image/webp");
        assert_eq!(
            headers["cache-control"],
            "public, max-age=31536000, immutable"
        );
        assert_eq!(headers["x-content-type-options"], "nosniff");
        let etag = headers["etag"].to_str().unwrap().to_owned();
        let bytes = served.bytes().await.unwrap();
        assert_eq!(&bytes[..4], b"RIFF");
        assert_eq!(&bytes[8..12], b"WEBP");
        for gone in [&b"EXIF"[..], b"Exif", b"XMP ", CAMERA_MARKER, b"GPS"] {
            assert!(
                !has(&bytes, gone),
                "{} is in {src}",
                String::from_utf8_lossy(gone)
            );
        }
        let decoded = image::load_from_memory(&bytes).unwrap();
        assert_eq!(
            i64::from(decoded.width()),
            source["width"].as_i64().unwrap()
        );
        assert_eq!(decoded.height(), decoded.width() * 2);
        let again = app.get_with(src, &[("If-None-Match", &etag)]).await;
        assert_eq!(again.status(), 304);
    }
    assert_eq!(
        app.get("/media/0123456789abcdef-320.webp").await.status(),
        404
    );
    app.shutdown().await;
}

#[tokio::test]
async fn an_svg_with_a_script_and_handlers_is_served_cleaned_and_under_a_strict_policy() {
    let app = spawn_app().await;
    app.signed_in().await;
    let svg = br#"<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="64" height="32" onload="alert('loaded')">
  <script>alert('script')</script>
  <rect width="64" height="32" fill="teal" onclick="alert('clicked')"/>
  <foreignObject width="10" height="10"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example"/></foreignObject>
</svg>"#;
    let answer = app.upload("/api/media", svg.to_vec(), "logo.svg").await;
    assert_eq!(answer.status(), 201);
    let item: Value = answer.json().await.unwrap();
    assert_eq!(item["kind"], "svg");
    assert_eq!(
        (item["width"].as_i64(), item["height"].as_i64()),
        (Some(64), Some(32))
    );
    let src = item["sources"][0]["src"].as_str().unwrap();
    assert!(src.ends_with(".svg"), "{src}");

    let served = app.get(src).await;
    assert_eq!(served.status(), 200);
    assert_eq!(served.headers()["content-type"], "image/svg+xml");
    let policy = served.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(
        policy.contains("default-src 'none'") && policy.contains("sandbox"),
        "{policy}"
    );
    assert!(!policy.contains("script-src"), "{policy}");
    let text = served.text().await.unwrap();
    for gone in [
        "script",
        "alert",
        "onload",
        "onclick",
        "foreignObject",
        "iframe",
        "evil",
    ] {
        assert!(!text.contains(gone), "{gone} is still in {text}");
    }
    assert!(text.contains("<svg") && text.contains("<path"), "{text}");
    app.shutdown().await;
}

#[tokio::test]
async fn a_file_named_like_an_image_whose_bytes_are_not_one_is_refused_naming_file() {
    let app = spawn_app().await;
    app.signed_in().await;
    for (bytes, name) in [
        (b"just some text, not a picture".to_vec(), "photo.png"),
        (
            b"<html><script>alert(1)</script></html>".to_vec(),
            "logo.svg",
        ),
        (
            b"\x89PNG\r\n\x1a\n but then nothing of a PNG".to_vec(),
            "broken.png",
        ),
        (TINY_PDF.to_vec(), "resume.png"),
    ] {
        let answer = app.upload("/api/media", bytes, name).await;
        assert_eq!(answer.status(), 422, "{name}");
        let body: Value = answer.json().await.unwrap();
        assert!(
            body["error"]["fields"]["file"].is_string(),
            "{name}: {body}"
        );
    }
    // The resume must be a PDF, whatever its name.
    let answer = app
        .upload("/api/media/resume", small_png(), "resume.pdf")
        .await;
    assert_eq!(answer.status(), 422);
    let body: Value = answer.json().await.unwrap();
    assert!(body["error"]["fields"]["file"].is_string(), "{body}");
    let list: Value = app.get("/api/media").await.json().await.unwrap();
    assert_eq!(list["items"], serde_json::json!([]));
    app.shutdown().await;
}

#[tokio::test]
async fn an_upload_over_the_cap_is_413_with_the_json_error() {
    let app = spawn_app_with(|s| s.limits.max_upload_bytes = 4096).await;
    app.signed_in().await;
    let big = vec![b'x'; 6000];
    for path in ["/api/media", "/api/media/resume"] {
        let answer = app.upload(path, big.clone(), "big.png").await;
        assert_eq!(answer.status(), 413, "{path}");
        let body: Value = answer.json().await.unwrap();
        assert_eq!(body["error"]["code"], "payload_too_large", "{path}");
    }
    // Without a length given up front (chunked), the cap still holds.
    let chunks: Vec<Result<Vec<u8>, std::io::Error>> =
        (0..6).map(|_| Ok(vec![b'y'; 1000])).collect();
    let answer = app
        .client
        .post(app.url("/api/media"))
        .header("Sec-Fetch-Site", "same-origin")
        .body(reqwest::Body::wrap_stream(futures_util::stream::iter(
            chunks,
        )))
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 413);
    // Under the cap, an upload goes through.
    assert_eq!(
        app.upload("/api/media", small_png(), "ok.png")
            .await
            .status(),
        201
    );
    app.shutdown().await;
}

#[tokio::test]
async fn uploads_are_the_owners_and_from_the_sites_own_pages_only() {
    let app = spawn_app().await;
    for (method, path) in [
        (Method::POST, "/api/media"),
        (Method::POST, "/api/media/resume"),
        (Method::GET, "/api/media"),
        (Method::DELETE, "/api/media/0123456789ab"),
    ] {
        let answer = app
            .client
            .request(method.clone(), app.url(path))
            .header("Sec-Fetch-Site", "same-origin")
            .body(small_png())
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 401, "{method} {path}");
    }
    app.signed_in().await;
    for path in ["/api/media", "/api/media/resume"] {
        let answer = app
            .client
            .post(app.url(path))
            .header("Origin", "https://evil.example")
            .header("Sec-Fetch-Site", "cross-site")
            .body(small_png())
            .send()
            .await
            .unwrap();
        assert_eq!(answer.status(), 403, "{path}");
    }
    let list: Value = app.get("/api/media").await.json().await.unwrap();
    assert_eq!(list["items"], serde_json::json!([]));
    app.shutdown().await;
}

#[tokio::test]
async fn uploads_are_listed_newest_first_and_deleted_with_their_files() {
    let app = spawn_app().await;
    app.signed_in().await;
    let first: Value = app
        .upload("/api/media", small_png(), "a.png")
        .await
        .json()
        .await
        .unwrap();
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><circle r="4" cx="4" cy="4"/></svg>"#;
    let second: Value = app
        .upload("/api/media", svg.to_vec(), "b.svg")
        .await
        .json()
        .await
        .unwrap();
    // The same bytes again: the same item, not a second one.
    let again = app.upload("/api/media", small_png(), "a-again.png").await;
    assert_eq!(again.status(), 201);
    assert_eq!(again.json::<Value>().await.unwrap()["id"], first["id"]);

    let list: Value = app.get("/api/media").await.json().await.unwrap();
    let ids: Vec<&Value> = list["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| &i["id"])
        .collect();
    assert_eq!(ids, [&second["id"], &first["id"]]);
    assert_eq!(list["items"][1]["sources"], first["sources"]);
    assert!(list["items"][0]["createdAt"].is_i64());

    let src = first["sources"][0]["src"].as_str().unwrap().to_owned();
    assert_eq!(app.get(&src).await.status(), 200);
    let id = first["id"].as_str().unwrap();
    let path = format!("/api/media/{id}");
    assert_eq!(app.send(Method::DELETE, &path, None).await.status(), 204);
    assert_eq!(app.get(&src).await.status(), 404);
    assert_eq!(app.send(Method::DELETE, &path, None).await.status(), 404);
    let list: Value = app.get("/api/media").await.json().await.unwrap();
    assert_eq!(list["items"].as_array().unwrap().len(), 1);
    app.shutdown().await;
}

#[tokio::test]
async fn the_uploaded_resume_is_served_at_resume_pdf_by_every_instance_and_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let url = fresh_database_url(dir.path()).await;
    let a = Spawn::new().database(url.clone()).await;
    let bundled = a.get("/resume.pdf").await.bytes().await.unwrap();
    assert_ne!(
        &bundled[..],
        TINY_PDF,
        "the bundled resume is a different file"
    );
    a.signed_in().await;
    let answer = a
        .upload("/api/media/resume", TINY_PDF.to_vec(), "cv.pdf")
        .await;
    assert_eq!(answer.status(), 201);
    let body: Value = answer.json().await.unwrap();
    assert_eq!(body["path"], "/resume.pdf");
    assert_eq!(body["bytes"].as_u64(), Some(TINY_PDF.len() as u64));

    let check = |served: reqwest::Response| async move {
        assert_eq!(served.status(), 200);
        assert_eq!(served.headers()["content-type"], "application/pdf");
        assert_eq!(served.headers()["cache-control"], "no-cache");
        let etag = served.headers()["etag"].to_str().unwrap().to_owned();
        assert_eq!(&served.bytes().await.unwrap()[..], TINY_PDF);
        etag
    };
    let etag = check(a.get("/resume.pdf").await).await;
    assert_eq!(
        a.get_with("/resume.pdf", &[("If-None-Match", &etag)])
            .await
            .status(),
        304
    );
    if on_postgres() {
        // A second instance on the same database, while the first still runs.
        let b = Spawn::new().database(url.clone()).await;
        assert_eq!(check(b.get("/resume.pdf").await).await, etag);
        b.shutdown().await;
        a.shutdown().await;
    } else {
        a.shutdown().await;
        let b = Spawn::new().database(url.clone()).await;
        assert_eq!(check(b.get("/resume.pdf").await).await, etag);
        b.shutdown().await;
    }
}

/// An SVG of about a kilobyte whose `<use>` elements fan out: each level is ten of the one
/// below, so usvg would write out 10^levels rectangles.
fn use_fan_out(levels: usize) -> Vec<u8> {
    let mut svg = String::from(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="10" height="10"><defs><rect id="l0" width="1" height="1"/>"#,
    );
    for level in 1..=levels {
        svg.push_str(&format!(r#"<g id="l{level}">"#));
        for _ in 0..10 {
            svg.push_str(&format!(r##"<use xlink:href="#l{}"/>"##, level - 1));
        }
        svg.push_str("</g>");
    }
    svg.push_str(&format!(r##"</defs><use xlink:href="#l{levels}"/></svg>"##));
    svg.into_bytes()
}

#[tokio::test]
async fn an_svg_whose_use_elements_fan_out_is_refused_naming_file() {
    let app = spawn_app().await;
    app.signed_in().await;
    // Two levels (a hundred rectangles) are a fine file.
    let small = app.upload("/api/media", use_fan_out(2), "ok.svg").await;
    assert_eq!(small.status(), 201);
    for levels in [5, 9] {
        let bomb = use_fan_out(levels);
        assert!(bomb.len() < 3_000, "{} bytes", bomb.len());
        let answer = app.upload("/api/media", bomb, "laughs.svg").await;
        assert_eq!(answer.status(), 422, "{levels} levels");
        let body: Value = answer.json().await.unwrap();
        let field = body["error"]["fields"]["file"].as_str().unwrap_or_default();
        assert!(field.contains("elements"), "{body}");
    }
    app.shutdown().await;
}

#[tokio::test]
async fn a_jpeg_embedded_in_an_svg_is_served_without_its_exif() {
    use base64::Engine;
    let app = spawn_app().await;
    app.signed_in().await;
    let jpeg = jpeg_with_exif(16, 8, &exif_with_gps());
    assert!(jpeg
        .windows(CAMERA_MARKER.len())
        .any(|w| w == CAMERA_MARKER));
    let encoded = base64::engine::general_purpose::STANDARD.encode(&jpeg);
    let svg = format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="16" height="8"><image width="16" height="8" xlink:href="data:image/jpeg;base64,{encoded}"/></svg>"#
    );
    let answer = app
        .upload("/api/media", svg.into_bytes(), "photo.svg")
        .await;
    assert_eq!(answer.status(), 201);
    let item: Value = answer.json().await.unwrap();
    let src = item["sources"][0]["src"].as_str().unwrap().to_owned();
    let text = app.get(&src).await.text().await.unwrap();
    assert!(!text.contains(&encoded), "the JPEG came back as sent");
    let start = text
        .find("data:image/webp;base64,")
        .unwrap_or_else(|| panic!("an embedded WebP in {text}"))
        + "data:image/webp;base64,".len();
    let end = start + text[start..].find('"').unwrap();
    let webp = base64::engine::general_purpose::STANDARD
        .decode(text[start..end].trim())
        .unwrap();
    assert!(!webp.windows(4).any(|w| w == b"EXIF"), "a WebP EXIF chunk");
    assert!(!webp
        .windows(CAMERA_MARKER.len())
        .any(|w| w == CAMERA_MARKER));
    // Still the picture: decoded and upright (Orientation 6 turns 16x8 into 8x16).
    let picture = image::load_from_memory(&webp).unwrap();
    assert_eq!((picture.width(), picture.height()), (8, 16));
    app.shutdown().await;
}
