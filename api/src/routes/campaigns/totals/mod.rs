//! Totals over a date range through the report engine ([`report::totals`]): per connection
//! of the workspace (`asa/reports/totalsForAllAccounts`, the ACCOUNTS level) and per
//! campaign group of a connection (`asa/reports/totalsForCampaignsGroups`, the ORGS level);
//! and this month's spend and impression forecasts per campaign
//! (`asa/reports/calculateForecasts`, the Growth-only `spendForecast` and
//! `impressionsForecast`; [`forecast`]).

mod forecast;

use axum::{extract::State, response::IntoResponse};
use rust_decimal::{Decimal, prelude::ToPrimitive};
use searchdeck_common::{
    money::currency::MoneyRule,
    report::{self, Cancel, Context, DateRange, Level, Metric, Query, RowTotals},
    store::report_facts::Counters,
};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;

pub use forecast::{
    FORECAST_METRICS, ForecastAnswer, ForecastBody, ForecastItem, RUN_RATE_DAYS, forecasts,
};

use super::{Scope, day_text, parse_range};
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
        .routes(route!(forecast::calculate_forecasts))
}

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
