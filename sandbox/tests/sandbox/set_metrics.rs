//! `PUT /sandbox/keywords/{id}/metrics`: a keyword's day set by a test is what the keyword
//! report serves for that day (spend without an install, say), in its campaign's totals
//! too, whatever the model had; the other days and keywords keep the model's figures; bad
//! bodies answer 400 and unknown keywords 404.

use crate::support::Client;
use axum::http::{Method, StatusCode};
use searchdeck_sandbox::SandboxConfig;
use serde_json::{Value, json};
use time::macros::datetime;

fn client() -> Client {
    Client::new(SandboxConfig {
        now: Some(datetime!(2026-03-15 13:00 UTC)),
        frozen_clock: true,
        ..SandboxConfig::default()
    })
}

/// The keyword report of campaign `campaign` for the single day `day`: `(keyword id,
/// totalMetrics)` per row.
async fn keyword_day(c: &Client, campaign: i64, day: &str) -> Vec<(i64, Value)> {
    let scope = json!([{ "field": "campaignId", "operator": "IN", "value": [campaign] }]);
    let report = c
        .post(
            "/reports/apps/keywords/query",
            json!({ "timeRange": { "start": day, "end": day, "granularity": "DAILY" }, "filters": scope, "pagination": { "pageSize": 1000 } }),
        )
        .await;
    report["result"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            let id = &r["metadata"]["id"];
            let id = id
                .as_i64()
                .or_else(|| id.as_str().and_then(|s| s.parse().ok()))
                .unwrap();
            (id, r["totalMetrics"].clone())
        })
        .collect()
}

#[tokio::test]
async fn a_keyword_day_set_by_a_test_is_served_as_set() {
    let c = client();
    let account = c.account();
    let (keyword, campaign, today) = {
        let w = c.sandbox.world.read();
        let campaign = w.index.children("Campaign", account)[0];
        let keyword = *w
            .keywords
            .values()
            .find(|k| k.campaign_id == campaign)
            .map(|k| &k.id)
            .unwrap();
        (keyword, campaign, w.account_now(account).today)
    };
    let yesterday = (today - time::Duration::days(1)).to_string();
    let before = keyword_day(&c, campaign, &yesterday).await;
    let body = json!({ "daysAgo": 1, "impressions": 400, "taps": 20, "installs": 0, "spendMicros": 25_000_000 });
    let (status, answer) = c
        .call(
            Method::PUT,
            &format!("/sandbox/keywords/{keyword}/metrics"),
            None,
            Some(&body),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["day"], yesterday);
    let after = keyword_day(&c, campaign, &yesterday).await;
    let row = &after.iter().find(|(id, _)| *id == keyword).unwrap().1;
    assert_eq!(row["impressions"], 400);
    assert_eq!(row["taps"], 20);
    assert_eq!(row["tapInstalls"], 0);
    assert_eq!(row["totalInstalls"], 0);
    let spend: f64 = row["localSpend"]["amount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((spend - 25.0).abs() < 1e-9, "{row}");
    // The other keywords of the day are the model's.
    for (id, total) in &before {
        if *id != keyword {
            let now = &after.iter().find(|(k, _)| k == id).unwrap().1;
            assert_eq!(now, total, "keyword {id}");
        }
    }
    // The day before keeps the model's figures for the keyword.
    let earlier = (today - time::Duration::days(2)).to_string();
    let two_days_ago = keyword_day(&c, campaign, &earlier).await;
    assert!(
        two_days_ago
            .iter()
            .find(|(id, _)| *id == keyword)
            .is_none_or(|(_, t)| t["taps"] != 20 || t["impressions"] != 400)
    );
}

#[tokio::test]
async fn bad_keyword_metrics_answer_400_and_unknown_keywords_404() {
    let c = client();
    let keyword = *c.sandbox.world.read().keywords.keys().next().unwrap();
    let path = format!("/sandbox/keywords/{keyword}/metrics");
    for body in [
        json!({ "daysAgo": 1, "impressions": 10, "taps": 20, "installs": 0, "spendMicros": 1 }),
        json!({ "daysAgo": 1, "impressions": 30, "taps": 20, "installs": 21, "spendMicros": 1 }),
        json!({ "daysAgo": 1, "impressions": 30, "taps": 0, "installs": 0, "spendMicros": 5 }),
        json!({ "day": "2026-03-14", "daysAgo": 1, "impressions": 0, "taps": 0, "installs": 0, "spendMicros": 0 }),
        json!({ "daysAgo": -1, "impressions": 0, "taps": 0, "installs": 0, "spendMicros": 0 }),
        json!({ "day": "2027-01-01", "impressions": 0, "taps": 0, "installs": 0, "spendMicros": 0 }),
        json!({ "daysAgo": 1, "impressions": 0 }),
    ] {
        let (status, answer) = c.call(Method::PUT, &path, None, Some(&body)).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}: {answer}");
    }
    let (status, _) = c
        .call(
            Method::PUT,
            "/sandbox/keywords/1/metrics",
            None,
            Some(&json!({ "daysAgo": 1, "impressions": 0, "taps": 0, "installs": 0, "spendMicros": 0 })),
        )
        .await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}
