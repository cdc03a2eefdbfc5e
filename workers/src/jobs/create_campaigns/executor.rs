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
//! refusal stops the job with `errorsMethod` and the spec's failure message (§8).

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
        changes,
        creation::{self, Recorded},
        notifications::{self, NewNotification},
        synced::entities::{self, Entity as Stored},
    },
};
use searchdeck_provider::{
    AppleAds, Entity, ProviderError, error::ApiErrorBody, idempotent::Created,
};
use serde_json::{Value, json};

use crate::JobContext;
use crate::wire::{self, job_error};

/// The spec's creation failure message (§8) when Apple gave none.
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

    async fn campaign(&mut self, name: &str, body: &Value, method: &str) -> Result<i64, JobError> {
        let key = format!("c:{name}");
        let natural = json!([{ "field": "name", "operator": "EQUALS", "value": [name] }]);
        let id = self
            .create(
                key,
                Entity::Campaigns,
                body,
                natural,
                method,
                name,
                wire::campaign,
            )
            .await?;
        self.campaign_names.insert(id, name.to_string());
        Ok(id)
    }

    /// An ad group, its keywords and its negatives.
    async fn group(
        &mut self,
        campaign: &str,
        campaign_id: i64,
        g: &PlannedGroup,
        method: &str,
    ) -> Result<(), JobError> {
        let mut body = json!({
            "campaignId": campaign_id,
            "name": g.name,
            "pricingModel": "CPT",
            "automatedKeywordsOptIn": g.automated_keywords_opt_in,
            "status": g.status.as_deref().unwrap_or("ENABLED"),
            "bidStrategy": { "bid": self.money(g.default_bid_micros) },
        });
        if let Some(cpa) = g.cpa_goal_micros {
            body["cpaCap"] = json!({ "value": self.money(cpa) });
        }
        if let Some(t) = &g.targeting {
            body["targeting"] = t.clone();
        }
        let key = format!("g:{campaign_id}:{}", g.name);
        let natural = json!([
            { "field": "campaignId", "operator": "EQUALS", "value": [campaign_id] },
            { "field": "name", "operator": "EQUALS", "value": [g.name] },
        ]);
        let id = self
            .create(
                key,
                Entity::AdGroups,
                &body,
                natural,
                method,
                &g.name,
                wire::ad_group,
            )
            .await?;
        if let Some(m) = self.progress.campaigns_mapping.last_mut() {
            m.ad_groups.push(GroupMapping {
                name: g.name.clone(),
                ad_group_id: id,
            });
        }
        self.ads.push((
            campaign.to_string(),
            g.name.clone(),
            id,
            g.creative_ids.clone(),
        ));
        if !g.keywords.is_empty() {
            self.report("Adding keywords...").await;
        }
        let done = self.keywords(campaign, &g.name, id, &g.keywords).await?;
        self.progress.keywords_created += done;
        self.negatives(campaign, campaign_id, Some((id, &g.name)), &g.negatives)
            .await?;
        self.progress.groups_created += 1;
        self.report("Creating ad groups...").await;
        Ok(())
    }

    /// The keywords of ad group `id`: those Apple does not hold yet, in bulk.
    async fn keywords(
        &mut self,
        campaign: &str,
        group: &str,
        id: i64,
        keywords: &[PlannedKeyword],
    ) -> Result<u64, JobError> {
        if keywords.is_empty() {
            return Ok(0);
        }
        let items: Vec<(String, String, Value)> = keywords
            .iter()
            .map(|k| {
                let mut d = json!({ "adGroupId": id, "text": k.text, "matchType": k.match_type });
                if let Some(b) = k.bid_micros {
                    d["bid"] = self.money(b);
                }
                if let Some(s) = &k.status {
                    d["status"] = json!(s);
                }
                (k.text.clone(), k.match_type.clone(), d)
            })
            .collect();
        let filter = json!({ "field": "adGroupId", "operator": "EQUALS", "value": [id] });
        self.bulk(
            format!("k:{id}"),
            Entity::Keywords,
            id,
            filter,
            None,
            items,
            (campaign, Some(group)),
            "createKeywords",
        )
        .await
    }

    /// Negatives of ad group `group` (or of the campaign when None).
    async fn negatives(
        &mut self,
        campaign: &str,
        campaign_id: i64,
        group: Option<(i64, &str)>,
        negatives: &[PlannedNegative],
    ) -> Result<(), JobError> {
        if negatives.is_empty() {
            return Ok(());
        }
        let items: Vec<(String, String, Value)> = negatives
            .iter()
            .map(|n| {
                let mut d = json!({ "text": n.text, "matchType": n.match_type });
                match group {
                    Some((g, _)) => d["adGroupId"] = json!(g),
                    None => d["campaignId"] = json!(campaign_id),
                }
                (n.text.clone(), n.match_type.clone(), d)
            })
            .collect();
        let (key, filter, level) = match group {
            Some((g, _)) => (
                format!("ng:{g}"),
                json!({ "field": "adGroupId", "operator": "EQUALS", "value": [g] }),
                Some(g),
            ),
            None => (
                format!("nc:{campaign_id}"),
                json!({ "field": "campaignId", "operator": "EQUALS", "value": [campaign_id] }),
                None,
            ),
        };
        self.bulk(
            key,
            Entity::NegativeKeywords,
            group.map_or(campaign_id, |g| g.0),
            filter,
            Some(level),
            items,
            (campaign, group.map(|g| g.1)),
            "createNegatives",
        )
        .await?;
        Ok(())
    }

    /// What `entity` rows matching `filter` Apple holds (live ones; negatives of `level`).
    async fn held(
        &self,
        entity: Entity,
        filter: &Value,
        level: Option<Option<i64>>,
    ) -> Result<Vec<Value>, ProviderError> {
        let mut out = Vec::new();
        let mut offset = 0;
        loop {
            let query = json!({
                "filters": [filter, { "field": "deleted", "operator": "EQUALS", "value": [false] }],
                "sorting": [{ "field": "id", "order": "ASC" }],
                "pagination": { "offset": offset, "pageSize": PAGE, "fetchTotalCount": true },
            });
            let page = self
                .client
                .query_json(self.scope.org_id, entity, &query)
                .await?;
            let n = page.items.len() as u64;
            out.extend(page.items);
            offset += n;
            if n < PAGE || page.total.is_some_and(|t| offset >= t) {
                break;
            }
        }
        if let Some(level) = level {
            out.retain(|v| v["adGroupId"].as_i64() == level);
        }
        Ok(out)
    }

    /// A bulk step: queries what is held, sends the missing (1,000 a call), resolves lost
    /// answers by querying again, records the step with its refusals; the plan's items in
    /// place at Apple.
    #[expect(
        clippy::too_many_arguments,
        reason = "one step's what, where and whose"
    )]
    async fn bulk(
        &mut self,
        key: String,
        entity: Entity,
        parent: i64,
        filter: Value,
        level: Option<Option<i64>>,
        items: Vec<(String, String, Value)>,
        (campaign, group): (&str, Option<&str>),
        method: &str,
    ) -> Result<u64, JobError> {
        if let Some(r) = self.recorded.get(&key) {
            let rejected: Vec<RejectedItem> = r
                .detail
                .as_deref()
                .and_then(|d| serde_json::from_str(d).ok())
                .unwrap_or_default();
            let present = r.provider_id as u64;
            self.progress.rejected.extend(rejected);
            return Ok(present);
        }
        let name = group.unwrap_or(campaign).to_string();
        let mut rejected: HashMap<(String, String), String> = HashMap::new();
        // A parent this run created holds nothing yet: no need to ask.
        let mut known: Option<Vec<Value>> = self.fresh.contains(&parent).then(Vec::new);
        let mut tries = 0;
        let held = loop {
            tries += 1;
            let held = match known.take() {
                Some(h) => h,
                None => match self.held(entity, &filter, level).await {
                    Ok(h) => h,
                    Err(e) => return Err(self.failed(method, &name, e).await),
                },
            };
            let have: HashSet<(String, String)> = held.iter().map(key_of).collect();
            let missing: Vec<&(String, String, Value)> = items
                .iter()
                .filter(|(t, m, _)| {
                    let k = item_key(t, m);
                    !have.contains(&k) && !rejected.contains_key(&k)
                })
                .collect();
            if missing.is_empty() {
                break held;
            }
            if tries > BULK_TRIES {
                return Err(JobError::retryable(anyhow::anyhow!(
                    "{method} of {name}: Apple's answers did not settle"
                )));
            }
            let data: Vec<Value> = missing.iter().map(|(_, _, d)| d.clone()).collect();
            match self
                .client
                .bulk_json(self.scope.org_id, entity, "create", &data)
                .await
            {
                Ok(answers) => {
                    let mut accepted = held;
                    let mut duplicate = false;
                    for (i, a) in answers.into_iter().enumerate() {
                        let index = a.correlation_id.map_or(i, |c| c as usize);
                        let Some((text, match_type, _)) = missing.get(index) else {
                            continue;
                        };
                        match a.outcome {
                            Ok(v) => accepted.push(v),
                            // Made by an earlier call whose answer was lost: read back below.
                            Err(e) if is_duplicate(&e) => duplicate = true,
                            Err(e) => {
                                rejected.insert(item_key(text, match_type), message_of(&e));
                            }
                        }
                    }
                    if !duplicate {
                        break accepted;
                    }
                }
                Err(e @ ProviderError::Permanent { .. }) => {
                    return Err(self.fail(method, &name, e).await);
                }
                // The answer may be lost after Apple applied it: query again.
                Err(ProviderError::Retryable { .. }) => {}
                Err(e) => return Err(job_error(e)),
            }
        };
        let wanted: HashSet<(String, String)> =
            items.iter().map(|(t, m, _)| item_key(t, m)).collect();
        let present = held.iter().filter(|v| wanted.contains(&key_of(v))).count() as u64;
        let rejected: Vec<RejectedItem> = items
            .iter()
            .filter_map(|(t, m, _)| {
                rejected.get(&item_key(t, m)).map(|message| RejectedItem {
                    campaign: campaign.to_string(),
                    ad_group: group.map(str::to_string),
                    text: t.clone(),
                    match_type: m.clone(),
                    message: message.clone(),
                })
            })
            .collect();
        let detail =
            (!rejected.is_empty()).then(|| serde_json::to_string(&rejected).unwrap_or_default());
        match entity {
            Entity::Keywords => {
                let rows = held
                    .iter()
                    .map(wire::keyword)
                    .collect::<Result<Vec<_>, _>>()?;
                // The plan's keywords in place: made by this job.
                let made: Vec<Made> = held
                    .iter()
                    .filter(|v| wanted.contains(&key_of(v)))
                    .filter_map(|v| {
                        Some(Made {
                            level: "KEYWORD",
                            id: id_of(&v["id"])?,
                            campaign_id: id_of(&v["campaignId"]).unwrap_or_default(),
                            ad_group_id: Some(parent),
                            name: v["text"].as_str().unwrap_or_default().to_string(),
                            campaign_name: campaign.to_string(),
                            value: v["matchType"].as_str().unwrap_or_default().to_string(),
                        })
                    })
                    .collect();
                self.save(&key, present as i64, detail.as_deref(), &rows, &made)
                    .await?;
            }
            _ => {
                let rows = held
                    .iter()
                    .map(wire::negative)
                    .collect::<Result<Vec<_>, _>>()?;
                self.save(&key, present as i64, detail.as_deref(), &rows, &[])
                    .await?;
            }
        }
        self.progress.rejected.extend(rejected);
        Ok(present)
    }

    /// The creative of custom product page `page`: one the ad account has, else made once.
    async fn page_creative(&mut self, adam_id: i64, page: &str) -> Result<i64, JobError> {
        let key = format!("cr:{page}");
        if let Some(r) = self.recorded.get(&key) {
            return Ok(r.provider_id);
        }
        let all = json!({ "field": "creativeType", "operator": "EQUALS", "value": ["CUSTOM_PRODUCT_PAGE"] });
        let found = match self.held(Entity::Creatives, &all, None).await {
            Ok(h) => h,
            Err(e) => return Err(self.failed("createAd", page, e).await),
        };
        if let Some(c) = found.iter().find(|c| {
            c["destination"]["parameters"]["productPageId"].as_str() == Some(page)
                && c["destination"]["parameters"]["adamId"].as_str() == Some(&adam_id.to_string())
        }) {
            let row = wire::creative(c)?;
            let id = row.id;
            self.save(&key, id, None, &[row], &[]).await?;
            return Ok(id);
        }
        let name = format!("Custom product page {page}");
        let body = json!({
            "name": name,
            "creativeType": "CUSTOM_PRODUCT_PAGE",
            "destination": {
                "destinationType": "APP_STORE_PRODUCT_PAGE",
                "parameters": { "adamId": adam_id.to_string(), "productPageId": page },
            },
        });
        let natural = json!([{ "field": "name", "operator": "EQUALS", "value": [name] }]);
        self.create(
            key,
            Entity::Creatives,
            &body,
            natural,
            "createAd",
            page,
            wire::creative,
        )
        .await
    }

    /// The ad of ad group `group_id` with `creative`, once.
    async fn ad(
        &mut self,
        campaign: &str,
        group: &str,
        group_id: i64,
        creative: i64,
    ) -> Result<i64, JobError> {
        let key = format!("a:{group_id}:{creative}");
        let name: String = format!("{campaign} {group}").chars().take(200).collect();
        let body = json!({
            "adGroupId": group_id,
            "creativeId": creative,
            "name": name,
            "status": "ENABLED",
        });
        let natural = json!([
            { "field": "adGroupId", "operator": "EQUALS", "value": [group_id] },
            { "field": "creativeId", "operator": "EQUALS", "value": [creative] },
        ]);
        self.create(
            key,
            Entity::Ads,
            &body,
            natural,
            "createAd",
            &name,
            wire::ad,
        )
        .await
    }
}

/// What a keyword or negative is unique by in its ad group (or campaign).
fn item_key(text: &str, match_type: &str) -> (String, String) {
    (text.trim().to_lowercase(), match_type.to_string())
}

fn key_of(v: &Value) -> (String, String) {
    item_key(
        v["text"].as_str().unwrap_or_default(),
        v["matchType"].as_str().unwrap_or_default(),
    )
}

/// Whether a refused bulk item already exists.
fn is_duplicate(e: &ApiErrorBody) -> bool {
    e.code.starts_with("DUPLICATE_")
        || e.details
            .iter()
            .flatten()
            .any(|d| d.code.starts_with("DUPLICATE_"))
}

/// Apple's message of a refused bulk item.
fn message_of(e: &ApiErrorBody) -> String {
    e.details
        .as_ref()
        .and_then(|d| d.iter().find_map(|d| d.message.clone()))
        .or_else(|| e.message.clone())
        .unwrap_or_else(|| e.code.clone())
}
