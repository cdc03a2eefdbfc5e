//! `cleanup`: deletes expired sessions, spent recovery codes, old finished task records,
//! old attempt counters and emails that could not be sent within a day (so no recovery
//! code outlives its use). Safe to run any number of times.

use searchdeck_common::{Db, ids, jobs::Cleanup, queue::JobError};

use crate::{Done, Handler, JobContext};

const DAY_MS: i64 = 24 * 3600 * 1000;

/// Rows removed by one clean-up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cleaned {
    pub sessions: u64,
    pub recovery_codes: u64,
    pub tasks: u64,
    pub job_runs: u64,
    pub emails: u64,
}

/// Deletes what has expired as of `now_ms`.
pub async fn cleanup(db: &Db, now_ms: i64) -> Result<Cleaned, sqlx::Error> {
    let sessions = sqlx::query("DELETE FROM sessions WHERE expires_at < $1")
        .bind(now_ms)
        .execute(&db.pool)
        .await?;
    let day_ago = now_ms - DAY_MS;
    let codes = sqlx::query(
        "DELETE FROM recovery_codes WHERE (used_at IS NOT NULL AND used_at < $1) OR expires_at < $1",
    )
    .bind(day_ago)
    .execute(&db.pool)
    .await?;
    let month_ago = now_ms - 30 * DAY_MS;
    let tasks = sqlx::query("DELETE FROM tasks WHERE finish = 1 AND finished_at < $1")
        .bind(month_ago)
        .execute(&db.pool)
        .await?;
    let runs = sqlx::query("DELETE FROM job_runs WHERE updated_at < $1")
        .bind(month_ago)
        .execute(&db.pool)
        .await?;
    let emails = sqlx::query("DELETE FROM emails WHERE created_at < $1")
        .bind(day_ago)
        .execute(&db.pool)
        .await?;
    Ok(Cleaned {
        sessions: sessions.rows_affected(),
        recovery_codes: codes.rows_affected(),
        tasks: tasks.rows_affected(),
        job_runs: runs.rows_affected(),
        emails: emails.rows_affected(),
    })
}

impl Handler for Cleanup {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<()>, JobError> {
        let cleaned = cleanup(&ctx.runtime.db, ids::now_ms()).await?;
        tracing::info!(
            job.id = %ctx.job_id,
            period = %self.period,
            sessions = cleaned.sessions,
            recovery_codes = cleaned.recovery_codes,
            tasks = cleaned.tasks,
            job_runs = cleaned.job_runs,
            emails = cleaned.emails,
            "clean-up done"
        );
        Ok(Done::message("Clean-up done"))
    }
}
