//! What a job handler sees: the process-wide [`Runtime`] (database, queue, email sender,
//! the one rate limiter of the process and the provider clients built over it) and the
//! [`JobContext`] of one run (ids, attempt, typed progress, cooperative cancellation).

use std::{marker::PhantomData, sync::Arc, time::Duration};

use searchdeck_common::store::accounts::AccountRow;
use searchdeck_common::{
    Config, Db, Engines,
    email::EmailSender,
    queue::{Job, JobError, Queue},
    ratelimit::RateLimiter,
    secrets::SecretBox,
    store, stored_credentials,
};
use searchdeck_provider::appstore_connect::AscConfig;
use searchdeck_provider::mmp::MmpConfig;
use searchdeck_provider::{
    AppStore, AppStoreConfig, AppleAds, Client, ClientCache, ClientConfig, Credentials, PerKey,
    ProviderError, ProviderMetrics, RateGate,
};
use tokio_util::sync::CancellationToken;

/// What every job handler can use; one per worker process.
#[derive(Clone)]
pub struct Runtime {
    pub db: Db,
    /// What the report engine and the plan keep in memory over `db`.
    pub engines: Engines,
    pub queue: Queue,
    pub email: EmailSender,
    /// Opens the stored credentials of connections (`searchdeck_common::stored_credentials`).
    pub secrets: SecretBox,
    /// The one rate limiter of this process; every provider client built here waits on it.
    gate: Arc<dyn RateGate>,
    /// Counters of every provider client of this process, added up.
    pub provider_metrics: Arc<ProviderMetrics>,
    /// The client of each connection, shared by its jobs ([`Runtime::provider_for`]).
    clients: Arc<ClientCache>,
    provider_api_url: String,
    provider_token_url: String,
    /// The daily reference-rate feed the `fetch-rates` job reads.
    pub fx_rates_url: String,
    /// Days the activity log keeps (the clean-up deletes older notifications).
    pub activity_retention_days: u32,
    /// How often a running job's task is checked for a stop request.
    pub cancel_poll: Duration,
    /// The public App Store (the keyword suggester's lookups, searches and hints): Apple's
    /// beside Apple Ads, the sandbox's stand-ins beside the sandbox
    /// ([`AppStoreConfig::from_env`]).
    pub appstore: AppStore,
    /// Where the attribution providers' reporting APIs are (the pull job): the providers'
    /// own beside Apple, the sandbox's stand-ins beside the sandbox ([`MmpConfig::from_env`]).
    pub mmp: MmpConfig,
    /// Where the App Store Connect API is (the sales read): Apple's beside Apple, the
    /// sandbox's stand-in beside the sandbox ([`AscConfig::from_env`]).
    pub app_store_connect: AscConfig,
}

impl std::fmt::Debug for Runtime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runtime")
            .field("db", &self.db)
            .field("queue", &self.queue)
            .field("email", &self.email)
            .finish_non_exhaustive()
    }
}

impl Runtime {
    /// Builds the shared handler state: the limiter comes from the configuration (Redis when
    /// `REDIS_URL` is set, else the database's `rate_limits` table), once per process.
    pub async fn new(config: &Config, db: Db, queue: Queue) -> anyhow::Result<Arc<Runtime>> {
        let limiter =
            RateLimiter::from_config(config, &db, searchdeck_provider::limiter::settings()).await?;
        Ok(Arc::new(Runtime {
            engines: Engines::default(),
            email: EmailSender::from_config(config)?,
            secrets: SecretBox::from_config(config)?,
            cancel_poll: queue
                .settings()
                .poll_interval
                .max(Duration::from_millis(100)),
            db,
            queue,
            gate: Arc::new(limiter),
            provider_metrics: Arc::default(),
            clients: Arc::default(),
            provider_api_url: config.provider_api_url.clone(),
            provider_token_url: config.provider_token_url.clone(),
            fx_rates_url: config.fx_rates_url.clone(),
            activity_retention_days: config.activity_retention_days,
            appstore: AppStore::new(AppStoreConfig::from_env(&config.provider_base_url))?,
            mmp: MmpConfig::from_env(&config.provider_base_url),
            app_store_connect: AscConfig::from_env(&config.provider_base_url),
        }))
    }

    /// The process's rate limiter, as every provider client built here sees it.
    pub fn gate(&self) -> &Arc<dyn RateGate> {
        &self.gate
    }

