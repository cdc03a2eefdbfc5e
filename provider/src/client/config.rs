//! Where and how a [`Client`](super::Client) calls: the API and token endpoints (Apple's
//! or a sandbox's), timeouts and user agent, the retry policy, the limiter every request
//! waits on and the traffic counters, with an observer tests use to validate every answer.

use std::sync::Arc;
use std::time::Duration;

use serde_json::Value;

use searchdeck_common::retry::Backoff;

use crate::limiter::{RateGate, RateLimitSettings, RateLimiter};
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
