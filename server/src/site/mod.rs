//! The React site, embedded in the binary at build time and served with the right caching
//! and a precompressed body chosen by `Accept-Encoding`. The HTML pages, `robots.txt` and
//! `sitemap.xml` carry the public URL, rendered into them once at start-up. The client routes
//! come from the build (`routes.json`), so a path that is neither a route nor a file is a 404.
//! The landing page's stylesheet and the head's scheme script are inline: each HTML page's inline
//! styles and scripts are hashed when the page is made ([`csp`]), and the hashes go with every
//! answer that serves it, so the CSP on that answer allows exactly them.
//!
//! The published pages are one map from path to page ([`Pages`]): `/` and each published
//! language's `/<tag>/`, filled by `content::render` through [`PageSink`]; a link's page
//! (`/a/<slug>`) is its language's entry. A new kind of page is an entry, not a new branch. What a
//! request is answered with is in [`answer`]; the files as sent in `asset` and `page`.

mod answer;
mod asset;
mod built;
pub mod csp;
mod page;
mod pages;
mod routes;

pub use answer::{answer, respond, respond_at};
pub use asset::GeneratedFile;
pub use built::{contains, file};
pub use csp::inline_hashes;
pub use pages::Pages;

#[cfg(test)]
mod tests;
