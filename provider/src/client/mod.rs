//! The HTTP client: token exchange and cache (refreshed five minutes before expiry, and
//! once more on a 401), `X-AP-Context` per ad account, timeouts, `User-Agent`, the rate
//! limiter in front of every request (fed every response), tracing and metrics of every
//! call, and classification of failures into [`ProviderError`]. Its configuration, the
//! token cache and the classification of answers live in the files beside this one.

use std::sync::Arc;
use std::time::Instant;

use reqwest::{Method, StatusCode};
use serde_json::Value;
use time::OffsetDateTime;
use tokio::sync::Mutex;

use crate::credentials::Credentials;
use crate::error::ProviderError;
use crate::limiter::{RateGate, RateLimitInfo, account_key, credential_key};
use crate::metrics::ProviderMetrics;

mod classify;
mod config;
mod token;

use classify::{classify, transport};
pub use config::{ClientConfig, Observer, RetryPolicy};
use token::CachedToken;

/// An Apple Ads API client for one set of credentials.
pub struct Client {
    http: reqwest::Client,
    config: ClientConfig,
    credentials: Credentials,
    token: Mutex<Option<CachedToken>>,
    /// The provider's clock: the `Date` of its latest answer (unix seconds, 0 before any).
    server_date: std::sync::atomic::AtomicI64,
}

