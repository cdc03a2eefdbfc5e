//! The executor both creation jobs run: a [`CreationPlan`] made at Apple Ads exactly once.
//!
//! Order: each campaign (one `POST /campaigns`), its ad groups (`POST /adgroups` each), each
//! ad group's keywords (`POST /keywords/bulk-create`, 1,000 a call) and negatives
//! (`POST /negative-keywords/bulk-create`), the campaign's negatives; then the discovery
//! campaign with its ad group `General` and every keyword of the plan as an EXACT negative
//! there; then the ads (custom product page, and the originals' creatives for copies).
//!
//! Exactly once: every entity Apple answers is recorded in `creation_entities` under its
//! natural key (`store::creation`) in the transaction that writes it to our synced tables, so
//! the new campaigns show in the reports at once and a rerun skips it. Single creates go
//! through `AppleAds::create_once_json`, which after an ambiguous failure looks the entity up
//! by its natural key before writing again. Bulk steps query what the ad group (or campaign)
//! already holds and send only the missing; a lost answer is resolved by querying again.
//! Items Apple refuses in a bulk call go to `rejected` and the rest goes on; any other
//! refusal stops the job with `errorsMethod` and the spec's failure message
//! (docs/product.md#8-campaign-creation-failure).

mod bulk;
mod single;

use std::collections::{HashMap, HashSet};

use searchdeck_common::{
    ids,
    jobs::{
        CampaignMapping, CreationPlan, CreationProgress, CreationScope, DISCOVERY_GROUP,
        GroupMapping, MethodError, PlannedGroup, PlannedKeyword, PlannedNegative, RejectedItem,
        money_text,
    },
    queue::{Job, JobError},
    store::{
        activity::changes,
        activity::notifications::{self, NewNotification},
        creation::{self, Recorded},
        synced::entities::{self, Entity as Stored},
    },
};
use searchdeck_provider::{
    AppleAds, Entity, ProviderError, error::ApiErrorBody, idempotent::Created,
};
use serde_json::{Value, json};

use crate::JobContext;
use crate::wire::{self, job_error};

/// The spec's creation failure message (docs/product.md#8-campaign-creation-failure) when Apple
/// gave none.
pub const FAILURE: &str = "Unfortunately, there was a problem connecting to the server";
/// Largest page of a query.
const PAGE: u64 = 1000;
/// Tries of one bulk step within a run (a lost answer is resolved by querying again).
const BULK_TRIES: usize = 3;

