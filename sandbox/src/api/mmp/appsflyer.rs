//! AppsFlyer's Master API standing in: `GET /api/master-agg-data/v4/app/{app_id}` with a
//! bearer token, `from`/`to` (YYYY-MM-DD, at most 31 days, the install dates), `groupings`
//! and `kpis` (comma-separated), the media-source filter `pid`, `currency` (`preferred`:
//! the app's currency, its ad account's; else US dollars at the sandbox's reference rates),
//! `timezone` (the campaigns' own days either way) and `format=json` (the one format
//! served). Rows are the world's cohorts ([`super::cohorts`]) grouped by the groupings
//! asked; every installing app is `id<adamId>`.
//!
//! Groupings served: `pid` (`Apple Search Ads`), `c`, `af_c_id`, `af_adset`, `af_adset_id`,
//! `af_keywords` (the keyword's text, empty for Search Match), `install_time`
//! (YYYY-MM-DD) and `attributed_touch_type` (`click`, `impression`). KPIs: `installs`,
//! `revenue`, `cohort_day_N_total_revenue_per_user` (revenue of days 0–N after install ÷
//! installs), `event_counter_<event>` and `sales_in_usd_<event>` (revenue of the event, in
//! the currency asked). Anything else answers AppsFlyer's 416 `Wrong API Fields`; a wrong
//! token 401 `The supplied API token is invalid`; an app that is not the world's 403
//! `Not authorized app-ids: …`.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde_json::{Map, Value, json};
use time::{Date, Duration};

use super::cohorts::{self, Cohort};
use super::{APPSFLYER_TOKEN, too_many};
use crate::sim::Simulation;
use crate::state::Sandbox;
use crate::world::World;

const GROUPINGS: [&str; 8] = [
    "pid",
    "c",
    "af_c_id",
    "af_adset",
    "af_adset_id",
    "af_keywords",
    "install_time",
    "attributed_touch_type",
];

fn refuse(status: StatusCode, message: &str) -> Response {
    (status, Json(json!({ "message": message }))).into_response()
}

use axum::Json;

/// A KPI asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Kpi {
    Installs,
    Revenue,
    CohortPerUser(i64),
    EventCount(String),
    EventSales(String),
}

fn kpi(name: &str) -> Option<Kpi> {
    match name {
        "installs" => Some(Kpi::Installs),
        "revenue" => Some(Kpi::Revenue),
        _ => {
            if let Some(day) = name
                .strip_prefix("cohort_day_")
                .and_then(|r| r.strip_suffix("_total_revenue_per_user"))
            {
                return day
                    .parse()
                    .ok()
                    .filter(|d| (1..=90).contains(d))
                    .map(Kpi::CohortPerUser);
            }
            let event = |p: &str| {
                name.strip_prefix(p)
                    .filter(|e| !e.is_empty())
                    .map(str::to_string)
            };
            event("event_counter_")
                .map(Kpi::EventCount)
                .or_else(|| event("sales_in_usd_").map(Kpi::EventSales))
        }
    }
}

/// One cohort's value of a grouping.
fn grouping(w: &World, c: &Cohort, name: &str) -> String {
    match name {
        "pid" => "Apple Search Ads".into(),
        "c" => w
            .campaigns
            .get(&c.campaign_id)
            .map(|x| x.name.clone())
            .unwrap_or_default(),
        "af_c_id" => c.campaign_id.to_string(),
        "af_adset" => w
            .ad_groups
            .get(&c.ad_group_id)
            .map(|x| x.name.clone())
            .unwrap_or_default(),
        "af_adset_id" => c.ad_group_id.to_string(),
        "af_keywords" => c
            .keyword_id
            .and_then(|k| w.keywords.get(&k))
            .map(|k| k.text.clone())
            .unwrap_or_default(),
        "install_time" => c.day.to_string(),
        _ => if c.click { "click" } else { "impression" }.into(),
    }
}

/// Summed cohorts of one group: installs and every event.
#[derive(Default)]
struct Group {
    installs: u64,
    events: Vec<cohorts::Event>,
}

/// Micros of the app's currency in the currency asked: itself, or US dollars at the day's
/// reference rates (units per euro, EUR itself 1).
fn converter(currency: &'static str, preferred: bool, day: Date) -> impl Fn(i64) -> f64 {
    let per_euro = |code: &str| -> f64 {
        if code == "EUR" {
            return 1.0;
        }
        crate::api::eurofxref::rate(code, day)
            .and_then(|r| r.parse().ok())
            .unwrap_or(1.0)
    };
    let factor = if preferred || currency == "USD" {
        1.0
    } else {
        per_euro("USD") / per_euro(currency)
    };
    move |micros| (micros as f64 * factor / 1_000_000.0 * 10_000.0).round() / 10_000.0
}

