//! Sending a [`BulkEdit`]'s items to Apple Ads, as the `bulk-edit` job
//! (`jobs::bulk_edit`), automated rules (`jobs::run_rule`) and undos
//! (`jobs::undo_notification`) do: one field of many campaigns, ad groups, keywords or
//! negative keywords of one campaign group set to the values the caller computed, deleted,
//! or negative keywords added (see `searchdeck_common::jobs::BulkEdit`).
//!
//! Items go in chunks: keywords and negative keywords through Apple's bulk endpoints
//! (`POST /keywords/bulk-update|bulk-delete`, `POST /negative-keywords/bulk-create|
//! bulk-update|bulk-delete`, up to 1,000 per call, partial success allowed), campaigns and
//! ad groups (which have no bulk endpoints) one `PUT` or `DELETE` each. For each chunk the
//! current values are read from our synced rows; an item this job
//! already recorded is reported applied without being sent, an item already at its target
//! is skipped as unchanged, the rest are sent. Each accepted item's synced row and one change
//! record (with this job's id; the unique index keeps a retried item to one record) are
//! written from the provider's answer in one transaction (per keyword chunk, per campaign or
//! ad group); a refused item is listed with the
//! provider's message. Rate limits snooze and transient failures retry the job, which then
//! resumes where it stopped; refusals never fail it.
//!
//! Deletions are idempotent: an entity Apple says is already deleted counts as deleted. An
//! added negative keyword already in our database is skipped (or reported applied when this
//! job's record says it added it); one Apple refuses as a duplicate although our database
//! had none when the edit was queued was added by an earlier attempt whose answer was lost:
//! it is read back from Apple, stored and reported applied, so it is added once.
//!
//! The sends live apart: [`bulk`] (keywords and negative keywords through the bulk
//! endpoints), [`one_by_one`] (campaigns and ad groups), [`creates`] (added negative
//! keywords). The task's progress moves after every chunk of the bulk endpoints and after
//! every item sent one by one, so the popover counts what is done while the job runs.

mod bulk;
mod creates;
mod one_by_one;

use std::collections::HashMap;

use searchdeck_common::{
    ids,
    jobs::{
        BulkEdit, BulkEditItem, BulkEditProgress, CREATED, DELETED, ItemResult, Outcome, money_text,
    },
    queue::JobError,
    store::{
        self,
        activity::changes,
        activity::notifications::{self, NewNotification},
        synced::bulk::{self as stored, BulkRow},
    },
};
use searchdeck_provider::{Entity, error::ApiErrorBody};
use serde_json::{Value, json};

use crate::JobRun;

/// Keywords per bulk-update call (Apple's maximum).
pub(crate) const KEYWORD_CHUNK: usize = searchdeck_provider::calls::BULK_CHUNK;
/// Campaigns or ad groups read and planned together (then sent one by one, the progress
/// moving after each).
pub(crate) const ONE_BY_ONE_CHUNK: usize = 25;

/// An item to send: the entity as we hold it, its current and its target value.
pub(crate) struct Send<'a> {
    row: BulkRow,
    old: Option<String>,
    target: &'a str,
}

/// The items of `edit` job `job_id` already recorded (by an earlier run of it): id → (old,
/// new).
pub(crate) async fn recorded(
    ctx: &JobRun,
    job_id: &str,
    edit: &BulkEdit,
) -> Result<HashMap<i64, (Option<String>, Option<String>)>, JobError> {
    Ok(
        changes::of_job(&ctx.runtime.db.pool, job_id, &edit.level, &edit.field)
            .await?
            .into_iter()
            .map(|(id, old, new)| (id, (old, new)))
            .collect(),
    )
}

/// Once a job is done: titles its notification (when it changed anything) by how many
/// changes it holds.
pub async fn retitle(
    ctx: &JobRun,
    n: &NewNotification,
    title: impl Fn(i64) -> String,
) -> Result<(), JobError> {
    let pool = &ctx.runtime.db.pool;
    if let Some(row) = notifications::by_key(pool, &n.workspace_id, &n.key).await? {
        let count = notifications::change_count(pool, &row.id).await?;
        let title = title(count);
        if title != row.title {
            notifications::set_title(pool, &row.id, &title).await?;
        }
    }
    Ok(())
}

