//! The scheduler role: enqueues periodic work; it never does the work itself.
//!
//! Periodic jobs come from two places: the built-in list ([`schedule`], e.g. the hourly
//! clean-up) and the `schedules` table, where automated rules write their entries
//! ([`entries`]). Each entry fires once per period: an interval cuts time into periods
//! aligned on the Unix epoch, a cron expression (seconds first, UTC) starts one at each
//! of its times. On every tick the scheduler enqueues the job of each entry's current
//! period with the uniqueness key `<entry key>:<period start>`; the queue keeps one job per
//! key, so any number of schedulers (several processes, or a restart inside a period) fire
//! each period exactly once, and a scheduler that was down catches up with the current
//! period as soon as it starts.
//!
//! Automated rules and goal optimisations are triggered on the same tick ([`rules`]): each
//! one's latest due time in its campaign group's time zone, keyed `rule:<id>:<due time>`.

mod entries;
pub mod rules;

use std::{future::Future, time::Duration};

use searchdeck_common::{
    Db, ids,
    jobs::{Cleanup, FetchRates, RefreshPopularity},
    queue::{EnqueueOptions, Enqueued, Envelope, Queue},
};

pub use entries::{Entry, Payload, When, entries, period_start};
pub use rules::{RuleTriggers, tick_rules};

/// The built-in periodic jobs of Searchdeck.
pub fn schedule() -> Vec<Entry> {
    vec![
        Entry::every::<Cleanup>("cleanup", Duration::from_secs(3600), |start| {
            serde_json::to_value(Cleanup {
                period: ids::rfc3339(start),
            })
            .unwrap_or_default()
        }),
        // The ECB publishes once a working day around 16:00 CET; four reads a day pick each
        // publication up within six hours, and the first runs as soon as a scheduler starts.
        Entry::every::<FetchRates>("fetch-rates", Duration::from_secs(6 * 3600), |start| {
            serde_json::to_value(FetchRates {
                period: ids::rfc3339(start),
            })
            .unwrap_or_default()
        }),
        // Apple publishes search popularity weekly (Mondays): one refresh a week of the
        // synced keywords' and search terms' texts that are missing or older than 7 days.
        Entry::every::<RefreshPopularity>(
            "refresh-popularity",
            Duration::from_secs(7 * 24 * 3600),
            |start| {
                serde_json::to_value(RefreshPopularity {
                    period: ids::rfc3339(start),
                })
                .unwrap_or_default()
            },
        ),
    ]
}

/// Enqueues the current period's job of every entry (duplicates are dropped by the queue).
pub async fn tick(queue: &Queue, entries: &[Entry], now_ms: i64) -> Vec<anyhow::Result<Enqueued>> {
    let mut results = Vec::with_capacity(entries.len());
    for entry in entries {
        let Some(start) = entry.when.period_start(now_ms) else {
            continue;
        };
        if entry.since_ms.is_some_and(|since| start < since) {
            continue;
        }
        let key = format!("{}:{}", entry.key, ids::rfc3339(start));
        let options = EnqueueOptions {
            unique_key: Some(key.clone()),
            ..Default::default()
        };
        let envelope = Envelope {
            id: ids::new_id(),
            kind: entry.kind.clone(),
            task_id: None,
            payload: entry.payload_for(start),
        };
        let result = queue.enqueue_envelope(&envelope, &options).await;
        match &result {
            Ok(Enqueued::New(id)) => {
                tracing::info!(job.id = %id, schedule = %entry.key, key = %key, "periodic job enqueued")
            }
            Ok(Enqueued::Duplicate) => {
                tracing::debug!(schedule = %entry.key, key = %key, "periodic job already enqueued")
            }
            Err(e) => {
                tracing::error!(schedule = %entry.key, key = %key, error = %format!("{e:#}"), "could not enqueue periodic job")
            }
        }
        results.push(result);
    }
    results
}

/// Runs the scheduler with Searchdeck's schedule until `shutdown` completes.
pub async fn run(
    db: Db,
    queue: Queue,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    run_with(db, queue, schedule(), Duration::from_secs(15), shutdown).await
}

/// [`run`] with given built-in entries and tick interval (tests use short ones). The
/// database's entries are read again on every tick.
pub async fn run_with(
    db: Db,
    queue: Queue,
    built_in: Vec<Entry>,
    tick_every: Duration,
    shutdown: impl Future<Output = ()> + Send + 'static,
) -> anyhow::Result<()> {
    tracing::info!(entries = built_in.len(), ?tick_every, "scheduler started");
    let mut shutdown = std::pin::pin!(shutdown);
    let mut interval = tokio::time::interval(tick_every);
    let mut rule_triggers = RuleTriggers::default();
    interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            () = &mut shutdown => break,
            _ = interval.tick() => {
                let mut all = built_in.clone();
                match entries(&db).await {
                    Ok(stored) => all.extend(stored),
                    Err(e) => tracing::error!(error = %format!("{e:#}"), "could not read the schedules table"),
                }
                tick(&queue, &all, ids::now_ms()).await;
                if let Err(e) = rule_triggers.tick(&db, &queue, ids::now_ms() / 1000).await {
                    tracing::error!(error = %format!("{e:#}"), "could not read the rules to trigger");
                }
            }
        }
    }
    tracing::info!("scheduler stopped");
    Ok(())
}

#[cfg(test)]
mod tests {
    use searchdeck_common::queue::Job;

    use super::*;

    #[test]
    fn popularity_is_refreshed_weekly() {
        let entries = schedule();
        let entry = entries
            .iter()
            .find(|e| e.key == "refresh-popularity")
            .expect("a built-in entry");
        assert_eq!(entry.kind, RefreshPopularity::KIND);
        assert!(
            matches!(entry.when, When::Every(d) if d == Duration::from_secs(7 * 24 * 3600)),
            "{:?}",
            entry.when
        );
        let payload = entry.payload_for(0);
        assert_eq!(payload["period"], ids::rfc3339(0));
    }
}
