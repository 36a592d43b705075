//! The site's build (`web/dist/`), embedded in the binary, and how its files are cached.

use rust_embed::RustEmbed;

#[derive(RustEmbed)]
#[folder = "../web/dist/"]
#[exclude = ".vite/*"]
// The render bundle and the page templates: the server's own (`content::render`), never served.
#[exclude = ".render/*"]
pub(super) struct Site;

pub(super) const IMMUTABLE: &str = "public, max-age=31536000, immutable";
pub(super) const REVALIDATE: &str = "no-cache";
/// Whether the built site holds a file of this name (used by tests and the pre-renderer checks).
pub fn contains(name: &str) -> bool {
    Site::get(name).is_some()
}

/// The original bytes of an embedded file.
pub fn file(name: &str) -> Option<std::borrow::Cow<'static, [u8]>> {
    Site::get(name).map(|f| f.data)
}
