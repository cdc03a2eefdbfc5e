//! `bulk-edit`: sets one field of many campaigns, ad groups, keywords or negative keywords of
//! one campaign group at Apple Ads to the values the route computed, deletes them, or adds
//! negative keywords (see `searchdeck_common::jobs::BulkEdit`).
//!
//! Items go in chunks: keywords and negative keywords through Apple's bulk endpoints
//! (`POST /keywords/bulk-update|bulk-delete`, `POST /negative-keywords/bulk-create|
//! bulk-update|bulk-delete`, up to 1,000 per call, partial success allowed), campaigns and
//! ad groups (which have no bulk endpoints) one `PUT` or `DELETE` each. For each chunk the current values are read from our synced rows; an item this job
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

use std::collections::HashMap;

use searchdeck_common::{
    ids,
    jobs::{
        BulkEdit, BulkEditItem, BulkEditProgress, CREATED, DELETED, ItemResult, NewNegative,
        Outcome, money_text,
    },
    queue::JobError,
    store::{
        self, changes,
        synced::{
            bulk::{self, BulkRow},
            edits::{AdGroupState, CampaignState, KeywordState, NegativeState},
            entities,
        },
    },
};
use searchdeck_provider::{Client, ProviderError, error::ApiErrorBody};
use serde_json::{Value, json};

use super::sync_account::{job_error, micros, negative};
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
        let edit = Edit(self);
        let chunk_size = if edit.in_bulk() {
            KEYWORD_CHUNK
        } else {
            ONE_BY_ONE_CHUNK
        };
        let label = self.operation.clone();
        ctx.progress(&label, 0, total, Some(&progress)).await;
        for chunk in self.items.chunks(chunk_size) {
            ctx.check_cancelled()?;
            if self.field == CREATED {
                let to_add = edit
                    .plan_creates(ctx, chunk, &recorded, &mut progress)
                    .await?;
                if !to_add.is_empty() {
                    edit.send_creates(ctx, &client, to_add, &mut progress)
                        .await?;
                }
            } else {
                let to_send = edit.plan(ctx, chunk, &recorded, &mut progress).await?;
                if edit.in_bulk() && !to_send.is_empty() {
                    edit.send_bulk(ctx, &client, to_send, &mut progress).await?;
                } else {
                    for item in to_send {
                        let r = edit.send_one(ctx, &client, item).await?;
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
#[derive(Clone, Copy)]
struct Edit<'a>(&'a BulkEdit);

impl std::ops::Deref for Edit<'_> {
    type Target = BulkEdit;
    fn deref(&self) -> &BulkEdit {
        self.0
    }
}

/// Whether a refusal says the entity is already deleted.
fn already_deleted(e: &ApiErrorBody) -> bool {
    e.code == "ENTITY_DELETED"
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code == "ENTITY_DELETED")
}

/// Whether a refusal says the entity already exists.
fn duplicate(e: &ApiErrorBody) -> bool {
    e.code.starts_with("DUPLICATE_")
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code.starts_with("DUPLICATE_"))
}

