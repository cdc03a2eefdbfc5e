//! Report pages over per-scope rows: pages are disjoint and add up to the grand total,
//! granular buckets add up to each row in one pass and in the page-only second pass,
//! WEEKLY buckets are Sunday-to-Saturday weeks and MONTHLY ones calendar months (both
//! labelled YYYY-MM-DD), keyword rows carry a bid recommendation; entity query pages.

use crate::support::Client;
use searchdeck_sandbox::SandboxConfig;
use serde_json::{Value, json};
use time::macros::datetime;
use time::{Date, Duration, Weekday};

fn client() -> Client {
    Client::new(SandboxConfig {
        now: Some(datetime!(2026-03-15 13:00 UTC)),
        frozen_clock: true,
        ..SandboxConfig::default()
    })
}

fn today(c: &Client) -> Date {
    c.sandbox.world.read().today
}

fn campaigns(c: &Client) -> Vec<i64> {
    c.sandbox
        .world
        .read()
        .index
        .children("Campaign", c.account())
        .to_vec()
}

fn range(c: &Client, back: i64, until: i64, granularity: &str) -> Value {
    let t = today(c);
    json!({ "start": (t - Duration::days(back)).to_string(), "end": (t - Duration::days(until)).to_string(), "granularity": granularity })
}

fn n(v: &Value, metric: &str) -> u64 {
    v[metric].as_u64().unwrap()
}

/// Checks each row's buckets add up to it; answers the sum of `taps` over the rows.
fn buckets_add_up(rows: &[Value]) -> u64 {
    for r in rows {
        let granular = r["granularMetrics"].as_array().unwrap();
        let taps: u64 = granular.iter().map(|g| n(g, "taps")).sum();
        let imps: u64 = granular.iter().map(|g| n(g, "impressions")).sum();
        assert_eq!(taps, n(&r["totalMetrics"], "taps"), "{r}");
        assert_eq!(imps, n(&r["totalMetrics"], "impressions"));
    }
    rows.iter().map(|r| n(&r["totalMetrics"], "taps")).sum()
}

/// Pages through a report; the rows' taps add up to `expected` (else to the grand total).
async fn pages_add_up(c: &Client, path: &str, body: Value, page_size: u64, expected: Option<u64>) {
    let mut body = body;
    if expected.is_none() {
        body["options"] = json!({ "includeRows": ["GRAND_TOTAL"] });
    }
    let mut offset = 0;
    let mut taps = 0;
    let mut seen = std::collections::HashSet::new();
    loop {
        body["pagination"] = json!({ "offset": offset, "pageSize": page_size });
        let page = c.post(path, body.clone()).await;
        let again = c.post(path, body.clone()).await;
        assert_eq!(page, again, "the same page twice");
        let rows = page["result"]["rows"].as_array().unwrap();
        taps += buckets_add_up(rows);
        for r in rows {
            assert!(seen.insert(r["metadata"].to_string()), "a row on two pages");
        }
        let total = page["pagination"]["totalCount"].as_u64().unwrap();
        offset += page_size;
        if offset >= total {
            assert_eq!(seen.len() as u64, total);
            let expected =
                expected.unwrap_or_else(|| n(&page["result"]["summary"]["grandTotal"], "taps"));
            assert_eq!(taps, expected);
            break;
        }
    }
}

#[tokio::test]
async fn pages_are_disjoint_and_buckets_add_up_in_one_pass_and_in_two() {
    let c = client();
    let scope = json!([{ "field": "campaignId", "operator": "IN", "value": campaigns(&c) }]);
    // Few rows: buckets are filled while the totals are.
    pages_add_up(
        &c,
        "/reports/apps/keywords/query",
        json!({ "timeRange": range(&c, 20, 0, "DAILY"), "filters": scope, "sorting": [{ "field": "localSpend", "order": "DESC" }] }),
        70,
        None,
    )
    .await;
    // Many rows (search terms by storefront and device): buckets for the page's rows only.
    let week = range(&c, 20, 0, "DAILY");
    let campaigns = c
        .post(
            "/reports/apps/campaigns/query",
            json!({ "timeRange": { "start": week["start"], "end": week["end"] } }),
        )
        .await;
    let taps = campaigns["result"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| n(&r["totalMetrics"], "taps"))
        .sum();
    pages_add_up(
        &c,
        "/reports/apps/searchterms/query",
        json!({ "timeRange": week, "filters": scope, "groupBy": ["countryOrRegion", "deviceClass"] }),
        1500,
        Some(taps),
    )
    .await;
}

