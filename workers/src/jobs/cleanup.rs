//! `cleanup`: deletes expired sessions, spent recovery codes, old finished task records,
//! old attempt counters, the creation jobs' records of what they made at Apple (with their
//! tasks, after 30 days), keyword suggester results older than 24 h and emails that could
//! not be sent within a day (so no recovery code outlives its use), team invitations 30
//! days after they expired or were used (`store::team::EXPIRED_KEPT_MS`), and the activity log's
//! notifications (with their change records) older than `SEARCHDECK_ACTIVITY_RETENTION_DAYS`,
//! 5,000 at a time. Safe to run any number of times.

use searchdeck_common::{Db, email, ids, jobs::Cleanup, queue::JobError, store};

use crate::{Done, Handler, JobContext, runner};

const DAY_MS: i64 = 24 * 3600 * 1000;
/// Notifications deleted per statement (each batch its own transaction).
pub const ACTIVITY_BATCH: i64 = 5_000;

/// Rows removed by one clean-up.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cleaned {
    pub sessions: u64,
    pub recovery_codes: u64,
    pub tasks: u64,
    pub job_runs: u64,
    pub emails: u64,
    /// Keyword suggester results past their 24 h.
    pub suggester_results: u64,
    /// The creation jobs' records (`creation_entities`) older than 30 days.
    pub creation_records: u64,
    /// Team invitations expired or used more than 30 days ago.
    pub invitations: u64,
    /// Notifications and change records past the activity log's retention.
    pub activity: u64,
}

/// Deletes the activity log's notifications (and change records) made more than
/// `retention_days` before `now_ms`, in batches of [`ACTIVITY_BATCH`]; returns how many rows.
pub async fn delete_old_activity(
    db: &Db,
    now_ms: i64,
    retention_days: u32,
) -> Result<u64, sqlx::Error> {
    let before = (now_ms - i64::from(retention_days) * DAY_MS) / 1000;
    let mut total = 0;
    loop {
        let mut conn = db.pool.acquire().await?;
        let n =
            store::activity::notifications::delete_older(&mut conn, before, ACTIVITY_BATCH).await?;
        total += n;
        if n == 0 {
            return Ok(total);
        }
    }
}

/// Deletes what has expired as of `now_ms` (the activity log's after `retention_days`).
pub async fn cleanup(db: &Db, now_ms: i64, retention_days: u32) -> Result<Cleaned, sqlx::Error> {
    let day_ago = now_ms - DAY_MS;
    let month_ago = now_ms - 30 * DAY_MS;
    Ok(Cleaned {
        sessions: store::sessions::delete_expired(&db.pool, now_ms).await?,
        recovery_codes: store::recovery::delete_spent(&db.pool, day_ago).await?,
        tasks: store::tasks::delete_finished(&db.pool, month_ago).await?,
        job_runs: runner::forget_runs(db, month_ago).await?,
        emails: email::delete_queued_before(db, day_ago).await?,
        suggester_results: store::suggester::delete_expired(&db.pool, now_ms).await?,
        creation_records: store::creation::delete_before(&db.pool, month_ago).await?,
        invitations: store::team::delete_stale(&db.pool, now_ms - store::team::EXPIRED_KEPT_MS)
            .await?,
        activity: delete_old_activity(db, now_ms, retention_days).await?,
    })
}

impl Handler for Cleanup {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<()>, JobError> {
        let cleaned = cleanup(
            &ctx.runtime.db,
            ids::now_ms(),
            ctx.runtime.activity_retention_days,
        )
        .await?;
        tracing::info!(
            job.id = %ctx.job_id,
            period = %self.period,
            sessions = cleaned.sessions,
            recovery_codes = cleaned.recovery_codes,
            tasks = cleaned.tasks,
            job_runs = cleaned.job_runs,
            emails = cleaned.emails,
            suggester_results = cleaned.suggester_results,
            creation_records = cleaned.creation_records,
            invitations = cleaned.invitations,
            activity = cleaned.activity,
            "clean-up done"
        );
        Ok(Done::message("Clean-up done"))
    }
}
