//! Client of the App Store Connect API (docs/api/app-store-connect.md): the apps a team key
//! sees (`GET /v1/apps`) and the daily Sales and Trends summary
//! (`GET /v1/salesReports`, [`sales`]), the second revenue source beside the attribution
//! providers.
//!
//! Every request carries a JSON Web Token signed with the team's `.p8` key ([`AscKey`]):
//! ES256, header `kid` = the key id and `typ` = `JWT`; claims `iss` = the issuer id, `iat`,
//! `exp` (Apple refuses tokens that expire more than 20 minutes ahead; ours live
//! [`TOKEN_LIFETIME_SECS`]) and `aud` = [`AUDIENCE`]. Signing reuses the P-256 key type the
//! Apple Ads client secret is signed with ([`crate::KeyPair`]). Errors are Apple's
//! `ErrorResponse` (`{"errors": [{"status", "code", "title", "detail"}]}`), read into
//! [`AscError`]: a 401 is a refused key, a 429 is handed to the caller with its
//! `Retry-After`, 5xx and transport failures are retried with backoff.

pub mod key;
pub mod sales;

use std::time::Duration;

use searchdeck_common::retry::Backoff;
use serde_json::Value;
use time::Date;

use crate::mmp::http::retry_after;

pub use key::{AscKey, NOT_A_P8_KEY, is_issuer_id, is_key_id, is_vendor_number};
pub use sales::{Sale, SalesRow};

/// Apple's App Store Connect API host.
pub const APPLE_BASE_URL: &str = "https://api.appstoreconnect.apple.com";
/// The JWT audience Apple requires.
pub const AUDIENCE: &str = "appstoreconnect-v1";
/// How long our tokens live (Apple's limit is 20 minutes).
pub const TOKEN_LIFETIME_SECS: i64 = 15 * 60;
/// Apple Ads' API base: beside it App Store Connect is Apple's own.
const APPLE_ADS_BASE_URL: &str = "https://api.ads.apple.com";
/// Most apps asked per page of `/v1/apps` (Apple's maximum).
const PAGE: u32 = 200;
/// Most pages of apps followed.
const MAX_PAGES: u32 = 50;

/// Where the API is and how patiently it is called.
#[derive(Debug, Clone)]
pub struct AscConfig {
    /// The API's base; the calls are under `/v1`.
    pub base_url: String,
    pub timeout: Duration,
    /// Attempts per request, the first included.
    pub max_attempts: u32,
    pub backoff: Backoff,
}

impl AscConfig {
    /// Apple's API.
    pub fn production() -> AscConfig {
        AscConfig {
            base_url: APPLE_BASE_URL.into(),
            timeout: Duration::from_secs(60),
            max_attempts: 4,
            backoff: Backoff {
                base: Duration::from_millis(500),
                max: Duration::from_secs(20),
            },
        }
    }

    /// The sandbox's stand-in at `base` (`{base}/appstoreconnect/v1/…`): the sandbox serves
    /// Apple Ads under `/v1`, so App Store Connect's paths sit below a prefix of their own.
    pub fn sandbox(base: &str) -> AscConfig {
        AscConfig {
            base_url: format!("{}/appstoreconnect", base.trim_end_matches('/')),
            backoff: Backoff {
                base: Duration::from_millis(50),
                max: Duration::from_millis(500),
            },
            ..AscConfig::production()
        }
    }

    /// From `APP_STORE_CONNECT_BASE_URL`; unset, it follows the Apple Ads provider as the
    /// App Store's does: Apple's beside Apple's API, the sandbox's stand-in beside the
    /// sandbox.
    pub fn from_env(provider_base: &str) -> AscConfig {
        let mut config = if provider_base.trim_end_matches('/') == APPLE_ADS_BASE_URL {
            AscConfig::production()
        } else {
            AscConfig::sandbox(provider_base)
        };
        if let Ok(base) = std::env::var("APP_STORE_CONNECT_BASE_URL") {
            config.base_url = base.trim_end_matches('/').to_string();
        }
        config
    }
}

/// Why a call failed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AscError {
    /// 401: the key, its ids or the token were refused; Apple's title and detail.
    #[error("{0}")]
    Unauthorized(String),
    /// Another 4xx (403: the key lacks the role or an agreement is missing; 400: a filter
    /// refused, e.g. a vendor number that is not the team's): Apple's words.
    #[error("{message}")]
    Refused { status: u16, message: String },
    /// 429: Apple's hourly request limit.
    #[error("rate limited for {retry_after:?}")]
    RateLimited { retry_after: Duration },
    /// 5xx or a transport failure, after every attempt.
    #[error("{message}")]
    Retryable {
        status: Option<u16>,
        message: String,
    },
    /// An answer that does not read as Apple documents it.
    #[error("{0}")]
    Malformed(String),
}

/// An app the key sees.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AscApp {
    /// The Apple ID (adam id) of the app.
    pub adam_id: i64,
    pub name: String,
    pub bundle_id: String,
    /// The SKU: in-app purchases' sales rows name their app by it (`Parent Identifier`).
    pub sku: String,
}

/// The client.
#[derive(Debug, Clone)]
pub struct AppStoreConnect {
    http: reqwest::Client,
    config: AscConfig,
}

/// A finished exchange: status, `Retry-After`, body.
struct Answer {
    status: reqwest::StatusCode,
    retry_after: Duration,
    body: Vec<u8>,
}