#[tokio::test]
async fn weeks_run_sunday_to_saturday_and_months_are_calendar_months() {
    let c = client();
    let weekly = c
        .post(
            "/reports/apps/campaigns/query",
            json!({ "timeRange": range(&c, 120, 20, "WEEKLY") }),
        )
        .await;
    let rows = weekly["result"]["rows"].as_array().unwrap();
    assert!(!rows.is_empty());
    buckets_add_up(rows);
    for r in rows {
        for g in r["granularMetrics"].as_array().unwrap() {
            let day = Date::parse(
                g["date"].as_str().unwrap(),
                time::macros::format_description!("[year]-[month]-[day]"),
            )
            .unwrap();
            assert_eq!(day.weekday(), Weekday::Sunday, "{g}");
        }
    }
    let monthly = c
        .post(
            "/reports/apps/campaigns/query",
            json!({ "timeRange": range(&c, 300, 100, "MONTHLY") }),
        )
        .await;
    let rows = monthly["result"]["rows"].as_array().unwrap();
    buckets_add_up(rows);
    let labels: Vec<&str> = rows[0]["granularMetrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["date"].as_str().unwrap())
        .collect();
    assert!(labels.len() >= 6, "{labels:?}");
    assert!(
        labels.iter().all(|l| l.len() == 10 && l.ends_with("-01")),
        "{labels:?}"
    );
}

#[tokio::test]
async fn keyword_rows_recommend_a_bid_and_some_installs_are_view_through() {
    let c = client();
    let scope = json!([{ "field": "campaignId", "operator": "IN", "value": campaigns(&c) }]);
    let report = c
        .post(
            "/reports/apps/keywords/query",
            json!({ "timeRange": range(&c, 30, 1, "DAILY"), "filters": scope, "pagination": { "pageSize": 1000 } }),
        )
        .await;
    let rows = report["result"]["rows"].as_array().unwrap();
    assert!(rows.iter().all(|r| {
        r["insights"]["bidRecommendation"]["suggestedBidAmount"]
            .as_f64()
            .is_some_and(|b| b > 0.0)
    }));
    let views: u64 = rows
        .iter()
        .map(|r| n(&r["totalMetrics"], "viewInstalls"))
        .sum();
    let taps: u64 = rows
        .iter()
        .map(|r| n(&r["totalMetrics"], "tapInstalls"))
        .sum();
    assert!(
        views > 0 && views < taps / 5,
        "view-through installs are a small share: {views} of {taps}"
    );
}

#[tokio::test]
async fn entity_query_pages_match_the_full_query() {
    let c = client();
    let group = c
        .sandbox
        .world
        .read()
        .index
        .children("AdGroup", c.account())[1];
    let by_group = c
        .post("/keywords/query", json!({ "filters": [{ "field": "adGroupId", "operator": "EQUALS", "value": [group] }], "pagination": { "pageSize": 7, "offset": 3 } }))
        .await;
    let all = c
        .post(
            "/keywords/query",
            json!({ "pagination": { "pageSize": 1000 } }),
        )
        .await;
    let mine: Vec<&Value> = all["result"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|k| k["adGroupId"] == group)
        .collect();
    assert_eq!(by_group["pagination"]["totalCount"], mine.len());
    let page: Vec<&Value> = by_group["result"].as_array().unwrap().iter().collect();
    assert_eq!(page, mine[3..10].to_vec());
    let descending = c
        .post("/keywords/query", json!({ "sorting": [{ "field": "id", "order": "DESC" }], "pagination": { "pageSize": 2 } }))
        .await;
    let last = all["result"].as_array().unwrap().last().unwrap();
    assert_eq!(&descending["result"][0], last);
    assert_eq!(
        descending["pagination"]["totalCount"],
        all["pagination"]["totalCount"]
    );
}

#[tokio::test]
async fn ad_rows_add_up_to_their_ad_groups_over_kept_days() {
    let c = client();
    let scope = json!([{ "field": "campaignId", "operator": "IN", "value": campaigns(&c) }]);
    let body = |granularity: &str| {
        json!({ "timeRange": range(&c, 40, 1, granularity), "filters": scope,
                "pagination": { "offset": 0, "pageSize": 5000 } })
    };
    // Twice: the second time over the days the first one kept.
    for pass in 0..2 {
        let groups = c.post("/reports/apps/adgroups/query", body("DAILY")).await;
        let ads = c.post("/reports/apps/ads/query", body("DAILY")).await;
        let groups = groups["result"]["rows"].as_array().unwrap().clone();
        let ads = ads["result"]["rows"].as_array().unwrap().clone();
        assert!(!ads.is_empty());
        buckets_add_up(&ads);
        let mut by_group: std::collections::BTreeMap<i64, (u64, u64, usize)> = Default::default();
        for a in &ads {
            let e = by_group
                .entry(a["metadata"]["adGroupId"].as_i64().unwrap())
                .or_default();
            e.0 += n(&a["totalMetrics"], "impressions");
            e.1 += n(&a["totalMetrics"], "taps");
            e.2 += 1;
        }
        assert!(
            by_group.values().any(|e| e.2 > 1),
            "some ad groups show two ads"
        );
        for g in &groups {
            let id = g["metadata"]["id"].as_i64().unwrap();
            let (imps, taps, _) = by_group.get(&id).copied().unwrap_or_default();
            assert_eq!(
                (imps, taps),
                (
                    n(&g["totalMetrics"], "impressions"),
                    n(&g["totalMetrics"], "taps")
                ),
                "pass {pass}: the ads of ad group {id} add up to it"
            );
        }
    }
}

#[tokio::test]
async fn search_term_rows_add_up_to_their_ad_groups_over_kept_days() {
    let c = client();
    let scope = json!([{ "field": "campaignId", "operator": "IN", "value": campaigns(&c) }]);
    let body = json!({ "timeRange": range(&c, 40, 1, "DAILY"), "filters": scope,
                       "pagination": { "offset": 0, "pageSize": 5000 } });
    let mut seen = Vec::new();
    for pass in 0..2 {
        let groups = c.post("/reports/apps/adgroups/query", body.clone()).await;
        let terms = c
            .post("/reports/apps/searchterms/query", body.clone())
            .await;
        let terms = terms["result"]["rows"].as_array().unwrap().clone();
        buckets_add_up(&terms);
        assert!(
            terms
                .iter()
                .any(|r| r["metadata"]["searchTermSource"] == "AUTO")
        );
        let mut by_group: std::collections::BTreeMap<i64, (u64, u64)> = Default::default();
        for t in &terms {
            let e = by_group
                .entry(t["metadata"]["adGroupId"].as_i64().unwrap())
                .or_default();
            e.0 += n(&t["totalMetrics"], "impressions");
            e.1 += n(&t["totalMetrics"], "taps");
        }
        for g in groups["result"]["rows"].as_array().unwrap() {
            let id = g["metadata"]["id"].as_i64().unwrap();
            assert_eq!(
                by_group.get(&id).copied().unwrap_or_default(),
                (
                    n(&g["totalMetrics"], "impressions"),
                    n(&g["totalMetrics"], "taps")
                ),
                "pass {pass}: the search terms of ad group {id} add up to it"
            );
        }
        seen.push(terms);
    }
    assert_eq!(seen[0], seen[1], "kept days give the same rows");
}

/// Each row's `totalMetrics` by its metadata.
fn totals_by_row(body: &Value) -> std::collections::BTreeMap<String, Value> {
    body["result"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["metadata"].to_string(), r["totalMetrics"].clone()))
        .collect()
}

