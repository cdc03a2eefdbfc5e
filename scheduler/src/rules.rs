//! The rule triggers (docs/api/rules.md "Scheduling"): on every tick, each enabled rule
//! with at least one enabled campaign, and each campaign's goal optimisation (its built-in
//! rule, daily at 06:00 of the campaign group's time zone), gets `run-rule` for its latest
//! due time at or before now (`searchdeck_common::rules::schedule::latest_due`), with the
//! uniqueness key `rule:<id>:<due time>`. The queue keeps one job per key, so two
//! schedulers enqueue a period once; a scheduler that was down enqueues only the latest
//! missed period on return (an earlier one is never asked for again); a rule does not fire
//! before its first due time after it was created or enabled. A running scheduler
//! ([`RuleTriggers`]) hands each (rule, period) to the queue once: its later ticks in the
//! same period skip it instead of sending the queue a duplicate every tick (1,000 due rules
//! were 1,000 rejected inserts every 15 s).

use std::collections::HashSet;

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
    RuleTriggers::default().tick(db, queue, now).await
}

/// The rule triggers of one running scheduler: the (rule, period) pairs the queue has
/// answered (new or duplicate) are not sent again while they stay due. Only the pairs still
/// due are kept, so it holds at most one period per rule.
#[derive(Debug, Default)]
pub struct RuleTriggers {
    sent: HashSet<(String, String)>,
}

impl RuleTriggers {
    /// [`tick_rules`], skipping the jobs an earlier tick of this scheduler handed to the
    /// queue; returns the jobs it sent with what the queue answered.
    pub async fn tick(
        &mut self,
        db: &Db,
        queue: &Queue,
        now: i64,
    ) -> anyhow::Result<Vec<(RunRule, anyhow::Result<Enqueued>)>> {
        let due = due(db, now).await?;
        let mut sent = HashSet::with_capacity(due.len());
        let mut out = Vec::new();
        for job in due {
            let key = (job.rule.clone(), job.period.clone());
            if self.sent.contains(&key) {
                sent.insert(key);
                continue;
            }
            let result = enqueue(queue, &job).await;
            if result.is_ok() {
                sent.insert(key);
            }
            out.push((job, result));
        }
        self.sent = sent;
        Ok(out)
    }
}

/// Enqueues one rule's job and logs what happened.
async fn enqueue(queue: &Queue, job: &RunRule) -> anyhow::Result<Enqueued> {
    let result = queue.enqueue(job).await;
    match &result {
        Ok(Enqueued::New(id)) => {
            tracing::info!(job.id = %id, rule = %job.rule, period = %job.period, "rule run enqueued")
        }
        Ok(Enqueued::Duplicate) => {}
        Err(e) => {
            tracing::error!(rule = %job.rule, period = %job.period, error = %format!("{e:#}"), "could not enqueue a rule run")
        }
    }
    result
}
