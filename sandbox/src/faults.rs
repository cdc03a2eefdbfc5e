//! Fault injection and per-ad-account rate limiting for `/v1`: every response carries
//! `RateLimit-Limit`, `RateLimit-Remaining` and `RateLimit-Reset`; past the limit, or in an
//! injected burst, the answer is 429 with `Retry-After`. The limit counts requests per ad
//! account in wall-clock-second windows, and a burst of 429s lasts at most the one second
//! its `Retry-After` announces, so a client that honours `Retry-After` is served again. Latency, hangs and 429s happen
//! before the handler runs; of the injected 5xx, half fail before the handler and half
//! after it (the write applied, the answer lost), as a real server may, so clients must
//! make writes idempotent rather than trust that a 5xx changed nothing.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use parking_lot::Mutex;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::api::error::ApiError;
use crate::api::extract::context_account;
use crate::state::Sandbox;

/// The limit advertised when no requests-per-second limit is set (not enforced).
pub const NOMINAL_LIMIT: u32 = 1000;
/// How long an injected timeout hangs before answering 504.
pub const HANG: Duration = Duration::from_secs(30);

/// Fault settings, as `PUT/GET /sandbox/faults` read and write them; 0 turns each off.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", default, deny_unknown_fields)]
pub struct FaultConfig {
    pub requests_per_second: u32,
    pub error_rate: f64,
    pub latency_ms: u64,
    pub timeout_rate: f64,
    /// The next `burst429` requests (of any key) are answered 429, within one second of
    /// the first of them.
    #[serde(rename = "burst429")]
    pub burst_429: u32,
}

impl FaultConfig {
    /// Rejects rates outside 0–1.
    pub fn validate(&self) -> Result<(), String> {
        for (name, rate) in [
            ("errorRate", self.error_rate),
            ("timeoutRate", self.timeout_rate),
        ] {
            if !(0.0..=1.0).contains(&rate) {
                return Err(format!("{name} must be between 0 and 1"));
            }
        }
        Ok(())
    }
}

struct Inner {
    config: FaultConfig,
    burst_left: u32,
    /// When the burst under way ends (set by its first 429).
    burst_until: Option<Instant>,
    rng: ChaCha8Rng,
    /// Per key: (epoch second of the window, requests counted in it).
    windows: HashMap<String, (u64, u32)>,
}

/// Live fault state.
pub struct Faults {
    inner: Mutex<Inner>,
    /// Requests held at the door until a test lets them through ([`Faults::hold`]).
    holds: Mutex<Vec<Arc<Hold>>>,
}

/// Requests to one `/v1` path (the part after `/api/v5`, e.g. `/change-history/query`)
/// held before they are answered, for a test that must act while a client waits on exactly
/// that call (a connection removed during its change-history read). In-process only: the
/// HTTP admin has no way to set one.
pub struct Hold {
    path: String,
    entered: tokio::sync::Notify,
    waiting: std::sync::atomic::AtomicUsize,
    released: tokio::sync::watch::Sender<bool>,
}

impl Hold {
    /// Waits until a request to the path has arrived and is being held.
    pub async fn entered(&self) {
        loop {
            let notified = self.entered.notified();
            if self.waiting.load(std::sync::atomic::Ordering::SeqCst) > 0 {
                return;
            }
            notified.await;
        }
    }

    /// Lets every held request, and every later one to the path, through.
    pub fn release(&self) {
        self.released.send_replace(true);
    }

    async fn wait(&self) {
        self.waiting
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        self.entered.notify_waiters();
        let mut released = self.released.subscribe();
        let _ = released.wait_for(|r| *r).await;
    }
}

enum Verdict {
    Limited {
        limit: u32,
    },
    Fail {
        status: StatusCode,
        limit: u32,
        remaining: u32,
        /// Fail after the handler ran: the write applied, the answer lost.
        after: bool,
    },
    Hang {
        limit: u32,
        remaining: u32,
    },
    Pass {
        limit: u32,
        remaining: u32,
    },
}

