//! Apps reports: `POST /reports/apps/{campaigns,adgroups,keywords,searchterms,ads}/query`.
//! Rows hold the entity's metadata (with `groupBy` values), `totalMetrics` and (with a
//! granularity) `granularMetrics`. Every row is a sum of served keyword-days from
//! [`Simulation`], split into search terms, ads, dimensions and hours so all levels add up.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Value, json};
use time::{Date, Duration};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::query::SortOrder;
use super::report_meta::{metadata, metrics};
use super::report_request::{Checked, Entity, Granularity, ReportRequest};
use crate::metrics::Totals;
use crate::sim::Simulation;
use crate::sim::dims::hour_weights;
use crate::sim::split::split;
use crate::state::Sandbox;
use crate::world::{Id, Keyword, World};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/reports/apps/campaigns/query", post(campaigns))
        .route("/reports/apps/adgroups/query", post(ad_groups))
        .route("/reports/apps/keywords/query", post(keywords))
        .route("/reports/apps/searchterms/query", post(search_terms))
        .route("/reports/apps/ads/query", post(ads))
}

async fn run(
    s: Arc<Sandbox>,
    account: Id,
    r: ReportRequest,
    entity: Entity,
) -> Result<Json<Value>, ApiError> {
    let w = s.world.read();
    let checked = r.check(entity, w.today)?;
    Ok(Json(report(&w, account, &checked, entity)))
}

