//! The limiter the client waits on before every request, keyed by ad account
//! ([`account_key`]) or by credential ([`credential_key`]: token exchange, `me`, `acls`).
//!
//! [`RateGate`] is the seam: the client calls [`RateGate::acquire`] right before each request
//! and hands every response — status and `RateLimit-*` / `Retry-After` headers — to
//! [`RateGate::observe`]. The implementation is `common::ratelimit::RateLimiter`, shared by
//! every process through Redis or a database row (in memory for a single process): it learns
//! the pace from `RateLimit-Limit`, and a 429 seen by any process pauses the key for all of
//! them until its `Retry-After`. [`Unlimited`] waits for nothing (one-off tools, tests that
//! study 429 handling itself).

use async_trait::async_trait;
pub use searchdeck_common::ratelimit::{
    RateLimitInfo, RateLimitSettings, RateLimiter, account_key, credential_key,
};

use crate::error::ProviderError;

/// What the client needs from a rate limiter.
#[async_trait]
pub trait RateGate: Send + Sync {
    /// Waits until one request for `key` may be sent (spends one slot).
    async fn acquire(&self, key: &str) -> Result<(), ProviderError>;
    /// Learns from the response to a request for `key` (also called, with status 0 and no
    /// headers, when the request got no response, so a probe does not stay held).
    async fn observe(&self, key: &str, info: &RateLimitInfo);
}

#[async_trait]
impl RateGate for RateLimiter {
    async fn acquire(&self, key: &str) -> Result<(), ProviderError> {
        RateLimiter::acquire(self, key)
            .await
            .map(drop)
            .map_err(|e| ProviderError::Retryable {
                status: None,
                message: format!("rate limiter unavailable: {e}"),
            })
    }

    async fn observe(&self, key: &str, info: &RateLimitInfo) {
        if let Err(e) = RateLimiter::observe(self, key, info).await {
            // This process's own pause is already in force; the others learn from their
            // own responses (or their own 429) until the store is back.
            tracing::warn!(rate_limit.key = key, error = %e, "could not share a rate-limit observation");
        }
    }
}

/// A gate that never waits and ignores what responses say.
#[derive(Debug, Default, Clone, Copy)]
pub struct Unlimited;

#[async_trait]
impl RateGate for Unlimited {
    async fn acquire(&self, _key: &str) -> Result<(), ProviderError> {
        Ok(())
    }

    async fn observe(&self, _key: &str, _info: &RateLimitInfo) {}
}

/// The limiter settings the provider runs with (workers and the benchmark).
pub fn settings() -> RateLimitSettings {
    RateLimitSettings::default()
}
