//! Campaign and ad group reads: the campaign list of pickers and filters
//! (`asa/campaigns/list`), one campaign with its settings (`asa/campaigns/{id}`), the ad
//! groups of a campaign (`asa/groups/{id}`) and one ad group with its settings
//! (`asa/groups/{a}/{b}`: ad group `b` of campaign `a`).

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store::{
    self,
    campaign_views::{AdGroupRow, CampaignRow},
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{Money, Scope, body_of, serving_status};
use crate::{
    access::{Campaign, CampaignOfAdGroup, InWorkspace, QueriedAccount, ScopeQuery, pick},
    envelope::{self, Envelope, Item, Items},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiPath, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(list))
        .routes(route!(one))
        .routes(route!(ad_groups))
        .routes(route!(ad_group))
}

/// A campaign as pickers and filters list it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignListItem {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    pub campaign_name: String,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    pub account_id: String,
    /// The promoted app.
    #[serde(default, with = "searchdeck_common::ids::string_id::option")]
    #[schema(value_type = Option<String>)]
    pub adam_id: Option<i64>,
    /// ENABLED or PAUSED (the user's switch).
    pub status: String,
    /// RUNNING or NOT_RUNNING (spec §3: RUNNING means active).
    pub serving_status: String,
    /// The provider's display status (RUNNING, ON_HOLD, PAUSED, DELETED).
    pub display_status: Option<String>,
    /// Hidden from the tables by a member (`asa/campaigns/mark-hidden`).
    pub hidden: bool,
    /// Deleted at the provider (listed only with `includeDeleted`).
    pub deleted: bool,
}

fn list_item(c: &CampaignRow) -> CampaignListItem {
    let body = body_of(c.body.as_deref());
    CampaignListItem {
        campaign_id: c.id,
        campaign_name: c.name.clone(),
        org_id: c.org_id,
        account_id: c.account_id.clone(),
        adam_id: c.adam_id,
        status: c.status.clone(),
        serving_status: serving_status(&body, c.display_status.as_deref()),
        display_status: c.display_status.clone(),
        hidden: c.hidden,
        deleted: c.deleted,
    }
}

/// The query of `asa/campaigns/list`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    #[serde(flatten)]
    scope: ScopeQuery,
    include_deleted: Option<String>,
}

/// A boolean query flag: `true`/`1` or `false`/`0`; 400 on `field` otherwise.
fn flag(field: &str, raw: Option<&str>) -> Result<bool, ApiError> {
    match raw.map(str::trim) {
        None | Some("") | Some("false") | Some("0") => Ok(false),
        Some("true") | Some("1") => Ok(true),
        Some(_) => Err(ApiError::field(
            field,
            &format!("{field} must be true or false"),
        )),
    }
}

/// The campaigns of the account (`accountId`), of one campaign group with `orgId`, for
/// pickers and filters: every synced campaign not deleted (with `includeDeleted=true`, the
/// deleted ones too), hidden ones included and flagged, by campaign group then name.
#[utoipa::path(get, path = "/api/asa/campaigns/list", operation_id = "list_campaigns", tag = "campaigns",
    params(("accountId" = String, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Campaign group; all of the account's in use when absent"),
           ("includeDeleted" = Option<bool>, Query, description = "List campaigns deleted at the provider too")),
    responses((status = 200, description = "Campaigns", body = Envelope<Items<CampaignListItem>>),
              (status = 400, description = "Invalid orgId or includeDeleted", body = ErrorBody)))]
