//! The SQLite queue backend the workers run on: apalis-sqlite's own queries and schema,
//! driven by apalis' [`Persisted`] state machine, but with every store transaction made
//! independent of whoever awaits it.
//!
//! Why not `apalis_sqlite::SqliteStorage` itself: its register, heartbeat, fetch and
//! lock/ack steps each run `BEGIN … COMMIT` inside a future that the worker keeps in its
//! backend state and only advances when it polls the backend. Once a worker is told to
//! stop, apalis stops polling the backend until every running job has finished (and then
//! drops an unfinished fetch). A fetch caught by the stop signal between its `UPDATE`
//! and its `COMMIT` therefore keeps SQLite's write lock for as long as the running jobs
//! take — and those jobs need the write lock to record their effects, their task records
//! and their retries, so each of their writes fails with "database is locked" after the
//! busy timeout. (The same holds whenever a step future is dropped mid-transaction.)
//!
//! Here each transaction runs on a task of its own (`tokio::spawn`), so it commits or rolls
//! back within milliseconds whether or not the worker polls or keeps its future, and it
//! starts with `BEGIN IMMEDIATE`, taking the write lock up front (with the busy timeout)
//! instead of upgrading a read snapshot part-way. On close, a fetch still in flight is
//! finished and what it claimed is handed back to the queue at once.

use std::{
    collections::VecDeque,
    task::{Context, Poll},
};

use apalis_core::{
    backend::{
        Backend, BackendConfig, WireFormatBackend, WorkerFilter,
        persistence::{Persisted, Persistence, State, TaskEvent, TaskPersistLayer},
    },
    task::Task,
    worker::context::WorkerContext,
};
use apalis_sqlite::{
    Config, Error, JsonCodec, SqliteConnection, SqlitePool, SqliteStorage, queries,
};
use futures::future::BoxFuture;
use serde_json::Value;

/// Runs `work` in a `BEGIN IMMEDIATE` transaction on a task of its own and waits for the
/// outcome. Dropping or no longer polling the returned future leaves the transaction to
/// finish by itself: it is never left open holding the database's write lock.
async fn in_transaction<T, F>(pool: &SqlitePool, work: F) -> Result<T, Error>
where
    T: Send + 'static,
    F: for<'c> FnOnce(&'c mut SqliteConnection) -> BoxFuture<'c, Result<T, Error>> + Send + 'static,
{
    let pool = pool.clone();
    let transaction = tokio::spawn(async move {
        let mut tx = pool.begin_with("BEGIN IMMEDIATE").await?;
        let out = work(&mut tx).await?;
        tx.commit().await?;
        Ok(out)
    });
    match transaction.await {
        Ok(res) => res,
        Err(e) if e.is_panic() => std::panic::resume_unwind(e.into_panic()),
        // Only when the runtime shuts down; the transaction was rolled back.
        Err(_) => Err(Error::Database(sqlx::Error::PoolClosed)),
    }
}

/// apalis-sqlite's persistence steps, each in its own [`in_transaction`].
#[derive(Debug, Clone)]
struct Steps {
    pool: SqlitePool,
    config: Config,
}

impl Persistence for Steps {
    type Compact = Vec<u8>;
    type Response = Value;
    type Error = Error;

    async fn register(&mut self, worker: &WorkerContext) -> Result<(), Error> {
        let (config, worker) = (self.config.clone(), worker.clone());
        in_transaction(&self.pool, move |conn| {
            Box::pin(async move {
                let dead_for = config.heartbeat_interval.as_secs() as i64;
                let only = WorkerFilter::Only(worker.name().to_owned());
                queries::reenqueue_orphaned(&mut *conn, dead_for, config.queue.as_ref(), &only)
                    .await?;
                queries::register_worker(&mut *conn, &config, &worker, "SqliteStorage").await?;
                Ok(())
            })
        })
        .await
    }

    async fn heartbeat(&mut self, worker: &WorkerContext) -> Result<(), Error> {
        let (config, worker) = (self.config.clone(), worker.clone());
        let beat = in_transaction(&self.pool, move |conn| {
            Box::pin(async move {
                queries::keep_alive(&mut *conn, &config, &worker).await?;
                let dead_for = config.orphaned_duration().as_secs() as i64;
                let others = WorkerFilter::AllExcept(worker.name().to_owned());
                queries::reenqueue_orphaned(&mut *conn, dead_for, config.queue.as_ref(), &others)
                    .await?;
                Ok(())
            })
        })
        .await;
        match beat {
            // The database stayed locked past the busy timeout: this beat is missed and the
            // next one tries again. As an error apalis would mark the worker dead and stop
            // it, handing back every job it runs; only `missed_heartbeats` beats missed in a
            // row let another worker take them over.
            Err(Error::Database(e)) if searchdeck_common::Db::is_busy(&e) => {
                tracing::warn!(error = %e, "worker heartbeat found the database busy; beating again next time");
                Ok(())
            }
            other => other,
        }
    }

    async fn fetch_next(&mut self, worker: &WorkerContext) -> Result<Vec<Task<Vec<u8>>>, Error> {
        let (config, worker) = (self.config.clone(), worker.clone());
        let fetched = in_transaction(&self.pool, move |conn| {
            Box::pin(async move { queries::fetch_next(&mut *conn, &config, &worker).await })
        })
        .await;
        match fetched {
            // The database stayed locked past the busy timeout (a long write, e.g. a sync
            // storing a large account's days): nothing was claimed, and the next poll tries
            // again. As an error it would stop the worker and hand its running jobs back.
            Err(Error::Database(e)) if searchdeck_common::Db::is_busy(&e) => {
                tracing::warn!(error = %e, "queue poll found the database busy; polling again");
                Ok(Vec::new())
            }
            other => other,
        }
    }

