//! This month's spend and impression forecasts per campaign
//! (`asa/reports/calculateForecasts`; `spendForecast` and `impressionsForecast` are
//! Growth-only, docs/product.md#6-growth-only-metrics).
//!
//! Forecast (documented in the OpenAPI too): for an as-of day D (the body's `date`, else the
//! newest synced day of the campaign group), month-to-date = the sums of days 1..=D of D's
//! month; daily run rate = the sums of the 7 days ending at D divided by 7 (days without
//! rows count as 0); forecast = month-to-date + run rate × the days left in the month after
//! D. Spend is computed in micros and floored to the currency's digits once, at the end;
//! impressions are floored to a whole number.

use axum::{extract::State, response::IntoResponse};
use rust_decimal::Decimal;
use searchdeck_common::{
    money::currency::MoneyRule,
    report::{self, Cancel, Context, DateRange, Level, Query},
    store,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use time::Date;
use utoipa::ToSchema;

use super::number;
use crate::{
    access::{InWorkspace, QueriedAccount, ScopeQuery},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    routes::campaigns::{Scope, day_text, growth_locked, hidden::MAX_CAMPAIGN_IDS, parse_day},
    state::AppState,
};

/// Days of the run rate a forecast extends.
pub const RUN_RATE_DAYS: i64 = 7;

/// The Growth-only metrics a forecast answers (docs/product.md#6-growth-only-metrics).
pub const FORECAST_METRICS: [&str; 2] = ["spendForecast", "impressionsForecast"];

/// The body of `asa/reports/calculateForecasts`.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForecastBody {
    /// Only these campaigns; every campaign of the report's universe when absent.
    #[serde(default, with = "searchdeck_common::ids::string_id::option_list")]
    #[schema(value_type = Option<Vec<searchdeck_common::ids::AppleId>>)]
    campaign_ids: Option<Vec<i64>>,
    /// The as-of day D (YYYY-MM-DD); the newest synced day of each campaign group when
    /// absent.
    #[schema(value_type = Option<searchdeck_common::ids::Day>)]
    date: Option<String>,
}

/// One campaign's month so far, run rate and forecast.
#[derive(Debug, Clone, PartialEq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForecastItem {
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub campaign_id: i64,
    pub campaign_name: Option<String>,
    #[serde(with = "searchdeck_common::ids::string_id")]
    #[schema(value_type = String)]
    pub org_id: i64,
    pub currency: Option<String>,
    /// The as-of day D.
    pub as_of: String,
    /// Days of D's month after D.
    pub days_remaining: i64,
    /// Spend of days 1..=D of the month, floored to the currency.
    #[schema(value_type = f64)]
    pub spend_to_date: Value,
    pub impressions_to_date: i64,
    /// Mean daily spend of the 7 days ending at D, floored to the currency.
    #[schema(value_type = f64)]
    pub daily_spend_rate: Value,
    /// Mean daily impressions of the 7 days ending at D (two decimals, floored).
    #[schema(value_type = f64)]
    pub daily_impressions_rate: Value,
    /// spendToDate + daily spend rate × daysRemaining (from micros, floored once); null
    /// when locked (Growth-only, spec §6).
    #[schema(value_type = Option<f64>)]
    pub spend_forecast: Value,
    /// impressionsToDate + daily impressions rate × daysRemaining, floored; null when
    /// locked (Growth-only).
    pub impressions_forecast: Option<i64>,
}

/// Forecasts, with the Growth-only metrics the plan locks.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ForecastAnswer {
    pub items: Vec<ForecastItem>,
    /// Growth-only metrics answered as null because the workspace's plan locks them.
    pub locked: Vec<String>,
}

fn days_in_month(d: Date) -> i64 {
    i64::from(d.month().length(d.year()))
}

