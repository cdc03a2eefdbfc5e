//! The worker role: runs the jobs of the job catalogue (`searchdeck_common::queue`).
//!
//! [`run`] starts one apalis worker per process on the configured queue backend, with
//! `worker_concurrency` jobs at once, polling an idle queue every `poll_interval` (module
//! `poll`: apalis' own interval would only look again on its heartbeat), beside the outbox
//! relay. Each job goes through the [`runner`], which decodes the envelope, looks its kind
//! up in the [`Registry`] ([`jobs::register`] is the one place every kind is listed), counts
//! the attempt, runs the [`Handler`] and turns the outcome into done, stopped, retry with
//! backoff, rate-limit snooze or permanent failure.

pub mod apply;
mod context;
pub mod jobs;
mod name;
mod poll;
mod pool;
mod registry;
pub mod runner;
pub mod sandbox_account;
mod sqlite;
mod wire;

use std::future::Future;

use searchdeck_common::{Config, Db, queue::Queue};

pub use context::{Done, JobContext, JobRun, Runtime};
pub use name::worker_name;
pub use registry::{Handler, Registry};

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
    let runtime = Runtime::new(config, db, queue).await?;
    run_on(runtime, config.worker_concurrency, shutdown).await
}

/// [`run_with`] over an already built [`Runtime`], e.g. to read its provider metrics
/// (`Runtime::provider_metrics`) while and after the jobs run.
pub async fn run_on(
    runtime: std::sync::Arc<Runtime>,
    concurrency: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    pool::run(runtime, jobs::registry(), concurrency, shutdown).await
}
