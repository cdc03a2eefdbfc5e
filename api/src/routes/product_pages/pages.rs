//! `productPages/*`: an app's product pages (from Apple), a campaign's ads with their pages
//! (synced), custom product page ads created in ad groups or whole campaigns (exactly once:
//! `ads::ensure_ads`), and ad statuses.

use std::collections::HashSet;

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::{ids::string_id, store};
use searchdeck_provider::{AppleAds, Entity};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use utoipa::{IntoParams, ToSchema};

use super::{
    CampaignOfPage, CampaignParam, PageParam,
    ads::{self, AdItem, Ensured, StatusItem, Where},
    narrow,
};
use crate::{
    access::{
        AppStoreId, AppStoreParam, Campaign, EditRoles, Editor, InWorkspace, Member, ScopeQuery,
        campaign_by_id, pick,
    },
    domain::REQUIRED,
    envelope::{self, Envelope, Items},
    error::{ApiError, ApiResult, ErrorBody, FieldError},
    extract::{ApiJson, ApiPath, ApiQuery},
    provider::provider_error,
    state::AppState,
};

/// Most ad groups (or campaigns' ad groups) one call gives an ad.
pub const GROUPS_MAX: usize = 500;
/// Most campaigns one call gives ads.
pub const CAMPAIGNS_MAX: usize = 50;

/// The `{appId}` path parameter: an App Store app.
#[derive(Debug)]
pub struct AppIdParam;
impl AppStoreParam for AppIdParam {
    const PARAM: &'static str = "appId";
}

/// The campaign group a product page read acts in (both required).
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct GroupQuery {
    /// A connection of the workspace.
    pub account_id: Option<String>,
    /// The campaign group.
    #[param(value_type = Option<String>)]
    pub org_id: Option<String>,
}

/// A product page of an app.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageItem {
    pub id: String,
    pub name: String,
    pub state: Option<String>,
    pub deep_link: Option<String>,
    /// The app's default product page (the others are custom product pages).
    pub is_default: bool,
}

fn text(v: &Value) -> Option<String> {
    v.as_str().map(str::to_string)
}

/// The product pages of app `appId` at Apple, in campaign group `orgId` reached through
/// connection `accountId`: the default page first, then the custom ones by name.
#[utoipa::path(get, path = "/api/productPages/all/adam/{appId}", tag = "campaigns",
    params(("appId" = String, Path, description = "App Store app id"), GroupQuery),
    responses((status = 200, description = "The app's product pages", body = Envelope<Items<PageItem>>),
              (status = 400, description = "Missing account or campaign group", body = ErrorBody),
              (status = 404, description = "Not a connection of the workspace", body = ErrorBody)))]
pub async fn of_app(
    State(state): State<AppState>,
    caller: Member,
    app: AppStoreId<AppIdParam>,
    ApiQuery(query): ApiQuery<GroupQuery>,
) -> ApiResult<impl IntoResponse> {
    let account_id = query
        .account_id
        .as_deref()
        .map(str::trim)
        .filter(|a| !a.is_empty());
    let org_id = query.org_id.as_deref().map(|o| o.trim().parse::<i64>());
    let mut errors = Vec::new();
    if account_id.is_none() {
        errors.push(FieldError::new("accountId", REQUIRED));
    }
    let org_id = match org_id {
        Some(Ok(o)) => Some(o),
        None => {
            errors.push(FieldError::new("orgId", REQUIRED));
            None
        }
        Some(Err(_)) => {
            errors.push(FieldError::new(
                "orgId",
                "orgId must be a campaign group id",
            ));
            None
        }
    };
    crate::domain::Fields { errors }.finish()?;
    let (account_id, org_id) = (account_id.unwrap_or_default(), org_id.unwrap_or_default());
    let account = store::accounts::in_workspace(&state.db.pool, &caller.workspace_id, account_id)
        .await?
        .ok_or_else(|| ApiError::not_found("Account"))?;
    let client = state.provider.client_of(&account)?;
    let query = json!({
        "filters": [{ "field": "adamId", "operator": "EQUALS", "value": [app.id] }],
        "pagination": { "offset": 0, "pageSize": 1000 },
    });
    let pages = client
        .query_json(org_id, Entity::ProductPages, &query)
        .await
        .map_err(provider_error)?
        .items;
    let defaults: HashSet<String> = ads::query_all(
        client.as_ref(),
        org_id,
        Entity::Creatives,
        vec![json!({ "field": "creativeType", "operator": "EQUALS", "value": ["DEFAULT_PRODUCT_PAGE"] })],
    )
    .await?
    .iter()
    .filter_map(|c| text(&c["destination"]["parameters"]["productPageId"]))
    .collect();
    let mut items: Vec<PageItem> = pages
        .iter()
        .filter(|p| string_id::parse(&p["adamId"]) == Some(app.id))
        .filter_map(|p| {
            let id = text(&p["id"])?;
            Some(PageItem {
                is_default: defaults.contains(&id),
                id,
                name: text(&p["name"]).unwrap_or_default(),
                state: text(&p["state"]),
                deep_link: text(&p["deepLink"]),
            })
        })
        .collect();
    items.sort_by(|a, b| {
        b.is_default
            .cmp(&a.is_default)
            .then_with(|| a.name.cmp(&b.name))
    });
    Ok(envelope::items(items))
}

