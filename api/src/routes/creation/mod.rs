//! Campaign creation and copies (issue 23; contract: docs/api/creation.md "Creation" and
//! "Copies"): `PUT asa/campaigns/asa/all` (the suggester's campaigns, job
//! `create-campaigns`), `POST asa/campaigns/exists` (step 4's name check), `POST
//! asa/groups/createByList/{id}` (ad groups from a keyword list in an existing campaign, the
//! same job), `POST asa/groups/checkCampaignGroupsCPAGoals` and `PUT asa/campaigns/copy`
//! (job `copy-campaigns`).
//!
//! The writes check everything first — the editor guard (readers 403), the connection and
//! campaign group of the caller's workspace (404), every field ([`input`]: 400
//! with field errors, money as the quick edits check it, Apple's minimum budget and bid),
//! the app of the campaign group, the plan's limits (`LIMIT_HAS_BEEN_REACHED` with
//! `meta.type`) — then record the task with its job in one transaction and answer its id.
//! That transaction locks the workspace's row and checks the campaign limit again, counting
//! the campaigns of creations still running ([`crate::routes::plans::limits`]), so two concurrent
//! creations cannot both pass it.

pub mod input;

use std::collections::{HashMap, HashSet};

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    Db,
    jobs::{
        CREATION_MAX_CAMPAIGNS, CopyCampaigns, CopySettings, CreateCampaigns, CreationPlan,
        CreationProgress, CreationScope, PlannedCampaign, PlannedCopy,
    },
    queue::outbox::{self, OutboxOptions},
    store::{self, campaign_views, synced::SyncOrg},
    tasks::NewTask,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{Campaign, EditRoles, InWorkspace, QueriedAccount, ScopeQuery, pick},
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    money::{self, Minimum},
    route,
    routes::plans::limits as plan_limits,
    session::CurrentUser,
    state::AppState,
};
use input::{self as creation, Context, CreateRequest, GroupIn, name_key};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(create_all))
        .routes(route!(exists))
        .routes(route!(create_by_list))
        .routes(route!(check_cpa_goals))
        .routes(route!(copy))
}

/// The query of the routes acting in one campaign group.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
pub struct GroupQuery {
    /// Account id (a connection of the caller's workspace).
    #[expect(
        dead_code,
        reason = "read by the InWorkspace guard; here for the OpenAPI parameters"
    )]
    account_id: Option<String>,
    /// Campaign group (Apple's org id) of the account.
    #[param(value_type = String)]
    org_id: Option<String>,
}

/// `{"id": "<task id>"}`: the started job's task, to poll at `GET /api/tasks/{id}`.
#[derive(Debug, Serialize, ToSchema)]
pub struct TaskStarted {
    pub id: String,
}

/// The synced campaign group `orgId` of the connection (400 when absent or not synced).
async fn campaign_group(
    state: &AppState,
    account_id: &str,
    org_id: Option<&str>,
) -> ApiResult<(SyncOrg, String)> {
    let org_id = org_id
        .and_then(|o| o.trim().parse::<i64>().ok())
        .ok_or_else(|| ApiError::field("orgId", REQUIRED))?;
    let org = store::synced::org_of(&state.db.pool, account_id, org_id)
        .await?
        .ok_or_else(|| ApiError::field("orgId", "Not a synced campaign group of this account"))?;
    let currency = org
        .currency
        .clone()
        .ok_or_else(|| ApiError::field("orgId", "The campaign group is not synced yet"))?;
    Ok((org, currency))
}

fn scope(user: &CurrentUser, org: &SyncOrg, currency: &str) -> CreationScope {
    CreationScope {
        workspace_id: user.workspace_id.clone(),
        user_id: Some(user.user_id.clone()),
        account_id: org.account_id.clone(),
        org_key: org.org_key,
        org_id: org.org_id,
        currency: currency.to_string(),
    }
}

/// What a creation or copy will make (spec §8 limits: campaigns of the campaign group, ad
/// groups of one creation).
struct Making {
    campaigns: u64,
    groups: u64,
}

