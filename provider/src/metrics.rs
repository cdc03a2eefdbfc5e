//! Counters of provider traffic, kept beside the per-call tracing: calls (one per
//! `Client::call`, however many attempts), HTTP requests (attempts, token exchanges
//! included), outcomes by error class, 429s, retries and time spent waiting on the rate
//! limiter. Share one [`ProviderMetrics`] between clients through `ClientConfig::metrics`
//! and read it with [`ProviderMetrics::snapshot`].

use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::error::ProviderError;

/// Live counters (atomics; cheap to update from every call).
#[derive(Debug, Default)]
pub struct ProviderMetrics {
    calls: AtomicU64,
    succeeded: AtomicU64,
    requests: AtomicU64,
    token_exchanges: AtomicU64,
    rate_limited_responses: AtomicU64,
    retries: AtomicU64,
    limiter_wait_us: AtomicU64,
    failed_retryable: AtomicU64,
    failed_rate_limited: AtomicU64,
    failed_permanent: AtomicU64,
    failed_auth: AtomicU64,
    failed_decode: AtomicU64,
}

/// A copy of the counters at one moment.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct MetricsSnapshot {
    /// Calls made through the client (each may take several requests).
    pub calls: u64,
    /// Calls that returned a 2xx answer.
    pub succeeded: u64,
    /// HTTP requests sent to the API and the token endpoint.
    pub requests: u64,
    /// Requests to the token endpoint.
    pub token_exchanges: u64,
    /// Responses with status 429.
    pub rate_limited_responses: u64,
    /// Attempts repeated after a retryable failure or a 429.
    pub retries: u64,
    /// Total time calls waited on the rate limiter, in milliseconds.
    pub limiter_wait_ms: u64,
    /// Calls that failed, by class of their final error.
    pub failed_retryable: u64,
    pub failed_rate_limited: u64,
    pub failed_permanent: u64,
    pub failed_auth: u64,
    pub failed_decode: u64,
}

impl MetricsSnapshot {
    /// Calls that failed, whatever the class.
    pub fn failed(&self) -> u64 {
        self.failed_retryable
            + self.failed_rate_limited
            + self.failed_permanent
            + self.failed_auth
            + self.failed_decode
    }
}

impl ProviderMetrics {
    /// Fresh counters.
    pub fn new() -> Self {
        Self::default()
    }

    /// Reads every counter.
    pub fn snapshot(&self) -> MetricsSnapshot {
        MetricsSnapshot {
            calls: self.calls.load(Relaxed),
            succeeded: self.succeeded.load(Relaxed),
            requests: self.requests.load(Relaxed),
            token_exchanges: self.token_exchanges.load(Relaxed),
            rate_limited_responses: self.rate_limited_responses.load(Relaxed),
            retries: self.retries.load(Relaxed),
            limiter_wait_ms: self.limiter_wait_us.load(Relaxed) / 1000,
            failed_retryable: self.failed_retryable.load(Relaxed),
            failed_rate_limited: self.failed_rate_limited.load(Relaxed),
            failed_permanent: self.failed_permanent.load(Relaxed),
            failed_auth: self.failed_auth.load(Relaxed),
            failed_decode: self.failed_decode.load(Relaxed),
        }
    }

    pub(crate) fn request(&self, status: u16) {
        self.requests.fetch_add(1, Relaxed);
        if status == 429 {
            self.rate_limited_responses.fetch_add(1, Relaxed);
        }
    }

    pub(crate) fn token_exchange(&self) {
        self.token_exchanges.fetch_add(1, Relaxed);
    }

    pub(crate) fn retry(&self) {
        self.retries.fetch_add(1, Relaxed);
    }

    pub(crate) fn waited(&self, wait: Duration) {
        let us = u64::try_from(wait.as_micros()).unwrap_or(u64::MAX);
        self.limiter_wait_us.fetch_add(us, Relaxed);
    }

    /// Records the outcome of one call.
    pub(crate) fn finished<T>(&self, outcome: &Result<T, ProviderError>) {
        self.calls.fetch_add(1, Relaxed);
        let counter = match outcome {
            Ok(_) => &self.succeeded,
            Err(ProviderError::Retryable { .. }) => &self.failed_retryable,
            Err(ProviderError::RateLimited { .. }) => &self.failed_rate_limited,
            Err(ProviderError::Permanent { .. }) => &self.failed_permanent,
            Err(ProviderError::Auth(_)) => &self.failed_auth,
            Err(ProviderError::Decode(_)) => &self.failed_decode,
        };
        counter.fetch_add(1, Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn outcomes_are_counted_by_class() {
        let m = ProviderMetrics::new();
        m.finished::<()>(&Ok(()));
        m.finished::<()>(&Err(ProviderError::Auth("no".into())));
        m.finished::<()>(&Err(ProviderError::RateLimited {
            retry_after: Duration::from_secs(1),
        }));
        m.request(429);
        m.request(200);
        m.retry();
        m.waited(Duration::from_millis(1500));
        let s = m.snapshot();
        assert_eq!((s.calls, s.succeeded, s.failed()), (3, 1, 2));
        assert_eq!((s.failed_auth, s.failed_rate_limited), (1, 1));
        assert_eq!((s.requests, s.rate_limited_responses, s.retries), (2, 1, 1));
        assert_eq!(s.limiter_wait_ms, 1500);
    }
}
