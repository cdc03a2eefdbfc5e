//! `test` (feature `test-jobs`): logs each run, misbehaves on demand, sleeps in steps
//! (stopping at a cancel request), then applies its effect idempotently (`INSERT … ON
//! CONFLICT DO NOTHING`) so tests can check that a job run twice after a crash still has
//! one effect.

use std::time::Duration;

use searchdeck_common::{
    ids,
    jobs::{TestJob, TestProgress},
    queue::JobError,
};

use crate::{Done, Handler, JobContext};

impl Handler for TestJob {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<TestProgress>, JobError> {
        run(self, ctx).await
    }
}

async fn run(job: &TestJob, ctx: &JobContext<TestJob>) -> Result<Done<TestProgress>, JobError> {
    let db = &ctx.runtime.db;
    let run_row = ids::new_id();
    sqlx::query(
        "INSERT INTO test_job_runs (run_id, key, started_ms, worker) VALUES ($1, $2, $3, $4)",
    )
    .bind(&run_row)
    .bind(&job.key)
    .bind(ids::now_ms())
    .bind(&ctx.worker)
    .execute(&db.pool)
    .await?;
    let starts: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM test_job_runs WHERE key = $1")
        .bind(&job.key)
        .fetch_one(&db.pool)
        .await?;
    let starts = starts as u32;
    if job.permanent {
        return Err(JobError::permanent(anyhow::anyhow!(
            "test job told to fail permanently"
        )));
    }
    if starts <= job.rate_limited_runs {
        return Err(JobError::RateLimited {
            retry_after: Duration::from_secs(job.retry_after_secs),
            source: anyhow::anyhow!("test job told to be rate limited"),
        });
    }
    if starts - job.rate_limited_runs <= job.busy_runs {
        return Err(JobError::retryable(sqlx::Error::Database(Box::new(Locked))));
    }
    if starts - job.rate_limited_runs - job.busy_runs <= job.fail_runs {
        return Err(JobError::retryable(anyhow::anyhow!(
            "test job told to fail (run {starts})"
        )));
    }
    ctx.progress("Working", 1, 2, None).await;
    let steps = job.steps.max(1);
    for step in 0..steps {
        ctx.check_cancelled()?;
        tokio::time::sleep(Duration::from_millis(job.sleep_ms / u64::from(steps))).await;
        let done = TestProgress {
            steps_done: step + 1,
        };
        ctx.progress("Working", 1, 2, Some(&done)).await;
    }
    ctx.check_cancelled()?;
    sqlx::query("INSERT INTO test_job_effects (key, done_ms, worker) VALUES ($1, $2, $3) ON CONFLICT (key) DO NOTHING")
        .bind(&job.key)
        .bind(ids::now_ms())
        .bind(&ctx.worker)
        .execute(&db.pool)
        .await?;
    sqlx::query("UPDATE test_job_runs SET finished_ms = $2 WHERE run_id = $1")
        .bind(&run_row)
        .bind(ids::now_ms())
        .execute(&db.pool)
        .await?;
    Ok(Done::with_progress(
        "Done",
        TestProgress { steps_done: steps },
    ))
}

/// SQLite's answer when its write lock stayed held past the busy timeout (code 5).
#[derive(Debug)]
struct Locked;

impl std::fmt::Display for Locked {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("database is locked")
    }
}

impl std::error::Error for Locked {}

impl sqlx::error::DatabaseError for Locked {
    fn message(&self) -> &str {
        "database is locked"
    }

    fn code(&self) -> Option<std::borrow::Cow<'_, str>> {
        Some("5".into())
    }

    fn as_error(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn as_error_mut(&mut self) -> &mut (dyn std::error::Error + Send + Sync + 'static) {
        self
    }

    fn into_error(self: Box<Self>) -> Box<dyn std::error::Error + Send + Sync + 'static> {
        self
    }

    fn kind(&self) -> sqlx::error::ErrorKind {
        sqlx::error::ErrorKind::Other
    }
}
