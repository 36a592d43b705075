//! Security headers set on every response: the site's, the API's, the 404s and the redirects.

use axum::http::{header, HeaderName, HeaderValue};
use axum::Router;
use tower_http::set_header::SetResponseHeaderLayer;

/// Scripts and styles only from our own origin; no inline script, no plugins, no framing.
/// Inline `style` attributes set through React's `style` prop go through the CSSOM and need no
/// `'unsafe-inline'`; the build emits no `<style>` element. JSON-LD blocks are data, never run.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; \
     style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
     manifest-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; \
     form-action 'self'";

/// Every powerful feature off: the portfolio needs none of them.
pub const PERMISSIONS_POLICY: &str = "accelerometer=(), autoplay=(), camera=(), \
     display-capture=(), encrypted-media=(), fullscreen=(), geolocation=(), gyroscope=(), \
     hid=(), idle-detection=(), magnetometer=(), microphone=(), midi=(), payment=(), \
     picture-in-picture=(), publickey-credentials-get=(), screen-wake-lock=(), serial=(), \
     usb=(), xr-spatial-tracking=()";

/// Two years, subdomains included: the value the preload list asks for.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=63072000; includeSubDomains";

/// The headers, as (name, value) pairs; `Strict-Transport-Security` only when `https`.
pub fn headers(https: bool) -> Vec<(HeaderName, HeaderValue)> {
    let mut headers = vec![
        (
            header::CONTENT_SECURITY_POLICY,
            HeaderValue::from_static(CONTENT_SECURITY_POLICY),
        ),
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            HeaderValue::from_static("same-origin"),
        ),
        (
            HeaderName::from_static("cross-origin-resource-policy"),
            HeaderValue::from_static("same-origin"),
        ),
        (
            HeaderName::from_static("permissions-policy"),
            HeaderValue::from_static(PERMISSIONS_POLICY),
        ),
        // Older browsers ignore `frame-ancestors`; this says the same to them.
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
    ];
    if https {
        headers.push((
            header::STRICT_TRANSPORT_SECURITY,
            HeaderValue::from_static(STRICT_TRANSPORT_SECURITY),
        ));
    }
    headers
}

/// Wraps `router` so that every response it gives carries the security headers.
pub fn apply<S: Clone + Send + Sync + 'static>(router: Router<S>, https: bool) -> Router<S> {
    headers(https)
        .into_iter()
        .fold(router, |router, (name, value)| {
            router.layer(SetResponseHeaderLayer::overriding(name, value))
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_policy_allows_no_inline_or_evaluated_script() {
        assert!(!CONTENT_SECURITY_POLICY.contains("unsafe"));
        for directive in [
            "default-src 'self'",
            "object-src 'none'",
            "base-uri 'none'",
            "frame-ancestors 'none'",
            "form-action 'self'",
        ] {
            assert!(CONTENT_SECURITY_POLICY.contains(directive), "{directive}");
        }
    }

    #[test]
    fn hsts_is_only_sent_over_https() {
        let has_hsts = |https| {
            headers(https)
                .iter()
                .any(|(name, _)| name == header::STRICT_TRANSPORT_SECURITY)
        };
        assert!(has_hsts(true));
        assert!(!has_hsts(false));
    }
}
