//! A campaign row's additional info (`asa/reports/additionalInfo/{id}`): what the campaign
//! holds (ad groups, keywords, negative keywords, ads), where it runs, its app and the app's
//! custom product pages, shown when a row of the campaigns table is expanded.

use axum::{extract::State, response::IntoResponse};
use searchdeck_common::store;
use serde::Serialize;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use crate::{
    access::{Campaign, InWorkspace, ScopeQuery, pick},
    envelope::{self, Envelope, Item},
    error::{ApiResult, ErrorBody},
    extract::ApiQuery,
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(route!(additional_info))
}

/// The promoted app, as synced.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AppInfo {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub adam_id: i64,
    pub app_name: String,
    pub developer_name: Option<String>,
}

/// A custom product page of the app.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProductPageInfo {
    pub id: String,
    pub name: String,
    /// The provider's state (e.g. VISIBLE, HIDDEN).
    pub state: Option<String>,
}

/// What a campaign holds; deleted entities are not counted.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdditionalInfo {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    pub account_id: String,
    pub ad_groups: i64,
    /// Ad groups whose display status is RUNNING.
    pub running_ad_groups: i64,
    /// Keywords in the campaign's ad groups.
    pub keywords: i64,
    /// Negative keywords of the campaign and of its ad groups.
    pub negative_keywords: i64,
    pub ads: i64,
    pub countries_or_regions: Vec<String>,
    /// The app; null when the campaign has none or it is not synced.
    pub app: Option<AppInfo>,
    /// The app's custom product pages, by name.
    pub product_pages: Vec<ProductPageInfo>,
}

/// The additional info of campaign `id` (a POST read: the web app asks it per expanded row).
/// `accountId` and `orgId` narrow it when several connections reach its campaign group.
#[utoipa::path(post, path = "/api/asa/reports/additionalInfo/{id}", tag = "campaigns",
    params(("id" = i64, Path, description = "Campaign id (Apple's)"),
           ("accountId" = Option<String>, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Campaign group")),
    responses((status = 200, description = "The campaign's additional info", body = Envelope<Item<AdditionalInfo>>),
              (status = 400, description = "Ambiguous campaign or invalid orgId", body = ErrorBody)))]
pub async fn additional_info(
    State(state): State<AppState>,
    campaign: InWorkspace<Campaign>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
) -> ApiResult<impl IntoResponse> {
    let c = pick(campaign.item.0, &query)?;
    let pool = &state.db.pool;
    let counts = store::campaign_views::campaign_counts(pool, c.org_key, c.id).await?;
    let (app, product_pages) = match c.adam_id {
        Some(adam_id) => (
            store::campaign_views::app(pool, c.org_key, adam_id).await?,
            store::campaign_views::product_pages(pool, c.org_key, adam_id).await?,
        ),
        None => (None, Vec::new()),
    };
    let countries = c
        .countries
        .as_deref()
        .and_then(|s| serde_json::from_str::<Vec<String>>(s).ok())
        .unwrap_or_default();
    Ok(envelope::item(AdditionalInfo {
        campaign_id: c.id,
        org_id: c.org_id,
        account_id: c.account_id.clone(),
        ad_groups: counts.ad_groups,
        running_ad_groups: counts.running_ad_groups,
        keywords: counts.keywords,
        negative_keywords: counts.negative_keywords,
        ads: counts.ads,
        countries_or_regions: countries,
        app: app.map(|a| AppInfo {
            adam_id: a.adam_id,
            app_name: a.app_name,
            developer_name: a.developer_name,
        }),
        product_pages: product_pages
            .into_iter()
            .map(|p| ProductPageInfo {
                id: p.id,
                name: p.name,
                state: p.state,
            })
            .collect(),
    }))
}
