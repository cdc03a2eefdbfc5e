//! AppsFlyer's Master API (aggregate, by install date): `GET {base}/api/master-agg-data/v4/
//! app/{app_id}` with the V2 API token as a bearer token, `from`/`to` (YYYY-MM-DD, 1–31
//! days, the LTV range: installs of those days with everything they did since),
//! `groupings`, `kpis`, the media-source filter `pid`, `currency=preferred` and
//! `timezone=preferred` (the app's own settings in AppsFlyer) and `format=json`.
//!
//! What is asked: groupings `pid, install_time, af_c_id, af_adset_id, af_keywords,
//! attributed_touch_type` (Apple Search Ads' campaign id, ad group id, keyword text, click
//! or impression) for `pid=Apple Search Ads`; KPIs `installs`, `revenue`,
//! `cohort_day_{1,3,7,14,30}_total_revenue_per_user` (the cohort curve) and, per event,
//! `event_counter_<event>` and `sales_in_usd_<event>`.
//!
//! Assumptions where AppsFlyer's reference is silent (docs/api/attribution.md "Pull"): the
//! JSON answer is an array of objects keyed by the requested grouping and KPI names, values
//! numbers or strings; `install_time` is the install date; with `currency=preferred` every
//! revenue KPI (`sales_in_usd_*` despite its name) is in the app-specific currency; and
//! `cohort_day_N` covers the install day and the N days after it (day 0 alone is not
//! offered: "cohort day range is 1-90").

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use searchdeck_common::attribution::{
    ClaimType,
    pull::{KeywordRef, PulledEvent, PulledRow},
};
use secrecy::{ExposeSecret, SecretString};
use serde_json::{Map, Value};
use time::Date;

use super::{MmpConfig, MmpError, http};

/// The media source of Apple Ads installs in AppsFlyer.
pub const APPLE_SEARCH_ADS: &str = "Apple Search Ads";
/// The cohort days whose cumulative revenue per user is asked for.
pub const COHORT_DAYS: [i64; 5] = [1, 3, 7, 14, 30];
/// Most days one Master API request covers.
pub const MAX_DAYS: i64 = 31;
/// The groupings asked for, in order.
pub const GROUPINGS: &str =
    "pid,install_time,af_c_id,af_adset_id,af_keywords,attributed_touch_type";

/// One report request.
#[derive(Debug, Clone)]
pub struct MasterQuery<'a> {
    /// AppsFlyer's app id (`id1234567890`).
    pub app_id: &'a str,
    pub from: Date,
    pub to: Date,
    pub events: &'a [String],
    /// The app-specific currency (the rows' currency).
    pub currency: &'a str,
}

/// What a report answered: its rows, and the rows left out (another media source, no
/// campaign id).
#[derive(Debug, Clone, Default)]
pub struct MasterReport {
    pub rows: Vec<PulledRow>,
    pub skipped: usize,
}

/// The Master API client.
#[derive(Debug, Clone)]
pub struct AppsFlyer {
    http: reqwest::Client,
    config: MmpConfig,
}

impl AppsFlyer {
    pub fn new(config: MmpConfig) -> Result<AppsFlyer, MmpError> {
        let http = reqwest::Client::builder()
            .timeout(config.timeout)
            .build()
            .map_err(|e| MmpError::Malformed(e.to_string()))?;
        Ok(AppsFlyer { http, config })
    }

    /// The KPIs asked for `events`.
    pub fn kpis(events: &[String]) -> String {
        let mut kpis = vec!["installs".to_string(), "revenue".to_string()];
        kpis.extend(
            COHORT_DAYS
                .iter()
                .map(|d| format!("cohort_day_{d}_total_revenue_per_user")),
        );
        for e in events {
            kpis.push(format!("event_counter_{e}"));
            kpis.push(format!("sales_in_usd_{e}"));
        }
        kpis.join(",")
    }

