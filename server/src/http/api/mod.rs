//! The API's resources, one module per resource, merged under `/api` with the OpenAPI document
//! generated from their annotations.

pub mod case_studies;
pub mod checklist;
pub mod contact;
pub mod content;
pub mod conversation;
pub mod delivery;
pub mod digest;
pub mod entries;
pub mod follow_ups;
pub mod health;
pub mod import;
pub mod inbox;
pub mod insights;
pub mod links;
pub mod media;
pub mod passkeys;
pub mod posts;
pub mod recovery;
pub mod responses;
pub mod resume;
pub mod second_factor;
pub mod session;
pub mod well_known;

use axum::Router;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, SecurityScheme};
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use crate::error::ErrorBody;
use crate::http::state::AppState;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Portfolio API",
        description = "Contact messages and the owner's inbox."
    ),
    components(schemas(ErrorBody))
)]
struct ApiDoc;

/// The security scheme of the owner's session cookie. Every operation whose handler takes the
/// `Owner` extractor (401 without a session) names it: `security(("session" = []))` in its
/// `#[utoipa::path]`; the public ones name none.
pub const SESSION_SCHEME: &str = "session";

/// The API's routes, with the OpenAPI document generated from their annotations;
/// `session_cookie` is the name this server gives its session cookie
/// ([`crate::auth::session::cookie_name`]).
pub fn api(session_cookie: &str) -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let (router, mut openapi) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .nest(
            "/api",
            OpenApiRouter::new()
                .merge(contact::router())
                .merge(session::router())
                .merge(second_factor::router())
                .merge(passkeys::router())
                .merge(recovery::router())
                .merge(inbox::router())
                .merge(conversation::router())
                .merge(delivery::router())
                .merge(insights::router())
                .merge(links::router())
                .merge(follow_ups::router())
                .merge(digest::router())
                .merge(content::router())
                .merge(resume::router())
                .merge(import::router())
                .merge(case_studies::router())
                .merge(posts::router())
                .merge(checklist::router())
                .merge(media::router()),
        )
        .split_for_parts();
    openapi
        .components
        .get_or_insert_with(Default::default)
        .add_security_scheme(
            SESSION_SCHEME,
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                session_cookie,
                "The owner's session: set by signing in (`POST /api/session`, `POST \
                 /api/session/code` or `POST /api/session/passkey/finish`), HttpOnly and \
                 SameSite=Strict, `__Host-` prefixed over HTTPS.",
            ))),
        );
    (router, openapi)
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// The API's description as `/api/openapi.json` serves it, committed as
    /// `web/src/api/openapi.json` (indented) for the web's generated types
    /// (`openapi.generated.ts`, written from it by `make generate`); this fails when it no
    /// longer matches the routes' annotations, and writes it when UPDATE_API_DESCRIPTION is set.
    #[test]
    fn the_web_copy_of_the_description_is_up_to_date() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../web/src/api/openapi.json");
        // The cookie's name over plain HTTP ([`crate::auth::session::cookie_name`]); only the
        // security scheme's name changes with it.
        let (_, openapi) = super::api("portfolio_session");
        let mut expected = openapi
            .to_pretty_json()
            .expect("the API's description serialises");
        expected.push('\n');
        if std::env::var_os("UPDATE_API_DESCRIPTION").is_some() {
            std::fs::write(&path, &expected).expect("the description is written");
            return;
        }
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        assert!(
            committed == expected,
            "web/src/api/openapi.json is stale: regenerate it with `make generate` \
             (UPDATE_API_DESCRIPTION=1 cargo test --locked --lib http::api::tests) and commit it"
        );
    }
}