/// Records the task with its job in one transaction, within the plan's limits: the
/// workspace's row locked first (`plan_limits::lock`), the campaign group's campaigns
/// counted again there, with those creations still running will make, so two concurrent
/// creations cannot both pass (docs/api/plans.md "Limits per plan"). The task starts with
/// the Creation progress's totals, which is what the next creation's count reads.
#[expect(
    clippy::too_many_arguments,
    reason = "one call per route; the arguments are what differs between them"
)]
async fn start<J: searchdeck_common::queue::Job>(
    state: &AppState,
    user: &CurrentUser,
    org: &SyncOrg,
    kind: &'static str,
    message: &str,
    total: i64,
    making: Making,
    job: &J,
) -> ApiResult<TaskStarted> {
    let plan = state.engines.plan(&state.db, &user.workspace_id).await?;
    let progress = serde_json::to_value(CreationProgress {
        campaigns_total: making.campaigns,
        groups_total: making.groups,
        ..Default::default()
    })
    .map_err(anyhow::Error::from)?;
    let id = Db::retry_busy(|| async {
        let mut tx = state.db.begin_write().await?;
        plan_limits::lock(&mut tx, &user.workspace_id).await?;
        let existing = plan_limits::group_campaigns(&mut tx, &user.workspace_id, org).await?;
        plan_limits::check_creation(plan, existing, making.campaigns, making.groups)?;
        let id = store::tasks::create(
            &mut *tx,
            NewTask {
                workspace_id: &user.workspace_id,
                user_id: Some(&user.user_id),
                kind,
                message,
                total_steps: total.max(1),
                account_id: Some(&org.account_id),
                org_id: Some(org.org_id),
            },
        )
        .await?;
        store::tasks::set_details(&mut *tx, &id, &progress).await?;
        outbox::push(
            &mut *tx,
            job,
            OutboxOptions {
                task_id: Some(id.clone()),
                ..Default::default()
            },
        )
        .await?;
        tx.commit().await?;
        Ok::<_, ApiError>(id)
    })
    .await?;
    if let Err(e) = outbox::relay_once(&state.db, &state.queue, 100).await {
        tracing::warn!(error = %format!("{e:#}"), "outbox relay deferred");
    }
    Ok(TaskStarted { id })
}

/// Creates the suggester's campaigns (spec §3 Campaign create payload, §9 discovery
/// campaign) in campaign group `orgId`: checks every field, the app and the plan's limits,
/// then queues `create-campaigns`. Editors only. The task's details are the Creation
/// progress (docs/api/creation.md).
#[utoipa::path(put, path = "/api/asa/campaigns/asa/all", tag = "creation",
    params(GroupQuery),
    request_body = CreateRequest,
    responses((status = 200, description = "The creation is queued: its task id", body = Envelope<TaskStarted>),
              (status = 400, description = "Invalid fields, unknown app or product page", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLECAMPAIGNS or AVAILABLETARGETINGKEYWORDSGROUPS)", body = ErrorBody)))]
pub async fn create_all(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount, EditRoles>,
    ApiQuery(query): ApiQuery<GroupQuery>,
    ApiJson(body): ApiJson<CreateRequest>,
) -> ApiResult<impl IntoResponse> {
    let (org, currency) =
        campaign_group(&state, &account.item.0.id, query.org_id.as_deref()).await?;
    let existing = campaign_views::campaigns(&state.db.pool, org.org_key, false).await?;
    let cx = Context {
        currency: &currency,
        taken: existing.iter().map(|c| name_key(&c.name)).collect(),
    };
    let mut errors = Vec::new();
    let plan = creation::plan(&body, &cx, &mut errors);
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    check_app(&state, &org, &plan).await?;
    // Checked before anything is queued, then again with the workspace locked (`start`).
    plan_limits::check_creation(
        state
            .engines
            .plan(&state.db, &account.caller.workspace_id)
            .await?,
        existing.len() as u64,
        plan.campaigns_total(),
        plan.groups_total(),
    )?;
    let total = (plan.campaigns_total() + plan.groups_total()) as i64;
    let making = Making {
        campaigns: plan.campaigns_total(),
        groups: plan.groups_total(),
    };
    let job = CreateCampaigns {
        scope: scope(&account.caller, &org, &currency),
        plan,
    };
    let started = start(
        &state,
        &account.caller,
        &org,
        "create-campaigns",
        "Creating campaigns...",
        total,
        making,
        &job,
    )
    .await?;
    Ok(envelope::ok(started))
}

/// The app must be one of the campaign group's (Apple refuses others), and the product
/// page one of the app's custom pages.
async fn check_app(state: &AppState, org: &SyncOrg, plan: &CreationPlan) -> ApiResult<()> {
    let apps = store::catalog::apps(&state.db.pool, &org.account_id, Some(org.org_id)).await?;
    if !apps.iter().any(|a| a.adam_id == plan.adam_id) {
        return Err(ApiError::field(
            "adamId",
            "The app is not one of this campaign group's apps",
        ));
    }
    if let Some(page) = &plan.product_page_id {
        let pages =
            campaign_views::product_pages(&state.db.pool, org.org_key, plan.adam_id).await?;
        if !pages.iter().any(|p| &p.id == page) {
            return Err(ApiError::field(
                "productPageId",
                "Not a custom product page of this app",
            ));
        }
    }
    Ok(())
}

/// `{"names": [..]}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct NamesRequest {
    /// 1–200 campaign names.
    #[schema(required = true, nullable = false, min_items = 1, max_items = 200)]
    pub names: Option<Vec<String>>,
}