impl AppStoreConnect {
    pub fn new(config: AscConfig) -> Result<AppStoreConnect, AscError> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|e| AscError::Malformed(e.to_string()))?;
        Ok(AppStoreConnect { http, config })
    }

    pub fn config(&self) -> &AscConfig {
        &self.config
    }

    /// GET `url` with a fresh token, retrying 5xx and transport failures.
    async fn get(
        &self,
        key: &AscKey,
        url: &str,
        query: &[(&str, String)],
    ) -> Result<Answer, AscError> {
        let mut attempt = 0;
        loop {
            let now = time::OffsetDateTime::now_utc().unix_timestamp();
            let sent = self
                .http
                .get(url)
                .query(query)
                .bearer_auth(key.token(now))
                .send()
                .await;
            let failure = match sent {
                Ok(response) => {
                    let status = response.status();
                    let retry_after = retry_after(response.headers());
                    let body = response
                        .bytes()
                        .await
                        .map(|b| b.to_vec())
                        .unwrap_or_default();
                    if !status.is_server_error() {
                        return Ok(Answer {
                            status,
                            retry_after,
                            body,
                        });
                    }
                    AscError::Retryable {
                        status: Some(status.as_u16()),
                        message: format!("App Store Connect answered {status}"),
                    }
                }
                Err(e) => AscError::Retryable {
                    status: None,
                    message: if e.is_timeout() {
                        "App Store Connect did not answer in time".into()
                    } else {
                        "App Store Connect could not be reached".into()
                    },
                },
            };
            attempt += 1;
            if attempt >= self.config.max_attempts {
                return Err(failure);
            }
            tokio::time::sleep(self.config.backoff.delay_after(attempt)).await;
        }
    }

    /// The apps the key sees (every page), by name.
    pub async fn apps(&self, key: &AscKey) -> Result<Vec<AscApp>, AscError> {
        let mut url = format!("{}/v1/apps", self.config.base_url);
        let mut query = vec![
            ("fields[apps]", "name,bundleId,sku".to_string()),
            ("limit", PAGE.to_string()),
        ];
        let mut apps = Vec::new();
        for _ in 0..MAX_PAGES {
            let answer = self.get(key, &url, &query).await?;
            let body = refused(answer)?;
            let page: Value = serde_json::from_slice(&body)
                .map_err(|e| AscError::Malformed(format!("apps: {e}")))?;
            for item in page["data"].as_array().into_iter().flatten() {
                let text = |k: &str| {
                    item["attributes"][k]
                        .as_str()
                        .unwrap_or_default()
                        .to_string()
                };
                let adam_id = item["id"]
                    .as_str()
                    .and_then(|id| id.parse().ok())
                    .ok_or_else(|| AscError::Malformed(format!("an app without an id: {item}")))?;
                apps.push(AscApp {
                    adam_id,
                    name: text("name"),
                    bundle_id: text("bundleId"),
                    sku: text("sku"),
                });
            }
            match page["links"]["next"].as_str() {
                Some(next) if !next.is_empty() => {
                    url = next.to_string();
                    query.clear();
                }
                _ => break,
            }
        }
        apps.sort_by(|a, b| (&a.name, a.adam_id).cmp(&(&b.name, b.adam_id)));
        Ok(apps)
    }

    /// The DAILY SALES SUMMARY report of `day` for `vendor_number`; `None` when Apple has
    /// none for the day (404: no sales, or not yet available).
    pub async fn daily_sales(
        &self,
        key: &AscKey,
        vendor_number: &str,
        day: Date,
    ) -> Result<Option<Vec<SalesRow>>, AscError> {
        let url = format!("{}/v1/salesReports", self.config.base_url);
        let query = [
            ("filter[frequency]", "DAILY".to_string()),
            ("filter[reportType]", "SALES".to_string()),
            ("filter[reportSubType]", "SUMMARY".to_string()),
            ("filter[vendorNumber]", vendor_number.to_string()),
            ("filter[reportDate]", day.to_string()),
            ("filter[version]", sales::VERSION.to_string()),
        ];
        let answer = self.get(key, &url, &query).await?;
        if answer.status == reqwest::StatusCode::NOT_FOUND {
            return Ok(None);
        }
        let body = refused(answer)?;
        sales::parse(&body).map(Some).map_err(AscError::Malformed)
    }
}

/// The body of a successful answer, else the error Apple's `ErrorResponse` says.
fn refused(answer: Answer) -> Result<Vec<u8>, AscError> {
    let status = answer.status;
    if status.is_success() {
        return Ok(answer.body);
    }
    if status == reqwest::StatusCode::TOO_MANY_REQUESTS {
        return Err(AscError::RateLimited {
            retry_after: answer.retry_after,
        });
    }
    let message = error_message(&answer.body)
        .unwrap_or_else(|| format!("App Store Connect answered {status}"));
    if status == reqwest::StatusCode::UNAUTHORIZED {
        return Err(AscError::Unauthorized(message));
    }
    Err(AscError::Refused {
        status: status.as_u16(),
        message,
    })
}

/// `title: detail` of the first error of an `ErrorResponse`.
pub fn error_message(body: &[u8]) -> Option<String> {
    let v: Value = serde_json::from_slice(body).ok()?;
    let e = v["errors"].as_array()?.first()?;
    let title = e["title"].as_str().unwrap_or_default();
    match e["detail"].as_str() {
        Some(detail) if !detail.is_empty() => Some(format!("{title}: {detail}")),
        _ => Some(title.to_string()).filter(|t| !t.is_empty()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn errors_read_as_apple_writes_them() {
        let body = br#"{"errors":[{"status":"401","code":"NOT_AUTHORIZED","title":"Authentication credentials are missing or invalid.","detail":"Provide a properly configured and signed bearer token."}]}"#;
        assert_eq!(
            error_message(body).unwrap(),
            "Authentication credentials are missing or invalid.: Provide a properly configured and signed bearer token."
        );
    }
}
