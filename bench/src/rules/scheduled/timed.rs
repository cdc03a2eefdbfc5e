//! The timed run: the real scheduler and a worker pool started together on the benchmark's
//! database, until every scheduled rule's run has ended (or the timeout), then the runs by
//! outcome, the items not applied, the calls the sandbox recorded and the client's counters.

use std::{
    sync::atomic::Ordering,
    time::{Duration, Instant},
};

use searchdeck_common::{
    Db,
    queue::{Queue, QueueSettings},
};
use searchdeck_workers::Runtime;
use tokio_util::sync::CancellationToken;

use super::ScheduledArgs;
use super::recorder::{Call, Recorder};
use super::setup::Setup;

/// What the timed run measured.
#[derive(Debug)]
pub(super) struct Measured {
    pub(super) wall: Duration,
    pub(super) first_call: Option<Duration>,
    pub(super) calls: Vec<Call>,
    pub(super) started: Instant,
    pub(super) runs: Vec<(String, i64, i64, i64, i64, i64)>,
    /// Items not applied, by result and message.
    pub(super) not_applied: Vec<(String, Option<String>, i64)>,
    pub(super) provider: searchdeck_provider::MetricsSnapshot,
}

/// Runs the scheduler and the workers until every rule of `setup` has run.
pub(super) async fn timed_run(
    args: &ScheduledArgs,
    db: &Db,
    config: &searchdeck_common::Config,
    queue_url: &str,
    recorder: &Recorder,
    setup: &Setup,
) -> anyhow::Result<Measured> {
    let queue = Queue::connect_with(queue_url, QueueSettings::from_env()?).await?;
    let runtime = Runtime::new(config, db.clone(), queue.clone()).await?;
    let stop = CancellationToken::new();
    let ended = |s: CancellationToken| async move { s.cancelled().await };
    recorder
        .calls
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .clear();
    recorder.on.store(true, Ordering::Relaxed);
    let started = Instant::now();
    let scheduler = tokio::spawn(searchdeck_scheduler::run_with(
        db.clone(),
        queue,
        Vec::new(),
        Duration::from_secs(15),
        ended(stop.clone()),
    ));
    let workers = tokio::spawn(searchdeck_workers::run_on(
        runtime.clone(),
        args.concurrency,
        ended(stop.clone()),
    ));
    let deadline = started + Duration::from_secs(args.timeout_seconds);
    let result = loop {
        let finished: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM rule_runs WHERE trigger = 'SCHEDULE' \
             AND status IN ('DONE', 'FAILED', 'SKIPPED')",
        )
        .fetch_one(&db.pool)
        .await?;
        if finished as usize >= setup.rules {
            break Ok(started.elapsed());
        }
        if Instant::now() > deadline {
            break Err(anyhow::anyhow!(
                "{finished} of {} runs ended after {} s",
                setup.rules,
                args.timeout_seconds
            ));
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    recorder.on.store(false, Ordering::Relaxed);
    stop.cancel();
    for task in [scheduler, workers] {
        match tokio::time::timeout(Duration::from_secs(60), task).await {
            Ok(Ok(Ok(()))) => {}
            Ok(Ok(Err(e))) => tracing::warn!(error = %format!("{e:#}"), "stopping"),
            Ok(Err(e)) => tracing::warn!(error = %e, "stopping"),
            Err(_) => tracing::warn!("a role did not stop within 60 s"),
        }
    }
    let wall = result?;
    let calls = recorder.take();
    let first_call = calls.iter().map(|c| c.at).min().map(|t| t - started);
    let runs: Vec<(String, i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT status, COUNT(*), CAST(SUM(matched) AS BIGINT), CAST(SUM(applied) AS BIGINT), \
           CAST(SUM(refused) AS BIGINT), CAST(SUM(skipped) AS BIGINT) \
         FROM rule_runs WHERE trigger = 'SCHEDULE' GROUP BY status ORDER BY status",
    )
    .fetch_all(&db.pool)
    .await?;
    let not_applied = sqlx::query_as(
        "SELECT result, message, COUNT(*) FROM rule_run_items WHERE result <> 'APPLIED' \
         GROUP BY result, message ORDER BY result, message",
    )
    .fetch_all(&db.pool)
    .await?;
    Ok(Measured {
        not_applied,
        wall,
        first_call,
        calls,
        started,
        runs,
        provider: runtime.provider_metrics.snapshot(),
    })
}
