//! A copy's plan: the original campaigns read from Apple Ads (the campaign, its live ad
//! groups, keywords, negatives and ads), turned into a [`CreationPlan`] with the copy
//! settings applied (docs/product.md#3-duplicate-campaign-settings): names chosen by the route,
//! status, ad groups with targeting, Search Match, bid and CPA goal (or the overrides), their
//! keywords (bids and statuses) and negatives, the campaign's negatives, the ads' creatives.

use searchdeck_common::{
    jobs::{
        CopyCampaigns, CreationPlan, PlannedCampaign, PlannedGroup, PlannedKeyword, PlannedNegative,
    },
    queue::JobError,
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity, ProviderError};
use serde_json::{Value, json};

use crate::wire::{job_error, micros};

/// Largest page of a query.
const PAGE: u64 = 1000;

/// Every live `entity` whose `field` is `id`.
async fn all_of(
    client: &dyn AppleAds,
    org_id: i64,
    entity: Entity,
    field: &str,
    id: i64,
) -> Result<Vec<Value>, ProviderError> {
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        let query = json!({
            "filters": [
                { "field": field, "operator": "EQUALS", "value": [id] },
                { "field": "deleted", "operator": "EQUALS", "value": [false] },
            ],
            "sorting": [{ "field": "id", "order": "ASC" }],
            "pagination": { "offset": offset, "pageSize": PAGE, "fetchTotalCount": true },
        });
        let page = client.query_json(org_id, entity, &query).await?;
        let n = page.items.len() as u64;
        out.extend(page.items);
        offset += n;
        if n < PAGE || page.total.is_some_and(|t| offset >= t) {
            return Ok(out);
        }
    }
}

fn text(v: &Value) -> String {
    v.as_str().unwrap_or_default().to_string()
}

/// A provider failure while reading the originals: refusals fail the job (the original is
/// gone or not readable), the rest retry.
fn read_error(e: ProviderError) -> JobError {
    match e {
        ProviderError::Permanent { message, .. } => {
            JobError::permanent(anyhow::anyhow!(if message.is_empty() {
                super::executor::FAILURE.to_string()
            } else {
                message
            }))
        }
        other => job_error(other),
    }
}

/// The plan of `job`'s copies.
pub async fn plan(client: &dyn AppleAds, job: &CopyCampaigns) -> Result<CreationPlan, JobError> {
    let org = job.scope.org_id;
    let s = &job.settings;
    let mut plan = CreationPlan::default();
    for copy in &job.copies {
        let c: Value = client
            .get(org, Entity::Campaigns, copy.source_id)
            .await
            .map_err(read_error)?;
        // Each copy promotes its own original's app (a request may copy campaigns of
        // several apps).
        let adam_id = c["promotedObjectId"]
            .as_str()
            .and_then(|a| a.parse().ok())
            .or_else(|| c["promotedObjectId"].as_i64());
        let budget = &c["dailyBudget"];
        let budget = if budget.get("value").is_some() {
            &budget["value"]
        } else {
            budget
        };
        let mut campaign = PlannedCampaign {
            name: copy.name.clone(),
            existing_id: None,
            countries: c["targeting"]["countryOrRegion"]["include"]
                .as_array()
                .into_iter()
                .flatten()
                .map(text)
                .collect(),
            adam_id,
            status: s.status.clone(),
            daily_budget_micros: micros(budget).unwrap_or_default(),
            negatives: Vec::new(),
            groups: Vec::new(),
        };
        let negatives = if s.campaign_negative_keywords || s.ad_group {
            all_of(
                client,
                org,
                Entity::NegativeKeywords,
                "campaignId",
                copy.source_id,
            )
            .await
            .map_err(read_error)?
        } else {
            Vec::new()
        };
        let negative = |n: &Value| PlannedNegative {
            text: text(&n["text"]),
            match_type: text(&n["matchType"]),
        };
        if s.campaign_negative_keywords {
            campaign.negatives = negatives
                .iter()
                .filter(|n| n["adGroupId"].is_null())
                .map(negative)
                .collect();
        }
        if s.ad_group {
            let groups = all_of(client, org, Entity::AdGroups, "campaignId", copy.source_id)
                .await
                .map_err(read_error)?;
            let keywords = all_of(client, org, Entity::Keywords, "campaignId", copy.source_id)
                .await
                .map_err(read_error)?;
            let ads = if s.custom_ads {
                all_of(client, org, Entity::Ads, "campaignId", copy.source_id)
                    .await
                    .map_err(read_error)?
            } else {
                Vec::new()
            };
            for g in &groups {
                let id = g["id"].as_i64();
                let cpa = &g["cpaCap"];
                let cpa = if cpa.get("value").is_some() {
                    &cpa["value"]
                } else {
                    cpa
                };
                let targeting = g.get("targeting").filter(|t| t.is_object()).map(|t| {
                    let mut t = t.clone();
                    if let Some(o) = t.as_object_mut() {
                        o.retain(|_, v| !v.is_null());
                        for v in o.values_mut() {
                            if let Some(inner) = v.as_object_mut() {
                                inner.retain(|_, x| !x.is_null());
                            }
                        }
                    }
                    t
                });
                campaign.groups.push(PlannedGroup {
                    name: text(&g["name"]),
                    default_bid_micros: s
                        .cpt_bid_micros
                        .or_else(|| micros(&g["bidStrategy"]["bid"]))
                        .unwrap_or_default(),
                    cpa_goal_micros: s.cpa_goal_micros.or_else(|| micros(cpa)),
                    automated_keywords_opt_in: g["automatedKeywordsOptIn"]
                        .as_bool()
                        .unwrap_or(false),
                    status: Some(text(&g["status"])).filter(|s| !s.is_empty()),
                    targeting,
                    keywords: keywords
                        .iter()
                        .filter(|k| k["adGroupId"].as_i64() == id)
                        .map(|k| PlannedKeyword {
                            text: text(&k["text"]),
                            match_type: text(&k["matchType"]),
                            bid_micros: s.cpt_bid_micros.or_else(|| micros(&k["bid"])),
                            status: Some(text(&k["status"])).filter(|s| !s.is_empty()),
                        })
                        .collect(),
                    negatives: negatives
                        .iter()
                        .filter(|n| n["adGroupId"].as_i64() == id)
                        .map(negative)
                        .collect(),
                    creative_ids: ads
                        .iter()
                        .filter(|a| a["adGroupId"].as_i64() == id)
                        .filter_map(|a| a["creativeId"].as_i64())
                        .collect(),
                });
            }
        }
        plan.campaigns.push(campaign);
    }
    Ok(plan)
}
