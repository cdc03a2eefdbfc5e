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
use serde_json::{Value, json};

mod compute;
mod sort;

use super::crud::off_thread;
use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::report_cache::ReportCache;
use super::report_meta::{MetricsOut, bucket_label, insights, metadata, metrics};
use super::report_request::{Checked, Entity, ReportRequest};
use super::report_rows::{self, RowKey};
use crate::metrics::Totals;
use crate::sim::Simulation;
use crate::state::Sandbox;
use crate::world::{Id, World};
use compute::{computed, page_buckets};

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

/// The value of dimension `i` of a row.
fn dim_value(key: &RowKey, i: usize, dim: &crate::sim::dims::Dim) -> String {
    dim.decode(key.dims[i])
}
