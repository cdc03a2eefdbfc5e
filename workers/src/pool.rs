//! The worker pool: one apalis worker per process on the configured store, restarted under
//! a fresh name if the store fails, stopped gracefully on shutdown.
//!
//! Shutdown: the worker stops taking jobs, waits for running ones to finish, and hands
//! fetched-but-unstarted ones back (apalis' `poll_close`). If running jobs outlast the
//! grace period, they are dropped and explicitly released back to the queue, so another
//! worker picks them up at once instead of after the orphan timeout.

use std::{future::Future, sync::Arc, time::Duration};

use apalis::prelude::WorkerBuilderExt;
use apalis_core::{backend::ext::BackendExt, worker::builder::WorkerBuilder};
use searchdeck_common::queue::{Queue, Store, outbox};
use serde_json::Value;
use tokio::sync::watch;

use crate::{
    context::Runtime, name::worker_name, poll::EveryInterval, registry::Registry, runner,
    sqlite::SqliteBackend,
};

async fn stopped(mut rx: watch::Receiver<bool>) {
    let _ = rx.wait_for(|stop| *stop).await;
}

/// Runs workers, and the outbox relay beside them, until `shutdown` completes.
pub async fn run(
    runtime: Arc<Runtime>,
    registry: Registry,
    concurrency: usize,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let (stop_tx, stop_rx) = watch::channel(false);
    tokio::spawn(async move {
        shutdown.await;
        let _ = stop_tx.send(true);
    });
    let registry = Arc::new(registry);
    let settings = runtime.queue.settings().clone();
    let relay = tokio::spawn(outbox::run_relay(
        runtime.db.clone(),
        runtime.queue.clone(),
        settings.poll_interval,
        stopped(stop_rx.clone()),
    ));
    let result = run_workers(runtime, registry, concurrency, stop_rx).await;
    relay.abort();
    result
}

