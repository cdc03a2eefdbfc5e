//! Postbacks into the reports: an Adjust install and its purchase (and a refund) for a
//! keyword of the seeded campaign group, replayed, then read back in the KEYWORDS, GROUPS
//! and CAMPAIGNS tables with their Conversions and Cohort columns.

use super::{connect, count, fill, nov, path_of, postback};
use crate::common::{TestApp, TestBackend};
use crate::reports::seed::{World, counters, world};
use axum::http::{Method, StatusCode};
use rust_decimal::Decimal;
use serde_json::{Value, json};

/// The Adjust callback for an activity, filled as Adjust fills it.
fn adjust(template: &str, activity: &str, event: &str, at: i64, revenue: &str) -> String {
    let at = at.to_string();
    let installed = super::nov(5, 10).to_string();
    path_of(&fill(
        template,
        &[
            ("activity_kind", activity),
            ("event_name", event),
            ("network_name", "Apple Search Ads"),
            ("app_id", "900"),
            ("iad_org_id", "5000"),
            ("iad_campaign_id", "101"),
            ("iad_adgroup_id", "201"),
            ("iad_keyword_id", "301"),
            ("iad_ad_id", "-1"),
            ("iad_conversion_type", "Download"),
            ("country", "us"),
            ("revenue_float", revenue),
            ("currency", if revenue.is_empty() { "" } else { "USD" }),
            ("created_at", &at),
            ("installed_at", &installed),
            ("adid", "device-1"),
        ],
    ))
}

async fn report(app: &TestApp, w: &World, level: &str) -> Value {
    let res = app
        .post(
            &format!("/api/asa/reports?accountId={}&orgId={}", w.account_id, w.org_id),
            json!({"level": level, "startDate": "2026-11-01", "endDate": "2026-11-20", "pageSize": 100}),
            Some(&w.cookie),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    res.json["result"].clone()
}

fn row<'a>(result: &'a Value, field: &str, id: &str) -> &'a Value {
    result["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|i| i[field] == id)
        .unwrap_or_else(|| panic!("no row {field} = {id}: {result}"))
}

fn dec(v: &Value) -> Decimal {
    v.to_string()
        .parse()
        .unwrap_or_else(|_| panic!("a number: {v}"))
}

