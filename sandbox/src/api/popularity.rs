//! `POST /insights/apps/search-term-popularity/query`: per period (week or month),
//! storefront and genre, the genre's search terms ranked by popularity, with the
//! reference's filters on every row field. Rows stay compact (indices and numbers) until
//! the requested page is rendered, so a 65-week, every-storefront request stays small.

use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::insights::{Query, filter_values, page, passes_by, periods, range, row_filters, sorts};
use super::rec_query::Op;
use super::vocabulary;
use crate::metrics::{mix_pub, popularity, unit};
use crate::state::Sandbox;
use crate::world::words::{CATEGORIES, COUNTRIES};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new().route(
        "/insights/apps/search-term-popularity/query",
        post(term_popularity),
    )
}

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

/// What rows index into, with the lexical rank of every text so rows sort as numbers.
struct Tables {
    labels: Vec<String>,
    countries: Vec<String>,
    terms: Vec<Vec<String>>,
    key: &'static str,
    country_rank: Vec<f64>,
    genre_rank: Vec<f64>,
    term_rank: Vec<Vec<f64>>,
}

/// The lexical rank of each text among `texts`.
fn ranks<'a>(texts: impl Iterator<Item = &'a str> + Clone) -> Vec<f64> {
    let mut sorted: Vec<&str> = texts.clone().collect();
    sorted.sort_unstable();
    texts
        .map(|t| sorted.partition_point(|x| *x < t) as f64)
        .collect()
}

impl Tables {
    fn new(
        labels: Vec<String>,
        countries: Vec<String>,
        terms: Vec<Vec<String>>,
        key: &'static str,
    ) -> Self {
        let all: Vec<&str> = terms.iter().flatten().map(String::as_str).collect();
        let all_ranks = ranks(all.iter().copied());
        let mut at = 0;
        let term_rank = terms
            .iter()
            .map(|t| {
                let r = all_ranks[at..at + t.len()].to_vec();
                at += t.len();
                r
            })
            .collect();
        Tables {
            country_rank: ranks(countries.iter().map(String::as_str)),
            genre_rank: ranks(CATEGORIES.iter().map(|(c, _)| *c)),
            term_rank,
            labels,
            countries,
            terms,
            key,
        }
    }

    /// One field of a row (what filters test).
    fn value(&self, r: Row, field: &str) -> Value {
        let overall = i64::from(r.overall);
        match field {
            "countryOrRegion" => json!(self.countries[r.country as usize]),
            "genre" => json!(CATEGORIES[r.genre as usize].0),
            "searchTerm" => json!(self.terms[r.genre as usize][r.term as usize]),
            "rankInGenre" => json!(r.rank),
            "searchPopularityInGenre" => json!(r.in_genre),
            "searchPopularity1to100" => json!(overall),
            "searchPopularity1to5" => json!((overall + 19) / 20),
            f if f == self.key => json!(self.labels[r.period as usize]),
            _ => Value::Null,
        }
    }

    /// One field of a row as a number ordering it the way its value orders.
    fn key(&self, r: Row, field: &str) -> f64 {
        match field {
            "countryOrRegion" => self.country_rank[r.country as usize],
            "genre" => self.genre_rank[r.genre as usize],
            "searchTerm" => self.term_rank[r.genre as usize][r.term as usize],
            "rankInGenre" => f64::from(r.rank),
            "searchPopularityInGenre" => f64::from(r.in_genre),
            "searchPopularity1to100" => f64::from(r.overall),
            "searchPopularity1to5" => f64::from(r.overall.div_ceil(20)),
            f if f == self.key => f64::from(r.period),
            _ => 0.0,
        }
    }

    /// The wire row: every field the request's granularity has.
    fn render(&self, r: Row) -> Value {
        let fields = FIELDS.iter().map(|f| (f.to_string(), self.value(r, f)));
        Value::Object(fields.filter(|(_, v)| !v.is_null()).collect())
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
    // Up to hundreds of thousands of ranked rows: off the async threads.
    super::crud::off_thread(move || popularity_rows(&s, q)).await
}

fn popularity_rows(s: &Sandbox, q: Query) -> Result<Json<Value>, ApiError> {
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
    let tables = Tables::new(
        periods.iter().map(|(_, l)| l.clone()).collect(),
        countries,
        (0..CATEGORIES.len())
            .map(|c| vocabulary::ranked_terms(&w, c))
            .collect(),
        if g == "MONTHLY" { "month" } else { "week" },
    );
    // Popularity of every term, which drifts per period and storefront below.
    let base: Vec<Vec<f64>> = tables
        .terms
        .iter()
        .map(|ts| {
            ts.iter()
                .map(|t| f64::from(popularity(w.seed, t)))
                .collect()
        })
        .collect();
    // Kept rows, and their sort keys (`sorts.len()` numbers per row).
    let mut kept: Vec<Row> = Vec::new();
    let mut keys: Vec<f64> = Vec::new();
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
                    .map(|(i, t)| (i, base[gi][i] * (0.9 + 0.2 * drift(t))))
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
                    if passes_by(&filters, |f| tables.value(row, f)) {
                        keys.extend(sorts.iter().map(|(f, _)| tables.key(row, f)));
                        kept.push(row);
                    }
                }
            }
        }
    }
    let total = kept.len();
    let n = sorts.len();
    let mut order: Vec<u32> = (0..total as u32).collect();
    order.sort_by(|a, b| {
        let (ka, kb) = (&keys[*a as usize * n..][..n], &keys[*b as usize * n..][..n]);
        for ((x, y), (_, desc)) in ka.iter().zip(kb).zip(&sorts) {
            let o = x.total_cmp(y);
            let o = if *desc { o.reverse() } else { o };
            if o.is_ne() {
                return o;
            }
        }
        std::cmp::Ordering::Equal
    });
    let rows: Vec<Value> = order
        .iter()
        .skip(offset)
        .take(size)
        .map(|i| tables.render(kept[*i as usize]))
        .collect();
    Ok(Json(
        json!({ "result": { "rows": rows }, "pagination": { "offset": offset, "pageSize": size, "totalCount": total }, "error": null }),
    ))
}
