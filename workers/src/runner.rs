//! Runs one job: decode, count the attempt, dispatch by kind, and decide what happens next.
//!
//! Outcomes and how they reach the apalis store (the same on every backend):
//! - done: the handler returns `Ok`; the task record is finished once;
//! - retryable error with attempts left: a copy of the envelope (same id, so the attempt
//!   count carries on) is enqueued to run after an exponential, jittered, capped delay and
//!   this run is acknowledged;
//! - rate limited: the same, after `retry_after`, and the attempt is given back;
//! - the database too busy to take a write (for up to `BUSY_PATIENCE_MS` after the first
//!   run): the same, after the retry delay, and the attempt is given back;
//! - permanent error, attempts exhausted, unknown kind or undecodable payload: the task
//!   record is failed and the run ends with apalis' `AbortError` (status `Killed`), which
//!   no store ever re-runs; a decoded job's `Handler::gave_up` ends what it left in
//!   progress (a rule run becomes `FAILED` with the reason).
//!
//! Attempts are counted in `job_runs` at the start of each run, so runs lost to a killed
//! worker (which apalis re-enqueues as orphans) spend attempts too and cannot loop.

use std::{panic::AssertUnwindSafe, sync::Arc, time::Duration};

use apalis_core::{
    error::{AbortError, BoxDynError},
    task::{data::Data, task_id::TaskId},
    worker::context::WorkerContext,
};
use futures::FutureExt;
use searchdeck_common::{
    Db, ids,
    queue::{EnqueueOptions, Envelope, JobError, RetryPolicy},
    store,
};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use crate::{
    context::{JobRun, Runtime},
    registry::Registry,
};

/// How long after its first run a job whose run found the database busy (SQLite's write
/// lock held past the busy timeout by a long write, a deadlock victim on PostgreSQL) gets
/// the attempt back: contention is not the job's failure, and a large account's sync beside
/// other writers on one SQLite file would otherwise spend its few attempts waiting its turn
/// (seen giving up after 5 on a loaded machine). Past it, busy runs count like any failure,
/// so a database that stays locked still ends the job.
const BUSY_PATIENCE_MS: i64 = 30 * 60 * 1000;

/// Counts one more run of a logical job; returns the count and when its first run started.
async fn count_run(db: &Db, envelope: &Envelope) -> Result<(u32, i64), sqlx::Error> {
    let now = ids::now_ms();
    let (runs, first): (i64, i64) = sqlx::query_as(
        "INSERT INTO job_runs (job_id, kind, runs, created_at, updated_at) VALUES ($1, $2, 1, $3, $3) \
         ON CONFLICT (job_id) DO UPDATE SET runs = job_runs.runs + 1, updated_at = $3 \
         RETURNING runs, created_at",
    )
    .bind(&envelope.id)
    .bind(&envelope.kind)
    .bind(now)
    .fetch_one(&db.pool)
    .await?;
    Ok((runs.max(0) as u32, first))
}

/// Whether `err` comes from a database too busy to take the write ([`Db::is_busy`]).
fn busy_database(err: &anyhow::Error) -> bool {
    err.chain()
        .any(|c| c.downcast_ref::<sqlx::Error>().is_some_and(Db::is_busy))
}

/// Gives an attempt back (rate-limit snoozes do not spend one).
async fn uncount_run(db: &Db, job_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE job_runs SET runs = runs - 1, updated_at = $2 WHERE job_id = $1 AND runs > 0",
    )
    .bind(job_id)
    .bind(ids::now_ms())
    .execute(&db.pool)
    .await?;
    Ok(())
}

/// Forgets the run counts of jobs last run before `before`; returns how many.
pub(crate) async fn forget_runs(db: &Db, before: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM job_runs WHERE updated_at < $1")
        .bind(before)
        .execute(&db.pool)
        .await?;
    Ok(done.rows_affected())
}

async fn fail_task(db: &Db, task_id: Option<&str>, error: &str) {
    if let Some(task_id) = task_id
        && let Err(e) = store::tasks::finish(&db.pool, task_id, "Failed", Some(error)).await
    {
        tracing::error!(task.id = %task_id, error = %e, "could not record the task's failure");
    }
}

fn abort(message: String) -> BoxDynError {
    Box::new(AbortError::new(message))
}