/// The live ads of campaign `campaignId` with their creative and product page (synced), by
/// ad group.
#[utoipa::path(get, path = "/api/productPages/all/campaign/{campaignId}", tag = "campaigns",
    params(("campaignId" = String, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    responses((status = 200, description = "The campaign's ads", body = Envelope<Items<AdItem>>)))]
pub async fn of_campaign(
    State(state): State<AppState>,
    campaign: InWorkspace<CampaignParam>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    let ads = store::product_ads::ads_of_campaign(&state.db.pool, c.org_key, c.id, None).await?;
    Ok(envelope::items(ads.into_iter().map(AdItem::from).collect()))
}

/// The ad groups of `PUT productPages/many/{id}/{adamId}/{pageId}`.
#[derive(Debug, Deserialize, ToSchema)]
pub struct GroupsBody {
    /// 1–500 live ad groups of the campaign.
    #[schema(value_type = Vec<String>)]
    pub groups: Option<Vec<Value>>,
}

/// The campaigns of `PUT productPages/many/{id}` (a page).
#[derive(Debug, Deserialize, ToSchema)]
pub struct CampaignsBody {
    /// 1–50 campaigns of the campaign group promoting the page's app.
    #[schema(value_type = Vec<String>)]
    pub campaigns: Option<Vec<Value>>,
}

/// Ids of a list field (1–`max`, each a number or a string of digits), or field errors.
fn id_list(raw: Option<&Vec<Value>>, field: &str, max: usize) -> ApiResult<Vec<i64>> {
    let Some(raw) = raw.filter(|r| !r.is_empty()) else {
        return Err(ApiError::field(field, REQUIRED));
    };
    if raw.len() > max {
        return Err(ApiError::field(
            field,
            &format!("At most {max} per request"),
        ));
    }
    let mut errors = Vec::new();
    let mut out = Vec::new();
    for (i, v) in raw.iter().enumerate() {
        match string_id::parse(v) {
            Some(id) if !out.contains(&id) => out.push(id),
            Some(_) => {}
            None => errors.push(FieldError::new(format!("{field}.{i}"), "Not an id")),
        }
    }
    crate::domain::Fields { errors }.finish()?;
    Ok(out)
}

/// A 404 naming the body field that names nothing of the campaign.
fn missing(field: String, what: &str) -> ApiError {
    ApiError::Status {
        status: axum::http::StatusCode::NOT_FOUND,
        message: format!("{what} not found"),
        errors: vec![FieldError::new(field, format!("{what} not found"))],
        meta: None,
        retry_after: None,
    }
}

/// Gives each ad group `groups` of campaign `{id}` an ad with custom product page
/// `pageId` of app `adamId` (the campaign's app): created once, an ad of the group that
/// already shows the page is kept. Editors only.
#[utoipa::path(put, path = "/api/productPages/many/{id}/{adamId}/{pageId}", tag = "campaigns",
    params(("id" = String, Path, description = "Campaign id (Apple's)"),
           ("adamId" = String, Path, description = "The campaign's app (App Store id)"),
           ("pageId" = String, Path, description = "Custom product page id"), ScopeQuery),
    request_body = GroupsBody,
    responses((status = 200, description = "An ad per ad group", body = Envelope<Items<Ensured>>),
              (status = 400, description = "Invalid request (field errors), or refused by Apple Ads", body = ErrorBody)))]
pub async fn apply_to_groups(
    State(state): State<AppState>,
    campaign: InWorkspace<CampaignOfPage, EditRoles>,
    ApiPath(path): ApiPath<(String, String, String)>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<GroupsBody>,
) -> ApiResult<impl IntoResponse> {
    let (_, adam_id, page_id) = path;
    let groups = id_list(body.groups.as_ref(), "groups", GROUPS_MAX)?;
    let c = pick(campaign.item.0, &query)?;
    if c.deleted {
        return Err(ApiError::not_found("Campaign"));
    }
    let adam_id = crate::access::parse_app_store_id(&adam_id)
        .filter(|a| c.adam_id.is_none_or(|own| own == *a))
        .ok_or_else(|| ApiError::field("adamId", "The campaign does not promote this app"))?;
    for (i, g) in groups.iter().enumerate() {
        match store::campaign_views::ad_group(&state.db.pool, c.org_key, c.id, *g).await? {
            Some(row) if !row.deleted => {}
            _ => return Err(missing(format!("groups.{i}"), "Ad group")),
        }
    }
    let client = state
        .provider
        .client_by_id(&state.db, &c.account_id)
        .await?;
    let page = ads::product_page(client.as_ref(), c.org_id, adam_id, page_id.trim()).await?;
    let at = Where {
        org_key: c.org_key,
        org_id: c.org_id,
        campaign_id: c.id,
    };
    let done = ads::ensure_ads(&state, client.as_ref(), &at, &page, &groups).await?;
    Ok(envelope::items(done))
}

