//! `POST /api/asa/reports` through the real router on SQLite and PostgreSQL: exact totals
//! for arbitrary ranges (against naive sums of the raw rows), filters and the spec's
//! condition mapping, sorting on every column, paging, levels, graph, money floored per
//! currency (JPY, KWD, CHF), 400s naming the field, 404 for another workspace's account,
//! readers reading, no money added across currencies, hidden campaigns left out of CAMPAIGNS unless asked for.

mod popularity;
pub(crate) mod seed;

use crate::common::{TestApp, TestBackend};
use axum::http::StatusCode;
use rust_decimal::Decimal;
use searchdeck_api::session::Role;
use seed::{DAYS, KEYWORDS, World, another_org, counters, world};
use serde_json::{Value, json};

fn url(w: &World) -> String {
    format!(
        "/api/asa/reports?accountId={}&orgId={}",
        w.account_id, w.org_id
    )
}

async fn report(app: &TestApp, w: &World, body: Value) -> Value {
    let res = app.post(&url(w), body.clone(), Some(&w.cookie)).await;
    assert_eq!(res.status, StatusCode::OK, "{body} → {:?}", res.json);
    res.json["result"].clone()
}

/// An id as the API sends it: a string of digits (ids past 2^53 stay exact).
fn id(v: &Value) -> Option<i64> {
    v.as_str()?.parse().ok()
}

