//! Files built into the binary: the site's build (`web/dist/`, without `.vite/` and `.render/`),
//! the server's own render files (`web/dist/.render/`) and each engine's migrations
//! (`server/migrations/<engine>/*.sql`). `build.rs` lists them, sorted by name, in
//! `$OUT_DIR/embedded.rs`; each is compiled in with `include_bytes!`.

/// A folder's files: (name relative to the folder, with `/`; bytes), sorted by name.
pub struct Folder(&'static [(&'static str, &'static [u8])]);

impl Folder {
    /// The bytes of the file of this name, if the folder has one.
    pub fn get(&self, name: &str) -> Option<&'static [u8]> {
        self.0
            .binary_search_by(|(file, _)| (*file).cmp(name))
            .ok()
            .map(|at| self.0[at].1)
    }

    /// Every file, by name.
    pub fn files(&self) -> impl Iterator<Item = (&'static str, &'static [u8])> {
        self.0.iter().copied()
    }
}

include!(concat!(env!("OUT_DIR"), "/embedded.rs"));

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_folders_hold_what_the_build_made_and_nothing_else() {
        assert!(SITE.get("index.html").is_some());
        assert!(SITE.get("index.html.br").is_some());
        assert!(SITE.get("nothing.html").is_none());
        assert!(SITE.files().all(|(name, _)| !name.starts_with(".render/")
            && !name.starts_with(".vite/")
            && !name.contains('\\')));
        assert!(SITE.files().any(|(name, _)| name.starts_with("assets/")));
        assert!(RENDER.get("render.js").is_some());
        let names: Vec<_> = SITE.files().map(|(name, _)| name).collect();
        assert!(
            names.windows(2).all(|pair| pair[0] < pair[1]),
            "sorted, so found by halving"
        );
        for (name, bytes) in SITE.files() {
            let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("../web/dist")
                .join(name);
            assert_eq!(std::fs::read(&path).unwrap(), bytes, "{name}");
        }
        for folder in [&SQLITE_MIGRATIONS, &POSTGRES_MIGRATIONS] {
            assert!(folder.files().count() >= 11);
            assert!(folder.files().all(|(name, _)| name.ends_with(".sql")));
        }
    }
}