async fn campaigns(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Json<Value>, ApiError> {
    run(s, ctx.0, r, Entity::Campaign).await
}

async fn ad_groups(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Json<Value>, ApiError> {
    run(s, ctx.0, r, Entity::AdGroup).await
}

async fn keywords(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Json<Value>, ApiError> {
    run(s, ctx.0, r, Entity::Keyword).await
}

async fn search_terms(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Json<Value>, ApiError> {
    run(s, ctx.0, r, Entity::SearchTerm).await
}

async fn ads(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Json<Value>, ApiError> {
    run(s, ctx.0, r, Entity::Ad).await
}

/// A row: the entity (keyword id for search terms), the search term, the dimension values.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct RowKey {
    pub id: Id,
    pub term: Option<String>,
    pub dims: Vec<String>,
}

type Series = (Totals, BTreeMap<String, Totals>);

fn allowed(ids: &[(String, Vec<i64>)], field: &str, value: Id) -> bool {
    ids.iter()
        .filter(|(f, _)| f == field)
        .all(|(_, allowed)| allowed.contains(&value))
}

fn passes(k: &Keyword, ids: &[(String, Vec<i64>)]) -> bool {
    allowed(ids, "campaignId", k.campaign_id)
        && allowed(ids, "adGroupId", k.ad_group_id)
        && allowed(ids, "keywordId", k.id)
}

/// The bucket label of `day` (hours are labelled separately).
fn bucket(day: Date, g: Granularity) -> String {
    match g {
        Granularity::Hourly | Granularity::Daily => day.to_string(),
        Granularity::Weekly => {
            (day - Duration::days(i64::from(day.weekday().number_days_from_monday()))).to_string()
        }
        Granularity::Monthly => format!("{:04}-{:02}", day.year(), u8::from(day.month())),
    }
}

/// One keyword-day's contributions to rows at `entity` level, before dimensions.
fn contributions(
    sim: &Simulation<'_>,
    k: &Keyword,
    day: Date,
    t: Totals,
    c: &Checked,
    entity: Entity,
) -> Vec<(Id, Option<String>, Totals)> {
    match entity {
        Entity::Campaign => vec![(k.campaign_id, None, t)],
        Entity::AdGroup => vec![(k.ad_group_id, None, t)],
        Entity::Keyword => vec![(k.id, None, t)],
        Entity::SearchTerm => {
            let terms = sim.terms_on(k, day);
            let weights: Vec<f64> = terms.iter().map(|x| x.1).collect();
            terms
                .into_iter()
                .zip(split(&t, &weights))
                .map(|((term, _), part)| (k.id, Some(term), part))
                .collect()
        }
        Entity::Ad => {
            let ads = sim.ads_on(k.ad_group_id, day);
            let weights: Vec<f64> = ads.iter().map(|x| x.1).collect();
            ads.into_iter()
                .zip(split(&t, &weights))
                .filter(|((id, _), _)| allowed(&c.ids, "adId", *id))
                .map(|((id, _), part)| (id, None, part))
                .collect()
        }
    }
}

/// Splits a contribution by the requested dimensions, in order.
fn by_dims(w: &World, k: &Keyword, t: Totals, c: &Checked) -> Vec<(Vec<String>, Totals)> {
    let mut parts = vec![(Vec::new(), t)];
    let (campaign, group) = (&w.campaigns[&k.campaign_id], &w.ad_groups[&k.ad_group_id]);
    for dim in &c.group_by {
        let values = dim.values(campaign, group);
        let weights: Vec<f64> = values.iter().map(|v| v.1).collect();
        parts = parts
            .into_iter()
            .flat_map(|(labels, t)| {
                values
                    .iter()
                    .zip(split(&t, &weights))
                    .map(move |((v, _), part)| {
                        let mut l = labels.clone();
                        l.push(v.clone());
                        (l, part)
                    })
            })
            .collect();
    }
    parts
}

fn is_zero(t: &Totals) -> bool {
    t.impressions == 0 && t.view_installs() == 0
}

/// Computes every row of the report.
fn rows(w: &World, account: Id, c: &Checked, entity: Entity) -> BTreeMap<RowKey, Series> {
    let mut sim = Simulation::new(w);
    let end = c.end.min(w.today);
    let hours = hour_weights();
    let mut rows: BTreeMap<RowKey, Series> = BTreeMap::new();
    let campaigns: Vec<Id> = w
        .campaigns
        .values()
        .filter(|x| x.ad_account_id == account && allowed(&c.ids, "campaignId", x.id))
        .map(|x| x.id)
        .collect();
    for campaign in campaigns {
        let mut day = c.start;
        while day <= end {
            for (k, t) in sim.campaign_day(campaign, day) {
                if is_zero(&t) || !passes(k, &c.ids) {
                    continue;
                }
                for (id, term, part) in contributions(&sim, k, day, t, c, entity) {
                    for (dims, t) in by_dims(w, k, part, c) {
                        if is_zero(&t) {
                            continue;
                        }
                        let key = RowKey {
                            id,
                            term: term.clone(),
                            dims,
                        };
                        let entry = rows.entry(key).or_default();
                        entry.0.add(&t);
                        match c.granularity {
                            None => {}
                            Some(Granularity::Hourly) => {
                                for (h, p) in split(&t, &hours).iter().enumerate() {
                                    if !is_zero(p) {
                                        entry.1.entry(format!("{day} {h:02}")).or_default().add(p);
                                    }
                                }
                            }
                            Some(g) => entry.1.entry(bucket(day, g)).or_default().add(&t),
                        }
                    }
                }
            }
            day = day.next_day().expect("date in range");
        }
    }
    if c.empty_rows && c.group_by.is_empty() {
        for id in entities(w, account, c, entity) {
            rows.entry(RowKey {
                id,
                term: None,
                dims: vec![],
            })
            .or_default();
        }
    }
    rows
}

/// Ids of the entities in scope, for `EMPTY_METRICS`.
fn entities(w: &World, account: Id, c: &Checked, entity: Entity) -> Vec<Id> {
    let keywords = w
        .keywords
        .values()
        .filter(|k| k.ad_account_id == account && passes(k, &c.ids));
    match entity {
        Entity::Campaign => w
            .campaigns
            .values()
            .filter(|x| x.ad_account_id == account && allowed(&c.ids, "campaignId", x.id))
            .map(|x| x.id)
            .collect(),
        Entity::AdGroup => w
            .ad_groups
            .values()
            .filter(|g| {
                g.ad_account_id == account
                    && allowed(&c.ids, "campaignId", g.campaign_id)
                    && allowed(&c.ids, "adGroupId", g.id)
            })
            .map(|g| g.id)
            .collect(),
        Entity::Keyword => keywords.map(|k| k.id).collect(),
        Entity::Ad => w
            .ads
            .values()
            .filter(|a| {
                a.ad_account_id == account
                    && allowed(&c.ids, "campaignId", a.campaign_id)
                    && allowed(&c.ids, "adGroupId", a.ad_group_id)
                    && allowed(&c.ids, "adId", a.id)
            })
            .map(|a| a.id)
            .collect(),
        Entity::SearchTerm => vec![],
    }
}

fn report(w: &World, account: Id, c: &Checked, entity: Entity) -> Value {
    let currency = w.accounts[&account].currency;
    let fields = c.fields.as_deref();
    let mut grand = Totals::default();
    let mut out: Vec<(Value, Value)> = Vec::new();
    for (key, (total, buckets)) in rows(w, account, c, entity) {
        grand.add(&total);
        let granular: Option<Vec<Value>> = c.granularity.map(|_| {
            buckets
                .iter()
                .map(|(date, t)| metrics(t, Some(date), currency, fields))
                .collect()
        });
        let mut meta = metadata(w, &key, entity);
        for (dim, value) in c.group_by.iter().zip(&key.dims) {
            meta[dim.name()] = json!(value);
        }
        let row = json!({
            "totalMetrics": metrics(&total, None, currency, fields),
            "granularMetrics": granular,
            "metadata": meta,
        });
        let sort_view = metrics(&total, None, currency, None);
        out.push((row, sort_view));
    }
    out.sort_by(|a, b| compare_rows(a, b, &c.sorting));
    let total_count = out.len();
    let page: Vec<Value> = out
        .into_iter()
        .skip(c.offset as usize)
        .take(c.page_size as usize)
        .map(|r| r.0)
        .collect();
    let summary = c
        .grand_total
        .then(|| json!({ "grandTotal": metrics(&grand, None, currency, fields) }));
    json!({
        "result": { "rows": page, "summary": summary },
        "pagination": { "offset": c.offset, "pageSize": c.page_size, "totalCount": total_count },
        "error": null,
    })
}

/// Orders rows by the requested metric or metadata fields; ties keep the row-key order.
fn compare_rows(
    a: &(Value, Value),
    b: &(Value, Value),
    sorting: &[(String, SortOrder)],
) -> std::cmp::Ordering {
    for (field, order) in sorting {
        let key = |r: &(Value, Value)| -> Value {
            let m = &r.1[field.as_str()];
            if m.is_null() {
                return r.0["metadata"][field.as_str()].clone();
            }
            m.get("amount")
                .and_then(|a| a.as_str())
                .and_then(|a| a.parse::<f64>().ok())
                .map(Value::from)
                .unwrap_or_else(|| m.clone())
        };
        let (x, y) = (key(a), key(b));
        let o = match (x.as_f64(), y.as_f64()) {
            (Some(p), Some(q)) => p.total_cmp(&q),
            _ => x.to_string().cmp(&y.to_string()),
        };
        let o = if *order == SortOrder::Desc {
            o.reverse()
        } else {
            o
        };
        if o.is_ne() {
            return o;
        }
    }
    std::cmp::Ordering::Equal
}