#[tokio::test]
async fn totals_over_kept_weeks_are_the_daily_rows_totals() {
    let c = client();
    let scope = json!([{ "field": "campaignId", "operator": "IN", "value": campaigns(&c) }]);
    let body = |back: i64, granularity: Option<&str>| {
        let mut time_range = range(&c, back, 1, "DAILY");
        match granularity {
            Some(g) => time_range["granularity"] = json!(g),
            None => {
                time_range.as_object_mut().unwrap().remove("granularity");
            }
        }
        json!({ "timeRange": time_range, "filters": scope,
                "pagination": { "offset": 0, "pageSize": 5000 } })
    };
    let weeks = || {
        c.sandbox
            .world
            .read()
            .days
            .as_ref()
            .map_or(0, |d| d.weeks())
    };
    for path in ["/reports/apps/searchterms/query", "/reports/apps/ads/query"] {
        let before = weeks();
        // Totals only over 40 days: the settled weeks are added up and kept.
        let first = c.post(path, body(40, None)).await;
        assert!(weeks() > before, "{path}: weeks kept");
        let daily = c.post(path, body(40, Some("DAILY"))).await;
        assert_eq!(totals_by_row(&first), totals_by_row(&daily), "{path}");
        // Over 47 days: the kept weeks are read whole, the other days split again.
        let kept = weeks();
        let read = c.post(path, body(47, None)).await;
        let daily = c.post(path, body(47, Some("DAILY"))).await;
        let (read, daily) = (totals_by_row(&read), totals_by_row(&daily));
        assert!(!read.is_empty());
        assert_eq!(
            read, daily,
            "{path}: kept weeks give the daily rows' totals"
        );
        assert!(
            weeks() > kept,
            "{path}: the weeks before the first window kept too"
        );
    }
}

