//! The enqueue side of the queue: a cheap, cloneable [`Queue`] handle over the configured
//! apalis store, used by the API, the scheduler and workers (for retries).

use std::{str::FromStr, sync::Arc, time::Duration};

use apalis_core::task::{builder::TaskBuilder, task_id::TaskId};
use secrecy::ExposeSecret;

use crate::{Backend, Config};

use super::{Envelope, Job, QueueSettings};

/// The store behind a [`Queue`], with the connection the workers reuse.
#[derive(Clone)]
pub enum Store {
    /// apalis-sqlite, on its own pool (WAL) over the given file.
    Sqlite(apalis_sqlite::SqlitePool),
    /// apalis-postgres (schema `apalis`).
    Postgres(apalis_postgres::PgPool),
    /// apalis-redis.
    Redis {
        conn: apalis_redis::ConnectionManager,
        config: apalis_redis::Config,
    },
}

struct Inner {
    store: Store,
    backend: Backend,
    settings: QueueSettings,
}

/// A handle for enqueueing jobs. Clone it freely; `Debug` never shows the URL.
#[derive(Clone)]
pub struct Queue {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for Queue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Queue")
            .field("backend", &self.inner.backend.name())
            .field("queue", &self.inner.settings.queue_name)
            .finish()
    }
}

/// Optional parts of an enqueue.
#[derive(Debug, Clone, Default)]
pub struct EnqueueOptions {
    /// The background-task record the job reports to.
    pub task_id: Option<String>,
    /// At most one job is ever enqueued per key (e.g. `cleanup:2026-11-21`); later
    /// enqueues with the same key are dropped.
    pub unique_key: Option<String>,
    /// Do not start before this delay has passed (the stores count whole seconds, so the
    /// start may come up to a second later).
    pub run_after: Option<Duration>,
}

/// What an enqueue did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Enqueued {
    /// A new job with this queue id.
    New(String),
    /// Nothing: a job with the same uniqueness key exists already.
    Duplicate,
}

impl Enqueued {
    /// The new job's id, if one was enqueued.
    pub fn id(&self) -> Option<&str> {
        match self {
            Enqueued::New(id) => Some(id),
            Enqueued::Duplicate => None,
        }
    }
}

/// A new queue id. apalis-sqlite and apalis-postgres read ids back as ULIDs, so they
/// must be ULIDs: a UUID v7 has the ULID layout (48-bit millisecond time, then random
/// bits), written here in ULID's Crockford base32.
pub fn new_job_id() -> String {
    const ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
    let n = uuid::Uuid::now_v7().as_u128();
    (0..26)
        .rev()
        .map(|i| ALPHABET[((n >> (i * 5)) & 31) as usize] as char)
        .collect()
}

/// Opens the SQLite pool the queue (and its workers) use on `url`: WAL, a busy timeout
/// instead of "database is locked" errors.
async fn sqlite_pool(url: &str) -> anyhow::Result<apalis_sqlite::SqlitePool> {
    let opts = apalis_sqlite::SqliteConnectOptions::from_str(url)?
        .create_if_missing(true)
        .journal_mode(sqlx::sqlite::SqliteJournalMode::Wal)
        .synchronous(sqlx::sqlite::SqliteSynchronous::Normal)
        .busy_timeout(Duration::from_secs(10));
    Ok(apalis_sqlite::SqlitePoolOptions::new()
        .max_connections(4)
        .connect_with(opts)
        .await?)
}

impl Queue {
    /// Connects to `QUEUE_URL` and runs the store's migrations, with settings from the
    /// environment (see [`QueueSettings::from_env`]).
    pub async fn connect(config: &Config) -> anyhow::Result<Queue> {
        if config.queue_backend == Backend::Sqlite {
            config.ensure_data_dir()?;
        }
        Queue::connect_with(config.queue_url.expose_secret(), QueueSettings::from_env()?).await
    }

    /// Connects to a `sqlite://`, `postgres://` or `redis://` URL and runs the store's
    /// migrations. apalis' SQL migrations are tracked in their own `_apalis_migrations`
    /// table so they never collide with the application's when both share a database.
    pub async fn connect_with(url: &str, settings: QueueSettings) -> anyhow::Result<Queue> {
        let backend =
            Backend::of_url(url).ok_or_else(|| anyhow::anyhow!("unsupported queue URL scheme"))?;
        let store = match backend {
            Backend::Sqlite => {
                let pool = sqlite_pool(url).await?;
                let mut migrator = apalis_sqlite::SqliteStorage::migrations();
                migrator.dangerous_set_table_name("_apalis_migrations");
                migrator.run(&pool).await?;
                Store::Sqlite(pool)
            }
            Backend::Postgres => {
                let pool = apalis_postgres::PgPool::connect(url).await?;
                let mut migrator = apalis_postgres::PostgresStorage::migrations();
                migrator.dangerous_set_table_name("_apalis_migrations");
                migrator.run(&pool).await?;
                Store::Postgres(pool)
            }
            Backend::Redis => {
                let conn = apalis_redis::connect(url).await?;
                let config = apalis_redis::Config::default()
                    .queue(&settings.queue_name)
                    .idempotency_ttl(Some(settings.unique_key_ttl));
                Store::Redis { conn, config }
            }
        };
        tracing::info!(backend = backend.name(), queue = %settings.queue_name, "job queue connected");
        Ok(Queue {
            inner: Arc::new(Inner {
                store,
                backend,
                settings,
            }),
        })
    }

