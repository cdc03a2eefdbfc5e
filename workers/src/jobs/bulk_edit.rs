//! `bulk-edit`: sets one field of many campaigns, ad groups or keywords of one campaign group
//! at Apple Ads to the values the route computed (see `searchdeck_common::jobs::BulkEdit`).
//!
//! Items go in chunks: keywords through `POST /keywords/bulk-update` (up to 1,000 per call,
//! partial success allowed), campaigns and ad groups (which have no bulk update) one `PUT`
//! each. For each chunk the current values are read from our synced rows; an item this job
//! already recorded is reported applied without being sent, an item already at its target
//! is skipped as unchanged, the rest are sent. Each accepted item's synced row and one change
//! record (with this job's id; the unique index keeps a retried item to one record) are
//! written from the provider's answer in one transaction (per keyword chunk, per campaign or
//! ad group); a refused item is listed with the
//! provider's message. Rate limits snooze and transient failures retry the job, which then
//! resumes where it stopped; refusals never fail it.

use std::collections::HashMap;

use searchdeck_common::{
    ids,
    jobs::{BulkEdit, BulkEditItem, BulkEditProgress, ItemResult, Outcome, money_text},
    queue::JobError,
    store::{
        self, changes,
        synced::{
            bulk::{self, BulkRow},
            edits::{AdGroupState, CampaignState, KeywordState},
        },
    },
};
use searchdeck_provider::{Client, ProviderError, error::ApiErrorBody};
use serde_json::{Value, json};

use super::sync_account::{job_error, micros};
use crate::{Done, Handler, JobContext};

/// Keywords per bulk-update call (Apple's maximum).
const KEYWORD_CHUNK: usize = searchdeck_provider::calls::BULK_CHUNK;
/// Campaigns or ad groups per progress step (sent one by one).
const ONE_BY_ONE_CHUNK: usize = 25;

/// An item to send: the entity as we hold it, its current and its target value.
struct Send<'a> {
    row: BulkRow,
    old: Option<String>,
    target: &'a str,
}

impl Handler for BulkEdit {
    async fn run(&self, ctx: &JobContext<Self>) -> Result<Done<BulkEditProgress>, JobError> {
        let db = &ctx.runtime.db;
        let Some(account) = store::accounts::by_id(&db.pool, &self.account_id).await? else {
            tracing::info!(account_id = %self.account_id, "connection gone; nothing to edit");
            return Ok(Done::message("Connection removed"));
        };
        let client = ctx.runtime.provider_for(&account)?;
        let recorded: HashMap<i64, (Option<String>, Option<String>)> =
            changes::of_job(&db.pool, &ctx.job_id, &self.level, &self.field)
                .await?
                .into_iter()
                .map(|(id, old, new)| (id, (old, new)))
                .collect();
        let mut progress = BulkEditProgress {
            level: self.level.clone(),
            field: self.field.clone(),
            operation: self.operation.clone(),
            total: self.items.len() as u64,
            ..Default::default()
        };
        let total = self.items.len() as i64;
        let chunk_size = if self.level == "KEYWORD" {
            KEYWORD_CHUNK
        } else {
            ONE_BY_ONE_CHUNK
        };
        let label = self.operation.clone();
        ctx.progress(&label, 0, total, Some(&progress)).await;
        for chunk in self.items.chunks(chunk_size) {
            ctx.check_cancelled()?;
            let to_send = Edit(self)
                .plan(ctx, chunk, &recorded, &mut progress)
                .await?;
            if !to_send.is_empty() {
                if self.level == "KEYWORD" {
                    Edit(self)
                        .send_keywords(ctx, &client, to_send, &mut progress)
                        .await?;
                } else {
                    for item in to_send {
                        let r = Edit(self).send_one(ctx, &client, item).await?;
                        progress.push(r);
                    }
                }
            }
            ctx.progress(&label, progress.done as i64, total, Some(&progress))
                .await;
        }
        let message = if progress.refused > 0 {
            format!(
                "Finished with errors: {} applied, {} refused, {} unchanged",
                progress.applied, progress.refused, progress.skipped
            )
        } else {
            format!(
                "Done: {} applied, {} unchanged",
                progress.applied, progress.skipped
            )
        };
        tracing::info!(job.id = %ctx.job_id, level = %self.level, field = %self.field,
            applied = progress.applied, refused = progress.refused, skipped = progress.skipped, "bulk edit done");
        Ok(Done::with_progress(message, progress))
    }
}

