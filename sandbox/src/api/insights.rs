//! Discovery and insights: keyword suggestions (`POST /suggestions/keywords/query`),
//! impression share (`POST /insights/apps/impression-share/query`) and the query reading
//! the insights endpoints share (search-term popularity, [`super::popularity`], reads its
//! query here too). Popularity comes from the same function that drives the keyword
//! model, so suggestions, insights and metrics agree.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{Value, json};
use time::{Date, Duration, macros::format_description};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::rec_query::{Op, matches, sort_rows};
use super::report_request::{Filter, Pagination, Sort};
use crate::metrics::{mix_pub, popularity, unit};
use crate::sim::Simulation;
use crate::state::Sandbox;
use crate::world::{Id, World};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new().route(
        "/insights/apps/impression-share/query",
        post(impression_share),
    )
}

#[derive(Debug, Deserialize)]
pub struct Query {
    pub(super) filters: Option<Vec<Filter>>,
    sorting: Option<Vec<Sort>>,
    pagination: Option<Pagination>,
    #[serde(rename = "timeRange")]
    time_range: Option<Range>,
    #[expect(
        dead_code,
        reason = "FIRST_SLOT and ALL_SLOTS answer alike in the sandbox"
    )]
    options: Option<Value>,
}

#[derive(Debug, Deserialize)]
pub struct Range {
    start: Option<String>,
    end: Option<String>,
    granularity: Option<String>,
}

/// String values of the filter on `field` (EQUALS / IN), if any.
pub(super) fn filter_values(q: &Query, field: &str) -> Option<Vec<String>> {
    q.filters
        .as_ref()?
        .iter()
        .find(|f| f.field.as_deref() == Some(field))
        .map(|f| match &f.value {
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| {
                    v.as_str()
                        .map(str::to_string)
                        .unwrap_or_else(|| v.to_string())
                })
                .collect(),
            Some(Value::String(s)) => vec![s.clone()],
            Some(v) => vec![v.to_string()],
            None => vec![],
        })
}

/// Fields of `ImpressionShareRow` a filter may name.
const IMPRESSION_FIELDS: &[&str] = &[
    "day",
    "week",
    "appName",
    "promotedObjectId",
    "countryOrRegion",
    "searchTerm",
    "lowImpressionShare",
    "highImpressionShare",
    "rank",
    "searchPopularity1to5",
];

/// A checked row filter: field, operator, values.
pub(super) struct RowFilter {
    field: String,
    op: Op,
    values: Vec<String>,
}

/// The query's filters (but the `required` ones) checked against the rows' `fields`, with
/// the reference's operators; a filter on a field the rows lack is refused.
pub(super) fn row_filters(
    q: &Query,
    fields: &[&str],
    required: &[&str],
) -> Result<Vec<RowFilter>, ApiError> {
    let mut out = Vec::new();
    for (i, f) in q.filters.iter().flatten().enumerate() {
        let field = f.field.as_deref().unwrap_or_default();
        if required.contains(&field) {
            continue;
        }
        if !fields.contains(&field) {
            return Err(ApiError::invalid(
                "INVALID_FIELD",
                format!("filters[{i}].field"),
                format!(
                    "{field:?} is not a field of these rows; use one of {}",
                    fields.join(", ")
                ),
            ));
        }
        let at = format!("filters[{i}].operator");
        let op = Op::parse(f.operator.as_deref().unwrap_or("EQUALS"), &at)?;
        let values = match &f.value {
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect(),
            Some(Value::String(s)) => vec![s.clone()],
            Some(v) => vec![v.to_string()],
            None => vec![],
        };
        out.push(RowFilter {
            field: field.to_string(),
            op,
            values,
        });
    }
    Ok(out)
}

/// Whether `row` passes every filter.
pub(super) fn passes(row: &Value, filters: &[RowFilter]) -> bool {
    passes_by(filters, |field| row[field].clone())
}

/// Whether a row whose field values `get` answers passes every filter.
pub(super) fn passes_by(filters: &[RowFilter], get: impl Fn(&str) -> Value) -> bool {
    filters
        .iter()
        .all(|f| matches(&get(&f.field), f.op, &f.values, false))
}