/// Runs `plan` in `scope` for the job of `ctx`, resuming from what it recorded; each created
/// campaign, ad group and keyword is a change record (action CREATE) of `notification`.
pub async fn execute<J: Job<Progress = CreationProgress>>(
    ctx: &JobContext<J>,
    client: &dyn AppleAds,
    scope: &CreationScope,
    plan: &CreationPlan,
    notification: &NewNotification,
) -> Result<CreationProgress, JobError> {
    let recorded = creation::of_job(&ctx.runtime.db.pool, &ctx.job_id).await?;
    let mut run = Executor {
        ctx,
        client,
        scope,
        recorded,
        progress: CreationProgress {
            groups_total: plan.groups_total(),
            campaigns_total: plan.campaigns_total(),
            keywords_total: plan.keywords_total(),
            ..Default::default()
        },
        ads: Vec::new(),
        fresh: HashSet::new(),
        notification,
        campaign_names: HashMap::new(),
    };
    run.report("Creating campaigns...").await;
    for campaign in &plan.campaigns {
        ctx.check_cancelled()?;
        let campaign_id = match campaign.existing_id {
            Some(id) => id,
            None => {
                let body = json!({
                    "adAccountId": scope.org_id,
                    "name": campaign.name,
                    "billingEvent": "TAPS",
                    "promotedObjectType": "APPSTORE_APP",
                    "promotedObjectId": campaign.adam_id.unwrap_or(plan.adam_id).to_string(),
                    "status": campaign.status,
                    "dailyBudget": { "value": run.money(campaign.daily_budget_micros) },
                    "targeting": {
                        "supplySource": { "include": ["APPSTORE_SEARCH_RESULTS"] },
                        "countryOrRegion": { "include": campaign.countries },
                    },
                });
                run.campaign(&campaign.name, &body, "createCampaign")
                    .await?
            }
        };
        run.progress.campaigns_mapping.push(CampaignMapping {
            name: campaign.name.clone(),
            campaign_id,
            ad_groups: Vec::new(),
        });
        for group in &campaign.groups {
            ctx.check_cancelled()?;
            run.group(&campaign.name, campaign_id, group, "createAdGroup")
                .await?;
        }
        run.negatives(&campaign.name, campaign_id, None, &campaign.negatives)
            .await?;
        if campaign.existing_id.is_none() {
            run.progress.campaigns_created += 1;
        }
        run.report("Creating ad groups...").await;
    }
    if let Some(d) = &plan.discovery {
        ctx.check_cancelled()?;
        run.report("Creating the discovery campaign...").await;
        let body = json!({
            "adAccountId": scope.org_id,
            "name": d.name,
            "billingEvent": "TAPS",
            "promotedObjectType": "APPSTORE_APP",
            "promotedObjectId": plan.adam_id.to_string(),
            "status": "PAUSED",
            "dailyBudget": { "value": run.money(d.daily_budget_micros) },
            "targeting": {
                "supplySource": { "include": ["APPSTORE_SEARCH_RESULTS"] },
                "countryOrRegion": { "include": d.countries },
            },
        });
        let id = run.campaign(&d.name, &body, "discovery").await?;
        run.progress.discovery_campaign_id = Some(id);
        run.progress.campaigns_mapping.push(CampaignMapping {
            name: d.name.clone(),
            campaign_id: id,
            ad_groups: Vec::new(),
        });
        // Every keyword of the plan, once, as an EXACT negative of `General`.
        let mut seen = HashSet::new();
        let negatives: Vec<PlannedNegative> = plan
            .campaigns
            .iter()
            .flat_map(|c| &c.groups)
            .flat_map(|g| &g.keywords)
            .filter(|k| seen.insert(k.text.trim().to_lowercase()))
            .map(|k| PlannedNegative {
                text: k.text.clone(),
                match_type: "EXACT".into(),
            })
            .collect();
        let general = PlannedGroup {
            name: DISCOVERY_GROUP.into(),
            default_bid_micros: d.default_bid_micros,
            cpa_goal_micros: d.cpa_goal_micros,
            automated_keywords_opt_in: true,
            status: None,
            targeting: None,
            keywords: Vec::new(),
            negatives,
            creative_ids: Vec::new(),
        };
        run.group(&d.name, id, &general, "discovery").await?;
        run.progress.campaigns_created += 1;
    }
    // Ads: one per ad group with the custom product page, and the copied ones.
    let page_creative = match &plan.product_page_id {
        Some(page) => {
            run.report("Applying custom product pages...").await;
            Some(run.page_creative(plan.adam_id, page).await?)
        }
        None => None,
    };
    let ads = std::mem::take(&mut run.ads);
    for (campaign, group_name, group_id, creatives) in &ads {
        ctx.check_cancelled()?;
        for creative in page_creative.iter().chain(creatives) {
            run.ad(campaign, group_name, *group_id, *creative).await?;
        }
    }
    run.progress.finish = true;
    Ok(run.progress)
}

/// One run of a plan.
struct Executor<'a, J> {
    ctx: &'a JobContext<J>,
    client: &'a dyn AppleAds,
    scope: &'a CreationScope,
    recorded: HashMap<String, Recorded>,
    progress: CreationProgress,
    /// Ad groups made, for the ads phase: (campaign, ad group, id, creatives to reuse).
    ads: Vec<(String, String, i64, Vec<i64>)>,
    /// Campaigns and ad groups this run created (not found existing): they hold nothing.
    fresh: HashSet<i64>,
    /// The activity log's notification of the job.
    notification: &'a NewNotification,
    /// Campaign names by id, for the change records of what is made in them.
    campaign_names: HashMap<i64, String>,
}

/// An entity the job made, as its change record names it.
struct Made {
    level: &'static str,
    id: i64,
    campaign_id: i64,
    ad_group_id: Option<i64>,
    name: String,
    campaign_name: String,
    /// The recorded new value: a keyword's match type, else the entity's name.
    value: String,
}