/// Gives every live ad group of campaigns `campaigns` an ad with custom product page
/// `{id}` (synced in the campaign group the query names): created once, an ad that
/// already shows the page is kept. Every campaign must promote the page's app. Editors only.
#[utoipa::path(put, path = "/api/productPages/many/{id}", tag = "campaigns",
    params(("id" = String, Path, description = "Custom product page id"), ScopeQuery),
    request_body = CampaignsBody,
    responses((status = 200, description = "An ad per ad group", body = Envelope<Items<Ensured>>),
              (status = 400, description = "Invalid request (field errors), or refused by Apple Ads", body = ErrorBody)))]
pub async fn apply_to_campaigns(
    State(state): State<AppState>,
    page: InWorkspace<PageParam, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<CampaignsBody>,
) -> ApiResult<impl IntoResponse> {
    let campaigns = id_list(body.campaigns.as_ref(), "campaigns", CAMPAIGNS_MAX)?;
    let caller: &Editor = &page.caller;
    let copy = narrow(
        page.item.0,
        &query,
        |p| (p.account_id.as_str(), p.org_id),
        "Product page",
    )?;
    let scope = ScopeQuery {
        account_id: Some(copy.account_id.clone()),
        org_id: Some(copy.org_id.to_string()),
    };
    let mut targets = Vec::with_capacity(campaigns.len());
    let mut total = 0;
    for (i, id) in campaigns.iter().enumerate() {
        let c = match campaign_by_id(&state, caller, &scope, *id).await {
            Ok(c) if !c.deleted => c,
            _ => return Err(missing(format!("campaigns.{i}"), "Campaign")),
        };
        if c.adam_id.is_some_and(|a| a != copy.adam_id) {
            return Err(ApiError::field(
                &format!("campaigns.{i}"),
                "This campaign promotes another app",
            ));
        }
        let groups: Vec<i64> =
            store::campaign_views::ad_groups(&state.db.pool, c.org_key, c.id, false)
                .await?
                .into_iter()
                .map(|g| g.id)
                .collect();
        total += groups.len();
        targets.push((c, groups));
    }
    if total > GROUPS_MAX {
        return Err(ApiError::field(
            "campaigns",
            &format!("At most {GROUPS_MAX} ad groups per request"),
        ));
    }
    let client = state
        .provider
        .client_by_id(&state.db, &copy.account_id)
        .await?;
    let page = ads::product_page(client.as_ref(), copy.org_id, copy.adam_id, &copy.id).await?;
    let mut done = Vec::new();
    for (c, groups) in targets {
        if groups.is_empty() {
            continue;
        }
        let at = Where {
            org_key: c.org_key,
            org_id: c.org_id,
            campaign_id: c.id,
        };
        done.extend(ads::ensure_ads(&state, client.as_ref(), &at, &page, &groups).await?);
    }
    Ok(envelope::items(done))
}

/// A status change of some ads.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StatusBody {
    /// 1–500 live ads of the campaign (or ad group).
    #[schema(value_type = Vec<String>)]
    pub ad_ids: Option<Vec<Value>>,
    /// ENABLED or PAUSED.
    pub status: Option<String>,
}

/// The checked ids and status of a status change, or field errors.
pub fn status_change(body: &StatusBody) -> ApiResult<(Vec<i64>, String)> {
    let mut errors = Vec::new();
    let status = ads::checked_status(body.status.as_deref(), &mut errors);
    let ids = match id_list(body.ad_ids.as_ref(), "adIds", GROUPS_MAX) {
        Ok(ids) => ids,
        Err(ApiError::Status { errors: more, .. }) => {
            errors.extend(more);
            Vec::new()
        }
        Err(e) => return Err(e),
    };
    crate::domain::Fields { errors }.finish()?;
    Ok((ids, status.unwrap_or_default()))
}

/// Sets ads `adIds` of campaign `{id}` to `status` at Apple (an ad already there is not
/// sent) and in our synced ads. Editors only.
#[utoipa::path(patch, path = "/api/productPages/many/{id}", tag = "campaigns",
    params(("id" = String, Path, description = "Campaign id (Apple's)"), ScopeQuery),
    request_body = StatusBody,
    responses((status = 200, description = "The ads' statuses", body = Envelope<Items<StatusItem>>),
              (status = 400, description = "Invalid request (field errors), or refused by Apple Ads", body = ErrorBody)))]
pub async fn set_status(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign, EditRoles>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<StatusBody>,
) -> ApiResult<impl IntoResponse> {
    let (ids, status) = status_change(&body)?;
    let c = pick(campaign.item.0, &query)?;
    let ads = store::product_ads::ads_of_campaign(&state.db.pool, c.org_key, c.id, None).await?;
    let client: std::sync::Arc<dyn AppleAds> = state
        .provider
        .client_by_id(&state.db, &c.account_id)
        .await?;
    let at = Where {
        org_key: c.org_key,
        org_id: c.org_id,
        campaign_id: c.id,
    };
    let done = ads::set_statuses(&state, client.as_ref(), &at, &ads, &ids, &status).await?;
    Ok(envelope::items(done))
}
