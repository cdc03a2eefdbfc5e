//! Sends a stored plan (a rule run's or an undo's `PLANNED` items) and records each item's
//! result. Changes of campaigns, ad groups and keywords, deletions and added negative
//! keywords go through the bulk-edit sends (`bulk_edit::apply`: chunks, per-item results,
//! synced rows and change records written from Apple's answers, items this run already
//! recorded reported applied without a call, an item whose current value is no longer its
//! planned old value skipped). Added keywords go through `POST /keywords/bulk-create` here,
//! per ad group: one already there is applied when this run's change record says it added
//! it, else skipped; a duplicate Apple reports for one we did not hold is read back (an
//! earlier attempt's lost answer). Results are written per group, after its sends: a worker
//! killed in between finds the items still `PLANNED` and the sends answer them from the
//! change records.

mod additions;

use std::collections::{BTreeMap, HashMap};

use searchdeck_common::{
    ids,
    jobs::{BulkEdit, BulkEditItem, CREATED, NewNegative, Outcome},
    queue::JobError,
    store::{
        self, changes,
        notifications::{self, NewNotification},
        rule_runs::{self, ItemRow, RunRow},
        synced::{bulk, entities},
    },
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity, ProviderError, error::ApiErrorBody};
use serde_json::{Value, json};

use crate::JobRun;
use crate::apply::{self, CHANGED_SINCE, SendOptions, UNCHANGED};
use crate::wire::{job_error, keyword};

use additions::add_keywords;

/// The message of a run's item someone changed since the rule evaluated it.
pub const CHANGED_SINCE_RULE: &str = CHANGED_SINCE;
/// The message of an undo's item someone changed since the run.
pub const CHANGED_SINCE_RUN: &str = "Changed since the run";

/// A stored value as the bulk-edit sends write it (a keyword's ACTIVE is ENABLED there).
fn wire(level: &str, field: &str, v: Option<&str>) -> Option<String> {
    match (level, field, v) {
        ("KEYWORD", "status", Some("ACTIVE")) => Some("ENABLED".into()),
        (_, _, v) => v.map(str::to_string),
    }
}

fn source_of(run: &RunRow) -> &'static str {
    if run.source == changes::GOAL_OPTIMIZATION {
        changes::GOAL_OPTIMIZATION
    } else {
        changes::AUTO_RULES
    }
}

/// The level an item changes (an added keyword or negative keyword is one).
fn level_of(i: &ItemRow) -> &str {
    match i.field.as_str() {
        "keyword" => "KEYWORD",
        "negative" => "NEGATIVE_KEYWORD",
        _ => &i.level,
    }
}

/// The notification of `run` (key `rule-run:<run id>`, tag the run's source, by the rule):
/// titled by the `items` it sends; an undo run's is the undo of the original run's.
async fn notification_of(
    ctx: &JobRun,
    run: &RunRow,
    items: &[&ItemRow],
) -> Result<NewNotification, JobError> {
    let mut levels: Vec<&str> = items.iter().map(|i| level_of(i)).collect();
    levels.sort_unstable();
    levels.dedup();
    let target = match levels.as_slice() {
        [one] => *one,
        _ => "MIXED",
    };
    let original = match (&run.undo_of, run.trigger.as_str()) {
        (Some(of), "UNDO") => {
            notifications::by_key(
                &ctx.runtime.db.pool,
                &run.workspace_id,
                &format!("rule-run:{of}"),
            )
            .await?
        }
        _ => None,
    };
    let undo = run.trigger == "UNDO";
    let (action, title) = if undo {
        let of = original
            .as_ref()
            .map_or_else(|| format!("Rule '{}'", run.rule_name), |o| o.title.clone());
        ("UNDO".to_string(), notifications::titles::undo(&of))
    } else {
        let mut fields: Vec<&str> = items.iter().map(|i| i.field.as_str()).collect();
        fields.sort_unstable();
        fields.dedup();
        let action = match fields.as_slice() {
            ["keyword" | "negative"] => "CREATE",
            ["deleted"] => "DELETE",
            _ => "UPDATE",
        };
        (
            action.to_string(),
            notifications::titles::rule(&run.rule_name, target, items.len() as i64),
        )
    };
    Ok(NewNotification {
        workspace_id: run.workspace_id.clone(),
        key: format!("rule-run:{}", run.id),
        tag: source_of(run),
        kind: if undo {
            notifications::TYPE_UNDO
        } else {
            notifications::TYPE_CHANGE
        },
        title,
        action,
        target: target.to_string(),
        source: notifications::SOURCE_RULE,
        source_name: run.rule_name.clone(),
        user_id: run.user_id.clone(),
        email: run.user_email.clone(),
        rule_id: run.rule_id.clone(),
        account_id: Some(run.account_id.clone()),
        org_id: Some(run.org_id),
        undo_of: original.map(|o| o.id),
        created_at: ids::now_ms() / 1000,
    })
}

