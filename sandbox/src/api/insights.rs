//! Discovery and insights: keyword suggestions (`POST /suggestions/keywords/query`),
//! search-term popularity and impression share (`POST /insights/apps/...`). Popularity
//! comes from the same function that drives the keyword model, so suggestions, insights
//! and metrics agree.

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
use super::vocabulary;
use crate::metrics::{mix_pub, popularity, unit};
use crate::sim::Simulation;
use crate::state::Sandbox;
use crate::world::words::{CATEGORIES, COUNTRIES};
use crate::world::{Id, World};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route(
            "/insights/apps/search-term-popularity/query",
            post(term_popularity),
        )
        .route(
            "/insights/apps/impression-share/query",
            post(impression_share),
        )
}

#[derive(Debug, Deserialize)]
pub struct Query {
    filters: Option<Vec<Filter>>,
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
fn filter_values(q: &Query, field: &str) -> Option<Vec<String>> {
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

/// Search terms ranked per genre, storefront and period.
const TERMS_PER_GENRE: usize = 200;

/// Fields of `SearchTermPopularityRow` a filter may name.
const POPULARITY_FIELDS: &[&str] = &[
    "week",
    "month",
    "countryOrRegion",
    "genre",
    "searchTerm",
    "rankInGenre",
    "searchPopularityInGenre",
    "searchPopularity1to100",
    "searchPopularity1to5",
];

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

/// The values to generate rows for when `field` is filtered with EQUALS or IN; every
/// other operator filters the generated rows afterwards.
fn generated(q: &Query, field: &str) -> Result<Option<Vec<String>>, ApiError> {
    let Some(f) = q
        .filters
        .iter()
        .flatten()
        .find(|f| f.field.as_deref() == Some(field))
    else {
        return Ok(None);
    };
    let op = Op::parse(
        f.operator.as_deref().unwrap_or("EQUALS"),
        "filters.operator",
    )?;
    if !matches!(op, Op::Equals | Op::In) {
        return Ok(Some(if field == "genre" {
            CATEGORIES.iter().map(|(c, _)| (*c).to_string()).collect()
        } else {
            COUNTRIES.iter().map(|(c, _)| (*c).to_string()).collect()
        }));
    }
    Ok(filter_values(q, field))
}

/// Keeps the rows every filter (but the `required` ones) passes, with the reference's
/// operators; a filter on a field the rows lack is refused.
fn keep_matching(
    q: &Query,
    rows: &mut Vec<Value>,
    fields: &[&str],
    required: &[&str],
) -> Result<(), ApiError> {
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
        let values: Vec<String> = match &f.value {
            Some(Value::Array(a)) => a
                .iter()
                .map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string))
                .collect(),
            Some(Value::String(s)) => vec![s.clone()],
            Some(v) => vec![v.to_string()],
            None => vec![],
        };
        rows.retain(|r| matches(&r[field], op, &values, false));
    }
    Ok(())
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

fn page(q: &Query, default: i64, max: i64) -> Result<(usize, usize), ApiError> {
    let (offset, size) = Pagination::checked(q.pagination.as_ref(), default, max)?;
    Ok((offset as usize, size as usize))
}

/// Sorts rows by up to the given fields, then answers one page with its pagination.
fn paged(
    mut rows: Vec<Value>,
    q: &Query,
    default_sort: &[(&str, bool)],
    (offset, size): (usize, usize),
) -> Value {
    let sorts: Vec<(String, bool)> = match q.sorting.as_deref() {
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
    };
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
fn range(q: &Query, allowed: &[&str]) -> Result<(Date, Date, String), ApiError> {
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
fn periods(start: Date, end: Date, g: &str) -> Vec<(Date, String)> {
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

async fn term_popularity(
    State(s): State<Arc<Sandbox>>,
    _ctx: AdAccountContext,
    Body(q): Body<Query>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let (start, end, g) = range(&q, &["WEEKLY_SUN_SAT", "MONTHLY"])?;
    let countries = generated(&q, "countryOrRegion")?.unwrap_or_else(|| vec!["US".into()]);
    let genres = generated(&q, "genre")?;
    let mut rows = Vec::new();
    for (p, label) in periods(start, end.min(w.today), &g) {
        for country in &countries {
            for (ci, (genre, _)) in CATEGORIES.iter().enumerate() {
                if genres
                    .as_ref()
                    .is_some_and(|gs| !gs.iter().any(|x| x == genre))
                {
                    continue;
                }
                let drift = |t: &str| {
                    unit(mix_pub(&[
                        w.seed,
                        p.to_julian_day() as u64,
                        t.len() as u64,
                        country.len() as u64,
                    ]))
                };
                let mut terms: Vec<(String, f64)> = vocabulary::terms(&w, ci, TERMS_PER_GENRE)
                    .into_iter()
                    .map(|t| {
                        let v = f64::from(popularity(w.seed, &t)) * (0.9 + 0.2 * drift(&t));
                        (t, v)
                    })
                    .collect();
                terms.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
                let top = terms.first().map_or(1.0, |t| t.1);
                for (rank, (term, v)) in terms.into_iter().enumerate() {
                    let overall = (v.round() as i64).clamp(1, 100);
                    let mut row = json!({
                        "countryOrRegion": country, "genre": genre, "searchTerm": term,
                        "rankInGenre": rank + 1,
                        "searchPopularityInGenre": ((v / top * 100.0).round() as i64).clamp(1, 100),
                        "searchPopularity1to100": overall,
                        "searchPopularity1to5": (overall + 19) / 20,
                    });
                    row[if g == "MONTHLY" { "month" } else { "week" }] = json!(label);
                    rows.push(row);
                }
            }
        }
    }
    keep_matching(&q, &mut rows, POPULARITY_FIELDS, &[])?;
    let body = paged(
        rows,
        &q,
        &[("genre", false), ("rankInGenre", false)],
        page(&q, 100, 5000)?,
    );
    Ok(Json(
        json!({ "result": { "rows": body["rows"] }, "pagination": body["pagination"], "error": null }),
    ))
}

/// Impression share of the app's search terms per period and storefront: the app's
/// impressions over the term's searches, banded as the reference describes.
async fn impression_share(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<Query>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let adam_id = app_filter(&w, ctx.0, &q)?;
    let (start, end, g) = range(&q, &["DAILY", "WEEKLY_SUN_SAT"])?;
    let mut sim = Simulation::new(&w);
    let mut acc: std::collections::BTreeMap<(String, String, String), (u64, f64)> =
        Default::default();
    let campaigns: Vec<Id> = w
        .campaigns
        .values()
        .filter(|c| c.adam_id == adam_id && c.ad_account_id == ctx.0)
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
    let mut rows = rows;
    keep_matching(&q, &mut rows, IMPRESSION_FIELDS, &["promotedObjectId"])?;
    let body = paged(
        rows,
        &q,
        &[(key, false), ("searchTerm", false)],
        page(&q, 100, 5000)?,
    );
    Ok(Json(
        json!({ "result": { "rows": body["rows"] }, "pagination": body["pagination"], "error": null }),
    ))
}