/// Whether a campaign of the campaign group has a name.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct NameUse {
    pub name: String,
    pub exists: bool,
    #[schema(value_type = Option<String>)]
    #[serde(with = "searchdeck_common::ids::string_id::option")]
    pub campaign_id: Option<i64>,
}

/// Whether each name is a campaign's of campaign group `orgId` (synced, not deleted),
/// compared as Apple compares names (trimmed, any case), in the order sent. Any member.
#[utoipa::path(post, path = "/api/asa/campaigns/exists", tag = "creation",
    params(GroupQuery),
    request_body = NamesRequest,
    responses((status = 200, description = "Each name and whether it exists", body = Envelope<Items<NameUse>>),
              (status = 400, description = "No names, or over 200", body = ErrorBody)))]
pub async fn exists(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(query): ApiQuery<GroupQuery>,
    ApiJson(body): ApiJson<NamesRequest>,
) -> ApiResult<impl IntoResponse> {
    let names = body.names.unwrap_or_default();
    if names.is_empty() || names.len() > 200 {
        return Err(ApiError::field("names", "Send 1 to 200 names"));
    }
    let (org, _) = campaign_group(&state, &account.item.0.id, query.org_id.as_deref()).await?;
    let by_name: HashMap<String, i64> =
        campaign_views::campaigns(&state.db.pool, org.org_key, false)
            .await?
            .into_iter()
            .map(|c| (name_key(&c.name), c.id))
            .collect();
    let items = names
        .into_iter()
        .map(|name| {
            let id = by_name.get(&name_key(&name)).copied();
            NameUse {
                name,
                exists: id.is_some(),
                campaign_id: id,
            }
        })
        .collect();
    Ok(envelope::items(items))
}

/// `{"groups": [..]}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct GroupsRequest {
    /// 1–50 ad groups with their keywords.
    pub groups: Option<Vec<GroupIn>>,
}

/// Creates ad groups with their keywords and negatives in the existing campaign `id`, as a
/// `create-campaigns` task with no campaign to create. Names must be new in the campaign.
/// Editors only.
#[utoipa::path(post, path = "/api/asa/groups/createByList/{id}", tag = "creation",
    params(("id" = String, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    request_body = GroupsRequest,
    responses((status = 200, description = "The creation is queued: its task id", body = Envelope<TaskStarted>),
              (status = 400, description = "Invalid fields", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLETARGETINGKEYWORDSGROUPS)", body = ErrorBody)))]
pub async fn create_by_list(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<GroupsRequest>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    if c.deleted {
        return Err(ApiError::not_found("Campaign"));
    }
    let (org, currency) =
        campaign_group(&state, &c.account_id, Some(c.org_id.to_string().as_str())).await?;
    let taken: HashSet<String> = campaign_views::ad_groups(&state.db.pool, c.org_key, c.id, false)
        .await?
        .iter()
        .map(|g| name_key(&g.name))
        .collect();
    let mut errors = Vec::new();
    let groups = creation::groups(
        body.groups.as_ref(),
        "groups",
        &currency,
        &taken,
        &mut errors,
    );
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let making = Making {
        campaigns: 0,
        groups: groups.len() as u64,
    };
    let plan = CreationPlan {
        adam_id: c.adam_id.unwrap_or_default(),
        campaigns: vec![PlannedCampaign {
            name: c.name.clone(),
            existing_id: Some(c.id),
            countries: Vec::new(),
            adam_id: None,
            status: c.status.clone(),
            daily_budget_micros: 0,
            negatives: Vec::new(),
            groups,
        }],
        discovery: None,
        product_page_id: None,
    };
    let total = plan.groups_total() as i64;
    let job = CreateCampaigns {
        scope: scope(&campaign.caller, &org, &currency),
        plan,
    };
    let started = start(
        &state,
        &campaign.caller,
        &org,
        "create-campaigns",
        "Creating ad groups...",
        total,
        making,
        &job,
    )
    .await?;
    Ok(envelope::ok(started))
}

/// `{"campaignIds": [..]}`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignIdsRequest {
    /// 1–500 campaigns of the campaign group.
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, required = true, min_items = 1, max_items = 500)]
    pub campaign_ids: Option<Vec<i64>>,
}