impl Client {
    pub fn new(config: ClientConfig, credentials: Credentials) -> Result<Self, ProviderError> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .user_agent(config.user_agent.clone())
            .build()
            .map_err(|e| ProviderError::Decode(format!("http client: {e}")))?;
        Ok(Client {
            http,
            config,
            credentials,
            token: Mutex::new(None),
            server_date: std::sync::atomic::AtomicI64::new(0),
        })
    }

    /// The provider's time as of its latest answer ([`crate::AppleAds::server_time`]).
    pub(crate) fn server_date(&self) -> Option<OffsetDateTime> {
        match self.server_date.load(std::sync::atomic::Ordering::Relaxed) {
            0 => None,
            at => OffsetDateTime::from_unix_timestamp(at).ok(),
        }
    }

    /// The retry policy in force.
    pub fn config_retry(&self) -> RetryPolicy {
        self.config.retry
    }

    /// The limiter this client waits on.
    pub fn gate(&self) -> &Arc<dyn RateGate> {
        &self.config.gate
    }

    /// The counters of this client's traffic.
    pub fn metrics(&self) -> &Arc<ProviderMetrics> {
        &self.config.metrics
    }

    /// Calls `method path` (relative to the API base) for `account`, returning the JSON
    /// body of a 2xx answer. Waits on the limiter first; 429s pause the key and are waited
    /// out; idempotent calls (GET, PUT, DELETE, POST `…/query`) are retried with backoff on
    /// retryable failures. Creates are not retried here (see `create_once`).
    pub async fn call(
        &self,
        method: Method,
        path: &str,
        account: Option<i64>,
        body: Option<&Value>,
    ) -> Result<Value, ProviderError> {
        let idempotent = method != Method::POST || path.ends_with("/query");
        self.call_with(method, path, account, body, idempotent)
            .await
    }

    /// [`Self::call`], retrying retryable failures only when `retry_failures`.
    pub async fn call_with(
        &self,
        method: Method,
        path: &str,
        account: Option<i64>,
        body: Option<&Value>,
        retry_failures: bool,
    ) -> Result<Value, ProviderError> {
        let text = self
            .call_text_with(method, path, account, body, retry_failures)
            .await?;
        Ok(serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    /// [`Self::call`] returning the body of a 2xx answer as it came, for callers that
    /// decode it into their own types (a report page of 5,000 rows of 15 days is hundreds
    /// of megabytes as [`Value`]s).
    pub async fn call_text(
        &self,
        method: Method,
        path: &str,
        account: Option<i64>,
        body: Option<&Value>,
    ) -> Result<String, ProviderError> {
        let idempotent = method != Method::POST || path.ends_with("/query");
        self.call_text_with(method, path, account, body, idempotent)
            .await
    }

    async fn call_text_with(
        &self,
        method: Method,
        path: &str,
        account: Option<i64>,
        body: Option<&Value>,
        retry_failures: bool,
    ) -> Result<String, ProviderError> {
        let key = match account {
            Some(id) => account_key(&id.to_string()),
            None => credential_key(self.credentials.client_id()),
        };
        let policy = self.config.retry;
        let (mut attempt, mut limited) = (1, 0);
        let outcome = loop {
            match self.send(method.clone(), path, account, body, &key).await {
                // The limiter has paused the key (for every process) until Retry-After; the
                // next acquire waits it out.
                Err(ProviderError::RateLimited { .. }) if limited < policy.max_rate_limited => {
                    limited += 1;
                    self.config.metrics.retry();
                }
                Err(ProviderError::Retryable { .. })
                    if retry_failures && attempt < policy.max_attempts =>
                {
                    tokio::time::sleep(policy.backoff(attempt)).await;
                    attempt += 1;
                    self.config.metrics.retry();
                }
                other => break other,
            }
        };
        self.config.metrics.finished(&outcome);
        outcome
    }

    /// One request (and the refresh-once-on-401): waits on the limiter for `key`, sends,
    /// and hands the response's status and rate-limit headers to the limiter. Returns the
    /// body of a 2xx answer as text.
    async fn send(
        &self,
        method: Method,
        path: &str,
        account: Option<i64>,
        body: Option<&Value>,
        key: &str,
    ) -> Result<String, ProviderError> {
        let mut refreshed = false;
        loop {
            let token = self.token().await?;
            let mut request = self
                .http
                .request(method.clone(), format!("{}{path}", self.config.api_base))
                .bearer_auth(&token);
            if let Some(id) = account {
                request = request.header("X-AP-Context", format!("adAccountId={id}"));
            }
            if let Some(b) = body {
                request = request.json(b);
            }
            let waiting = Instant::now();
            self.config.gate.acquire(key).await?;
            let waited = waiting.elapsed();
            self.config.metrics.waited(waited);
            let started = Instant::now();
            let response = match request.send().await {
                Ok(r) => r,
                Err(e) => {
                    self.config.metrics.request(0);
                    self.config
                        .gate
                        .observe(key, &RateLimitInfo::default())
                        .await;
                    tracing::info!(%method, path, error = %e, duration_ms = started.elapsed().as_millis() as u64, ad_account = account, "provider call failed");
                    return Err(transport(e));
                }
            };
            let status = response.status();
            self.config.metrics.request(status.as_u16());
            let info = RateLimitInfo::from_headers(status.as_u16(), response.headers());
            if let Some(date) = response
                .headers()
                .get(reqwest::header::DATE)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| httpdate::parse_http_date(v).ok())
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
            {
                self.server_date
                    .store(date.as_secs() as i64, std::sync::atomic::Ordering::Relaxed);
            }
            self.config.gate.observe(key, &info).await;
            let text = response.text().await.map_err(transport)?;
            // JSON values only for an observer or an error to classify.
            let json = (self.config.observer.is_some() || !status.is_success())
                .then(|| serde_json::from_str::<Value>(&text).unwrap_or(Value::Null));
            tracing::info!(
                %method,
                path,
                status = status.as_u16(),
                duration_ms = started.elapsed().as_millis() as u64,
                limiter_wait_ms = waited.as_millis() as u64,
                ad_account = account,
                "provider call"
            );
            if let (Some(observer), Some(json)) = (&self.config.observer, &json) {
                observer(method.as_str(), path, status.as_u16(), json);
            }
            if status == StatusCode::UNAUTHORIZED && !refreshed {
                refreshed = true;
                self.forget_token().await;
                continue;
            }
            return classify(status, &info, json.unwrap_or(Value::Null)).map(|_| text);
        }
    }
}
