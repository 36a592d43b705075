//! The `Owner` extractor: the signed-in owner of a request, from its session cookie.

use axum::extract::{FromRef, FromRequestParts};
use axum::http::request::Parts;
use axum_extra::extract::CookieJar;

use crate::auth::session::{owner_from, Owner};
use crate::error::ApiError;
use crate::http::state::AppState;

impl<S> FromRequestParts<S> for Owner
where
    AppState: FromRef<S>,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        let state = AppState::from_ref(state);
        let jar = CookieJar::from_headers(&parts.headers);
        owner_from(&state.db, &state.settings, &jar, state.auth.now_ms()).await
    }
}
