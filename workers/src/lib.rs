//! The worker role: runs the jobs of the job catalogue (`searchdeck_common::queue`).
//!
//! [`run`] starts one apalis worker per process on the configured queue backend, with
//! `worker_concurrency` jobs at once, polling an idle queue every `poll_interval` (apalis
//! alone would only look again on its heartbeat). Each job goes through the [`runner`],
//! which decodes the envelope, counts the attempt, dispatches by kind ([`jobs::dispatch`],
//! the one place every kind is registered) and turns the outcome into done, retry with
//! backoff, rate-limit snooze or permanent failure.

pub mod jobs;
mod name;
mod pool;
pub mod runner;
mod sqlite;

use std::future::Future;

use searchdeck_common::{
    Config, Db,
    queue::{Queue, QueueSettings},
};

pub use name::worker_name;

/// Runs a worker pool for the configured queue until `shutdown` completes, then lets
/// running jobs finish (up to the grace period) and releases the rest.
pub async fn run(
    config: &Config,
    db: Db,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let queue = Queue::connect(config).await?;
    run_with(config, db, queue, shutdown).await
}

/// [`run`] on an already connected queue (its settings are used as they are).
pub async fn run_with(
    config: &Config,
    db: Db,
    queue: Queue,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let runtime = runner::Runtime::new(config, db, queue)?;
    pool::run(runtime, config.worker_concurrency, shutdown).await
}

/// Settings a worker process would use (for callers that build their own [`Queue`]).
pub fn settings_from_env() -> anyhow::Result<QueueSettings> {
    QueueSettings::from_env()
}