/// Each campaign's `granularMetrics` of a report under `account`: campaign id → (bucket
/// label → taps), and its total taps.
async fn campaign_buckets(
    c: &Client,
    account: i64,
    time_range: Value,
) -> std::collections::BTreeMap<i64, (std::collections::BTreeMap<String, u64>, u64)> {
    let (status, body) = c
        .call(
            axum::http::Method::POST,
            "/v1/reports/apps/campaigns/query",
            Some(account),
            Some(&json!({ "timeRange": time_range, "pagination": { "offset": 0, "pageSize": 1000 } })),
        )
        .await;
    assert_eq!(status, axum::http::StatusCode::OK, "{body}");
    body["result"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let buckets = r["granularMetrics"]
                .as_array()
                .unwrap()
                .iter()
                .map(|g| (g["date"].as_str().unwrap().to_string(), n(g, "taps")))
                .collect();
            (
                r["metadata"]["id"].as_i64().unwrap(),
                (buckets, n(&r["totalMetrics"], "taps")),
            )
        })
        .collect()
}

#[tokio::test]
async fn utc_reports_move_the_ad_accounts_hours_to_utc_days() {
    let c = client();
    let (account, offset) = {
        let w = c.sandbox.world.read();
        let a = w
            .accounts
            .values()
            .find(|a| a.timezone == "Asia/Tokyo")
            .unwrap();
        (
            a.id,
            searchdeck_sandbox::world::zone::offset_hours(a.timezone, w.today),
        )
    };
    assert_eq!(offset, 9);
    let t = today(&c);
    let day = |back: i64| (t - Duration::days(back)).to_string();
    // UTC days t-4 ..= t-2 are the local hours from t-4 09:00 to t-1 09:00.
    let utc = campaign_buckets(
        &c,
        account,
        json!({ "start": day(4), "end": day(2), "granularity": "HOURLY", "timeZone": "UTC" }),
    )
    .await;
    let local = campaign_buckets(
        &c,
        account,
        json!({ "start": day(4), "end": day(1), "granularity": "HOURLY", "timeZone": "ORTZ" }),
    )
    .await;
    let label = |d: Date, h: i64| format!("{d} {h:02}");
    let mut served = 0;
    for (campaign, (buckets, total)) in &utc {
        let (local_buckets, _) = &local[campaign];
        let mut sum = 0;
        for back in (1..=4).rev() {
            let d = t - Duration::days(back);
            for h in 0..24 {
                let local_taps = local_buckets.get(&label(d, h)).copied().unwrap_or(0);
                // Local hour h of d is UTC hour h - 9 (of the day before when negative).
                let (ud, uh) = if h >= offset {
                    (d, h - offset)
                } else {
                    (d - Duration::days(1), h + 24 - offset)
                };
                let in_range = ud >= t - Duration::days(4) && ud <= t - Duration::days(2);
                let utc_taps = buckets.get(&label(ud, uh)).copied().unwrap_or(0);
                if in_range {
                    assert_eq!(utc_taps, local_taps, "campaign {campaign}, local {d} {h}");
                    sum += local_taps;
                }
            }
        }
        assert_eq!(sum, *total, "campaign {campaign}: the UTC hours add up");
        served += total;
    }
    assert!(served > 0, "the Tokyo account serves");
    // DAILY UTC buckets add up to the same totals, and differ from the local days.
    let daily_utc = campaign_buckets(
        &c,
        account,
        json!({ "start": day(4), "end": day(2), "granularity": "DAILY", "timeZone": "UTC" }),
    )
    .await;
    let daily_local = campaign_buckets(
        &c,
        account,
        json!({ "start": day(4), "end": day(2), "granularity": "DAILY" }),
    )
    .await;
    for (campaign, (buckets, total)) in &daily_utc {
        assert_eq!(buckets.values().sum::<u64>(), *total);
        assert_eq!(*total, utc[campaign].1);
    }
    assert_ne!(
        daily_utc, daily_local,
        "UTC days are not the ad account's days"
    );
}
