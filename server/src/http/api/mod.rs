//! The API's resources, one module per resource, merged under `/api` with the OpenAPI document
//! generated from their annotations.

pub mod contact;
pub mod content;
pub mod delivery;
pub mod health;
pub mod inbox;
pub mod insights;
pub mod links;
pub mod media;
pub mod passkeys;
pub mod recovery;
pub mod second_factor;
pub mod session;
pub mod well_known;

use axum::Router;
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

/// The API's routes, with the OpenAPI document generated from their annotations.
pub fn api() -> (Router<AppState>, utoipa::openapi::OpenApi) {
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .nest(
            "/api",
            OpenApiRouter::new()
                .merge(contact::router())
                .merge(session::router())
                .merge(second_factor::router())
                .merge(passkeys::router())
                .merge(recovery::router())
                .merge(inbox::router())
                .merge(delivery::router())
                .merge(insights::router())
                .merge(links::router())
                .merge(content::router())
                .merge(media::router()),
        )
        .split_for_parts()
}