impl Faults {
    pub fn new(config: FaultConfig, seed: u64) -> Self {
        let inner = Inner {
            config,
            burst_left: config.burst_429,
            burst_until: None,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0xfa017),
            windows: HashMap::new(),
        };
        Faults {
            inner: Mutex::new(inner),
            holds: Mutex::new(Vec::new()),
        }
    }

    /// Holds the requests whose path ends with `path` until the returned hold is released.
    pub fn hold(&self, path: &str) -> Arc<Hold> {
        let hold = Arc::new(Hold {
            path: path.to_string(),
            entered: tokio::sync::Notify::new(),
            waiting: std::sync::atomic::AtomicUsize::new(0),
            released: tokio::sync::watch::channel(false).0,
        });
        self.holds.lock().push(Arc::clone(&hold));
        hold
    }

    fn held(&self, path: &str) -> Option<Arc<Hold>> {
        self.holds
            .lock()
            .iter()
            .find(|h| path.ends_with(&h.path) && !*h.released.borrow())
            .cloned()
    }

    pub fn config(&self) -> FaultConfig {
        self.inner.lock().config
    }

    /// Replaces the settings; a new `burst429` starts a new burst.
    pub fn set(&self, config: FaultConfig) {
        let mut inner = self.inner.lock();
        inner.config = config;
        inner.burst_left = config.burst_429;
        inner.burst_until = None;
    }

    fn judge(&self, key: &str) -> Verdict {
        let mut inner = self.inner.lock();
        let config = inner.config;
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default()
            .as_secs();
        let limit = if config.requests_per_second == 0 {
            NOMINAL_LIMIT
        } else {
            config.requests_per_second
        };
        let window = inner.windows.entry(key.to_string()).or_insert((now, 0));
        if window.0 != now {
            *window = (now, 0);
        }
        if config.requests_per_second > 0 && window.1 >= limit {
            return Verdict::Limited { limit };
        }
        window.1 += 1;
        let remaining = limit.saturating_sub(window.1);
        if inner.burst_left > 0 {
            let until = *inner.burst_until.get_or_insert_with(|| {
                Instant::now() + Duration::from_secs(seconds_to_next_window())
            });
            if Instant::now() < until {
                inner.burst_left -= 1;
                return Verdict::Limited { limit };
            }
            // The Retry-After announced has passed: the burst is over.
            inner.burst_left = 0;
        }
        if config.error_rate > 0.0 && inner.rng.random_bool(config.error_rate) {
            let status = if inner.rng.random_bool(0.5) {
                StatusCode::INTERNAL_SERVER_ERROR
            } else {
                StatusCode::SERVICE_UNAVAILABLE
            };
            let after = inner.rng.random_bool(0.5);
            return Verdict::Fail {
                status,
                limit,
                remaining,
                after,
            };
        }
        if config.timeout_rate > 0.0 && inner.rng.random_bool(config.timeout_rate) {
            return Verdict::Hang { limit, remaining };
        }
        Verdict::Pass { limit, remaining }
    }
}

/// The rate-limit key of a request: its ad account, else its bearer token.
fn limit_key(headers: &HeaderMap) -> String {
    if let Ok(id) = context_account(headers.get("x-ap-context").and_then(|v| v.to_str().ok())) {
        return format!("account:{id}");
    }
    let token = headers
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("anonymous");
    format!("token:{token}")
}

fn seconds_to_next_window() -> u64 {
    1
}

fn set_headers(response: &mut Response, limit: u32, remaining: u32) {
    let h = response.headers_mut();
    h.insert("ratelimit-limit", HeaderValue::from(limit));
    h.insert("ratelimit-remaining", HeaderValue::from(remaining));
    h.insert(
        "ratelimit-reset",
        HeaderValue::from(seconds_to_next_window()),
    );
}

/// Middleware applying limits and faults to every `/v1` request.
pub async fn apply(State(sandbox): State<Arc<Sandbox>>, request: Request, next: Next) -> Response {
    let key = limit_key(request.headers());
    let held = sandbox.faults.held(request.uri().path());
    if let Some(hold) = held {
        hold.wait().await;
    }
    let latency = sandbox.faults.config().latency_ms;
    if latency > 0 {
        tokio::time::sleep(Duration::from_millis(latency)).await;
    }
    match sandbox.faults.judge(&key) {
        Verdict::Limited { limit } => {
            tracing::debug!(%key, "sandbox answering 429");
            let mut response = ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "RATE_LIMIT_EXCEEDED",
                "too many requests for this ad account; retry later",
            )
            .into_response();
            set_headers(&mut response, limit, 0);
            response
                .headers_mut()
                .insert("retry-after", HeaderValue::from(seconds_to_next_window()));
            response
        }
        Verdict::Fail {
            status,
            limit,
            remaining,
            after,
        } => {
            if after {
                drop(next.run(request).await);
            }
            let mut response =
                ApiError::new(status, "INTERNAL_ERROR", "injected failure").into_response();
            set_headers(&mut response, limit, remaining);
            response
        }
        Verdict::Hang { limit, remaining } => {
            tokio::time::sleep(HANG).await;
            let mut response =
                ApiError::new(StatusCode::GATEWAY_TIMEOUT, "TIMEOUT", "injected timeout")
                    .into_response();
            set_headers(&mut response, limit, remaining);
            response
        }
        Verdict::Pass { limit, remaining } => {
            let mut response = next.run(request).await;
            set_headers(&mut response, limit, remaining);
            response
        }
    }
}
