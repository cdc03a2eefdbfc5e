//! Goal optimisation, alerts and the Slack webhook.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::store::{self, alerts::NewAlert};
use serde_json::json;

use super::{CAMPAIGNS, OTHER_GROUP_CAMPAIGN, delete, fields, fixture, put};
use crate::common::{TestApp, TestBackend};

backend_tests! {
    async fn goal_optimisation_is_set_listed_and_turned_off(app: TestApp) {
        let f = fixture(&app).await;
        let one = format!("/api/optimization/one/{}", CAMPAIGNS[0]);
        // Growth-only (docs/product.md#6-growth-only-metrics locks optimizationTypes below Growth):
        // 403 on the free plan, turning off passes.
        let goal = json!({"type": "CPA_GOAL", "target": "2.50", "maxStepPercent": "15"});
        let res = put(&app, &one, goal.clone(), &f.cookie).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        assert_eq!(res.message(), "Goal optimisation is included in the Growth plan");
        let res = app.request(Method::POST, "/api/optimization/rulesCampaigns/CPA_GOAL", Some(json!({"campaignsIds": [CAMPAIGNS[1].to_string()]})), Some(&f.cookie)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        assert_eq!(put(&app, &one, json!({"type": null}), &f.cookie).await.status, StatusCode::OK);
        app.growth_trial(&f.workspace_id).await;
        let res = put(&app, &one, goal, &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let item = &res.json["result"]["item"];
        assert_eq!(
            (item["campaignId"].clone(), item["orgId"].clone(), item["type"].clone(), item["target"].clone(), item["currency"].clone(), item["maxStepPercent"].clone()),
            (json!("1870001"), json!("4500123"), json!("CPA_GOAL"), json!("2.50"), json!("USD"), json!("15"))
        );
        // The campaigns table's cell holds the goal with its step: the editor starts from it,
        // so a new target does not reset the step to the default.
        let report = app.post(&format!("/api/asa/reports?accountId={}&orgId=4500123", f.account_id), json!({"level": "CAMPAIGNS", "startDate": "2026-01-01", "endDate": "2026-01-02"}), Some(&f.cookie)).await;
        assert_eq!(report.status, StatusCode::OK, "{:?}", report.json);
        let row = report.json["result"]["items"].as_array().unwrap().iter().find(|r| r["campaignId"] == "1870001").unwrap().clone();
        assert_eq!(row["optimizationTypes"], json!({"type": "CPA_GOAL", "target": "2.50", "currency": "USD", "cohortDay": null, "maxStepPercent": 15}));
        assert_eq!(fields(&put(&app, &one, json!({"type": "CPT_GOAL"}), &f.cookie).await), ["target"]);
        assert_eq!(fields(&put(&app, &one, json!({"type": "CPA_GOAL", "target": "2.555", "maxStepPercent": "101"}), &f.cookie).await), ["target", "maxStepPercent"]);
        assert_eq!(fields(&put(&app, &one, json!({"type": "CPX"}), &f.cookie).await), ["type"]);
        // JPY has no decimals.
        let jpy = format!("/api/optimization/one/{OTHER_GROUP_CAMPAIGN}");
        assert_eq!(fields(&put(&app, &jpy, json!({"type": "CPT_GOAL", "target": "1.5"}), &f.cookie).await), ["target"]);

        let res = app.request(Method::POST, "/api/optimization/rulesCampaigns/CPT_GOAL", Some(json!({"campaignsIds": [CAMPAIGNS[1].to_string(), CAMPAIGNS[2].to_string()], "target": "0.80"})), Some(&f.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["items"].as_array().unwrap().len(), 2);
        assert_eq!(res.json["result"]["items"][0]["maxStepPercent"], "20", "the default step");
        let res = app.request(Method::POST, "/api/optimization/rulesCampaigns/CPT_GOAL", Some(json!({"campaignsIds": [CAMPAIGNS[1].to_string()]})), Some(&f.cookie)).await;
        assert_eq!(fields(&res), ["target"], "CPT_GOAL needs a target");
        let res = app.request(Method::POST, "/api/optimization/rulesCampaigns/SOMETHING", Some(json!({"campaignsIds": ["1870001"]})), Some(&f.cookie)).await;
        assert_eq!(fields(&res), ["id"]);
        let res = app.request(Method::POST, "/api/optimization/rulesCampaigns/CPA_GOAL", Some(json!({"campaignsIds": ["424242"]})), Some(&f.cookie)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "not a campaign of the workspace");

        let all = app.get("/api/optimization/all/rules", Some(&f.cookie)).await;
        assert_eq!(all.status, StatusCode::OK, "{:?}", all.json);
        let types: Vec<_> = all.json["result"]["items"].as_array().unwrap().iter().map(|t| t["type"].clone()).collect();
        assert_eq!(types, [json!("CPA_GOAL"), json!("CPT_GOAL"), json!("COST_PER_TRIAL_GOAL"), json!("COST_PER_PURCHASE_GOAL"), json!("ROAS_GOAL")]);
        assert_eq!(all.json["result"]["items"][1]["targetRequired"], true);
        let campaigns: Vec<_> = all.json["result"]["campaigns"].as_array().unwrap().iter().map(|c| (c["campaignId"].clone(), c["type"].clone(), c["target"].clone())).collect();
        assert_eq!(campaigns, [
            (json!("1870001"), json!("CPA_GOAL"), json!("2.50")),
            (json!("1870002"), json!("CPT_GOAL"), json!("0.80")),
            (json!("1870003"), json!("CPT_GOAL"), json!("0.80")),
        ]);
        assert_eq!(app.get("/api/optimization/all/rules?orgId=4500999", Some(&f.cookie)).await.json["result"]["campaigns"], json!([]));

        // Off: by type for several, or null for one.
        let res = delete(&app, "/api/optimization/rulesCampaigns/CPT_GOAL", json!({"campaignsIds": ["1870001", "1870002"]}), &f.cookie).await;
        assert_eq!(res.json["result"]["deleted"], 1, "1870001 is CPA_GOAL: kept");
        let res = put(&app, &one, json!({"type": null}), &f.cookie).await;
        assert_eq!(res.json["result"]["item"], json!(null));
        let left = app.get("/api/optimization/all/rules", Some(&f.cookie)).await.json["result"]["campaigns"].clone();
        assert_eq!(left.as_array().unwrap().len(), 1);
        assert_eq!(left[0]["campaignId"], "1870003");

        let reader = app.member(&f.cookie, Role::Reader).await;
        assert_eq!(app.get("/api/optimization/all/rules", Some(&reader)).await.status, StatusCode::OK);
        assert_eq!(put(&app, &one, json!({"type": "CPA_GOAL"}), &reader).await.status, StatusCode::FORBIDDEN);
        let g = fixture(&app).await;
        assert_eq!(app.get("/api/optimization/all/rules", Some(&g.cookie)).await.json["result"]["campaigns"], json!([]));
    }

    async fn alerts_are_listed_by_campaign_and_dismissed(app: TestApp) {
        let f = fixture(&app).await;
        let g = fixture(&app).await;
        for (id, ws, campaign, at) in [
            ("al1", &f.workspace_id, Some(CAMPAIGNS[0]), 10),
            ("al2", &f.workspace_id, Some(CAMPAIGNS[1]), 20),
            ("al3", &f.workspace_id, None, 30),
            ("al4", &g.workspace_id, Some(CAMPAIGNS[0]), 40),
        ] {
            let alert = NewAlert {
                id: id.into(),
                workspace_id: ws.clone(),
                kind: store::alerts::BUDGET_EXHAUSTED,
                cause_key: format!("cause-{id}"),
                account_id: None,
                org_id: Some(4_500_123),
                campaign_id: campaign,
                rule_id: None,
                run_id: None,
                title: "Budget exhausted".into(),
                message: "The campaign spent its budget".into(),
                emails: Vec::new(),
                email: false,
                slack: false,
                created_at: at,
            };
            assert!(store::alerts::insert(&app.state.db.pool, &alert).await.unwrap());
        }
        let reader = app.member(&f.cookie, Role::Reader).await;
        let res = app.get("/api/alerts", Some(&reader)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let ids: Vec<_> = res.json["result"]["items"].as_array().unwrap().iter().map(|a| a["id"].clone()).collect();
        assert_eq!(ids, [json!("al3"), json!("al2"), json!("al1")]);
        assert_eq!(res.json["result"]["items"][1], json!({
            "id": "al2", "kind": "BUDGET_EXHAUSTED", "campaignId": "1870002", "orgId": "4500123",
            "accountId": null, "ruleId": null, "runId": null, "title": "Budget exhausted",
            "message": "The campaign spent its budget", "createdAt": 20
        }));
        let res = app.get("/api/alerts?campaignIds=1870001,1870003", Some(&f.cookie)).await;
        assert_eq!(res.json["result"]["items"].as_array().unwrap().iter().map(|a| a["id"].clone()).collect::<Vec<_>>(), [json!("al1")]);
        assert_eq!(app.get("/api/alerts?campaignIds=18x", Some(&f.cookie)).await.status, StatusCode::BAD_REQUEST);

        assert_eq!(delete(&app, "/api/alerts", json!({"alertIds": ["al1"]}), &reader).await.status, StatusCode::FORBIDDEN);
        let res = delete(&app, "/api/alerts", json!({"alertIds": ["al1", "al4", "nope"]}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["deleted"], 1, "another workspace's alert is not ours to dismiss");
        let left: Vec<_> = app.get("/api/alerts", Some(&f.cookie)).await.json["result"]["items"].as_array().unwrap().iter().map(|a| a["id"].clone()).collect();
        assert_eq!(left, [json!("al3"), json!("al2")]);
        assert_eq!(app.get("/api/alerts", Some(&g.cookie)).await.json["result"]["items"][0]["id"], "al4");
        assert_eq!(fields(&delete(&app, "/api/alerts", json!({"alertIds": []}), &f.cookie).await), ["alertIds"]);
    }

    async fn the_slack_webhook_is_set_masked_and_cleared(app: TestApp) {
        let f = fixture(&app).await;
        let empty = app.get("/api/alerts/slack", Some(&f.cookie)).await;
        assert_eq!(empty.json["result"]["item"], json!({"configured": false, "url": null}));
        let url = "https://hooks.slack.com/services/T000/B000/abcdEFGH1234";
        let writer = app.member(&f.cookie, Role::Writer).await;
        assert_eq!(put(&app, "/api/alerts/slack", json!({"url": url}), &writer).await.status, StatusCode::FORBIDDEN, "managers only");
        for bad in ["http://hooks.slack.com/services/x", "not a url", "https://user:pw@hooks.slack.com/x"] {
            assert_eq!(fields(&put(&app, "/api/alerts/slack", json!({"url": bad}), &f.cookie).await), ["url"], "{bad}");
        }
        let res = put(&app, "/api/alerts/slack", json!({"url": url}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let masked = json!({"configured": true, "url": "https://hooks.slack.com/…/1234"});
        assert_eq!(res.json["result"]["item"], masked);
        assert_eq!(app.get("/api/alerts/slack", Some(&writer)).await.json["result"]["item"], masked);
        // Stored sealed, never in clear.
        let stored: String = sqlx::query_scalar("SELECT url_sealed FROM workspace_slack WHERE workspace_id = $1")
            .bind(&f.workspace_id).fetch_one(&app.state.db.pool).await.unwrap();
        assert!(!stored.contains("hooks.slack.com") && stored.starts_with("v1:"), "{stored}");
        let g = fixture(&app).await;
        assert_eq!(app.get("/api/alerts/slack", Some(&g.cookie)).await.json["result"]["item"]["configured"], false);
        let res = put(&app, "/api/alerts/slack", json!({"url": null}), &f.cookie).await;
        assert_eq!(res.json["result"]["item"], json!({"configured": false, "url": null}));
    }
}