/// Cancels `token` once the task's stop is asked for (checked every `every`); runs until
/// dropped.
async fn watch_cancel(db: Db, task_id: String, token: CancellationToken, every: Duration) {
    loop {
        match store::tasks::cancel_requested(&db.pool, &task_id).await {
            Ok(true) => {
                tracing::info!(task.id = %task_id, "stop requested");
                token.cancel();
                return;
            }
            Ok(false) => {}
            Err(e) => {
                tracing::warn!(task.id = %task_id, error = %e, "could not check for a stop request")
            }
        }
        tokio::time::sleep(every).await;
    }
}

/// The apalis handler every job goes through.
pub async fn handle(
    args: Value,
    run_id: TaskId,
    worker: WorkerContext,
    runtime: Data<Arc<Runtime>>,
    registry: Data<Arc<Registry>>,
) -> Result<Value, BoxDynError> {
    let runtime: Arc<Runtime> = (*runtime).clone();
    let run_id = run_id.to_string();
    let decoded = Envelope::decode(&args)
        .and_then(|envelope| registry.decode(&envelope).map(|job| (envelope, job)));
    let (envelope, job) = match decoded {
        Ok(decoded) => decoded,
        Err(e) => {
            tracing::error!(job.run_id = %run_id, error = %e, "job can never run; failed permanently");
            let task_id = args.get("taskId").and_then(Value::as_str);
            fail_task(&runtime.db, task_id, "Error. Try again later").await;
            return Err(abort(e.to_string()));
        }
    };
    let kind = envelope.kind.as_str();
    let policy = RetryPolicy::new(job.max_attempts(), runtime.queue.settings());
    let (attempt, first_run_ms) = match count_run(&runtime.db, &envelope).await {
        Ok(counted) => counted,
        Err(e) => {
            // Without the count we cannot honour the cap: try again shortly.
            tracing::warn!(job.id = %envelope.id, job.kind = kind, error = %e, "could not count the attempt; rescheduling");
            return reschedule(
                &runtime,
                &envelope,
                policy.backoff.base,
                "attempt not counted",
            )
            .await;
        }
    };
    let task_id = envelope.task_id.clone();
    if attempt > policy.max_attempts {
        let msg = format!(
            "gave up after {} attempts (the last runs were lost with their worker)",
            policy.max_attempts
        );
        tracing::error!(job.id = %envelope.id, job.kind = kind, attempt, "{msg}");
        fail_task(&runtime.db, task_id.as_deref(), &msg).await;
        job.gave_up(&runtime, &msg).await;
        return Err(abort(msg));
    }
    if let Some(task_id) = &task_id
        && let Err(e) = store::tasks::attempt(&runtime.db.pool, task_id).await
    {
        tracing::warn!(task.id = %task_id, error = %e, "could not count the task's attempt");
    }
    let cancel = CancellationToken::new();
    let watcher = task_id.clone().map(|task_id| {
        tokio::spawn(watch_cancel(
            runtime.db.clone(),
            task_id,
            cancel.clone(),
            runtime.cancel_poll,
        ))
    });
    let run = JobRun {
        runtime: runtime.clone(),
        run_id: run_id.clone(),
        job_id: envelope.id.clone(),
        attempt,
        worker: worker.name().to_string(),
        task_id: task_id.clone(),
        cancel,
    };
    tracing::info!(job.id = %envelope.id, job.run_id = %run_id, job.kind = kind, attempt, worker = worker.name(), "job started");
    let outcome = AssertUnwindSafe(job.run(run))
        .catch_unwind()
        .await
        .unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            Err(JobError::Retryable(anyhow::anyhow!("job panicked: {what}")))
        });
    if let Some(watcher) = watcher {
        watcher.abort();
    }
    match outcome {
        Ok(finished) => {
            if let Some(task_id) = &task_id {
                if let Some(details) = &finished.details
                    && let Err(e) =
                        store::tasks::set_details(&runtime.db.pool, task_id, details).await
                {
                    tracing::warn!(task.id = %task_id, error = %e, "could not record the task's final progress");
                }
                if let Err(e) =
                    store::tasks::finish(&runtime.db.pool, task_id, &finished.message, None).await
                {
                    tracing::error!(task.id = %task_id, error = %e, "could not record the task as finished");
                }
            }
            tracing::info!(job.id = %envelope.id, job.kind = kind, attempt, "job done");
            Ok(json!({ "outcome": "done", "attempt": attempt }))
        }
        Err(JobError::Cancelled) => {
            if let Some(task_id) = &task_id
                && let Err(e) =
                    store::tasks::finish(&runtime.db.pool, task_id, "Stopped", None).await
            {
                tracing::error!(task.id = %task_id, error = %e, "could not record the task as stopped");
            }
            tracing::info!(job.id = %envelope.id, job.kind = kind, attempt, "job stopped on request");
            Ok(json!({ "outcome": "stopped", "attempt": attempt }))
        }
        Err(JobError::RateLimited {
            retry_after,
            source,
        }) => {
            tracing::info!(job.id = %envelope.id, job.kind = kind, ?retry_after, error = %source, "job rate limited; snoozing without spending an attempt");
            if let Err(e) = uncount_run(&runtime.db, &envelope.id).await {
                tracing::warn!(job.id = %envelope.id, error = %e, "could not give the attempt back");
            }
            reschedule(&runtime, &envelope, retry_after, "rate limited").await
        }
        Err(JobError::Retryable(e))
            if busy_database(&e) && ids::now_ms() - first_run_ms < BUSY_PATIENCE_MS =>
        {
            let delay = policy.delay_after(attempt);
            tracing::warn!(job.id = %envelope.id, job.kind = kind, attempt, ?delay, error = %format!("{e:#}"), "the database was busy; trying again without spending an attempt");
            if let Err(e) = uncount_run(&runtime.db, &envelope.id).await {
                tracing::warn!(job.id = %envelope.id, error = %e, "could not give the attempt back");
            }
            reschedule(&runtime, &envelope, delay, "database busy").await
        }
        Err(JobError::Retryable(e)) if policy.may_retry(attempt) => {
            let delay = policy.delay_after(attempt);
            tracing::warn!(job.id = %envelope.id, job.kind = kind, attempt, ?delay, error = %format!("{e:#}"), "job failed; retrying");
            reschedule(&runtime, &envelope, delay, "retry").await
        }
        Err(JobError::Retryable(e)) => {
            let msg = format!("gave up after {attempt} attempts: {e:#}");
            tracing::error!(job.id = %envelope.id, job.kind = kind, attempt, "{msg}");
            fail_task(&runtime.db, task_id.as_deref(), &format!("{e:#}")).await;
            job.gave_up(&runtime, &msg).await;
            Err(abort(msg))
        }
        Err(JobError::Permanent(e)) => {
            let msg = format!("{e:#}");
            tracing::error!(job.id = %envelope.id, job.kind = kind, attempt, error = %msg, "job failed permanently");
            fail_task(&runtime.db, task_id.as_deref(), &msg).await;
            job.gave_up(&runtime, &msg).await;
            Err(abort(msg))
        }
    }
}

