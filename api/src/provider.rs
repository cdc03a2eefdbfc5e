//! The API's side of the Apple Ads provider: one client configuration (endpoints and the
//! shared rate limiter — Redis or the database row every process uses — behind every client
//! built from it) and the popup-connect registration, both from the configuration.

use std::{sync::Arc, time::Duration};

use searchdeck_common::{
    Config, Db,
    ratelimit::{RateLimitSettings, RateLimiter},
};
use searchdeck_provider::{Client, ClientConfig, Credentials, ProviderError, oauth::PopupConnect};

/// How the API reaches the provider.
#[derive(Clone)]
pub struct Provider {
    /// Template of every client (its limiter and metrics are shared).
    pub api: ClientConfig,
    /// The popup connect's endpoints, client id and redirect back to the web app.
    pub popup: PopupConnect,
    /// HTTP client of the popup's code exchange.
    pub http: reqwest::Client,
}

/// Path of the web app's page the popup returns to (spec §2: `/oauth_v2`).
pub const OAUTH_RETURN_PATH: &str = "/oauth_v2";

impl Provider {
    /// The provider named by `config` (the sandbox unless configured otherwise).
    pub async fn from_config(config: &Config, db: &Db) -> anyhow::Result<Provider> {
        let mut api = ClientConfig::apple();
        api.api_base = config.provider_api_url.clone();
        api.token_url = config.provider_token_url.clone();
        api.gate =
            Arc::new(RateLimiter::from_config(config, db, RateLimitSettings::default()).await?);
        let popup = PopupConnect {
            authorize_url: config.provider_authorize_url.clone(),
            token_url: config.provider_token_url.clone(),
            client_id: config.provider_client_id.clone(),
            redirect_uri: format!("{}{OAUTH_RETURN_PATH}", config.public_url),
        };
        let http = reqwest::Client::builder()
            .timeout(Duration::from_secs(30))
            .build()?;
        Ok(Provider { api, popup, http })
    }

    /// A client for one connection's credentials.
    pub fn client(&self, credentials: Credentials) -> Result<Client, ProviderError> {
        Client::new(self.api.clone(), credentials)
    }
}
