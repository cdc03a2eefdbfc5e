//! Campaigns: `POST /campaigns`, `POST /campaigns/query`, `GET|PUT|DELETE /campaigns/{id}`.
//! Writes take effect in the simulation from the next day.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::{IncludeExclude, ValueIn, entity, micros_opt, non_blank, ok, parse_id, parse_time};
use crate::state::Sandbox;
use crate::world::timeline::Timeline;
use crate::world::{Campaign, Lifecycle, Status};

/// Fields `POST /campaigns/query` filters and sorts on.
pub const FIELDS: &[&str] = &[
    "id",
    "adAccountId",
    "name",
    "billingEvent",
    "paymentModel",
    "startTime",
    "endTime",
    "promotedObjectType",
    "promotedObjectId",
    "status",
    "systemStatus",
    "systemStatusReasons",
    "displayStatus",
    "dailyBudget",
    "creationTime",
    "modificationTime",
    "deleted",
];

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum BillingEvent {
    Impressions,
    Installs,
    Taps,
}

#[derive(Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum PromotedObjectType {
    AppstoreApp,
    BusinessBrand,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TargetingIn {
    pub country_or_region: Option<IncludeExclude>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CampaignCreate {
    ad_account_id: i64,
    name: String,
    billing_event: BillingEvent,
    start_time: Option<String>,
    end_time: Option<String>,
    promoted_object_type: PromotedObjectType,
    promoted_object_id: String,
    status: Option<Status>,
    daily_budget: ValueIn,
    targeting: TargetingIn,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CampaignUpdate {
    name: Option<String>,
    end_time: Option<String>,
    status: Option<Status>,
    daily_budget: Option<ValueIn>,
    targeting: Option<TargetingIn>,
}

/// Checked storefront codes.
fn countries(t: &TargetingIn) -> Result<Option<Vec<String>>, ApiError> {
    let Some(include) = t.country_or_region.as_ref().and_then(|c| c.include.clone()) else {
        return Ok(None);
    };
    let field = "targeting.countryOrRegion.include";
    if include.is_empty()
        || include
            .iter()
            .any(|c| c.len() != 2 || !c.bytes().all(|b| b.is_ascii_uppercase()))
    {
        return Err(ApiError::invalid(
            "INVALID_VALUE",
            field,
            format!("{field} must list ISO 3166-1 alpha-2 codes"),
        ));
    }
    Ok(Some(include))
}

pub async fn create(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(b): Body<CampaignCreate>,
) -> Result<Json<Value>, ApiError> {
    if b.ad_account_id != ctx.0 {
        return Err(ApiError::invalid(
            "INVALID_VALUE",
            "adAccountId",
            "adAccountId must match X-AP-Context",
        ));
    }
    non_blank(&b.name, "name")?;
    if b.billing_event != BillingEvent::Taps {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "billingEvent",
            "the sandbox simulates App Store search campaigns billed on TAPS",
        ));
    }
    if b.promoted_object_type != PromotedObjectType::AppstoreApp {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "promotedObjectType",
            "the sandbox simulates APPSTORE_APP campaigns",
        ));
    }
    let start = parse_time(b.start_time.as_deref(), "startTime")?;
    let end = parse_time(b.end_time.as_deref(), "endTime")?;
    let countries = countries(&b.targeting)?
        .ok_or_else(|| ApiError::required("targeting.countryOrRegion.include"))?;
    let mut w = s.world.write();
    let currency = w.accounts[&ctx.0].currency;
    let budget = b
        .daily_budget
        .value
        .as_ref()
        .ok_or_else(|| ApiError::required("dailyBudget.value"))?
        .micros("dailyBudget.value", currency)?;
    let adam_id: i64 = b.promoted_object_id.parse().map_err(|_| {
        ApiError::invalid(
            "INVALID_VALUE",
            "promotedObjectId",
            "promotedObjectId must be an App Store adamId",
        )
    })?;
    if w.apps.get(&adam_id).and_then(|a| a.owner) != Some(ctx.0) {
        return Err(ApiError::invalid(
            "APP_NOT_ELIGIBLE",
            "promotedObjectId",
            format!("app {adam_id} is not promotable by this ad account"),
        ));
    }
    if w.campaigns
        .values()
        .any(|c| c.ad_account_id == ctx.0 && !c.life.deleted() && c.name == b.name)
    {
        return Err(ApiError::invalid(
            "DUPLICATE_NAME",
            "name",
            format!("a campaign named {:?} already exists", b.name),
        ));
    }
    let now = w.now;
    let from = w.effective_day();
    let id = w.next_id();
    let life = Lifecycle::new(from, b.status.unwrap_or(Status::Enabled), now);
    let campaign = Campaign {
        id,
        ad_account_id: ctx.0,
        name: b.name,
        adam_id,
        countries,
        daily_budget: Timeline::new(from, budget),
        start_time: start.unwrap_or(now),
        end_time: end,
        life,
    };
    w.begin_txn();
    let after = entity::insert(&mut w, id, campaign);
    tracing::info!(
        campaign.id = id,
        account.id = ctx.0,
        "sandbox campaign created"
    );
    Ok(ok(after))
}

pub async fn update(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Path(id): Path<String>,
    Body(b): Body<CampaignUpdate>,
) -> Result<Json<Value>, ApiError> {
    let id = parse_id(&id, "campaign")?;
    let mut w = s.world.write();
    let currency = w.accounts[&ctx.0].currency;
    entity::live::<Campaign>(&w, ctx.0, id)?;
    if let Some(name) = &b.name {
        non_blank(name, "name")?;
    }
    let budget = micros_opt(
        b.daily_budget.as_ref().and_then(|d| d.value.as_ref()),
        "dailyBudget.value",
        currency,
    )?;
    let countries = b.targeting.as_ref().map(countries).transpose()?.flatten();
    let end = parse_time(b.end_time.as_deref(), "endTime")?;
    w.begin_txn();
    let after = entity::modify(&mut w, id, |c: &mut Campaign, from| {
        if let Some(name) = b.name {
            c.name = name;
        }
        if let Some(status) = b.status {
            c.life.status.set(from, status);
        }
        if let Some(v) = budget {
            c.daily_budget.set(from, v);
        }
        if let Some(v) = countries {
            c.countries = v;
        }
        if end.is_some() {
            c.end_time = end;
        }
    });
    Ok(ok(after))
}
