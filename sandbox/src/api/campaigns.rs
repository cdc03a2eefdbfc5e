//! Campaigns: `POST /campaigns`, `POST /campaigns/query`, `GET|PUT|DELETE /campaigns/{id}`.
//! Writes take effect in the simulation from the next day.

use std::sync::Arc;

use axum::Json;
use axum::extract::{Path, State};
use serde::Deserialize;
use serde::de::IgnoredAny;
use serde_json::Value;

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::rules::{self, BidStrategyIn};
use super::{IncludeExclude, ValueIn, entity, ok, parse_id, parse_time, unsupported_targeting};
use crate::state::Sandbox;
use crate::world::timeline::Timeline;
use crate::world::{Campaign, Id, Lifecycle, Status, World};

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

/// `CampaignTargetingCreate` / `CampaignTargetingUpdate`.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct TargetingIn {
    pub supply_source: Option<IncludeExclude>,
    pub supply_placement: Option<IncludeExclude>,
    pub country_or_region: Option<IncludeExclude>,
}

/// `CampaignCreate`, closed: a field the reference does not list is refused.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
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
    shared_budgets: Option<Vec<Value>>,
    targeting: TargetingIn,
    bid_strategy: Option<BidStrategyIn>,
    #[serde(rename = "invoiceDetail")]
    _invoice_detail: Option<IgnoredAny>,
    #[serde(rename = "regulationResponses")]
    _regulation_responses: Option<IgnoredAny>,
}

/// `CampaignUpdate`, closed.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct CampaignUpdate {
    name: Option<String>,
    start_time: Option<String>,
    end_time: Option<String>,
    status: Option<Status>,
    daily_budget: Option<ValueIn>,
    shared_budgets: Option<Vec<Value>>,
    targeting: Option<TargetingIn>,
    bid_strategy: Option<BidStrategyIn>,
    #[serde(rename = "invoiceDetail")]
    _invoice_detail: Option<IgnoredAny>,
    #[serde(rename = "regulationResponses")]
    _regulation_responses: Option<IgnoredAny>,
}

/// Checks the parts of a campaign write the sandbox does not simulate are absent or say what
/// it simulates: App Store search results, no shared budgets, manual CPT bidding.
fn simulated(
    t: Option<&TargetingIn>,
    shared: Option<&Vec<Value>>,
    bid: Option<&BidStrategyIn>,
) -> Result<(), ApiError> {
    if shared.is_some_and(|s| !s.is_empty()) {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "sharedBudgets",
            "shared budgets are not simulated",
        ));
    }
    if let Some(source) = t.and_then(|t| t.supply_source.as_ref())
        && source.is_set()
        && (source.include.as_deref() != Some(&["APPSTORE_SEARCH_RESULTS".to_string()][..])
            || source.exclude.as_ref().is_some_and(|e| !e.is_empty()))
    {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            "targeting.supplySource",
            "the sandbox simulates APPSTORE_SEARCH_RESULTS campaigns",
        ));
    }
    unsupported_targeting(
        t.and_then(|t| t.supply_placement.as_ref()),
        "targeting.supplyPlacement",
    )?;
    if let Some(b) = bid {
        b.manual_cpt()?;
        if b.bid.is_some() {
            return Err(ApiError::invalid(
                "UNSUPPORTED_VALUE",
                "bidStrategy.bid",
                "MANUAL_CPT campaigns bid per ad group and keyword",
            ));
        }
    }
    Ok(())
}

/// Checked storefront codes.
fn countries(t: &TargetingIn) -> Result<Option<Vec<String>>, ApiError> {
    let field = "targeting.countryOrRegion";
    if t.country_or_region
        .as_ref()
        .and_then(|c| c.exclude.as_ref())
        .is_some_and(|e| !e.is_empty())
    {
        return Err(ApiError::invalid(
            "UNSUPPORTED_VALUE",
            format!("{field}.exclude"),
            "campaigns list the countries or regions they include",
        ));
    }
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

/// Refuses a name another live campaign of the ad account has.
fn unique_name(w: &World, account: Id, name: &str, except: Option<Id>) -> Result<(), ApiError> {
    if w.campaigns.values().any(|c| {
        c.ad_account_id == account && !c.life.deleted() && c.name == name && Some(c.id) != except
    }) {
        return Err(ApiError::invalid(
            "DUPLICATE_NAME",
            "name",
            format!("a campaign named {name:?} already exists"),
        ));
    }
    Ok(())
}

/// A checked daily budget.
fn budget(v: &ValueIn, currency: &str) -> Result<i64, ApiError> {
    let field = "dailyBudget.value";
    let micros = v
        .value
        .as_ref()
        .ok_or_else(|| ApiError::required(field))?
        .micros(field, currency)?;
    rules::at_least(micros, rules::min_daily_budget(currency), field, currency)
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
    rules::name(&b.name, "name", rules::MAX_NAME)?;
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
    simulated(
        Some(&b.targeting),
        b.shared_budgets.as_ref(),
        b.bid_strategy.as_ref(),
    )?;
    let start = parse_time(b.start_time.as_deref(), "startTime")?;
    let end = parse_time(b.end_time.as_deref(), "endTime")?;
    let countries = countries(&b.targeting)?
        .ok_or_else(|| ApiError::required("targeting.countryOrRegion.include"))?;
    let mut w = s.world.write();
    let currency = w.accounts[&ctx.0].currency;
    let budget = budget(&b.daily_budget, currency)?;
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
    rules::sold_in(&w, adam_id, &countries, "targeting.countryOrRegion.include")?;
    unique_name(&w, ctx.0, &b.name, None)?;
    let now = w.now;
    let start = start.unwrap_or(now);
    rules::time_order(start, end)?;
    let from = w.effective_day(ctx.0);
    let id = w.next_id();
    let life = Lifecycle::new(from, b.status.unwrap_or(Status::Enabled), now);
    let campaign = Campaign {
        id,
        ad_account_id: ctx.0,
        name: b.name,
        adam_id,
        countries,
        daily_budget: Timeline::new(from, budget),
        start_time: start,
        end_time: end,
        life,
        countries_before: Vec::new(),
        system_reasons: Vec::new(),
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
    let current = entity::live::<Campaign>(&w, ctx.0, id)?;
    let (adam_id, old_start, old_end) = (current.adam_id, current.start_time, current.end_time);
    if let Some(name) = &b.name {
        rules::name(name, "name", rules::MAX_NAME)?;
        unique_name(&w, ctx.0, name, Some(id))?;
    }
    simulated(
        b.targeting.as_ref(),
        b.shared_budgets.as_ref(),
        b.bid_strategy.as_ref(),
    )?;
    let budget = b
        .daily_budget
        .as_ref()
        .filter(|d| d.value.is_some())
        .map(|d| budget(d, currency))
        .transpose()?;
    let countries = b.targeting.as_ref().map(countries).transpose()?.flatten();
    if let Some(c) = &countries {
        rules::sold_in(&w, adam_id, c, "targeting.countryOrRegion.include")?;
    }
    let start = parse_time(b.start_time.as_deref(), "startTime")?;
    let end = parse_time(b.end_time.as_deref(), "endTime")?;
    rules::time_order(start.unwrap_or(old_start), end.or(old_end))?;
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
            c.keep_countries_before(from);
            c.countries = v;
        }
        if let Some(v) = start {
            c.start_time = v;
        }
        if end.is_some() {
            c.end_time = end;
        }
    });
    Ok(ok(after))
}
