//! The API's side of the Apple Ads provider: one client configuration (endpoints and the
//! shared rate limiter — Redis or the database row every process uses — behind every client
//! built from it), the popup-connect registration and the public App Store client, all from
//! the configuration, and the one
//! way a route reaches a stored connection's client ([`Provider::client_of`],
//! [`Provider::client_by_id`]) and turns a provider failure into an answer
//! ([`provider_error`]).

use std::{sync::Arc, time::Duration};

use axum::http::StatusCode;
use searchdeck_common::{
    Config, Db,
    ratelimit::{RateLimitSettings, RateLimiter},
    secrets::SecretBox,
    store::{self, accounts::AccountRow},
    stored_credentials,
};
use searchdeck_provider::appstore_connect::{AppStoreConnect, AscConfig};
use searchdeck_provider::{
    AppStore, AppStoreConfig, AppleAds, Client, ClientCache, ClientConfig, Credentials, PerKey,
    ProviderError, oauth::PopupConnect,
};

use crate::error::ApiError;

/// How the API reaches the provider.
#[derive(Clone)]
pub struct Provider {
    /// Template of every client (its limiter and metrics are shared).
    pub api: ClientConfig,
    /// The popup connect's endpoints, client id and redirect back to the web app.
    pub popup: PopupConnect,
    /// HTTP client of the popup's code exchange.
    pub http: reqwest::Client,
    /// The public App Store endpoints (app lookup and search) the keyword suggester reads:
    /// Apple's beside Apple's API, the sandbox's stand-ins beside the sandbox
    /// (`AppStoreConfig::from_env`).
    pub app_store: AppStore,
    /// The App Store Connect API (a workspace's sales): Apple's beside Apple's API, the
    /// sandbox's stand-in beside the sandbox (`AscConfig::from_env`).
    pub app_store_connect: AppStoreConnect,
    /// Opens stored connections' credentials.
    secrets: SecretBox,
    /// One client per connection, reused by its requests: the client caches the access
    /// token, so a connection exchanges its credentials once per token lifetime instead of
    /// once per edit. Keyed by connection id, with a fingerprint of its stored credentials
    /// (a reconnect with new ones builds a new client).
    clients: Arc<ClientCache>,
}

/// Path of the web app's page the popup returns to (docs/product.md#2-url-paths-and-access:
/// `/oauth_v2`).
pub const OAUTH_RETURN_PATH: &str = "/oauth_v2";

impl Provider {
    /// The provider named by `config` (the sandbox unless configured otherwise).
    pub async fn from_config(
        config: &Config,
        db: &Db,
        secrets: SecretBox,
    ) -> anyhow::Result<Provider> {
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
        let app_store = AppStore::new(AppStoreConfig::from_env(&config.provider_base_url))
            .map_err(|e| anyhow::anyhow!("App Store client: {e}"))?;
        let app_store_connect =
            AppStoreConnect::new(AscConfig::from_env(&config.provider_base_url))
                .map_err(|e| anyhow::anyhow!("App Store Connect client: {e}"))?;
        Ok(Provider {
            api,
            popup,
            http,
            app_store,
            app_store_connect,
            secrets,
            clients: Arc::default(),
        })
    }

    /// A client for one connection's credentials (a connect proving them before they are
    /// stored; a stored connection's client is [`Provider::client_of`]).
    pub fn client(&self, credentials: Credentials) -> Result<Arc<dyn AppleAds>, ProviderError> {
        Ok(Arc::new(Client::new(self.api.clone(), credentials)?))
    }

    /// The provider client of connection `account_id`.
    pub async fn client_by_id(
        &self,
        db: &Db,
        account_id: &str,
    ) -> Result<Arc<dyn AppleAds>, ApiError> {
        let row = store::accounts::by_id(&db.pool, account_id)
            .await?
            .ok_or_else(|| ApiError::not_found("Account"))?;
        self.client_of(&row)
    }

    /// The client of stored connection `row`: one per connection, shared by its requests, so
    /// its access token is exchanged once per lifetime rather than per request. Built the
    /// first time (or when its stored credentials changed) and reused after; a connection
    /// with several keys gets a [`PerKey`] over one client per key. Its secrets are opened
    /// as the workers open them ([`stored_credentials::keys`]); a stored secret that does
    /// not open is an internal error (wrong key or tampering), never shown.
    pub fn client_of(&self, row: &AccountRow) -> Result<Arc<dyn AppleAds>, ApiError> {
        self.clients
            .get_or_build(&row.id, stored_credentials::fingerprint(row), || {
                let keys = stored_credentials::keys(&self.secrets, row)
                    .map_err(|e| ApiError::Internal(anyhow::anyhow!(e)))?;
                PerKey::of_stored(
                    keys,
                    |credentials| self.client(credentials).map_err(provider_error),
                    |e| ApiError::Internal(anyhow::anyhow!(e)),
                )
            })
    }
}

/// A provider failure as the caller should see it: refused credentials and rejected
/// requests are 400 with the provider's reason; an unreachable or failing provider is 502.
pub fn provider_error(err: ProviderError) -> ApiError {
    match err {
        ProviderError::Auth(reason) => {
            ApiError::bad_request(format!("Apple Ads refused these credentials: {reason}"))
        }
        ProviderError::Permanent { message, .. } => {
            ApiError::bad_request(format!("Apple Ads refused the request: {message}"))
        }
        other => {
            tracing::warn!(error = %other, "provider call failed");
            ApiError::status(
                StatusCode::BAD_GATEWAY,
                "Apple Ads could not be reached. Please try again later",
            )
        }
    }
}
