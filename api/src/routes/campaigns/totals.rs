//! Totals over a date range through the report engine ([`report::totals`]): per connection
//! of the workspace (`asa/reports/totalsForAllAccounts`, the ACCOUNTS level) and per
//! campaign group of a connection (`asa/reports/totalsForCampaignsGroups`, the ORGS level);
//! and this month's spend and impression forecasts per campaign
//! (`asa/reports/calculateForecasts`, the Growth-only `spendForecast` and
//! `impressionsForecast`).
//!
//! Forecast (documented in the OpenAPI too): for an as-of day D (the body's `date`, else the
//! newest synced day of the campaign group), month-to-date = the sums of days 1..=D of D's
//! month; daily run rate = the sums of the 7 days ending at D divided by 7 (days without
//! rows count as 0); forecast = month-to-date + run rate × the days left in the month after
//! D. Spend is computed in micros and floored to the currency's digits once, at the end;
//! impressions are floored to a whole number.

use axum::{extract::State, response::IntoResponse};
use rust_decimal::{Decimal, prelude::ToPrimitive};
use searchdeck_common::{
    money::currency::MoneyRule,
    report::{self, Cancel, Context, DateRange, Level, Metric, Query, RowTotals},
    store::{self, report_facts::Counters},
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use time::Date;
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

use super::{Scope, day_text, growth_locked, parse_day, parse_range};
use crate::{
    access::{InWorkspace, Member, QueriedAccount, ScopeQuery},
    envelope::{self, Envelope},
    error::{ApiError, ApiResult, ErrorBody},
    extract::{ApiJson, ApiQuery},
    route,
    state::AppState,
};

pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(route!(totals_for_all_accounts))
        .routes(route!(totals_for_campaign_groups))
        .routes(route!(calculate_forecasts))
}

/// Days of the run rate a forecast extends.
pub const RUN_RATE_DAYS: i64 = 7;

/// The Growth-only metrics a forecast answers (spec §6).
pub const FORECAST_METRICS: [&str; 2] = ["spendForecast", "impressionsForecast"];

/// The body of the totals routes.
#[derive(Debug, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TotalsBody {
    /// First day (YYYY-MM-DD, in each campaign group's time zone), inclusive.
    #[schema(value_type = searchdeck_common::ids::Day, required = true)]
    start_date: Option<String>,
    /// Last day, inclusive; at most two years after `startDate`.
    #[schema(value_type = searchdeck_common::ids::Day, required = true)]
    end_date: Option<String>,
}

/// One row's totals.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TotalsItem {
    /// The connection's id (ACCOUNTS) or the campaign group's org id as text (ORGS).
    pub id: String,
    pub name: Option<String>,
    /// The row's currency; null for a connection whose campaign groups use several.
    pub currency: Option<String>,
    /// Every metric of the report engine by its spec name (impressions, taps, installs,
    /// newDownloads, redownloads, localSpend, ttr, avgCPT, avgCPM, avgCPA, conversionRate,
    /// IPM and the tap/view/total variants): counts as integers, money floored to the
    /// currency's digits (null when currencies are mixed), ratios as fractions (null
    /// without a denominator).
    #[schema(value_type = Object)]
    pub metrics: Map<String, Value>,
}

/// Totals per row and over all rows.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TotalsAnswer {
    pub items: Vec<TotalsItem>,
    /// The metrics over every row, from the summed counters; money null unless every row
    /// has the same currency.
    #[schema(value_type = Object)]
    pub totals: Map<String, Value>,
    /// The currency shared by every row, if one is.
    pub currency: Option<String>,
    pub start_date: String,
    pub end_date: String,
}

/// A decimal as a JSON number (integers stay integers), like the report engine's values.
fn number(d: Decimal) -> Value {
    let d = d.normalize();
    if d.scale() == 0
        && let Some(i) = d.to_i64()
    {
        return json!(i);
    }
    d.to_f64()
        .and_then(serde_json::Number::from_f64)
        .map_or(Value::Null, Value::Number)
}

/// The metrics of summed `counters`; money (floored by `money`) null without a currency.
fn metrics_of(counters: &Counters, money: Option<&MoneyRule>) -> Map<String, Value> {
    let fallback = MoneyRule::of(None);
    Metric::ALL
        .into_iter()
        .map(|m| {
            let value = match (m.kind(), money) {
                (report::catalog::Kind::Money, None) => None,
                _ => m.value(counters, money.unwrap_or(&fallback)),
            };
            (m.name().to_string(), value.map_or(Value::Null, number))
        })
        .collect()
}

