//! The API's side of the Apple Ads provider: one client configuration (endpoints and the
//! shared rate limiter — Redis or the database row every process uses — behind every client
//! built from it) and the popup-connect registration, both from the configuration.

use std::{
    collections::HashMap,
    hash::{Hash, Hasher},
    sync::{Arc, Mutex},
    time::Duration,
};

use searchdeck_common::{
    Config, Db,
    ratelimit::{RateLimitSettings, RateLimiter},
    store::accounts::AccountRow,
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
    /// One client per connection, reused by its requests: the client caches the access
    /// token, so a connection exchanges its credentials once per token lifetime instead of
    /// once per edit. Keyed by connection id, with a fingerprint of its stored credentials
    /// (a reconnect with new ones builds a new client).
    clients: Arc<Mutex<ClientCache>>,
}

/// Clients by connection id, with the fingerprint of the credentials they were built from.
type ClientCache = HashMap<String, (u64, Arc<Client>)>;

/// Most connections' clients kept; past it the cache starts over.
const MAX_CACHED_CLIENTS: usize = 1000;

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
        Ok(Provider {
            api,
            popup,
            http,
            clients: Arc::default(),
        })
    }

    /// A client for one connection's credentials.
    pub fn client(&self, credentials: Credentials) -> Result<Client, ProviderError> {
        Client::new(self.api.clone(), credentials)
    }

    /// The client of stored connection `row`, built from `credentials` the first time (or
    /// when its stored credentials changed) and reused after, with its token cache.
    pub fn client_for<E>(
        &self,
        row: &AccountRow,
        credentials: impl FnOnce() -> Result<Credentials, E>,
        built: impl FnOnce(ProviderError) -> E,
    ) -> Result<Arc<Client>, E> {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (
            &row.client_id,
            &row.team_id,
            &row.key_id,
            &row.private_key_sealed,
            &row.refresh_token_sealed,
            row.updated_at,
        )
            .hash(&mut hasher);
        let fingerprint = hasher.finish();
        let mut clients = self.clients.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((f, client)) = clients.get(&row.id)
            && *f == fingerprint
        {
            return Ok(client.clone());
        }
        let client = Arc::new(self.client(credentials()?).map_err(built)?);
        if clients.len() >= MAX_CACHED_CLIENTS {
            clients.clear();
        }
        clients.insert(row.id.clone(), (fingerprint, client.clone()));
        Ok(client)
    }
}
