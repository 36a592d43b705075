//! One error type for the API. Client mistakes become 4xx answers that name the field;
//! anything unexpected is logged with its whole cause chain and answered with an opaque 500.

use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

use crate::domain::FieldErrors;

pub type Result<T, E = ApiError> = std::result::Result<T, E>;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("some fields are not valid")]
    Validation(FieldErrors),
    #[error("{message}")]
    BadRequest { code: &'static str, message: String },
    #[error("the request body is too large")]
    PayloadTooLarge,
    #[error("the request body must be JSON")]
    UnsupportedMediaType,
    #[error("sign in to continue")]
    Unauthorized,
    #[error("{0}")]
    Forbidden(String),
    /// A change that asks for the password or a passkey again, within the last few minutes.
    #[error("Confirm it is you: enter your password or use a passkey, then try again.")]
    ReauthenticationRequired,
    /// A sign-in step refused (a pending sign-in expired or used, a passkey refused): 401 with
    /// its own code, so a page can tell it from a missing session.
    #[error("{message}")]
    SignInRefused { code: &'static str, message: String },
    #[error("not found")]
    NotFound,
    #[error("this method is not allowed here")]
    MethodNotAllowed,
    #[error("the request took too long")]
    RequestTimeout,
    #[error("{message}")]
    TooManyRequests {
        retry_after_secs: u64,
        message: String,
    },
    #[error("{0}")]
    Conflict(String),
    /// A conditional request sent without its condition (e.g. `If-Match`).
    #[error("{0}")]
    PreconditionRequired(String),
    /// A condition that does not hold (e.g. `If-Match` with a weak tag, which strong comparison
    /// never matches).
    #[error("{0}")]
    PreconditionFailed(String),
    /// Busy for a moment (e.g. every password-hashing slot taken): try again after a while.
    #[error("{message}")]
    ServiceUnavailable {
        retry_after_secs: u64,
        message: String,
    },
    /// The database cannot take writes for now (a full disk, an I/O error, a database server
    /// gone away): nothing was stored; the same request may work in a moment.
    #[error("We could not save this just now. Please try again in a moment.")]
    StorageUnavailable(anyhow::Error),
    #[error(transparent)]
    Unexpected(anyhow::Error),
}

/// Seconds a client is told to wait after a `503 storage_unavailable`.
pub const STORAGE_RETRY_AFTER_SECS: u64 = 5;

impl From<anyhow::Error> for ApiError {
    fn from(error: anyhow::Error) -> Self {
        if crate::store::fault::is_storage_unavailable(&error) {
            Self::StorageUnavailable(error)
        } else {
            Self::Unexpected(error)
        }
    }
}

/// Set on a response that a storage fault made, so that the layer holding the store can turn
/// readiness off (see [`crate::store::health`]).
#[derive(Debug, Clone, Copy)]
pub struct StorageFault;

impl ApiError {
    /// A 422 for one field.
    pub fn field(name: &str, problem: impl Into<String>) -> Self {
        let mut fields = FieldErrors::new();
        fields.insert(name.to_owned(), problem.into());
        Self::Validation(fields)
    }

    pub fn status(&self) -> StatusCode {
        match self {
            Self::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            Self::BadRequest { .. } => StatusCode::BAD_REQUEST,
            Self::PayloadTooLarge => StatusCode::PAYLOAD_TOO_LARGE,
            Self::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            Self::Unauthorized => StatusCode::UNAUTHORIZED,
            Self::Forbidden(_) | Self::ReauthenticationRequired => StatusCode::FORBIDDEN,
            Self::SignInRefused { .. } => StatusCode::UNAUTHORIZED,
            Self::NotFound => StatusCode::NOT_FOUND,
            Self::MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            Self::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            Self::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            Self::Conflict(_) => StatusCode::CONFLICT,
            Self::PreconditionRequired(_) => StatusCode::PRECONDITION_REQUIRED,
            Self::PreconditionFailed(_) => StatusCode::PRECONDITION_FAILED,
            Self::ServiceUnavailable { .. } | Self::StorageUnavailable(_) => {
                StatusCode::SERVICE_UNAVAILABLE
            }
            Self::Unexpected(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    fn code(&self) -> &'static str {
        match self {
            Self::Validation(_) => "validation_failed",
            Self::BadRequest { code, .. } => code,
            Self::PayloadTooLarge => "payload_too_large",
            Self::UnsupportedMediaType => "unsupported_media_type",
            Self::Unauthorized => "unauthorized",
            Self::Forbidden(_) => "forbidden",
            Self::ReauthenticationRequired => "reauthentication_required",
            Self::SignInRefused { code, .. } => code,
            Self::NotFound => "not_found",
            Self::MethodNotAllowed => "method_not_allowed",
            Self::RequestTimeout => "request_timeout",
            Self::TooManyRequests { .. } => "too_many_requests",
            Self::Conflict(_) => "conflict",
            Self::PreconditionRequired(_) => "precondition_required",
            Self::PreconditionFailed(_) => "precondition_failed",
            Self::ServiceUnavailable { .. } => "service_unavailable",
            Self::StorageUnavailable(_) => "storage_unavailable",
            Self::Unexpected(_) => "internal_error",
        }
    }
}

/// The stable JSON shape of every error: `{"error": {"code", "message", "fields"?}}`.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorDetail,
}

#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct ErrorDetail {
    /// Machine-readable kind, e.g. `validation_failed`.
    pub code: String,
    /// A sentence fit to show to a person.
    pub message: String,
    /// For `validation_failed`: each failing field and why.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fields: Option<FieldErrors>,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let message = match &self {
            Self::Unexpected(cause) => {
                // One line with the cause chain; never a backtrace.
                tracing::error!(error = %format!("{cause:#}"), "request failed unexpectedly");
                "Something went wrong on our side. Please try again in a moment.".to_owned()
            }
            Self::StorageUnavailable(cause) => {
                tracing::error!(error = %format!("{cause:#}"), "storage unavailable: the request was refused with 503");
                self.to_string()
            }
            Self::Validation(fields) if fields.len() == 1 => {
                let (name, problem) = fields.iter().next().expect("one field");
                // A problem said as a sentence of its own is the message as it is.
                if problem.starts_with(char::is_uppercase) {
                    problem.clone()
                } else {
                    format!("{name}: {problem}")
                }
            }
            Self::Validation(_) => "Some fields are not valid.".to_owned(),
            other => other.to_string(),
        };
        let fields = match self {
            Self::Validation(ref fields) => Some(fields.clone()),
            _ => None,
        };
        let body = ErrorBody {
            error: ErrorDetail {
                code: self.code().to_owned(),
                message,
                fields,
            },
        };
        let mut response = (status, Json(body)).into_response();
        if let Self::StorageUnavailable(_) = self {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(STORAGE_RETRY_AFTER_SECS),
            );
            response.extensions_mut().insert(StorageFault);
        }
        if let Self::TooManyRequests {
            retry_after_secs, ..
        }
        | Self::ServiceUnavailable {
            retry_after_secs, ..
        } = self
        {
            response.headers_mut().insert(
                header::RETRY_AFTER,
                HeaderValue::from(retry_after_secs.max(1)),
            );
        }
        response
    }
}

