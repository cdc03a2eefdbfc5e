//! `POST /insights/apps/search-term-popularity/query`: per period (week or month),
//! storefront and genre, the genre's search terms ranked by popularity, with the
//! reference's filters on every row field. Rows stay compact (indices and numbers) until
//! the requested page is rendered, so a 65-week, every-storefront request stays small.

use std::sync::Arc;

use axum::Json;
use axum::extract::State;
use serde_json::{Value, json};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::insights::{Query, filter_values, page, passes, periods, range, row_filters, sorts};
use super::rec_query::{Op, sort_rows};
use super::vocabulary;
use crate::metrics::{mix_pub, popularity, unit};
use crate::state::Sandbox;
use crate::world::words::{CATEGORIES, COUNTRIES};

/// Search terms ranked per genre, storefront and period.
const TERMS_PER_GENRE: usize = 200;

/// The key carrying a kept row's index among its sort values.
const ROW: &str = "\u{0}row";

/// Fields of `SearchTermPopularityRow` a filter may name.
const FIELDS: &[&str] = &[
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

/// One row before rendering: indices into the request's periods, storefronts, genres and
/// the genre's terms.
#[derive(Clone, Copy)]
struct Row {
    period: u32,
    country: u32,
    genre: u32,
    term: u32,
    rank: u32,
    in_genre: u8,
    overall: u8,
}

/// What rows index into.
struct Tables {
    labels: Vec<String>,
    countries: Vec<String>,
    terms: Vec<Vec<String>>,
    key: &'static str,
}

impl Tables {
    fn render(&self, r: Row) -> Value {
        let overall = i64::from(r.overall);
        let mut row = json!({
            "countryOrRegion": self.countries[r.country as usize], "genre": CATEGORIES[r.genre as usize].0,
            "searchTerm": self.terms[r.genre as usize][r.term as usize], "rankInGenre": r.rank,
            "searchPopularityInGenre": r.in_genre, "searchPopularity1to100": overall,
            "searchPopularity1to5": (overall + 19) / 20,
        });
        row[self.key] = json!(self.labels[r.period as usize]);
        row
    }
}

/// The values to generate rows for when `field` is filtered with EQUALS or IN; every
/// other operator filters the generated rows afterwards.
fn generated(q: &Query, field: &str, all: Vec<String>) -> Result<Option<Vec<String>>, ApiError> {
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
        return Ok(Some(all));
    }
    Ok(filter_values(q, field))
}

pub async fn term_popularity(
    State(s): State<Arc<Sandbox>>,
    _ctx: AdAccountContext,
    Body(q): Body<Query>,
) -> Result<Json<Value>, ApiError> {
    let (start, end, g) = range(&q, &["WEEKLY_SUN_SAT", "MONTHLY"])?;
    let filters = row_filters(&q, FIELDS, &[])?;
    let sorts = sorts(&q, &[("genre", false), ("rankInGenre", false)]);
    let (offset, size) = page(&q, 100, 5000)?;
    let all_countries = COUNTRIES.iter().map(|(c, _)| (*c).to_string()).collect();
    let countries =
        generated(&q, "countryOrRegion", all_countries)?.unwrap_or_else(|| vec!["US".into()]);
    let all_genres = CATEGORIES.iter().map(|(c, _)| (*c).to_string()).collect();
    let genres = generated(&q, "genre", all_genres)?;
    let w = s.world.read();
    let periods = periods(start, end.min(w.today), &g);
    let tables = Tables {
        labels: periods.iter().map(|(_, l)| l.clone()).collect(),
        terms: (0..CATEGORIES.len())
            .map(|c| vocabulary::terms(&w, c, TERMS_PER_GENRE))
            .collect(),
        countries,
        key: if g == "MONTHLY" { "month" } else { "week" },
    };
    // Kept rows, and for each the values it sorts by with its index under `ROW`.
    let mut kept: Vec<Row> = Vec::new();
    let mut order: Vec<Value> = Vec::new();
    for (pi, (p, _)) in periods.iter().enumerate() {
        for (ki, country) in tables.countries.iter().enumerate() {
            for (gi, (genre, _)) in CATEGORIES.iter().enumerate() {
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
                let mut ranked: Vec<(usize, f64)> = tables.terms[gi]
                    .iter()
                    .enumerate()
                    .map(|(i, t)| (i, f64::from(popularity(w.seed, t)) * (0.9 + 0.2 * drift(t))))
                    .collect();
                let text = |i: usize| &tables.terms[gi][i];
                ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(text(a.0).cmp(text(b.0))));
                let top = ranked.first().map_or(1.0, |t| t.1);
                for (rank, (term, v)) in ranked.into_iter().enumerate() {
                    let row = Row {
                        period: pi as u32,
                        country: ki as u32,
                        genre: gi as u32,
                        term: term as u32,
                        rank: rank as u32 + 1,
                        in_genre: (v / top * 100.0).round().clamp(1.0, 100.0) as u8,
                        overall: v.round().clamp(1.0, 100.0) as u8,
                    };
                    let rendered = tables.render(row);
                    if passes(&rendered, &filters) {
                        let mut keys: serde_json::Map<String, Value> = sorts
                            .iter()
                            .map(|(f, _)| (f.clone(), rendered[f].clone()))
                            .collect();
                        keys.insert(ROW.into(), json!(kept.len()));
                        order.push(Value::Object(keys));
                        kept.push(row);
                    }
                }
            }
        }
    }
    let total = kept.len();
    sort_rows(&mut order, &sorts);
    let rows: Vec<Value> = order
        .iter()
        .skip(offset)
        .take(size)
        .filter_map(|k| k[ROW].as_u64())
        .map(|i| tables.render(kept[i as usize]))
        .collect();
    Ok(Json(
        json!({ "result": { "rows": rows }, "pagination": { "offset": offset, "pageSize": size, "totalCount": total }, "error": null }),
    ))
}
