//! Uploads turned into what the page serves. The type is read from the bytes, never the name:
//! JPEG, PNG, WebP and GIF are decoded (within limits against decompression bombs), turned
//! upright, and re-encoded as lossy WebP at the widths the page shows images at, which leaves
//! every piece of metadata (EXIF, GPS, XMP, ICC) behind; SVG is parsed and written anew by
//! `usvg`, which keeps shapes and drops scripts, event handlers, `foreignObject` and references
//! to anything outside the file (within a cap on elements and size, its embedded images
//! re-encoded); a PDF is taken only as the resume. The CPU-heavy work runs on
//! the blocking pool, at most [`CONCURRENT_ENCODES`] at a time.

pub mod cache;
pub mod raster;
mod webp;

use raster::{Format, Pixels, Unread};
pub use raster::{MAX_DECODE_BYTES, MAX_SIDE};
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;

/// The widths the page shows images at (the hero 320/640, projects 400/800, certificates
/// 480/960), in pixels. An image gets each one narrower than itself and its own width up to the
/// widest: never wider than it came.
pub const WIDTHS: [u32; 6] = [320, 400, 480, 640, 800, 960];

/// libwebp's quality (0 to 100) for every width: the build's own images use 70 to 78.
pub const WEBP_QUALITY: f32 = 78.0;

/// The most elements a cleaned SVG may have, counted after `<use>` and markers are expanded:
/// a logo or an illustration has hundreds to a few thousand; a file of a kilobyte whose `<use>`
/// elements fan out would otherwise be written out as a million.
pub const MAX_SVG_ELEMENTS: usize = 50_000;

/// The largest cleaned SVG, in bytes (embedded images included, re-encoded).
pub const MAX_SVG_BYTES: usize = 4 * 1024 * 1024;

/// Encodes at once, so that uploads cannot take every core from the requests.
pub const CONCURRENT_ENCODES: usize = 2;

static ENCODES: Semaphore = Semaphore::const_new(CONCURRENT_ENCODES);

/// One file made from an upload, named by the upload's hash (and its width).
#[derive(Debug, Clone)]
pub struct PreparedFile {
    /// Its name under `/media/`, e.g. `0123456789abcdef-640.webp`.
    pub name: String,
    pub content_type: &'static str,
    pub width: u32,
    pub data: Vec<u8>,
}

/// An upload ready to store.
#[derive(Debug, Clone)]
pub struct Prepared {
    /// 12 hex digits of the upload's SHA-256.
    pub id: String,
    /// `image` or `svg`.
    pub kind: &'static str,
    /// The widest file's size.
    pub width: u32,
    pub height: u32,
    /// Narrowest first.
    pub files: Vec<PreparedFile>,
}

/// Why an upload is refused, in a sentence about the `file` field.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refused(pub String);

impl Refused {
    fn new(text: impl Into<String>) -> Self {
        Self(text.into())
    }
}

/// What the bytes are.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sniffed {
    Raster(Format),
    Svg,
    Pdf,
    Unknown,
}

/// Reads the type from the first bytes: the raster formats by their magic numbers, a PDF by
/// `%PDF-`, and SVG by being UTF-8 text whose first element is `<svg` (after an optional XML
/// declaration, comments and a doctype). The parsers have the last word.
pub fn sniff(bytes: &[u8]) -> Sniffed {
    if bytes.starts_with(b"%PDF-") {
        return Sniffed::Pdf;
    }
    if let Some(format) = Format::of(bytes) {
        return Sniffed::Raster(format);
    }
    if looks_like_svg(bytes) {
        Sniffed::Svg
    } else {
        Sniffed::Unknown
    }
}

fn looks_like_svg(bytes: &[u8]) -> bool {
    let head = &bytes[..bytes.len().min(4096)];
    // The head may end inside a character: what is valid up to there is enough.
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        Err(error) => std::str::from_utf8(&head[..error.valid_up_to()]).unwrap_or_default(),
    };
    let mut rest = text.trim_start_matches('\u{feff}').trim_start();
    loop {
        if let Some(after) = rest.strip_prefix("<?") {
            let Some(end) = after.find("?>") else {
                return false;
            };
            rest = after[end + 2..].trim_start();
        } else if let Some(after) = rest.strip_prefix("<!--") {
            let Some(end) = after.find("-->") else {
                return false;
            };
            rest = after[end + 3..].trim_start();
        } else if let Some(after) = rest.strip_prefix("<!DOCTYPE") {
            let Some(end) = after.find('>') else {
                return false;
            };
            rest = after[end + 1..].trim_start();
        } else {
            return rest.starts_with("<svg")
                && rest[4..].starts_with(|c: char| c.is_whitespace() || c == '>' || c == '/');
        }
    }
}

