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

mod apply;
mod undo;

use searchdeck_common::{
    Db, ids,
    jobs::{DeliverAlert, RunRule, RunRuleProgress, SyncReports},
    queue::{JobError, outbox},
    report::Cancel,
    rules::{Action, Channel, run as rule_run, schedule, window},
    store::{self, alerts, rule_runs},
};

use crate::{Done, Handler, JobContext, JobRun, context::Runtime};

pub use apply::apply;

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

/// What [`plan`] found to do.
enum Planned {
    /// The run of the job's period (stored now, or by a concurrent attempt).
    Run(rule_runs::RunRow),
    /// An earlier run of the same rule on the same delivered data, which this request joins
    /// instead of acting again.
    Joined(rule_runs::RunRow),
    /// The rule is gone.
    Gone,
}

/// How long a run waits for an earlier run of its rule on the same data to finish before it
/// joins it (a rule run takes seconds; a stuck one is ended by its own job's give-up).
const JOIN_WAIT: std::time::Duration = std::time::Duration::from_secs(300);

/// The job's outcome when it joined `earlier`: it applied nothing itself.
fn joined(earlier: &rule_runs::RunRow) -> Done<RunRuleProgress> {
    let by = match (earlier.trigger.as_str(), earlier.user_email.as_deref()) {
        ("MANUAL", Some(email)) => format!("Run now by {email}"),
        ("MANUAL", None) => "Run now".to_string(),
        _ => "its schedule".to_string(),
    };
    let at = time::OffsetDateTime::from_unix_timestamp(earlier.started_at)
        .map(|t| ids::rfc3339(t.unix_timestamp() * 1000))
        .unwrap_or_default();
    Done::with_progress(
        format!(
            "Nothing applied: the rule already ran on the same data ({by}, {at}) and applied {} \
             changes. It acts again when new metrics arrive or the rule changes.",
            earlier.applied
        ),
        RunRuleProgress {
            run_id: Some(earlier.id.clone()),
            status: Some(earlier.status.clone()),
            matched: earlier.matched as u64,
            applied: 0,
            refused: 0,
            skipped: 0,
        },
    )
}

/// The run of the same rule (same body) that already acted on the data `subject` reads — it
/// started after the group's last metrics sync —, waiting for it while it is still planning
/// or applying. A second "Run now", or a schedule firing between two syncs, then joins it
/// instead of applying a relative change again on the same numbers (a 10 % raise twice).
async fn same_intent(
    ctx: &JobContext<RunRule>,
    job: &RunRule,
    loaded: &rule_run::Loaded,
    body: &str,
) -> Result<Option<rule_runs::RunRow>, JobError> {
    let db = &ctx.runtime.db;
    let Some(since) = loaded.subject.org.metrics_synced_at else {
        return Ok(None);
    };
    let started = std::time::Instant::now();
    loop {
        let Some(earlier) = rule_runs::acted_since(&db.pool, &job.rule, since).await? else {
            return Ok(None);
        };
        if earlier.period == job.period || earlier.body != body {
            return Ok(None);
        }
        let unfinished = matches!(
            earlier.status.as_str(),
            rule_runs::PLANNED | rule_runs::APPLYING
        );
        if !unfinished || started.elapsed() > JOIN_WAIT {
            return Ok(Some(earlier));
        }
        ctx.check_cancelled()?;
        tokio::time::sleep(std::time::Duration::from_millis(250)).await;
    }
}

