//! Custom product page ads at Apple, as the product-page and creative-set routes make and
//! change them: the v1 creative (`CUSTOM_PRODUCT_PAGE`) that shows a page, found or created
//! once per campaign group ([`page_creative`]); one ad per ad group showing it, created
//! exactly once ([`ensure_ads`]: an ad of the group already showing the page is kept, and a
//! create is `AppleAds::create_once_json` keyed on ad group + creative); and ad statuses
//! ([`set_statuses`]). Everything Apple answers is written to our synced tables at once, so
//! the ads show before the next sync.

mod statuses;

use std::collections::HashSet;

use searchdeck_common::{
    ids::now_ms,
    store::{product_ads::AdView, synced::entities},
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Created, Entity, calls::ProductPage};
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

pub use statuses::{StatusItem, checked_status, set_statuses};

use crate::{
    error::{ApiError, ApiResult},
    provider::provider_error,
    state::AppState,
};

/// Longest name Apple accepts for a creative or an ad.
const NAME_MAX: usize = 200;

/// A campaign in one campaign group, as the ads are made in.
#[derive(Debug, Clone)]
pub struct Where {
    pub org_key: i64,
    pub org_id: i64,
    pub campaign_id: i64,
}

fn text(v: &Value) -> Option<String> {
    match v {
        Value::String(s) => Some(s.clone()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}

fn int(v: &Value) -> Option<i64> {
    v.as_i64()
        .or_else(|| v.as_str().and_then(|s| s.parse().ok()))
}

fn decode_error(v: &Value) -> ApiError {
    ApiError::Internal(anyhow::anyhow!(
        "Apple Ads answered an entity without id: {v}"
    ))
}

/// An ad as Apple answered it, as our synced row.
pub fn ad_row(v: &Value) -> ApiResult<entities::Ad> {
    Ok(entities::Ad {
        id: int(&v["id"]).ok_or_else(|| decode_error(v))?,
        campaign_id: int(&v["campaignId"]).ok_or_else(|| decode_error(v))?,
        ad_group_id: int(&v["adGroupId"]).ok_or_else(|| decode_error(v))?,
        creative_id: int(&v["creativeId"]),
        name: text(&v["name"]).unwrap_or_default(),
        status: text(&v["status"]).unwrap_or_default(),
        display_status: text(&v["displayStatus"]),
        system_status: text(&v["systemStatus"]),
        modification_time: text(&v["modificationTime"]),
        deleted: v["deleted"].as_bool().unwrap_or(false),
        body: Some(v.to_string()),
    })
}

/// A creative as Apple answered it, as our synced row.
fn creative_row(v: &Value) -> ApiResult<entities::Creative> {
    Ok(entities::Creative {
        id: int(&v["id"]).ok_or_else(|| decode_error(v))?,
        name: text(&v["name"]).unwrap_or_default(),
        creative_type: text(&v["creativeType"]),
        product_page_id: text(&v["destination"]["parameters"]["productPageId"]),
        system_status: text(&v["systemStatus"]),
        deleted: v["deleted"].as_bool().unwrap_or(false),
        body: Some(v.to_string()),
    })
}

/// Every live entity of `entity` matching `filters`, all pages.
pub async fn query_all(
    client: &dyn AppleAds,
    org_id: i64,
    entity: Entity,
    filters: Vec<Value>,
) -> ApiResult<Vec<Value>> {
    let mut filters = filters;
    filters.push(json!({ "field": "deleted", "operator": "EQUALS", "value": [false] }));
    let mut out = Vec::new();
    loop {
        let query = json!({ "filters": filters,
            "pagination": { "offset": out.len(), "pageSize": 1000 } });
        let page = client
            .query::<Value>(org_id, entity, &query)
            .await
            .map_err(provider_error)?;
        let n = page.items.len();
        out.extend(page.items);
        if n < 1000 || page.total.is_some_and(|t| out.len() as u64 >= t) {
            return Ok(out);
        }
    }
}

/// The product page `page_id` of app `adam_id` at Apple, or 404.
pub async fn product_page(
    client: &dyn AppleAds,
    org_id: i64,
    adam_id: i64,
    page_id: &str,
) -> ApiResult<ProductPage> {
    match client.product_page(org_id, page_id).await {
        Ok(p) if p.adam_id == adam_id => Ok(p),
        Ok(_) | Err(searchdeck_provider::ProviderError::Permanent { status: 404, .. }) => {
            Err(ApiError::not_found("Product page"))
        }
        Err(e) => Err(provider_error(e)),
    }
}

/// The live custom-product-page creatives of the campaign group showing `page`: ids, the
/// one new ads use first. Created (once: looked up by name after an ambiguous failure) when
/// there is none, and stored in our synced creatives.
pub async fn page_creative(
    state: &AppState,
    client: &dyn AppleAds,
    at: &Where,
    page: &ProductPage,
) -> ApiResult<Vec<i64>> {
    let creatives = query_all(
        client,
        at.org_id,
        Entity::Creatives,
        vec![json!({ "field": "creativeType", "operator": "EQUALS", "value": ["CUSTOM_PRODUCT_PAGE"] })],
    )
    .await?;
    let adam = page.adam_id.to_string();
    let mut ids: Vec<i64> = creatives
        .iter()
        .filter(|c| {
            let p = &c["destination"]["parameters"];
            p["productPageId"].as_str() == Some(page.id.as_str())
                && text(&p["adamId"]).as_deref() == Some(adam.as_str())
        })
        .filter_map(|c| int(&c["id"]))
        .collect();
    ids.sort_unstable();
    if !ids.is_empty() {
        return Ok(ids);
    }
    let base = page
        .name
        .clone()
        .unwrap_or_else(|| "Custom product page".into());
    let suffix = format!(" ({})", page.id);
    let name: String = base
        .chars()
        .take(NAME_MAX.saturating_sub(suffix.chars().count()))
        .chain(suffix.chars())
        .collect();
    let body = json!({
        "name": name,
        "creativeType": "CUSTOM_PRODUCT_PAGE",
        "destination": { "destinationType": "APP_STORE_PRODUCT_PAGE",
            "parameters": { "adamId": adam, "productPageId": page.id } },
    });
    let key = json!([{ "field": "name", "operator": "EQUALS", "value": [name] }]);
    let created = client
        .create_once_json(at.org_id, Entity::Creatives, &body, &key)
        .await
        .map_err(provider_error)?
        .into_inner();
    let row = creative_row(&created)?;
    let mut conn = state.db.pool.acquire().await?;
    entities::upsert(
        &mut conn,
        at.org_key,
        std::slice::from_ref(&row),
        now_ms() / 1000,
    )
    .await?;
    tracing::info!(creative.id = row.id, page.id = %page.id, "custom product page creative created");
    Ok(vec![row.id])
}

/// What happened in one ad group.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Ensured {
    #[schema(value_type = String)]
    #[serde(with = "searchdeck_common::ids::string_id")]
    pub ad_group_id: i64,
    #[schema(value_type = String)]
    #[serde(with = "searchdeck_common::ids::string_id")]
    pub ad_id: i64,
    /// False when the ad group already had an ad with this page (kept).
    pub created: bool,
}

/// An ad showing `page` in each of ad groups `groups` of the campaign: kept when one is
/// there, else created exactly once (status ENABLED); every ad stored in our synced ads.
pub async fn ensure_ads(
    state: &AppState,
    client: &dyn AppleAds,
    at: &Where,
    page: &ProductPage,
    groups: &[i64],
) -> ApiResult<Vec<Ensured>> {
    let creatives = page_creative(state, client, at, page).await?;
    let creative_id = creatives[0];
    let of_page: HashSet<i64> = creatives.iter().copied().collect();
    let ads = query_all(
        client,
        at.org_id,
        Entity::Ads,
        vec![json!({ "field": "campaignId", "operator": "EQUALS", "value": [at.campaign_id] })],
    )
    .await?;
    let name: String = page
        .name
        .clone()
        .unwrap_or_else(|| "Custom product page".into())
        .chars()
        .take(NAME_MAX)
        .collect();
    let mut out = Vec::with_capacity(groups.len());
    let mut rows = Vec::with_capacity(groups.len());
    for &group in groups {
        let existing = ads.iter().find(|a| {
            int(&a["adGroupId"]) == Some(group)
                && int(&a["creativeId"]).is_some_and(|c| of_page.contains(&c))
        });
        let (answer, created) = match existing {
            Some(a) => (a.clone(), false),
            None => {
                let body = json!({ "adGroupId": group, "creativeId": creative_id,
                    "name": name, "status": "ENABLED" });
                let key = json!([
                    { "field": "adGroupId", "operator": "EQUALS", "value": [group] },
                    { "field": "creativeId", "operator": "EQUALS", "value": [creative_id] },
                ]);
                match client
                    .create_once_json(at.org_id, Entity::Ads, &body, &key)
                    .await
                    .map_err(provider_error)?
                {
                    Created::New(v) => (v, true),
                    Created::Existing(v) => (v, false),
                }
            }
        };
        let row = ad_row(&answer)?;
        out.push(Ensured {
            ad_group_id: group,
            ad_id: row.id,
            created,
        });
        rows.push(row);
    }
    let mut conn = state.db.pool.acquire().await?;
    entities::upsert(&mut conn, at.org_key, &rows, now_ms() / 1000).await?;
    let made = out.iter().filter(|e| e.created).count();
    tracing::info!(campaign.id = at.campaign_id, page.id = %page.id, created = made, kept = out.len() - made,
        "custom product page ads applied");
    Ok(out)
}

/// An ad as the product-page and creative-set routes answer it.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdItem {
    #[schema(value_type = String)]
    #[serde(with = "searchdeck_common::ids::string_id")]
    pub ad_id: i64,
    #[schema(value_type = String)]
    #[serde(with = "searchdeck_common::ids::string_id")]
    pub ad_group_id: i64,
    pub ad_group_name: Option<String>,
    pub name: String,
    /// ENABLED or PAUSED.
    pub status: String,
    /// Apple's display status (RUNNING, ON_HOLD, PAUSED, …).
    pub serving_status: Option<String>,
    pub product_page_id: Option<String>,
    pub product_page_name: Option<String>,
    #[schema(value_type = Option<String>)]
    #[serde(with = "searchdeck_common::ids::string_id::option")]
    pub creative_id: Option<i64>,
    /// CUSTOM_PRODUCT_PAGE or DEFAULT_PRODUCT_PAGE.
    pub creative_type: Option<String>,
}

impl From<AdView> for AdItem {
    fn from(a: AdView) -> AdItem {
        AdItem {
            ad_id: a.id,
            ad_group_id: a.ad_group_id,
            ad_group_name: a.ad_group_name,
            name: a.name,
            status: a.status,
            serving_status: a.display_status,
            product_page_id: a.product_page_id,
            product_page_name: a.product_page_name,
            creative_id: a.creative_id,
            creative_type: a.creative_type,
        }
    }
}
