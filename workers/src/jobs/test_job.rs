//! `test` (feature `test-jobs`): logs each run, misbehaves on demand, then applies its
//! effect idempotently (`INSERT … ON CONFLICT DO NOTHING`) so tests can check that a job
//! run twice after a crash still has one effect.

use std::time::Duration;

use searchdeck_common::{
    ids,
    queue::{JobError, TestJob},
};

use crate::runner::JobContext;

/// The handler.
pub async fn run(job: &TestJob, ctx: &JobContext) -> Result<(), JobError> {
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
    if starts - job.rate_limited_runs <= job.fail_runs {
        return Err(JobError::retryable(anyhow::anyhow!(
            "test job told to fail (run {starts})"
        )));
    }
    ctx.progress("Working", 1, 2, None).await;
    tokio::time::sleep(Duration::from_millis(job.sleep_ms)).await;
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
    Ok(())
}
