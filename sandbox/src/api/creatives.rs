//! Creatives (`POST /creatives`, `POST /creatives/query`, `GET|PUT|DELETE /creatives/{id}`)
//! and the product pages they point at (`POST /product-pages/query`,
//! `GET /product-pages/{productPageId}`; product pages are made in App Store Connect, so
//! v1 only reads them). A deleted creative stops its ads from serving the next day.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::query::{self, QueryRequest};
use super::rules;
use super::{crud, entity, ok, parse_id, render};
use crate::state::Sandbox;
use crate::world::{Creative, CreativeType, Id, Lifecycle, Status, World};

/// Fields `POST /product-pages/query` filters and sorts on.
pub const PAGE_FIELDS: &[&str] = &["id", "adamId", "name", "state", "creationTime"];

pub fn router() -> Router<Arc<Sandbox>> {
    crud::routes::<Creative, _, _>(create, update)
        .route("/product-pages/query", post(query_pages))
        .route("/product-pages/{id}", get(get_page))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct DestinationIn {
    destination_type: DestinationType,
    parameters: Option<ParametersIn>,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum DestinationType {
    AppStoreProductPage,
    LocalAdsPlacecard,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ParametersIn {
    adam_id: Option<String>,
    product_page_id: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreativeCreate {
    name: String,
    creative_type: CreativeType,
    #[expect(
        dead_code,
        reason = "accepted as the reference allows; the sandbox keeps no spec"
    )]
    creative_spec: Option<Value>,
    destination: DestinationIn,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CreativeUpdate {
    name: Option<String>,
    #[expect(
        dead_code,
        reason = "accepted as the reference allows; the sandbox keeps no spec"
    )]
    creative_spec: Option<Value>,
}

fn duplicate_name(w: &World, account: Id, name: &str, except: Option<Id>) -> Result<(), ApiError> {
    if w.creatives.values().any(|c| {
        c.ad_account_id == account && !c.life.deleted() && c.name == name && Some(c.id) != except
    }) {
        return Err(ApiError::invalid(
            "DUPLICATE_NAME",
            "name",
            format!("a creative named {name:?} already exists"),
        ));
    }
    Ok(())
}

async fn create(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<CreativeCreate>,
) -> Result<Json<Value>, ApiError> {
    rules::name(&b.name, "name", rules::MAX_NAME)?;
    if b.creative_type == CreativeType::LocalAdsSearchCreative
        || b.destination.destination_type != DestinationType::AppStoreProductPage
    {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "creativeType",
            "the sandbox simulates App Store product page creatives",
        ));
    }
    let params = b
        .destination
        .parameters
        .as_ref()
        .ok_or_else(|| ApiError::required("destination.parameters"))?;
    let adam_id: i64 = params
        .adam_id
        .as_deref()
        .ok_or_else(|| ApiError::required("destination.parameters.adamId"))?
        .parse()
        .map_err(|_| {
            ApiError::invalid(
                "INVALID_VALUE",
                "destination.parameters.adamId",
                "adamId must be an App Store id",
            )
        })?;
    let mut w = s.world.write();
    if w.apps.get(&adam_id).and_then(|a| a.owner) != Some(ctx.0) {
        return Err(ApiError::invalid(
            "APP_NOT_ELIGIBLE",
            "destination.parameters.adamId",
            format!("app {adam_id} is not promotable by this ad account"),
        ));
    }
    let page = match (b.creative_type, params.product_page_id.as_deref()) {
        (CreativeType::CustomProductPage, None) => {
            return Err(ApiError::required("destination.parameters.productPageId"));
        }
        (CreativeType::CustomProductPage, Some(id)) => w
            .product_pages
            .get(id)
            .filter(|p| p.adam_id == adam_id && p.custom),
        (_, _) => w
            .product_pages
            .values()
            .find(|p| p.adam_id == adam_id && !p.custom),
    }
    .ok_or_else(|| {
        ApiError::invalid(
            "INVALID_VALUE",
            "destination.parameters.productPageId",
            "no such product page of this app and type",
        )
    })?
    .id
    .clone();
    duplicate_name(&w, ctx.0, &b.name, None)?;
    let now = w.now;
    let from = w.effective_day(ctx.0);
    let creative = Creative {
        id: w.next_id(),
        ad_account_id: ctx.0,
        name: b.name.trim().to_string(),
        kind: b.creative_type,
        adam_id,
        product_page_id: page,
        life: Lifecycle::new(from, Status::Enabled, now),
    };
    w.begin_txn();
    Ok(ok(entity::insert(&mut w, creative.id, creative)))
}

async fn update(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<CreativeUpdate>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "creative")?;
    let mut w = s.world.write();
    entity::live::<Creative>(&w, ctx.0, id)?;
    if let Some(name) = &b.name {
        rules::name(name, "name", rules::MAX_NAME)?;
        duplicate_name(&w, ctx.0, name, Some(id))?;
    }
    w.begin_txn();
    let after = entity::modify(&mut w, id, |c: &mut Creative, _| {
        if let Some(name) = b.name {
            c.name = name.trim().to_string();
        }
    });
    Ok(ok(after))
}

/// Product pages of the apps the ad account promotes.
async fn query_pages(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<QueryRequest>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let items = w
        .product_pages
        .values()
        .filter(|p| w.apps.get(&p.adam_id).and_then(|a| a.owner) == Some(ctx.0))
        .map(render::product_page)
        .collect();
    let mut body = query::run(&q, items, PAGE_FIELDS)?;
    body["error"] = json!(null);
    Ok(Json(body))
}

async fn get_page(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let page = w
        .product_pages
        .get(&id)
        .filter(|p| w.apps.get(&p.adam_id).and_then(|a| a.owner) == Some(ctx.0))
        .ok_or_else(|| ApiError::not_found("product page", &id))?;
    Ok(ok(render::product_page(page)))
}
