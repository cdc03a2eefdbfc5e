//! The reference's error bodies. Handlers return [`ApiError`]; the response carries it as
//! an extension and [`shape_errors`] writes the body in the shape the path's reference
//! schema uses: `{"error": Error}` (`ErrorResponse`) for most endpoints, a bare `Error` for
//! `/me`, `/acls`, reports, insights, search and change history (see [`bare_error`]).

use axum::extract::Request;
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use serde_json::{Value, json};

/// An error answered with the reference's `Error` object.
#[derive(Debug, Clone)]
pub struct ApiError {
    pub status: StatusCode,
    pub code: &'static str,
    pub message: String,
    /// `(code, message, field)` entries of `details`.
    pub details: Vec<(&'static str, String, Option<String>)>,
}

impl ApiError {
    pub fn new(status: StatusCode, code: &'static str, message: impl Into<String>) -> Self {
        Self {
            status,
            code,
            message: message.into(),
            details: Vec::new(),
        }
    }

    /// 400 INVALID_ARGUMENT with one detail naming the offending field.
    pub fn invalid(
        detail: &'static str,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> Self {
        let message = message.into();
        let mut e = Self::new(StatusCode::BAD_REQUEST, "INVALID_ARGUMENT", message.clone());
        e.details.push((detail, message, Some(field.into())));
        e
    }

    /// 400 for a required field that is absent.
    pub fn required(field: &str) -> Self {
        Self::invalid("FIELD_REQUIRED", field, format!("{field} is required"))
    }

    pub fn not_found(kind: &str, id: impl std::fmt::Display) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "NOT_FOUND",
            format!("{kind} {id} was not found"),
        )
    }

    pub fn unauthenticated(message: impl Into<String>) -> Self {
        Self::new(StatusCode::UNAUTHORIZED, "UNAUTHENTICATED", message)
    }

    pub fn forbidden(message: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "PERMISSION_DENIED", message)
    }

    /// The `Error` object.
    pub fn body(&self) -> Value {
        let details: Vec<Value> = self
            .details
            .iter()
            .map(|(code, message, field)| {
                let info = field.as_ref().map(|f| json!({ "field": f }));
                json!({ "code": code, "message": message, "info": info })
            })
            .collect();
        json!({ "code": self.code, "message": self.message, "details": if details.is_empty() { Value::Null } else { Value::Array(details) } })
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = self.status.into_response();
        response.extensions_mut().insert(self);
        response
    }
}

/// The JSON 404 of a path the sandbox does not serve (Apple answers unknown paths with an
/// error body too, never an empty one).
pub async fn unserved(uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "NOT_FOUND",
        format!("{} is not an API path", uri.path()),
    )
}

/// The JSON 405 of a served path called with a method it does not take.
pub async fn wrong_method(method: axum::http::Method, uri: axum::http::Uri) -> ApiError {
    ApiError::new(
        StatusCode::METHOD_NOT_ALLOWED,
        "METHOD_NOT_ALLOWED",
        format!("{method} is not allowed on {}", uri.path()),
    )
}

/// Whether the reference answers `status` on `path` (under `/v1`) with a bare `Error` rather
/// than an envelope holding it under `error` (`ErrorResponse` and the query envelopes).
pub fn bare_error(path: &str, status: u16) -> bool {
    let p = path.strip_prefix("/v1").unwrap_or(path);
    let always_bare = p == "/me"
        || p == "/acls"
        || ["/reports/", "/insights/", "/search/", "/change-history"]
            .iter()
            .any(|prefix| p.starts_with(prefix));
    if always_bare {
        return true;
    }
    // Envelope on 400 only for these queries, on 404 only for these lookups.
    if p == "/product-pages/query" || p == "/product-pages/locale-details/query" {
        return status != 400;
    }
    if p.starts_with("/product-pages/") || p.starts_with("/apps/") {
        return status != 404;
    }
    false
}

/// Writes the body of every [`ApiError`] response in the shape the path's schema uses.
pub async fn shape_errors(request: Request, next: Next) -> Response {
    let path = request.uri().path().to_string();
    let mut response = next.run(request).await;
    if let Some(error) = response.extensions_mut().remove::<ApiError>() {
        let body = if bare_error(&path, error.status.as_u16()) {
            error.body()
        } else {
            json!({ "error": error.body() })
        };
        let headers = response.headers().clone();
        response = (error.status, axum::Json(body)).into_response();
        for (name, value) in headers.iter() {
            if name != header::CONTENT_TYPE && name != header::CONTENT_LENGTH {
                response.headers_mut().insert(name, value.clone());
            }
        }
        response.headers_mut().insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("application/json"),
        );
    }
    response
}
