//! Shared state of the API process.

use std::{sync::Arc, time::Duration};

use searchdeck_common::{
    Config, Db, Engines,
    email::{self, OutgoingEmail},
    plan::clock::PlanClock,
    queue::{Job, Queue},
    secrets::SecretBox,
    tasks::{self, NewTask},
};

use tokio::sync::mpsc;

use crate::{
    domain::Email,
    error::ApiError,
    passwords::PasswordHasher,
    provider::Provider,
    recovery::{self, Mailer},
    throttle::Throttles,
};

/// Everything handlers need, cheap to clone.
#[derive(Clone)]
pub struct AppState(Arc<Inner>);

pub struct Inner {
    pub db: Db,
    /// What the report engine and the plan keep in memory over `db`.
    pub engines: Engines,
    pub config: Config,
    pub queue: Queue,
    pub throttles: Throttles,
    /// Seals provider credentials before they are stored.
    pub secrets: SecretBox,
    /// The Apple Ads provider (API and popup connect).
    pub provider: Provider,
    /// The bounded pool every password hash goes through.
    pub passwords: PasswordHasher,
    /// Recovery requests for the background task that answers them.
    recovery: mpsc::Sender<Email>,
    /// The plan's per-workspace test clock (beside the sandbox only).
    pub plan_clock: PlanClock,
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
        let provider = Provider::from_config(&config, &db, secrets.clone()).await?;
        let (recovery, requests) = mpsc::channel(recovery::PENDING_REQUESTS);
        let mailer = Mailer {
            db: db.clone(),
            queue: queue.clone(),
            public_url: config.public_url.clone(),
        };
        let plan_clock = PlanClock::new(&config);
        let inner = Arc::new(Inner {
            db,
            engines: Engines::default(),
            config,
            queue,
            throttles: Throttles::default(),
            secrets,
            provider,
            passwords: PasswordHasher::default(),
            recovery,
            plan_clock,
        });
        // The recovery task ends when the state, which holds its one sender, is dropped.
        tokio::spawn(recovery::serve_requests(mailer, requests));
        Ok(AppState(inner))
    }

    /// Hands a recovery request to the background task; 503 when too many are pending.
    pub async fn request_recovery(&self, email: Email) -> Result<(), ApiError> {
        self.recovery
            .send_timeout(email, Duration::from_secs(2))
            .await
            .map_err(|_| ApiError::busy())
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

    /// [`Self::start_task`] for work on one subject: an unfinished task already on it is
    /// answered instead ([`tasks::join_or_create_with_job`]).
    pub async fn start_or_join_task<J: Job>(
        &self,
        subject: &str,
        task: NewTask<'_>,
        job: &J,
    ) -> anyhow::Result<tasks::Started> {
        let started = tasks::join_or_create_with_job(&self.db, subject, task, job).await?;
        if matches!(started, tasks::Started::New(_)) {
            self.relay_outbox().await;
        }
        Ok(started)
    }

    /// Hands committed outbox rows to the queue at once ([`recovery::relay_outbox`]).
    async fn relay_outbox(&self) {
        recovery::relay_outbox(&self.db, &self.queue).await;
    }
}
