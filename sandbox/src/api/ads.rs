//! Ads: `POST /ads`, `POST /ads/query`, `GET|PUT|DELETE /ads/{id}`. An ad shows one creative
//! (a product page of the campaign's app) in an ad group; an ad group can hold a creative
//! once. New ads serve from the next simulated day; a keyword serves only while its ad
//! group has a serving ad, and ad metrics split the ad group's traffic among its ads.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;
use time::OffsetDateTime;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::query::{self, QueryRequest};
use super::{adgroups, non_blank, ok, parse_id, render};
use crate::state::Sandbox;
use crate::world::timeline::Timeline;
use crate::world::{Ad, Id, Lifecycle, Status, World};

/// Fields `POST /ads/query` filters and sorts on.
pub const FIELDS: &[&str] = &[
    "id",
    "adAccountId",
    "campaignId",
    "adGroupId",
    "creativeId",
    "name",
    "status",
    "systemStatus",
    "displayStatus",
    "creationTime",
    "modificationTime",
    "deleted",
];

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/ads", post(create))
        .route("/ads/query", post(query))
        .route("/ads/{id}", get(get_one).put(update).delete(delete))
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdCreate {
    ad_group_id: i64,
    creative_id: i64,
    name: String,
    status: Status,
}

#[derive(Debug, Deserialize)]
pub struct AdUpdate {
    name: Option<String>,
    status: Option<Status>,
}

fn find(w: &World, account: Id, id: Id) -> Result<&Ad, ApiError> {
    w.ads
        .get(&id)
        .filter(|a| a.ad_account_id == account)
        .ok_or_else(|| ApiError::not_found("ad", id))
}

fn live(w: &World, account: Id, id: Id) -> Result<&Ad, ApiError> {
    let a = find(w, account, id)?;
    if a.life.deleted() {
        return Err(ApiError::invalid(
            "ENTITY_DELETED",
            "id",
            format!("ad {id} is deleted"),
        ));
    }
    Ok(a)
}

async fn get_one(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    Ok(ok(render::ad(&w, find(&w, ctx.0, parse_id(&id, "ad")?)?)))
}

async fn query(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<QueryRequest>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let items = w
        .ads
        .values()
        .filter(|a| a.ad_account_id == ctx.0)
        .map(|a| render::ad(&w, a))
        .collect();
    Ok(Json(query::run(&q, items, FIELDS)?))
}

async fn create(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<AdCreate>,
) -> Result<Json<Value>, ApiError> {
    non_blank(&b.name, "name")?;
    let mut w = s.world.write();
    let group = adgroups::find(&w, ctx.0, b.ad_group_id).map_err(|_| {
        ApiError::invalid(
            "INVALID_VALUE",
            "adGroupId",
            format!("ad group {} not found", b.ad_group_id),
        )
    })?;
    if group.life.deleted() {
        return Err(ApiError::invalid(
            "ENTITY_DELETED",
            "adGroupId",
            "the ad group is deleted",
        ));
    }
    let creative = w
        .creatives
        .get(&b.creative_id)
        .filter(|c| c.ad_account_id == ctx.0 && !c.life.deleted())
        .ok_or_else(|| {
            ApiError::invalid(
                "INVALID_VALUE",
                "creativeId",
                format!("creative {} not found", b.creative_id),
            )
        })?;
    let campaign = &w.campaigns[&group.campaign_id];
    if creative.adam_id != campaign.adam_id {
        return Err(ApiError::invalid(
            "CREATIVE_APP_MISMATCH",
            "creativeId",
            "the creative's app is not the app the campaign promotes",
        ));
    }
    if w.ads
        .values()
        .any(|a| a.ad_group_id == group.id && a.creative_id == creative.id && !a.life.deleted())
    {
        return Err(ApiError::invalid(
            "DUPLICATE_AD",
            "creativeId",
            format!(
                "ad group {} already has an ad for creative {}",
                group.id, creative.id
            ),
        ));
    }
    let (group_id, campaign_id, creative_id) = (group.id, group.campaign_id, creative.id);
    let now = OffsetDateTime::now_utc();
    let from = w.effective_day();
    let ad = Ad {
        id: w.next_id(),
        ad_group_id: group_id,
        campaign_id,
        ad_account_id: ctx.0,
        creative_id,
        name: b.name.trim().to_string(),
        life: Lifecycle {
            status: Timeline::new(from, b.status),
            created: now,
            modified: now,
            serving_from: from,
            deleted_on: None,
        },
    };
    let id = ad.id;
    w.ads.insert(id, ad);
    let after = render::ad(&w, &w.ads[&id]);
    w.begin_txn();
    w.record("Ad", None, &after);
    Ok(ok(after))
}

async fn update(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<AdUpdate>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "ad")?;
    if let Some(name) = &b.name {
        non_blank(name, "name")?;
    }
    let mut w = s.world.write();
    let before = render::ad(&w, live(&w, ctx.0, id)?);
    let from = w.effective_day();
    let a = w.ads.get_mut(&id).expect("found above");
    if let Some(name) = b.name {
        a.name = name.trim().to_string();
    }
    if let Some(status) = b.status {
        a.life.status.set(from, status);
    }
    a.life.modified = OffsetDateTime::now_utc();
    let after = render::ad(&w, &w.ads[&id]);
    w.begin_txn();
    w.record("Ad", Some(&before), &after);
    Ok(ok(after))
}

async fn delete(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "ad")?;
    let mut w = s.world.write();
    let before = render::ad(&w, live(&w, ctx.0, id)?);
    let from = w.effective_day();
    let a = w.ads.get_mut(&id).expect("found above");
    a.life.deleted_on = Some(from);
    a.life.modified = OffsetDateTime::now_utc();
    let after = render::ad(&w, &w.ads[&id]);
    w.begin_txn();
    w.record("Ad", Some(&before), &after);
    Ok(ok(Value::Null))
}
