//! `creativeSet/*`: Apple retired creative sets (API v1 has creatives and ads), so these
//! calls are served from the ad group's ads, custom product page ads included: the details
//! of an ad group's "creative sets" are its live ads with their creative and product page,
//! and updating them sets the ads' status.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{ids::string_id, store};
use serde::Serialize;
use utoipa::ToSchema;

use super::{
    AdGroupParam, CampaignOfGroup,
    ads::{self, AdItem, StatusItem, Where},
    narrow,
    pages::{StatusBody, status_change},
};
use crate::{
    access::{EditRoles, InWorkspace, ScopeQuery, pick},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiPath, ApiQuery},
    state::AppState,
};

/// An ad group's ads, in place of its creative sets.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CreativeSetDetails {
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub campaign_id: i64,
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub ad_group_id: i64,
    pub ad_group_name: String,
    /// The live ads (Apple retired creative sets: each ad stands for one).
    pub items: Vec<AdItem>,
}

async fn details_at(
    state: &AppState,
    org_key: i64,
    campaign_id: i64,
    ad_group_id: i64,
    ad_group_name: String,
) -> ApiResult<CreativeSetDetails> {
    let ads = store::product_ads::ads_of_campaign(
        &state.db.pool,
        org_key,
        campaign_id,
        Some(ad_group_id),
    )
    .await?;
    Ok(CreativeSetDetails {
        campaign_id,
        ad_group_id,
        ad_group_name,
        items: ads.into_iter().map(AdItem::from).collect(),
    })
}

/// The "creative sets" of ad group `{id}`: its live ads with their creative and product
/// page (synced).
#[utoipa::path(get, path = "/api/creativeSet/getDetails/{id}", tag = "campaigns",
    params(("id" = String, Path, description = "Ad group id (Apple's)"), ScopeQuery),
    responses((status = 200, description = "The ad group's ads", body = Envelope<Item<CreativeSetDetails>>)))]
pub async fn details(
    State(state): State<AppState>,
    group: InWorkspace<AdGroupParam>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
) -> ApiResult<impl IntoResponse> {
    let g = narrow(
        group.item.0,
        &query,
        |g| (g.account_id.as_str(), g.org_id),
        "Ad group",
    )?;
    Ok(envelope::item(
        details_at(&state, g.org_key, g.campaign_id, g.id, g.name).await?,
    ))
}

/// The "creative sets" of ad group `{adGroupId}` of campaign `{id}`: its live ads (a read
/// sent as POST).
#[utoipa::path(post, path = "/api/creativeSet/getDetails/{id}/{adGroupId}", tag = "campaigns",
    params(("id" = String, Path, description = "Campaign id (Apple's)"),
           ("adGroupId" = String, Path, description = "Ad group id (Apple's), of that campaign"), ScopeQuery),
    responses((status = 200, description = "The ad group's ads", body = Envelope<Item<CreativeSetDetails>>)))]
pub async fn details_of(
    State(state): State<AppState>,
    campaign: InWorkspace<CampaignOfGroup>,
    ApiPath(path): ApiPath<(String, String)>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
) -> ApiResult<impl IntoResponse> {
    let b = path.1;
    let c = pick(campaign.item.0, &query)?;
    let group = match b.trim().parse::<i64>() {
        Ok(id) => store::campaign_views::ad_group(&state.db.pool, c.org_key, c.id, id).await?,
        Err(_) => None,
    }
    .ok_or_else(|| ApiError::not_found("Ad group"))?;
    Ok(envelope::item(
        details_at(&state, c.org_key, c.id, group.id, group.name).await?,
    ))
}

/// Sets ads `adIds` of ad group `{id}` to `status` (in place of updating its creative sets).
/// Editors only.
#[utoipa::path(put, path = "/api/creativeSet/updates/{id}", operation_id = "update_creative_sets", tag = "campaigns",
    params(("id" = String, Path, description = "Ad group id (Apple's)"), ScopeQuery),
    request_body = StatusBody,
    responses((status = 200, description = "The ads' statuses", body = Envelope<Items<StatusItem>>),
              (status = 400, description = "Invalid request (field errors), or refused by Apple Ads", body = ErrorBody)))]
pub async fn update(
    State(state): State<AppState>,
    group: InWorkspace<AdGroupParam, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<StatusBody>,
) -> ApiResult<impl IntoResponse> {
    let (ids, status) = status_change(&body)?;
    let g = narrow(
        group.item.0,
        &query,
        |g| (g.account_id.as_str(), g.org_id),
        "Ad group",
    )?;
    let ads =
        store::product_ads::ads_of_campaign(&state.db.pool, g.org_key, g.campaign_id, Some(g.id))
            .await?;
    let client = state
        .provider
        .client_by_id(&state.db, &g.account_id)
        .await?;
    let at = Where {
        org_key: g.org_key,
        org_id: g.org_id,
        campaign_id: g.campaign_id,
    };
    let done = ads::set_statuses(&state, client.as_ref(), &at, &ads, &ids, &status).await?;
    Ok(envelope::items(done))
}
