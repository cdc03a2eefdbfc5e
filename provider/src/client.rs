//! The HTTP client: token exchange and cache (refreshed five minutes before expiry, and
//! once more on a 401), `X-AP-Context` per ad account, timeouts, `User-Agent`, the rate
//! limiter in front of every request (fed every response), tracing and metrics of every
//! call, and classification of failures into [`ProviderError`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use reqwest::{Method, StatusCode};
use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;
use tokio::sync::Mutex;

use searchdeck_common::retry::Backoff;

use crate::credentials::Credentials;
use crate::error::{ApiErrorBody, ProviderError};
use crate::limiter::{
    RateGate, RateLimitInfo, RateLimitSettings, RateLimiter, account_key, credential_key,
};
use crate::metrics::ProviderMetrics;

/// Called with `(method, path, status, body)` for every API response (tests validate bodies).
pub type Observer = Arc<dyn Fn(&str, &str, u16, &Value) + Send + Sync>;

/// Where and how to call.
#[derive(Clone)]
pub struct ClientConfig {
    /// API base, e.g. `https://api.ads.apple.com/v1`.
    pub api_base: String,
    /// Token endpoint, e.g. `https://appleid.apple.com/auth/oauth2/token`.
    pub token_url: String,
    pub timeout: Duration,
    pub user_agent: String,
    pub observer: Option<Observer>,
    pub retry: RetryPolicy,
    /// The limiter every request waits on: by default a `RateLimiter` in memory for this
    /// client alone; give every client the same shared one
    /// (`RateLimiter::from_config`, Redis or a database row) so all processes share the
    /// budget of each ad account.
    pub gate: Arc<dyn RateGate>,
    /// Counters of this client's traffic (share one between clients to add them up).
    pub metrics: Arc<ProviderMetrics>,
}

/// How calls are retried.
#[derive(Debug, Clone, Copy)]
pub struct RetryPolicy {
    /// Attempts of an idempotent call that fails retryably (5xx, timeout, connection).
    pub max_attempts: u32,
    /// Delays between attempts: doubling from `backoff.base`, with jitter, up to
    /// `backoff.max`.
    pub backoff: Backoff,
    /// 429s waited out (for as long as the server says) before giving up with `RateLimited`.
    pub max_rate_limited: u32,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        RetryPolicy {
            max_attempts: 4,
            backoff: Backoff {
                base: Duration::from_millis(200),
                max: Duration::from_secs(5),
            },
            max_rate_limited: 3,
        }
    }
}

impl RetryPolicy {
    /// The wait before attempt `attempt + 1` (`attempt` ≥ 1): exponential, half jittered.
    pub fn backoff(&self, attempt: u32) -> Duration {
        self.backoff.delay_after(attempt)
    }
}

impl ClientConfig {
    /// The real Apple endpoints.
    pub fn apple() -> Self {
        Self::with_bases(
            "https://api.ads.apple.com/v1",
            "https://appleid.apple.com/auth/oauth2/token",
        )
    }

    /// A sandbox at `base` (e.g. `http://127.0.0.1:8090`).
    pub fn sandbox(base: &str) -> Self {
        let base = base.trim_end_matches('/');
        Self::with_bases(&format!("{base}/v1"), &format!("{base}/auth/oauth2/token"))
    }

    fn with_bases(api: &str, token: &str) -> Self {
        ClientConfig {
            api_base: api.into(),
            token_url: token.into(),
            timeout: Duration::from_secs(30),
            user_agent: format!("searchdeck/{}", env!("CARGO_PKG_VERSION")),
            observer: None,
            retry: RetryPolicy::default(),
            gate: Arc::new(RateLimiter::in_memory(RateLimitSettings::default())),
            metrics: Arc::default(),
        }
    }
}

struct CachedToken {
    access_token: String,
    refresh_at: Instant,
}

/// Refresh this long before the token expires.
const REFRESH_MARGIN: Duration = Duration::from_secs(300);

/// An Apple Ads API client for one set of credentials.
pub struct Client {
    http: reqwest::Client,
    config: ClientConfig,
    credentials: Credentials,
    token: Mutex<Option<CachedToken>>,
    /// The provider's clock: the `Date` of its latest answer (unix seconds, 0 before any).
    server_date: std::sync::atomic::AtomicI64,
}

#[derive(Deserialize)]
struct TokenResponse {
    access_token: String,
    expires_in: u64,
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

    /// A valid access token, exchanging credentials when none is cached or it is due.
    async fn token(&self) -> Result<String, ProviderError> {
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

    async fn forget_token(&self) {
        *self.token.lock().await = None;
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

fn transport(e: reqwest::Error) -> ProviderError {
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
fn retry_after(info: &RateLimitInfo) -> Duration {
    info.retry_after
        .or(info.reset)
        .unwrap_or(Duration::from_secs(1))
        .max(Duration::from_secs(1))
}

/// Maps a response to its body or a classified error.
fn classify(status: StatusCode, info: &RateLimitInfo, body: Value) -> Result<Value, ProviderError> {
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
