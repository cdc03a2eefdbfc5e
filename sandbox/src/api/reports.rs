//! Apps reports: `POST /reports/apps/{campaigns,adgroups,keywords,searchterms,ads}/query`.
//! Rows hold the entity's metadata (with `groupBy` values), `totalMetrics` and (with a
//! granularity) `granularMetrics`. A report is computed off the async threads over a
//! snapshot of the world: first every row's totals as numbers ([`report_rows`]), sorted
//! and kept in [`ReportCache`] for the next pages; then the time buckets of the page's rows
//! only; only the page is rendered. Every row is a sum of served bidder-days, split into
//! search terms, ads, dimensions and hours so all levels add up.

use std::sync::Arc;

use axum::Router;
use axum::extract::State;
use axum::http::header;
use axum::response::{IntoResponse, Response};
use axum::routing::post;
use rustc_hash::FxHashSet;
use serde_json::{Value, json};

use super::crud::off_thread;
use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::query::SortOrder;
use super::report_cache::{Computed, ReportCache};
use super::report_meta::{MetricsOut, bucket_label, insights, metadata, metric_value, metrics};
use super::report_request::{Checked, Entity, ReportRequest};
use super::report_rows::{self, Pass, RowKey};
use crate::metrics::Totals;
use crate::sim::Simulation;
use crate::state::Sandbox;
use crate::world::{Id, World};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/reports/apps/campaigns/query", post(campaigns))
        .route("/reports/apps/adgroups/query", post(ad_groups))
        .route("/reports/apps/keywords/query", post(keywords))
        .route("/reports/apps/searchterms/query", post(search_terms))
        .route("/reports/apps/ads/query", post(ads))
}

/// Bucket entries (rows × buckets) one pass may fill; past it, buckets are computed for
/// the page's rows in a second pass.
const ONE_PASS_BUCKETS: usize = 250_000;

async fn run(
    s: Arc<Sandbox>,
    account: Id,
    r: ReportRequest,
    entity: Entity,
) -> Result<Response, ApiError> {
    let w = s.world.read();
    // The reference's range limits count days back from the ad account's today.
    let checked = r.check(entity, w.account_now(account).today)?;
    let body = off_thread(move || Ok(report(&s.reports, &w, account, &checked, entity))).await?;
    Ok(([(header::CONTENT_TYPE, "application/json")], body).into_response())
}