/// How a caller other than the bulk-edit job sends a [`BulkEdit`]'s items ([`apply`]):
/// automated rules (`run_rule`) send their planned items through the same sends.
#[derive(Clone, Copy)]
pub struct SendOptions<'a> {
    /// The id change records carry, by which items an earlier attempt applied are found
    /// (a rule run's id).
    pub job_id: &'a str,
    /// The change records' source (`store::activity::changes::AUTO_RULES`, `GOAL_OPTIMIZATION`).
    pub source: &'static str,
    /// Item id → the value it must still have (as [`BulkEdit`] targets are written); an item
    /// whose current value is neither that nor its target is skipped with
    /// [`CHANGED_SINCE`].
    pub expected: Option<&'a HashMap<i64, Option<String>>>,
    /// The notification every change record belongs to (written with the first of them).
    pub notification: &'a NewNotification,
}

/// The message of an item skipped because someone changed it since it was planned.
pub const CHANGED_SINCE: &str = "Changed since the rule evaluated it";
/// The message of an item already at its target (and not recorded by this job).
pub const UNCHANGED: &str = "Unchanged";

/// Sends every item of `edit` as the bulk-edit job does (chunks, per-item results, synced
/// rows and change records written from the answers, items recorded by an earlier attempt
/// of `options.job_id` reported applied without a call), without a task to report to.
pub async fn apply(
    ctx: &JobRun,
    client: &dyn searchdeck_provider::AppleAds,
    edit: &BulkEdit,
    options: SendOptions<'_>,
) -> Result<BulkEditProgress, JobError> {
    let recorded = recorded(ctx, options.job_id, edit).await?;
    let e = Edit {
        edit,
        job_id: options.job_id,
        source: options.source,
        expected: options.expected,
        notification: options.notification,
    };
    let mut progress = BulkEditProgress {
        level: edit.level.clone(),
        field: edit.field.clone(),
        operation: edit.operation.clone(),
        total: edit.items.len() as u64,
        ..Default::default()
    };
    let size = if e.in_bulk() {
        KEYWORD_CHUNK
    } else {
        ONE_BY_ONE_CHUNK
    };
    for chunk in edit.items.chunks(size) {
        if edit.field == CREATED {
            let to_add = e.plan_creates(ctx, chunk, &recorded, &mut progress).await?;
            if !to_add.is_empty() {
                e.send_creates(ctx, client, to_add, &mut progress).await?;
            }
            continue;
        }
        let to_send = e.plan(ctx, chunk, &recorded, &mut progress).await?;
        if e.in_bulk() {
            if !to_send.is_empty() {
                e.send_bulk(ctx, client, to_send, &mut progress).await?;
            }
        } else {
            for item in to_send {
                let r = e.send_one(ctx, client, item).await?;
                progress.push(r);
            }
        }
    }
    Ok(progress)
}

/// A bulk edit being run (the payload type lives in another crate), with who sends it.
#[derive(Clone, Copy)]
pub(crate) struct Edit<'a> {
    edit: &'a BulkEdit,
    /// The job id of its change records.
    job_id: &'a str,
    source: &'static str,
    expected: Option<&'a HashMap<i64, Option<String>>>,
    notification: &'a NewNotification,
}

impl std::ops::Deref for Edit<'_> {
    type Target = BulkEdit;
    fn deref(&self) -> &BulkEdit {
        self.edit
    }
}

impl<'a> Edit<'a> {
    /// The bulk-edit job's own sends (source manual, its job id).
    pub(crate) fn new(
        edit: &'a BulkEdit,
        job_id: &'a str,
        notification: &'a NewNotification,
    ) -> Edit<'a> {
        Edit {
            edit,
            job_id,
            source: changes::MANUAL,
            expected: None,
            notification,
        }
    }
}

