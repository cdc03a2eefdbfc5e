//! `asa/campaigns/checkCustomProductPageAds` and `…ByAdGroups`: how many live ads campaigns
//! (or ad groups of one campaign) have and how many show a custom product page, from the
//! synced ads, so the screens can say where a page is already used.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{ids::string_id, store};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;

use crate::{
    access::{Member, ScopeQuery, pick},
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiQuery},
    state::AppState,
};

/// Most campaigns (or ad groups) one check takes.
pub const CHECK_MAX: usize = 500;

/// The body of `checkCustomProductPageAds`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignsCheck {
    /// 1–500 campaigns of the workspace.
    #[schema(value_type = Vec<String>)]
    pub campaign_ids: Option<Vec<Value>>,
}

/// The body of `checkCustomProductPageAdsByAdGroups`.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdGroupsCheck {
    #[schema(value_type = String)]
    pub campaign_id: Option<Value>,
    /// 1–500 ad groups of that campaign.
    #[schema(value_type = Vec<String>)]
    pub ad_group_ids: Option<Vec<Value>>,
}

/// The ads of a campaign.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignAds {
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub campaign_id: i64,
    /// Live ads.
    pub ads: u64,
    /// Live ads showing a custom product page.
    pub custom_product_page_ads: u64,
}

/// The ads of an ad group.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdGroupAds {
    #[schema(value_type = String)]
    #[serde(with = "string_id")]
    pub ad_group_id: i64,
    pub ads: u64,
    pub custom_product_page_ads: u64,
}

fn ids(raw: Option<&Vec<Value>>, field: &str) -> ApiResult<Vec<i64>> {
    let Some(raw) = raw.filter(|r| !r.is_empty()) else {
        return Err(ApiError::field(field, REQUIRED));
    };
    if raw.len() > CHECK_MAX {
        return Err(ApiError::field(
            field,
            &format!("At most {CHECK_MAX} per request"),
        ));
    }
    let mut errors = Vec::new();
    let mut out = Vec::new();
    for (i, v) in raw.iter().enumerate() {
        match string_id::parse(v) {
            Some(id) => out.push(id),
            None => errors.push(FieldError::new(format!("{field}.{i}"), "Not an id")),
        }
    }
    crate::domain::Fields { errors }.finish()?;
    Ok(out)
}

fn missing(field: String, what: &str) -> ApiError {
    ApiError::Status {
        status: axum::http::StatusCode::NOT_FOUND,
        message: format!("{what} not found"),
        errors: vec![FieldError::new(field, format!("{what} not found"))],
        meta: None,
        retry_after: None,
    }
}

/// Campaign `id` of the caller's workspace narrowed by the query, or 404 on `field`.
async fn campaign(
    state: &AppState,
    caller: &Member,
    query: &ScopeQuery,
    id: i64,
    field: String,
) -> ApiResult<searchdeck_common::store::campaign_views::CampaignRow> {
    let copies =
        store::campaign_views::campaign_in_workspace(&state.db.pool, &caller.workspace_id, id)
            .await?;
    match pick(copies, query) {
        Ok(c) => Ok(c),
        Err(ApiError::Status { status, .. }) if status == axum::http::StatusCode::NOT_FOUND => {
            Err(missing(field, "Campaign"))
        }
        Err(e) => Err(e),
    }
}

/// For each campaign, its live ads and those with a custom product page (synced), in the
/// order sent. Any member (a read sent as POST).
#[utoipa::path(post, path = "/api/asa/campaigns/checkCustomProductPageAds", tag = "campaigns",
    params(ScopeQuery),
    request_body = CampaignsCheck,
    responses((status = 200, description = "Ads per campaign", body = Envelope<Items<CampaignAds>>),
              (status = 400, description = "Invalid request (field errors)", body = ErrorBody),
              (status = 404, description = "A campaign is not in the workspace", body = ErrorBody)))]
pub async fn by_campaigns(
    State(state): State<AppState>,
    caller: Member,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<CampaignsCheck>,
) -> ApiResult<impl IntoResponse> {
    let ids = ids(body.campaign_ids.as_ref(), "campaignIds")?;
    let mut out = Vec::with_capacity(ids.len());
    for (i, id) in ids.into_iter().enumerate() {
        let c = campaign(&state, &caller, &query, id, format!("campaignIds.{i}")).await?;
        let ads =
            store::product_ads::ads_of_campaign(&state.db.pool, c.org_key, c.id, None).await?;
        out.push(CampaignAds {
            campaign_id: id,
            ads: ads.len() as u64,
            custom_product_page_ads: ads.iter().filter(|a| a.custom_page()).count() as u64,
        });
    }
    Ok(envelope::items(out))
}

/// For each ad group of campaign `campaignId`, its live ads and those with a custom product
/// page (synced), in the order sent. Any member (a read sent as POST).
#[utoipa::path(post, path = "/api/asa/campaigns/checkCustomProductPageAdsByAdGroups", tag = "campaigns",
    params(ScopeQuery),
    request_body = AdGroupsCheck,
    responses((status = 200, description = "Ads per ad group", body = Envelope<Items<AdGroupAds>>),
              (status = 400, description = "Invalid request (field errors)", body = ErrorBody),
              (status = 404, description = "The campaign or an ad group is not in the workspace", body = ErrorBody)))]
pub async fn by_ad_groups(
    State(state): State<AppState>,
    caller: Member,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<AdGroupsCheck>,
) -> ApiResult<impl IntoResponse> {
    let Some(campaign_id) = body.campaign_id.as_ref().and_then(string_id::parse) else {
        return Err(ApiError::field("campaignId", REQUIRED));
    };
    let groups = ids(body.ad_group_ids.as_ref(), "adGroupIds")?;
    let c = campaign(&state, &caller, &query, campaign_id, "campaignId".into()).await?;
    let ads = store::product_ads::ads_of_campaign(&state.db.pool, c.org_key, c.id, None).await?;
    let mut out = Vec::with_capacity(groups.len());
    for (i, g) in groups.into_iter().enumerate() {
        if store::campaign_views::ad_group(&state.db.pool, c.org_key, c.id, g)
            .await?
            .is_none()
        {
            return Err(missing(format!("adGroupIds.{i}"), "Ad group"));
        }
        let of_group = ads.iter().filter(|a| a.ad_group_id == g);
        out.push(AdGroupAds {
            ad_group_id: g,
            ads: of_group.clone().count() as u64,
            custom_product_page_ads: of_group.filter(|a| a.custom_page()).count() as u64,
        });
    }
    Ok(envelope::items(out))
}