async fn campaigns(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Response, ApiError> {
    run(s, ctx.0, r, Entity::Campaign).await
}

async fn ad_groups(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Response, ApiError> {
    run(s, ctx.0, r, Entity::AdGroup).await
}

async fn keywords(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Response, ApiError> {
    run(s, ctx.0, r, Entity::Keyword).await
}

async fn search_terms(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Response, ApiError> {
    run(s, ctx.0, r, Entity::SearchTerm).await
}

async fn ads(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Response, ApiError> {
    run(s, ctx.0, r, Entity::Ad).await
}

/// Every row's totals, sorted as requested (from the cache when the same report was
/// computed over the same world and hour).
fn computed(
    cache: &ReportCache,
    w: &World,
    account: Id,
    c: &Checked,
    entity: Entity,
) -> Arc<Computed> {
    let key = ReportCache::key(w, account, entity, c);
    if let Some(hit) = cache.get(&key) {
        return hit;
    }
    if !c.sorting.is_empty() {
        // Another order of the same rows: sort those of the unsorted report (kept, or
        // computed and kept now), as a stable sort of the same rows gives the same order.
        let unsorted = Checked {
            sorting: Vec::new(),
            ..c.clone()
        };
        let base = computed(cache, w, account, &unsorted, entity);
        let mut rows = base.rows.clone();
        sort(w, &mut rows, c, entity);
        let sorted = Arc::new(Computed {
            rows,
            grand: base.grand,
            granular: base.granular,
            caps: base.caps.clone(),
        });
        cache.put(key, sorted.clone());
        return sorted;
    }
    let campaigns = report_rows::campaigns(w, account, c);
    let today = w.account_now(account).today;
    let days = (c.end.min(today) - c.start).whole_days().max(0) as usize + 1;
    let scope = scope_size(w, &campaigns, entity) * dims_product(c);
    let granular = c.granularity.is_some() && scope.saturating_mul(days) <= ONE_PASS_BUCKETS;
    // Campaigns are independent (rows and budget caps belong to one campaign): spread them
    // over the cores.
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .clamp(1, 4)
        .min(campaigns.len().max(1));
    let mut rows: Vec<(RowKey, Totals, report_rows::Buckets)> = Vec::new();
    let mut caps = crate::sim::Caps::default();
    std::thread::scope(|scope| {
        let parts: Vec<_> = (0..threads)
            .map(|i| {
                let mine: Vec<Id> = campaigns.iter().copied().skip(i).step_by(threads).collect();
                scope.spawn(move || {
                    let mut sim = Simulation::new(w);
                    let pass = Pass {
                        entity,
                        checked: c,
                        campaigns: mine,
                        units: None,
                        rows: None,
                        granular,
                    };
                    let rows = report_rows::accumulate(&mut sim, &pass);
                    (rows, sim.into_caps())
                })
            })
            .collect();
        for part in parts {
            let (part_rows, part_caps) = part.join().expect("report thread");
            rows.extend(part_rows.into_iter().map(|(k, (t, b))| (k, t, b)));
            caps.extend(part_caps);
        }
    });
    if c.empty_rows && c.group_by.is_empty() {
        let seen: FxHashSet<Id> = rows.iter().map(|r| r.0.id).collect();
        for id in entities(w, account, c, entity) {
            if !seen.contains(&id) {
                let key = RowKey {
                    id,
                    term: u16::MAX,
                    dims: [0; report_rows::MAX_DIMS],
                };
                rows.push((key, Totals::default(), Vec::new()));
            }
        }
    }
    sort(w, &mut rows, c, entity);
    let mut grand = Totals::default();
    rows.iter().for_each(|r| grand.add(&r.1));
    let computed = Arc::new(Computed {
        rows,
        grand,
        granular,
        caps,
    });
    cache.put(key, computed.clone());
    computed
}

/// How many entities of the report's level the campaigns hold (an upper bound of rows
/// before dimensions).
fn scope_size(w: &World, campaigns: &[Id], entity: Entity) -> usize {
    let kind = match entity {
        Entity::Campaign => return campaigns.len(),
        Entity::AdGroup => "AdGroup",
        Entity::Ad => "Ad",
        Entity::Keyword | Entity::SearchTerm => "Keyword",
    };
    let n: usize = campaigns
        .iter()
        .map(|c| w.index.children(kind, *c).len())
        .sum();
    if entity == Entity::SearchTerm {
        n * 5
    } else {
        n
    }
}

fn dims_product(c: &Checked) -> usize {
    c.group_by.iter().map(|d| d.max_values()).product()
}

fn report(cache: &ReportCache, w: &World, account: Id, c: &Checked, entity: Entity) -> Vec<u8> {
    let currency = w.accounts[&account].currency;
    let fields = c.fields.as_deref();
    let all = computed(cache, w, account, c, entity);
    let page: Vec<&(RowKey, Totals, report_rows::Buckets)> = all
        .rows
        .iter()
        .skip(c.offset as usize)
        .take(c.page_size as usize)
        .collect();
    let late_buckets = if c.granularity.is_some() && !all.granular {
        page_buckets(w, account, c, entity, &page, &all)
    } else {
        Default::default()
    };
    let mut sim = Simulation::new(w);
    let rows: Vec<RowOut<'_>> = page
        .iter()
        .map(|(key, total, buckets)| {
            let buckets = late_buckets.get(key).unwrap_or(buckets);
            let granular = c.granularity.map(|g| {
                // In time order, whichever bidder first filled a bucket.
                let mut ordered: Vec<&(i64, Totals)> = buckets.iter().collect();
                ordered.sort_by_key(|b| b.0);
                ordered
                    .into_iter()
                    .map(|(at, t)| MetricsOut {
                        t,
                        date: Some(bucket_label(*at, g)),
                        currency,
                        fields,
                    })
                    .collect()
            });
            let mut meta = metadata(&mut sim, key, entity);
            for (i, dim) in c.group_by.iter().enumerate() {
                meta[dim.name()] = json!(dim_value(key, i, dim));
            }
            RowOut {
                total: MetricsOut {
                    t: total,
                    date: None,
                    currency,
                    fields,
                },
                granular,
                metadata: meta,
                insights: (entity == Entity::Keyword).then(|| insights(w, key.id)),
            }
        })
        .collect();
    let summary = c
        .grand_total
        .then(|| json!({ "grandTotal": metrics(&all.grand, None, currency, fields) }));
    let body = json!({
        "result": { "rows": [], "summary": summary },
        "pagination": { "offset": c.offset, "pageSize": c.page_size, "totalCount": all.rows.len() },
        "error": null,
    });
    Page { rows, body }.to_bytes()
}

/// A report row, written straight to the serializer.
struct RowOut<'a> {
    total: MetricsOut<'a>,
    granular: Option<Vec<MetricsOut<'a>>>,
    metadata: Value,
    insights: Option<Value>,
}

impl serde::Serialize for RowOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        m.serialize_entry("totalMetrics", &self.total)?;
        m.serialize_entry("granularMetrics", &self.granular)?;
        m.serialize_entry("metadata", &self.metadata)?;
        if let Some(i) = &self.insights {
            m.serialize_entry("insights", i)?;
        }
        m.end()
    }
}

/// A report page: `body` with the rows written into `result.rows`.
struct Page<'a> {
    rows: Vec<RowOut<'a>>,
    body: Value,
}

impl Page<'_> {
    fn to_bytes(&self) -> Vec<u8> {
        #[derive(serde::Serialize)]
        struct Out<'b> {
            result: Result_<'b>,
            pagination: &'b Value,
            error: &'b Value,
        }
        #[derive(serde::Serialize)]
        struct Result_<'b> {
            rows: &'b [RowOut<'b>],
            summary: &'b Value,
        }
        serde_json::to_vec(&Out {
            result: Result_ {
                rows: &self.rows,
                summary: &self.body["result"]["summary"],
            },
            pagination: &self.body["pagination"],
            error: &self.body["error"],
        })
        .expect("report serializes")
    }
}

