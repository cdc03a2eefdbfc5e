//! `apply-negative-lists`: Apple's negative keywords at each place of the payload made to
//! match the workspace's negative keyword lists (docs/api/creation.md "Negative keyword
//! lists", docs/sync-and-jobs.md).
//!
//! At each place (a campaign, or an ad group of one): the terms the lists hold there now
//! (`store::negative_lists::terms_at`), Apple's live negatives there (a `query`), then one
//! `bulk-create` of the terms Apple lacks and one `bulk-delete` of the negatives a list
//! created there (`negative_list_created`) that no list holds any more. Created ones are
//! recorded as they come back, and everything Apple answered is written to our synced
//! negative keywords at once, so the NEGATIVE table shows it before the next sync. A rerun
//! finds Apple already in line and sends nothing.

use std::collections::{BTreeMap, HashMap, HashSet};

use searchdeck_common::{
    ids,
    jobs::{ApplyNegativeLists, ApplyNegativeListsProgress, PlaceError, PlaceRef},
    queue::JobError,
    store::{
        self,
        negative_lists::{ListKeyword, Place},
        synced::{edits, entities},
    },
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity, error::ApiErrorBody};
use serde_json::{Value, json};

use super::sync_account::{job_error, negative};
use crate::{Done, Handler, JobContext};

impl Handler for ApplyNegativeLists {
    async fn run(
        &self,
        ctx: &JobContext<Self>,
    ) -> Result<Done<ApplyNegativeListsProgress>, JobError> {
        let mut progress = ApplyNegativeListsProgress {
            places_total: self.places.len() as u64,
            ..Default::default()
        };
        // Places grouped by connection and campaign group: one client each.
        let mut groups: BTreeMap<(String, i64), Vec<&PlaceRef>> = BTreeMap::new();
        for p in &self.places {
            groups
                .entry((p.account_id.clone(), p.org_id))
                .or_default()
                .push(p);
        }
        let total = self.places.len() as i64;
        ctx.progress("Applying negative keyword lists", 0, total, Some(&progress))
            .await;
        for ((account_id, org_id), places) in groups {
            let Some(account) = store::accounts::by_id(&ctx.runtime.db.pool, &account_id).await?
            else {
                tracing::info!(account.id = %account_id, "a negative list's connection is gone");
                progress.places_done += places.len() as u64;
                continue;
            };
            let client = ctx.runtime.provider_for(&account)?;
            let org_key = store::synced::org_of(&ctx.runtime.db.pool, &account_id, org_id)
                .await?
                .map(|o| o.org_key);
            for place in places {
                ctx.check_cancelled()?;
                apply_at(self, ctx, client.as_ref(), org_key, place, &mut progress).await?;
                progress.places_done += 1;
                ctx.progress(
                    "Applying negative keyword lists",
                    progress.places_done as i64,
                    total,
                    Some(&progress),
                )
                .await;
            }
        }
        tracing::info!(
            job.id = %ctx.job_id,
            created = progress.created,
            deleted = progress.deleted,
            "negative keyword lists applied"
        );
        let message = if progress.errors.is_empty() {
            "Negative keyword lists applied"
        } else {
            "Negative keyword lists applied with errors"
        };
        Ok(Done::with_progress(message, progress))
    }
}

/// The key Apple compares negatives by: text (case-insensitive) and match type.
fn key(text: &str, match_type: &str) -> (String, String) {
    (text.trim().to_lowercase(), match_type.to_ascii_uppercase())
}

/// Whether a refusal says the negative already exists.
fn duplicate(e: &ApiErrorBody) -> bool {
    e.code.starts_with("DUPLICATE_")
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code.starts_with("DUPLICATE_"))
}

fn message_of(e: &ApiErrorBody) -> String {
    e.details
        .as_ref()
        .and_then(|d| d.iter().find_map(|d| d.message.clone()))
        .or_else(|| e.message.clone())
        .unwrap_or_else(|| e.code.clone())
}

/// Apple's live negatives at `place` (campaign-level ones for a campaign place).
async fn live_at(
    client: &dyn AppleAds,
    place: &PlaceRef,
) -> Result<Vec<entities::NegativeKeyword>, JobError> {
    let mut filters = vec![
        json!({ "field": "campaignId", "operator": "EQUALS", "value": [place.campaign_id] }),
        json!({ "field": "deleted", "operator": "EQUALS", "value": [false] }),
    ];
    if let Some(g) = place.ad_group_id {
        filters.push(json!({ "field": "adGroupId", "operator": "EQUALS", "value": [g] }));
    }
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        let query =
            json!({ "filters": filters, "pagination": { "offset": offset, "pageSize": 1000 } });
        let page = client
            .query::<Value>(place.org_id, Entity::NegativeKeywords, &query)
            .await
            .map_err(job_error)?;
        let n = page.items.len();
        for v in &page.items {
            let row = negative(v)?;
            if row.ad_group_id == place.ad_group_id && !row.deleted {
                out.push(row);
            }
        }
        offset += n;
        if n < 1000 || page.total.is_some_and(|t| offset as u64 >= t) {
            return Ok(out);
        }
    }
}

