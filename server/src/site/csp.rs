//! The Content-Security-Policy a page is served with: the strict default, and a page's own,
//! which also allows its inline `<style>` and `<script>` elements by their hashes, taken here
//! when the page is made. `http::layers::security` sets it on every answer.

use axum::http::HeaderValue;
use base64::Engine as _;
use sha2::{Digest, Sha256};

/// Scripts and styles only from our own origin, no plugins, no framing. Inline `style`
/// attributes set through React's `style` prop go through the CSSOM and need no
/// `'unsafe-inline'`. JSON data blocks (the document, the JSON-LD) are data, never run. A page's
/// inline `<style>` and `<script>` elements are allowed by their hashes, added for the page that
/// carries them by [`content_security_policy`]; never by `'unsafe-inline'`.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     manifest-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; \
     form-action 'self'";

/// The CSP hash sources (`sha256-` and the base64 of the SHA-256, without quotes) of a page's
/// inline elements: what its Content-Security-Policy must list for the browser to apply them
/// (taken from a page by [`inline_hashes`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct InlineHashes {
    /// Each `<style>` element's text.
    pub styles: Vec<String>,
    /// Each `<script>` element the browser runs that has no `src`: its `type` absent (or empty),
    /// `module` or `text/javascript`. Data blocks (`application/json`, `application/ld+json`)
    /// never run and are left out.
    pub scripts: Vec<String>,
}

impl InlineHashes {
    pub fn is_empty(&self) -> bool {
        self.styles.is_empty() && self.scripts.is_empty()
    }
}

/// In a response's extensions: the policy of a page with inline elements, made once with the
/// page (not per answer), which the layer serves in place of the strict default.
#[derive(Clone, Debug)]
pub struct PagePolicy(HeaderValue);

impl PagePolicy {
    /// The policy allowing exactly these inline elements; none when there are none (the default
    /// policy then serves).
    pub fn for_page(inline: &InlineHashes) -> Option<Self> {
        (!inline.is_empty()).then(|| {
            Self(
                HeaderValue::from_str(&content_security_policy(inline))
                    .expect("base64 hashes keep the policy a valid header value"),
            )
        })
    }

    /// The policy itself: a response that carries it as its `Content-Security-Policy` keeps it
    /// (see `http::layers::security::Headers::set_on`), as one in the extensions would, without the extensions' map
    /// made for each answer (the site's pages; a page framed by the site needs the extension).
    pub fn value(&self) -> HeaderValue {
        self.0.clone()
    }
}

/// The policy with `script-src` and `style-src` also allowing a page's inline elements, each by
/// its hash source (`'sha256-…'`, see [`inline_hashes`]); never `'unsafe-inline'`.
pub fn content_security_policy(inline: &InlineHashes) -> String {
    let with = |directive: &str, hashes: &[String]| {
        let mut sources = directive.to_owned();
        for hash in hashes {
            sources.push_str(" '");
            sources.push_str(hash);
            sources.push('\'');
        }
        sources
    };
    CONTENT_SECURITY_POLICY
        .replacen(
            "script-src 'self'",
            &with("script-src 'self'", &inline.scripts),
            1,
        )
        .replacen(
            "style-src 'self'",
            &with("style-src 'self'", &inline.styles),
            1,
        )
}

/// The hash sources of the inline `<style>` and `<script>` elements of `html`, each taken over
/// the element's exact text as the browser does, in the order they come, without repeats. The
/// pages are our build's output, which writes the elements in lower case.
pub fn inline_hashes(html: &[u8]) -> InlineHashes {
    let html = String::from_utf8_lossy(html);
    let mut hashes = InlineHashes::default();
    for (_, text) in elements(&html, "style") {
        push_hash(&mut hashes.styles, text);
    }
    for (attributes, text) in elements(&html, "script") {
        let runs = attribute(attributes, "src").is_none()
            && attribute(attributes, "type").is_none_or(|kind| {
                let kind = kind.trim().to_ascii_lowercase();
                kind.is_empty() || kind == "module" || kind == "text/javascript"
            });
        if runs {
            push_hash(&mut hashes.scripts, text);
        }
    }
    hashes
}