/// The hex SHA-256 of the bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// [`prepare`] on the blocking pool, waiting for one of the [`CONCURRENT_ENCODES`] slots.
pub async fn prepare_off_thread(
    bytes: axum::body::Bytes,
) -> anyhow::Result<Result<Prepared, Refused>> {
    let _slot = ENCODES.acquire().await?;
    let prepared = tokio::task::spawn_blocking(move || prepare(&bytes)).await;
    crate::ops::memory::release_free_memory();
    match prepared {
        Ok(result) => Ok(result),
        Err(error) if error.is_panic() => {
            // A decoder that panics on a crafted file: the file is at fault, not the server.
            tracing::warn!(error = %error, "an upload made a decoder panic");
            Ok(Err(Refused::new("could not be read as an image")))
        }
        Err(error) => Err(error.into()),
    }
}

/// Turns an image upload into the files to serve.
pub fn prepare(bytes: &[u8]) -> Result<Prepared, Refused> {
    let hash = sha256_hex(bytes);
    let id = hash[..12].to_owned();
    let stem = &hash[..16];
    match sniff(bytes) {
        Sniffed::Raster(format) => raster(bytes, format, id, stem),
        Sniffed::Svg => svg(bytes, id, stem),
        Sniffed::Pdf => Err(Refused::new(
            "is a PDF: only the resume may be one (upload it as the resume)",
        )),
        Sniffed::Unknown => Err(Refused::new(
            "is not a JPEG, PNG, WebP, GIF or SVG image (its bytes say so, whatever its name)",
        )),
    }
}

/// The image decoded within the limits, turned upright by its EXIF orientation.
fn decode(bytes: &[u8], format: Format) -> Result<Pixels, Refused> {
    raster::decode(bytes, format).map_err(|unread| match unread {
        Unread::TooLarge => Refused::new(format!(
            "is too large an image: at most {MAX_SIDE} pixels a side and about 40 megapixels"
        )),
        Unread::Unreadable => Refused::new("could not be read as an image"),
    })
}

/// The widths to make for an image `width` pixels wide, narrowest first.
pub fn widths_for(width: u32) -> Vec<u32> {
    let widest = width.min(WIDTHS[WIDTHS.len() - 1]);
    let mut widths: Vec<u32> = WIDTHS.iter().copied().filter(|w| *w < widest).collect();
    widths.push(widest);
    widths
}

fn raster(bytes: &[u8], format: Format, id: String, stem: &str) -> Result<Prepared, Refused> {
    let image = decode(bytes, format)?;
    let (width, height) = (image.width, image.height);
    let widths = widths_for(width);
    let height_at = |w: u32| {
        ((u64::from(height) * u64::from(w) + u64::from(width) / 2) / u64::from(width)).max(1) as u32
    };
    // The widest from the original, each narrower one from the widest: far less to filter.
    let widest = *widths.last().expect("at least one width");
    let top = if widest == width {
        image
    } else {
        image.resized(widest, height_at(widest))
    };
    let mut files = Vec::with_capacity(widths.len());
    for &w in &widths {
        let h = height_at(w);
        let scaled;
        let source = if w == widest {
            &top
        } else {
            scaled = top.resized(w, h);
            &scaled
        };
        let data = encode_webp(source)?;
        files.push(PreparedFile {
            name: format!("{stem}-{w}.webp"),
            content_type: "image/webp",
            width: w,
            data,
        });
    }
    Ok(Prepared {
        id,
        kind: "image",
        width: widest,
        height: height_at(widest),
        files,
    })
}

/// Lossy WebP of the pixels alone: nothing of the original file's metadata is passed on.
fn encode_webp(image: &Pixels) -> Result<Vec<u8>, Refused> {
    webp::encode_lossy(
        &image.data,
        image.width,
        image.height,
        image.alpha,
        WEBP_QUALITY,
    )
    .map_err(|error| Refused(format!("could not be encoded as WebP ({error:?})")))
}

