//! Look-ups: app search (`GET /search/apps`) and geo search (`GET|POST /search/geo`, over a
//! small gazetteer of countries, admin areas and localities).

use std::collections::HashMap;
use std::sync::Arc;

use axum::extract::{Query, State};
use axum::routing::get;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use crate::state::Sandbox;
use crate::world::words::COUNTRIES;

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/search/apps", get(apps))
        .route("/search/geo", get(geo_get).post(geo_post))
}

fn number(
    q: &HashMap<String, String>,
    key: &str,
    default: usize,
    max: usize,
) -> Result<usize, ApiError> {
    match q.get(key) {
        None => Ok(default),
        Some(v) => v
            .parse::<usize>()
            .ok()
            .filter(|n| *n <= max)
            .ok_or_else(|| {
                ApiError::invalid(
                    "INVALID_VALUE",
                    key,
                    format!("{key} must be a number up to {max}"),
                )
            }),
    }
}

/// `GET /search/apps?query=&returnOwnedApps=&offset=&limit=`.
async fn apps(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let text = q.get("query").map(|t| t.to_lowercase()).unwrap_or_default();
    let owned = q.get("returnOwnedApps").is_some_and(|v| v == "true");
    let (offset, limit) = (
        number(&q, "offset", 0, usize::MAX)?,
        number(&q, "limit", 20, 1000)?.max(1),
    );
    let storefronts: Vec<&str> = COUNTRIES.iter().map(|c| c.0).collect();
    let found: Vec<Value> = w
        .apps
        .values()
        .filter(|a| !owned || a.owner == Some(ctx.0))
        .filter(|a| text.is_empty() || a.name.to_lowercase().contains(&text) || a.title.to_lowercase().contains(&text))
        .map(|a| json!({ "adamId": a.adam_id, "appName": a.name, "developerName": a.developer, "countryOrRegionCodes": storefronts }))
        .collect();
    let total = found.len();
    let page: Vec<Value> = found.into_iter().skip(offset).take(limit).collect();
    Ok(Json(
        json!({ "result": page, "pagination": { "offset": offset, "pageSize": limit, "totalCount": total }, "error": null }),
    ))
}

/// `(id, legacyId, entity, display name, country, admin area, locality)`.
type Place = (
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    &'static str,
    Option<&'static str>,
    Option<&'static str>,
);

const PLACES: &[Place] = &[
    (
        "6252001",
        "US",
        "Country",
        "United States",
        "US",
        None,
        None,
    ),
    (
        "2635167",
        "GB",
        "Country",
        "United Kingdom",
        "GB",
        None,
        None,
    ),
    ("2921044", "DE", "Country", "Germany", "DE", None, None),
    ("1861060", "JP", "Country", "Japan", "JP", None, None),
    ("3017382", "FR", "Country", "France", "FR", None, None),
    ("6251999", "CA", "Country", "Canada", "CA", None, None),
    ("2077456", "AU", "Country", "Australia", "AU", None, None),
    ("3996063", "MX", "Country", "Mexico", "MX", None, None),
    (
        "5332921",
        "US|CA",
        "AdminArea",
        "California, United States",
        "US",
        Some("CA"),
        None,
    ),
    (
        "5128638",
        "US|NY",
        "AdminArea",
        "New York, United States",
        "US",
        Some("NY"),
        None,
    ),
    (
        "4736286",
        "US|TX",
        "AdminArea",
        "Texas, United States",
        "US",
        Some("TX"),
        None,
    ),
    (
        "2951839",
        "DE|BY",
        "AdminArea",
        "Bavaria, Germany",
        "DE",
        Some("BY"),
        None,
    ),
    (
        "5391959",
        "US|CA|San Francisco",
        "Locality",
        "San Francisco, California, United States",
        "US",
        Some("CA"),
        Some("San Francisco"),
    ),
    (
        "5368361",
        "US|CA|Los Angeles",
        "Locality",
        "Los Angeles, California, United States",
        "US",
        Some("CA"),
        Some("Los Angeles"),
    ),
    (
        "5128581",
        "US|NY|New York",
        "Locality",
        "New York, New York, United States",
        "US",
        Some("NY"),
        Some("New York"),
    ),
    (
        "4671654",
        "US|TX|Austin",
        "Locality",
        "Austin, Texas, United States",
        "US",
        Some("TX"),
        Some("Austin"),
    ),
    (
        "2867714",
        "DE|BY|Munich",
        "Locality",
        "Munich, Bavaria, Germany",
        "DE",
        Some("BY"),
        Some("Munich"),
    ),
];

