//! `undo-notification`: the undo of one notification of the activity log
//! (docs/api/activity.md, `POST /api/accountsActions/{id}/undo`).
//!
//! A rule run's notification is undone by the rules' own undo (`undo-rule-run`, run here in
//! place), whose notification (key `rule-run:<undo run id>`) is the undo. Any other sets each
//! entity back to its old value through the bulk-edit sends, **where the entity still has the
//! notification's new value** (one changed since is skipped "Changed since"); a keyword or
//! negative keyword it added is deleted; a deletion cannot be set back. The undo is itself a
//! notification (type `undo`, key `undo:<id>`, the original's tag) and becomes the original's
//! `undoneBy`. Exactly once under retry: the sends carry the undo's key as their job id, so an
//! item an earlier attempt restored is reported restored without a call, and the notification
//! is written once by its key.

use std::collections::{BTreeMap, HashMap};

use searchdeck_common::{
    ids,
    jobs::{
        BulkEdit, BulkEditItem, DELETED, Outcome, UndoNotification, UndoProgress, UndoRuleRun,
        UndoSkipped,
    },
    queue::JobError,
    store::{
        self,
        activity::changes::{self, ChangeRow},
        activity::notifications::{self, NewNotification, NotificationRow},
        rule_runs,
    },
};

use crate::apply::{self, CHANGED_SINCE, SendOptions, UNCHANGED};
use crate::{Done, Handler, JobContext, JobRun};

/// The message of an entity changed since the notification.
pub const CHANGED_SINCE_NOTIFICATION: &str = "Changed since";
/// The message of a deletion, which an undo cannot set back.
pub const NOT_RESTORABLE: &str = "A deletion cannot be undone";

/// A stored value as the bulk-edit sends compare it (a keyword's ACTIVE is ENABLED there).
fn wire(level: &str, field: &str, v: Option<&str>) -> Option<String> {
    match (level, field, v) {
        ("KEYWORD", "status", Some("ACTIVE")) => Some("ENABLED".into()),
        (_, _, v) => v.map(str::to_string),
    }
}

/// The change-record source of a tag.
fn source_of(tag: &str) -> &'static str {
    notifications::TAGS
        .iter()
        .find(|t| **t == tag)
        .copied()
        .unwrap_or(changes::MANUAL)
}

impl Handler for UndoNotification {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<UndoProgress>, JobError> {
        let pool = &ctx.runtime.db.pool;
        let Some(original) =
            notifications::get(pool, &self.workspace_id, &self.notification_id).await?
        else {
            return Ok(Done::message("The notification is gone"));
        };
        if let Some(run_id) = original.key.strip_prefix("rule-run:") {
            return rule_run(self, ctx, &original, run_id).await;
        }
        let undo = notification(self, ctx, &original).await?;
        if let Some(by) = &original.undone_by {
            let ours = notifications::by_key(pool, &self.workspace_id, &undo.key).await?;
            if ours.is_none_or(|o| o.id != *by) {
                return Ok(Done::message("Already undone"));
            }
        }
        let progress = restore(ctx, &original, &undo).await?;
        Ok(Done::with_progress(
            format!(
                "Undone: {} restored, {} skipped",
                progress.restored,
                progress.skipped + progress.refused
            ),
            progress,
        ))
    }
}

/// The undo's notification (key `undo:<id>`, by the member who asked).
async fn notification(
    job: &UndoNotification,
    ctx: &JobRun,
    original: &NotificationRow,
) -> Result<NewNotification, JobError> {
    let member = match &job.user_id {
        Some(user) => notifications::member_name(&ctx.runtime.db.pool, user).await?,
        None => None,
    };
    Ok(NewNotification {
        workspace_id: job.workspace_id.clone(),
        key: format!("undo:{}", original.id),
        tag: source_of(&original.tag),
        kind: notifications::TYPE_UNDO,
        title: notifications::titles::undo(&original.title),
        action: "UNDO".into(),
        target: original.target.clone(),
        source: notifications::SOURCE_USER,
        source_name: member
            .map(|(name, _)| name)
            .or_else(|| job.user_email.clone())
            .unwrap_or_default(),
        user_id: job.user_id.clone(),
        email: job.user_email.clone(),
        rule_id: None,
        account_id: original.account_id.clone(),
        org_id: original.org_id,
        undo_of: Some(original.id.clone()),
        created_at: ids::now_ms() / 1000,
    })
}

