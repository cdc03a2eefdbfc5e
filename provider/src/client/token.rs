//! The access token: exchanged for the signed client secret at the token endpoint (through
//! the limiter, under the credentials' own key), cached until five minutes before it
//! expires, and forgotten on a 401 so the next request exchanges again.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;

use super::Client;
use super::classify::{retry_after, transport};
use crate::error::ProviderError;
use crate::limiter::{RateLimitInfo, credential_key};

pub(super) struct CachedToken {
    access_token: String,
    refresh_at: Instant,
}

/// Refresh this long before the token expires.
const REFRESH_MARGIN: Duration = Duration::from_secs(300);

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    expires_in: u64,
}

impl Client {
    /// A valid access token, exchanging credentials when none is cached or it is due.
    pub(super) async fn token(&self) -> Result<String, ProviderError> {
        let mut cached = self.token.lock().await;
        if let Some(t) = cached.as_ref().filter(|t| t.refresh_at > Instant::now()) {
            return Ok(t.access_token.clone());
        }
        let form = self
            .credentials
            .token_form(OffsetDateTime::now_utc().unix_timestamp());
        let key = credential_key(self.credentials.client_id());
        self.config.gate.acquire(&key).await?;
        let started = Instant::now();
        self.config.metrics.token_exchange();
        let sent = self
            .http
            .post(&self.config.token_url)
            .form(&form)
            .send()
            .await;
        let response = match sent {
            Ok(r) => r,
            Err(e) => {
                self.config.metrics.request(0);
                self.config
                    .gate
                    .observe(&key, &RateLimitInfo::default())
                    .await;
                return Err(transport(e));
            }
        };
        let status = response.status();
        self.config.metrics.request(status.as_u16());
        let info = RateLimitInfo::from_headers(status.as_u16(), response.headers());
        self.config.gate.observe(&key, &info).await;
        tracing::info!(
            client_id = self.credentials.client_id(),
            status = status.as_u16(),
            duration_ms = started.elapsed().as_millis() as u64,
            "provider token exchange"
        );
        if status == StatusCode::TOO_MANY_REQUESTS {
            return Err(ProviderError::RateLimited {
                retry_after: retry_after(&info),
            });
        }
        if status.is_server_error() {
            return Err(ProviderError::Retryable {
                status: Some(status.as_u16()),
                message: "token endpoint failed".into(),
            });
        }
        if !status.is_success() {
            let body: Value = response.json().await.unwrap_or(Value::Null);
            let reason = body["error_description"]
                .as_str()
                .or(body["error"].as_str())
                .unwrap_or("rejected")
                .to_string();
            return Err(ProviderError::Auth(reason));
        }
        let token: TokenResponse = response
            .json()
            .await
            .map_err(|e| ProviderError::Decode(format!("token response: {e}")))?;
        let lifetime = Duration::from_secs(token.expires_in).saturating_sub(REFRESH_MARGIN);
        *cached = Some(CachedToken {
            access_token: token.access_token.clone(),
            refresh_at: Instant::now() + lifetime,
        });
        Ok(token.access_token)
    }

    pub(super) async fn forget_token(&self) {
        *self.token.lock().await = None;
    }
}
