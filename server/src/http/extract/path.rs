//! `ApiPath`: axum's `Path` extractor with our error shape, so `/api/messages/abc` is a 422 that
//! names the parameter rather than a plain-text 400.

use axum::extract::path::ErrorKind;
use axum::extract::rejection::PathRejection;
use axum::extract::{FromRequestParts, Path};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

#[derive(Debug, Clone, Copy)]
pub struct ApiPath<T>(pub T);

impl<T, S> FromRequestParts<S> for ApiPath<T>
where
    T: DeserializeOwned + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Path::<T>::from_request_parts(parts, state).await {
            Ok(Path(value)) => Ok(Self(value)),
            Err(rejection) => Err(rejection_to_error(rejection)),
        }
    }
}

fn rejection_to_error(rejection: PathRejection) -> ApiError {
    let PathRejection::FailedToDeserializePathParams(error) = rejection else {
        // The route has no such parameters: a mistake of ours, not of the client.
        return ApiError::Unexpected(anyhow::anyhow!("path parameters: {rejection}"));
    };
    match error.into_kind() {
        ErrorKind::ParseErrorAtKey {
            key, expected_type, ..
        } => ApiError::field(&key, describe(expected_type)),
        ErrorKind::DeserializeError { key, message, .. } => ApiError::field(&key, message),
        ErrorKind::InvalidUtf8InPathParam { key } => ApiError::field(&key, "is not valid UTF-8"),
        ErrorKind::ParseError { expected_type, .. }
        | ErrorKind::ParseErrorAtIndex { expected_type, .. } => {
            ApiError::field("path", describe(expected_type))
        }
        other => ApiError::field("path", other.to_string()),
    }
}

fn describe(expected_type: &str) -> String {
    match expected_type {
        "i64" | "u64" | "i32" | "u32" => "must be a whole number".to_owned(),
        other => format!("must be a {other}"),
    }
}

#[cfg(test)]
mod tests {
    use axum::body::Body;
    use axum::http::{Request, StatusCode};
    use axum::routing::get;
    use axum::Router;
    use tower::ServiceExt;

    use super::*;

    #[derive(serde::Deserialize)]
    struct Id {
        id: i64,
    }

    #[tokio::test]
    async fn a_bad_parameter_is_a_json_422_naming_it() {
        let app = Router::new().route(
            "/messages/{id}",
            get(|ApiPath(Id { id }): ApiPath<Id>| async move { id.to_string() }),
        );
        for bad in ["abc", "99999999999999999999", "1.5"] {
            let response = app
                .clone()
                .oneshot(
                    Request::get(format!("/messages/{bad}"))
                        .body(Body::empty())
                        .unwrap(),
                )
                .await
                .unwrap();
            assert_eq!(response.status(), StatusCode::UNPROCESSABLE_ENTITY, "{bad}");
            let body = axum::body::to_bytes(response.into_body(), 4096)
                .await
                .unwrap();
            let json: serde_json::Value = serde_json::from_slice(&body).unwrap();
            assert_eq!(
                json["error"]["fields"]["id"], "must be a whole number",
                "{bad}"
            );
        }
    }
}
