//! Client for the public App Store endpoints the keyword suggester reads: the iTunes Search
//! API's app lookup (`GET {base}/lookup?id=…&country=…`) and app search (`GET {base}/search?
//! term=…&country=…&entity=software&limit=…`), and the App Store search hints
//! (`GET {hints}?clientApplication=Software&term=…`, storefront in `X-Apple-Store-Front`,
//! answered as an XML property list). With the default URLs it talks to Apple; pointed at
//! the sandbox (`{sandbox}/appstore`) it reads the sandbox's stand-ins, unchanged.

use std::time::Duration;

use serde::Deserialize;

use crate::error::ProviderError;

/// Apple's iTunes Search API.
pub const APPLE_BASE_URL: &str = "https://itunes.apple.com";
/// Apple's App Store search hints endpoint.
pub const APPLE_HINTS_URL: &str =
    "https://search.itunes.apple.com/WebObjects/MZSearchHints.woa/wa/hints";

/// Apple's Ads API base, beside which the App Store defaults to Apple's.
const APPLE_ADS_BASE_URL: &str = "https://api.ads.apple.com";

/// Where the App Store endpoints are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AppStoreConfig {
    /// Base of `/lookup` and `/search`.
    pub base_url: String,
    /// The search hints URL.
    pub hints_url: String,
}

impl Default for AppStoreConfig {
    fn default() -> Self {
        Self {
            base_url: APPLE_BASE_URL.into(),
            hints_url: APPLE_HINTS_URL.into(),
        }
    }
}

impl AppStoreConfig {
    /// The sandbox's stand-ins at `base` (`http://host:port`).
    pub fn sandbox(base: &str) -> Self {
        Self::with_base(&format!("{}/appstore", base.trim_end_matches('/')))
    }

    /// `base_url` with its hints beside it (`{base}/hints`), unless `base` is Apple's.
    pub fn with_base(base: &str) -> Self {
        let base = base.trim_end_matches('/');
        if base == APPLE_BASE_URL {
            return Self::default();
        }
        Self {
            base_url: base.into(),
            hints_url: format!("{base}/hints"),
        }
    }

    /// From `APPSTORE_BASE_URL` and `APPSTORE_HINTS_URL`. Unset, the base follows the Apple
    /// Ads provider: Apple's App Store beside Apple's API (`https://api.ads.apple.com`), the
    /// sandbox's stand-ins (`{provider_base}/appstore`) beside the sandbox. The hints URL
    /// defaults to Apple's with Apple's base, else `{base}/hints`.
    pub fn from_env(provider_base: &str) -> Self {
        let mut config = match std::env::var("APPSTORE_BASE_URL") {
            Ok(b) => Self::with_base(&b),
            Err(_) if provider_base.trim_end_matches('/') == APPLE_ADS_BASE_URL => Self::default(),
            Err(_) => Self::sandbox(provider_base),
        };
        if let Ok(h) = std::env::var("APPSTORE_HINTS_URL") {
            config.hints_url = h;
        }
        config
    }
}

/// An app as the iTunes Search API describes it (the fields the suggester reads).
#[derive(Debug, Clone, Deserialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct StoreApp {
    pub track_id: i64,
    pub track_name: String,
    pub bundle_id: Option<String>,
    pub artist_name: Option<String>,
    pub primary_genre_name: Option<String>,
    #[serde(default)]
    pub genres: Vec<String>,
    pub description: Option<String>,
    pub artwork_url100: Option<String>,
    pub track_view_url: Option<String>,
    pub average_user_rating: Option<f64>,
    pub user_rating_count: Option<u64>,
    pub price: Option<f64>,
    pub currency: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Results {
    results: Vec<StoreApp>,
}

/// A search completion.
#[derive(Debug, Clone, Deserialize, PartialEq, Eq)]
pub struct Hint {
    pub term: String,
    pub priority: Option<i64>,
}

#[derive(Deserialize)]
struct Hints {
    #[serde(default)]
    hints: Vec<Hint>,
}

/// App Store storefront ids (`X-Apple-Store-Front`) by ISO country code.
pub const STOREFRONTS: &[(&str, u32)] = &[
    ("US", 143441),
    ("FR", 143442),
    ("DE", 143443),
    ("GB", 143444),
    ("AT", 143445),
    ("BE", 143446),
    ("FI", 143447),
    ("GR", 143448),
    ("IE", 143449),
    ("IT", 143450),
    ("LU", 143451),
    ("NL", 143452),
    ("PT", 143453),
    ("ES", 143454),
    ("CA", 143455),
    ("SE", 143456),
    ("NO", 143457),
    ("DK", 143458),
    ("CH", 143459),
    ("AU", 143460),
    ("NZ", 143461),
    ("JP", 143462),
    ("HK", 143463),
    ("SG", 143464),
    ("CN", 143465),
    ("KR", 143466),
    ("IN", 143467),
    ("MX", 143468),
    ("RU", 143469),
    ("TW", 143470),
    ("BR", 143503),
];

