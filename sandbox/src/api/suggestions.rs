//! Suggestions for the keyword suggester, all over [`RecQuery`] (`promotedObjectId` is an
//! app of the ad account or one of its campaigns, whose app is then used):
//! `POST /suggestions/keywords/query` (`{text, popularity}`),
//! `POST /suggestions/phrases/query` (`{phrase, popularity}`) and
//! `POST /suggestions/categories/query` (`{category, popularity}`, the app's own first) and
//! `POST /suggestions/target-cpas/query` (one `TargetCpaSuggestion`: 1.1 × the promoted
//! campaigns' CPA over the last 30 days, optionally only those targeting `countryOrRegion`).

use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::rec_query::RecQuery;
use super::vocabulary::{self, category_index};
use crate::metrics::popularity;
use crate::state::Sandbox;
use crate::world::World;
use crate::world::money::{minor_unit, money};
use crate::world::words::CATEGORIES;

/// How many terms keyword suggestions draw from per app.
const SUGGESTED_TERMS: usize = 2000;

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/suggestions/keywords/query", post(keywords))
        .route("/suggestions/phrases/query", post(phrases))
        .route("/suggestions/categories/query", post(categories))
        .route("/suggestions/target-cpas/query", post(target_cpa))
}

/// The category of the (first) app the query's `promotedObjectId` names.
fn category(w: &World, account: i64, q: &RecQuery) -> Result<usize, ApiError> {
    let promoted = q.promoted(w, account)?;
    let app = &w.apps[&promoted[0].adam_id];
    Ok(category_index(app.category).unwrap_or(0))
}

/// Texts of the app's category with their popularity under `key`, most popular first.
fn by_popularity(
    s: &Sandbox,
    account: i64,
    q: &RecQuery,
    key: &str,
    texts: impl FnOnce(&World, usize) -> Vec<String>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let c = category(&w, account, q)?;
    let rows = texts(&w, c)
        .into_iter()
        .map(|t| json!({ key: t, "popularity": popularity(w.seed, &t) }))
        .collect();
    let sort = [("popularity", true), (key, false)];
    Ok(Json(q.answer(rows, &[key, "popularity"], &sort)?))
}

async fn keywords(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<RecQuery>,
) -> Result<Json<Value>, ApiError> {
    by_popularity(&s, ctx.0, &q, "text", |w, c| {
        vocabulary::terms(w, c, SUGGESTED_TERMS)
    })
}

async fn phrases(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<RecQuery>,
) -> Result<Json<Value>, ApiError> {
    by_popularity(&s, ctx.0, &q, "phrase", |_, c| vocabulary::phrases(c))
}

async fn categories(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<RecQuery>,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let own = category(&w, ctx.0, &q)?;
    let mut rows: Vec<(usize, Value)> = (0..CATEGORIES.len())
        .map(|c| {
            let row = json!({ "category": CATEGORIES[c].0, "popularity": vocabulary::category_popularity(w.seed, c) });
            (c, row)
        })
        .collect();
    // The app's own category leads; the others follow by popularity.
    rows.sort_by_key(|(c, r)| (*c != own, std::cmp::Reverse(r["popularity"].as_u64())));
    let rows = rows.into_iter().map(|(_, r)| r).collect();
    let answer = q.answer(rows, &["category", "popularity"], &[])?;
    Ok(Json(answer))
}

async fn target_cpa(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(q): Body<RecQuery>,
) -> Result<Json<Value>, ApiError> {
    // 30 served days of the promoted campaigns: off the async threads.
    super::crud::off_thread(move || target_cpa_of(&s, ctx.0, &q)).await
}

fn target_cpa_of(
    s: &Sandbox,
    account: crate::world::Id,
    q: &RecQuery,
) -> Result<Json<Value>, ApiError> {
    q.only(&["countryOrRegion"])?;
    let w = s.world.read();
    let promoted = q.promoted(&w, account)?;
    let wanted = q.values("countryOrRegion");
    let currency = w.accounts[&account].currency;
    let mut totals = crate::metrics::Totals::default();
    let mut countries: Vec<String> = Vec::new();
    for c in w.campaigns.values().filter(|c| {
        c.ad_account_id == account
            && !c.life.deleted()
            && promoted.iter().any(|p| p.covers(c))
            && wanted.is_none_or(|cs| c.countries.iter().any(|x| cs.contains(x)))
    }) {
        totals.add(&super::recommendations::window(&w, c, 30).totals);
        countries.extend(c.countries.iter().cloned());
    }
    countries.sort();
    countries.dedup();
    if let Some(cs) = wanted {
        countries.retain(|c| cs.contains(c));
    }
    let installs = totals.total_installs();
    let suggested = (installs > 0).then(|| {
        let minor = minor_unit(currency) as f64;
        let cpa = 1.1 * totals.spend as f64 / installs as f64;
        money(((cpa / minor).round() * minor) as i64, currency)
    });
    let first = promoted[0];
    let id = first.campaign.map_or(first.adam_id, |c| c);
    let result = json!({
        "promotedObjectId": id.to_string(), "countryOrRegion": countries,
        "suggestedTargetCPA": suggested, "appCategory": w.apps[&first.adam_id].category,
    });
    Ok(Json(
        json!({ "result": result, "pagination": null, "error": null }),
    ))
}
