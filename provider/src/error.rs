//! Classified errors: retryable (5xx, timeouts, connection failures), rate-limited (429 with
//! the wait the server asked for), permanent (other 4xx with Apple's code and message), and
//! per-item outcomes of bulk calls that succeed as a whole.

use std::time::Duration;

use serde::Deserialize;

/// Why a call failed.
#[derive(Debug, Clone, thiserror::Error)]
pub enum ProviderError {
    /// Try again later with backoff.
    #[error("retryable provider error ({status:?}): {message}")]
    Retryable {
        status: Option<u16>,
        message: String,
    },
    /// Try again after `retry_after`, without counting an attempt.
    #[error("rate limited; retry after {retry_after:?}")]
    RateLimited { retry_after: Duration },
    /// Do not retry: the request is wrong or not allowed.
    #[error("provider rejected the request ({status} {code}): {message}")]
    Permanent {
        status: u16,
        code: String,
        message: String,
        /// Codes of the error's `details` (e.g. `DUPLICATE_KEYWORD`, `ENTITY_DELETED`).
        details: Vec<String>,
        /// The request field the first detail naming one names (`info.field`, e.g.
        /// `bidStrategy.bid`).
        field: Option<String>,
    },
    /// The token endpoint refused the credentials.
    #[error("authentication failed: {0}")]
    Auth(String),
    /// The response did not have the expected shape.
    #[error("unexpected provider response: {0}")]
    Decode(String),
}

impl ProviderError {
    /// Whether a permanent error carries detail `code`.
    pub fn has_detail(&self, code: &str) -> bool {
        matches!(self, ProviderError::Permanent { details, .. } if details.iter().any(|d| d == code))
    }

    /// Whether the request was refused because the entity already exists.
    pub fn is_duplicate(&self) -> bool {
        matches!(self, ProviderError::Permanent { details, .. } if details.iter().any(|d| d.starts_with("DUPLICATE_")))
    }

    /// Whether a retry can help.
    pub fn is_retryable(&self) -> bool {
        matches!(
            self,
            ProviderError::Retryable { .. } | ProviderError::RateLimited { .. }
        )
    }
}

/// The reference's `Error` object.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct ApiErrorBody {
    pub code: String,
    pub message: Option<String>,
    #[serde(default)]
    pub details: Option<Vec<ApiErrorDetail>>,
}

/// One entry of an `Error`'s `details`.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct ApiErrorDetail {
    pub code: String,
    pub message: Option<String>,
    /// Where the detail applies (`{"field": "bid"}`).
    #[serde(default)]
    pub info: Option<serde_json::Value>,
}

impl ApiErrorDetail {
    /// The request field this detail names, if any.
    pub fn field(&self) -> Option<&str> {
        self.info.as_ref()?.get("field")?.as_str()
    }
}

/// One item of a bulk call: its correlation id and its own outcome.
#[derive(Debug, Clone)]
pub struct BulkItem<T> {
    pub correlation_id: Option<i64>,
    pub outcome: Result<T, ApiErrorBody>,
}
