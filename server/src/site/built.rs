//! The site's build (`web/dist/`), embedded in the binary, and how its files are cached.

/// The site's files; the render bundle and the page templates (`.render/`), the server's own
/// (`content::render`), are not among them, never served.
pub(super) use crate::embedded::SITE as Site;

pub(super) const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub(super) const REVALIDATE: &str = "no-cache";
/// Whether the built site holds a file of this name (used by tests and the pre-renderer checks).
pub fn contains(name: &str) -> bool {
    Site.get(name).is_some()
}

/// The original bytes of an embedded file.
pub fn file(name: &str) -> Option<&'static [u8]> {
    Site.get(name)
}
