//! Automated rules on what installs earn (docs/api/rules.md "Conversions and cohorts"):
//! a rule on `roasD7` previewed over the seeded campaign group, its facts on the last 30
//! days, with Adjust postbacks for one campaign. The cohort is judged only on installs old
//! enough; a keyword of a campaign no provider has delivered anything for is unknown, not
//! unprofitable; a provider silent for 48 hours stops the run; a window too young for the
//! cohort and a level without conversions are refused; pro_limited may not use them.

use super::{connect, fill, path_of, postback};
use crate::common::{TestApp, TestBackend};
use crate::reports::seed::{counters, world_from};
use axum::http::{Method, StatusCode};
use rust_decimal::Decimal;
use serde_json::{Value, json};
use time::{Date, Duration, OffsetDateTime};

pub(super) fn at(day: Date, hour: i64) -> i64 {
    day.midnight().assume_utc().unix_timestamp() + hour * 3600
}

/// Adjust's callback for an install (`event` empty) or an in-app event of keyword
/// `keyword` of campaign 101 (ad group `group`), installed on `installed`.
pub(super) fn adjust(
    template: &str,
    keyword: &str,
    group: &str,
    event: &str,
    installed: i64,
    created: i64,
    revenue: &str,
) -> String {
    let (created, installed) = (created.to_string(), installed.to_string());
    let device = format!("device-{keyword}");
    path_of(&fill(
        template,
        &[
            (
                "activity_kind",
                if event.is_empty() { "install" } else { "event" },
            ),
            ("event_name", event),
            ("network_name", "Apple Search Ads"),
            ("app_id", "900"),
            ("iad_org_id", "5000"),
            ("iad_campaign_id", "101"),
            ("iad_adgroup_id", group),
            ("iad_keyword_id", keyword),
            ("iad_conversion_type", "Download"),
            ("country", "us"),
            ("revenue_float", revenue),
            ("currency", if revenue.is_empty() { "" } else { "USD" }),
            ("created_at", &created),
            ("installed_at", &installed),
            ("adid", &device),
        ],
    ))
}

/// A rule on `conditions` at `level` over the seeded group's two campaigns, last `days`
/// days.
fn rule(account_id: &str, level: &str, days: u32, conditions: Value) -> Value {
    json!({
        "version": 1, "name": "Cut bids where the cohort does not pay back",
        "accountId": account_id, "orgId": "5000", "level": level,
        "campaignIds": ["101", "102"],
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": conditions}]},
        "window": {"type": "last", "days": days, "excludeToday": true},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "pause"}],
        "guardrails": {"maxChangeShare": 100}
    })
}