fn place(p: &Place) -> Value {
    json!({ "id": p.0, "legacyId": p.1, "entity": p.2, "displayName": p.3, "countryOrRegion": p.4, "adminArea": p.5, "locality": p.6 })
}

const ENTITIES: &[&str] = &["Country", "AdminArea", "Locality", "PostalCode"];

fn entity(e: &str) -> Result<&'static str, ApiError> {
    ENTITIES
        .iter()
        .find(|x| x.eq_ignore_ascii_case(e))
        .copied()
        .ok_or_else(|| {
            ApiError::invalid(
                "INVALID_ENUM_VALUE",
                "entity",
                format!("entity must be one of {}", ENTITIES.join(", ")),
            )
        })
}

fn geo_page(found: Vec<Value>, offset: usize, size: usize) -> Json<Value> {
    let total = found.len();
    let page: Vec<Value> = found.into_iter().skip(offset).take(size).collect();
    Json(
        json!({ "result": page, "pagination": { "totalCount": total, "offset": offset, "pageSize": size } }),
    )
}

/// `GET /search/geo?query=&entity=&countrycode=&offset=&pageSize=`.
async fn geo_get(
    _ctx: AdAccountContext,
    Query(q): Query<HashMap<String, String>>,
) -> Result<Json<Value>, ApiError> {
    let text = q.get("query").map(|t| t.to_lowercase()).unwrap_or_default();
    let kind = q.get("entity").map(|e| entity(e)).transpose()?;
    let country = q.get("countrycode").map(|c| c.to_uppercase());
    let found = PLACES
        .iter()
        .filter(|p| kind.is_none_or(|k| k == p.2) && country.as_deref().is_none_or(|c| c == p.4))
        .filter(|p| p.3.to_lowercase().contains(&text))
        .map(place)
        .collect();
    Ok(geo_page(
        found,
        number(&q, "offset", 0, usize::MAX)?,
        number(&q, "pageSize", 20, 1000)?.max(1),
    ))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GeoPost {
    geo_request: Vec<GeoRequest>,
    supply_source: String,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct GeoRequest {
    id: Option<String>,
    legacy_id: Option<String>,
    entity: String,
}

/// `POST /search/geo`: look places up by id or legacy id.
async fn geo_post(_ctx: AdAccountContext, Body(b): Body<GeoPost>) -> Result<Json<Value>, ApiError> {
    if !["APPSTORE", "MAPS"]
        .iter()
        .any(|s| s.eq_ignore_ascii_case(&b.supply_source))
    {
        return Err(ApiError::invalid(
            "INVALID_ENUM_VALUE",
            "supplySource",
            "supplySource must be APPSTORE or MAPS",
        ));
    }
    let mut found = Vec::new();
    for (i, r) in b.geo_request.iter().enumerate() {
        let kind = entity(&r.entity)?;
        let hit = match (&r.id, &r.legacy_id) {
            (Some(id), None) => PLACES.iter().find(|p| p.0 == id),
            (None, Some(code)) => PLACES.iter().find(|p| p.1 == code),
            _ => {
                return Err(ApiError::invalid(
                    "INVALID_VALUE",
                    format!("geoRequest[{i}]"),
                    "give either id or legacyId",
                ));
            }
        };
        found.extend(hit.filter(|p| p.2 == kind).map(place));
    }
    let n = found.len();
    Ok(geo_page(found, 0, n.max(1)))
}
