//! The feeds the server writes, each checked by a tool outside the server: Atom against RFC
//! 4287's schema with xmllint ([`validate_atom`]), RSS as feedparser reads it ([`check_rss`]) and
//! JSON Feed 1.1 ([`check_json_feed`]), both by `server/tests/feeds/check_feed.py` in the
//! project's venv. Each panics with the tool's words, and the feed, when the feed fails.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The repository's root: the server crate's parent.
fn repo() -> &'static Path {
    Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// `text` in a temporary file of its own (removed when dropped), for a tool that reads files.
fn temp_file(text: &str, suffix: &str) -> tempfile::NamedTempFile {
    let mut file = tempfile::Builder::new()
        .prefix("feed-")
        .suffix(suffix)
        .tempfile()
        .expect("a temporary file for the feed");
    file.write_all(text.as_bytes())
        .and_then(|()| file.flush())
        .expect("the feed in its temporary file");
    file
}

/// Checks an Atom document (a feed, or an entry of its own) against RFC 4287's RELAX NG schema,
/// `server/tests/feeds/atom.rng`, with `xmllint --relaxng` (Debian's libxml2-utils, which `make
/// xmllint` installs). Panics with xmllint's output when it is not valid. The schema's Schematron
/// rules (an author for each entry, an entry's alternate link or content) are not checked.
pub fn validate_atom(xml: &str) {
    let file = temp_file(xml, ".xml");
    let output = Command::new("xmllint")
        .args(["--noout", "--relaxng"])
        .arg(repo().join("server/tests/feeds/atom.rng"))
        .arg(file.path())
        .output()
        .expect("xmllint runs (Debian's libxml2-utils: make xmllint)");
    assert!(
        output.status.success(),
        "the Atom feed is not valid by RFC 4287's schema:\n{}{}\nthe feed:\n{xml}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
}

/// The Python of the project's venv, `target/fuzz-venv` (where `scripts/python-venv.sh` always
/// puts it), which has feedparser: the script builds it, or builds it again when it is stale,
/// once per test process; the script's own lock keeps two processes from building it together.
fn venv_python() -> &'static Path {
    static PYTHON: OnceLock<PathBuf> = OnceLock::new();
    PYTHON.get_or_init(|| {
        let output = Command::new(repo().join("scripts/python-venv.sh"))
            .output()
            .expect("scripts/python-venv.sh runs (it needs python3-venv: make python-venv)");
        assert!(
            output.status.success(),
            "scripts/python-venv.sh failed:\n{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        repo().join("target/fuzz-venv/bin/python")
    })
}

/// `check_feed.py <kind>` on `feed`: its summary, or a panic with what it says failed.
fn check_feed(kind: &str, feed: &str, suffix: &str) -> serde_json::Value {
    let file = temp_file(feed, suffix);
    let output = Command::new(venv_python())
        .arg(repo().join("server/tests/feeds/check_feed.py"))
        .arg(kind)
        .arg(file.path())
        .output()
        .expect("the venv's Python runs");
    assert!(
        output.status.success(),
        "the {kind} feed fails its check:\n{}\nthe feed:\n{feed}",
        String::from_utf8_lossy(&output.stderr)
    );
    serde_json::from_slice(&output.stdout).unwrap_or_else(|error| {
        panic!(
            "check_feed.py {kind} printed no JSON ({error}):\n{}",
            String::from_utf8_lossy(&output.stdout)
        )
    })
}

/// Reads an RSS feed as feedparser does; panics when feedparser finds it ill-formed or not RSS,
/// when the channel has no title or link, or when an item has no title, link, date or content
/// (`content:encoded`, or its description). Returns what a reader finds: `{"title", "items":
/// [{"title", "link", "published", "content"}]}`, text unescaped, `published` in UTC as
/// `YYYY-MM-DDTHH:MM:SSZ`.
pub fn check_rss(xml: &str) -> serde_json::Value {
    check_feed("rss", xml, ".xml")
}

/// Checks a JSON Feed 1.1 document (its version, title and items; each item's unique string
/// `id` and `content_html` or `content_text`; dates in RFC 3339; authors with a name, url or
/// avatar; the other fields' types); panics saying what is wrong. Returns the same shape as
/// [`check_rss`], from the feed's `title` and each item's `title`, `url`, `date_published` (as
/// written) and `content_html`, `null` where the item has none.
pub fn check_json_feed(json: &str) -> serde_json::Value {
    check_feed("json", json, ".json")
}
