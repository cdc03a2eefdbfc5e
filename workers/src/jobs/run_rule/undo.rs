//! `undo-rule-run`: the reverse of a run's applied items, stored as a run of trigger UNDO
//! (`undoOf` the original, period `undo:<run id>`, the same item numbers) and applied like
//! any plan: each item still at the run's new value is set back to its old value (an added
//! keyword or negative keyword is deleted); one changed since is skipped 'Changed since the
//! run'. The original's undone items become `UNDONE` and its `undoneBy` the undo run. A
//! job given up for good ends its undo run `FAILED` with the reason.

use searchdeck_common::{
    ids,
    jobs::{RunRuleProgress, UndoRuleRun},
    queue::JobError,
    store::{
        self,
        rule_runs::{self, ItemRow, RunRow},
    },
};

use super::apply::{CHANGED_SINCE_RUN, apply};
use crate::{Done, Handler, JobContext, context::Runtime};

/// The reverse of an applied item (None when it cannot be undone).
fn reverse(i: &ItemRow) -> Option<ItemRow> {
    let mut r = i.clone();
    r.result = rule_runs::ITEM_PLANNED.into();
    r.message = None;
    match i.field.as_str() {
        "keyword" | "negative" => {
            let id: i64 = i.detail.as_ref()?["id"].as_str()?.parse().ok()?;
            r.level = if i.field == "keyword" {
                "KEYWORD"
            } else {
                "NEGATIVE_KEYWORD"
            }
            .into();
            r.entity_id = id;
            r.action = "delete".into();
            r.field = "deleted".into();
            r.old_value = Some("false".into());
            r.new_value = Some("true".into());
        }
        _ => {
            r.action = format!("undo {}", i.action);
            r.old_value = i.new_value.clone();
            r.new_value = i.old_value.clone();
        }
    }
    Some(r)
}

impl Handler for UndoRuleRun {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<RunRuleProgress>, JobError> {
        let db = &ctx.runtime.db;
        let Some(original) = rule_runs::get(&db.pool, &self.workspace_id, &self.run_id).await?
        else {
            return Ok(Done::message("The run is gone"));
        };
        let period = format!("undo:{}", original.id);
        let undo = match rule_runs::by_period(&db.pool, &original.rule_key, &period).await? {
            Some(u) => u,
            None => {
                let now = ids::now_ms() / 1000;
                let items: Vec<ItemRow> = rule_runs::items(&db.pool, &original.id)
                    .await?
                    .iter()
                    .filter(|i| i.result == rule_runs::ITEM_APPLIED)
                    .filter_map(reverse)
                    .collect();
                let undo = RunRow {
                    id: ids::new_id(),
                    trigger: "UNDO".into(),
                    period: period.clone(),
                    status: rule_runs::PLANNED.into(),
                    reason: None,
                    matched: items.len() as i64,
                    applied: 0,
                    refused: 0,
                    skipped: 0,
                    undo_of: Some(original.id.clone()),
                    undone_by: None,
                    user_id: self.user_id.clone(),
                    user_email: self.user_email.clone(),
                    created_at: now,
                    started_at: now,
                    finished_at: None,
                    ..original.clone()
                };
                let mut tx = db.pool.begin().await?;
                if rule_runs::insert_run(&mut *tx, &undo).await? {
                    rule_runs::insert_items(&mut tx, &undo.id, &items).await?;
                    tx.commit().await?;
                    undo
                } else {
                    drop(tx);
                    rule_runs::by_period(&db.pool, &original.rule_key, &period)
                        .await?
                        .ok_or_else(|| JobError::retryable(anyhow::anyhow!("undo run vanished")))?
                }
            }
        };
        let mut done = undo.clone();
        if matches!(
            undo.status.as_str(),
            rule_runs::PLANNED | rule_runs::APPLYING
        ) {
            let Some(account) = store::accounts::by_id(&db.pool, &undo.account_id).await? else {
                return Ok(Done::message("Connection removed"));
            };
            let client = ctx.runtime.provider_for(&account)?;
            rule_runs::set_status(&db.pool, &undo.id, rule_runs::APPLYING, None).await?;
            apply(ctx, client.as_ref(), &undo, CHANGED_SINCE_RUN).await?;
            let undone: Vec<i64> = rule_runs::items(&db.pool, &undo.id)
                .await?
                .iter()
                .filter(|i| i.result == rule_runs::ITEM_APPLIED)
                .map(|i| i.seq)
                .collect();
            let mut tx = db.pool.begin().await?;
            rule_runs::set_undone(&mut tx, &original.id, &undo.id, &undone).await?;
            done = rule_runs::finish(
                &mut tx,
                &undo.id,
                rule_runs::DONE,
                None,
                ids::now_ms() / 1000,
            )
            .await?;
            tx.commit().await?;
        }
        let progress = RunRuleProgress {
            run_id: Some(done.id.clone()),
            status: Some(done.status.clone()),
            matched: done.matched as u64,
            applied: done.applied as u64,
            refused: done.refused as u64,
            skipped: done.skipped as u64,
        };
        Ok(Done::with_progress(
            format!(
                "Undone: {} restored, {} skipped",
                done.applied, done.skipped
            ),
            progress,
        ))
    }

    /// The undo run left unfinished by a job given up ends `FAILED` with the reason.
    async fn gave_up(&self, runtime: &Runtime, reason: &str) {
        match rule_runs::get(&runtime.db.pool, &self.workspace_id, &self.run_id).await {
            Ok(Some(original)) => {
                let period = format!("undo:{}", original.id);
                super::end_unfinished(runtime, &original.rule_key, &period, reason).await;
            }
            Ok(None) => {}
            Err(e) => {
                tracing::error!(run.id = %self.run_id, error = %e, "could not end the given-up undo run")
            }
        }
    }
}
