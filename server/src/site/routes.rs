//! The client routes, which the app shell answers (`/login`, `/dashboard`): listed by the build,
//! matched as the browser's router matches them.

use super::built::{contains, file};

/// The client routes as URL patterns (`/`, `/login`, `/posts/:id`, `/docs/*`), listed by the
/// build from `web/src/routes.tsx` into `routes.json`, and matched as React Router matches them:
/// segment by segment, ignoring case, percent-decoding and a trailing slash.
#[derive(Debug)]
pub(super) struct Routes {
    /// Each pattern, split into segments; `None` when the build has no list, which makes every
    /// path a route (the behaviour before the list existed) rather than a 404.
    patterns: Option<Vec<Vec<String>>>,
}

impl Routes {
    pub(super) fn from_build() -> Self {
        let patterns = file("routes.json").and_then(|json| {
            serde_json::from_slice::<Vec<String>>(json)
                .inspect_err(|e| tracing::warn!("routes.json is not a list of paths: {e}"))
                .ok()
        });
        if patterns.is_none() && contains("index.html") {
            tracing::warn!("the built site has no routes.json: every path is answered as a route");
        }
        Self::new(patterns)
    }

    fn new(patterns: Option<Vec<String>>) -> Self {
        let patterns = patterns.map(|patterns| {
            patterns
                .iter()
                .map(|pattern| segments(pattern).map(str::to_lowercase).collect())
                .collect()
        });
        Self { patterns }
    }

    pub(super) fn matches(&self, path: &str) -> bool {
        let Some(patterns) = &self.patterns else {
            return true;
        };
        let path: Vec<String> = segments(path)
            .map(|segment| percent_decode(segment).to_lowercase())
            .collect();
        let path: Vec<&str> = path.iter().map(String::as_str).collect();
        patterns
            .iter()
            .any(|pattern| matches_segments(pattern, &path))
    }
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/').filter(|segment| !segment.is_empty())
}

/// React Router's segments: `*` takes the rest (even nothing), `:name` any one segment, and a
/// trailing `?` makes a segment optional; anything else is literal.
fn matches_segments(pattern: &[String], path: &[&str]) -> bool {
    let Some((first, rest)) = pattern.split_first() else {
        return path.is_empty();
    };
    if first == "*" {
        return true;
    }
    let (segment, optional) = match first.strip_suffix('?') {
        Some(segment) => (segment, true),
        None => (first.as_str(), false),
    };
    let here = path
        .first()
        .is_some_and(|actual| segment.starts_with(':') || segment == *actual);
    (here && matches_segments(rest, &path[1..])) || (optional && matches_segments(rest, path))
}

/// `%XX` escapes decoded, as the browser's router decodes a path before matching it (a broken
/// escape is kept as it is).
fn percent_decode(segment: &str) -> String {
    percent_encoding::percent_decode_str(segment)
        .decode_utf8_lossy()
        .into_owned()
}

#[cfg(test)]
mod tests {
    use super::{percent_decode, Routes};

    fn routes(patterns: &[&str]) -> Routes {
        Routes::new(Some(patterns.iter().map(|p| (*p).to_owned()).collect()))
    }

    #[test]
    fn static_routes_match_as_the_client_router_matches_them() {
        let routes = routes(&["/", "/login", "/dashboard"]);
        for path in [
            "/",
            "/login",
            "/login/",
            "/Login",
            "/dashboard",
            "/log%69n",
            "//login",
        ] {
            assert!(routes.matches(path), "{path}");
        }
        for path in [
            "/no-such-page",
            "/login/extra",
            "/dashboard/x",
            "/logi",
            "/%",
        ] {
            assert!(!routes.matches(path), "{path}");
        }
    }

    #[test]
    fn parameters_optional_segments_and_splats_match() {
        let routes = routes(&["/posts/:id", "/docs/*", "/:lang?/about", "/shop/new?"]);
        assert!(routes.matches("/posts/42"));
        assert!(!routes.matches("/posts"));
        assert!(!routes.matches("/posts/42/comments"));
        assert!(routes.matches("/docs"));
        assert!(routes.matches("/docs/a/b/c"));
        assert!(routes.matches("/about"));
        assert!(routes.matches("/en/about"));
        assert!(!routes.matches("/en/fr/about"));
        assert!(routes.matches("/shop"));
        assert!(routes.matches("/shop/new"));
        assert!(!routes.matches("/shop/old"));
    }

    #[test]
    fn without_a_list_every_path_is_a_route() {
        assert!(Routes::new(None).matches("/anything/at/all"));
    }

    #[test]
    fn percent_escapes_are_decoded_and_broken_ones_kept() {
        assert_eq!(percent_decode("caf%C3%A9"), "café");
        assert_eq!(percent_decode("100%"), "100%");
        assert_eq!(percent_decode("%zz"), "%zz");
    }
}