/// A rule run's notification: the rules' undo of the run, run here; its notification
/// (written by its sends, or here when it restored nothing) is the undo.
async fn rule_run(
    job: &UndoNotification,
    ctx: &JobContext<UndoNotification>,
    original: &NotificationRow,
    run_id: &str,
) -> Result<Done<UndoProgress>, JobError> {
    let pool = &ctx.runtime.db.pool;
    let Some(run) = rule_runs::get(pool, &job.workspace_id, run_id).await? else {
        return Ok(Done::message("The run is gone"));
    };
    let undo_run = UndoRuleRun {
        workspace_id: job.workspace_id.clone(),
        run_id: run.id.clone(),
        user_id: job.user_id.clone(),
        user_email: job.user_email.clone(),
    };
    let inner = JobContext::<UndoRuleRun>::new((**ctx).clone());
    let done = undo_run.run(&inner).await?;
    let Some(undo) = rule_runs::by_period(pool, &run.rule_key, &format!("undo:{}", run.id)).await?
    else {
        return Ok(Done::message(done.message));
    };
    let mut n = notification(job, ctx, original).await?;
    n.key = format!("rule-run:{}", undo.id);
    n.source = notifications::SOURCE_RULE;
    n.source_name = run.rule_name.clone();
    n.rule_id = run.rule_id.clone();
    let mut conn = pool.acquire().await?;
    let id = notifications::record(&mut conn, &n).await?;
    let progress = UndoProgress {
        undo_id: Some(id),
        restored: undo.applied as u64,
        skipped: undo.skipped as u64,
        refused: undo.refused as u64,
        left: Vec::new(),
    };
    Ok(Done::with_progress(done.message, progress))
}

/// The entity and field of a change.
type Key = (String, i64, String);
/// What one send shares: connection, campaign group, level and field.
type SendKey = (String, i64, String, String);