pub async fn list(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<impl IntoResponse> {
    let include_deleted = flag("includeDeleted", query.include_deleted.as_deref())?;
    let scope = Scope::resolve(&state, account.item.0, query.scope.org_id()?).await?;
    let mut items = Vec::new();
    for org in &scope.orgs {
        let rows =
            store::campaign_views::campaigns(&state.db.pool, org.org_key, include_deleted).await?;
        items.extend(rows.iter().map(list_item));
    }
    Ok(envelope::items(items))
}

/// One campaign with its settings.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CampaignItem {
    #[serde(flatten)]
    pub list: CampaignListItem,
    /// The campaign group's currency, which every amount is in.
    pub currency: Option<String>,
    pub daily_budget_amount: Option<Money>,
    /// The lifetime budget, when the campaign has one.
    pub budget_amount: Option<Money>,
    pub countries_or_regions: Vec<String>,
    /// SEARCH or DISPLAY.
    pub ad_channel_type: Option<String>,
    /// TAPS or IMPRESSIONS.
    pub billing_event: Option<String>,
    pub supply_sources: Vec<String>,
    /// Why the campaign is not running, as the provider says.
    pub serving_state_reasons: Vec<String>,
    pub system_status: Option<String>,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    pub creation_time: Option<String>,
    pub modification_time: Option<String>,
}

fn strings(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_string))
                .collect()
        })
        .unwrap_or_default()
}

/// Apple's `{amount, currency}` from a synced body, as [`Money`].
fn body_money(v: &Value) -> Option<Money> {
    let amount = match &v["amount"] {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        _ => return None,
    };
    Some(Money {
        amount,
        currency: v["currency"].as_str().unwrap_or_default().to_string(),
    })
}

fn campaign_item(c: &CampaignRow) -> CampaignItem {
    let body = body_of(c.body.as_deref());
    let countries = c
        .countries
        .as_deref()
        .and_then(|s| serde_json::from_str::<Value>(s).ok())
        .map(|v| strings(&v))
        .unwrap_or_else(|| strings(&body["countriesOrRegions"]));
    CampaignItem {
        list: list_item(c),
        currency: c.currency.clone(),
        daily_budget_amount: c
            .daily_budget_micros
            .map(|m| Money::from_micros(m, c.currency.as_deref())),
        budget_amount: body_money(&body["budgetAmount"]),
        countries_or_regions: countries,
        ad_channel_type: body["adChannelType"].as_str().map(str::to_string),
        billing_event: body["billingEvent"].as_str().map(str::to_string),
        supply_sources: strings(&body["supplySources"]),
        serving_state_reasons: strings(&body["servingStateReasons"]),
        system_status: c.system_status.clone(),
        start_time: c.start_time.clone(),
        end_time: c.end_time.clone(),
        creation_time: c.creation_time.clone(),
        modification_time: c.modification_time.clone(),
    }
}

/// One campaign of the workspace with its settings (deleted ones too). `accountId` and
/// `orgId` narrow it when several connections reach its campaign group.
#[utoipa::path(get, path = "/api/asa/campaigns/{id}", operation_id = "one_campaign", tag = "campaigns",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"),
           ("accountId" = Option<String>, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Campaign group")),
    responses((status = 200, description = "The campaign", body = Envelope<Item<CampaignItem>>),
              (status = 400, description = "Ambiguous campaign or invalid orgId", body = ErrorBody)))]
pub async fn one(
    campaign: InWorkspace<Campaign>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
) -> ApiResult<impl IntoResponse> {
    let row = pick(campaign.item.0, &query)?;
    Ok(envelope::item(campaign_item(&row)))
}

/// An ad group with its settings.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdGroupItem {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub ad_group_id: i64,
    pub ad_group_name: String,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    /// ENABLED or PAUSED (the user's switch).
    pub status: String,
    /// RUNNING or NOT_RUNNING (shown as Paused).
    pub ad_group_serving_status: String,
    pub display_status: Option<String>,
    pub default_bid_amount: Option<Money>,
    pub cpa_goal: Option<Money>,
    /// Search Match.
    pub automated_keywords_opt_in: bool,
    pub start_time: Option<String>,
    pub end_time: Option<String>,
    pub modification_time: Option<String>,
    pub deleted: bool,
}

