//! The site's answers without the router: on the main listener, a request for any address that
//! is not a route's (see `crate::addresses::is_routed`) is answered here, on the connection's own thread, from
//! memory ([`crate::site::answer`]), with what the router's layers give every answer: the
//! security headers, the request id and the request's log line. The router's stack (its boxed
//! services, the layers' futures, the route lookup) cost a tenth of a static answer's CPU
//! (issue 32); everything else still goes through it.

use std::net::SocketAddr;

use axum::body::Body;
use axum::http::{header, HeaderValue, Method, Request, StatusCode};
use axum::response::Response;

use crate::http::layers::request_log::{Begun, TrustRequestId};
use crate::http::layers::security;
use crate::http::state::AppState;
use crate::serve::Front;

use crate::addresses::is_routed;

/// The main listener's [`Front`]: the site.
pub struct SiteFront {
    state: AppState,
    security: security::Headers,
    trusted: TrustRequestId,
}

impl SiteFront {
    /// `https` and `trusted` as the router's layers have them (see `http::main_listener`).
    pub fn new(state: AppState, https: bool, trusted: TrustRequestId) -> Self {
        Self {
            state,
            security: security::Headers::new(https),
            trusted,
        }
    }
}

impl Front for SiteFront {
    fn answer(
        &self,
        request: &Request<hyper::body::Incoming>,
        peer: SocketAddr,
    ) -> Option<Response> {
        let path = request.uri().path();
        if is_routed(path) {
            return None;
        }
        let begun = Begun::start(&self.trusted, request, Some(peer.ip()));
        let mut response =
            crate::site::answer(&self.state.pages, &self.state.links.directory, request);
        if request.method() == Method::HEAD {
            headers_only(&mut response);
        }
        self.security.set_on(&mut response);
        begun.finish(request.method(), path, None, &mut response);
        Some(response)
    }
}

/// A HEAD request's answer: the GET's headers, `Content-Length` included, and no body. The
/// router does the same for its routes; hyper leaves it to the service, and over HTTP/2 a body
/// sent after HEAD is a protocol error that clients report as a failed request.
fn headers_only(response: &mut Response) {
    let length = http_body::Body::size_hint(response.body()).exact();
    let bodiless = matches!(
        response.status(),
        StatusCode::NOT_MODIFIED | StatusCode::NO_CONTENT
    );
    if let Some(length) = length.filter(|_| !bodiless) {
        response
            .headers_mut()
            .entry(header::CONTENT_LENGTH)
            .or_insert_with(|| HeaderValue::from(length));
    }
    *response.body_mut() = Body::empty();
}

#[cfg(test)]
mod tests {
    use super::is_routed;

    #[test]
    fn every_route_of_the_api_and_the_sites_own_are_left_to_the_router() {
        let (_, openapi) = crate::http::api::api("portfolio_session");
        let paths: Vec<String> = openapi.paths.paths.keys().cloned().collect();
        assert!(paths.len() > 20, "the API's description lists its routes");
        for path in paths
            .iter()
            .map(String::as_str)
            .chain(["/api", "/api/openapi.json", "/api/nothing/here"])
            .chain(["/healthz", "/readyz", "/resume.pdf", "/media/photo.webp"])
            .chain(["/.well-known/security.txt"])
        {
            assert!(is_routed(path), "{path} is a route's");
        }
    }

    #[test]
    fn the_sites_addresses_are_answered_here() {
        for path in [
            "/",
            "/index.html",
            "/de/",
            "/a/some-link",
            "/assets/index-abc.js",
            "/login",
            "/dashboard",
            "/og-image.png",
            "/apiary",
            "/media",
            "/no/such/page",
        ] {
            assert!(!is_routed(path), "{path} is the site's");
        }
    }
}