fn ids(result: &Value, field: &str) -> Vec<i64> {
    result["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| id(&i[field]).unwrap_or_else(|| panic!("{field} is an id string: {i}")))
        .collect()
}

fn dec(v: &Value) -> Decimal {
    v.to_string().parse().unwrap()
}

/// Naive sums over keyword `ks` for days `a..=b`: (impressions, taps, spend micros).
fn naive(ks: &[i64], a: u8, b: u8) -> (i64, i64, i64) {
    let mut out = (0, 0, 0);
    for d in a..=b {
        for k in ks {
            if let Some(c) = counters(*k, d) {
                out.0 += c.impressions();
                out.1 += c.taps();
                out.2 += c.spend_micros();
            }
        }
    }
    out
}

fn floor(micros: i64, digits: u32) -> Decimal {
    Decimal::new(micros, 6)
        .round_dp_with_strategy(digits, rust_decimal::RoundingStrategy::ToNegativeInfinity)
}

const ALL_KEYWORDS: [i64; 5] = [301, 302, 303, 304, 305];

fn range(a: u8, b: u8) -> (String, String) {
    (format!("2026-11-{a:02}"), format!("2026-11-{b:02}"))
}

backend_tests! {
    async fn keywords_are_exact_sorted_and_paged(app: TestApp) {
        let w = world(&app, "USD").await;
        let (s, e) = range(3, 12);
        let r = report(&app, &w, json!({"level": "KEYWORDS", "startDate": s, "endDate": e,
            "sort": {"field": "localSpend", "order": "desc"}, "pageSize": 2})).await;
        // 301..305: 306 is deleted without metrics; 305 is deleted but spent in the range.
        assert_eq!(r["total"], 5);
        assert_eq!(r["items"].as_array().unwrap().len(), 2);
        assert_eq!((r["page"].as_i64(), r["pageSize"].as_i64()), (Some(1), Some(2)));
        let (imp, taps, spend) = naive(&ALL_KEYWORDS, 3, 12);
        assert_eq!(r["totals"]["impressions"], imp);
        assert_eq!(r["totals"]["taps"], taps);
        assert_eq!(dec(&r["totals"]["localSpend"]), floor(spend, 2));
        assert_eq!(r["currency"], "USD");
        assert!(r["lastSyncedAt"].as_str().unwrap().starts_with("2026-"));
        let all = report(&app, &w, json!({"level": "KEYWORDS", "startDate": s, "endDate": e,
            "sort": {"field": "localSpend", "order": "desc"}})).await;
        let items = all["items"].as_array().unwrap();
        let spends: Vec<Decimal> = items.iter().map(|i| dec(&i["localSpend"])).collect();
        assert!(spends.windows(2).all(|p| p[0] >= p[1]), "{spends:?}");
        assert_eq!(ids(&r, "keywordId"), ids(&all, "keywordId")[..2].to_vec(), "page 1 is the head");
        let page3 = report(&app, &w, json!({"level": "KEYWORDS", "startDate": s, "endDate": e,
            "sort": {"field": "localSpend", "order": "desc"}, "pageSize": 2, "page": 3})).await;
        assert_eq!(ids(&page3, "keywordId"), ids(&all, "keywordId")[4..].to_vec());
        // Totals are the sum of the rows.
        let sum: i64 = items.iter().map(|i| i["impressions"].as_i64().unwrap()).sum();
        assert_eq!(sum, imp);
        for i in items {
            let k = id(&i["keywordId"]).unwrap();
            let (ki, kt, ks) = naive(&[k], 3, 12);
            assert_eq!((i["impressions"].as_i64().unwrap(), i["taps"].as_i64().unwrap()), (ki, kt));
            assert_eq!(dec(&i["localSpend"]), floor(ks, 2), "keyword {k}");
            let cpt = (Decimal::new(ks, 6) / Decimal::from(kt))
                .round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToNegativeInfinity);
            assert_eq!(dec(&i["avgCPT"]), cpt, "avgCPT of keyword {k} from its sums");
            assert_eq!(i["deleted"], k == 305, "keyword {k}");
        }
        let fit = items.iter().find(|i| i["keywordId"] == "301").unwrap();
        assert_eq!(fit["keyword"], "fitness tracker");
        assert_eq!(fit["keywordStatus"], "ACTIVE");
        assert_eq!(fit["cptBid"], 2.5);
        assert_eq!(fit["tag"][0]["name"], "Brand");
        assert_eq!(fit["qsStatus"], Value::Null);
        assert!(all["locked"].as_array().unwrap().contains(&json!("qsStatus")), "pro_free locks Growth columns");
        assert!(all["hidden"].as_array().unwrap().contains(&json!("organicSearch")));
        // A range with no metrics still lists the keywords (zeros; ratios null).
        let empty = report(&app, &w, json!({"level": "KEYWORDS", "startDate": "2026-10-01", "endDate": "2026-10-05"})).await;
        assert_eq!(empty["total"], 4, "deleted keywords without metrics in range are left out");
        assert_eq!(empty["items"][0]["impressions"], 0);
        assert_eq!(empty["items"][0]["ttr"], Value::Null);
    }

    async fn every_range_is_exact(app: TestApp) {
        let w = world(&app, "USD").await;
        for (a, b) in [(1, 1), (1, DAYS), (2, 9), (9, 10), (10, 10), (11, 19), (15, DAYS), (5, 25)] {
            let (s, e) = range(a, b);
            let r = report(&app, &w, json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "pageSize": 1000})).await;
            let (imp, taps, spend) = naive(&ALL_KEYWORDS, a, b.min(DAYS));
            assert_eq!((r["totals"]["impressions"].as_i64().unwrap(), r["totals"]["taps"].as_i64().unwrap()), (imp, taps), "{a}..={b}");
            assert_eq!(dec(&r["totals"]["localSpend"]), floor(spend, 2), "{a}..={b}");
            // Campaigns are the sums of their keywords in this world.
            let c = report(&app, &w, json!({"level": "CAMPAIGNS", "startDate": s, "endDate": e})).await;
            assert_eq!(c["totals"]["impressions"], imp, "{a}..={b}");
            for item in c["items"].as_array().unwrap() {
                let id = id(&item["campaignId"]).unwrap();
                let ks: Vec<i64> = KEYWORDS.iter().filter(|k| k.1 == id).map(|k| k.0).collect();
                assert_eq!(item["taps"], naive(&ks, a, b.min(DAYS)).1, "campaign {id} {a}..={b}");
            }
        }
    }

    async fn filters_follow_the_condition_mapping(app: TestApp) {
        let w = world(&app, "USD").await;
        let (s, e) = range(1, DAYS);
        let run = |filters: Value| {
            let body = json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "filters": filters, "sort": {"field": "keywordId", "order": "asc"}});
            let (app, w) = (&app, &w);
            async move { ids(&report(app, w, body).await, "keywordId") }
        };
        assert_eq!(run(json!([{"field": "name", "operator": "CONTAINS", "values": ["FIT"]}])).await, [301]);
        assert_eq!(run(json!([{"type": "name", "condition": "contains", "value": "fit"}])).await, [301]);
        assert_eq!(run(json!([{"type": "name", "condition": "not_contains", "value": "o"}])).await, [301, 302]);
        assert_eq!(run(json!([{"type": "name", "condition": "=", "value": "Yoga"}])).await, [303]);
        assert_eq!(run(json!([{"type": "name", "condition": "!=", "value": "yoga"}])).await, [301, 302, 304, 305]);
        assert_eq!(run(json!([{"type": "status", "value": ["PAUSED"]}])).await, [302]);
        assert_eq!(run(json!([{"field": "status", "operator": "CONTAINS_ANY", "values": ["paused", "active"]}])).await, [301, 302, 303, 304, 305]);
        assert_eq!(run(json!([{"type": "tag", "value": ["Brand"]}])).await, [301]);
        assert_eq!(run(json!([{"type": "country", "value": ["GB"]}])).await, [304, 305]);
        assert_eq!(run(json!([{"type": "appName", "condition": "contains", "value": "calm"}])).await, [304, 305]);
        assert_eq!(run(json!([{"type": "developerName", "condition": "=", "value": "healthy apps ltd"}])).await, [301, 302, 303]);
        // Metric filters compare the range's values.
        let taps: Vec<(i64, i64)> = ALL_KEYWORDS.iter().map(|k| (*k, naive(&[*k], 1, DAYS).1)).collect();
        let mid = taps[2].1;
        let above: Vec<i64> = taps.iter().filter(|t| t.1 > mid).map(|t| t.0).collect();
        assert_eq!(run(json!([{"type": "metrics", "metric": "taps", "condition": ">", "value": mid}])).await, above);
        let below: Vec<i64> = taps.iter().filter(|t| t.1 < mid).map(|t| t.0).collect();
        assert_eq!(run(json!([{"field": "taps", "operator": "LESS_THAN", "values": [mid]}])).await, below);
        assert_eq!(run(json!([{"type": "metrics", "metric": "taps", "condition": "><", "value": [mid, mid]}])).await, [ALL_KEYWORDS[2]]);
        let outside: Vec<i64> = taps.iter().filter(|t| t.1 != mid).map(|t| t.0).collect();
        assert_eq!(run(json!([{"type": "metrics", "metric": "taps", "condition": "<>", "value": [mid, mid]}])).await, outside);
        assert_eq!(run(json!([{"type": "metrics", "metric": "taps", "condition": "!=", "value": mid}])).await, outside);
        // Filters combine with AND; totals follow the filters.
        let r = report(&app, &w, json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "graph": true,
            "filters": [{"type": "country", "value": ["US", "CA"]}, {"type": "name", "condition": "contains", "value": "app"}]})).await;
        assert_eq!(r["total"], 1, "running app");
        assert_eq!(r["totals"]["taps"], naive(&[302], 1, DAYS).1);
        let graph_taps: i64 = r["graph"].as_array().unwrap().iter().map(|p| p["taps"].as_i64().unwrap()).sum();
        assert_eq!(graph_taps, naive(&[302], 1, DAYS).1, "a filtered graph sums the matching rows");
    }

    async fn every_column_sorts(app: TestApp) {
        let w = world(&app, "USD").await;
        let (s, e) = range(1, DAYS);
        for level in ["CAMPAIGNS", "GROUPS", "KEYWORDS", "SEARCHTERMS", "ADS", "NEGATIVE", "ORGS", "ACCOUNTS"] {
            let (id, name, status) = match level {
                "CAMPAIGNS" => ("campaignId", "campaignName", "servingStatus"),
                "GROUPS" => ("adGroupId", "adGroupName", "adGroupServingStatus"),
                "KEYWORDS" => ("keywordId", "keyword", "keywordStatus"),
                "SEARCHTERMS" => ("searchTermId", "searchTermText", "searchTermStatus"),
                "ADS" => ("adId", "creativeSetName", "adDisplayStatus"),
                "NEGATIVE" => ("id", "text", "status"),
                "ORGS" => ("orgId", "orgName", "status"),
                _ => ("accountId", "accountName", "status"),
            };
            let first = report(&app, &w, json!({"level": level, "startDate": s, "endDate": e})).await;
            let item = first["items"][0].as_object().unwrap_or_else(|| panic!("{level} has rows")).clone();
            for field in item.keys().filter(|k| !["deleted", "currency", "syncing"].contains(&k.as_str())) {
                for order in ["asc", "desc"] {
                    let r = report(&app, &w, json!({"level": level, "startDate": s, "endDate": e, "sort": {"field": field, "order": order}})).await;
                    assert_eq!(r["total"], first["total"], "{level} {field} {order}");
                }
            }
            let _ = (id, status);
            let by_name = report(&app, &w, json!({"level": level, "startDate": s, "endDate": e, "sort": {"field": name, "order": "asc"}})).await;
            let names: Vec<String> = by_name["items"].as_array().unwrap().iter().map(|i| i[name].as_str().unwrap_or("").to_lowercase()).collect();
            let mut sorted = names.clone();
            sorted.sort();
            assert_eq!(names, sorted, "{level} by {name}");
        }
        // Ties break by id, ascending in both orders.
        let r = report(&app, &w, json!({"level": "KEYWORDS", "startDate": "2026-10-01", "endDate": "2026-10-02", "sort": {"field": "taps", "order": "desc"}})).await;
        assert_eq!(ids(&r, "keywordId"), [301, 302, 303, 304]);
    }

    async fn levels_scopes_and_graph(app: TestApp) {
        let w = world(&app, "USD").await;
        let (s, e) = range(1, DAYS);
        let c = report(&app, &w, json!({"level": "CAMPAIGNS", "startDate": s, "endDate": e, "graph": true, "sort": {"field": "campaignId", "order": "asc"}})).await;
        assert_eq!(ids(&c, "campaignId"), [101, 102]);
        assert_eq!(c["items"][0]["campaignName"], "Brand US");
        assert_eq!(c["items"][0]["servingStatus"], "RUNNING");
        assert_eq!(c["items"][0]["dailyBudget"], 50);
        assert_eq!(c["items"][0]["countriesOrRegions"], json!(["US", "CA"]));
        assert_eq!(c["items"][0]["orgId"], w.org_id.to_string(), "ids are strings");
        let graph = c["graph"].as_array().unwrap();
        assert_eq!(graph.len(), DAYS as usize);
        assert_eq!(graph[0]["date"], "2026-11-01");
        let g: i64 = graph.iter().map(|p| p["impressions"].as_i64().unwrap()).sum();
        assert_eq!(g, c["totals"]["impressions"].as_i64().unwrap());
        let groups = report(&app, &w, json!({"level": "GROUPS", "startDate": s, "endDate": e, "campaignId": 101})).await;
        assert_eq!(ids(&groups, "adGroupId"), [201, 202]);
        assert_eq!(groups["items"][0]["automatedKeywordsOptIn"], true);
        assert_eq!(groups["items"][0]["defaultBidAmount"], 1.5);
        let kw = report(&app, &w, json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "adGroupId": 201, "graph": true})).await;
        assert_eq!(ids(&kw, "keywordId"), [301, 302]);
        // Every keyword row names its parents (a quick edit of its bid needs both).
        assert_eq!((id(&kw["items"][0]["campaignId"]), id(&kw["items"][0]["adGroupId"])), (Some(101), Some(201)));
        let g: i64 = kw["graph"].as_array().unwrap().iter().map(|p| p["taps"].as_i64().unwrap()).sum();
        assert_eq!(g, naive(&[301, 302], 1, DAYS).1, "the ad group's daily totals");
        let neg = report(&app, &w, json!({"level": "NEGATIVE", "startDate": s, "endDate": e, "campaignId": 101})).await;
        assert_eq!(ids(&neg, "id"), [401, 402]);
        assert_eq!(neg["items"][0]["level"], "CAMPAIGN");
        assert_eq!((id(&neg["items"][0]["campaignId"]), id(&neg["items"][0]["adGroupId"])), (Some(101), None), "a campaign-level negative has no ad group");
        assert_eq!(neg["totals"], Value::Null);
        let neg_group = report(&app, &w, json!({"level": "NEGATIVE", "startDate": s, "endDate": e, "adGroupId": 201})).await;
        assert_eq!(ids(&neg_group, "id"), [402]);
        let terms = report(&app, &w, json!({"level": "SEARCHTERMS", "startDate": s, "endDate": e, "adGroupId": 201, "sort": {"field": "searchTermId", "order": "asc"}})).await;
        assert_eq!(terms["items"][0]["searchTermStatus"], "ADDED");
        assert_eq!(terms["items"][0]["keyword"], "fitness tracker");
        assert_eq!(terms["items"][1]["searchTermStatus"], "NONE");
        assert_eq!(terms["items"][1]["impressions"], 0);
        let ads = report(&app, &w, json!({"level": "ADS", "startDate": s, "endDate": e})).await;
        assert_eq!(ads["items"][0]["adGroupName"], "Exact");
        assert_eq!(ads["totals"]["taps"], naive(&[301], 1, DAYS).1);
        let orgs = report(&app, &w, json!({"level": "ORGS", "startDate": s, "endDate": e})).await;
        assert_eq!(ids(&orgs, "orgId"), [w.org_id]);
        assert_eq!(orgs["items"][0]["taps"], c["totals"]["taps"]);
        let accounts = report(&app, &w, json!({"level": "ACCOUNTS", "startDate": s, "endDate": e, "graph": true})).await;
        assert_eq!(accounts["items"][0]["accountId"], w.account_id.as_str());
        assert_eq!(accounts["items"][0]["localSpend"], c["totals"]["localSpend"]);
        assert_eq!(accounts["graph"].as_array().unwrap().len(), DAYS as usize);
        // A second campaign group in yen: each ORGS row keeps its own money, while the
        // totals and the graph leave money out instead of adding dollars to yen.
        another_org(&app, &w, 5001, "JPY").await;
        let mixed = report(&app, &w, json!({"level": "ORGS", "startDate": s, "endDate": e, "graph": true, "sort": {"field": "orgId", "order": "asc"}})).await;
        assert_eq!(ids(&mixed, "orgId"), [w.org_id, 5001]);
        assert_eq!(mixed["items"][0]["localSpend"], c["totals"]["localSpend"]);
        assert_eq!(mixed["items"][1]["currency"], "JPY");
        assert_eq!(mixed["totals"]["taps"], c["totals"]["taps"]);
        assert_eq!(mixed["totals"]["localSpend"], Value::Null);
        assert_eq!(mixed["totals"]["avgCPT"], Value::Null);
        let points = mixed["graph"].as_array().unwrap();
        assert!(points.iter().all(|p| p["localSpend"].is_null() && p["taps"].is_i64()), "{points:?}");
        // Instead: money per currency, in the totals and on each day.
        let subtotals = mixed["subtotals"].as_array().unwrap();
        assert_eq!(subtotals.iter().map(|s| s["currency"].as_str().unwrap()).collect::<Vec<_>>(), ["JPY", "USD"]);
        assert_eq!(subtotals[1]["localSpend"], c["totals"]["localSpend"]);
        assert_eq!(subtotals[1]["avgCPT"], c["totals"]["avgCPT"]);
        assert_eq!(subtotals[0]["localSpend"], 0);
        let spent: f64 = points.iter().map(|p| p["byCurrency"]["USD"]["localSpend"].as_f64().unwrap()).sum();
        assert!((spent - c["totals"]["localSpend"].as_f64().unwrap()).abs() < 0.01 * DAYS as f64, "{spent}");
        // The yen group has no metrics stored yet: its row says so.
        assert_eq!(mixed["items"][0]["syncing"], false);
        assert_eq!(mixed["items"][1]["syncing"], true);
        assert_eq!(mixed["syncing"], true);
        // Converted to dollars: the dollars stay as they are, the yen spent nothing; with no
        // rates stored the answer says so (no rate day, no source).
        let usd = report(&app, &w, json!({"level": "ORGS", "startDate": s, "endDate": e, "reportingCurrency": "usd"})).await;
        assert_eq!(usd["converted"]["currency"], "USD");
        assert_eq!(usd["converted"]["totals"]["localSpend"], c["totals"]["localSpend"]);
        assert_eq!(usd["converted"]["rateDate"], Value::Null);
        assert_eq!(usd["converted"]["askedDate"], e);
        let bad = app.post(&url(&w), json!({"level": "ORGS", "startDate": s, "endDate": e, "reportingCurrency": "XYZ"}), Some(&w.cookie)).await;
        assert_eq!(bad.status, StatusCode::BAD_REQUEST);
        assert_eq!(bad.json["errors"][0]["field"], "reportingCurrency");
        // The chart plots what the filters keep: the yen group alone (no metrics) plots zeros,
        // the dollar group alone plots its own taps.
        let graph_taps = |r: &Value| -> i64 { r["graph"].as_array().unwrap().iter().map(|p| p["taps"].as_i64().unwrap()).sum() };
        let only = |name: &str| json!({"level": "ORGS", "startDate": s, "endDate": e, "graph": true,
            "filters": [{"type": "name", "condition": "=", "value": name}]});
        let yen_name = mixed["items"][1]["orgName"].as_str().unwrap().to_string();
        let yen = report(&app, &w, only(&yen_name)).await;
        assert_eq!(yen["total"], 1);
        assert_eq!(graph_taps(&yen), 0, "the filtered-out group is not plotted");
        let dollar_name = mixed["items"][0]["orgName"].as_str().unwrap().to_string();
        let dollar = report(&app, &w, only(&dollar_name)).await;
        assert_eq!(graph_taps(&dollar), c["totals"]["taps"].as_i64().unwrap());
        let accounts_none = report(&app, &w, json!({"level": "ACCOUNTS", "startDate": s, "endDate": e, "graph": true,
            "filters": [{"type": "name", "condition": "=", "value": "no such account"}]})).await;
        assert_eq!(accounts_none["total"], 0);
        assert_eq!(graph_taps(&accounts_none), 0, "no account kept, nothing plotted");
    }

    async fn hidden_campaigns_are_left_out_unless_asked(app: TestApp) {
        let w = world(&app, "USD").await;
        let (s, e) = range(1, DAYS);
        let body = |include: Option<bool>| {
            let mut b = json!({"level": "CAMPAIGNS", "startDate": s, "endDate": e, "graph": true,
                "sort": {"field": "campaignId", "order": "asc"}});
            if let Some(i) = include {
                b["includeHidden"] = json!(i);
            }
            b
        };
        let graph_sum = |r: &Value| -> i64 {
            r["graph"].as_array().unwrap().iter().map(|p| p["impressions"].as_i64().unwrap()).sum()
        };
        let all = report(&app, &w, body(None)).await;
        assert_eq!(ids(&all, "campaignId"), [101, 102]);
        assert_eq!(all["items"][0]["hidden"], false);
        let hide = format!("/api/asa/campaigns/mark-hidden?accountId={}&orgId={}", w.account_id, w.org_id);
        let res = app.post(&hide, json!({"campaignIds": [102]}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        // Left out of the rows, the total, the totals and the graph (the row universe
        // cached by the first report is seen stale).
        let shown = report(&app, &w, body(None)).await;
        assert_eq!(ids(&shown, "campaignId"), [101]);
        assert_eq!(shown["total"], 1);
        let (imp, taps, spend) = naive(&[301, 302, 303], 1, DAYS);
        assert_eq!(shown["totals"]["impressions"], imp);
        assert_eq!(shown["totals"]["taps"], taps);
        assert_eq!(dec(&shown["totals"]["localSpend"]), floor(spend, 2));
        assert_eq!(graph_sum(&shown), imp);
        assert_eq!(report(&app, &w, body(Some(false))).await["total"], 1);
        // Asked for: listed and flagged, totals and graph as before hiding.
        let with = report(&app, &w, body(Some(true))).await;
        assert_eq!(ids(&with, "campaignId"), [101, 102]);
        assert_eq!(with["items"][0]["hidden"], false);
        assert_eq!(with["items"][1]["hidden"], true);
        assert_eq!(with["totals"], all["totals"]);
        assert_eq!(graph_sum(&with), graph_sum(&all));
        // A filter on top of leaving them out.
        let filtered = report(&app, &w, json!({"level": "CAMPAIGNS", "startDate": s, "endDate": e,
            "filters": [{"field": "impressions", "operator": "GREATER_THAN", "values": [0]}]})).await;
        assert_eq!(ids(&filtered, "campaignId"), [101]);
        // Other levels still list the hidden campaign's ad groups and keywords.
        let kw = report(&app, &w, json!({"level": "KEYWORDS", "startDate": s, "endDate": e})).await;
        assert_eq!(kw["total"], 5);
        assert!(kw["items"][0].get("hidden").is_none(), "only CAMPAIGNS rows carry the flag");
        // Shown again.
        let res = app.post(&hide, json!({"campaignIds": [102], "hidden": false}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK);
        assert_eq!(ids(&report(&app, &w, body(None)).await, "campaignId"), [101, 102]);
    }

    async fn money_is_floored_per_currency(app: TestApp) {
        for (currency, digits) in [("JPY", 0), ("KWD", 3), ("CHF", 2)] {
            let w = world(&app, currency).await;
            let (s, e) = range(4, 4);
            let r = report(&app, &w, json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "filters": [{"type": "name", "condition": "=", "value": "yoga"}]})).await;
            let spend = counters(303, 4).unwrap().spend_micros();
            let mut expected = floor(spend, digits);
            if currency == "CHF" {
                let step = Decimal::new(5, 2);
                expected = ((Decimal::new(spend, 6) / step).floor() * step).round_dp(2);
            }
            assert_eq!(r["currency"], currency);
            assert_eq!(dec(&r["items"][0]["localSpend"]), expected, "{currency}: {spend} micros");
            let text = r["items"][0]["localSpend"].to_string();
            let places = text.split('.').nth(1).map_or(0, str::len) as u32;
            assert!(places <= digits, "{currency} {text}");
        }
    }

    async fn invalid_input_answers_400_with_the_field(app: TestApp) {
        let w = world(&app, "USD").await;
        let (s, e) = range(1, 5);
        for (body, field) in [
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "filters": [{"field": "name", "operator": "CONTAINS", "values": []}]}), "filters[0].values"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "filters": [{"type": "status", "value": ["ACTIVE", ""]}]}), "filters[0].value"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "filters": [{"type": "name", "value": "x"}]}), "filters[0].condition"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "filters": [{}, {"type": "metrics", "metric": "bogus", "condition": ">", "value": 1}]}), "filters[0].field"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "filters": [{"type": "metrics", "metric": "taps", "condition": "><", "value": [9, 1]}]}), "filters[0].value"),
            (json!({"level": "KEYWORDS", "startDate": "2026-13-01", "endDate": e}), "startDate"),
            (json!({"level": "KEYWORDS", "startDate": e, "endDate": s}), "endDate"),
            (json!({"level": "KEYWORDS", "endDate": e}), "startDate"),
            (json!({"level": "PLANETS", "startDate": s, "endDate": e}), "level"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "pageSize": 5000}), "pageSize"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "page": 0}), "page"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "sort": {"field": "nope"}}), "sort.field"),
            (json!({"level": "KEYWORDS", "startDate": s, "endDate": e, "sort": {"field": "taps", "order": "up"}}), "sort.order"),
            (json!({"level": "NEGATIVE", "startDate": s, "endDate": e, "sort": {"field": "taps"}}), "sort.field"),
            (json!({"level": "CAMPAIGNS", "startDate": s, "endDate": e, "adGroupId": 1}), "adGroupId"),
        ] {
            let res = app.post(&url(&w), body.clone(), Some(&w.cookie)).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}: {:?}", res.json);
            let fields: Vec<&str> = res.json["errors"].as_array().unwrap().iter().map(|e| e["field"].as_str().unwrap()).collect();
            assert!(fields.contains(&field), "{body}: {fields:?}");
        }
        let no_org = format!("/api/asa/reports?accountId={}", w.account_id);
        let res = app.post(&no_org, json!({"level": "KEYWORDS", "startDate": s, "endDate": e}), Some(&w.cookie)).await;
        assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("orgId")));
        let other_org = format!("/api/asa/reports?accountId={}&orgId=999", w.account_id);
        let res = app.post(&other_org, json!({"level": "KEYWORDS", "startDate": s, "endDate": e}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        let res = app.post(&url(&w), json!({"level": 5}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "a wrong type is a 400, not a 500");
    }

    async fn scope_is_the_workspace_and_readers_read(app: TestApp) {
        let w = world(&app, "USD").await;
        let body = json!({"level": "CAMPAIGNS", "startDate": "2026-11-01", "endDate": "2026-11-05"});
        let stranger = app.register(&app.email(), "another password").await;
        let res = app.post(&url(&w), body.clone(), Some(&stranger)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "another workspace's account");
        let res = app.post(&url(&w), body.clone(), None).await;
        assert_eq!(res.status, StatusCode::UNAUTHORIZED);
        let reader = app.member(&w.cookie, Role::Reader).await;
        let res = app.post(&url(&w), body, Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["total"], 2);
    }
}

#[tokio::test]
async fn the_report_route_is_documented() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    let op = &doc["paths"]["/api/asa/reports"]["post"];
    assert!(op["responses"]["200"].is_object());
    assert!(op["requestBody"].is_object());
    let schemas = &doc["components"]["schemas"];
    for name in [
        "ReportBody",
        "ReportResult",
        "ReportItem",
        "ReportMetrics",
        "FilterIn",
        "GraphPoint",
    ] {
        assert!(schemas[name].is_object(), "{name} is in the document");
    }
    assert!(schemas["ReportMetrics"]["properties"]["avgCPA"].is_object());
}