backend_tests! {
    async fn attribution_postbacks_become_conversions_in_every_table(app: TestApp) {
        let w = world(&app, "USD").await;
        let connected = connect(&app, &w.cookie, "adjust").await;
        assert_eq!(connected["setup"]["method"], "GET");
        assert_eq!(connected["item"]["status"], "Loading data");
        let template = connected["setup"]["url"].as_str().unwrap().to_string();
        assert!(template.contains("{iad_keyword_id}"), "{template}");

        let install = adjust(&template, "install", "", nov(5, 10), "");
        let purchase = adjust(&template, "event", "purchase", nov(6, 12), "9.99");
        let refund = adjust(&template, "event", "refund_purchase", nov(7, 12), "-2.50");
        for (path, stored) in [(&install, 1), (&purchase, 1), (&refund, 1)] {
            let res = postback(&app, Method::GET, path, None, &[]).await;
            assert_eq!(res.status, StatusCode::OK, "{path}: {:?}", res.json);
            assert_eq!(res.json["result"]["stored"], stored, "{:?}", res.json);
        }
        // A provider's retry, and a replay of all three: stored once.
        for path in [&install, &purchase, &refund, &purchase] {
            let res = postback(&app, Method::GET, path, None, &[]).await;
            assert_eq!((res.json["result"]["stored"].as_i64(), res.json["result"]["duplicates"].as_i64()), (Some(0), Some(1)), "{:?}", res.json);
        }
        assert_eq!(count(&app, "attribution_events").await, 3);

        // The refund counts as revenue only once the user says so (its name is no purchase).
        let names = app.get("/api/mmpEventsSettings/allNames", Some(&w.cookie)).await;
        let names = names.json["result"]["items"].as_array().unwrap().clone();
        let of = |n: &str| names.iter().find(|i| i["eventName"] == n).unwrap_or_else(|| panic!("{n}: {names:?}"))["countsAs"].clone();
        assert_eq!(of("purchase"), json!({"trial": false, "purchase": true, "revenue": true}));
        assert_eq!(of("refund_purchase"), json!({"trial": false, "purchase": true, "revenue": true}));
        let res = app.request(Method::PATCH, "/api/mmpEventsSettings/one", Some(json!({"provider": "adjust", "adamId": "900", "eventName": "refund_purchase", "countsAs": {"trial": false, "purchase": false, "revenue": true}})), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["countsAs"]["purchase"], false);

        // KEYWORDS: the keyword's installs, purchase and revenue net of the refund.
        let keywords = report(&app, &w, "KEYWORDS").await;
        let k = row(&keywords, "keywordId", "301");
        assert_eq!(k["trackedInstalls"], 1, "{k}");
        assert_eq!(k["purchases"], 1);
        assert_eq!(k["trials"], 0);
        assert_eq!(dec(&k["totalRevenue"]), Decimal::new(749, 2));
        assert_eq!(dec(&k["tapRevenue"]), Decimal::ZERO, "Adjust's claim type is not bound: {k}");
        let spend: i64 = (1..=20).filter_map(|d| counters(301, d)).map(|c| c.spend_micros()).sum();
        let roas = (Decimal::from(7_490_000) / Decimal::from(spend)).round_dp(4);
        assert_eq!(dec(&k["roas"]), roas);
        assert_eq!(dec(&k["costPerPurchase"]), (Decimal::new(spend, 6) * Decimal::ONE).floor_to_cents());
        assert_eq!(dec(&k["arpu"]), Decimal::new(749, 2));
        // Cohorts: the purchase came a day after the install, the refund two.
        assert_eq!(dec(&k["revenueD0"]), Decimal::ZERO);
        assert_eq!(dec(&k["revenueD1"]), Decimal::new(999, 2));
        assert_eq!(dec(&k["revenueD3"]), Decimal::new(749, 2));
        let other = row(&keywords, "keywordId", "302");
        assert_eq!((other["trackedInstalls"].as_i64(), other["roas"].as_f64()), (Some(0), Some(0.0)));
        assert_eq!(keywords["totals"]["trackedInstalls"], 1);
        assert_eq!(dec(&keywords["totals"]["totalRevenue"]), Decimal::new(749, 2));
        assert!(keywords["hidden"].as_array().unwrap().contains(&json!("totalRevenue")));

        // The ad group and campaign carry the same events; the other campaign none.
        let groups = report(&app, &w, "GROUPS").await;
        assert_eq!(row(&groups, "adGroupId", "201")["trackedInstalls"], 1);
        let campaigns = report(&app, &w, "CAMPAIGNS").await;
        assert_eq!(dec(&row(&campaigns, "campaignId", "101")["totalRevenue"]), Decimal::new(749, 2));
        assert_eq!(row(&campaigns, "campaignId", "102")["trackedInstalls"], 0);
        // A range that leaves the install's day out leaves its cohort out.
        let res = app.post(&format!("/api/asa/reports?accountId={}&orgId={}", w.account_id, w.org_id),
            json!({"level": "CAMPAIGNS", "startDate": "2026-11-06", "endDate": "2026-11-20"}), Some(&w.cookie)).await;
        assert_eq!(row(&res.json["result"], "campaignId", "101")["trackedInstalls"], 0);

        // Sorted and filtered on the new columns like any metric.
        let url = format!("/api/asa/reports?accountId={}&orgId={}", w.account_id, w.org_id);
        let res = app.post(&url, json!({"level": "KEYWORDS", "startDate": "2026-11-01", "endDate": "2026-11-20", "sort": {"field": "roas", "order": "desc"}}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["items"][0]["keywordId"], "301");
        let res = app.post(&url, json!({"level": "KEYWORDS", "startDate": "2026-11-01", "endDate": "2026-11-20", "filters": [{"field": "trackedInstalls", "operator": "GREATER_THAN", "values": [0]}]}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!((res.json["result"]["total"].as_i64(), res.json["result"]["items"][0]["keywordId"].as_str()), (Some(1), Some("301")), "{:?}", res.json);
        assert_eq!(res.json["result"]["totals"]["trackedInstalls"], 1);
        let res = app.post(&url, json!({"level": "SEARCHTERMS", "startDate": "2026-11-01", "endDate": "2026-11-20", "filters": [{"field": "roas", "operator": "GREATER_THAN", "values": [1]}]}), Some(&w.cookie)).await;
        assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("filters[0].field")), "{:?}", res.json);

        // The integration is active now, and its newest events are listed.
        let list = app.get("/api/attribution/integrations", Some(&w.cookie)).await;
        let adjust = list.json["result"]["items"].as_array().unwrap().iter().find(|i| i["provider"] == "adjust").unwrap().clone();
        assert_eq!(adjust["status"], "Active", "{adjust}");
        let token = path_of(&template).split('/').nth(5).unwrap().split('?').next().unwrap().to_string();
        let listed = adjust["setup"]["url"].as_str().unwrap();
        assert!(!listed.contains(&token) && listed.contains(&format!("/adjust/…{}", &token[token.len() - 4..])), "the token is masked: {listed}");
        let events = app.get("/api/attribution/integrations/adjust/events", Some(&w.cookie)).await;
        let events = events.json["result"]["items"].as_array().unwrap().clone();
        assert_eq!(events.len(), 3);
        assert!(events.iter().any(|e| e["revenue"] == "-2.50" && e["keywordId"] == "301" && e["installDay"] == "2026-11-05"), "{events:?}");
    }
}

/// Floors a decimal to cents.
trait Cents {
    fn floor_to_cents(self) -> Decimal;
}

impl Cents for Decimal {
    fn floor_to_cents(self) -> Decimal {
        (self * Decimal::from(100)).floor() / Decimal::from(100)
    }
}
