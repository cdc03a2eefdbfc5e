//! Ad groups: `POST /adgroups`, `POST /adgroups/query`, `GET|PUT|DELETE /adgroups/{id}`.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::{
    IncludeExclude, MoneyIn, ValueIn, entity, micros_opt, non_blank, ok, parse_id, parse_time,
};
use crate::state::Sandbox;
use crate::world::{AdGroup, Campaign, Lifecycle, Status};

/// Fields `POST /adgroups/query` filters and sorts on.
pub const FIELDS: &[&str] = &[
    "id",
    "name",
    "adAccountId",
    "campaignId",
    "startTime",
    "endTime",
    "pricingModel",
    "automatedKeywordsOptIn",
    "status",
    "systemStatus",
    "displayStatus",
    "cpaCap",
    "creationTime",
    "modificationTime",
    "deleted",
];

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PricingModel {
    Cpa,
    Cpm,
    Cpt,
}

#[derive(Debug, Deserialize)]
pub struct BidStrategyIn {
    bid: Option<MoneyIn>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetingIn {
    device_class: Option<IncludeExclude>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdGroupCreate {
    name: String,
    campaign_id: i64,
    start_time: Option<String>,
    end_time: Option<String>,
    pricing_model: PricingModel,
    automated_keywords_opt_in: Option<bool>,
    status: Option<Status>,
    bid_strategy: Option<BidStrategyIn>,
    cpa_cap: Option<ValueIn>,
    targeting: Option<TargetingIn>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AdGroupUpdate {
    name: Option<String>,
    end_time: Option<String>,
    automated_keywords_opt_in: Option<bool>,
    status: Option<Status>,
    bid_strategy: Option<BidStrategyIn>,
    cpa_cap: Option<ValueIn>,
}

const DEVICES: &[&str] = &["IPHONE", "IPAD"];

fn devices(t: Option<&TargetingIn>) -> Result<Vec<&'static str>, ApiError> {
    let Some(list) = t
        .and_then(|t| t.device_class.as_ref())
        .and_then(|d| d.include.as_ref())
    else {
        return Ok(DEVICES.to_vec());
    };
    list.iter()
        .map(|d| {
            DEVICES.iter().find(|x| **x == d).copied().ok_or_else(|| {
                ApiError::invalid(
                    "INVALID_ENUM_VALUE",
                    "targeting.deviceClass.include",
                    format!("unknown device class {d}; expected IPHONE or IPAD"),
                )
            })
        })
        .collect()
}

pub async fn create(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<AdGroupCreate>,
) -> Result<Json<Value>, ApiError> {
    non_blank(&b.name, "name")?;
    if b.pricing_model != PricingModel::Cpt {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "pricingModel",
            "search ad groups are priced CPT",
        ));
    }
    let start = parse_time(b.start_time.as_deref(), "startTime")?;
    let end = parse_time(b.end_time.as_deref(), "endTime")?;
    let device_classes = devices(b.targeting.as_ref())?;
    let mut w = s.world.write();
    let currency = w.accounts[&ctx.0].currency;
    if w.ad_groups
        .values()
        .any(|g| g.campaign_id == b.campaign_id && !g.life.deleted() && g.name == b.name.trim())
    {
        return Err(ApiError::invalid(
            "DUPLICATE_NAME",
            "name",
            format!(
                "an ad group named {:?} already exists in this campaign",
                b.name
            ),
        ));
    }
    entity::live_parent::<Campaign>(&w, ctx.0, b.campaign_id, "campaignId")?;
    let bid = b
        .bid_strategy
        .as_ref()
        .and_then(|s| s.bid.as_ref())
        .ok_or_else(|| ApiError::required("bidStrategy.bid"))?
        .micros("bidStrategy.bid", currency)?;
    let cpa_cap = micros_opt(
        b.cpa_cap.as_ref().and_then(|c| c.value.as_ref()),
        "cpaCap.value",
        currency,
    )?;
    let now = w.now;
    let from = w.effective_day();
    let id = w.next_id();
    let life = Lifecycle::new(from, b.status.unwrap_or(Status::Enabled), now);
    let group = AdGroup {
        id,
        campaign_id: b.campaign_id,
        ad_account_id: ctx.0,
        name: b.name,
        default_bid: bid,
        cpa_cap,
        automated_keywords_opt_in: b.automated_keywords_opt_in.unwrap_or(false),
        device_classes,
        start_time: start.unwrap_or(now),
        end_time: end,
        life,
    };
    w.begin_txn();
    Ok(ok(entity::insert(&mut w, id, group)))
}

pub async fn update(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<AdGroupUpdate>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "ad group")?;
    let mut w = s.world.write();
    let currency = w.accounts[&ctx.0].currency;
    entity::live::<AdGroup>(&w, ctx.0, id)?;
    if let Some(name) = &b.name {
        non_blank(name, "name")?;
    }
    let bid = micros_opt(
        b.bid_strategy.as_ref().and_then(|s| s.bid.as_ref()),
        "bidStrategy.bid",
        currency,
    )?;
    let cpa_cap = micros_opt(
        b.cpa_cap.as_ref().and_then(|c| c.value.as_ref()),
        "cpaCap.value",
        currency,
    )?;
    let end = parse_time(b.end_time.as_deref(), "endTime")?;
    w.begin_txn();
    let after = entity::modify(&mut w, id, |g: &mut AdGroup, from| {
        if let Some(name) = b.name {
            g.name = name;
        }
        if let Some(status) = b.status {
            g.life.status.set(from, status);
        }
        if let Some(v) = bid {
            g.default_bid = v;
        }
        if cpa_cap.is_some() {
            g.cpa_cap = cpa_cap;
        }
        if let Some(v) = b.automated_keywords_opt_in {
            g.automated_keywords_opt_in = v;
        }
        if end.is_some() {
            g.end_time = end;
        }
    });
    Ok(ok(after))
}
