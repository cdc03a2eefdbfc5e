//! Apple's answers classified: a transport failure or a 5xx is retryable, a 429 is rate
//! limited for as long as the headers say, any other refusal is permanent with Apple's
//! error code, details and the field it names.

use std::time::Duration;

use reqwest::StatusCode;
use serde_json::Value;

use crate::error::{ApiErrorBody, ProviderError};
use crate::limiter::RateLimitInfo;

pub(super) fn transport(e: reqwest::Error) -> ProviderError {
    ProviderError::Retryable {
        status: None,
        message: if e.is_timeout() {
            format!("timeout: {e}")
        } else {
            e.to_string()
        },
    }
}

/// `Retry-After`, else `RateLimit-Reset`, else one second (at least one second).
pub(super) fn retry_after(info: &RateLimitInfo) -> Duration {
    info.retry_after
        .or(info.reset)
        .unwrap_or(Duration::from_secs(1))
        .max(Duration::from_secs(1))
}

/// Maps a response to its body or a classified error.
pub(super) fn classify(
    status: StatusCode,
    info: &RateLimitInfo,
    body: Value,
) -> Result<Value, ProviderError> {
    if status.is_success() {
        return Ok(body);
    }
    if status == StatusCode::TOO_MANY_REQUESTS {
        return Err(ProviderError::RateLimited {
            retry_after: retry_after(info),
        });
    }
    let error = if body.get("error").is_some_and(Value::is_object) {
        &body["error"]
    } else {
        &body
    };
    let parsed: Option<ApiErrorBody> = serde_json::from_value(error.clone()).ok();
    let message = parsed
        .as_ref()
        .and_then(|e| e.message.clone())
        .unwrap_or_else(|| status.to_string());
    if status.is_server_error() || status == StatusCode::REQUEST_TIMEOUT {
        return Err(ProviderError::Retryable {
            status: Some(status.as_u16()),
            message,
        });
    }
    let details = parsed
        .as_ref()
        .and_then(|e| e.details.as_ref())
        .map(|d| d.iter().map(|x| x.code.clone()).collect())
        .unwrap_or_default();
    let field = parsed
        .as_ref()
        .and_then(|e| e.details.as_ref())
        .and_then(|d| d.iter().find_map(|x| x.field().map(str::to_string)));
    Err(ProviderError::Permanent {
        status: status.as_u16(),
        code: parsed
            .map(|e| e.code)
            .unwrap_or_else(|| status.as_str().to_string()),
        message,
        details,
        field,
    })
}
