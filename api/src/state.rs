//! Shared state of the API process.

use std::sync::Arc;

use searchdeck_common::{
    Config, Db,
    email::{self, OutgoingEmail},
    queue::{Job, Queue, outbox},
    secrets::SecretBox,
    tasks::{self, NewTask},
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

    /// Queues an email by reference (the queue holds only its id); a worker sends it with
    /// retries, so a slow or failing mail server never holds up the request.
    pub async fn send_email(&self, message: OutgoingEmail) -> anyhow::Result<()> {
        email::enqueue(&self.db, &message).await?;
        self.relay_outbox().await;
        Ok(())
    }

    /// Records a background task and its job in one transaction (the job reaches the queue
    /// through the outbox, even when the queue is down right now); returns the task's id.
    pub async fn start_task<J: Job>(&self, task: NewTask<'_>, job: &J) -> anyhow::Result<String> {
        let id = tasks::create_with_job(&self.db, task, job).await?;
        self.relay_outbox().await;
        Ok(id)
    }

    /// Hands committed outbox rows to the queue at once; when that fails the workers' relay
    /// loop does it later, so the error is only logged.
    async fn relay_outbox(&self) {
        if let Err(e) = outbox::relay_once(&self.db, &self.queue, 100).await {
            tracing::warn!(error = %format!("{e:#}"), "outbox relay deferred");
        }
    }
}
