//! Ad groups: `POST /adgroups`, `POST /adgroups/query`, `GET|PUT|DELETE /adgroups/{id}`.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::rules::{self, BidStrategyIn};
use super::{
    IncludeExclude, ValueIn, entity, micros_opt, ok, parse_id, parse_time, unsupported_targeting,
};
use crate::state::Sandbox;
use crate::world::{AdGroup, Campaign, Id, Lifecycle, Status, World};

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PricingModel {
    Cpa,
    Cpm,
    Cpt,
}

/// `AdGroupTargetingCreate` / `AdGroupTargetingUpdate`: device class is simulated; the
/// other dimensions are refused when they carry values.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TargetingIn {
    device_class: Option<IncludeExclude>,
    country: Option<IncludeExclude>,
    admin_area: Option<IncludeExclude>,
    locality: Option<IncludeExclude>,
    postal_code: Option<IncludeExclude>,
    min_age: Option<IncludeExclude>,
    max_age: Option<IncludeExclude>,
    gender: Option<IncludeExclude>,
    app_category: Option<IncludeExclude>,
    app_downloader: Option<IncludeExclude>,
    daypart: Option<IncludeExclude>,
    radius: Option<IncludeExclude>,
    location_group: Option<IncludeExclude>,
    travel_intent: Option<IncludeExclude>,
}

impl TargetingIn {
    fn simulated(&self) -> Result<(), ApiError> {
        let others = [
            (&self.country, "country"),
            (&self.admin_area, "adminArea"),
            (&self.locality, "locality"),
            (&self.postal_code, "postalCode"),
            (&self.min_age, "minAge"),
            (&self.max_age, "maxAge"),
            (&self.gender, "gender"),
            (&self.app_category, "appCategory"),
            (&self.app_downloader, "appDownloader"),
            (&self.daypart, "daypart"),
            (&self.radius, "radius"),
            (&self.location_group, "locationGroup"),
            (&self.travel_intent, "travelIntent"),
        ];
        for (t, name) in others {
            unsupported_targeting(t.as_ref(), &format!("targeting.{name}"))?;
        }
        Ok(())
    }
}

/// `AdGroupCreate`, closed.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdGroupCreate {
    name: String,
    campaign_id: i64,
    start_time: Option<String>,
    end_time: Option<String>,
    pricing_model: PricingModel,
    automated_keywords_opt_in: Option<bool>,
    status: Option<Status>,
    automated_keywords_required: Option<bool>,
    bid_strategy: Option<BidStrategyIn>,
    cpa_cap: Option<ValueIn>,
    targeting: Option<TargetingIn>,
}

/// `AdGroupUpdate`, closed.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdGroupUpdate {
    name: Option<String>,
    start_time: Option<String>,
    end_time: Option<String>,
    automated_keywords_opt_in: Option<bool>,
    status: Option<Status>,
    automated_keywords_required: Option<bool>,
    bid_strategy: Option<BidStrategyIn>,
    cpa_cap: Option<ValueIn>,
    targeting: Option<TargetingIn>,
}

/// Refuses `automatedKeywordsRequired: true` (ad groups of Search Match only campaigns,
/// which the sandbox does not simulate).
fn keywords_required(v: Option<bool>) -> Result<(), ApiError> {
    if v == Some(true) {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "automatedKeywordsRequired",
            "automatedKeywordsRequired ad groups are not simulated",
        ));
    }
    Ok(())
}

/// A checked default bid of the bid strategy, if it names one.
fn bid(b: Option<&BidStrategyIn>, currency: &str) -> Result<Option<i64>, ApiError> {
    let Some(b) = b else { return Ok(None) };
    b.manual_cpt()?;
    let field = "bidStrategy.bid";
    b.bid
        .as_ref()
        .map(|m| {
            let micros = m.micros(field, currency)?;
            rules::at_least(micros, rules::min_bid(currency), field, currency)
        })
        .transpose()
}

/// Refuses a name another live ad group of the campaign has.
fn unique_name(w: &World, campaign: Id, name: &str, except: Option<Id>) -> Result<(), ApiError> {
    if w.ad_groups.values().any(|g| {
        g.campaign_id == campaign
            && !g.life.deleted()
            && g.name == name.trim()
            && Some(g.id) != except
    }) {
        return Err(ApiError::invalid(
            "DUPLICATE_NAME",
            "name",
            format!("an ad group named {name:?} already exists in this campaign"),
        ));
    }
    Ok(())
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
    rules::name(&b.name, "name", rules::MAX_NAME)?;
    if b.pricing_model != PricingModel::Cpt {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "pricingModel",
            "search ad groups are priced CPT",
        ));
    }
    keywords_required(b.automated_keywords_required)?;
    if let Some(t) = &b.targeting {
        t.simulated()?;
    }
    let start = parse_time(b.start_time.as_deref(), "startTime")?;
    let end = parse_time(b.end_time.as_deref(), "endTime")?;
    let device_classes = devices(b.targeting.as_ref())?;
    let mut w = s.world.write();
    let currency = w.accounts[&ctx.0].currency;
    unique_name(&w, b.campaign_id, &b.name, None)?;
    entity::live_parent::<Campaign>(&w, ctx.0, b.campaign_id, "campaignId")?;
    let bid = bid(b.bid_strategy.as_ref(), currency)?
        .ok_or_else(|| ApiError::required("bidStrategy.bid"))?;
    let cpa_cap = micros_opt(
        b.cpa_cap.as_ref().and_then(|c| c.value.as_ref()),
        "cpaCap.value",
        currency,
    )?;
    let now = w.now;
    let start = start.unwrap_or(now);
    rules::time_order(start, end)?;
    let from = w.effective_day(ctx.0);
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
        start_time: start,
        end_time: end,
        life,
        before: Vec::new(),
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
    let current = entity::live::<AdGroup>(&w, ctx.0, id)?;
    let (campaign, old_start, old_end) =
        (current.campaign_id, current.start_time, current.end_time);
    if let Some(name) = &b.name {
        rules::name(name, "name", rules::MAX_NAME)?;
        unique_name(&w, campaign, name, Some(id))?;
    }
    keywords_required(b.automated_keywords_required)?;
    if let Some(t) = &b.targeting {
        t.simulated()?;
    }
    let devices = b
        .targeting
        .as_ref()
        .filter(|t| t.device_class.as_ref().is_some_and(|d| d.include.is_some()))
        .map(|t| devices(Some(t)))
        .transpose()?;
    let bid = bid(b.bid_strategy.as_ref(), currency)?;
    let cpa_cap = micros_opt(
        b.cpa_cap.as_ref().and_then(|c| c.value.as_ref()),
        "cpaCap.value",
        currency,
    )?;
    let start = parse_time(b.start_time.as_deref(), "startTime")?;
    let end = parse_time(b.end_time.as_deref(), "endTime")?;
    rules::time_order(start.unwrap_or(old_start), end.or(old_end))?;
    w.begin_txn();
    let after = entity::modify(&mut w, id, |g: &mut AdGroup, from| {
        if let Some(name) = b.name {
            g.name = name;
        }
        if let Some(status) = b.status {
            g.life.status.set(from, status);
        }
        if bid.is_some() || b.automated_keywords_opt_in.is_some() || devices.is_some() {
            g.keep_before(from);
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
        if let Some(v) = devices {
            g.device_classes = v;
        }
        if let Some(v) = start {
            g.start_time = v;
        }
        if end.is_some() {
            g.end_time = end;
        }
    });
    Ok(ok(after))
}