/// Sets the changes of `original` back (see the module doc) and writes `undo`.
async fn restore(
    ctx: &JobRun,
    original: &NotificationRow,
    undo: &NewNotification,
) -> Result<UndoProgress, JobError> {
    let pool = &ctx.runtime.db.pool;
    let all = store::activity::changes::of_notification(pool, &original.id).await?;
    // Per entity and field: the first change's old value and the last one's new value.
    let mut first: BTreeMap<Key, ChangeRow> = BTreeMap::new();
    let mut last_new: HashMap<Key, Option<String>> = HashMap::new();
    for c in all {
        let key = (c.level.to_string(), c.entity_id, c.field.clone());
        last_new.insert(key.clone(), c.new_value.clone());
        first.entry(key).or_insert(c);
    }
    let mut progress = UndoProgress::default();
    // Sends per connection, campaign group, level and field.
    let mut sends: BTreeMap<SendKey, Vec<(ChangeRow, Option<String>)>> = BTreeMap::new();
    for (key, c) in first {
        let new = last_new.remove(&key).flatten();
        let restorable = match c.field.as_str() {
            "created" => matches!(c.level, "KEYWORD" | "NEGATIVE_KEYWORD"),
            DELETED => false,
            f => FIELDS.contains(&f),
        };
        let Some(account) = c.account_id.clone().filter(|_| restorable) else {
            progress.skipped += 1;
            progress.left.push(left(&c, NOT_RESTORABLE));
            continue;
        };
        let field = if c.field == "created" {
            DELETED.to_string()
        } else {
            c.field.clone()
        };
        sends
            .entry((account, c.org_id, c.level.to_string(), field))
            .or_default()
            .push((c, new));
    }
    let key = undo.key.clone();
    for ((account_id, org_id, level, field), items) in sends {
        if ctx.cancel.is_cancelled() {
            return Err(JobError::Cancelled);
        }
        let org = store::synced::org_of(pool, &account_id, org_id).await?;
        let account = store::accounts::by_id(pool, &account_id).await?;
        let (Some(org), Some(account)) = (org, account) else {
            for (c, _) in &items {
                progress.skipped += 1;
                progress
                    .left
                    .push(left(c, "The campaign group is no longer synced"));
            }
            continue;
        };
        let client = ctx.runtime.provider_for(&account)?;
        let deleting = field == DELETED;
        let edit = BulkEdit {
            workspace_id: original.workspace_id.clone(),
            user_id: undo.user_id.clone(),
            user_email: undo.email.clone(),
            account_id: account_id.clone(),
            org_key: org.org_key,
            org_id,
            currency: items
                .iter()
                .find_map(|(c, _)| c.currency.clone())
                .or(org.currency.clone()),
            level: level.clone(),
            field: field.clone(),
            operation: undo.title.clone(),
            items: items
                .iter()
                .map(|(c, _)| {
                    let target = if deleting {
                        Some("true".to_string())
                    } else {
                        wire(&level, &field, c.old_value.as_deref())
                    };
                    BulkEditItem::to(c.entity_id, target)
                })
                .collect(),
        };
        let expected: HashMap<i64, Option<String>> = items
            .iter()
            .map(|(c, new)| {
                let still = if deleting {
                    Some("false".to_string())
                } else {
                    wire(&level, &field, new.as_deref())
                };
                (c.entity_id, still)
            })
            .collect();
        let options = SendOptions {
            job_id: &key,
            source: source_of(&original.tag),
            expected: Some(&expected),
            notification: undo,
        };
        let done = apply::apply(ctx, client.as_ref(), &edit, options).await?;
        let by_id: HashMap<i64, _> = done.items.iter().map(|r| (r.id, r)).collect();
        for (c, _) in &items {
            match by_id
                .get(&c.entity_id)
                .map(|r| (r.result, r.message.as_deref()))
            {
                Some((Outcome::Applied, _)) | Some((Outcome::Skipped, Some(UNCHANGED))) => {
                    progress.restored += 1;
                }
                Some((Outcome::Refused, m)) => {
                    progress.refused += 1;
                    progress
                        .left
                        .push(left(c, m.unwrap_or("Refused by Apple Ads")));
                }
                Some((Outcome::Skipped, Some(CHANGED_SINCE))) => {
                    progress.skipped += 1;
                    progress.left.push(left(c, CHANGED_SINCE_NOTIFICATION));
                }
                Some((Outcome::Skipped, m)) => {
                    progress.skipped += 1;
                    progress.left.push(left(c, m.unwrap_or("Skipped")));
                }
                None => {
                    progress.skipped += 1;
                    progress.left.push(left(c, "No longer exists"));
                }
            }
        }
    }
    // The undo is written (and becomes the original's `undoneBy`) even when every entity
    // was changed since: the log shows what it did.
    let mut conn = pool.acquire().await?;
    progress.undo_id = Some(notifications::record(&mut conn, undo).await?);
    Ok(progress)
}

/// Fields an undo sets back through the bulk-edit sends.
pub const FIELDS: &[&str] = &[
    "status",
    "cptBid",
    "defaultBidAmount",
    "dailyBudget",
    "cpaGoal",
    "name",
];

fn left(c: &ChangeRow, message: &str) -> UndoSkipped {
    UndoSkipped {
        level: c.level.to_string(),
        entity_id: c.entity_id,
        entity_name: c.entity_name.clone(),
        field: c.field.clone(),
        message: message.to_string(),
    }
}