impl Edit<'_> {
    fn is_money(&self) -> bool {
        !matches!(self.field.as_str(), "status" | "name" | DELETED | CREATED)
    }

    /// Keywords and negative keywords go through Apple's bulk endpoints.
    pub(crate) fn in_bulk(&self) -> bool {
        matches!(self.level.as_str(), "KEYWORD" | "NEGATIVE_KEYWORD")
    }

    /// The provider's entity path of this level.
    fn entity(&self) -> Entity {
        match self.level.as_str() {
            "CAMPAIGN" => Entity::Campaigns,
            "AD_GROUP" => Entity::AdGroups,
            "NEGATIVE_KEYWORD" => Entity::NegativeKeywords,
            _ => Entity::Keywords,
        }
    }

    /// The current value of `row` as change records write it.
    fn current(&self, row: &BulkRow) -> Option<String> {
        match self.field.as_str() {
            DELETED => Some(row.deleted.to_string()),
            "name" => Some(row.name.clone()),
            // The keyword table says ACTIVE for ENABLED.
            "status" if row.status == "ACTIVE" => Some("ENABLED".into()),
            "status" => Some(row.status.clone()),
            _ => money_text(row.money),
        }
    }

    /// Reports the items of `chunk` that need no call (recorded by an earlier run of this job,
    /// gone, without a target, already at it) and returns the others.
    pub(crate) async fn plan<'a>(
        &self,
        ctx: &JobRun,
        chunk: &'a [BulkEditItem],
        recorded: &HashMap<i64, (Option<String>, Option<String>)>,
        progress: &mut BulkEditProgress,
    ) -> Result<Vec<Send<'a>>, JobError> {
        let ids: Vec<i64> = chunk.iter().map(|i| i.id).collect();
        let mut conn = ctx.runtime.db.pool.acquire().await?;
        let mut rows: HashMap<i64, BulkRow> = stored::rows(
            &mut conn,
            self.org_key,
            &self.level,
            &self.field,
            None,
            &ids,
        )
        .await?
        .into_iter()
        .map(|r| (r.id, r))
        .collect();
        let deleting = self.field == DELETED;
        let mut out = Vec::new();
        for item in chunk {
            let result =
                |result, old: Option<String>, new: Option<String>, message: &str| ItemResult {
                    id: item.id,
                    text: None,
                    result,
                    old_value: old,
                    new_value: new,
                    message: (!message.is_empty()).then(|| message.to_string()),
                };
            if let Some((old, new)) = recorded.get(&item.id) {
                progress.push(result(Outcome::Applied, old.clone(), new.clone(), ""));
                continue;
            }
            let Some(row) = rows.remove(&item.id).filter(|r| deleting || !r.deleted) else {
                progress.push(result(Outcome::Skipped, None, None, "No longer exists"));
                continue;
            };
            let old = self.current(&row);
            let Some(target) = item.target.as_deref() else {
                let note = item.note.as_deref().unwrap_or("Nothing to change");
                progress.push(result(Outcome::Skipped, old.clone(), old, note));
                continue;
            };
            if old.as_deref() == Some(target) {
                let note = if deleting {
                    "Already deleted"
                } else {
                    UNCHANGED
                };
                progress.push(result(Outcome::Skipped, old.clone(), old, note));
                continue;
            }
            if let Some(expected) = self.expected.and_then(|e| e.get(&item.id))
                && *expected != old
            {
                progress.push(result(Outcome::Skipped, old.clone(), old, CHANGED_SINCE));
                continue;
            }
            out.push(Send { row, old, target });
        }
        Ok(out)
    }

    /// The provider's request fields for setting this job's field to `target`.
    fn request(&self, target: &str) -> Value {
        let money = json!({ "amount": target, "currency": self.currency });
        match self.field.as_str() {
            "status" => json!({ "status": target }),
            "name" => json!({ "name": target }),
            "dailyBudget" => json!({ "dailyBudget": { "value": money } }),
            "defaultBidAmount" => json!({ "bidStrategy": { "bid": money } }),
            "cpaGoal" => json!({ "cpaCap": { "value": money } }),
            _ => json!({ "bid": money }),
        }
    }

    /// Marks a deleted item deleted here, with its change record.
    async fn write_deleted(
        &self,
        tx: &mut sqlx::AnyConnection,
        s: &Send<'_>,
    ) -> Result<ItemResult, JobError> {
        store::synced::edits::set_deleted(&mut *tx, &self.level, self.org_key, s.row.id).await?;
        let new = Some(true.to_string());
        self.record(tx, s, new.clone()).await?;
        Ok(applied(s, new))
    }

    /// The change record of an applied item (none when the answer shows no change).
    async fn record(
        &self,
        tx: &mut sqlx::AnyConnection,
        s: &Send<'_>,
        new: Option<String>,
    ) -> Result<(), sqlx::Error> {
        if new == s.old {
            return Ok(());
        }
        let entity = Recorded {
            id: s.row.id,
            campaign_id: s.row.campaign_id,
            ad_group_id: s.row.ad_group_id,
            name: s.row.name.clone(),
            campaign_name: s.row.campaign_name.clone(),
        };
        self.insert_record(tx, entity, s.old.clone(), new).await
    }

    async fn insert_record(
        &self,
        tx: &mut sqlx::AnyConnection,
        entity: Recorded,
        old: Option<String>,
        new: Option<String>,
    ) -> Result<(), sqlx::Error> {
        let notification_id = notifications::record(&mut *tx, self.notification).await?;
        changes::insert(
            &mut *tx,
            &changes::NewChange {
                id: ids::new_id(),
                workspace_id: self.workspace_id.clone(),
                user_id: self.user_id.clone(),
                user_email: self.user_email.clone(),
                account_id: Some(self.account_id.clone()),
                org_id: self.org_id,
                level: level(&self.level),
                entity_id: entity.id,
                campaign_id: entity.campaign_id,
                ad_group_id: entity.ad_group_id,
                entity_name: entity.name,
                campaign_name: entity.campaign_name,
                field: self.field.clone(),
                old_value: old,
                new_value: new,
                currency: self.is_money().then(|| self.currency.clone()).flatten(),
                source: self.source,
                job_id: Some(self.job_id.to_string()),
                notification_id: Some(notification_id),
                created_at: ids::now_ms() / 1000,
            },
        )
        .await?;
        Ok(())
    }
}