/// How long [`reschedule`] keeps trying to enqueue the next run while the queue's database
/// is busy. A busy SQLite file refuses the insert without writing it, so trying again
/// cannot enqueue twice; giving up instead would leave a job that had attempts left failed
/// (seen with a 2,000-keyword bulk edit beside a sync on one loaded file).
const RESCHEDULE_PATIENCE: Duration = Duration::from_secs(120);

/// Enqueues the envelope again after `delay` and acknowledges this run, waiting out a busy
/// database for up to [`RESCHEDULE_PATIENCE`]. When even that fails the run ends with a
/// plain error, leaving the job to the store's own handling.
async fn reschedule(
    runtime: &Runtime,
    envelope: &Envelope,
    delay: Duration,
    why: &str,
) -> Result<Value, BoxDynError> {
    let started = std::time::Instant::now();
    let mut pause = Duration::from_millis(200);
    loop {
        // The due time counts from now, so a wait for the lock does not add to the delay.
        let options = EnqueueOptions {
            task_id: envelope.task_id.clone(),
            unique_key: None,
            run_after: Some(delay.saturating_sub(started.elapsed())),
        };
        match runtime.queue.enqueue_envelope(envelope, &options).await {
            Ok(next) => {
                return Ok(
                    json!({ "outcome": why, "delayMs": delay.as_millis() as u64, "next": next.id() }),
                );
            }
            Err(e) if busy_database(&e) && started.elapsed() < RESCHEDULE_PATIENCE => {
                tracing::warn!(job.id = %envelope.id, ?pause, error = %format!("{e:#}"), "the queue was busy; rescheduling again");
                tokio::time::sleep(pause).await;
                pause = (pause * 2).min(Duration::from_secs(5));
            }
            Err(e) => {
                tracing::error!(job.id = %envelope.id, error = %format!("{e:#}"), "could not reschedule the job");
                return Err(format!("could not reschedule: {e}").into());
            }
        }
    }
}
