//! Client for the Apple Ads Platform API v1: ES256 client-secret signing, token exchange
//! and caching, typed calls, and classified errors. Point it at `https://api.ads.apple.com/v1`
//! and `https://appleid.apple.com/auth/oauth2/token`, or at the sandbox's equivalents.

pub mod calls;
pub mod client;
pub mod credentials;
pub mod error;
pub mod idempotent;
pub mod insights;
pub mod limiter;
pub mod oauth;

pub use client::{Client, ClientConfig, Observer, RetryPolicy};
pub use credentials::{Credentials, KeyPair};
pub use error::{BulkItem, ProviderError};
pub use idempotent::Created;
pub use limiter::{LocalGate, RateGate};
