//! `run-rule` and `undo-rule-run` (docs/api/rules.md "A run"; payloads in
//! `searchdeck_common::jobs::run_rule`).
//!
//! `run-rule` finds the run of its (rule, period); when there is none it loads the rule (or
//! the goal optimisation run as its built-in rule), checks the data is complete — the
//! window must end on or before the campaign group's newest complete day; when it does not,
//! the group's reports are synced first (the `sync-reports` handler, run inline) and the run
//! is `SKIPPED` with the reason if the day is still missing —, evaluates it
//! (`searchdeck_common::rules::run`) and stores the run with every planned item, absolute
//! old and new values, in one transaction (with the alert of an `alert` action). Then it
//! applies the plan ([`apply`]) through the bulk-edit sends. A job that starts again finds
//! the stored plan and only sends what is not applied: the sends report items whose change
//! record (job id = the run id) exists as applied without a call, and compare each item's
//! current synced value with its planned old value ('Changed since the rule evaluated it'),
//! so a 10 % raise is applied once.
//!
//! A rule whose campaign group is not synced stores a `SKIPPED` run saying so. A job given
//! up for good (`Handler::gave_up`: its attempts spent, or lost with killed workers) ends
//! the run it left `PLANNED` or `APPLYING` as `FAILED` with the reason.
//!
//! A run with at least 20 refused items making at least half of its sent ones disables its
//! rule and raises `RULE_PAUSED`. `undo-rule-run` ([`undo`]) stores the reverse of a run's
//! applied items as a run of trigger UNDO and applies it the same way.

mod planning;

mod apply;
mod undo;

use searchdeck_common::{
    Db, ids,
    jobs::{DeliverAlert, RunRule, RunRuleProgress, SyncReports},
    queue::{JobError, outbox},
    report::Cancel,
    rules::{Action, Channel, named, run as rule_run, schedule, window},
    store::{self, alerts, rule_runs},
};

use crate::{Done, Handler, JobContext, JobRun, context::Runtime};

pub use apply::apply;
use planning::{Planned, joined, plan};

/// Refused items from which a run may pause its rule, and the share of sent items.
pub const SELF_PAUSE_REFUSED: i64 = 20;

impl Handler for RunRule {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<RunRuleProgress>, JobError> {
        let db = &ctx.runtime.db;
        let run = match rule_runs::by_period(&db.pool, &self.rule, &self.period).await? {
            Some(run) => run,
            None => match plan(self, ctx).await? {
                Planned::Run(run) => run,
                Planned::Joined(earlier) => return Ok(joined(&earlier)),
                Planned::Gone => return Ok(Done::message("The rule is gone")),
            },
        };
        let run = if matches!(
            run.status.as_str(),
            rule_runs::PLANNED | rule_runs::APPLYING
        ) {
            finish(ctx, run).await?
        } else {
            run
        };
        let progress = RunRuleProgress {
            run_id: Some(run.id.clone()),
            status: Some(run.status.clone()),
            matched: run.matched as u64,
            applied: run.applied as u64,
            refused: run.refused as u64,
            skipped: run.skipped as u64,
        };
        let message = match run.status.as_str() {
            rule_runs::SKIPPED => format!("Skipped: {}", run.reason.as_deref().unwrap_or("")),
            _ => format!(
                "Done: {} matched, {} applied, {} refused, {} skipped",
                run.matched, run.applied, run.refused, run.skipped
            ),
        };
        Ok(Done::with_progress(message, progress))
    }

    /// The job is given up (its last attempts failed or were lost with their workers): a
    /// run it left `PLANNED` or `APPLYING` ends `FAILED` with the reason, so the rule's
    /// history does not show it running forever. What it applied stays applied (undoable).
    async fn gave_up(&self, runtime: &Runtime, reason: &str) {
        end_unfinished(runtime, &self.rule, &self.period, reason).await;
    }
}