fn ad_group_item(g: &AdGroupRow, c: &CampaignRow) -> AdGroupItem {
    let body = body_of(g.body.as_deref());
    let currency = c.currency.as_deref();
    AdGroupItem {
        ad_group_id: g.id,
        ad_group_name: g.name.clone(),
        campaign_id: g.campaign_id,
        org_id: c.org_id,
        status: g.status.clone(),
        ad_group_serving_status: serving_status(&body, g.display_status.as_deref()),
        display_status: g.display_status.clone(),
        default_bid_amount: g
            .default_bid_micros
            .map(|m| Money::from_micros(m, currency)),
        cpa_goal: g.cpa_goal_micros.map(|m| Money::from_micros(m, currency)),
        automated_keywords_opt_in: g.automated_keywords_opt_in,
        start_time: g.start_time.clone(),
        end_time: g.end_time.clone(),
        modification_time: g.modification_time.clone(),
        deleted: g.deleted,
    }
}

/// The ad groups of campaign `id` (not deleted; with `includeDeleted=true` all), by name.
#[utoipa::path(get, path = "/api/asa/groups/{id}", operation_id = "ad_groups_of_campaign", tag = "campaigns",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"),
           ("accountId" = Option<String>, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Campaign group"),
           ("includeDeleted" = Option<bool>, Query, description = "List deleted ad groups too")),
    responses((status = 200, description = "The campaign's ad groups", body = Envelope<Items<AdGroupItem>>),
              (status = 400, description = "Ambiguous campaign or invalid query", body = ErrorBody)))]
pub async fn ad_groups(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign>,
    ApiQuery(query): ApiQuery<ListQuery>,
) -> ApiResult<impl IntoResponse> {
    let include_deleted = flag("includeDeleted", query.include_deleted.as_deref())?;
    let c = pick(campaign.item.0, &query.scope)?;
    let rows =
        store::campaign_views::ad_groups(&state.db.pool, c.org_key, c.id, include_deleted).await?;
    Ok(envelope::items(
        rows.iter().map(|g| ad_group_item(g, &c)).collect(),
    ))
}

/// One ad group with its settings and targeting.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdGroupDetail {
    #[serde(flatten)]
    pub group: AdGroupItem,
    /// CPC (cost per tap) or CPM.
    pub pricing_model: Option<String>,
    /// The provider's targeting dimensions (age, gender, device class, locality,
    /// app downloaders, ...), as synced; null when the ad group has none.
    #[schema(value_type = Option<Object>)]
    pub targeting_dimensions: Value,
    pub serving_state_reasons: Vec<String>,
}

/// Ad group `b` of campaign `a` with its settings and targeting (deleted ones too).
#[utoipa::path(get, path = "/api/asa/groups/{a}/{b}", tag = "campaigns",
    params(("a" = i64, Path, description = "Campaign id (Apple's)"),
           ("b" = i64, Path, description = "Ad group id (Apple's), of that campaign"),
           ("accountId" = Option<String>, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Campaign group")),
    responses((status = 200, description = "The ad group", body = Envelope<Item<AdGroupDetail>>),
              (status = 400, description = "Ambiguous campaign or invalid orgId", body = ErrorBody)))]
pub async fn ad_group(
    State(state): State<AppState>,
    campaign: InWorkspace<CampaignOfAdGroup>,
    ApiPath(path): ApiPath<(String, String)>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    let not_found = || ApiError::not_found("Ad group");
    let id = path.1.trim().parse::<i64>().map_err(|_| not_found())?;
    let g = store::campaign_views::ad_group(&state.db.pool, c.org_key, c.id, id)
        .await?
        .ok_or_else(not_found)?;
    let body = body_of(g.body.as_deref());
    Ok(envelope::item(AdGroupDetail {
        group: ad_group_item(&g, &c),
        pricing_model: body["pricingModel"].as_str().map(str::to_string),
        targeting_dimensions: body["targetingDimensions"].clone(),
        serving_state_reasons: strings(&body["servingStateReasons"]),
    }))
}