/// The forecasts of the campaigns in `scope` (all, or `wanted`) as of `date` (else each
/// campaign group's newest synced day), unlocked; campaign groups without synced metrics
/// and no `date` have none.
pub async fn forecasts(
    state: &AppState,
    workspace_id: &str,
    scope: &Scope,
    date: Option<Date>,
    wanted: Option<&[i64]>,
) -> Result<Vec<ForecastItem>, ApiError> {
    let plan = state.engines.plan(&state.db, workspace_id).await?;
    let mut items = Vec::new();
    for org in &scope.orgs {
        let as_of = match date {
            Some(d) => d,
            None => match org.metrics_through.as_deref() {
                Some(d) => parse_day("date", Some(d))?,
                None => continue,
            },
        };
        let Some(sync) =
            store::report_entities::sync_org_of(&state.db.pool, &org.account_id, org.org_id)
                .await?
        else {
            continue;
        };
        let ctx = Context {
            workspace_id: workspace_id.to_string(),
            account_id: org.account_id.clone(),
            org: Some(sync),
            columns: plan.columns(),
        };
        let month = DateRange {
            from: as_of.replace_day(1).expect("day 1 exists"),
            to: as_of,
        };
        let recent = DateRange {
            from: as_of - time::Duration::days(RUN_RATE_DAYS - 1),
            to: as_of,
        };
        let campaigns =
            |range| Query::totals(Level::Campaigns, range, Default::default(), Vec::new());
        let cancel = Cancel::new();
        let to_date = report::totals(
            &state.db,
            &state.engines.reports,
            &ctx,
            &campaigns(month),
            &cancel,
        )
        .await
        .map_err(ApiError::from)?;
        let last = report::totals(
            &state.db,
            &state.engines.reports,
            &ctx,
            &campaigns(recent),
            &cancel,
        )
        .await
        .map_err(ApiError::from)?;
        let money = MoneyRule::of(org.currency.as_deref());
        let remaining = days_in_month(as_of) - i64::from(as_of.day());
        for row in to_date {
            let Ok(id) = row.id.parse::<i64>() else {
                continue;
            };
            if wanted.is_some_and(|w| !w.contains(&id)) {
                continue;
            }
            let recent = last
                .iter()
                .find(|r| r.id == row.id)
                .map(|r| r.counters)
                .unwrap_or_default();
            let c = row.counters;
            let rate = |v: i64| Decimal::from(v) / Decimal::from(RUN_RATE_DAYS);
            let spend_forecast =
                c.spend_micros() + recent.spend_micros() * remaining / RUN_RATE_DAYS;
            let impressions_forecast =
                c.impressions() + recent.impressions() * remaining / RUN_RATE_DAYS;
            items.push(ForecastItem {
                campaign_id: id,
                campaign_name: row.name,
                org_id: org.org_id,
                currency: org.currency.clone(),
                as_of: day_text(as_of),
                days_remaining: remaining,
                spend_to_date: number(money.micros(c.spend_micros())),
                impressions_to_date: c.impressions(),
                daily_spend_rate: number(
                    money.floor(
                        Decimal::new(recent.spend_micros(), 6) / Decimal::from(RUN_RATE_DAYS),
                    ),
                ),
                daily_impressions_rate: number(
                    rate(recent.impressions()).round_dp_with_strategy(
                        2,
                        rust_decimal::RoundingStrategy::ToNegativeInfinity,
                    ),
                ),
                spend_forecast: number(money.micros(spend_forecast)),
                impressions_forecast: Some(impressions_forecast),
            });
        }
    }
    Ok(items)
}

/// This month's spend and impressions so far, the daily run rate of the last 7 days and the
/// forecast to the month's end per campaign of the scope (`accountId`, `orgId`): see the
/// module's rule. `spendForecast` and `impressionsForecast` are Growth-only (spec §6): null
/// and listed in `locked` unless the workspace's plan allows them. A POST read.
#[utoipa::path(post, path = "/api/asa/reports/calculateForecasts", tag = "campaigns",
    params(("accountId" = String, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Campaign group; all of the account's in use when absent")),
    request_body = ForecastBody,
    responses((status = 200, description = "Forecasts per campaign", body = Envelope<ForecastAnswer>),
              (status = 400, description = "Invalid date, orgId or campaign ids", body = ErrorBody),
              (status = 503, description = "Syncs replaced the data while it was read; try again", body = ErrorBody)))]
pub async fn calculate_forecasts(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<ForecastBody>,
) -> ApiResult<impl IntoResponse> {
    let workspace_id = account.caller.workspace_id.clone();
    let scope = Scope::resolve(&state, account.item.0, query.org_id()?).await?;
    let date = match body.date.as_deref() {
        Some(raw) => Some(parse_day("date", Some(raw))?),
        None => None,
    };
    if body
        .campaign_ids
        .as_ref()
        .is_some_and(|ids| ids.len() > MAX_CAMPAIGN_IDS)
    {
        return Err(ApiError::field(
            "campaignIds",
            &format!("At most {} campaigns at once", MAX_CAMPAIGN_IDS),
        ));
    }
    let mut items = forecasts(
        &state,
        &workspace_id,
        &scope,
        date,
        body.campaign_ids.as_deref(),
    )
    .await?;
    let locked = growth_locked(&state, &workspace_id, &FORECAST_METRICS).await?;
    if !locked.is_empty() {
        for item in &mut items {
            item.spend_forecast = Value::Null;
            item.impressions_forecast = None;
        }
    }
    Ok(envelope::ok(ForecastAnswer { items, locked }))
}
