//! Apps reports: `POST /reports/apps/{campaigns,adgroups,keywords}/query`. Rows hold the
//! entity's metadata, `totalMetrics` and (with a granularity) `granularMetrics`; campaign
//! and ad group figures are sums of their keywords' daily metrics.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::extract::State;
use axum::routing::post;
use axum::{Json, Router};
use serde_json::{Map, Value, json};
use time::{Date, Duration};

use super::error::ApiError;
use super::extract::{AdAccountContext, Body};
use super::query::SortOrder;
use super::render;
use super::report_request::{Checked, Granularity, METRICS, ReportRequest};
use crate::metrics::{KeywordModel, Totals};
use crate::state::Sandbox;
use crate::world::money::money;
use crate::world::{Id, Keyword, World};

pub fn router() -> Router<Arc<Sandbox>> {
    Router::new()
        .route("/reports/apps/campaigns/query", post(campaigns))
        .route("/reports/apps/adgroups/query", post(ad_groups))
        .route("/reports/apps/keywords/query", post(keywords))
}

#[derive(Clone, Copy)]
enum Level {
    Campaign,
    AdGroup,
    Keyword,
}

async fn campaigns(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Json<Value>, ApiError> {
    let checked = r.check(&["campaignId"], None)?;
    Ok(Json(report(
        &s.world.read(),
        ctx.0,
        &checked,
        Level::Campaign,
    )))
}

async fn ad_groups(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Json<Value>, ApiError> {
    let checked = r.check(&["campaignId", "adGroupId"], Some("campaignId"))?;
    Ok(Json(report(
        &s.world.read(),
        ctx.0,
        &checked,
        Level::AdGroup,
    )))
}

async fn keywords(
    State(s): State<Arc<Sandbox>>,
    ctx: AdAccountContext,
    Body(r): Body<ReportRequest>,
) -> Result<Json<Value>, ApiError> {
    let checked = r.check(
        &["campaignId", "adGroupId", "keywordId"],
        Some("campaignId"),
    )?;
    Ok(Json(report(
        &s.world.read(),
        ctx.0,
        &checked,
        Level::Keyword,
    )))
}

fn passes(k: &Keyword, ids: &[(String, Vec<i64>)]) -> bool {
    ids.iter().all(|(field, allowed)| {
        let v = match field.as_str() {
            "campaignId" => k.campaign_id,
            "adGroupId" => k.ad_group_id,
            _ => k.id,
        };
        allowed.contains(&v)
    })
}

/// The bucket label and start of `day`.
fn bucket(day: Date, g: Granularity) -> String {
    match g {
        Granularity::Daily => day.to_string(),
        Granularity::Weekly => {
            (day - Duration::days(i64::from(day.weekday().number_days_from_monday()))).to_string()
        }
        Granularity::Monthly => format!("{:04}-{:02}", day.year(), u8::from(day.month())),
    }
}

fn report(w: &World, account: Id, c: &Checked, level: Level) -> Value {
    let currency = w.accounts[&account].currency;
    let end = c.end.min(w.today);
    // entity id -> (bucket label -> totals), plus the entity's overall totals
    let mut series: BTreeMap<Id, (Totals, BTreeMap<String, Totals>)> = BTreeMap::new();
    for k in w
        .keywords
        .values()
        .filter(|k| k.ad_account_id == account && passes(k, &c.ids))
    {
        let key = match level {
            Level::Campaign => k.campaign_id,
            Level::AdGroup => k.ad_group_id,
            Level::Keyword => k.id,
        };
        let model = KeywordModel::new(w, k);
        let entry = series.entry(key).or_default();
        let mut day = c.start;
        while day <= end {
            let m = model.day(w, day);
            if m.impressions > 0 || m.view_installs() > 0 {
                entry.0.add(&m);
                if let Some(g) = c.granularity {
                    entry.1.entry(bucket(day, g)).or_default().add(&m);
                }
            }
            day = day.next_day().expect("date in range");
        }
    }
    let mut grand = Totals::default();
    let mut rows: Vec<(Value, Totals, Value)> = Vec::new();
    for (id, (total, buckets)) in series
        .into_iter()
        .filter(|(_, (t, _))| t.impressions > 0 || t.view_installs() > 0)
    {
        grand.add(&total);
        let granular: Option<Vec<Value>> = c.granularity.map(|_| {
            buckets
                .iter()
                .map(|(date, t)| metrics(t, Some(date), currency, c.fields.as_deref()))
                .collect()
        });
        let row = json!({
            "totalMetrics": metrics(&total, None, currency, c.fields.as_deref()),
            "granularMetrics": granular,
            "metadata": metadata(w, id, level),
        });
        let sort_view = metrics(&total, None, currency, None);
        rows.push((row, total, sort_view));
    }
    rows.sort_by(|a, b| {
        for (field, order) in &c.sorting {
            let key = |r: &(Value, Totals, Value)| -> Value {
                match field.as_str() {
                    "id" | "name" | "text" => r.0["metadata"][field.as_str()].clone(),
                    f => r.2[f]
                        .get("amount")
                        .and_then(|a| a.as_str())
                        .and_then(|a| a.parse::<f64>().ok())
                        .map(Value::from)
                        .unwrap_or_else(|| r.2[f].clone()),
                }
            };
            let (x, y) = (key(a), key(b));
            let o = match (x.as_f64(), y.as_f64()) {
                (Some(p), Some(q)) => p.partial_cmp(&q).unwrap_or(std::cmp::Ordering::Equal),
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
    });
    let total_count = rows.len();
    let page: Vec<Value> = rows
        .into_iter()
        .skip(c.offset as usize)
        .take(c.page_size as usize)
        .map(|r| r.0)
        .collect();
    let summary = c
        .grand_total
        .then(|| json!({ "grandTotal": metrics(&grand, None, currency, c.fields.as_deref()) }));
    json!({
        "result": { "rows": page, "summary": summary },
        "pagination": { "offset": c.offset, "pageSize": c.page_size, "totalCount": total_count },
        "error": null,
    })
}

fn ratio(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        ((a as f64 / b as f64) * 10_000.0).round() / 10_000.0
    }
}

fn per(spend: i64, n: u64, scale: i64) -> i64 {
    if n == 0 { 0 } else { spend * scale / n as i64 }
}

/// An `AppsMetrics` object, restricted to `fields` when given.
fn metrics(t: &Totals, date: Option<&str>, currency: &str, fields: Option<&[String]>) -> Value {
    let all = json!({
        "localSpend": money(t.spend, currency),
        "impressions": t.impressions, "taps": t.taps, "ttr": ratio(t.taps, t.impressions),
        "cpt": money(per(t.spend, t.taps, 1), currency), "cpm": money(per(t.spend, t.impressions, 1000), currency),
        "tapInstalls": t.tap_installs(), "tapInstallCPI": money(per(t.spend, t.tap_installs(), 1), currency),
        "totalNewDownloads": t.tap_new_downloads + t.view_new_downloads,
        "totalRedownloads": t.tap_redownloads + t.view_redownloads,
        "viewInstalls": t.view_installs(), "totalInstalls": t.total_installs(),
        "tapNewDownloads": t.tap_new_downloads, "tapRedownloads": t.tap_redownloads,
        "viewNewDownloads": t.view_new_downloads, "viewRedownloads": t.view_redownloads,
        "totalAvgCPI": money(per(t.spend, t.total_installs(), 1), currency),
        "totalInstallRate": ratio(t.total_installs(), t.taps), "tapInstallRate": ratio(t.tap_installs(), t.taps),
        "tapPreOrdersPlaced": 0, "viewPreOrdersPlaced": 0, "totalPreOrdersPlaced": 0,
    });
    let mut out = Map::new();
    if let Some(d) = date {
        out.insert("date".into(), json!(d));
    }
    for name in METRICS {
        if fields.is_none_or(|f| f.iter().any(|x| x == name)) {
            out.insert((*name).into(), all[*name].clone());
        }
    }
    Value::Object(out)
}

/// Row metadata in the shapes `AppsReportingCampaign`, `AppsReportingAdGroup`, `ReportingKeyword`.
fn metadata(w: &World, id: Id, level: Level) -> Value {
    let pick = |full: Value, keys: &[&str]| -> Value {
        Value::Object(
            keys.iter()
                .map(|k| ((*k).to_string(), full[*k].clone()))
                .collect(),
        )
    };
    match level {
        Level::Campaign => {
            let c = &w.campaigns[&id];
            let mut v = pick(
                render::campaign(w, c),
                &[
                    "id",
                    "promotedObjectType",
                    "promotedObjectId",
                    "name",
                    "status",
                    "deleted",
                    "displayStatus",
                    "modificationTime",
                    "creationTime",
                    "adAccountId",
                    "systemStatus",
                    "systemStatusReasons",
                    "startTime",
                    "endTime",
                    "billingEvent",
                    "systemStatusLimitingReasons",
                    "dailyBudget",
                ],
            );
            v["promotedObject"] = json!({ "name": w.apps.get(&c.adam_id).map(|a| a.name.clone()) });
            v["adChannelType"] = json!("SEARCH");
            v["bidStrategy"] = json!({ "bidStrategyType": "MANUAL_CPT", "bid": null });
            v
        }
        Level::AdGroup => {
            let g = &w.ad_groups[&id];
            let full = render::ad_group(w, g);
            let mut v = pick(
                full.clone(),
                &[
                    "id",
                    "campaignId",
                    "adAccountId",
                    "name",
                    "status",
                    "deleted",
                    "systemStatus",
                    "systemStatusReasons",
                    "systemStatusLimitingReasons",
                    "automatedKeywordsOptIn",
                    "automatedKeywordsRequired",
                    "pricingModel",
                    "displayStatus",
                    "modificationTime",
                    "creationTime",
                    "startTime",
                    "endTime",
                    "cpaCap",
                ],
            );
            v["bidStrategy"] =
                json!({ "bidStrategyType": "MANUAL_CPT", "bid": full["bidStrategy"]["bid"] });
            v
        }
        Level::Keyword => {
            let k = &w.keywords[&id];
            let mut v = pick(
                render::keyword(w, k),
                &[
                    "id",
                    "campaignId",
                    "adAccountId",
                    "deleted",
                    "text",
                    "status",
                    "matchType",
                    "bid",
                    "adGroupId",
                    "modificationTime",
                    "creationTime",
                    "displayStatus",
                ],
            );
            let g = &w.ad_groups[&k.ad_group_id];
            v["adGroup"] = json!({ "name": g.name, "deleted": g.life.deleted() });
            v
        }
    }
}
