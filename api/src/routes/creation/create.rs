//! Creating campaigns and ad groups: the suggester's campaigns with their ad groups,
//! keywords, negatives and discovery campaign (`PUT asa/campaigns/asa/all`), and ad groups
//! from a keyword list in an existing campaign (`POST asa/groups/createByList/{id}`), both
//! as a `create-campaigns` task.

use std::collections::HashSet;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{
    jobs::{CreateCampaigns, CreationPlan, PlannedCampaign},
    store::{self, campaign_views, synced::SyncOrg},
};
use serde::Deserialize;
use utoipa::ToSchema;

use super::{
    GroupQuery, Making, TaskStarted, campaign_group,
    input::{Context, CreateRequest, GroupIn, name_key},
    plan::{self as creation},
    scope, start,
};
use crate::{
    access::{Campaign, EditRoles, InWorkspace, QueriedAccount, ScopeQuery, pick},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    routes::plans::limits as plan_limits,
    state::AppState,
};

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