/// A campaign's ad groups with and without a CPA goal.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CpaGoals {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    pub ad_groups: u64,
    pub with_cpa_goal: u64,
    pub without_cpa_goal: u64,
}

/// For each campaign of campaign group `orgId`, its ad groups (not deleted) with and
/// without a CPA goal: whether goal optimisation and CPA rules have a goal to work toward.
/// Any member; a campaign not in the campaign group answers 404.
#[utoipa::path(post, path = "/api/asa/groups/checkCampaignGroupsCPAGoals", tag = "creation",
    params(GroupQuery),
    request_body = CampaignIdsRequest,
    responses((status = 200, description = "Per campaign", body = Envelope<Items<CpaGoals>>),
              (status = 400, description = "No campaigns, or over 500", body = ErrorBody),
              (status = 404, description = "A campaign is not in the campaign group", body = ErrorBody)))]
pub async fn check_cpa_goals(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(query): ApiQuery<GroupQuery>,
    ApiJson(body): ApiJson<CampaignIdsRequest>,
) -> ApiResult<impl IntoResponse> {
    let ids = body.campaign_ids.unwrap_or_default();
    if ids.is_empty() || ids.len() > 500 {
        return Err(ApiError::field("campaignIds", "Send 1 to 500 campaign ids"));
    }
    let (org, _) = campaign_group(&state, &account.item.0.id, query.org_id.as_deref()).await?;
    let live: HashSet<i64> = campaign_views::campaigns(&state.db.pool, org.org_key, false)
        .await?
        .into_iter()
        .map(|c| c.id)
        .collect();
    let mut items = Vec::with_capacity(ids.len());
    for id in ids {
        if !live.contains(&id) {
            return Err(ApiError::not_found("Campaign"));
        }
        let groups = campaign_views::ad_groups(&state.db.pool, org.org_key, id, false).await?;
        let with = groups
            .iter()
            .filter(|g| g.cpa_goal_micros.is_some())
            .count() as u64;
        items.push(CpaGoals {
            campaign_id: id,
            ad_groups: groups.len() as u64,
            with_cpa_goal: with,
            without_cpa_goal: groups.len() as u64 - with,
        });
    }
    Ok(envelope::items(items))
}

/// Spec §3 Duplicate-campaign settings.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CopyRequest {
    /// 1–50 campaigns of the campaign group.
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Vec<searchdeck_common::ids::AppleId>, required = true, min_items = 1, max_items = 50)]
    pub campaigns: Option<Vec<i64>>,
    /// 1–10, default 1.
    #[schema(minimum = 1, maximum = 10)]
    pub number_of_copies: Option<i64>,
    /// Copy the ad groups, their keywords and negatives (default true).
    pub ad_group: Option<bool>,
    /// Copy the campaign's negatives (default true).
    pub campaign_negative_keywords: Option<bool>,
    /// Copy the ads (default true).
    pub custom_ads: Option<bool>,
    /// Every copied bid set to this.
    #[schema(value_type = Option<money::MoneyIn>)]
    pub cpt_bid: Option<Value>,
    /// Every copied ad group's CPA goal set to this.
    #[schema(value_type = Option<money::MoneyIn>)]
    pub cpa_goal: Option<Value>,
    /// PAUSED (default) or ENABLED.
    #[schema(pattern = "^(ENABLED|PAUSED)$")]
    pub status: Option<String>,
}

/// `name` with ' copy N', N the first from 1 not in `taken` (which then holds it).
pub fn copy_name(name: &str, taken: &mut HashSet<String>) -> String {
    (1..)
        .map(|n| format!("{name} copy {n}"))
        .find(|candidate| taken.insert(name_key(candidate)))
        .expect("some number is free")
}

/// Copies campaigns of campaign group `orgId` (spec §3 Duplicate-campaign settings): each
/// `numberOfCopies` times, named '<name> copy N', PAUSED unless asked otherwise, read from
/// Apple when the job starts. Editors only; a campaign not in the campaign group answers
/// 404. Runs as `copy-campaigns`.
#[utoipa::path(put, path = "/api/asa/campaigns/copy", tag = "creation",
    params(GroupQuery),
    request_body = CopyRequest,
    responses((status = 200, description = "The copy is queued: its task id", body = Envelope<TaskStarted>),
              (status = 400, description = "Invalid fields", body = ErrorBody),
              (status = 403, description = "LIMIT_HAS_BEEN_REACHED (meta.type AVAILABLECAMPAIGNS)", body = ErrorBody),
              (status = 404, description = "A campaign is not in the campaign group", body = ErrorBody)))]