fn id_of(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

impl<J: Job<Progress = CreationProgress>> Executor<'_, J> {
    fn money(&self, micros: i64) -> Value {
        json!({
            "amount": money_text(Some(micros)),
            "currency": self.scope.currency,
        })
    }

    /// Writes the progress (step: groups and campaigns created over their totals).
    async fn report(&self, message: &str) {
        let p = &self.progress;
        let step = (p.groups_created + p.campaigns_created) as i64;
        let total = (p.groups_total + p.campaigns_total).max(1) as i64;
        self.ctx.progress(message, step, total, Some(p)).await;
    }

    /// Stops the job: `errorsMethod` and the failure on the task.
    async fn fail(&mut self, method: &str, name: &str, e: ProviderError) -> JobError {
        let message = match &e {
            ProviderError::Permanent { message, .. } if !message.is_empty() => message.clone(),
            _ => FAILURE.to_string(),
        };
        self.progress.errors_method.push(MethodError {
            method: method.into(),
            name: name.into(),
            message: message.clone(),
        });
        self.progress.finish = true;
        self.report("Campaign creation failed").await;
        JobError::permanent(anyhow::anyhow!(message))
    }

    /// A provider failure of a step: waits and retries stay retries; refusals stop the job.
    async fn failed(&mut self, method: &str, name: &str, e: ProviderError) -> JobError {
        match e {
            ProviderError::Permanent { .. } => self.fail(method, name, e).await,
            other => job_error(other),
        }
    }

    /// Records `key` with Apple's `id`, writes `rows` to our synced tables and the change
    /// records of what was `made`, in one transaction.
    async fn save<T: Stored>(
        &mut self,
        key: &str,
        id: i64,
        detail: Option<&str>,
        rows: &[T],
        made: &[Made],
    ) -> Result<(), JobError> {
        let mut tx = self.ctx.runtime.db.pool.begin().await?;
        let now = ids::now_ms();
        entities::upsert(&mut tx, self.scope.org_key, rows, now / 1000).await?;
        creation::record(&mut *tx, &self.ctx.job_id, key, id, detail, now).await?;
        if !made.is_empty() {
            let n = notifications::record(&mut tx, self.notification).await?;
            for m in made {
                changes::insert(
                    &mut tx,
                    &changes::NewChange {
                        id: ids::new_id(),
                        workspace_id: self.scope.workspace_id.clone(),
                        user_id: self.scope.user_id.clone(),
                        user_email: self.notification.email.clone(),
                        account_id: Some(self.scope.account_id.clone()),
                        org_id: self.scope.org_id,
                        level: m.level,
                        entity_id: m.id,
                        campaign_id: m.campaign_id,
                        ad_group_id: m.ad_group_id,
                        entity_name: m.name.clone(),
                        campaign_name: m.campaign_name.clone(),
                        field: "created".into(),
                        old_value: None,
                        new_value: Some(m.value.clone()),
                        currency: None,
                        source: changes::QUICK_START,
                        job_id: Some(self.ctx.job_id.clone()),
                        notification_id: Some(n.clone()),
                        created_at: now / 1000,
                    },
                )
                .await?;
            }
        }
        tx.commit().await?;
        self.recorded.insert(
            key.to_string(),
            Recorded {
                provider_id: id,
                detail: detail.map(str::to_string),
            },
        );
        Ok(())
    }

    /// Creates (once) an entity by its natural key: recorded → its id; else
    /// `create_once_json`, then recorded with its synced row.
    #[expect(
        clippy::too_many_arguments,
        reason = "one entity's what, where and whose"
    )]
    async fn create<T: Stored>(
        &mut self,
        key: String,
        entity: Entity,
        body: &Value,
        natural_key: Value,
        method: &str,
        name: &str,
        row: fn(&Value) -> Result<T, JobError>,
    ) -> Result<i64, JobError> {
        if let Some(r) = self.recorded.get(&key) {
            return Ok(r.provider_id);
        }
        let (created, new) = match self
            .client
            .create_once_json(self.scope.org_id, entity, body, &natural_key)
            .await
        {
            Ok(Created::New(v)) => (v, true),
            Ok(Created::Existing(v)) => (v, false),
            Err(e) => return Err(self.failed(method, name, e).await),
        };
        let stored = row(&created)?;
        let id = id_of(&created["id"])
            .ok_or_else(|| JobError::retryable(anyhow::anyhow!("created without id: {created}")))?;
        let name = created["name"].as_str().unwrap_or(name).to_string();
        let made = match entity {
            Entity::Campaigns => vec![Made {
                level: "CAMPAIGN",
                id,
                campaign_id: id,
                ad_group_id: None,
                campaign_name: name.clone(),
                value: name.clone(),
                name,
            }],
            Entity::AdGroups => {
                let campaign_id = id_of(&created["campaignId"]).unwrap_or_default();
                vec![Made {
                    level: "AD_GROUP",
                    id,
                    campaign_id,
                    ad_group_id: Some(id),
                    campaign_name: self
                        .campaign_names
                        .get(&campaign_id)
                        .cloned()
                        .unwrap_or_default(),
                    value: name.clone(),
                    name,
                }]
            }
            _ => Vec::new(),
        };
        // Found existing: made by an earlier attempt whose answer was lost (the plan's names
        // are new), so it is recorded as made too.
        self.save(&key, id, None, &[stored], &made).await?;
        if new {
            self.fresh.insert(id);
        }
        Ok(id)
    }
}
