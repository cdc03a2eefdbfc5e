//! Added negative keywords: planned against the ones we hold, sent through
//! `POST /negative-keywords/bulk-create` a chunk at a time, each added one stored and
//! recorded; a duplicate Apple reports for one we did not hold is read back (an earlier
//! attempt's lost answer), so it is added once.

use std::collections::HashMap;

use searchdeck_common::{
    ids,
    jobs::{BulkEditItem, BulkEditProgress, ItemResult, NewNegative, Outcome},
    queue::JobError,
    store::synced::{bulk, entities},
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity, ProviderError, error::ApiErrorBody};
use serde_json::{Value, json};

use super::{Edit, Recorded, message_of};
use crate::JobRun;
use crate::wire::{job_error, negative};

/// Whether a refusal says the entity already exists.
fn duplicate(e: &ApiErrorBody) -> bool {
    e.code.starts_with("DUPLICATE_")
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code.starts_with("DUPLICATE_"))
}

impl Edit<'_> {
    /// Reports the negatives of `chunk` that need no call (added by an earlier run of this
    /// job, or already there) and returns the others.
    pub(crate) async fn plan_creates<'a>(
        &self,
        ctx: &JobRun,
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
    pub(crate) async fn send_creates(
        &self,
        ctx: &JobRun,
        client: &dyn AppleAds,
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
            .bulk::<Value>(self.org_id, Entity::NegativeKeywords, "create", &data)
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
        let mut by_index = super::by_item(answers);
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
            self.insert_record(&mut tx, entity, None, Some(row.match_type.clone()))
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
        client: &dyn AppleAds,
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
            .query::<Value>(self.org_id, Entity::NegativeKeywords, &query)
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
        ctx: &JobRun,
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