fn required_filter(q: &Query, field: &str) -> Result<Vec<String>, ApiError> {
    filter_values(q, field)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| {
            ApiError::invalid(
                "MISSING_REQUIRED_FILTER",
                "filters",
                format!("a {field} filter is required"),
            )
        })
}

/// The owned app named by the `promotedObjectId` filter.
fn app_filter(w: &World, account: Id, q: &Query) -> Result<i64, ApiError> {
    let id = required_filter(q, "promotedObjectId")?[0].clone();
    id.parse::<i64>()
        .ok()
        .filter(|a| w.apps.get(a).and_then(|x| x.owner) == Some(account))
        .ok_or_else(|| {
            ApiError::invalid(
                "INVALID_VALUE",
                "filters",
                format!("app {id} is not promoted by this ad account"),
            )
        })
}

pub(super) fn page(q: &Query, default: i64, max: i64) -> Result<(usize, usize), ApiError> {
    let (offset, size) = Pagination::checked(q.pagination.as_ref(), default, max)?;
    Ok((offset as usize, size as usize))
}

/// Sorts rows by up to the given fields, then answers one page with its pagination.
/// The query's `(field, descending)` sorts, or `default_sort`.
pub(super) fn sorts(q: &Query, default_sort: &[(&str, bool)]) -> Vec<(String, bool)> {
    match q.sorting.as_deref() {
        Some(s) if !s.is_empty() => s
            .iter()
            .map(|x| {
                (
                    x.field.clone().unwrap_or_default(),
                    x.order == Some(super::query::SortOrder::Desc),
                )
            })
            .collect(),
        _ => default_sort
            .iter()
            .map(|(f, d)| ((*f).to_string(), *d))
            .collect(),
    }
}

fn paged(
    mut rows: Vec<Value>,
    q: &Query,
    default_sort: &[(&str, bool)],
    (offset, size): (usize, usize),
) -> Value {
    let sorts = sorts(q, default_sort);
    sort_rows(&mut rows, &sorts);
    let total = rows.len();
    let rows: Vec<Value> = rows.into_iter().skip(offset).take(size).collect();
    json!({ "rows": rows, "pagination": { "offset": offset, "pageSize": size, "totalCount": total } })
}

fn parse_day(s: Option<&str>, field: &str) -> Result<Date, ApiError> {
    let s = s.ok_or_else(|| ApiError::required(field))?;
    Date::parse(s, format_description!("[year]-[month]-[day]")).map_err(|_| {
        ApiError::invalid(
            "INVALID_VALUE",
            field,
            format!("{field} must be YYYY-MM-DD"),
        )
    })
}

/// `(start, end, granularity)` of an insights request, checked against `allowed`.
pub(super) fn range(q: &Query, allowed: &[&str]) -> Result<(Date, Date, String), ApiError> {
    let r = q
        .time_range
        .as_ref()
        .ok_or_else(|| ApiError::required("timeRange"))?;
    let start = parse_day(r.start.as_deref(), "timeRange.start")?;
    let end = parse_day(r.end.as_deref(), "timeRange.end")?;
    let g = r
        .granularity
        .clone()
        .ok_or_else(|| ApiError::required("timeRange.granularity"))?;
    if !allowed.contains(&g.as_str()) {
        return Err(ApiError::invalid(
            "INVALID_ENUM_VALUE",
            "timeRange.granularity",
            format!("granularity must be one of {}", allowed.join(", ")),
        ));
    }
    if end < start || (end - start).whole_days() > 455 {
        return Err(ApiError::invalid(
            "INVALID_DATE_RANGE",
            "timeRange",
            "end must follow start, within 65 weeks",
        ));
    }
    Ok((start, end, g))
}

