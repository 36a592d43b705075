//! `ApiQuery`: axum's `Query` extractor with our error shape, so a query string that does not fit
//! is a 422 naming the parameter rather than a plain-text 400.

use axum::extract::rejection::QueryRejection;
use axum::extract::{FromRequestParts, Query};
use axum::http::request::Parts;
use serde::de::DeserializeOwned;

use crate::error::ApiError;

#[derive(Debug, Clone, Copy, Default)]
pub struct ApiQuery<T>(pub T);

/// How an endpoint's query parameters answer a query string that does not deserialize. The
/// default names the unknown parameter; an endpoint whose parameters have one message of their
/// own (such as "must be 7, 30 or 90") says so by overriding `rejected`.
pub trait QueryParams: DeserializeOwned {
    fn rejected(rejection: &QueryRejection) -> ApiError {
        unknown_parameter(rejection)
    }
}

impl<T, S> FromRequestParts<S> for ApiQuery<T>
where
    T: QueryParams + Send,
    S: Send + Sync,
{
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, state: &S) -> Result<Self, Self::Rejection> {
        match Query::<T>::from_request_parts(parts, state).await {
            Ok(Query(value)) => Ok(Self(value)),
            Err(rejection) => Err(T::rejected(&rejection)),
        }
    }
}

/// Whether the query string named a parameter the endpoint does not take.
pub fn is_unknown_parameter(rejection: &QueryRejection) -> bool {
    rejection.body_text().contains("unknown field")
}

/// A query string that names a parameter the endpoint does not take: a 422 naming it (serde's
/// wording is "unknown field `x`"), or naming `query` when the rejection says nothing clearer.
pub fn unknown_parameter(rejection: &QueryRejection) -> ApiError {
    let text = rejection.body_text();
    let name = text
        .split('`')
        .nth(1)
        .filter(|_| text.contains("unknown field"))
        .unwrap_or("query");
    ApiError::field(name, "is not a known parameter")
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
    #[serde(deny_unknown_fields)]
    struct Page {
        limit: Option<u32>,
    }
    impl QueryParams for Page {}

    #[derive(serde::Deserialize)]
    #[serde(deny_unknown_fields)]
    struct Range {
        #[allow(dead_code)]
        days: Option<u64>,
    }
    impl QueryParams for Range {
        fn rejected(rejection: &QueryRejection) -> ApiError {
            if is_unknown_parameter(rejection) {
                unknown_parameter(rejection)
            } else {
                ApiError::field("days", "must be 7, 30 or 90")
            }
        }
    }

    async fn answer(app: &Router, uri: &str) -> (StatusCode, serde_json::Value) {
        let response = app
            .clone()
            .oneshot(Request::get(uri).body(Body::empty()).unwrap())
            .await
            .unwrap();
        let status = response.status();
        let body = axum::body::to_bytes(response.into_body(), 4096)
            .await
            .unwrap();
        let json: serde_json::Value = serde_json::from_slice(&body).unwrap_or_default();
        (status, json["error"]["fields"].clone())
    }

    #[tokio::test]
    async fn a_bad_query_is_a_json_422_naming_the_parameter() {
        let app = Router::new()
            .route(
                "/page",
                get(|ApiQuery(page): ApiQuery<Page>| async move {
                    page.limit.unwrap_or(50).to_string()
                }),
            )
            .route("/range", get(|ApiQuery(_): ApiQuery<Range>| async { "ok" }));
        let (status, fields) = answer(&app, "/page?limit=5&admin=1").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(fields["admin"], "is not a known parameter");
        let (status, fields) = answer(&app, "/page?limit=many").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(fields["query"], "is not a known parameter");
        let (status, fields) = answer(&app, "/range?days=many").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(fields["days"], "must be 7, 30 or 90");
        let (status, fields) = answer(&app, "/range?weeks=1").await;
        assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY);
        assert_eq!(fields["weeks"], "is not a known parameter");
        let (status, _) = answer(&app, "/page?limit=5").await;
        assert_eq!(status, StatusCode::OK);
    }
}