/// Ends the run of (`rule_key`, `period`) `FAILED` when it is unfinished (see
/// [`Handler::gave_up`]); logs what happened.
pub(crate) async fn end_unfinished(runtime: &Runtime, rule_key: &str, period: &str, reason: &str) {
    let db = &runtime.db;
    let reason = format!("The run stopped before it finished: {reason}");
    // The transaction reads before it writes: on SQLite a concurrent writer (the queue's
    // own bookkeeping, at exactly this moment) fails it busy at once, so it is retried.
    let ended = Db::retry_busy(|| async {
        let mut tx = db.pool.begin().await?;
        let run =
            rule_runs::fail_unfinished(&mut tx, rule_key, period, &reason, ids::now_ms() / 1000)
                .await?;
        tx.commit().await?;
        Ok::<_, sqlx::Error>(run)
    })
    .await;
    match ended {
        Ok(Some(run)) => {
            tracing::warn!(rule = %rule_key, period, run.id = %run.id, applied = run.applied, "rule run given up: ended FAILED")
        }
        Ok(None) => {}
        Err(e) => {
            tracing::error!(rule = %rule_key, period, error = %e, "could not end the given-up rule run")
        }
    }
}

/// The reason of a run whose rule's campaign group is not synced.
pub const NOT_SYNCED: &str = "The rule's campaign group has not been synced: \
    its connection's first sync has not finished, or the group is no longer selected";

/// The run of a rule that exists but cannot be evaluated because its campaign group is not
/// synced (never synced, or no longer selected): stored `SKIPPED` with the reason, so the
/// rule's history says why it did nothing. None when the rule is gone (or is a goal
/// optimisation, which exists only on synced campaigns).
async fn unsynced(
    job: &RunRule,
    db: &searchdeck_common::Db,
) -> Result<Option<rule_runs::RunRow>, JobError> {
    let Some(workspace_id) = rule_runs::rule_workspace(&db.pool, &job.rule).await? else {
        return Ok(None);
    };
    let Some(row) = store::rules::get(&db.pool, &workspace_id, &job.rule).await? else {
        return Ok(None);
    };
    let now = ids::now_ms() / 1000;
    let reason = if !row.rule.enabled && job.trigger == "SCHEDULE" {
        "The rule is disabled"
    } else {
        NOT_SYNCED
    };
    let run = rule_runs::RunRow {
        id: ids::new_id(),
        workspace_id,
        rule_key: job.rule.clone(),
        rule_id: Some(row.rule.id.clone()),
        account_id: row.rule.account_id.clone(),
        org_id: row.rule.org_id.parse().unwrap_or_default(),
        source: store::activity::changes::AUTO_RULES.to_string(),
        rule_name: row.rule.name.clone(),
        body: serde_json::to_string(&row.rule).map_err(JobError::permanent)?,
        currency: row.rule.currency.clone(),
        trigger: job.trigger.clone(),
        period: job.period.clone(),
        status: rule_runs::SKIPPED.into(),
        reason: Some(reason.to_string()),
        window_start: None,
        window_end: None,
        newest_complete_day: None,
        cohorts: None,
        matched: 0,
        applied: 0,
        refused: 0,
        skipped: 0,
        undo_of: None,
        undone_by: None,
        user_id: job.user_id.clone(),
        user_email: job.user_email.clone(),
        created_at: now,
        started_at: now,
        finished_at: Some(now),
    };
    if !rule_runs::insert_run(&db.pool, &run).await? {
        return Ok(rule_runs::by_period(&db.pool, &job.rule, &job.period).await?);
    }
    tracing::info!(rule = %job.rule, period = %job.period, run.id = %run.id, "rule run skipped: its campaign group is not synced");
    Ok(Some(run))
}

/// The alert of an `alert` action: one per run listing the matched entities.
fn alert_of(
    loaded: &rule_run::Loaded,
    run: &rule_runs::RunRow,
    entities: &[(String, i64, String)],
) -> Option<alerts::NewAlert> {
    let rule = &loaded.subject.rule;
    let (channels, emails) = rule.actions.iter().find_map(|a| match a {
        Action::Alert { channels, emails } => Some((channels, emails)),
        _ => None,
    })?;
    if entities.is_empty() {
        return None;
    }
    let mut lines: Vec<String> = entities
        .iter()
        .take(50)
        .map(|(level, id, name)| format!("{level} {name} ({id})"))
        .collect();
    if entities.len() > 50 {
        lines.push(format!("and {} more", entities.len() - 50));
    }
    let emails = if emails.is_empty() {
        rule.created_by.iter().cloned().collect()
    } else {
        emails.clone()
    };
    Some(alerts::NewAlert {
        id: ids::new_id(),
        workspace_id: run.workspace_id.clone(),
        kind: alerts::RULE,
        cause_key: format!("rule-run:{}", run.id),
        account_id: Some(run.account_id.clone()),
        org_id: Some(run.org_id),
        campaign_id: (loaded.subject.campaigns.len() == 1).then(|| loaded.subject.campaigns[0]),
        rule_id: loaded.rule_id.clone(),
        run_id: Some(run.id.clone()),
        title: format!("Rule '{}' matched {} entities", rule.name, entities.len()),
        message: lines.join("\n"),
        emails,
        email: channels.contains(&Channel::Email),
        slack: channels.contains(&Channel::Slack),
        created_at: run.created_at,
    })
}

