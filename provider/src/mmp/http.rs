//! One GET of a reporting API with the retries every provider's client shares: a 429 waits
//! `Retry-After` (seconds or an HTTP date; one second without it) and tries again without
//! spending an attempt, up to [`MmpConfig::max_wait`] in all; a 5xx or a transport failure
//! backs off and spends one; the answer of any other status is the caller's to read.

use std::time::Duration;

use reqwest::{RequestBuilder, StatusCode, header};

use super::{MmpConfig, MmpError};

/// Most 429s waited out in one call, however short their `Retry-After`.
const MAX_RATE_LIMITED: u32 = 20;

/// A finished exchange: the status and the body as text.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: StatusCode,
    pub body: String,
}

/// Sends the request `build` makes until it is answered with something else than a 429 or
/// a 5xx, or the attempts or the patience run out.
pub async fn send(
    config: &MmpConfig,
    build: impl Fn() -> RequestBuilder,
) -> Result<Answer, MmpError> {
    let mut attempt = 0u32;
    let mut limited = 0u32;
    let mut waited = Duration::ZERO;
    loop {
        let failure = match build().send().await {
            Ok(response) => {
                let status = response.status();
                if status == StatusCode::TOO_MANY_REQUESTS {
                    let retry_after = retry_after(response.headers());
                    limited += 1;
                    if limited > MAX_RATE_LIMITED || waited + retry_after > config.max_wait {
                        return Err(MmpError::RateLimited { retry_after });
                    }
                    tracing::debug!(?retry_after, "reporting API rate limited; waiting");
                    waited += retry_after;
                    tokio::time::sleep(retry_after).await;
                    continue;
                }
                let body = response.text().await.unwrap_or_default();
                if !status.is_server_error() {
                    return Ok(Answer { status, body });
                }
                MmpError::Retryable {
                    status: Some(status.as_u16()),
                    message: format!("the reporting API answered {status}"),
                }
            }
            Err(e) => MmpError::Retryable {
                status: None,
                message: if e.is_timeout() {
                    "the reporting API did not answer in time".to_string()
                } else {
                    "the reporting API could not be reached".to_string()
                },
            },
        };
        attempt += 1;
        if attempt >= config.max_attempts {
            return Err(failure);
        }
        tokio::time::sleep(config.backoff.delay_after(attempt)).await;
    }
}

/// `Retry-After` as seconds or as an HTTP date; one second when absent or unreadable, at
/// least one second.
pub fn retry_after(headers: &header::HeaderMap) -> Duration {
    let Some(value) = headers
        .get(header::RETRY_AFTER)
        .and_then(|v| v.to_str().ok())
    else {
        return Duration::from_secs(1);
    };
    let value = value.trim();
    if let Ok(secs) = value.parse::<u64>() {
        return Duration::from_secs(secs.max(1));
    }
    httpdate::parse_http_date(value)
        .ok()
        .and_then(|at| at.duration_since(std::time::SystemTime::now()).ok())
        .unwrap_or(Duration::from_secs(1))
        .max(Duration::from_secs(1))
}
