//! Report row content: `AppsMetrics` objects and row metadata in the reference shapes
//! (`AppsReportingCampaign`, `AppsReportingAdGroup`, `ReportingKeyword`,
//! `ReportingSearchTerm`, `AppsReportingAd`).

use serde_json::{Value, json};

use time::Date;

use super::render;
use super::report_request::{Entity, Granularity, METRICS};
use super::report_rows::RowKey;
use crate::metrics::{KeywordModel, Totals};
use crate::sim::{Simulation, auto, terms};
use crate::world::World;
use crate::world::money::{MICROS, format_amount, minor_unit};

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

/// One metric's wire value, written straight to a serializer (a report page holds
/// millions): a count, a ratio, or `Money` of the currency.
enum MetricOut<'a> {
    Count(u64),
    Ratio(f64),
    Money(i64, &'a str),
}

impl serde::Serialize for MetricOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        match self {
            MetricOut::Count(n) => s.serialize_u64(*n),
            MetricOut::Ratio(r) => s.serialize_f64(*r),
            MetricOut::Money(micros, currency) => {
                let mut m = s.serialize_map(Some(2))?;
                m.serialize_entry("amount", &format_amount(*micros, currency))?;
                m.serialize_entry("currency", currency)?;
                m.end()
            }
        }
    }
}

/// One metric of `t` (`None` for an unknown name).
fn metric_out<'a>(t: &Totals, name: &str, currency: &'a str) -> Option<MetricOut<'a>> {
    use MetricOut::{Count, Money, Ratio};
    Some(match name {
        "localSpend" => Money(t.spend, currency),
        "impressions" => Count(t.impressions),
        "taps" => Count(t.taps),
        "ttr" => Ratio(ratio(t.taps, t.impressions)),
        "cpt" => Money(per(t.spend, t.taps, 1), currency),
        "cpm" => Money(per(t.spend, t.impressions, 1000), currency),
        "tapInstalls" => Count(t.tap_installs()),
        "tapInstallCPI" => Money(per(t.spend, t.tap_installs(), 1), currency),
        "totalNewDownloads" => Count(t.tap_new_downloads + t.view_new_downloads),
        "totalRedownloads" => Count(t.tap_redownloads + t.view_redownloads),
        "viewInstalls" => Count(t.view_installs()),
        "totalInstalls" => Count(t.total_installs()),
        "tapNewDownloads" => Count(t.tap_new_downloads),
        "tapRedownloads" => Count(t.tap_redownloads),
        "viewNewDownloads" => Count(t.view_new_downloads),
        "viewRedownloads" => Count(t.view_redownloads),
        "totalAvgCPI" => Money(per(t.spend, t.total_installs(), 1), currency),
        "totalInstallRate" => Ratio(ratio(t.total_installs(), t.taps)),
        "tapInstallRate" => Ratio(ratio(t.tap_installs(), t.taps)),
        "tapPreOrdersPlaced" | "viewPreOrdersPlaced" | "totalPreOrdersPlaced" => Count(0),
        _ => return None,
    })
}

/// One metric of `t` in its wire form (`None` for an unknown name).
pub fn metric_json(t: &Totals, name: &str, currency: &str) -> Option<Value> {
    metric_out(t, name, currency).map(|m| serde_json::to_value(m).expect("metric serializes"))
}

/// An `AppsMetrics` object, restricted to `fields` when given, written straight to the
/// serializer (a report page holds many).
pub struct MetricsOut<'a> {
    pub t: &'a Totals,
    pub date: Option<String>,
    pub currency: &'a str,
    pub fields: Option<&'a [String]>,
}

impl serde::Serialize for MetricsOut<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut m = s.serialize_map(None)?;
        if let Some(d) = &self.date {
            m.serialize_entry("date", d)?;
        }
        for name in METRICS {
            if self.fields.is_none_or(|f| f.iter().any(|x| x == name))
                && let Some(v) = metric_out(self.t, name, self.currency)
            {
                m.serialize_entry(name, &v)?;
            }
        }
        m.end()
    }
}

/// [`MetricsOut`] as a JSON value.
pub fn metrics(t: &Totals, date: Option<&str>, currency: &str, fields: Option<&[String]>) -> Value {
    serde_json::to_value(MetricsOut {
        t,
        date: date.map(str::to_string),
        currency,
        fields,
    })
    .expect("metrics serialize")
}

