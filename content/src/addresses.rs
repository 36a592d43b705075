//! The server's own addresses, listed once. [`ROUTED`] is what the router routes (the API, the
//! health checks, the resume, the uploaded media, `security.txt`): the router's routes are made
//! from these names, and the main listener's front leaves every address of the list to the router
//! ([`is_routed`]). [`SITE_OWN`] is the site's own first segments (the app's pages, the build's
//! files, the links' pages). No language's path (`/de/`) may begin with either ([`is_reserved`]).

/// The API: `/api` and everything under it.
pub const API: &str = "/api";
/// The liveness check.
pub const HEALTHZ: &str = "/healthz";
/// The readiness check.
pub const READYZ: &str = "/readyz";
/// The owner's resume: the uploaded one, or the one made from the page.
pub const RESUME_PATH: &str = "/resume.pdf";
/// The uploaded media: `/media/<file>`.
pub const MEDIA_PREFIX: &str = "/media/";
/// RFC 9116's contact file.
pub const SECURITY_TXT: &str = "/.well-known/security.txt";
/// An application link's page: `/a/<slug>`, answered by the site.
pub const LINK_PREFIX: &str = "/a/";

/// An address the router routes.
#[derive(Debug, Clone, Copy)]
pub enum Routed {
    /// This path alone.
    Exact(&'static str),
    /// This path and every path under it (`/api`, `/api/…`).
    Tree(&'static str),
    /// Every path that begins with this (`/media/…`, but not `/media`).
    Prefix(&'static str),
    /// This path under one segment or under a link's address (`/de/resume.pdf`,
    /// `/a/<slug>/resume.pdf`), but not itself.
    Under(&'static str),
}

impl Routed {
    pub fn matches(self, path: &str) -> bool {
        match self {
            Self::Exact(exact) => path == exact,
            Self::Tree(root) => path
                .strip_prefix(root)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('/')),
            Self::Prefix(prefix) => path.starts_with(prefix),
            Self::Under(file) => path
                .strip_suffix(file)
                .and_then(|dir| dir.strip_prefix('/'))
                .is_some_and(|dir| {
                    let one = |segment: &str| !segment.is_empty() && !segment.contains('/');
                    one(dir)
                        || dir
                            .strip_prefix(LINK_PREFIX.trim_start_matches('/'))
                            .is_some_and(one)
                }),
        }
    }

    /// The first segment of its paths (`api`, `healthz`, `.well-known`); empty for paths under
    /// any segment.
    pub fn first_segment(self) -> &'static str {
        let (Self::Exact(path) | Self::Tree(path) | Self::Prefix(path)) = self else {
            return "";
        };
        path.trim_start_matches('/')
            .split('/')
            .next()
            .unwrap_or_default()
    }
}

/// Every address the router routes. A route added to the router (`http/mod.rs`) outside these
/// must be added here, or the site would answer its address (a test checks every route of the
/// API's description). Taking more than the routes is harmless: the router's fallback is the site.
pub const ROUTED: [Routed; 7] = [
    Routed::Tree(API),
    Routed::Exact(HEALTHZ),
    Routed::Exact(READYZ),
    Routed::Exact(RESUME_PATH),
    Routed::Under(RESUME_PATH),
    Routed::Prefix(MEDIA_PREFIX),
    Routed::Exact(SECURITY_TXT),
];

/// The first segment of a case study's page, `/projects/<slug>/` (or under a language's page).
pub const CASE_STUDY_SEGMENT: &str = "projects";

/// The site's own first segments: the app's pages (`/login`, `/dashboard`), the build's files
/// (`/assets/…`), the links' pages (`/a/<slug>`) and the case studies' (`/projects/<slug>/`,
/// [`CASE_STUDY_SEGMENT`]).
pub const SITE_OWN: [&str; 5] = ["login", "dashboard", "assets", "a", CASE_STUDY_SEGMENT];

/// Whether `path` is a route's: the router answers it, not the site's front.
pub fn is_routed(path: &str) -> bool {
    ROUTED.iter().any(|routed| routed.matches(path))
}

/// Whether a language's path segment (`de`, in lower case) would take the server's own addresses.
pub fn is_reserved(segment: &str) -> bool {
    ROUTED
        .iter()
        .map(|routed| routed.first_segment())
        .chain(SITE_OWN)
        .any(|own| own == segment)
}

#[cfg(test)]
mod tests {
    use super::{is_reserved, is_routed, LINK_PREFIX};

    #[test]
    fn the_lists_first_segments_are_reserved_for_the_server() {
        for segment in [
            "api",
            "media",
            "healthz",
            "readyz",
            "login",
            "dashboard",
            "assets",
            "a",
        ] {
            assert!(is_reserved(segment), "{segment}");
        }
        for segment in ["de", "pt-br", "ap", "apis", "mediae"] {
            assert!(!is_reserved(segment), "{segment}");
        }
        assert!(is_reserved(LINK_PREFIX.trim_matches('/')));
    }

    #[test]
    fn a_tree_takes_its_root_and_what_is_under_it_and_nothing_beside_it() {
        assert!(is_routed("/api"));
        assert!(is_routed("/api/"));
        assert!(is_routed("/api/session"));
        assert!(!is_routed("/apiary"));
        assert!(!is_routed("/media"));
        assert!(is_routed("/media/a.webp"));
        assert!(!is_routed("/healthz/"));
    }

    #[test]
    fn a_resume_is_routed_under_a_language_and_a_link_and_nowhere_else() {
        assert!(is_routed("/resume.pdf"));
        assert!(is_routed("/de/resume.pdf"));
        assert!(is_routed("/a/acme-0123/resume.pdf"));
        assert!(!is_routed("/de/x/resume.pdf"));
        assert!(!is_routed("/a//resume.pdf"));
        assert!(!is_routed("//resume.pdf"));
        assert!(!is_routed("/de/resume.json"));
    }
}