/// A bulk edit being run (the payload type lives in another crate).
struct Edit<'a>(&'a BulkEdit);

impl std::ops::Deref for Edit<'_> {
    type Target = BulkEdit;
    fn deref(&self) -> &BulkEdit {
        self.0
    }
}

impl Edit<'_> {
    fn is_money(&self) -> bool {
        self.field != "status"
    }

    /// The current value of `row` as change records write it.
    fn current(&self, row: &BulkRow) -> Option<String> {
        if self.is_money() {
            money_text(row.money)
        } else if row.status == "ACTIVE" {
            // The keyword table says ACTIVE for ENABLED.
            Some("ENABLED".into())
        } else {
            Some(row.status.clone())
        }
    }

    /// Reports the items of `chunk` that need no call (recorded by an earlier run of this job,
    /// gone, without a target, already at it) and returns the others.
    async fn plan<'a>(
        &self,
        ctx: &JobContext<BulkEdit>,
        chunk: &'a [BulkEditItem],
        recorded: &HashMap<i64, (Option<String>, Option<String>)>,
        progress: &mut BulkEditProgress,
    ) -> Result<Vec<Send<'a>>, JobError> {
        let ids: Vec<i64> = chunk.iter().map(|i| i.id).collect();
        let mut conn = ctx.runtime.db.pool.acquire().await?;
        let mut rows: HashMap<i64, BulkRow> = bulk::rows(
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
        let mut out = Vec::new();
        for item in chunk {
            let result =
                |result, old: Option<String>, new: Option<String>, message: &str| ItemResult {
                    id: item.id,
                    result,
                    old_value: old,
                    new_value: new,
                    message: (!message.is_empty()).then(|| message.to_string()),
                };
            if let Some((old, new)) = recorded.get(&item.id) {
                progress.push(result(Outcome::Applied, old.clone(), new.clone(), ""));
                continue;
            }
            let Some(row) = rows.remove(&item.id).filter(|r| !r.deleted) else {
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
                progress.push(result(Outcome::Skipped, old.clone(), old, "Unchanged"));
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
            "dailyBudget" => json!({ "dailyBudget": { "value": money } }),
            "defaultBidAmount" => json!({ "bidStrategy": { "bid": money } }),
            "cpaGoal" => json!({ "cpaCap": { "value": money } }),
            _ => json!({ "bid": money }),
        }
    }

    /// Keywords through bulk-update, one call for the chunk.
    async fn send_keywords(
        &self,
        ctx: &JobContext<BulkEdit>,
        client: &Client,
        items: Vec<Send<'_>>,
        progress: &mut BulkEditProgress,
    ) -> Result<(), JobError> {
        let data: Vec<Value> = items
            .iter()
            .map(|s| {
                let mut d = self.request(s.target);
                d["id"] = json!(s.row.id);
                d
            })
            .collect();
        let answers = match client
            .bulk::<Value>(self.org_id, "keywords", "update", &data)
            .await
        {
            Ok(a) => a,
            // The whole call refused: every item of it is, with the provider's message.
            Err(ProviderError::Permanent {
                status, message, ..
            }) if status != 401 && status != 403 => {
                for s in items {
                    progress.push(refused(&s, message.clone()));
                }
                return Ok(());
            }
            Err(e) => return Err(job_error(e)),
        };
        let mut by_index: HashMap<usize, Result<Value, ApiErrorBody>> = answers
            .into_iter()
            .enumerate()
            .map(|(i, a)| (a.correlation_id.map_or(i, |c| c as usize), a.outcome))
            .collect();
        // The chunk's accepted items are written in one transaction: all or none, and a
        // retry sends the absolute targets of the unwritten ones again.
        let mut tx = ctx.runtime.db.pool.begin().await?;
        let mut results = Vec::with_capacity(items.len());
        for (i, s) in items.into_iter().enumerate() {
            let r = match by_index.remove(&i) {
                Some(Ok(after)) => {
                    let now = KeywordState {
                        status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                        display_status: text(&after["displayStatus"]),
                        bid_micros: micros(&after["bid"]).or(s.row.money),
                        modification_time: text(&after["modificationTime"]),
                    };
                    let new = if self.is_money() {
                        money_text(now.bid_micros)
                    } else {
                        Some(now.status.clone())
                    };
                    store::synced::edits::set_keyword(&mut *tx, self.org_key, s.row.id, &now)
                        .await?;
                    self.record(&mut tx, ctx, &s, new.clone()).await?;
                    applied(&s, new)
                }
                Some(Err(e)) => refused(&s, message_of(&e)),
                None => refused(&s, "Apple Ads did not answer for this item".into()),
            };
            results.push(r);
        }
        tx.commit().await?;
        for r in results {
            progress.push(r);
        }
        Ok(())
    }

    /// A campaign or an ad group, one `PUT`.
    async fn send_one(
        &self,
        ctx: &JobContext<BulkEdit>,
        client: &Client,
        s: Send<'_>,
    ) -> Result<ItemResult, JobError> {
        let entity = if self.level == "CAMPAIGN" {
            "campaigns"
        } else {
            "adgroups"
        };
        let after: Value = match client
            .update(self.org_id, entity, s.row.id, &self.request(s.target))
            .await
        {
            Ok(after) => after,
            Err(ProviderError::Permanent {
                status, message, ..
            }) if status != 401 && status != 403 => return Ok(refused(&s, message)),
            Err(e) => return Err(job_error(e)),
        };
        let mut tx = ctx.runtime.db.pool.begin().await?;
        let new = if self.level == "CAMPAIGN" {
            let budget = &after["dailyBudget"];
            let budget = if budget.get("value").is_some() {
                &budget["value"]
            } else {
                budget
            };
            let now = CampaignState {
                status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                display_status: text(&after["displayStatus"]),
                daily_budget_micros: micros(budget),
                modification_time: text(&after["modificationTime"]),
                body: after.to_string(),
            };
            store::synced::edits::set_campaign(&mut *tx, self.org_key, s.row.id, &now).await?;
            match self.field.as_str() {
                "status" => Some(now.status),
                _ => money_text(now.daily_budget_micros),
            }
        } else {
            let cpa = &after["cpaCap"];
            let cpa = if cpa.get("value").is_some() {
                &cpa["value"]
            } else {
                cpa
            };
            let now = AdGroupState {
                status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                display_status: text(&after["displayStatus"]),
                default_bid_micros: micros(&after["bidStrategy"]["bid"])
                    .or_else(|| micros(&after["defaultBidAmount"])),
                cpa_goal_micros: micros(cpa),
                automated_keywords_opt_in: match after["automatedKeywordsOptIn"].as_bool() {
                    Some(on) => on,
                    // An answer without it keeps what we hold.
                    None => store::synced_reads::ad_group(
                        &mut *tx,
                        self.org_key,
                        s.row.campaign_id,
                        s.row.id,
                    )
                    .await?
                    .is_some_and(|g| g.automated_keywords_opt_in),
                },
                modification_time: text(&after["modificationTime"]),
                body: after.to_string(),
            };
            store::synced::edits::set_ad_group(&mut *tx, self.org_key, s.row.id, &now).await?;
            match self.field.as_str() {
                "status" => Some(now.status),
                "cpaGoal" => money_text(now.cpa_goal_micros),
                _ => money_text(now.default_bid_micros),
            }
        };
        self.record(&mut tx, ctx, &s, new.clone()).await?;
        tx.commit().await?;
        Ok(applied(&s, new))
    }

    /// The change record of an applied item (none when the answer shows no change).
    async fn record(
        &self,
        tx: &mut sqlx::AnyConnection,
        ctx: &JobContext<BulkEdit>,
        s: &Send<'_>,
        new: Option<String>,
    ) -> Result<(), sqlx::Error> {
        if new == s.old {
            return Ok(());
        }
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
                entity_id: s.row.id,
                campaign_id: s.row.campaign_id,
                ad_group_id: s.row.ad_group_id,
                entity_name: s.row.name.clone(),
                campaign_name: s.row.campaign_name.clone(),
                field: self.field.clone(),
                old_value: s.old.clone(),
                new_value: new,
                currency: self.is_money().then(|| self.currency.clone()).flatten(),
                source: changes::MANUAL,
                job_id: Some(ctx.job_id.clone()),
                created_at: ids::now_ms() / 1000,
            },
        )
        .await?;
        Ok(())
    }
}

fn level(stored: &str) -> &'static str {
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
        result: Outcome::Applied,
        old_value: s.old.clone(),
        new_value: new,
        message: None,
    }
}

fn refused(s: &Send<'_>, message: String) -> ItemResult {
    ItemResult {
        id: s.row.id,
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