/// Evaluates and stores the run of `job` (or finds the one a concurrent attempt stored, or
/// the earlier run on the same data it joins).
async fn plan(job: &RunRule, ctx: &JobContext<RunRule>) -> Result<Planned, JobError> {
    let db = &ctx.runtime.db;
    let Some(mut loaded) = rule_run::load(db, &job.rule).await? else {
        return Ok(unsynced(job, db).await?.map_or(Planned::Gone, Planned::Run));
    };
    loaded.subject.rule.last_run = None;
    let body = serde_json::to_string(&loaded.subject.rule).map_err(JobError::permanent)?;
    if let Some(earlier) = same_intent(ctx, job, &loaded, &body).await? {
        if job.trigger == "MANUAL" {
            return Ok(Planned::Joined(earlier));
        }
        // A scheduled run keeps its period's record of why it did nothing.
        return Ok(skipped_as_joined(job, db, &loaded, body, &earlier)
            .await?
            .map_or(Planned::Gone, Planned::Run));
    }
    let now = ids::now_ms() / 1000;
    // A scheduled run reads the days as of its due time; a manual one as of now.
    let at = schedule::parse_period(&job.period).unwrap_or(now);
    let tz = loaded.subject.org.time_zone.clone();
    let today = window::today(at, tz.as_deref());
    let (start, end) = window::days(&loaded.subject.rule.window, today);
    let mut run = rule_runs::RunRow {
        window_start: Some(start.to_string()),
        window_end: Some(end.to_string()),
        ..new_run(job, &loaded, body, now)
    };
    let skip = if !loaded.enabled && job.trigger == "SCHEDULE" {
        Some("The rule is disabled".to_string())
    } else if loaded.subject.campaigns.is_empty() {
        Some("The rule has no enabled campaigns".to_string())
    } else {
        if rule_run::incomplete_reason(&loaded.subject.org, end).is_some() {
            // Sync the group's reports first (inline, reporting to no task).
            let mut sync_run: JobRun = (**ctx).clone();
            sync_run.task_id = None;
            let sync = SyncReports {
                account_id: loaded.account_id.clone(),
            };
            crate::Handler::run(&sync, &JobContext::<SyncReports>::new(sync_run)).await?;
            if let Some(org) = store::synced::org(&db.pool, loaded.subject.org.org_key).await? {
                loaded.subject.org = org;
            }
            // It evaluates the data just synced: a later run compares against this.
            run.started_at = ids::now_ms() / 1000;
        }
        run.newest_complete_day =
            rule_run::newest_complete_day(&loaded.subject.org).map(|d| d.to_string());
        rule_run::incomplete_reason(&loaded.subject.org, end)
    };
    let mut items = Vec::new();
    let mut alert = None;
    if let Some(reason) = skip {
        run.status = rule_runs::SKIPPED.into();
        run.reason = Some(reason);
        run.finished_at = Some(now);
    } else {
        let cancel = Cancel::new();
        let report =
            |e: searchdeck_common::report::ReportError| JobError::retryable(anyhow::anyhow!(e));
        let evaluated = rule_run::evaluate(
            db,
            &ctx.runtime.engines.reports,
            &loaded.subject,
            today,
            &cancel,
        )
        .await
        .map_err(report)?;
        run.matched = evaluated.matched as i64;
        let stopped = rule_run::collapse_guard(
            db,
            &ctx.runtime.engines.reports,
            &loaded.subject,
            &evaluated,
            &cancel,
        )
        .await
        .map_err(report)?;
        if let Some(reason) = stopped {
            // Nothing is sent: the plan is kept, every change skipped, and the rule's
            // owners are told.
            run.status = rule_runs::SKIPPED.into();
            run.finished_at = Some(now);
            alert = Some(guard_alert(&loaded, &run, &reason));
            run.reason = Some(reason);
            items = evaluated
                .items
                .into_iter()
                .map(|mut i| {
                    if i.result == rule_runs::ITEM_PLANNED {
                        i.result = rule_runs::ITEM_SKIPPED.into();
                        i.message = Some("Stopped by the rule's guard".into());
                    }
                    i
                })
                .collect();
            run.skipped = items.len() as i64;
        } else {
            items = evaluated.items;
            alert = alert_of(&loaded, &run, &evaluated.entities);
        }
    }
    let mut tx = db.pool.begin().await?;
    if !rule_runs::insert_run(&mut *tx, &run).await? {
        // Stored meanwhile by another attempt: that plan stands.
        drop(tx);
        return Ok(rule_runs::by_period(&db.pool, &job.rule, &job.period)
            .await?
            .map_or(Planned::Gone, Planned::Run));
    }
    rule_runs::insert_items(&mut tx, &run.id, &items).await?;
    if let Some(a) = alert
        && alerts::insert(&mut *tx, &a).await?
    {
        outbox::push(
            &mut *tx,
            &DeliverAlert {
                alert_id: a.id.clone(),
            },
            Default::default(),
        )
        .await?;
    }
    tx.commit().await?;
    tracing::info!(rule = %job.rule, period = %job.period, run.id = %run.id, status = %run.status,
            matched = run.matched, items = items.len(), "rule run planned");
    Ok(Planned::Run(run))
}

/// A new `PLANNED` run of `job` for `loaded` (its rule's `body` as evaluated), started at
/// `now`, without a window or counts yet.
fn new_run(job: &RunRule, loaded: &rule_run::Loaded, body: String, now: i64) -> rule_runs::RunRow {
    rule_runs::RunRow {
        id: ids::new_id(),
        workspace_id: loaded.subject.workspace_id.clone(),
        rule_key: job.rule.clone(),
        rule_id: loaded.rule_id.clone(),
        account_id: loaded.account_id.clone(),
        org_id: loaded.org_id,
        source: loaded.source.to_string(),
        rule_name: loaded.subject.rule.name.clone(),
        body,
        currency: Some(loaded.subject.currency.clone()),
        trigger: job.trigger.clone(),
        period: job.period.clone(),
        status: rule_runs::PLANNED.into(),
        reason: None,
        window_start: None,
        window_end: None,
        newest_complete_day: None,
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
        finished_at: None,
    }
}

/// The `SKIPPED` run of a scheduled period that joined `earlier` (see [`same_intent`]).
async fn skipped_as_joined(
    job: &RunRule,
    db: &Db,
    loaded: &rule_run::Loaded,
    body: String,
    earlier: &rule_runs::RunRow,
) -> Result<Option<rule_runs::RunRow>, JobError> {
    let now = ids::now_ms() / 1000;
    let run = rule_runs::RunRow {
        status: rule_runs::SKIPPED.into(),
        reason: Some(format!(
            "The rule already acted on the same data (run {}): no new metrics since",
            earlier.id
        )),
        window_start: earlier.window_start.clone(),
        window_end: earlier.window_end.clone(),
        newest_complete_day: earlier.newest_complete_day.clone(),
        finished_at: Some(now),
        ..new_run(job, loaded, body, now)
    };
    if !rule_runs::insert_run(&db.pool, &run).await? {
        return Ok(rule_runs::by_period(&db.pool, &job.rule, &job.period).await?);
    }
    tracing::info!(rule = %job.rule, period = %job.period, run.id = %run.id, earlier = %earlier.id,
        "rule run skipped: it already acted on the same data");
    Ok(Some(run))
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
        source: store::changes::AUTO_RULES.to_string(),
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