/// A wait for a 429's message, as people say it: seconds up to a minute and a half ("90
/// seconds"), whole minutes (rounded up) beyond; never less than one second.
pub fn human_wait(secs: u64) -> String {
    match secs {
        0..=1 => "1 second".to_owned(),
        2..=90 => format!("{secs} seconds"),
        _ => format!("{} minutes", secs.div_ceil(60)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unexpected_error_never_reveals_its_cause() {
        let response =
            ApiError::Unexpected(anyhow::anyhow!("secret database path")).into_response();
        assert_eq!(response.status(), StatusCode::INTERNAL_SERVER_ERROR);
    }

    #[test]
    fn a_full_disk_is_a_503_with_retry_after_and_a_stable_code() {
        let error: ApiError = anyhow::Error::new(sqlx::Error::PoolTimedOut)
            .context("Failed to store a message")
            .into();
        assert_eq!(error.code(), "storage_unavailable");
        let response = error.into_response();
        assert_eq!(response.status(), StatusCode::SERVICE_UNAVAILABLE);
        assert_eq!(response.headers()[header::RETRY_AFTER], "5");
        assert!(response.extensions().get::<StorageFault>().is_some());
    }

    #[test]
    fn too_many_requests_carries_retry_after() {
        let response = ApiError::TooManyRequests {
            retry_after_secs: 42,
            message: "slow down".into(),
        }
        .into_response();
        assert_eq!(response.headers()[header::RETRY_AFTER], "42");
    }

    #[test]
    fn waits_read_as_people_say_them() {
        assert_eq!(human_wait(0), "1 second");
        assert_eq!(human_wait(1), "1 second");
        assert_eq!(human_wait(2), "2 seconds");
        assert_eq!(human_wait(90), "90 seconds");
        assert_eq!(human_wait(91), "2 minutes");
        assert_eq!(human_wait(120), "2 minutes");
        assert_eq!(human_wait(121), "3 minutes");
    }
}
