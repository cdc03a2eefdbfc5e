//! The plan of a run, made once per intent: the run of (rule, period) found or stored with
//! every planned item; a run whose same intent another run already carried out (a rule saved
//! again, a schedule and Run now in one period) joins it rather than acting twice; and a
//! campaign group not synced yet is a skipped run, never an action on zeros.

use super::*;

/// What [`plan`] found to do.
pub(super) enum Planned {
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
pub(super) fn joined(earlier: &rule_runs::RunRow) -> Done<RunRuleProgress> {
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
pub(super) async fn plan(job: &RunRule, ctx: &JobContext<RunRule>) -> Result<Planned, JobError> {
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
        match rule_run::incomplete_reason(&loaded.subject.org, end) {
            Some(reason) => Some(reason),
            // A rule on conversions: the plan grants them and a provider still delivers.
            None => {
                let columns = ctx
                    .runtime
                    .engines
                    .plan(db, &loaded.subject.workspace_id)
                    .await
                    .map_err(|e| JobError::retryable(anyhow::anyhow!(e)))?
                    .columns();
                rule_run::conversions_reason(db, &loaded.subject, columns, now).await?
            }
        }
    };
    run.cohorts = named::cohorts_record(&loaded.subject.rule, (start, end), today);
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
        cohorts: earlier.cohorts.clone(),
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
