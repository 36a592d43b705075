//! `ApiJson`: axum's `Json` extractor with our error shape, so malformed JSON, a wrong
//! content type, an oversized body or an unknown field get a clear 4xx that names the field.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde::Serialize;

use crate::error::ApiError;

#[derive(Debug, Clone, Copy, Default)]
pub struct ApiJson<T>(pub T);

impl<T, S> FromRequest<S> for ApiJson<T>
where
    T: DeserializeOwned,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request(req: Request, state: &S) -> Result<Self, Self::Rejection> {
        let is_json = req
            .headers()
            .get(header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .and_then(|v| v.split(';').next())
            .is_some_and(|mime| {
                let mime = mime.trim().to_ascii_lowercase();
                mime == "application/json"
                    || (mime.starts_with("application/") && mime.ends_with("+json"))
            });
        if !is_json {
            return Err(ApiError::UnsupportedMediaType);
        }

        let bytes = Bytes::from_request(req, state)
            .await
            .map_err(body_rejected)?;
        crate::json::parse(&bytes).map(ApiJson)
    }
}

/// A body that could not be read: 413 past the route's limit, else 400.
pub fn body_rejected(rejection: axum::extract::rejection::BytesRejection) -> ApiError {
    if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE {
        ApiError::PayloadTooLarge
    } else {
        ApiError::BadRequest {
            code: "unreadable_body",
            message: "The request body could not be read.".into(),
        }
    }
}

impl<T: Serialize> IntoResponse for ApiJson<T> {
    fn into_response(self) -> Response {
        axum::Json(self.0).into_response()
    }
}