async fn apply_at(
    job: &ApplyNegativeLists,
    ctx: &JobContext<ApplyNegativeLists>,
    client: &dyn AppleAds,
    org_key: Option<i64>,
    place: &PlaceRef,
    progress: &mut ApplyNegativeListsProgress,
) -> Result<(), JobError> {
    let db = &ctx.runtime.db;
    let wanted: Vec<ListKeyword> = store::negative_lists::terms_at(
        &db.pool,
        &job.workspace_id,
        &Place {
            account_id: place.account_id.clone(),
            org_id: place.org_id,
            campaign_id: place.campaign_id,
            ad_group_id: place.ad_group_id,
            campaign_name: String::new(),
            ad_group_name: None,
        },
    )
    .await?;
    let wanted_keys: HashSet<_> = wanted.iter().map(|k| key(&k.text, &k.match_type)).collect();
    let live = live_at(client, place).await?;
    let live_keys: HashSet<_> = live.iter().map(|n| key(&n.text, &n.match_type)).collect();
    let error = |text: Option<String>, message: String| PlaceError {
        campaign_id: place.campaign_id,
        ad_group_id: place.ad_group_id,
        text,
        message,
    };

    // What the lists hold and Apple lacks.
    let missing: Vec<&ListKeyword> = wanted
        .iter()
        .filter(|k| !live_keys.contains(&key(&k.text, &k.match_type)))
        .collect();
    let mut created = Vec::new();
    if !missing.is_empty() {
        let data: Vec<Value> = missing
            .iter()
            .map(|k| {
                // A negative belongs to a campaign or to an ad group: one of the two ids.
                let mut d =
                    json!({ "text": k.text, "matchType": k.match_type, "status": "ENABLED" });
                match place.ad_group_id {
                    Some(g) => d["adGroupId"] = json!(g),
                    None => d["campaignId"] = json!(place.campaign_id),
                }
                d
            })
            .collect();
        let answers = client
            .bulk::<Value>(place.org_id, Entity::NegativeKeywords, "create", &data)
            .await
            .map_err(job_error)?;
        let mut by_index: HashMap<usize, _> = answers
            .into_iter()
            .enumerate()
            .map(|(i, a)| (a.correlation_id.map_or(i, |c| c as usize), a.outcome))
            .collect();
        let mut lost = false;
        for (i, k) in missing.iter().enumerate() {
            match by_index.remove(&i) {
                Some(Ok(v)) => created.push(negative(&v)?),
                // Made by an earlier attempt whose answer was lost: read back below.
                Some(Err(e)) if duplicate(&e) => {
                    lost = true;
                }
                Some(Err(e)) => progress
                    .errors
                    .push(error(Some(k.text.clone()), message_of(&e))),
                None => lost = true,
            }
        }
        if lost {
            let known: HashSet<i64> = live.iter().chain(&created).map(|n| n.id).collect();
            let missing_keys: HashSet<_> = missing
                .iter()
                .map(|k| key(&k.text, &k.match_type))
                .collect();
            for n in live_at(client, place).await? {
                if !known.contains(&n.id) && missing_keys.contains(&key(&n.text, &n.match_type)) {
                    created.push(n);
                }
            }
        }
    }

    // What a list created here and no list holds any more.
    let stale: Vec<&entities::NegativeKeyword> = live
        .iter()
        .filter(|n| !wanted_keys.contains(&key(&n.text, &n.match_type)))
        .collect();
    let stale_ids: Vec<i64> = stale.iter().map(|n| n.id).collect();
    let ours =
        store::negative_lists::created_among(&db.pool, &place.account_id, place.org_id, &stale_ids)
            .await?;
    let mut deleted = Vec::new();
    if !ours.is_empty() {
        let data: Vec<Value> = ours.iter().map(|id| json!({ "id": id })).collect();
        let answers = client
            .bulk_json(place.org_id, Entity::NegativeKeywords, "delete", &data)
            .await
            .map_err(job_error)?;
        let mut by_index: HashMap<usize, _> = answers
            .into_iter()
            .enumerate()
            .map(|(i, a)| (a.correlation_id.map_or(i, |c| c as usize), a.outcome))
            .collect();
        for (i, id) in ours.iter().enumerate() {
            match by_index.remove(&i) {
                Some(Ok(_)) => deleted.push(*id),
                Some(Err(e)) if e.code.contains("DELETED") || e.code.contains("NOT_FOUND") => {
                    deleted.push(*id)
                }
                Some(Err(e)) => {
                    let text = stale.iter().find(|n| n.id == *id).map(|n| n.text.clone());
                    progress.errors.push(error(text, message_of(&e)));
                }
                None => progress
                    .errors
                    .push(error(None, "Apple Ads did not answer for this item".into())),
            }
        }
    }

    // Recorded and shown at once, in one transaction.
    let mut tx = db.pool.begin().await?;
    let created_ids: Vec<i64> = created.iter().map(|n| n.id).collect();
    store::negative_lists::record_created(&mut tx, &place.account_id, place.org_id, &created_ids)
        .await?;
    store::negative_lists::forget_created(&mut tx, &place.account_id, place.org_id, &deleted)
        .await?;
    if let Some(org_key) = org_key {
        entities::upsert(&mut tx, org_key, &created, ids::now_ms() / 1000).await?;
        for id in &deleted {
            edits::set_deleted(&mut tx, "NEGATIVE_KEYWORD", org_key, *id).await?;
        }
    }
    tx.commit().await?;
    progress.created += created.len() as u64;
    progress.deleted += deleted.len() as u64;
    Ok(())
}