    /// Which store this queue uses.
    pub fn backend(&self) -> Backend {
        self.inner.backend
    }

    /// The queue's tuning.
    pub fn settings(&self) -> &QueueSettings {
        &self.inner.settings
    }

    /// The underlying store (for the worker pool).
    pub fn store(&self) -> &Store {
        &self.inner.store
    }

    /// Enqueues a job to run as soon as a worker is free (dropped as a duplicate when its
    /// [`Job::unique_key`] is taken). For jobs caused by a database write, use the outbox
    /// ([`super::outbox::push`]) in the write's transaction instead.
    pub async fn enqueue<J: Job>(&self, job: &J) -> anyhow::Result<Enqueued> {
        self.enqueue_with(job, EnqueueOptions::default()).await
    }

    /// Enqueues a job with a task record, a uniqueness key (over the job's own) or a delay.
    pub async fn enqueue_with<J: Job>(
        &self,
        job: &J,
        mut options: EnqueueOptions,
    ) -> anyhow::Result<Enqueued> {
        if options.unique_key.is_none() {
            options.unique_key = job.unique_key();
        }
        let envelope = Envelope::new(job, options.task_id.clone())?;
        let enqueued = self.enqueue_envelope(&envelope, &options).await?;
        if let Enqueued::New(id) = &enqueued {
            tracing::debug!(job.id = %id, job.kind = J::KIND, "job enqueued");
        }
        Ok(enqueued)
    }

    /// Enqueues an existing envelope again (retries and rate-limit snoozes keep its id).
    pub async fn enqueue_envelope(
        &self,
        envelope: &Envelope,
        options: &EnqueueOptions,
    ) -> anyhow::Result<Enqueued> {
        self.enqueue_raw(serde_json::to_value(envelope)?, options)
            .await
    }

    /// Enqueues any JSON value as a job, valid or not (for tests and repairs).
    pub async fn enqueue_raw(
        &self,
        value: serde_json::Value,
        options: &EnqueueOptions,
    ) -> anyhow::Result<Enqueued> {
        let id = new_job_id();
        let mut builder = TaskBuilder::new(serde_json::to_vec(&value)?)
            .task_id(TaskId::from_string(id.clone()))
            // Our runner decides retries; the store must never re-run a failed row itself.
            .max_attempts(1);
        if let Some(delay) = options.run_after {
            // The stores count whole seconds: round up so a job never starts early.
            let due_ms = crate::ids::now_ms().max(0) as u64 + delay.as_millis() as u64;
            builder = builder.run_at_timestamp(due_ms.div_ceil(1000));
        }
        if let Some(key) = &options.unique_key {
            builder = builder.idempotency_key(key);
        }
        let task = builder.build();
        let queue = self.inner.settings.queue_name.as_str();
        let fresh = match &self.inner.store {
            Store::Sqlite(pool) => {
                let mut conn = pool.acquire().await?;
                apalis_sqlite::queries::push_tasks(&mut *conn, queue, std::slice::from_ref(&task))
                    .await?;
                match &options.unique_key {
                    None => true,
                    Some(key) => {
                        let owner: Option<String> = sqlx::query_scalar(
                            "SELECT id FROM Jobs WHERE job_type = ?1 AND idempotency_key = ?2",
                        )
                        .bind(queue)
                        .bind(key)
                        .fetch_optional(&mut *conn)
                        .await?;
                        owner.as_deref() == Some(id.as_str())
                    }
                }
            }
            Store::Postgres(pool) => {
                let mut conn = pool.acquire().await?;
                match apalis_postgres::queries::push_tasks(&mut *conn, queue, vec![task]).await {
                    Ok(()) => true,
                    Err(apalis_postgres::Error::Database(sqlx::Error::Database(e)))
                        if options.unique_key.is_some() && e.is_unique_violation() =>
                    {
                        false
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            Store::Redis { conn, config } => {
                let mut conn = conn.clone();
                let (now, later) =
                    apalis_redis::queries::push_tasks(&mut conn, config, &[task]).await?;
                now + later > 0
            }
        };
        Ok(if fresh {
            Enqueued::New(id)
        } else {
            Enqueued::Duplicate
        })
    }
}
