//! The scheduler role: enqueues periodic work; it never does the work itself.
//!
//! Every periodic job has a period (for now: the hourly clean-up). Time is cut into
//! periods aligned on the Unix epoch, and on every tick the scheduler enqueues the job of
//! the current period with the uniqueness key `<name>:<period start>`. The queue keeps one
//! job per key, so any number of schedulers (several processes, or a restart inside a
//! period) fire each period exactly once, and a scheduler that was down catches up with
//! the current period as soon as it starts.

use std::{future::Future, time::Duration};

use searchdeck_common::{
    Config, Db, ids,
    queue::{CleanupJob, EnqueueOptions, Enqueued, Job, Queue},
};
use time::{OffsetDateTime, format_description::well_known::Rfc3339};

/// A job enqueued once per period.
#[derive(Debug, Clone)]
pub struct Periodic {
    /// Name used in the uniqueness key and logs.
    pub name: &'static str,
    /// Length of a period.
    pub every: Duration,
    /// Builds the job for the period starting at the given Unix milliseconds.
    pub job: fn(period_start_ms: i64) -> Job,
}

/// The periodic jobs of Searchdeck.
pub fn schedule() -> Vec<Periodic> {
    vec![Periodic {
        name: "cleanup",
        every: Duration::from_secs(3600),
        job: |start| {
            Job::Cleanup(CleanupJob {
                period: rfc3339(start),
            })
        },
    }]
}

fn rfc3339(ms: i64) -> String {
    OffsetDateTime::from_unix_timestamp_nanos(i128::from(ms) * 1_000_000)
        .ok()
        .and_then(|t| t.format(&Rfc3339).ok())
        .unwrap_or_else(|| ms.to_string())
}

/// Start (Unix ms) of the period of length `every` that contains `now_ms`.
pub fn period_start(every: Duration, now_ms: i64) -> i64 {
    let len = (every.as_millis() as i64).max(1);
    now_ms - now_ms.rem_euclid(len)
}

/// Enqueues the current period's job of every entry (duplicates are dropped by the queue).
pub async fn tick(
    queue: &Queue,
    entries: &[Periodic],
    now_ms: i64,
) -> Vec<anyhow::Result<Enqueued>> {
    let mut results = Vec::with_capacity(entries.len());
    for entry in entries {
        let start = period_start(entry.every, now_ms);
        let key = format!("{}:{}", entry.name, rfc3339(start));
        let options = EnqueueOptions {
            unique_key: Some(key.clone()),
            ..Default::default()
        };
        let result = queue.enqueue_with(&(entry.job)(start), options).await;
        match &result {
            Ok(Enqueued::New(id)) => {
                tracing::info!(job.id = %id, schedule = entry.name, key = %key, "periodic job enqueued")
            }
            Ok(Enqueued::Duplicate) => {
                tracing::debug!(schedule = entry.name, key = %key, "periodic job already enqueued")
            }
            Err(e) => {
                tracing::error!(schedule = entry.name, key = %key, error = %format!("{e:#}"), "could not enqueue periodic job")
            }
        }
        results.push(result);
    }
    results
}

/// Runs the scheduler with Searchdeck's schedule until `shutdown` completes.
pub async fn run(
    config: &Config,
    db: Db,
    queue: Queue,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    run_with(
        config,
        db,
        queue,
        schedule(),
        Duration::from_secs(15),
        shutdown,
    )
    .await
}

/// [`run`] with a given schedule and tick interval (tests use short ones).
pub async fn run_with(
    _config: &Config,
    _db: Db,
    queue: Queue,
    entries: Vec<Periodic>,
    tick_every: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    tracing::info!(entries = entries.len(), ?tick_every, "scheduler started");
    let mut shutdown = std::pin::pin!(shutdown);
    let mut interval = tokio::time::interval(tick_every);
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            _ = interval.tick() => {
                tick(&queue, &entries, ids::now_ms()).await;
            }
        }
    }
    tracing::info!("scheduler stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn periods_align_on_the_epoch() {
        let hour = Duration::from_secs(3600);
        assert_eq!(period_start(hour, 7_200_000), 7_200_000);
        assert_eq!(period_start(hour, 7_200_001), 7_200_000);
        assert_eq!(period_start(hour, 10_799_999), 7_200_000);
        assert_eq!(rfc3339(7_200_000), "1970-01-01T02:00:00Z");
    }
}