/// The time buckets of the page's rows, from the bidders that feed them.
fn page_buckets(
    w: &World,
    account: Id,
    c: &Checked,
    entity: Entity,
    page: &[&(RowKey, Totals, report_rows::Buckets)],
    all: &Computed,
) -> rustc_hash::FxHashMap<RowKey, report_rows::Buckets> {
    let mut sim = Simulation::with_caps(w, all.caps.clone());
    let keys: FxHashSet<RowKey> = page.iter().map(|r| r.0).collect();
    let mut units: FxHashSet<Id> = FxHashSet::default();
    let mut campaigns: FxHashSet<Id> = FxHashSet::default();
    for key in &keys {
        match entity {
            Entity::Keyword | Entity::SearchTerm => {
                units.insert(key.id);
            }
            Entity::AdGroup | Entity::Ad => {
                let group = if entity == Entity::Ad {
                    w.ads.get(&key.id).map(|a| a.ad_group_id)
                } else {
                    Some(key.id)
                };
                if let Some(g) = group.and_then(|g| w.ad_groups.get(&g)) {
                    units.extend(sim.group_units(g.campaign_id, g.id));
                }
            }
            Entity::Campaign => {
                campaigns.insert(key.id);
            }
        }
    }
    for id in &units {
        if let Some(u) = report_rows::unit_of(w, *id) {
            campaigns.insert(u.campaign_id());
        }
    }
    let mut ordered: Vec<Id> = campaigns.into_iter().collect();
    ordered.sort_unstable();
    let _ = account;
    let pass = Pass {
        entity,
        checked: c,
        campaigns: ordered,
        units: (entity != Entity::Campaign).then_some(units),
        rows: Some(keys),
        granular: true,
    };
    report_rows::accumulate(&mut sim, &pass)
        .into_iter()
        .map(|(k, (_, b))| (k, b))
        .collect()
}

