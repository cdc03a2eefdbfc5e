//! Client for the Apple Ads Platform API v1: ES256 client-secret signing, token exchange
//! and caching, typed calls, classified errors, the shared rate limiter in front of every
//! request, tracing and metrics. Point it at `https://api.ads.apple.com/v1` and
//! `https://appleid.apple.com/auth/oauth2/token`, or at the sandbox's equivalents. The API
//! and the workers call it only through the [`AppleAds`] trait (`Arc<dyn AppleAds>`). [`AppStore`] reads the public App Store endpoints
//! (app lookup, app search, search hints). [`mmp`] holds the clients of the attribution
//! providers' reporting APIs (AppsFlyer's Master API). [`appstore_connect`] reads a team's
//! apps and daily sales from the App Store Connect API.

pub mod apple_ads;
pub mod appstore;
pub mod appstore_connect;
pub mod calls;
pub mod client;
pub mod clients;
pub mod credentials;
pub mod error;
pub mod history;
pub mod idempotent;
pub mod insights;
pub mod limiter;
pub mod metrics;
pub mod mmp;
pub mod oauth;
pub mod per_key;
pub mod recommendations;
pub mod sandbox_key;

pub use apple_ads::{Acl, AppleAds, AppleAdsExt, Entity};
pub use appstore::{AppStore, AppStoreConfig};
pub use client::{Client, ClientConfig, Observer, RetryPolicy};
pub use clients::ClientCache;
pub use credentials::{Credentials, KeyPair};
pub use error::{BulkItem, ProviderError};
pub use idempotent::Created;
pub use limiter::{RateGate, Unlimited};
pub use metrics::{MetricsSnapshot, ProviderMetrics};
pub use per_key::PerKey;
