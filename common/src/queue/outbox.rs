//! The transactional outbox: jobs caused by a database write are written as `job_outbox`
//! rows in the same transaction as that write, then relayed to the queue.
//!
//! A write and its job therefore commit together or not at all: a queue that is down when
//! a task is created delays the job instead of losing it, and the task never shows as
//! running forever. The relay ([`relay_once`], looped by [`run_relay`] in every worker
//! process, and tried once right after commit by the API) enqueues each row under the
//! uniqueness key `outbox:<row id>` (or the job's own key) with the row id as the job id,
//! then deletes the row; a relay that crashes between the two re-sends the row later and
//! the queue drops the duplicate, so nothing runs twice.

use std::{future::Future, time::Duration};

use sqlx::{Any, Executor, Row};

use crate::{Db, ids};

use super::{EnqueueOptions, Envelope, Job, Queue};

/// Optional parts of an outbox row.
#[derive(Debug, Clone, Default)]
pub struct OutboxOptions {
    /// The background-task record the job reports to.
    pub task_id: Option<String>,
    /// Do not start before this delay has passed.
    pub run_after: Option<Duration>,
}

/// Writes `job` to the outbox through `executor` (a transaction, so it commits with the
/// write that causes it) and returns the job's id.
pub async fn push<'e, J: Job>(
    executor: impl Executor<'e, Database = Any>,
    job: &J,
    options: OutboxOptions,
) -> Result<String, sqlx::Error> {
    let id = ids::new_id();
    let now = ids::now_ms();
    let payload = serde_json::to_string(job).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let run_after = options
        .run_after
        .map(|d| now + d.as_millis() as i64)
        .unwrap_or(now);
    sqlx::query(
        "INSERT INTO job_outbox (id, kind, task_id, payload, unique_key, run_after_ms, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7)",
    )
    .bind(&id)
    .bind(J::KIND)
    .bind(options.task_id)
    .bind(payload)
    .bind(job.unique_key())
    .bind(run_after)
    .bind(now)
    .execute(executor)
    .await?;
    Ok(id)
}

/// Relays up to `limit` outbox rows to the queue, oldest first, and returns how many went.
/// Stops at the first enqueue that fails (the queue is down: the rest would fail too) and
/// records the error on that row.
pub async fn relay_once(db: &Db, queue: &Queue, limit: i64) -> anyhow::Result<usize> {
    let rows = sqlx::query(
        "SELECT id, kind, task_id, payload, unique_key, run_after_ms FROM job_outbox \
         ORDER BY created_at, id LIMIT $1",
    )
    .bind(limit)
    .fetch_all(&db.pool)
    .await?;
    let mut relayed = 0;
    for row in rows {
        let id: String = row.try_get("id")?;
        let payload: String = row.try_get("payload")?;
        let envelope = Envelope {
            id: id.clone(),
            kind: row.try_get("kind")?,
            task_id: row.try_get("task_id")?,
            payload: serde_json::from_str(&payload)?,
        };
        let unique_key: Option<String> = row.try_get("unique_key")?;
        let delay_ms = row.try_get::<i64, _>("run_after_ms")? - ids::now_ms();
        let options = EnqueueOptions {
            task_id: envelope.task_id.clone(),
            unique_key: Some(unique_key.unwrap_or_else(|| format!("outbox:{id}"))),
            run_after: (delay_ms > 0).then(|| Duration::from_millis(delay_ms as u64)),
        };
        if let Err(e) = queue.enqueue_envelope(&envelope, &options).await {
            sqlx::query(
                "UPDATE job_outbox SET attempts = attempts + 1, last_error = $2 WHERE id = $1",
            )
            .bind(&id)
            .bind(format!("{e:#}"))
            .execute(&db.pool)
            .await?;
            return Err(e.context("queue unavailable; outbox rows wait"));
        }
        sqlx::query("DELETE FROM job_outbox WHERE id = $1")
            .bind(&id)
            .execute(&db.pool)
            .await?;
        tracing::debug!(job.id = %id, job.kind = %envelope.kind, "job relayed from the outbox");
        relayed += 1;
    }
    Ok(relayed)
}

/// Relays outbox rows every `every` until `shutdown` completes, backing off (up to 30 s)
/// while the queue or the database fails.
pub async fn run_relay(
    db: Db,
    queue: Queue,
    every: Duration,
    shutdown: impl Future<Output = ()> + Send,
) {
    let mut shutdown = std::pin::pin!(shutdown);
    let mut wait = every;
    loop {
        tokio::select! {
            () = &mut shutdown => return,
            () = tokio::time::sleep(wait) => {}
        }
        wait = match relay_once(&db, &queue, 100).await {
            // A full batch: more are waiting.
            Ok(100) => Duration::ZERO,
            Ok(_) => every,
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "outbox relay failed; retrying");
                (wait * 2).clamp(every, Duration::from_secs(30))
            }
        };
    }
}

/// Outbox rows not yet relayed (for health checks and tests).
pub async fn pending(db: &Db) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM job_outbox")
        .fetch_one(&db.pool)
        .await
}
