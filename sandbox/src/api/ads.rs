//! Ads: `POST /ads`, `POST /ads/query`, `GET|PUT|DELETE /ads/{id}`. An ad shows one creative
//! (a product page of the campaign's app) in an ad group; an ad group can hold a creative
//! once. New ads serve from the next simulated day; a keyword serves only while its ad
//! group has a serving ad, and ad metrics split the ad group's traffic among its ads.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::rules;
use super::{crud, entity, ok, parse_id};
use crate::state::Sandbox;
use crate::world::{Ad, AdGroup, Lifecycle, Status};

pub fn router() -> Router<Arc<Sandbox>> {
    crud::routes::<Ad, _, _>(create, update)
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdCreate {
    ad_group_id: i64,
    creative_id: i64,
    name: String,
    status: Status,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdUpdate {
    name: Option<String>,
    status: Option<Status>,
}

async fn create(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<AdCreate>,
) -> Result<Json<Value>, ApiError> {
    rules::name(&b.name, "name", rules::MAX_NAME)?;
    let mut w = s.world.write();
    let group = entity::live_parent::<AdGroup>(&w, ctx.0, b.ad_group_id, "adGroupId")?;
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
    let now = w.now;
    let from = w.effective_day(ctx.0);
    let ad = Ad {
        id: w.next_id(),
        ad_group_id: group_id,
        campaign_id,
        ad_account_id: ctx.0,
        creative_id,
        name: b.name.trim().to_string(),
        life: Lifecycle::new(from, b.status, now),
    };
    w.begin_txn();
    Ok(ok(entity::insert(&mut w, ad.id, ad)))
}

async fn update(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<AdUpdate>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "ad")?;
    if let Some(name) = &b.name {
        rules::name(name, "name", rules::MAX_NAME)?;
    }
    let mut w = s.world.write();
    entity::live::<Ad>(&w, ctx.0, id)?;
    w.begin_txn();
    let after = entity::modify(&mut w, id, |a: &mut Ad, from| {
        if let Some(name) = b.name {
            a.name = name.trim().to_string();
        }
        if let Some(status) = b.status {
            a.life.status.set(from, status);
        }
    });
    Ok(ok(after))
}