pub async fn master_report(
    State(sandbox): State<Arc<Sandbox>>,
    Path(app_id): Path<String>,
    Query(q): Query<HashMap<String, String>>,
    headers: HeaderMap,
) -> Response {
    let bearer = headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.strip_prefix("Bearer "));
    if bearer != Some(APPSFLYER_TOKEN) {
        return refuse(
            StatusCode::UNAUTHORIZED,
            "The supplied API token is invalid",
        );
    }
    if sandbox.mmp.take_429() {
        return too_many();
    }
    let w = sandbox.world.read();
    let adam_id = app_id
        .strip_prefix("id")
        .and_then(|n| n.parse::<i64>().ok());
    let Some((adam_id, currency)) =
        adam_id.and_then(|a| cohorts::currency_of(&w, a).map(|c| (a, c)))
    else {
        return (
            StatusCode::FORBIDDEN,
            format!("Not authorized app-ids: {app_id}"),
        )
            .into_response();
    };
    let day = |k: &str| {
        q.get(k).and_then(|d| {
            Date::parse(d, time::macros::format_description!("[year]-[month]-[day]")).ok()
        })
    };
    let (Some(from), Some(to)) = (day("from"), day("to")) else {
        return (StatusCode::FORBIDDEN, "Unrecognized date format.").into_response();
    };
    if from > to {
        return (StatusCode::FORBIDDEN, "From date can't be after To date.").into_response();
    }
    if (to - from).whole_days() >= 31 {
        return (StatusCode::FORBIDDEN, "The date range is at most 31 days.").into_response();
    }
    if q.get("format").map(String::as_str) != Some("json") {
        return (
            StatusCode::NOT_ACCEPTABLE,
            "The stand-in serves format=json only",
        )
            .into_response();
    }
    let list = |k: &str| -> Vec<String> {
        q.get(k)
            .map(|v| {
                v.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default()
    };
    let groupings = list("groupings");
    if groupings.is_empty() {
        return (StatusCode::RANGE_NOT_SATISFIABLE, "No Groupings Selected").into_response();
    }
    let kpis: Option<Vec<(String, Kpi)>> = list("kpis")
        .into_iter()
        .map(|k| kpi(&k).map(|x| (k, x)))
        .collect();
    let (Some(kpis), true) = (
        kpis,
        groupings.iter().all(|g| GROUPINGS.contains(&g.as_str())),
    ) else {
        return (StatusCode::RANGE_NOT_SATISFIABLE, "Wrong API Fields").into_response();
    };
    if kpis.is_empty() {
        return (StatusCode::FORBIDDEN, "No KPIs provided.").into_response();
    }
    if list("pid").iter().any(|p| p != "Apple Search Ads") && !list("pid").is_empty() {
        return Json(Value::Array(Vec::new())).into_response();
    }
    let preferred = q.get("currency").map(String::as_str) == Some("preferred");
    let partial = sandbox.mmp.config().partial_last_day;
    let rows = tokio::task::spawn_blocking(move || {
        let mut sim = Simulation::new(&w);
        let mut groups: BTreeMap<Vec<String>, Group> = BTreeMap::new();
        let mut day = from;
        while day <= to {
            let share = if partial && day == to { 0.5 } else { 1.0 };
            for c in cohorts::cohorts(&w, &mut sim, adam_id, day, share) {
                let key = groupings.iter().map(|g| grouping(&w, &c, g)).collect();
                let g: &mut Group = groups.entry(key).or_default();
                g.installs += c.installs;
                g.events.extend(c.events);
            }
            day += Duration::days(1);
        }
        let money = converter(currency, preferred, to);
        groups
            .into_iter()
            .map(|(key, g)| {
                let mut row = Map::new();
                for (name, value) in groupings.iter().zip(key) {
                    row.insert(name.clone(), Value::String(value));
                }
                for (name, k) in &kpis {
                    let sum = |f: &dyn Fn(&cohorts::Event) -> bool| -> i64 {
                        g.events.iter().filter(|e| f(e)).map(|e| e.micros).sum()
                    };
                    let value = match k {
                        Kpi::Installs => json!(g.installs),
                        Kpi::Revenue => json!(money(sum(&|_| true))),
                        Kpi::CohortPerUser(d) => {
                            let per_user = money(sum(&|e| e.age <= *d)) / g.installs.max(1) as f64;
                            json!((per_user * 1e6).round() / 1e6)
                        }
                        Kpi::EventCount(e) => {
                            json!(g.events.iter().filter(|x| x.name == e).count())
                        }
                        Kpi::EventSales(e) => json!(money(sum(&|x| x.name == e))),
                    };
                    row.insert(name.clone(), value);
                }
                Value::Object(row)
            })
            .collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    Json(Value::Array(rows)).into_response()
}
