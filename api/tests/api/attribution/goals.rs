//! Goal optimisation toward what installs earn (docs/api/rules.md "Goal optimisation on
//! conversions"): a ROAS goal and a cost-per-trial goal set on the seeded campaign group
//! with Adjust postbacks for one campaign, refused while no provider is connected and on a
//! bad target or cohort, answered with its cohort in the setting and the campaigns table;
//! the built-in rule it runs reads only install days old enough for the cohort, raises the
//! bid of a keyword that pays back, lowers one that earned nothing, and leaves a campaign no
//! provider delivered for untouched.

use super::rules::{adjust, at};
use super::{connect, postback};
use crate::common::{TestApp, TestBackend};
use crate::reports::seed::world_from;
use axum::http::{Method, StatusCode};
use searchdeck_common::{rules::Window, store};
use serde_json::{Value, json};
use time::{Duration, OffsetDateTime};

backend_tests! {
    async fn attribution_goals_move_bids_toward_a_cohort_roas(app: TestApp) {
        let today = OffsetDateTime::now_utc().date();
        let first = today - Duration::days(30);
        let w = world_from(&app, "USD", first).await;
        searchdeck_common::test_support::metrics_delivered(&app.state.db, Some(&w.account_id), None, OffsetDateTime::now_utc().unix_timestamp()).await;
        let pool = &app.state.db.pool;
        let workspace: String = sqlx::query_scalar("SELECT workspace_id FROM accounts WHERE id = $1")
            .bind(&w.account_id).fetch_one(pool).await.unwrap();
        app.growth_trial(&workspace).await;
        let one = |campaign: i64| format!("/api/optimization/one/{campaign}?accountId={}&orgId={}", w.account_id, w.org_id);
        let put = |campaign: i64, body: Value| {
            let path = one(campaign);
            let cookie = w.cookie.clone();
            let app = &app;
            async move { app.request(Method::PUT, &path, Some(body), Some(&cookie)).await }
        };
        let stored = || async { sqlx::query_scalar::<_, i64>("SELECT COUNT(*) FROM campaign_optimizations").fetch_one(pool).await.unwrap() };

        // Nothing could feed it before a provider is connected: refused on `type`.
        let roas = json!({"type": "ROAS_GOAL", "target": "120"});
        let res = put(101, roas.clone()).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert_eq!(res.json["errors"][0]["field"], "type");
        assert_eq!(res.json["errors"][0]["message"], "Connect an attribution provider in Settings › Integrations first: trials, purchases and revenue come from its data");
        assert_eq!(stored().await, 0);

        // Keyword 301 installs 15 days ago and pays 900.00 the next day (inside D7); keyword
        // 303 (ad group 202) installs and pays nothing; campaign 102 hears from no provider.
        let template = connect(&app, &w.cookie, "adjust").await["setup"]["url"].as_str().unwrap().to_string();
        let installed = at(today - Duration::days(15), 9);
        for path in [
            adjust(&template, "301", "201", "", installed, installed, ""),
            adjust(&template, "301", "201", "purchase", installed, installed + 86_400, "900.00"),
            adjust(&template, "303", "202", "", installed, installed, ""),
        ] {
            let res = postback(&app, Method::GET, &path, None, &[]).await;
            assert_eq!(res.status, StatusCode::OK, "{path}: {:?}", res.json);
        }

        // Bad targets and cohorts, each on its field; nothing stored.
        for (body, field, message) in [
            (json!({"type": "ROAS_GOAL", "target": "0"}), "target", "Enter a ROAS above 0 % and at most 100000 %, with at most 2 decimals"),
            (json!({"type": "ROAS_GOAL", "target": "1.234"}), "target", "Enter a ROAS above 0 % and at most 100000 %, with at most 2 decimals"),
            (json!({"type": "ROAS_GOAL", "target": "120", "cohortDay": 5}), "cohortDay", "Must be one of: 0, 1, 3, 7, 14, 30"),
            (json!({"type": "COST_PER_TRIAL_GOAL"}), "target", "Enter a target cost per trial"),
            (json!({"type": "CPA_GOAL", "target": "2", "cohortDay": 7}), "cohortDay", "Only a ROAS goal is judged on a cohort"),
        ] {
            let res = put(101, body.clone()).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}: {:?}", res.json);
            assert_eq!((res.json["errors"][0]["field"].as_str(), res.json["errors"][0]["message"].as_str()), (Some(field), Some(message)), "{body}");
        }
        assert_eq!(stored().await, 0);

        // A ROAS goal of 120 % judged on D7 (the default cohort), a cost per trial of 4.50.
        let res = put(101, roas).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let item = &res.json["result"]["item"];
        assert_eq!((&item["type"], &item["target"], &item["cohortDay"], &item["currency"]), (&json!("ROAS_GOAL"), &json!("120"), &json!(7), &json!("USD")), "{item}");
        let res = put(102, json!({"type": "COST_PER_TRIAL_GOAL", "target": "4.5"})).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!((&res.json["result"]["item"]["target"], &res.json["result"]["item"]["cohortDay"]), (&json!("4.50"), &Value::Null));

        // The types say what each target is and which cohorts a ROAS goal takes.
        let res = app.get("/api/optimization/all/rules", Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let types = res.json["result"]["items"].as_array().unwrap();
        let kinds: Vec<&str> = types.iter().map(|t| t["type"].as_str().unwrap()).collect();
        assert_eq!(kinds, ["CPA_GOAL", "CPT_GOAL", "COST_PER_TRIAL_GOAL", "COST_PER_PURCHASE_GOAL", "ROAS_GOAL"]);
        let roas_type = &types[4];
        assert_eq!((&roas_type["targetUnit"], &roas_type["conversions"], &roas_type["cohortDays"]), (&json!("percent"), &json!(true), &json!([0, 1, 3, 7, 14, 30])));
        assert_eq!((&roas_type["defaults"]["newestDayAgo"], &roas_type["defaults"]["cohortDay"]), (&json!(8), &json!(7)));
        assert_eq!((&types[0]["targetUnit"], &types[0]["conversions"], &types[0]["defaults"]["newestDayAgo"]), (&json!("money"), &json!(false), &json!(1)));

        // The campaigns table's cell.
        let res = app.post(
            &format!("/api/asa/reports?accountId={}&orgId={}", w.account_id, w.org_id),
            json!({"level": "CAMPAIGNS", "startDate": first.to_string(), "endDate": (today - Duration::days(1)).to_string()}),
            Some(&w.cookie),
        ).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let row = res.json["result"]["items"].as_array().unwrap().iter().find(|r| r["campaignId"] == "101").unwrap().clone();
        assert_eq!(row["optimizationTypes"], json!({"type": "ROAS_GOAL", "target": "120", "currency": "USD", "cohortDay": 7, "maxStepPercent": 20}));

        // The built-in rule of the ROAS goal: the 14 install days at least 7 full days old.
        let (account, org) = (&w.account_id, w.org_id);
        let goal = |campaign: i64| async move {
            store::rule_runs::optimization_of(pool, account, org, campaign).await.unwrap().unwrap()
        };
        let rule = searchdeck_common::rules::run::optimization_rule(&goal(101).await);
        assert_eq!(rule.window, Window::Between { from_days_ago: 21, to_days_ago: 8 });
        let res = app.post("/api/rules/preview", json!({"rule": rule}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let preview = &res.json["result"]["item"];
        assert_eq!(preview["reason"], Value::Null, "{preview}");
        assert_eq!(preview["cohorts"], json!([{"metric": "roasD7", "ageDays": 7, "from": (today - Duration::days(21)).to_string(), "through": (today - Duration::days(8)).to_string()}]));
        let of = |id: &str| preview["items"].as_array().unwrap().iter().find(|i| i["entityId"] == id).cloned().unwrap_or_else(|| panic!("{id} in {preview}"));
        // 301 earned 900.00 on far less spend: up by the whole step (2.50 → 3.00).
        let up = of("301");
        assert_eq!((&up["oldValue"], &up["newValue"], &up["result"]), (&json!("2.5"), &json!("3"), &json!("PLANNED")), "{up}");
        // 303 spent on mature installs and earned nothing: ROAS D7 0 %, down by the step.
        let down = of("303");
        assert_eq!((&down["values"]["roasD7"], &down["newValue"]), (&json!("0"), &json!("2")), "{down}");
        // 302 is paused: not the goal's.
        assert!(preview["items"].as_array().unwrap().iter().all(|i| i["entityId"] != "302"), "{preview}");

        // The cost-per-trial goal reads up to the day before yesterday; campaign 102 has no
        // attribution data at all: its keyword is unknown, never cut for earning nothing.
        let rule = searchdeck_common::rules::run::optimization_rule(&goal(102).await);
        assert_eq!(rule.window, Window::Between { from_days_ago: 15, to_days_ago: 2 });
        let res = app.post("/api/rules/preview", json!({"rule": rule}), Some(&w.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let preview = &res.json["result"]["item"];
        let changed: Vec<&Value> = preview["items"].as_array().unwrap().iter().filter(|i| i["result"] == "PLANNED").collect();
        assert!(changed.is_empty(), "{preview}");
        let k = preview["items"].as_array().unwrap().iter().find(|i| i["entityId"] == "304").unwrap_or_else(|| panic!("304 in {preview}"));
        assert_eq!((&k["result"], &k["message"]), (&json!("SKIPPED"), &json!("No attributed conversions for this campaign in the window")), "{k}");

        // Turned off like any goal.
        let res = put(101, json!({"type": null})).await;
        assert_eq!((res.status, &res.json["result"]["item"]), (StatusCode::OK, &Value::Null));
    }
}