impl Edit<'_> {
    fn is_money(&self) -> bool {
        !matches!(self.field.as_str(), "status" | "name" | DELETED | CREATED)
    }

    /// Keywords and negative keywords go through Apple's bulk endpoints.
    fn in_bulk(&self) -> bool {
        matches!(self.level.as_str(), "KEYWORD" | "NEGATIVE_KEYWORD")
    }

    /// The provider's entity path of this level.
    fn entity(&self) -> &'static str {
        match self.level.as_str() {
            "CAMPAIGN" => "campaigns",
            "AD_GROUP" => "adgroups",
            "NEGATIVE_KEYWORD" => "negative-keywords",
            _ => "keywords",
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
                    "Unchanged"
                };
                progress.push(result(Outcome::Skipped, old.clone(), old, note));
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

    /// Keywords or negative keywords through their bulk update or delete, one call for the
    /// chunk.
    async fn send_bulk(
        &self,
        ctx: &JobContext<BulkEdit>,
        client: &Client,
        items: Vec<Send<'_>>,
        progress: &mut BulkEditProgress,
    ) -> Result<(), JobError> {
        let deleting = self.field == DELETED;
        let data: Vec<Value> = items
            .iter()
            .map(|s| {
                let mut d = if deleting {
                    json!({})
                } else {
                    self.request(s.target)
                };
                d["id"] = json!(s.row.id);
                d
            })
            .collect();
        let op = if deleting { "delete" } else { "update" };
        let answers = match client
            .bulk::<Value>(self.org_id, self.entity(), op, &data)
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
                Some(Err(e)) if deleting && already_deleted(&e) => {
                    self.write_deleted(&mut tx, ctx, &s).await?
                }
                Some(Ok(_)) if deleting => self.write_deleted(&mut tx, ctx, &s).await?,
                Some(Ok(after)) => {
                    let new = if self.level == "NEGATIVE_KEYWORD" {
                        let now = NegativeState {
                            status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                            modification_time: text(&after["modificationTime"]),
                        };
                        store::synced::edits::set_negative(&mut *tx, self.org_key, s.row.id, &now)
                            .await?;
                        Some(now.status)
                    } else {
                        let now = KeywordState {
                            status: text(&after["status"]).unwrap_or_else(|| s.row.status.clone()),
                            display_status: text(&after["displayStatus"]),
                            bid_micros: micros(&after["bid"]).or(s.row.money),
                            modification_time: text(&after["modificationTime"]),
                        };
                        store::synced::edits::set_keyword(&mut *tx, self.org_key, s.row.id, &now)
                            .await?;
                        if self.is_money() {
                            money_text(now.bid_micros)
                        } else {
                            Some(now.status)
                        }
                    };
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

    /// Marks a deleted item deleted here, with its change record.
    async fn write_deleted(
        &self,
        tx: &mut sqlx::AnyConnection,
        ctx: &JobContext<BulkEdit>,
        s: &Send<'_>,
    ) -> Result<ItemResult, JobError> {
        store::synced::edits::set_deleted(&mut *tx, &self.level, self.org_key, s.row.id).await?;
        let new = Some(true.to_string());
        self.record(tx, ctx, s, new.clone()).await?;
        Ok(applied(s, new))
    }

    /// A campaign or an ad group, one `PUT` (or `DELETE`).
    async fn send_one(
        &self,
        ctx: &JobContext<BulkEdit>,
        client: &Client,
        s: Send<'_>,
    ) -> Result<ItemResult, JobError> {
        let permanent = |e: ProviderError| match e {
            ProviderError::Permanent {
                status, message, ..
            } if status != 401 && status != 403 => Ok(message),
            e => Err(job_error(e)),
        };
        if self.field == DELETED {
            // An entity already deleted counts as deleted (`Client::delete`).
            if let Err(e) = client.delete(self.org_id, self.entity(), s.row.id).await {
                return Ok(refused(&s, permanent(e)?));
            }
            let mut tx = ctx.runtime.db.pool.begin().await?;
            let r = self.write_deleted(&mut tx, ctx, &s).await?;
            tx.commit().await?;
            return Ok(r);
        }
        let after: Value = match client
            .update(
                self.org_id,
                self.entity(),
                s.row.id,
                &self.request(s.target),
            )
            .await
        {
            Ok(after) => after,
            Err(e) => return Ok(refused(&s, permanent(e)?)),
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
                "name" => None,
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
                "name" => None,
                _ => money_text(now.default_bid_micros),
            }
        };
        let new = match new {
            Some(v) => Some(v),
            // A rename: the name Apple answered (ours if it left it out).
            None => {
                let name = text(&after["name"]).unwrap_or_else(|| s.target.to_string());
                store::synced::edits::set_name(
                    &mut *tx,
                    &self.level,
                    self.org_key,
                    s.row.id,
                    &name,
                )
                .await?;
                Some(name)
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
        let entity = Recorded {
            id: s.row.id,
            campaign_id: s.row.campaign_id,
            ad_group_id: s.row.ad_group_id,
            name: s.row.name.clone(),
            campaign_name: s.row.campaign_name.clone(),
        };
        self.insert_record(tx, ctx, entity, s.old.clone(), new)
            .await
    }

    async fn insert_record(
        &self,
        tx: &mut sqlx::AnyConnection,
        ctx: &JobContext<BulkEdit>,
        entity: Recorded,
        old: Option<String>,
        new: Option<String>,
    ) -> Result<(), sqlx::Error> {
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
                source: changes::MANUAL,
                job_id: Some(ctx.job_id.clone()),
                created_at: ids::now_ms() / 1000,
            },
        )
        .await?;
        Ok(())
    }

    /// Reports the negatives of `chunk` that need no call (added by an earlier run of this
    /// job, or already there) and returns the others.
    async fn plan_creates<'a>(
        &self,
        ctx: &JobContext<BulkEdit>,
        chunk: &'a [BulkEditItem],
        recorded: &HashMap<i64, (Option<String>, Option<String>)>,
        progress: &mut BulkEditProgress,
    ) -> Result<Vec<&'a NewNegative>, JobError> {
        let mut campaigns: Vec<i64> = chunk
            .iter()
            .filter_map(|i| i.negative.as_ref().map(|n| n.campaign_id))
            .collect();
        campaigns.sort_unstable();
        campaigns.dedup();
        let mut conn = ctx.runtime.db.pool.acquire().await?;
        let existing: HashMap<_, i64> = bulk::negatives_of(&mut conn, self.org_key, &campaigns)
            .await?
            .into_iter()
            .map(|n| {
                let key = NewNegative {
                    campaign_id: n.campaign_id,
                    ad_group_id: n.ad_group_id,
                    text: n.text,
                    match_type: n.match_type,
                }
                .key();
                (key, n.id)
            })
            .collect();
        let mut out = Vec::new();
        for n in chunk.iter().filter_map(|i| i.negative.as_ref()) {
            let result = |id, outcome, message: Option<&str>| ItemResult {
                id,
                text: Some(n.text.clone()),
                result: outcome,
                old_value: None,
                new_value: Some(n.match_type.clone()),
                message: message.map(str::to_string),
            };
            match existing.get(&n.key()) {
                Some(id) if recorded.contains_key(id) => {
                    progress.push(result(*id, Outcome::Applied, None));
                }
                Some(id) => progress.push(result(
                    *id,
                    Outcome::Skipped,
                    Some("Already a negative keyword"),
                )),
                None => out.push(n),
            }
        }
        Ok(out)
    }

    /// Negative keywords through `POST /negative-keywords/bulk-create`, one call for the
    /// chunk; each added one stored and recorded.
    async fn send_creates(
        &self,
        ctx: &JobContext<BulkEdit>,
        client: &Client,
        items: Vec<&NewNegative>,
        progress: &mut BulkEditProgress,
    ) -> Result<(), JobError> {
        let data: Vec<Value> = items
            .iter()
            .map(|n| {
                let mut d =
                    json!({ "text": n.text, "matchType": n.match_type, "status": "ENABLED" });
                match n.ad_group_id {
                    Some(g) => d["adGroupId"] = json!(g),
                    None => d["campaignId"] = json!(n.campaign_id),
                }
                d
            })
            .collect();
        let refused_all = |message: &str, progress: &mut BulkEditProgress| {
            for n in &items {
                progress.push(ItemResult {
                    id: 0,
                    text: Some(n.text.clone()),
                    result: Outcome::Refused,
                    old_value: None,
                    new_value: Some(n.match_type.clone()),
                    message: Some(message.to_string()),
                });
            }
        };
        let answers = match client
            .bulk::<Value>(self.org_id, "negative-keywords", "create", &data)
            .await
        {
            Ok(a) => a,
            Err(ProviderError::Permanent {
                status, message, ..
            }) if status != 401 && status != 403 => {
                refused_all(&message, progress);
                return Ok(());
            }
            Err(e) => return Err(job_error(e)),
        };
        let mut by_index: HashMap<usize, Result<Value, ApiErrorBody>> = answers
            .into_iter()
            .enumerate()
            .map(|(i, a)| (a.correlation_id.map_or(i, |c| c as usize), a.outcome))
            .collect();
        let names = self.names(ctx, &items).await?;
        let mut added = Vec::new();
        let mut results = Vec::with_capacity(items.len());
        for (i, n) in items.iter().enumerate() {
            let row = match by_index.remove(&i) {
                Some(Ok(after)) => Ok(negative(&after)?),
                // Added by an earlier attempt whose answer was lost: read it back.
                Some(Err(e)) if duplicate(&e) => match self.find(client, n).await? {
                    Some(found) => Ok(found),
                    None => Err(message_of(&e)),
                },
                Some(Err(e)) => Err(message_of(&e)),
                None => Err("Apple Ads did not answer for this item".into()),
            };
            match row {
                Ok(row) => added.push((*n, row)),
                Err(message) => results.push(ItemResult {
                    id: 0,
                    text: Some(n.text.clone()),
                    result: Outcome::Refused,
                    old_value: None,
                    new_value: Some(n.match_type.clone()),
                    message: Some(message),
                }),
            }
        }
        let mut tx = ctx.runtime.db.pool.begin().await?;
        let rows: Vec<entities::NegativeKeyword> = added.iter().map(|(_, r)| r.clone()).collect();
        entities::upsert(&mut tx, self.org_key, &rows, ids::now_ms() / 1000).await?;
        for (n, row) in &added {
            let (campaign_name, group_name) = names
                .get(&(n.campaign_id, n.ad_group_id))
                .cloned()
                .unwrap_or_default();
            let entity = Recorded {
                id: row.id,
                campaign_id: row.campaign_id,
                ad_group_id: row.ad_group_id,
                name: if group_name.is_empty() {
                    row.text.clone()
                } else {
                    format!("{} ({group_name})", row.text)
                },
                campaign_name,
            };
            self.insert_record(&mut tx, ctx, entity, None, Some(row.match_type.clone()))
                .await?;
            results.push(ItemResult {
                id: row.id,
                text: Some(row.text.clone()),
                result: Outcome::Applied,
                old_value: None,
                new_value: Some(row.match_type.clone()),
                message: None,
            });
        }
        tx.commit().await?;
        for r in results {
            progress.push(r);
        }
        Ok(())
    }

    /// The live negative `n` at Apple, if it exists.
    async fn find(
        &self,
        client: &Client,
        n: &NewNegative,
    ) -> Result<Option<entities::NegativeKeyword>, JobError> {
        let query = json!({
            "filters": [
                { "field": "campaignId", "operator": "EQUALS", "value": [n.campaign_id] },
                { "field": "deleted", "operator": "EQUALS", "value": [false] },
            ],
            "pagination": { "offset": 0, "pageSize": 1000 },
        });
        let page = client
            .query::<Value>(self.org_id, "negative-keywords", &query)
            .await
            .map_err(job_error)?;
        for v in &page.items {
            let found = negative(v)?;
            let key = NewNegative {
                campaign_id: found.campaign_id,
                ad_group_id: found.ad_group_id,
                text: found.text.clone(),
                match_type: found.match_type.clone(),
            }
            .key();
            if key == n.key() {
                return Ok(Some(found));
            }
        }
        Ok(None)
    }

    /// Campaign and ad group names of the negatives' levels, for their change records.
    async fn names(
        &self,
        ctx: &JobContext<BulkEdit>,
        items: &[&NewNegative],
    ) -> Result<HashMap<(i64, Option<i64>), (String, String)>, JobError> {
        let mut campaigns: Vec<i64> = items.iter().map(|n| n.campaign_id).collect();
        campaigns.sort_unstable();
        campaigns.dedup();
        let groups: Vec<i64> = items.iter().filter_map(|n| n.ad_group_id).collect();
        let mut conn = ctx.runtime.db.pool.acquire().await?;
        let campaign_names: HashMap<i64, String> = bulk::rows(
            &mut conn,
            self.org_key,
            "CAMPAIGN",
            "name",
            None,
            &campaigns,
        )
        .await?
        .into_iter()
        .map(|r| (r.id, r.name))
        .collect();
        let group_names: HashMap<i64, String> =
            bulk::rows(&mut conn, self.org_key, "AD_GROUP", "name", None, &groups)
                .await?
                .into_iter()
                .map(|r| (r.id, r.name))
                .collect();
        Ok(items
            .iter()
            .map(|n| {
                let campaign = campaign_names
                    .get(&n.campaign_id)
                    .cloned()
                    .unwrap_or_default();
                let group = n
                    .ad_group_id
                    .and_then(|g| group_names.get(&g).cloned())
                    .unwrap_or_default();
                ((n.campaign_id, n.ad_group_id), (campaign, group))
            })
            .collect())
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