fn matched(preview: &Value) -> Vec<String> {
    let mut ids: Vec<String> = preview["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i["entityId"].as_str().unwrap().to_string())
        .collect();
    ids.sort();
    ids
}

backend_tests! {
    async fn attribution_rules_judge_a_cohort_only_on_installs_old_enough(app: TestApp) {
        let today = OffsetDateTime::now_utc().date();
        let first = today - Duration::days(30);
        let w = world_from(&app, "USD", first).await;
        searchdeck_common::test_support::metrics_delivered(&app.state.db, Some(&w.account_id), None, OffsetDateTime::now_utc().unix_timestamp()).await;
        let template = connect(&app, &w.cookie, "adjust").await["setup"]["url"].as_str().unwrap().to_string();
        // Keyword 301 (day 3 = 28 days ago): installs, a purchase of 500.00 on its second
        // day and one of 900.00 on its tenth (after D7). Keyword 303 (ad group 202): an
        // install and no revenue. Campaign 102 (keyword 304): nothing from any provider.
        let installed = at(first + Duration::days(2), 9);
        for path in [
            adjust(&template, "301", "201", "", installed, installed, ""),
            adjust(&template, "301", "201", "purchase", installed, installed + 86_400, "500.00"),
            adjust(&template, "301", "201", "purchase", installed, installed + 9 * 86_400, "900.00"),
            adjust(&template, "303", "202", "", installed, installed, ""),
        ] {
            let res = postback(&app, Method::GET, &path, None, &[]).await;
            assert_eq!(res.status, StatusCode::OK, "{path}: {:?}", res.json);
        }

        // ROAS D7 below 50 %: keyword 301's D7 revenue is 500.00 over its spend of the days
        // at least 8 days ago (every seeded day, 30 to 11 days ago).
        let spend_301: i64 = (1..=20).filter_map(|d| counters(301, d)).map(|c| c.spend_micros()).sum();
        let roas_301 = (Decimal::from(500_000_000i64) / Decimal::from(spend_301)).round_dp(4);
        assert!(roas_301 > Decimal::new(5, 1), "the fixture's ROAS D7 is above the threshold: {roas_301}");
        let body = rule(&w.account_id, "KEYWORDS", 30, json!([{"type": "metric", "metric": "roasD7", "operator": "LESS_THAN", "value": "0.5"}]));
        let res = app.post("/api/rules/preview", json!({"rule": body}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let preview = &res.json["result"]["item"];
        assert_eq!(preview["reason"], Value::Null, "{preview}");
        // 302 and 303 earned nothing in a campaign whose provider delivers: ROAS D7 0 %.
        // 301 paid back; 304's campaign has no attribution data at all: unknown, not acted on.
        assert_eq!(matched(preview), ["302", "303"], "{preview}");
        let item = preview["items"].as_array().unwrap().iter().find(|i| i["entityId"] == "303").unwrap();
        assert_eq!(item["values"]["roasD7"], "0", "{item}");
        assert_eq!(
            preview["cohorts"],
            json!([{"metric": "roasD7", "ageDays": 7, "from": first.to_string(), "through": (today - Duration::days(8)).to_string()}])
        );

        // The same keyword's ROAS D7 in the table, and its all-time ROAS with the later purchase.
        let res = app.post(
            &format!("/api/asa/reports?accountId={}&orgId={}", w.account_id, w.org_id),
            json!({"level": "KEYWORDS", "startDate": first.to_string(), "endDate": (today - Duration::days(1)).to_string(), "pageSize": 100}),
            Some(&w.cookie),
        ).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let k = res.json["result"]["items"].as_array().unwrap().iter().find(|i| i["keywordId"] == "301").unwrap().clone();
        let dec = |v: &Value| v.to_string().parse::<Decimal>().unwrap();
        assert_eq!(dec(&k["roasD7"]), roas_301, "{k}");
        assert_eq!(dec(&k["roas"]), (Decimal::from(1_400_000_000i64) / Decimal::from(spend_301)).round_dp(4));

        // Over the last 20 days the install (28 days ago) is outside the window: no
        // provider delivered anything for either campaign in it, so nothing is known and
        // nothing matches, though Apple's spend is there. The cohort reads 20 to 8 days ago.
        let body = rule(&w.account_id, "KEYWORDS", 20, json!([{"type": "metric", "metric": "roasD7", "operator": "LESS_THAN", "value": "0.5"}]));
        let res = app.post("/api/rules/preview", json!({"rule": body}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let preview = &res.json["result"]["item"];
        assert_eq!(preview["matched"], 0, "{preview}");
        assert_eq!(preview["cohorts"][0]["from"], (today - Duration::days(20)).to_string());
        assert_eq!(preview["cohorts"][0]["through"], (today - Duration::days(8)).to_string());

        // A provider silent for two days: the run would not act, and says why.
        sqlx::query("UPDATE attribution_events SET received_at = received_at - $1")
            .bind(49 * 3_600_000i64)
            .execute(&app.state.db.pool)
            .await
            .unwrap();
        let body = rule(&w.account_id, "KEYWORDS", 30, json!([{"type": "metric", "metric": "roasD7", "operator": "LESS_THAN", "value": "0.5"}]));
        let res = app.post("/api/rules/preview", json!({"rule": body}), Some(&w.cookie)).await;
        let reason = res.json["result"]["item"]["reason"].as_str().unwrap_or_default().to_string();
        assert!(reason.starts_with("No attributed conversions have arrived for 48 hours"), "{reason}");
        // A rule on Apple's own metrics does not depend on the providers.
        let apple = rule(&w.account_id, "KEYWORDS", 30, json!([{"type": "metric", "metric": "taps", "operator": "GREATER_THAN", "value": "0"}]));
        let res = app.post("/api/rules/preview", json!({"rule": apple}), Some(&w.cookie)).await;
        assert_eq!(res.json["result"]["item"]["reason"], Value::Null, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["cohorts"], json!([]));

        // Refused: a window too young for the cohort, a level without conversions.
        let young = rule(&w.account_id, "KEYWORDS", 7, json!([{"type": "metric", "metric": "roasD7", "operator": "LESS_THAN", "value": "0.5"}]));
        let res = app.request(Method::PUT, "/api/rules/user", Some(young), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert_eq!(res.json["errors"][0]["field"], "conditions.groups.0.conditions.0.metric", "{:?}", res.json);
        assert_eq!(res.json["errors"][0]["message"], "ROAS D7 is judged on installs at least 7 days old: choose a window that starts 8 or more days ago");
        let terms = rule(&w.account_id, "SEARCHTERMS", 30, json!([{"type": "metric", "metric": "trials", "operator": "EQUALS", "value": "0"}]));
        let res = app.request(Method::PUT, "/api/rules/user", Some(terms), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert_eq!(res.json["errors"][0]["message"], "Not a metric at SEARCHTERMS", "{:?}", res.json);
        // Saved on a plan that has them.
        let ok = rule(&w.account_id, "KEYWORDS", 30, json!([{"type": "metric", "metric": "costPerTrial", "operator": "GREATER_THAN", "value": "4.00"}]));
        let res = app.request(Method::PUT, "/api/rules/user", Some(ok), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    }

    async fn attribution_rules_on_conversions_are_locked_on_pro_limited(app: TestApp) {
        use crate::campaigns::seed::{self, Campaign, Day};
        let owner = app.register(&app.email(), "long password").await;
        let account = seed::account(&app, &owner, 1).await;
        let org = seed::org(&app, &account, 100, "Group A", "USD").await;
        seed::campaign(&app, org, Campaign { id: 11, name: "C", adam_id: 900, status: "ENABLED", display_status: "RUNNING", budget_micros: 1_000_000, countries: r#"["US"]"#, deleted: false, body: "{}" }).await;
        // $11,000 spent last month without a purchase: pro_limited.
        let month = searchdeck_common::plan::spend::last_month(searchdeck_common::ids::now_ms());
        seed::day(&app, org, &month.to.to_string(), Day { level: 1, entity_id: 11, campaign_id: 11, impressions: 10, taps: 1, spend_micros: 11_000_000_000, ..Day::default() }).await;
        searchdeck_common::store::report_facts::refresh(&app.state.db, org, searchdeck_common::store::report_facts::FactLevel::Campaign, month.from).await.unwrap();
        let plan = app.get("/api/plan/current", Some(&owner)).await;
        assert_eq!(plan.json["result"]["plan"], "pro_limited", "{:?}", plan.json);
        let body = |metric: &str| json!({
            "version": 1, "name": "On ROAS", "accountId": account, "orgId": "100", "level": "CAMPAIGNS",
            "campaignIds": ["11"],
            "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
                {"type": "metric", "metric": metric, "operator": "LESS_THAN", "value": "1"}]}]},
            "window": {"type": "last", "days": 30, "excludeToday": true},
            "frequency": {"type": "daily", "hour": 6},
            "actions": [{"type": "pause"}]
        });
        let message = "Upgrade to Pro to track events from your MMP.";
        for metric in ["roas", "roasD7"] {
            let res = app.request(Method::PUT, "/api/rules/user", Some(body(metric)), Some(&owner)).await;
            assert_eq!((res.status, res.json["message"].as_str()), (StatusCode::FORBIDDEN, Some(message)), "{metric}: {:?}", res.json);
            let res = app.post("/api/rules/preview", json!({"rule": body(metric)}), Some(&owner)).await;
            assert_eq!((res.status, res.json["message"].as_str()), (StatusCode::FORBIDDEN, Some(message)), "{metric}: {:?}", res.json);
        }
        let stored: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rules").fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(stored, 0);
        // Apple's own metrics stay open.
        let res = app.request(Method::PUT, "/api/rules/user", Some(body("avgCPA")), Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    }
}