/// The SVG parsed and written anew: what usvg keeps is shapes, paths, gradients, patterns,
/// clip paths, masks, filters and embedded raster images; there is no script in its model, no
/// event handler, no `foreignObject`, and no link or reference outside the file (external
/// images are refused below instead of read from the disk, usvg's default). Text is dropped:
/// without fonts it has no shape. Embedded raster images are decoded and re-encoded as WebP
/// (their metadata left behind), embedded SVG images dropped. A file whose `<use>` elements or
/// markers would expand past [`MAX_SVG_ELEMENTS`] is refused before usvg expands it, and the
/// output is checked against that count and [`MAX_SVG_BYTES`].
pub fn sanitize_svg(bytes: &[u8]) -> Result<(String, u32, u32), Refused> {
    let unreadable = |error: &dyn std::fmt::Display| {
        Refused(format!("is not an SVG image that can be read ({error})"))
    };
    let text = std::str::from_utf8(bytes).map_err(|error| unreadable(&error))?;
    // The same XML options as usvg's own parse, with a bound on the raw nodes.
    let xml_options = usvg::roxmltree::ParsingOptions {
        allow_dtd: true,
        nodes_limit: u32::try_from(MAX_SVG_ELEMENTS * 4).unwrap_or(u32::MAX),
        ..Default::default()
    };
    let document =
        usvg::roxmltree::Document::parse_with_options(text, xml_options).map_err(|error| {
            match error {
                usvg::roxmltree::Error::NodesLimitReached => too_many_elements(),
                other => unreadable(&other),
            }
        })?;
    if expanded_elements(&document) > MAX_SVG_ELEMENTS {
        return Err(too_many_elements());
    }
    let options = usvg::Options {
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: Box::new(|_mime, data, _options| reencode_embedded(&data)),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    };
    let tree = usvg::Tree::from_xmltree(&document, &options).map_err(|error| match error {
        usvg::Error::ElementsLimitReached
        | usvg::Error::ParsingFailed(usvg::roxmltree::Error::NodesLimitReached) => {
            too_many_elements()
        }
        other => unreadable(&other),
    })?;
    let size = tree.size();
    let side = |v: f32| (v.ceil() as u32).clamp(1, MAX_SIDE);
    let text = tree.to_string(&usvg::WriteOptions::default());
    if text.len() > MAX_SVG_BYTES {
        return Err(Refused(format!(
            "is too large an SVG once cleaned: at most {} MiB",
            MAX_SVG_BYTES / (1024 * 1024)
        )));
    }
    let written = usvg::roxmltree::Document::parse(&text)
        .map_err(|error| unreadable(&error))?
        .descendants()
        .filter(usvg::roxmltree::Node::is_element)
        .count();
    if written > MAX_SVG_ELEMENTS {
        return Err(too_many_elements());
    }
    Ok((text, side(size.width()), side(size.height())))
}

fn too_many_elements() -> Refused {
    Refused(format!(
        "is too complex an SVG: at most {MAX_SVG_ELEMENTS} elements once its <use> elements and markers are expanded"
    ))
}

/// An upper bound of the elements usvg makes of the document: each element, each `<use>` as
/// the element it points to (recursively), and each marker once per number in the document's
/// path data and points (a vertex has at least one). Counted without expanding anything.
fn expanded_elements(document: &usvg::roxmltree::Document) -> usize {
    use std::collections::HashMap;
    use usvg::roxmltree::{Node, NodeId};

    const XLINK: &str = "http://www.w3.org/1999/xlink";
    /// usvg refuses deeper nesting; so does the count (as too many elements).
    const MAX_DEPTH: usize = 1024;

    let ids: HashMap<&str, Node> = document
        .descendants()
        .filter_map(|node| Some((node.attribute("id")?, node)))
        .collect();
    let target = |node: Node| -> Option<NodeId> {
        let href = node
            .attribute("href")
            .or_else(|| node.attribute((XLINK, "href")))?;
        Some(ids.get(href.trim().strip_prefix('#')?)?.id())
    };

    enum Memo {
        Counting,
        Done(usize),
    }
    fn count(
        node: Node,
        depth: usize,
        memo: &mut HashMap<NodeId, Memo>,
        target: &dyn Fn(Node) -> Option<NodeId>,
        document: &usvg::roxmltree::Document,
    ) -> usize {
        if depth > MAX_DEPTH {
            return MAX_SVG_ELEMENTS + 1;
        }
        match memo.get(&node.id()) {
            Some(Memo::Done(n)) => return *n,
            // A reference back into itself: usvg leaves such a `<use>` out.
            Some(Memo::Counting) => return 0,
            None => {}
        }
        memo.insert(node.id(), Memo::Counting);
        let mut total: usize = 1;
        for child in node.children().filter(Node::is_element) {
            total = total.saturating_add(count(child, depth + 1, memo, target, document));
        }
        if node.tag_name().name() == "use" {
            if let Some(id) = target(node) {
                let referenced = document.get_node(id).expect("an id from this document");
                total = total.saturating_add(count(referenced, depth + 1, memo, target, document));
            }
        }
        let total = total.min(MAX_SVG_ELEMENTS + 1);
        memo.insert(node.id(), Memo::Done(total));
        total
    }

    let mut memo = HashMap::new();
    let root = document.root_element();
    let mut total = count(root, 0, &mut memo, &target, document);
    let markers: Vec<Node> = document
        .descendants()
        .filter(|node| node.tag_name().name() == "marker")
        .collect();
    if !markers.is_empty() {
        let numbers: usize = document
            .descendants()
            .flat_map(|node| ["d", "points"].map(|name| node.attribute(name)))
            .flatten()
            .map(|data| {
                data.split(|c: char| c.is_whitespace() || c == ',' || c.is_ascii_alphabetic())
                    .filter(|part| !part.is_empty())
                    .count()
            })
            .fold(0usize, usize::saturating_add)
            .saturating_add(2 * document.descendants().count());
        for marker in markers {
            let each = count(marker, 0, &mut memo, &target, document);
            total = total.saturating_add(each.saturating_mul(numbers));
        }
    }
    total
}