    /// A provider client for one ad account's credentials, over this process's shared
    /// limiter and metrics (build one per job; they share everything that must be shared).
    /// Jobs call it through [`AppleAds`] ([`Runtime::provider_for`]); the concrete client is
    /// for what the process shares (its limiter, its counters).
    pub fn provider(&self, credentials: Credentials) -> Result<Client, ProviderError> {
        let mut config = ClientConfig::apple();
        config.api_base = self.provider_api_url.clone();
        config.token_url = self.provider_token_url.clone();
        config.gate = self.gate.clone();
        config.metrics = self.provider_metrics.clone();
        Client::new(config, credentials)
    }

    /// The provider of a stored connection, its sealed credentials opened with this
    /// process's key (the same function the API uses): one client per connection, shared by
    /// the process's jobs, so a connection exchanges its credentials once per token lifetime
    /// rather than once per job (built again when its stored credentials change); a
    /// connection with several keys gets a [`PerKey`] dispatching each call to its group's.
    pub fn provider_for(&self, account: &AccountRow) -> Result<Arc<dyn AppleAds>, JobError> {
        self.clients.get_or_build(
            &account.id,
            stored_credentials::fingerprint(account),
            || {
                let keys = stored_credentials::keys(&self.secrets, account)
                    .map_err(JobError::permanent)?;
                PerKey::of_stored(
                    keys,
                    |credentials| {
                        let client: Arc<dyn AppleAds> =
                            Arc::new(self.provider(credentials).map_err(JobError::permanent)?);
                        Ok(client)
                    },
                    |e| JobError::permanent(anyhow::anyhow!(e)),
                )
            },
        )
    }
}

/// One run of one job, whatever its kind.
#[derive(Clone)]
pub struct JobRun {
    pub runtime: Arc<Runtime>,
    /// Queue id of this run.
    pub run_id: String,
    /// Stable id of the logical job.
    pub job_id: String,
    /// 1 on the first run.
    pub attempt: u32,
    /// The worker running it.
    pub worker: String,
    /// The task record to report progress to.
    pub task_id: Option<String>,
    /// Cancelled when the user asks the task to stop.
    pub cancel: CancellationToken,
}

/// One run of one job of type `J`, as its handler sees it: the [`JobRun`] (through
/// `Deref`) and progress typed by the kind.
pub struct JobContext<J> {
    run: JobRun,
    job: PhantomData<fn() -> J>,
}

impl<J> JobContext<J> {
    /// The context of `run` for a job of type `J`: what the worker pool hands a handler, and
    /// what a caller running a handler inline builds (a benchmark's setup, a job running
    /// another's handler as one of its steps).
    pub fn new(run: JobRun) -> JobContext<J> {
        JobContext {
            run,
            job: PhantomData,
        }
    }
}

impl<J> std::ops::Deref for JobContext<J> {
    type Target = JobRun;
    fn deref(&self) -> &JobRun {
        &self.run
    }
}

impl<J: Job> JobContext<J> {
    /// Reports progress on the task record, if the job has one (errors are only logged:
    /// progress is advisory).
    pub async fn progress(
        &self,
        message: &str,
        step: i64,
        total_steps: i64,
        details: Option<&J::Progress>,
    ) {
        let Some(task_id) = &self.task_id else {
            return;
        };
        let details = details.and_then(|d| serde_json::to_value(d).ok());
        let db = &self.runtime.db.pool;
        if let Err(e) =
            store::tasks::progress(db, task_id, message, step, total_steps, details.as_ref()).await
        {
            tracing::warn!(task.id = %task_id, error = %e, "could not record task progress");
        }
    }

    /// Whether the user has asked this job's task to stop.
    pub fn is_cancelled(&self) -> bool {
        self.cancel.is_cancelled()
    }

    /// `Err(JobError::Cancelled)` once a stop was asked for: call it between steps with `?`.
    pub fn check_cancelled(&self) -> Result<(), JobError> {
        if self.is_cancelled() {
            Err(JobError::Cancelled)
        } else {
            Ok(())
        }
    }
}

/// How a job ended well: the message shown on its task record, and its final progress.
#[derive(Debug)]
pub struct Done<P> {
    pub message: String,
    pub progress: Option<P>,
}

impl<P> Done<P> {
    /// Done, with this message on the task.
    pub fn message(message: impl Into<String>) -> Done<P> {
        Done {
            message: message.into(),
            progress: None,
        }
    }

    /// Done, with this message and final progress on the task.
    pub fn with_progress(message: impl Into<String>, progress: P) -> Done<P> {
        Done {
            message: message.into(),
            progress: Some(progress),
        }
    }
}