/// The answer for `rows` over `range`.
fn answer(rows: Vec<RowTotals>, range: DateRange) -> TotalsAnswer {
    let mut sum = Counters::default();
    let mut currencies = std::collections::BTreeSet::new();
    for r in &rows {
        sum.add(&r.counters);
        currencies.insert(r.currency.clone());
    }
    let currency = if currencies.len() == 1 {
        currencies.into_iter().next().flatten()
    } else {
        None
    };
    let money = currency.as_deref().map(|c| MoneyRule::of(Some(c)));
    TotalsAnswer {
        totals: metrics_of(&sum, money.as_ref()),
        items: rows
            .into_iter()
            .map(|r| TotalsItem {
                id: r.id,
                name: r.name,
                currency: r.currency,
                metrics: r.metrics,
            })
            .collect(),
        currency,
        start_date: day_text(range.from),
        end_date: day_text(range.to),
    }
}

fn range_of(body: &TotalsBody) -> Result<DateRange, ApiError> {
    let (from, to) = parse_range(body.start_date.as_deref(), body.end_date.as_deref())?;
    Ok(DateRange { from, to })
}

/// Totals of every connection of the caller's workspace over `startDate..=endDate` (the
/// ACCOUNTS level of the report engine: each connection sums the campaign-level metrics of
/// its synced campaign groups), by connection. A POST read: readers may call it.
#[utoipa::path(post, path = "/api/asa/reports/totalsForAllAccounts", tag = "campaigns",
    request_body = TotalsBody,
    responses((status = 200, description = "Totals per connection", body = Envelope<TotalsAnswer>),
              (status = 400, description = "Invalid date range", body = ErrorBody),
              (status = 503, description = "Syncs replaced the data while it was read; try again", body = ErrorBody)))]
pub async fn totals_for_all_accounts(
    State(state): State<AppState>,
    user: Member,
    ApiJson(body): ApiJson<TotalsBody>,
) -> ApiResult<impl IntoResponse> {
    let range = range_of(&body)?;
    let ctx = Context {
        workspace_id: user.workspace_id.clone(),
        account_id: String::new(),
        org: None,
        columns: state
            .engines
            .plan(&state.db, &user.workspace_id)
            .await?
            .columns(),
    };
    let q = Query::totals(Level::Accounts, range, Default::default(), Vec::new());
    let rows = report::totals(&state.db, &state.engines.reports, &ctx, &q, &Cancel::new())
        .await
        .map_err(ApiError::from)?;
    Ok(envelope::ok(answer(rows, range)))
}

/// Totals of each campaign group of the connection (`accountId`; one with `orgId`) over
/// `startDate..=endDate` (the ORGS level of the report engine: every campaign group the
/// connection lists, with zeros until synced), by org id. A POST read.
#[utoipa::path(post, path = "/api/asa/reports/totalsForCampaignsGroups", tag = "campaigns",
    params(("accountId" = String, Query, description = "Account id"),
           ("orgId" = Option<String>, Query, description = "Only this campaign group")),
    request_body = TotalsBody,
    responses((status = 200, description = "Totals per campaign group", body = Envelope<TotalsAnswer>),
              (status = 400, description = "Invalid date range or orgId", body = ErrorBody),
              (status = 503, description = "Syncs replaced the data while it was read; try again", body = ErrorBody)))]
pub async fn totals_for_campaign_groups(
    State(state): State<AppState>,
    account: InWorkspace<QueriedAccount>,
    ApiQuery(query): ApiQuery<ScopeQuery>,
    ApiJson(body): ApiJson<TotalsBody>,
) -> ApiResult<impl IntoResponse> {
    let org_id = query.org_id()?;
    // Checks orgId against the account (400 when not one of its campaign groups).
    let scope = Scope::resolve(&state, account.item.0, org_id).await?;
    let range = range_of(&body)?;
    let ctx = Context {
        workspace_id: account.caller.workspace_id.clone(),
        account_id: scope.account.id.clone(),
        org: None,
        columns: state
            .engines
            .plan(&state.db, &account.caller.workspace_id)
            .await?
            .columns(),
    };
    let q = Query::totals(Level::Orgs, range, Default::default(), Vec::new());
    let rows = report::totals(&state.db, &state.engines.reports, &ctx, &q, &Cancel::new())
        .await
        .map_err(ApiError::from)?
        .into_iter()
        .filter(|r| org_id.is_none_or(|o| r.id == o.to_string()))
        .collect();
    Ok(envelope::ok(answer(rows, range)))
}

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
        .is_some_and(|ids| ids.len() > super::hidden::MAX_CAMPAIGN_IDS)
    {
        return Err(ApiError::field(
            "campaignIds",
            &format!(
                "At most {} campaigns at once",
                super::hidden::MAX_CAMPAIGN_IDS
            ),
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