/// An image embedded in an SVG as a data URL, decoded within the upload limits and re-encoded
/// as WebP: its EXIF, GPS, XMP and ICC stay behind. Anything else (an SVG inside the SVG, a
/// format not read) is dropped.
fn reencode_embedded(data: &[u8]) -> Option<usvg::ImageKind> {
    let image = decode(data, Format::of(data)?).ok()?;
    let webp = encode_webp(&image).ok()?;
    Some(usvg::ImageKind::WEBP(std::sync::Arc::new(webp)))
}

fn svg(bytes: &[u8], id: String, stem: &str) -> Result<Prepared, Refused> {
    let (text, width, height) = sanitize_svg(bytes)?;
    Ok(Prepared {
        id,
        kind: "svg",
        width,
        height,
        files: vec![PreparedFile {
            name: format!("{stem}.svg"),
            content_type: "image/svg+xml",
            width,
            data: text.into_bytes(),
        }],
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn types_come_from_the_bytes() {
        assert_eq!(sniff(b"%PDF-1.7\n"), Sniffed::Pdf);
        assert_eq!(
            sniff(b"\x89PNG\r\n\x1a\n rest"),
            Sniffed::Raster(Format::Png)
        );
        assert_eq!(
            sniff(b"\xEF\xBB\xBF<?xml version=\"1.0\"?>\n<!-- hi -->\n<!DOCTYPE svg>\n<svg xmlns=\"\"/>"),
            Sniffed::Svg
        );
        for other in [
            &b"hello, this is text"[..],
            b"<html><svg></svg></html>",
            b"<svgfoo>",
            b"",
            b"BM\x00\x00",
        ] {
            assert_eq!(sniff(other), Sniffed::Unknown, "{other:?}");
        }
    }

    #[test]
    fn widths_never_exceed_the_original() {
        assert_eq!(widths_for(200), [200]);
        assert_eq!(widths_for(320), [320]);
        assert_eq!(widths_for(700), [320, 400, 480, 640, 700]);
        assert_eq!(widths_for(4000), WIDTHS);
        assert!(widths_for(959).len() <= 6);
    }

    #[test]
    fn svg_scripts_handlers_and_outside_references_are_gone() {
        let dirty = br##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
            width="40" height="20" onload="alert(1)">
          <script>alert(2)</script>
          <a href="javascript:alert(3)"><rect width="10" height="10" fill="red" onclick="alert(4)"/></a>
          <foreignObject width="10" height="10"><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>
          <image href="/etc/passwd" width="5" height="5"/>
          <image xlink:href="https://evil.example/x.png" width="5" height="5"/>
          <use href="https://evil.example/s.svg#a"/>
        </svg>"##;
        let (clean, width, height) = sanitize_svg(dirty).unwrap();
        assert_eq!((width, height), (40, 20));
        for gone in [
            "script",
            "alert",
            "onload",
            "onclick",
            "javascript",
            "foreignObject",
            "evil",
            "passwd",
        ] {
            assert!(!clean.contains(gone), "{gone} in {clean}");
        }
        assert!(
            clean.contains("<path") || clean.contains("<rect"),
            "{clean}"
        );
    }

    /// A small PNG whose header claims `width` x `height` pixels (its CRC made right).
    fn png_claiming(width: u32, height: u32) -> Vec<u8> {
        use image::ImageEncoder;
        let mut png = Vec::new();
        image::codecs::png::PngEncoder::new(&mut png)
            .write_image(&[0u8; 3 * 8 * 8], 8, 8, image::ExtendedColorType::Rgb8)
            .unwrap();
        // IHDR: length (8..12), type (12..16), width (16..20), height (20..24), .., CRC (29..33).
        png[16..20].copy_from_slice(&width.to_be_bytes());
        png[20..24].copy_from_slice(&height.to_be_bytes());
        let mut crc = flate2::Crc::new();
        crc.update(&png[12..29]);
        png[29..33].copy_from_slice(&crc.sum().to_be_bytes());
        png
    }

    #[test]
    fn a_decompression_bomb_is_refused_before_it_is_decoded() {
        // 9000 x 9000 RGB is 243 MB of pixels from a file of a few dozen bytes.
        let refused = prepare(&png_claiming(9000, 9000)).unwrap_err();
        assert!(refused.0.contains("too large"), "{refused:?}");
        let refused = prepare(&png_claiming(MAX_SIDE + 1, 1)).unwrap_err();
        assert!(refused.0.contains("too large"), "{refused:?}");
    }
}
