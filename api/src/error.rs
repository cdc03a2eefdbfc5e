//! One error type for every handler, rendered in the API's JSON envelope.
//!
//! Errors answer `{"status":N,"message":"…","errors":[{"field":"…","message":"…"}],"meta":…}`.
//! Validation errors carry one entry per field and repeat the first field's message as the
//! top-level message, so a client that shows only `message` still says something useful.
//! Unexpected failures are logged once with their cause chain and answered with the
//! generic "Error. Try again later".

use axum::{
    Json,
    http::{HeaderValue, StatusCode, header},
    response::{IntoResponse, Response},
};
use serde::Serialize;
use serde_json::Value;
use utoipa::ToSchema;

pub use searchdeck_common::FieldError;

/// The error envelope as serialized.
#[derive(Debug, Serialize, ToSchema)]
pub struct ErrorBody {
    pub status: u16,
    pub message: String,
    pub errors: Vec<FieldError>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub meta: Option<Value>,
}

/// Every way a request can fail.
#[derive(Debug)]
pub enum ApiError {
    /// An expected failure with its status and message.
    Status {
        status: StatusCode,
        message: String,
        errors: Vec<FieldError>,
        meta: Option<Value>,
        retry_after: Option<u64>,
    },
    /// Anything unexpected; logged, never shown.
    Internal(anyhow::Error),
}

pub type ApiResult<T> = Result<T, ApiError>;

/// Generic message of internal errors (docs/product.md#8-internal-errors).
pub const INTERNAL_MESSAGE: &str = "Error. Try again later";
/// Message of a request turned away because the server is saturated.
pub const BUSY_MESSAGE: &str = "The server is busy. Try again in a moment";
/// `Retry-After` of that answer, in seconds.
pub const BUSY_RETRY_AFTER_SECS: u64 = 2;
/// Message of requests without a valid session (docs/product.md#8-generic-mapping, relogin).
pub const UNAUTHORIZED_MESSAGE: &str = "Unauthorized";

impl ApiError {
    pub fn status(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError::Status {
            status,
            message: message.into(),
            errors: Vec::new(),
            meta: None,
            retry_after: None,
        }
    }

    pub fn bad_request(message: impl Into<String>) -> ApiError {
        ApiError::status(StatusCode::BAD_REQUEST, message)
    }

    /// 400 with field errors; the first field's message becomes the top-level message.
    pub fn validation(errors: Vec<FieldError>) -> ApiError {
        let message = errors
            .first()
            .map(|e| e.message.clone())
            .unwrap_or_else(|| "Invalid request".into());
        ApiError::Status {
            status: StatusCode::BAD_REQUEST,
            message,
            errors,
            meta: None,
            retry_after: None,
        }
    }

    pub fn field(field: &str, message: &str) -> ApiError {
        ApiError::validation(vec![FieldError::new(field, message)])
    }

    pub fn unauthorized(message: impl Into<String>) -> ApiError {
        ApiError::status(StatusCode::UNAUTHORIZED, message)
    }

    pub fn forbidden() -> ApiError {
        ApiError::status(StatusCode::FORBIDDEN, "Access restricted")
    }

    pub fn not_found(what: &str) -> ApiError {
        ApiError::status(StatusCode::NOT_FOUND, format!("{what} not found"))
    }

    pub fn too_many_requests(message: impl Into<String>, retry_after_secs: u64) -> ApiError {
        ApiError::Status {
            status: StatusCode::TOO_MANY_REQUESTS,
            message: message.into(),
            errors: Vec::new(),
            meta: None,
            retry_after: Some(retry_after_secs.max(1)),
        }
    }

    /// 503 with `Retry-After`: the server is saturated (e.g. every password-hashing permit is
    /// taken); the client should retry shortly.
    pub fn busy() -> ApiError {
        ApiError::Status {
            status: StatusCode::SERVICE_UNAVAILABLE,
            message: BUSY_MESSAGE.into(),
            errors: Vec::new(),
            meta: None,
            retry_after: Some(BUSY_RETRY_AFTER_SECS),
        }
    }

    /// A plan limit (docs/product.md#8-limit-reached): message `LIMIT_HAS_BEEN_REACHED` with
    /// `meta.type`.
    pub fn limit_reached(kind: &str) -> ApiError {
        ApiError::Status {
            status: StatusCode::FORBIDDEN,
            message: "LIMIT_HAS_BEEN_REACHED".into(),
            errors: Vec::new(),
            meta: Some(serde_json::json!({ "type": kind })),
            retry_after: None,
        }
    }
}

impl From<anyhow::Error> for ApiError {
    fn from(err: anyhow::Error) -> ApiError {
        ApiError::Internal(err)
    }
}

/// A report that has no answer: bad input is 400 with its fields, a caller gone 499, data
/// replaced while it was read 503 (try again). The report route's and the totals routes'.
impl From<searchdeck_common::report::ReportError> for ApiError {
    fn from(err: searchdeck_common::report::ReportError) -> ApiError {
        use searchdeck_common::report::ReportError;
        match err {
            ReportError::Invalid(errors) => ApiError::validation(errors),
            ReportError::Cancelled => ApiError::status(
                StatusCode::from_u16(499).expect("499 is a status code"),
                "Report cancelled",
            ),
            ReportError::Changing => ApiError::status(
                StatusCode::SERVICE_UNAVAILABLE,
                "The report's data is being updated. Try again in a moment.",
            ),
            ReportError::Db(e) => ApiError::from(e),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(err: sqlx::Error) -> ApiError {
        ApiError::Internal(err.into())
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let (status, body, retry_after) = match self {
            ApiError::Status {
                status,
                message,
                errors,
                meta,
                retry_after,
            } => (
                status,
                ErrorBody {
                    status: status.as_u16(),
                    message,
                    errors,
                    meta,
                },
                retry_after,
            ),
            ApiError::Internal(err) => {
                tracing::error!(error = format!("{err:#}"), "request failed");
                let status = StatusCode::INTERNAL_SERVER_ERROR;
                let body = ErrorBody {
                    status: 500,
                    message: INTERNAL_MESSAGE.into(),
                    errors: Vec::new(),
                    meta: None,
                };
                (status, body, None)
            }
        };
        let mut response = (status, Json(body)).into_response();
        if let Some(secs) = retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(secs));
        }
        response
    }
}

impl searchdeck_common::db::AsBusy for ApiError {
    fn is_busy(&self) -> bool {
        match self {
            ApiError::Internal(e) => e.is_busy(),
            ApiError::Status { .. } => false,
        }
    }
}
