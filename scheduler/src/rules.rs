//! The rule triggers (docs/api/rules.md "Scheduling"): on every tick, each enabled rule
//! with at least one enabled campaign, and each campaign's goal optimisation (its built-in
//! rule, daily at 06:00 of the campaign group's time zone), gets `run-rule` for its latest
//! due time at or before now (`searchdeck_common::rules::schedule::latest_due`), with the
//! uniqueness key `rule:<id>:<due time>`. The queue keeps one job per key, so two
//! schedulers enqueue a period once; a scheduler that was down enqueues only the latest
//! missed period on return (an earlier one is never asked for again); a rule does not fire
//! before its first due time after it was created or enabled.

use searchdeck_common::{
    Db,
    jobs::RunRule,
    queue::{Enqueued, Queue},
    rules::{Frequency, Rule, schedule},
    store::rule_runs,
};

/// The `run-rule` jobs due at `now` (Unix seconds): one per rule or optimisation whose
/// latest due time is at or after its enabling.
pub async fn due(db: &Db, now: i64) -> anyhow::Result<Vec<RunRule>> {
    let mut out = Vec::new();
    for r in rule_runs::scheduled_rules(&db.pool).await? {
        let rule: Rule = match serde_json::from_str(&r.body) {
            Ok(rule) => rule,
            Err(e) => {
                tracing::error!(rule = %r.rule_id, error = %e, "unreadable rule; not scheduled");
                continue;
            }
        };
        if let Some(at) =
            schedule::latest_due(&rule.frequency, r.time_zone.as_deref(), now, r.enabled_at)
        {
            out.push(job(r.rule_id, at));
        }
    }
    let daily = Frequency::Daily { hour: 6 };
    for o in rule_runs::optimizations(&db.pool).await? {
        if let Some(at) = schedule::latest_due(&daily, o.time_zone.as_deref(), now, o.enabled_at) {
            out.push(job(o.key(), at));
        }
    }
    Ok(out)
}

fn job(rule: String, at: i64) -> RunRule {
    RunRule {
        rule,
        period: schedule::period(at),
        trigger: "SCHEDULE".into(),
        user_id: None,
        user_email: None,
    }
}

/// Enqueues the due `run-rule` jobs at `now` (Unix seconds); duplicates are dropped by the
/// queue. Returns each job with what the queue answered.
pub async fn tick_rules(
    db: &Db,
    queue: &Queue,
    now: i64,
) -> anyhow::Result<Vec<(RunRule, anyhow::Result<Enqueued>)>> {
    let mut out = Vec::new();
    for job in due(db, now).await? {
        let result = queue.enqueue(&job).await;
        match &result {
            Ok(Enqueued::New(id)) => {
                tracing::info!(job.id = %id, rule = %job.rule, period = %job.period, "rule run enqueued")
            }
            Ok(Enqueued::Duplicate) => {}
            Err(e) => {
                tracing::error!(rule = %job.rule, period = %job.period, error = %format!("{e:#}"), "could not enqueue a rule run")
            }
        }
        out.push((job, result));
    }
    Ok(out)
}