/// The storefront id of `country` (ISO alpha-2, any case).
pub fn storefront(country: &str) -> Option<u32> {
    STOREFRONTS
        .iter()
        .find(|(c, _)| c.eq_ignore_ascii_case(country))
        .map(|(_, id)| *id)
}

/// The App Store client.
#[derive(Debug, Clone)]
pub struct AppStore {
    http: reqwest::Client,
    config: AppStoreConfig,
}

fn transport(e: reqwest::Error) -> ProviderError {
    ProviderError::Retryable {
        status: e.status().map(|s| s.as_u16()),
        message: e.to_string(),
    }
}

impl AppStore {
    /// A client for `config` (10 s timeout per request).
    pub fn new(config: AppStoreConfig) -> Result<Self, ProviderError> {
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(10))
            .build()
            .map_err(transport)?;
        Ok(Self { http, config })
    }

    async fn get(
        &self,
        url: &str,
        query: &[(&str, String)],
        front: Option<u32>,
    ) -> Result<reqwest::Response, ProviderError> {
        let mut request = self.http.get(url).query(query);
        if let Some(f) = front {
            request = request.header("X-Apple-Store-Front", format!("{f}-1,29"));
        }
        let response = request.send().await.map_err(transport)?;
        let status = response.status();
        if status.is_success() {
            return Ok(response);
        }
        let message = response.text().await.unwrap_or_default();
        Err(match status.as_u16() {
            429 => ProviderError::RateLimited {
                retry_after: Duration::from_secs(60),
            },
            s if s >= 500 => ProviderError::Retryable {
                status: Some(s),
                message,
            },
            s => ProviderError::Permanent {
                status: s,
                code: "APP_STORE".into(),
                message,
                details: vec![],
                field: None,
            },
        })
    }

    async fn apps(
        &self,
        path: &str,
        query: &[(&str, String)],
    ) -> Result<Vec<StoreApp>, ProviderError> {
        let url = format!("{}/{path}", self.config.base_url);
        let response = self.get(&url, query, None).await?;
        let body: Results = response
            .json()
            .await
            .map_err(|e| ProviderError::Decode(e.to_string()))?;
        Ok(body.results)
    }

    /// Apps `ids` as sold in `country` (apps not sold there are left out).
    pub async fn lookup(&self, ids: &[i64], country: &str) -> Result<Vec<StoreApp>, ProviderError> {
        let ids = ids.iter().map(i64::to_string).collect::<Vec<_>>().join(",");
        self.apps(
            "lookup",
            &[("id", ids), ("country", country.to_lowercase())],
        )
        .await
    }

    /// Apps matching `term` in `country`, best first, at most `limit` (1–200).
    pub async fn search(
        &self,
        term: &str,
        country: &str,
        limit: u32,
    ) -> Result<Vec<StoreApp>, ProviderError> {
        let query = [
            ("term", term.to_string()),
            ("country", country.to_lowercase()),
            ("entity", "software".to_string()),
            ("limit", limit.clamp(1, 200).to_string()),
        ];
        self.apps("search", &query).await
    }

    /// Search completions of `term` in `country`'s storefront.
    pub async fn hints(&self, term: &str, country: &str) -> Result<Vec<Hint>, ProviderError> {
        let front = storefront(country).ok_or_else(|| ProviderError::Permanent {
            status: 400,
            code: "UNKNOWN_STOREFRONT".into(),
            message: format!("no App Store storefront id is known for {country}"),
            details: vec![],
            field: None,
        })?;
        let query = [
            ("clientApplication", "Software".to_string()),
            ("term", term.to_string()),
        ];
        let response = self
            .get(&self.config.hints_url, &query, Some(front))
            .await?;
        let bytes = response.bytes().await.map_err(transport)?;
        let body: Hints =
            plist::from_bytes(&bytes).map_err(|e| ProviderError::Decode(e.to_string()))?;
        Ok(body.hints)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn apple_is_the_default_and_other_bases_carry_their_hints() {
        assert_eq!(
            AppStoreConfig::with_base("https://itunes.apple.com/"),
            AppStoreConfig::default()
        );
        let sandbox = AppStoreConfig::sandbox("http://127.0.0.1:9/");
        assert_eq!(sandbox.base_url, "http://127.0.0.1:9/appstore");
        assert_eq!(sandbox.hints_url, "http://127.0.0.1:9/appstore/hints");
        assert_eq!(storefront("us"), Some(143441));
        assert_eq!(storefront("ZZ"), None);
    }
}