/// The alert of a run the collapse guard stopped (`RULE_STOPPED`, by email and Slack to the
/// rule's creator, as a self-pause is told).
fn guard_alert(
    loaded: &rule_run::Loaded,
    run: &rule_runs::RunRow,
    reason: &str,
) -> alerts::NewAlert {
    alerts::NewAlert {
        id: ids::new_id(),
        workspace_id: run.workspace_id.clone(),
        kind: alerts::RULE_STOPPED,
        cause_key: format!("rule-stopped:{}", run.id),
        account_id: Some(run.account_id.clone()),
        org_id: Some(run.org_id),
        campaign_id: (loaded.subject.campaigns.len() == 1).then(|| loaded.subject.campaigns[0]),
        rule_id: loaded.rule_id.clone(),
        run_id: Some(run.id.clone()),
        title: format!("Rule '{}' stopped before acting", run.rule_name),
        message: reason.to_string(),
        emails: loaded.subject.rule.created_by.iter().cloned().collect(),
        email: true,
        slack: true,
        created_at: run.created_at,
    }
}

/// Applies a stored plan and ends the run (with the self-pause).
async fn finish(ctx: &JobRun, run: rule_runs::RunRow) -> Result<rule_runs::RunRow, JobError> {
    let db = &ctx.runtime.db;
    let Some(account) = store::accounts::by_id(&db.pool, &run.account_id).await? else {
        let mut conn = db.pool.acquire().await?;
        let done = rule_runs::finish(
            &mut conn,
            &run.id,
            rule_runs::FAILED,
            Some("Connection removed"),
            ids::now_ms() / 1000,
        )
        .await?;
        return Ok(done);
    };
    let client = ctx.runtime.provider_for(&account)?;
    rule_runs::set_status(&db.pool, &run.id, rule_runs::APPLYING, None).await?;
    apply(ctx, client.as_ref(), &run, apply::CHANGED_SINCE_RULE).await?;
    let mut tx = db.pool.begin().await?;
    let done = rule_runs::finish(
        &mut tx,
        &run.id,
        rule_runs::DONE,
        None,
        ids::now_ms() / 1000,
    )
    .await?;
    let sent = done.applied + done.refused;
    if let Some(rule_id) = &done.rule_id
        && done.refused >= SELF_PAUSE_REFUSED
        && done.refused * 2 >= sent
        && done.undo_of.is_none()
    {
        rule_runs::disable_rule(&mut *tx, rule_id, ids::now_ms() / 1000).await?;
        let a = alerts::NewAlert {
            id: ids::new_id(),
            workspace_id: done.workspace_id.clone(),
            kind: alerts::RULE_PAUSED,
            cause_key: format!("rule-paused:{}", done.id),
            account_id: Some(done.account_id.clone()),
            org_id: Some(done.org_id),
            campaign_id: None,
            rule_id: Some(rule_id.clone()),
            run_id: Some(done.id.clone()),
            title: format!("Rule '{}' paused itself", done.rule_name),
            message: format!(
                "Apple Ads refused {} of the {} changes it sent; the rule is disabled until you enable it again.",
                done.refused, sent
            ),
            emails: Vec::new(),
            email: true,
            slack: true,
            created_at: ids::now_ms() / 1000,
        };
        if alerts::insert(&mut *tx, &a).await? {
            outbox::push(
                &mut *tx,
                &DeliverAlert {
                    alert_id: a.id.clone(),
                },
                Default::default(),
            )
            .await?;
        }
        tracing::warn!(rule = %rule_id, run.id = %done.id, refused = done.refused, sent, "rule paused itself");
    }
    tx.commit().await?;
    Ok(done)
}
