//! Shared state of the API process.

use std::sync::Arc;

use searchdeck_common::{
    Config, Db,
    email::OutgoingEmail,
    queue::{Job, Queue},
    secrets::SecretBox,
};

use crate::{provider::Provider, throttle::Throttles};

/// Everything handlers need, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub db: Db,
    pub config: Config,
    pub queue: Queue,
    pub throttles: Throttles,
    /// Seals provider credentials before they are stored.
    pub secrets: SecretBox,
    /// The Apple Ads provider (API and popup connect).
    pub provider: Provider,
}

impl std::ops::Deref for AppState {
    type Target = Inner;
    fn deref(&self) -> &Inner {
        &self.0
    }
}

impl AppState {
    /// The state over `db` and `queue`; fails when the secret key cannot be loaded (or
    /// generated), or the provider's rate limiter or HTTP client cannot be set up.
    pub async fn new(db: Db, config: Config, queue: Queue) -> anyhow::Result<AppState> {
        let secrets = SecretBox::from_config(&config)?;
        let provider = Provider::from_config(&config, &db).await?;
        Ok(AppState(Arc::new(Inner {
            db,
            config,
            queue,
            throttles: Throttles::default(),
            secrets,
            provider,
        })))
    }

    /// Queues an email; a worker sends it (with retries), so a slow or failing mail server
    /// never holds up the request.
    pub async fn send_email(&self, email: OutgoingEmail) -> anyhow::Result<()> {
        self.queue.enqueue(&Job::SendEmail(email)).await?;
        Ok(())
    }
}
