//! Clients of the attribution providers' reporting APIs (docs/api/attribution.md "Pull"):
//! AppsFlyer's Master API ([`appsflyer`]). Each reads its provider's rows into the one shape
//! the facts are made from (`searchdeck_common::attribution::pull::PulledRow`). Requests go
//! through [`http`]: a timeout, retries with backoff on 5xx and transport failures, and
//! 429s waited out as `Retry-After` says (up to [`MmpConfig::max_wait`]; a longer wait is
//! handed to the job as [`MmpError::RateLimited`]). Base URLs come from the environment so
//! that development and tests read the sandbox's stand-ins ([`MmpConfig::from_env`]).

pub mod appsflyer;
pub mod http;

use std::time::Duration;

use searchdeck_common::retry::Backoff;

pub use appsflyer::AppsFlyer;

/// AppsFlyer's API host (the Master API's `https://hq1.appsflyer.com/api/master-agg-data/v4`).
pub const APPSFLYER_BASE_URL: &str = "https://hq1.appsflyer.com";

/// Apple's API base: beside it the providers' real APIs are the defaults.
const APPLE_ADS_BASE_URL: &str = "https://api.ads.apple.com";

/// Where the reporting APIs are and how patiently they are called.
#[derive(Debug, Clone)]
pub struct MmpConfig {
    /// AppsFlyer's host; the Master API is under `/api/master-agg-data/v4`.
    pub appsflyer_base: String,
    /// One request's timeout (a 30-day report takes AppsFlyer a while).
    pub timeout: Duration,
    /// Attempts per request, the first included.
    pub max_attempts: u32,
    /// Delays between attempts after a 5xx or a transport failure.
    pub backoff: Backoff,
    /// The longest `Retry-After` waited out in place; longer, the call fails as rate limited.
    pub max_wait: Duration,
}

impl MmpConfig {
    /// The providers' own hosts.
    pub fn production() -> MmpConfig {
        MmpConfig {
            appsflyer_base: APPSFLYER_BASE_URL.to_string(),
            timeout: Duration::from_secs(120),
            max_attempts: 5,
            backoff: Backoff {
                base: Duration::from_millis(500),
                max: Duration::from_secs(30),
            },
            max_wait: Duration::from_secs(60),
        }
    }

    /// The sandbox's stand-ins at `base` (`{base}/api/master-agg-data/v4/…`), retrying fast.
    pub fn sandbox(base: &str) -> MmpConfig {
        MmpConfig {
            appsflyer_base: base.trim_end_matches('/').to_string(),
            timeout: Duration::from_secs(60),
            backoff: Backoff {
                base: Duration::from_millis(50),
                max: Duration::from_millis(500),
            },
            ..MmpConfig::production()
        }
    }

    /// From `APPSFLYER_BASE_URL`; unset, the host follows the Apple Ads provider as the App
    /// Store's does: the real AppsFlyer beside Apple's API, the sandbox's stand-in beside
    /// the sandbox.
    pub fn from_env(provider_base: &str) -> MmpConfig {
        let mut config = if provider_base.trim_end_matches('/') == APPLE_ADS_BASE_URL {
            MmpConfig::production()
        } else {
            MmpConfig::sandbox(provider_base)
        };
        if let Ok(base) = std::env::var("APPSFLYER_BASE_URL") {
            config.appsflyer_base = base.trim_end_matches('/').to_string();
        }
        config
    }
}

/// Why a reporting API call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MmpError {
    /// The token was refused (401): the user must give a new one.
    #[error("{0}")]
    Unauthorized(String),
    /// Another refusal (4xx: an app the token may not read, a plan without the API): the
    /// provider's message, for the user.
    #[error("{message}")]
    Refused { status: u16, message: String },
    /// 429 for longer than the client waits in place.
    #[error("rate limited for {retry_after:?}")]
    RateLimited { retry_after: Duration },
    /// 5xx or a transport failure, after every attempt.
    #[error("{message}")]
    Retryable {
        status: Option<u16>,
        message: String,
    },
    /// An answer that does not read as the API documents it.
    #[error("{0}")]
    Malformed(String),
}