/// A metric of `t` as a number (amounts in currency units), for sorting.
pub fn metric_value(t: &Totals, name: &str) -> Option<f64> {
    let money = |m: i64| m as f64 / MICROS as f64;
    let ratio = |a: u64, b: u64| if b == 0 { 0.0 } else { a as f64 / b as f64 };
    let per = |n: u64| {
        if n == 0 {
            0.0
        } else {
            money(t.spend) / n as f64
        }
    };
    Some(match name {
        "localSpend" => money(t.spend),
        "impressions" => t.impressions as f64,
        "taps" => t.taps as f64,
        "ttr" => ratio(t.taps, t.impressions),
        "cpt" => per(t.taps),
        "cpm" => per(t.impressions) * 1000.0,
        "tapInstalls" => t.tap_installs() as f64,
        "tapInstallCPI" => per(t.tap_installs()),
        "totalNewDownloads" => (t.tap_new_downloads + t.view_new_downloads) as f64,
        "totalRedownloads" => (t.tap_redownloads + t.view_redownloads) as f64,
        "viewInstalls" => t.view_installs() as f64,
        "totalInstalls" => t.total_installs() as f64,
        "tapNewDownloads" => t.tap_new_downloads as f64,
        "tapRedownloads" => t.tap_redownloads as f64,
        "viewNewDownloads" => t.view_new_downloads as f64,
        "viewRedownloads" => t.view_redownloads as f64,
        "totalAvgCPI" => per(t.total_installs()),
        "totalInstallRate" => ratio(t.total_installs(), t.taps),
        "tapInstallRate" => ratio(t.tap_installs(), t.taps),
        "tapPreOrdersPlaced" | "viewPreOrdersPlaced" | "totalPreOrdersPlaced" => 0.0,
        _ => return None,
    })
}

/// The `date` of a time bucket starting at `at` (Julian day × 24 + hour): `YYYY-MM-DD HH`
/// for HOURLY, the first day of the day, Sunday-to-Saturday week or month otherwise.
pub fn bucket_label(at: i64, g: Granularity) -> String {
    let day = Date::from_julian_day((at / 24) as i32).expect("date in range");
    match g {
        Granularity::Hourly => format!("{day} {:02}", at % 24),
        _ => day.to_string(),
    }
}

/// `KeywordInsights` of keyword `id`: the bid that would win most of its auctions.
pub fn insights(w: &World, id: i64) -> Value {
    let Some(k) = w.keywords.get(&id) else {
        return Value::Null;
    };
    let currency = w.accounts[&k.ad_account_id].currency;
    let bid = KeywordModel::new(w, k).suggested_bid();
    let decimals = if minor_unit(currency) == MICROS { 0 } else { 2 };
    let amount: f64 = format!("{:.decimals$}", bid as f64 / MICROS as f64)
        .parse()
        .unwrap_or_default();
    json!({ "bidRecommendation": { "suggestedBidAmount": amount } })
}

/// Row metadata in the shapes `AppsReportingCampaign`, `AppsReportingAdGroup`,
/// `ReportingKeyword`, `ReportingSearchTerm` (source AUTO for search-match terms) and
/// `AppsReportingAd`.
pub fn metadata(sim: &mut Simulation<'_>, key: &RowKey, entity: Entity) -> Value {
    let w = sim.world;
    let id = key.id;
    match entity {
        Entity::Campaign => {
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
        Entity::AdGroup => {
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
        Entity::Keyword => reporting_keyword(w, id),
        Entity::SearchTerm => match auto::parse_id(id) {
            Some((group, _)) => {
                let g = &w.ad_groups[&group];
                let text = sim.auto_text(g.campaign_id, id);
                json!({
                    "campaignId": g.campaign_id, "adAccountId": g.ad_account_id,
                    "searchTermText": text, "searchTermSource": "AUTO",
                    "keyword": null, "adGroupId": g.id,
                    "adGroup": { "name": g.name, "deleted": g.life.deleted() },
                })
            }
            None => {
                let k = &w.keywords[&id];
                let g = &w.ad_groups[&k.ad_group_id];
                let text = terms::terms(w.seed, k)
                    .into_iter()
                    .nth(usize::from(key.term))
                    .map(|t| t.0);
                json!({
                    "campaignId": k.campaign_id, "adAccountId": k.ad_account_id,
                    "searchTermText": text, "searchTermSource": "TARGETED",
                    "keyword": reporting_keyword(w, id), "adGroupId": k.ad_group_id,
                    "adGroup": { "name": g.name, "deleted": g.life.deleted() },
                })
            }
        },
        Entity::Ad => {
            let a = &w.ads[&id];
            let mut v = pick(
                render::ad(w, a),
                &[
                    "id",
                    "name",
                    "deleted",
                    "status",
                    "systemStatus",
                    "systemStatusReasons",
                    "systemStatusLimitingReasons",
                    "adAccountId",
                    "campaignId",
                    "adGroupId",
                    "creationTime",
                    "modificationTime",
                    "displayStatus",
                ],
            );
            v["creative"] = w.creatives.get(&a.creative_id).map_or(Value::Null, |c| {
                json!({
                    "id": c.id, "creativeType": c.kind.as_str(),
                    "systemStatus": if c.life.deleted() { "INVALID" } else { "VALID" },
                    "creativeSpec": null,
                    "destination": { "parameters": { "adamId": c.adam_id.to_string(), "productPageId": c.product_page_id } },
                })
            });
            v
        }
    }
}

fn pick(full: Value, keys: &[&str]) -> Value {
    Value::Object(
        keys.iter()
            .map(|k| ((*k).to_string(), full[*k].clone()))
            .collect(),
    )
}

/// `ReportingKeyword` of keyword `id`.
fn reporting_keyword(w: &World, id: i64) -> Value {
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