async fn run_workers(
    runtime: Arc<Runtime>,
    registry: Arc<Registry>,
    concurrency: usize,
    stop_rx: watch::Receiver<bool>,
) -> anyhow::Result<()> {
    let settings = runtime.queue.settings().clone();
    let backend = runtime.queue.backend().name();
    loop {
        if *stop_rx.borrow() {
            return Ok(());
        }
        let name = worker_name();
        tracing::info!(worker = %name, backend, queue = %settings.queue_name, concurrency, "worker started");
        let run = run_once(
            runtime.clone(),
            registry.clone(),
            name.clone(),
            concurrency,
            stopped(stop_rx.clone()),
        );
        let deadline = {
            let rx = stop_rx.clone();
            let grace = settings.shutdown_grace;
            async move {
                stopped(rx).await;
                tokio::time::sleep(grace).await;
            }
        };
        tokio::select! {
            res = run => {
                let stopping = *stop_rx.borrow();
                match res {
                    Ok(()) if stopping => {
                        tracing::info!(worker = %name, "worker stopped");
                        return Ok(());
                    }
                    Ok(()) => tracing::warn!(worker = %name, "worker ended unexpectedly; restarting"),
                    Err(e) => tracing::error!(worker = %name, error = %format!("{e:#}"), "worker failed; restarting"),
                }
                release(&runtime.queue, &name).await;
                if stopping {
                    return Ok(());
                }
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
            () = deadline => {
                tracing::warn!(worker = %name, grace = ?settings.shutdown_grace, "jobs still running after the grace period; releasing them");
                release(&runtime.queue, &name).await;
                return Ok(());
            }
        }
    }
}

/// One worker's life, until `stop` completes or the store fails.
async fn run_once(
    runtime: Arc<Runtime>,
    registry: Arc<Registry>,
    name: String,
    concurrency: usize,
    stop: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    let s = runtime.queue.settings().clone();
    let signal = async move {
        stop.await;
        Ok::<(), std::io::Error>(())
    };
    // The backends are different types, so the same builder chain is spelled once here and
    // expanded per backend.
    macro_rules! run_worker {
        ($backend:expr) => {
            WorkerBuilder::new(name.as_str())
                .backend($backend)
                .concurrency(concurrency)
                .data(runtime)
                .data(registry)
                .build(runner::handle)
                .run_until(signal)
                .await?
        };
    }
    // One job fetched at a time: a busy worker never hoards jobs another could start.
    match runtime.queue.store().clone() {
        Store::Sqlite(pool) => {
            let config = apalis_sqlite::Config::default()
                .queue(&s.queue_name)
                .batch_size(1)
                .heartbeat_interval(s.heartbeat_interval)
                .missed_heartbeats(s.missed_heartbeats);
            // Not `apalis_sqlite::SqliteStorage`: see `crate::sqlite` for why.
            let backend = SqliteBackend::new(&pool, config)
                .poll_with_strategy(EveryInterval::new(s.poll_interval));
            run_worker!(backend);
        }
        Store::Postgres(pool) => {
            let config = apalis_postgres::Config::default()
                .queue(&s.queue_name)
                .batch_size(1)
                .heartbeat_interval(s.heartbeat_interval)
                .missed_heartbeats(s.missed_heartbeats);
            let backend = apalis_postgres::PostgresStorage::<Value>::new(&pool)
                .with_config(config)
                .poll_with_strategy(EveryInterval::new(s.poll_interval));
            run_worker!(backend);
        }
        Store::Redis { conn, config } => {
            let config = config
                .batch_size(1)
                .heartbeat_interval(s.heartbeat_interval)
                .missed_heartbeats(s.missed_heartbeats);
            let backend = apalis_redis::RedisStorage::<Value>::new(conn)
                .with_config(config)
                .poll_with_strategy(EveryInterval::new(s.poll_interval));
            run_worker!(backend);
        }
    }
    Ok(())
}

const REDIS_RELEASE: &str = r#"
local jobs = redis.call("smembers", KEYS[1])
if #jobs > 0 then
    redis.call("rpush", KEYS[2], unpack(jobs))
    redis.call("del", KEYS[1])
    redis.call("del", KEYS[4])
    redis.call("lpush", KEYS[4], 1)
end
redis.call("zrem", KEYS[3], ARGV[1])
return #jobs
"#;

/// Hands every job this worker still holds back to the queue.
async fn release(queue: &Queue, worker: &str) {
    let released: anyhow::Result<u64> = async {
        Ok(match queue.store() {
            Store::Sqlite(pool) => sqlx::query(
                "UPDATE Jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL \
                 WHERE lock_by = ?1 AND status IN ('Running', 'Queued')",
            )
            .bind(worker)
            .execute(pool)
            .await?
            .rows_affected(),
            Store::Postgres(pool) => sqlx::query(
                "UPDATE apalis.jobs SET status = 'Pending', lock_by = NULL, lock_at = NULL \
                 WHERE lock_by = $1 AND status IN ('Running', 'Queued')",
            )
            .bind(worker)
            .execute(pool)
            .await?
            .rows_affected(),
            Store::Redis { conn, config } => {
                let mut conn = conn.clone();
                let ctx = apalis_core::worker::context::WorkerContext::new(worker);
                redis::Script::new(REDIS_RELEASE)
                    .key(config.inflight_set_for(&ctx))
                    .key(config.active_jobs_list())
                    .key(config.workers_set())
                    .key(config.signal_list())
                    .arg(worker)
                    .invoke_async::<u64>(&mut conn)
                    .await?
            }
        })
    }
    .await;
    match released {
        Ok(0) => {}
        Ok(n) => tracing::info!(worker, released = n, "jobs released back to the queue"),
        Err(e) => {
            tracing::error!(worker, error = %format!("{e:#}"), "could not release jobs; they return after the orphan timeout")
        }
    }
}