/// The entity a change record names.
struct Recorded {
    id: i64,
    campaign_id: i64,
    ad_group_id: Option<i64>,
    name: String,
    campaign_name: String,
}

pub(crate) fn level(stored: &str) -> &'static str {
    changes::LEVELS
        .iter()
        .find(|l| **l == stored)
        .copied()
        .unwrap_or("KEYWORD")
}

fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

fn applied(s: &Send<'_>, new: Option<String>) -> ItemResult {
    ItemResult {
        id: s.row.id,
        text: None,
        result: Outcome::Applied,
        old_value: s.old.clone(),
        new_value: new,
        message: None,
    }
}

fn refused(s: &Send<'_>, message: String) -> ItemResult {
    ItemResult {
        id: s.row.id,
        text: None,
        result: Outcome::Refused,
        old_value: s.old.clone(),
        new_value: Some(s.target.to_string()),
        message: Some(message),
    }
}

/// The provider's message of a refused bulk item: its first detail's, else its own, else
/// its code.
fn message_of(e: &ApiErrorBody) -> String {
    e.details
        .as_ref()
        .and_then(|d| d.iter().find_map(|d| d.message.clone()))
        .or_else(|| e.message.clone())
        .unwrap_or_else(|| e.code.clone())
}

/// The outcomes of a bulk call by the index of the item sent: its correlation id where the
/// provider gave one, else its place in the answer.
fn by_item(
    answers: Vec<searchdeck_provider::error::BulkItem<Value>>,
) -> std::collections::HashMap<usize, Result<Value, searchdeck_provider::error::ApiErrorBody>> {
    answers
        .into_iter()
        .enumerate()
        .map(|(i, a)| (a.correlation_id.map_or(i, |c| c as usize), a.outcome))
        .collect()
}