    /// The Apple Search Ads rows of `query`'s app and days.
    pub async fn master_report(
        &self,
        token: &SecretString,
        query: &MasterQuery<'_>,
    ) -> Result<MasterReport, MmpError> {
        let url = format!(
            "{}/api/master-agg-data/v4/app/{}",
            self.config.appsflyer_base, query.app_id
        );
        let kpis = Self::kpis(query.events);
        let (from, to) = (query.from.to_string(), query.to.to_string());
        let params = [
            ("from", from.as_str()),
            ("to", to.as_str()),
            ("groupings", GROUPINGS),
            ("kpis", kpis.as_str()),
            ("pid", APPLE_SEARCH_ADS),
            ("currency", "preferred"),
            ("timezone", "preferred"),
            ("format", "json"),
        ];
        let answer = http::send(&self.config, || {
            self.http
                .get(&url)
                .query(&params)
                .bearer_auth(token.expose_secret())
                .header(reqwest::header::ACCEPT, "application/json")
        })
        .await?;
        let status = answer.status.as_u16();
        match status {
            200 => read(&answer.body, query),
            204 => Ok(MasterReport::default()),
            401 => Err(MmpError::Unauthorized(
                "AppsFlyer refused the API token: give a current V2 token (AppsFlyer › API tokens)"
                    .to_string(),
            )),
            _ => Err(MmpError::Refused {
                status,
                message: format!("AppsFlyer answered {status}: {}", message_of(&answer.body)),
            }),
        }
    }
}

/// AppsFlyer's error text: a JSON `message`, a JSON string, or the body itself (cut short).
fn message_of(body: &str) -> String {
    let text = match serde_json::from_str::<Value>(body) {
        Ok(Value::Object(o)) => o
            .get("message")
            .and_then(Value::as_str)
            .map(str::to_string)
            .unwrap_or_else(|| body.to_string()),
        Ok(Value::String(s)) => s,
        _ => body.to_string(),
    };
    text.chars().take(300).collect()
}

/// The report's rows.
fn read(body: &str, query: &MasterQuery<'_>) -> Result<MasterReport, MmpError> {
    let rows: Vec<Map<String, Value>> = serde_json::from_str(body)
        .map_err(|e| MmpError::Malformed(format!("AppsFlyer's report did not read: {e}")))?;
    let adam_id = query
        .app_id
        .strip_prefix("id")
        .and_then(|n| n.parse().ok())
        .unwrap_or(0);
    let mut out = MasterReport::default();
    for row in &rows {
        match read_row(row, adam_id, query) {
            Some(r) => out.rows.push(r),
            None => out.skipped += 1,
        }
    }
    Ok(out)
}

fn text<'a>(row: &'a Map<String, Value>, key: &str) -> Option<std::borrow::Cow<'a, str>> {
    match row.get(key)? {
        Value::String(s) => Some(std::borrow::Cow::Borrowed(s.trim())),
        Value::Number(n) => Some(std::borrow::Cow::Owned(n.to_string())),
        _ => None,
    }
}

fn decimal(row: &Map<String, Value>, key: &str) -> Decimal {
    text(row, key)
        .and_then(|t| {
            t.parse::<Decimal>()
                .ok()
                .or_else(|| Decimal::from_scientific(&t).ok())
        })
        .unwrap_or_default()
}

fn micros(amount: Decimal) -> i64 {
    (amount * Decimal::from(1_000_000))
        .round()
        .to_i64()
        .unwrap_or(0)
}

fn id(row: &Map<String, Value>, key: &str) -> Option<i64> {
    text(row, key)?.parse().ok().filter(|n: &i64| *n > 0)
}

fn read_row(row: &Map<String, Value>, adam_id: i64, query: &MasterQuery<'_>) -> Option<PulledRow> {
    if text(row, "pid").is_some_and(|p| p != APPLE_SEARCH_ADS) {
        return None;
    }
    let campaign_id = id(row, "af_c_id")?;
    let install_day = text(row, "install_time")?.get(..10)?.to_string();
    let installs = decimal(row, "installs").to_i64().unwrap_or(0);
    let keyword = match text(row, "af_keywords") {
        Some(k) if !k.is_empty() && k != "None" && k != "null" => KeywordRef::Text(k.into_owned()),
        _ => KeywordRef::None,
    };
    let curve = COHORT_DAYS
        .iter()
        .map(|d| {
            let per_user = decimal(row, &format!("cohort_day_{d}_total_revenue_per_user"));
            (*d, micros(per_user * Decimal::from(installs)))
        })
        .collect();
    let events = query
        .events
        .iter()
        .map(|e| PulledEvent {
            name: e.clone(),
            count: decimal(row, &format!("event_counter_{e}"))
                .to_i64()
                .unwrap_or(0),
            revenue_micros: micros(decimal(row, &format!("sales_in_usd_{e}"))),
        })
        .filter(|e| e.count != 0 || e.revenue_micros != 0)
        .collect();
    Some(PulledRow {
        install_day,
        adam_id,
        campaign_id,
        ad_group_id: id(row, "af_adset_id"),
        keyword,
        claim_type: text(row, "attributed_touch_type").and_then(|t| ClaimType::parse(&t)),
        installs,
        events,
        revenue_micros: micros(decimal(row, "revenue")),
        curve,
        currency: query.currency.to_string(),
    })
}