    async fn reenqueue_abandoned(
        &mut self,
        tasks: Vec<Task<Vec<u8>>>,
        worker: &WorkerContext,
    ) -> Result<u64, Error> {
        let (config, worker) = (self.config.clone(), worker.clone());
        let ids: Vec<String> = tasks
            .iter()
            .filter_map(|t| t.task_id().map(|id| id.to_string()))
            .collect();
        let expected = tasks.len();
        in_transaction(&self.pool, move |conn| {
            Box::pin(async move {
                let count = queries::reenqueue_abandoned(
                    &mut *conn,
                    config.queue.as_ref(),
                    worker.name(),
                    &ids,
                )
                .await?;
                if count as usize != expected {
                    // Rolled back: the pool's release after the worker stops hands back
                    // whatever this worker still holds.
                    return Err(Error::ReenqueueMismatch {
                        queued: expected,
                        abandoned: count as usize,
                    });
                }
                Ok(count)
            })
        })
        .await
    }

    async fn handle_events(
        &mut self,
        events: Vec<TaskEvent<Value>>,
        worker: &WorkerContext,
    ) -> Result<(), Error> {
        let mut locks = Vec::new();
        let mut acks = Vec::new();
        for event in events {
            match event {
                TaskEvent::Lock { task_id, .. } => locks.push(task_id.to_string()),
                TaskEvent::Complete(result) => acks.push(result),
                _ => {}
            }
        }
        if locks.is_empty() && acks.is_empty() {
            return Ok(());
        }
        let worker = worker.name().to_owned();
        in_transaction(&self.pool, move |conn| {
            Box::pin(async move {
                if !locks.is_empty() {
                    queries::lock_tasks(&mut *conn, &locks, &worker).await?;
                }
                if !acks.is_empty() {
                    let acks: Vec<_> = acks.iter().collect();
                    queries::ack_tasks(&mut *conn, &acks, &worker).await?;
                }
                Ok(())
            })
        })
        .await
    }

    async fn push_tasks(&mut self, tasks: Vec<Task<Vec<u8>>>) -> Result<(), Error> {
        let queue = self.config.queue.to_string();
        in_transaction(&self.pool, move |conn| {
            Box::pin(async move { queries::push_tasks(conn, &queue, &tasks).await })
        })
        .await
    }
}

/// A drop-in for `apalis_sqlite::SqliteStorage<Value>` whose transactions never outlive
/// their step (see the module documentation).
#[derive(Debug)]
pub struct SqliteBackend {
    persistence: Persisted<Steps>,
    codec: JsonCodec<Vec<u8>>,
}

impl SqliteBackend {
    /// A backend on `pool` (already migrated) with apalis-sqlite's `config`.
    pub fn new(pool: &SqlitePool, config: Config) -> SqliteBackend {
        SqliteBackend {
            persistence: Persisted::new(Steps {
                pool: pool.clone(),
                config,
            }),
            codec: JsonCodec::default(),
        }
    }
}

impl Backend for SqliteBackend {
    type Task = Task<Vec<u8>>;
    type Error = Error;

    fn poll_ready(
        &mut self,
        cx: &mut Context<'_>,
        worker: &WorkerContext,
    ) -> Poll<Result<(), Error>> {
        let heartbeat = self.persistence.config.heartbeat_interval;
        self.persistence.poll_ready(cx, worker, heartbeat)
    }

    fn poll_next(
        &mut self,
        cx: &mut Context<'_>,
        worker: &WorkerContext,
    ) -> Poll<Option<Result<Task<Vec<u8>>, Error>>> {
        self.persistence.poll_next(cx, worker)
    }

    fn poll_close(
        &mut self,
        cx: &mut Context<'_>,
        worker: &WorkerContext,
    ) -> Poll<Result<(), Error>> {
        // `Persisted::poll_close` would drop a fetch in flight, leaving what it claimed
        // locked to this worker: finish it and hand its tasks back like buffered ones.
        let state = self.persistence.state_mut();
        if let State::Fetch(fetch) = state {
            match fetch.poll_unpin(cx) {
                Poll::Pending => return Poll::Pending,
                Poll::Ready(Ok(tasks)) => *state = State::Buffered(VecDeque::from(tasks)),
                // Rolled back, so nothing was claimed; still flush the pending acks.
                Poll::Ready(Err(e)) => {
                    tracing::warn!(error = %e, "the last fetch failed while the worker stopped");
                    *state = State::Ready;
                }
            }
        }
        self.persistence.poll_close(cx, worker)
    }
}

impl BackendConfig for SqliteBackend {
    type Args = Value;
    type Id = <SqliteStorage<Value> as BackendConfig>::Id;
    type Kind = <SqliteStorage<Value> as BackendConfig>::Kind;
    type Config = Config;
    type Layer = TaskPersistLayer<JsonCodec<Value>, Value>;

    fn config(&self) -> &Config {
        &self.persistence.config
    }

    fn middleware(&mut self, _: &mut WorkerContext) -> Self::Layer {
        let (batch_size, persist_results, lock_tasks) = {
            let c = &self.persistence.config;
            (c.batch_size, c.persist_results, c.lock_tasks)
        };
        self.persistence
            .layer(JsonCodec::default(), batch_size)
            .persist_results(persist_results)
            .lock_tasks(lock_tasks)
    }
}

impl WireFormatBackend for SqliteBackend {
    type Codec = JsonCodec<Vec<u8>>;
    type Compact = Vec<u8>;

    fn codec(&self) -> &Self::Codec {
        &self.codec
    }
}