fn push_hash(hashes: &mut Vec<String>, text: &str) {
    let digest = Sha256::digest(text.as_bytes());
    let hash = format!(
        "sha256-{}",
        base64::engine::general_purpose::STANDARD.encode(digest)
    );
    if !hashes.contains(&hash) {
        hashes.push(hash);
    }
}

/// Each `<name …>…</name>` element of `html`: its opening tag's attributes and its text.
fn elements<'a>(html: &'a str, name: &str) -> Vec<(&'a str, &'a str)> {
    let (open, close) = (format!("<{name}"), format!("</{name}"));
    let mut found = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find(&open) {
        rest = &rest[start + open.len()..];
        if !rest.starts_with(['>', ' ', '\t', '\n', '\r', '/']) {
            continue; // another element whose name begins with this one's
        }
        let Some(open_end) = rest.find('>') else {
            break;
        };
        let attributes = &rest[..open_end];
        rest = &rest[open_end + 1..];
        let Some(end) = rest.find(&close) else {
            break;
        };
        found.push((attributes, &rest[..end]));
        rest = &rest[end..];
    }
    found
}

/// The value of the attribute `name` in an opening tag's attributes (empty for one without a
/// value), `None` when it is absent. Names are matched ignoring case, as HTML does.
fn attribute<'a>(attributes: &'a str, name: &str) -> Option<&'a str> {
    static ATTRIBUTE: std::sync::OnceLock<regex::Regex> = std::sync::OnceLock::new();
    ATTRIBUTE
        .get_or_init(|| {
            regex::Regex::new(r#"([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?"#)
                .expect("a valid pattern")
        })
        .captures_iter(attributes)
        .find(|found| found[1].eq_ignore_ascii_case(name))
        .map(|found| {
            found
                .get(2)
                .or_else(|| found.get(3))
                .or_else(|| found.get(4))
                .map_or("", |value| value.as_str())
        })
}

#[cfg(test)]
mod tests {
    use super::inline_hashes;

    #[test]
    fn each_inline_style_is_hashed_over_its_exact_text() {
        // Known values: `printf '%s' 'body{color:red}' | openssl dgst -sha256 -binary | base64`.
        let html = b"<head><style>body{color:red}</style><stylesheet></stylesheet>\
            <style media=\"print\">\n</style><style>body{color:red}</style></head>";
        assert_eq!(
            inline_hashes(html).styles,
            [
                "sha256-FcQqt3aNlV7AZnGV4zkQRVeCeJOxbMPnQSx258L803E=",
                "sha256-AbpHGcgLb+kRsJGnwFEktk7uzpZOCcBY74+YBdrKVGs=",
            ]
        );
        assert!(inline_hashes(b"<p>no style</p>").is_empty());
    }

    #[test]
    fn inline_scripts_that_run_are_hashed_and_data_blocks_and_files_are_not() {
        // `printf '%s' 'alert(1)' | openssl dgst -sha256 -binary | base64`
        let alert = "sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=";
        for script in [
            "<script>alert(1)</script>",
            "<script type=\"module\">alert(1)</script>",
            "<script type='text/javascript'>alert(1)</script>",
            "<script TYPE=\"Module\" nonce>alert(1)</script>",
            "<script type=\"\">alert(1)</script>",
        ] {
            let hashes = inline_hashes(script.as_bytes());
            assert_eq!(hashes.scripts, [alert], "{script}");
            assert!(hashes.styles.is_empty());
        }
        for script in [
            "<script type=\"application/json\" id=\"page-data\">alert(1)</script>",
            "<script type=\"application/json\" id=\"page-data\" src=\"/page-data.json\"></script>",
            "<script type=\"application/ld+json\">alert(1)</script>",
            "<script type=\"module\" crossorigin src=\"/assets/index.js\"></script>",
            "<script src=/a.js>alert(1)</script>",
            "<scripts>alert(1)</scripts>",
            "<noscript>alert(1)</noscript>",
        ] {
            assert!(inline_hashes(script.as_bytes()).is_empty(), "{script}");
        }
        // The text between the tags exactly, whitespace and all; one hash for repeats.
        let page = "<head><script>\nalert(1)\n</script><script>alert(1)</script>\
                    <script>alert(1)</script></head>";
        assert_eq!(inline_hashes(page.as_bytes()).scripts.len(), 2);
    }
}