/// Period starts in `[start, end]`: Sundays for WEEKLY_SUN_SAT, days for DAILY, months.
pub(super) fn periods(start: Date, end: Date, g: &str) -> Vec<(Date, String)> {
    let mut out = Vec::new();
    let mut d = match g {
        "WEEKLY_SUN_SAT" => {
            start - Duration::days(i64::from(start.weekday().number_days_from_sunday()))
        }
        "MONTHLY" => start.replace_day(1).expect("day 1"),
        _ => start,
    };
    while d <= end {
        let label = if g == "MONTHLY" {
            format!("{:04}-{:02}", d.year(), u8::from(d.month()))
        } else {
            d.to_string()
        };
        out.push((d, label));
        d = match g {
            "WEEKLY_SUN_SAT" => d + Duration::days(7),
            "MONTHLY" => (d + Duration::days(32)).replace_day(1).expect("day 1"),
            _ => d + Duration::days(1),
        };
    }
    out
}

/// Impression share of the app's search terms per period and storefront: the app's
/// impressions over the term's searches, banded as the reference describes.
async fn impression_share(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<Query>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    // Served days of every campaign of the app: a long computation, off the async threads.
    super::crud::off_thread(move || impression_share_of(&w, ctx.0, &q))
        .await
        .map(Json)
}

fn impression_share_of(w: &World, account: Id, q: &Query) -> Result<Value, ApiError> {
    let adam_id = app_filter(w, account, q)?;
    let (start, end, g) = range(q, &["DAILY", "WEEKLY_SUN_SAT"])?;
    let mut sim = Simulation::new(w);
    let mut acc: std::collections::BTreeMap<(String, String, String), (u64, f64)> =
        Default::default();
    let campaigns: Vec<Id> = w
        .campaigns
        .values()
        .filter(|c| c.adam_id == adam_id && c.ad_account_id == account)
        .map(|c| c.id)
        .collect();
    let periods = periods(start, end.min(w.today), &g);
    for (i, (p, label)) in periods.iter().enumerate() {
        let next = periods
            .get(i + 1)
            .map_or(end.min(w.today) + Duration::days(1), |x| x.0);
        let mut day = (*p).max(start);
        while day < next {
            for c in &campaigns {
                for (k, t) in sim.campaign_day(*c, day) {
                    if t.impressions == 0 {
                        continue;
                    }
                    let searches = 6.0 * f64::from(popularity(w.seed, &k.text)).powf(1.6);
                    let country = w.campaigns[c]
                        .countries
                        .first()
                        .cloned()
                        .unwrap_or_default();
                    let entry = acc
                        .entry((label.clone(), country, k.text.clone()))
                        .or_default();
                    entry.0 += t.impressions;
                    entry.1 += searches;
                }
            }
            day = day.next_day().expect("date in range");
        }
    }
    let app_name = w.apps[&adam_id].name.clone();
    let key = if g == "DAILY" { "day" } else { "week" };
    let rows: Vec<Value> = acc
        .into_iter()
        .filter(|(_, (imps, _))| *imps >= 10)
        .map(|((label, country, term), (imps, searches))| {
            let share = (imps as f64 / searches.max(1.0)).min(1.0);
            let (low, high) = match (share * 100.0).round() as i64 {
                0 => (0.0, 0.0),
                p if p > 90 => (0.91, 1.0),
                p => ((p as f64 / 10.0).ceil() / 10.0, (p as f64 / 10.0).ceil() / 10.0),
            };
            let rank = 1 + (0..4).filter(|i| unit(mix_pub(&[w.seed, term.len() as u64, *i])) > share).count();
            let pop = i64::from(popularity(w.seed, &term));
            let mut row = json!({
                "appName": app_name, "promotedObjectId": adam_id.to_string(), "countryOrRegion": country,
                "searchTerm": term, "lowImpressionShare": low, "highImpressionShare": high,
                "rank": rank, "searchPopularity1to5": (pop + 19) / 20,
            });
            row[key] = json!(label);
            row
        })
        .collect();
    let filters = row_filters(q, IMPRESSION_FIELDS, &["promotedObjectId"])?;
    let mut rows = rows;
    rows.retain(|r| passes(r, &filters));
    let body = paged(
        rows,
        q,
        &[(key, false), ("searchTerm", false)],
        page(q, 100, 5000)?,
    );
    Ok(
        json!({ "result": { "rows": body["rows"] }, "pagination": body["pagination"], "error": null }),
    )
}