/// `Err(Cancelled)` once the task was asked to stop (between groups).
fn stop(ctx: &JobRun) -> Result<(), JobError> {
    if ctx.cancel.is_cancelled() {
        Err(JobError::Cancelled)
    } else {
        Ok(())
    }
}

/// A result to write: (seq, result, message, detail).
type Written = (i64, &'static str, Option<String>, Option<Value>);

async fn write(ctx: &JobRun, run_id: &str, results: &[Written]) -> Result<(), JobError> {
    let mut tx = ctx.runtime.db.pool.begin().await?;
    for (seq, result, message, detail) in results {
        rule_runs::set_item(
            &mut *tx,
            run_id,
            *seq,
            result,
            message.as_deref(),
            detail.as_ref(),
        )
        .await?;
    }
    tx.commit().await?;
    Ok(())
}

/// Sends every `PLANNED` item of `run` and records the results; `changed` is the message of
/// an item whose value moved since it was planned.
pub async fn apply(
    ctx: &JobRun,
    client: &dyn AppleAds,
    run: &RunRow,
    changed: &str,
) -> Result<(), JobError> {
    let db = &ctx.runtime.db;
    let items = rule_runs::items(&db.pool, &run.id).await?;
    let pending: Vec<&ItemRow> = items
        .iter()
        .filter(|i| i.result == rule_runs::ITEM_PLANNED)
        .collect();
    if pending.is_empty() {
        return Ok(());
    }
    let Some(org) = store::synced::org_of(&db.pool, &run.account_id, run.org_id).await? else {
        let gone: Vec<Written> = pending
            .iter()
            .map(|i| {
                (
                    i.seq,
                    rule_runs::ITEM_SKIPPED,
                    Some("The campaign group is no longer synced".into()),
                    None,
                )
            })
            .collect();
        return write(ctx, &run.id, &gone).await;
    };
    let notification = notification_of(ctx, run, &pending).await?;
    let mut updates: BTreeMap<(String, String), Vec<&ItemRow>> = BTreeMap::new();
    let mut negatives: BTreeMap<(i64, Option<i64>), Vec<&ItemRow>> = BTreeMap::new();
    let mut keywords: BTreeMap<i64, Vec<&ItemRow>> = BTreeMap::new();
    for i in pending {
        let d = i.detail.clone().unwrap_or(Value::Null);
        let id_of = |v: &Value| v.as_str().and_then(|s| s.parse::<i64>().ok());
        match i.field.as_str() {
            "negative" => {
                let campaign = id_of(&d["campaignId"]).unwrap_or(i.campaign_id);
                negatives
                    .entry((campaign, id_of(&d["adGroupId"])))
                    .or_default()
                    .push(i);
            }
            "keyword" => {
                if let Some(g) = id_of(&d["adGroupId"]) {
                    keywords.entry(g).or_default().push(i);
                }
            }
            _ => updates
                .entry((i.level.clone(), i.field.clone()))
                .or_default()
                .push(i),
        }
    }
    let edit = |level: &str, field: &str, items: Vec<BulkEditItem>| BulkEdit {
        workspace_id: run.workspace_id.clone(),
        user_id: run.user_id.clone(),
        user_email: run.user_email.clone(),
        account_id: run.account_id.clone(),
        org_key: org.org_key,
        org_id: run.org_id,
        currency: run.currency.clone(),
        level: level.to_string(),
        field: field.to_string(),
        operation: format!("Rule '{}'", run.rule_name),
        items,
    };
    let source = source_of(run);
    for ((level, field), group) in updates {
        stop(ctx)?;
        let items = group
            .iter()
            .map(|i| BulkEditItem::to(i.entity_id, wire(&level, &field, i.new_value.as_deref())))
            .collect();
        let expected: HashMap<i64, Option<String>> = group
            .iter()
            .filter(|_| field != "deleted")
            .map(|i| (i.entity_id, wire(&level, &field, i.old_value.as_deref())))
            .collect();
        let options = SendOptions {
            job_id: &run.id,
            source,
            expected: Some(&expected),
            notification: &notification,
        };
        let done = apply::apply(ctx, client, &edit(&level, &field, items), options).await?;
        let by_id: HashMap<i64, _> = done.items.iter().map(|r| (r.id, r)).collect();
        let results: Vec<Written> = group
            .iter()
            .map(|i| {
                let (result, message) = match by_id.get(&i.entity_id) {
                    Some(r) => match (r.result, r.message.as_deref()) {
                        (Outcome::Applied, _) => (rule_runs::ITEM_APPLIED, None),
                        (Outcome::Refused, m) => (rule_runs::ITEM_REFUSED, m.map(str::to_string)),
                        // At the target already: an earlier attempt's lost answer, or
                        // someone did it.
                        (Outcome::Skipped, Some(UNCHANGED)) => (rule_runs::ITEM_APPLIED, None),
                        (Outcome::Skipped, Some(CHANGED_SINCE) | Some("Already deleted")) => {
                            (rule_runs::ITEM_SKIPPED, Some(changed.to_string()))
                        }
                        (Outcome::Skipped, m) => (rule_runs::ITEM_SKIPPED, m.map(str::to_string)),
                    },
                    None => (rule_runs::ITEM_SKIPPED, Some("No longer exists".into())),
                };
                (i.seq, result, message, None)
            })
            .collect();
        write(ctx, &run.id, &results).await?;
    }
    for ((campaign, group_id), group) in negatives {
        stop(ctx)?;
        let items = group
            .iter()
            .map(|i| {
                let d = i.detail.clone().unwrap_or(Value::Null);
                BulkEditItem {
                    id: 0,
                    target: None,
                    note: None,
                    negative: Some(NewNegative {
                        campaign_id: campaign,
                        ad_group_id: group_id,
                        text: d["text"].as_str().unwrap_or(&i.name).to_string(),
                        match_type: d["matchType"].as_str().unwrap_or("EXACT").to_string(),
                    }),
                }
            })
            .collect();
        let options = SendOptions {
            job_id: &run.id,
            source,
            expected: None,
            notification: &notification,
        };
        let done = apply::apply(
            ctx,
            client,
            &edit("NEGATIVE_KEYWORD", CREATED, items),
            options,
        )
        .await?;
        let by_text: HashMap<String, _> = done
            .items
            .iter()
            .filter_map(|r| Some((r.text.as_ref()?.to_lowercase(), r)))
            .collect();
        let results: Vec<Written> = group
            .iter()
            .map(|i| {
                let detail = |id: i64| {
                    let mut d = i.detail.clone().unwrap_or(json!({}));
                    d["id"] = json!(id.to_string());
                    Some(d)
                };
                match by_text.get(&i.name.to_lowercase()) {
                    Some(r) if r.result == Outcome::Applied => {
                        (i.seq, rule_runs::ITEM_APPLIED, None, detail(r.id))
                    }
                    Some(r) if r.result == Outcome::Refused => {
                        (i.seq, rule_runs::ITEM_REFUSED, r.message.clone(), None)
                    }
                    Some(_) => (
                        i.seq,
                        rule_runs::ITEM_SKIPPED,
                        Some("Already a negative keyword there".into()),
                        None,
                    ),
                    None => (
                        i.seq,
                        rule_runs::ITEM_SKIPPED,
                        Some("Apple Ads did not answer for this item".into()),
                        None,
                    ),
                }
            })
            .collect();
        write(ctx, &run.id, &results).await?;
    }
    for (ad_group_id, group) in keywords {
        stop(ctx)?;
        let results = add_keywords(
            ctx,
            client,
            (run, &notification),
            org.org_key,
            ad_group_id,
            &group,
        )
        .await?;
        write(ctx, &run.id, &results).await?;
    }
    if run.trigger != "UNDO" {
        apply::retitle(ctx, &notification, |n| {
            notifications::titles::rule(&run.rule_name, &notification.target, n)
        })
        .await?;
    }
    Ok(())
}