pub async fn copy(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount, EditRoles>,
    ApiQuery(query): ApiQuery<GroupQuery>,
    ApiJson(body): ApiJson<CopyRequest>,
) -> ApiResult<impl IntoResponse> {
    let (org, currency) =
        campaign_group(&state, &account.item.0.id, query.org_id.as_deref()).await?;
    let mut errors = Vec::new();
    let ids = body.campaigns.clone().unwrap_or_default();
    if ids.is_empty() || ids.len() > CREATION_MAX_CAMPAIGNS {
        errors.push(FieldError::new(
            "campaigns",
            format!("Choose 1 to {CREATION_MAX_CAMPAIGNS} campaigns"),
        ));
    }
    let copies_each = body.number_of_copies.unwrap_or(1);
    if !(1..=10).contains(&copies_each) {
        errors.push(FieldError::new("numberOfCopies", "Must be 1 to 10"));
    }
    let status = match body.status.as_deref().map(str::trim) {
        None | Some("") | Some("PAUSED") => "PAUSED",
        Some("ENABLED") => "ENABLED",
        Some(_) => {
            errors.push(FieldError::new("status", "Must be one of: ENABLED, PAUSED"));
            "PAUSED"
        }
    };
    let mut money_of = |raw: Option<&Value>, field: &str, label: &str, min: Option<Minimum>| {
        let raw = raw.filter(|v| !v.is_null())?;
        let micros = money::parse(field, label, raw, Some(&currency))
            .map_err(|e| errors.push(e))
            .ok()?;
        let floor = min.map_or(1, |m| money::minimum(m, &currency));
        if micros < floor {
            errors.push(FieldError::new(
                field,
                format!(
                    "{label} must be at least {} {currency}",
                    money::text(Some(floor)).unwrap_or_default()
                ),
            ));
            return None;
        }
        Some(micros)
    };
    let cpt_bid = money_of(body.cpt_bid.as_ref(), "cptBid", "Bid", Some(Minimum::Bid));
    let cpa_goal = money_of(body.cpa_goal.as_ref(), "cpaGoal", "CPA goal", None);
    if !errors.is_empty() {
        return Err(ApiError::validation(errors));
    }
    let existing = campaign_views::campaigns(&state.db.pool, org.org_key, false).await?;
    let by_id: HashMap<i64, &str> = existing.iter().map(|c| (c.id, c.name.as_str())).collect();
    let mut taken: HashSet<String> = existing.iter().map(|c| name_key(&c.name)).collect();
    let mut copies = Vec::new();
    for id in &ids {
        let name = by_id
            .get(id)
            .ok_or_else(|| ApiError::not_found("Campaign"))?
            .to_string();
        for _ in 0..copies_each {
            copies.push(PlannedCopy {
                source_id: *id,
                name: copy_name(&name, &mut taken),
            });
        }
    }
    let ad_group = body.ad_group.unwrap_or(true);
    let groups: u64 = if ad_group {
        let mut n = 0;
        for c in &copies {
            n += campaign_views::ad_groups(&state.db.pool, org.org_key, c.source_id, false)
                .await?
                .len() as u64;
        }
        n
    } else {
        0
    };
    let total = copies.len() as i64 + groups as i64;
    let making = Making {
        campaigns: copies.len() as u64,
        groups,
    };
    let job = CopyCampaigns {
        scope: scope(&account.caller, &org, &currency),
        copies,
        settings: CopySettings {
            ad_group,
            campaign_negative_keywords: body.campaign_negative_keywords.unwrap_or(true),
            custom_ads: body.custom_ads.unwrap_or(true),
            cpt_bid_micros: cpt_bid,
            cpa_goal_micros: cpa_goal,
            status: status.into(),
        },
    };
    let started = start(
        &state,
        &account.caller,
        &org,
        "copy-campaigns",
        "Copying campaigns...",
        total,
        making,
        &job,
    )
    .await?;
    Ok(envelope::ok(started))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn copies_take_the_first_free_number() {
        let mut taken: HashSet<String> = ["us brand", "us brand copy 1"]
            .into_iter()
            .map(String::from)
            .collect();
        assert_eq!(copy_name("US Brand", &mut taken), "US Brand copy 2");
        assert_eq!(copy_name("US Brand", &mut taken), "US Brand copy 3");
        assert_eq!(copy_name("Other", &mut taken), "Other copy 1");
    }
}