/// The value of dimension `i` of a row.
fn dim_value(key: &RowKey, i: usize, dim: &crate::sim::dims::Dim) -> String {
    dim.decode(key.dims[i])
}

/// Ids of the entities in scope, for `EMPTY_METRICS`.
fn entities(w: &World, account: Id, c: &Checked, entity: Entity) -> Vec<Id> {
    let campaigns = report_rows::campaigns(w, account, c);
    let under = |kind: &'static str| -> Vec<Id> {
        campaigns
            .iter()
            .flat_map(|cid| w.index.children(kind, *cid).iter().copied())
            .collect()
    };
    let ok = |f: &str, v: Id| report_rows::allowed(c, f, v);
    match entity {
        Entity::Campaign => campaigns.clone(),
        Entity::AdGroup => under("AdGroup")
            .into_iter()
            .filter(|g| ok("adGroupId", *g))
            .collect(),
        Entity::Keyword => under("Keyword")
            .into_iter()
            .filter(|k| ok("keywordId", *k) && ok("adGroupId", w.keywords[k].ad_group_id))
            .collect(),
        Entity::Ad => under("Ad")
            .into_iter()
            .filter(|a| ok("adId", *a) && ok("adGroupId", w.ads[a].ad_group_id))
            .collect(),
        Entity::SearchTerm => vec![],
    }
}

/// Orders rows by the requested metric or metadata fields; ties keep the row-key order.
fn sort(
    w: &World,
    rows: &mut Vec<(RowKey, Totals, report_rows::Buckets)>,
    c: &Checked,
    entity: Entity,
) {
    rows.sort_by_key(|r| r.0);
    if c.sorting.is_empty() {
        return;
    }
    let mut sim = Simulation::new(w);
    let keys: Vec<Vec<SortKey>> = rows
        .iter()
        .map(|(key, t, _)| {
            c.sorting
                .iter()
                .map(|(field, _)| match metric_value(t, field) {
                    Some(v) => SortKey::Number(v),
                    None => {
                        let meta =
                            if let Some(i) = c.group_by.iter().position(|d| d.name() == field) {
                                json!(dim_value(key, i, &c.group_by[i]))
                            } else {
                                metadata(&mut sim, key, entity)[field.as_str()].clone()
                            };
                        match meta.as_f64() {
                            Some(v) => SortKey::Number(v),
                            None => SortKey::Text(meta.as_str().unwrap_or_default().to_string()),
                        }
                    }
                })
                .collect()
        })
        .collect();
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|x, y| {
        for (i, (_, dir)) in c.sorting.iter().enumerate() {
            let o = keys[*x][i].cmp(&keys[*y][i]);
            let o = if *dir == SortOrder::Desc {
                o.reverse()
            } else {
                o
            };
            if o.is_ne() {
                return o;
            }
        }
        x.cmp(y)
    });
    let mut old: Vec<Option<(RowKey, Totals, report_rows::Buckets)>> =
        rows.drain(..).map(Some).collect();
    *rows = order
        .iter()
        .map(|i| old[*i].take().expect("each row once"))
        .collect();
}

#[derive(Debug, Clone, PartialEq, PartialOrd)]
enum SortKey {
    Number(f64),
    Text(String),
}

impl SortKey {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        match (self, other) {
            (SortKey::Number(a), SortKey::Number(b)) => a.total_cmp(b),
            (SortKey::Text(a), SortKey::Text(b)) => a.cmp(b),
            (SortKey::Number(_), SortKey::Text(_)) => std::cmp::Ordering::Less,
            (SortKey::Text(_), SortKey::Number(_)) => std::cmp::Ordering::Greater,
        }
    }
}
