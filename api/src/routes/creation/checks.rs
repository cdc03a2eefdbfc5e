//! What the creation screens ask before sending: whether names are campaigns' of the
//! campaign group already (`POST asa/campaigns/exists`), and which ad groups of campaigns
//! have a CPA goal (`POST asa/groups/checkCampaignGroupsCPAGoals`). Any member.

use std::collections::{HashMap, HashSet};

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::campaign_views;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{GroupQuery, campaign_group, input::name_key};
use crate::{
    access::{InWorkspace, QueriedAccount},
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    state::AppState,
};

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
