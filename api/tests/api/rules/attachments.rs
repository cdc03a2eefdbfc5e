//! The campaigns rules apply to, and the campaigns report's `rules` column.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use serde_json::{Value, json};

use super::{CAMPAIGNS, OTHER_GROUP_CAMPAIGN, create, delete, example, fields, fixture, put};
use crate::common::{TestApp, TestBackend};

fn campaign_ids(rule: &Value) -> Value {
    rule["campaignIds"].clone()
}

backend_tests! {
    async fn rules_attach_detach_set_and_toggle(app: TestApp) {
        let f = fixture(&app).await;
        let mut sent = example(&f);
        sent["campaignIds"] = json!([]);
        let rule = create(&app, &f, sent).await;
        let id = rule["id"].as_str().unwrap().to_string();
        assert_eq!(campaign_ids(&rule), json!([]));

        let res = put(&app, "/api/rules/rulesCampaigns", json!({"ruleId": id, "campaignIds": ["1870001", "1870002"]}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(campaign_ids(&res.json["result"]["item"]), json!(["1870001", "1870002"]));
        // Attaching again keeps them; a campaign of another group is refused, nothing stored.
        let res = put(&app, "/api/rules/rulesCampaigns", json!({"ruleId": id, "campaignIds": ["1870003", OTHER_GROUP_CAMPAIGN.to_string()]}), &f.cookie).await;
        assert_eq!(fields(&res), ["campaignIds.1"]);
        let res = put(&app, "/api/rules/rulesCampaigns", json!({"ruleId": id, "campaignIds": ["1870002", "1870003"]}), &f.cookie).await;
        assert_eq!(campaign_ids(&res.json["result"]["item"]), json!(["1870001", "1870002", "1870003"]));
        let res = put(&app, "/api/rules/rulesCampaigns", json!({"ruleId": id, "campaignIds": []}), &f.cookie).await;
        assert_eq!(fields(&res), ["campaignIds"]);

        let res = delete(&app, "/api/rules/rulesCampaigns", json!({"ruleId": id, "campaignIds": ["1870001", "1870009"]}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(campaign_ids(&res.json["result"]["item"]), json!(["1870002", "1870003"]));

        let res = put(&app, &format!("/api/rules/rulesCampaigns/many/{id}"), json!({"campaignIds": ["1870001"]}), &f.cookie).await;
        assert_eq!(campaign_ids(&res.json["result"]["item"]), json!(["1870001"]));
        let res = put(&app, &format!("/api/rules/rulesCampaigns/many/{id}"), json!({"campaignIds": ["1879001"]}), &f.cookie).await;
        assert_eq!(fields(&res), ["campaignIds.0"]);

        // Toggle off for one campaign: still attached, off in the campaigns table.
        let res = put(&app, "/api/rules/rulesCampaigns/toggleRule", json!({"ruleId": id, "campaignId": "1870001", "enabled": false}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(campaign_ids(&res.json["result"]["item"]), json!(["1870001"]));
        let res = put(&app, "/api/rules/rulesCampaigns/toggleRule", json!({"ruleId": id, "campaignId": "1870002", "enabled": false}), &f.cookie).await;
        assert_eq!(fields(&res), ["campaignId"], "not attached there");
        let report = app.post(&format!("/api/asa/reports?accountId={}&orgId=4500123", f.account_id), json!({"level": "CAMPAIGNS", "startDate": "2026-01-01", "endDate": "2026-01-02"}), Some(&f.cookie)).await;
        assert_eq!(report.status, StatusCode::OK, "{:?}", report.json);
        let rows = report.json["result"]["items"].as_array().unwrap().clone();
        let row = |c: i64| rows.iter().find(|r| r["campaignId"] == json!(c.to_string())).unwrap().clone();
        assert_eq!(row(CAMPAIGNS[0])["rules"], json!([{"id": id, "name": "Pause keywords that spend without installs", "enabled": false}]));
        assert_eq!(row(CAMPAIGNS[1])["rules"], json!(null));
        assert_eq!(row(CAMPAIGNS[0])["optimizationTypes"], json!(null), "Growth-locked on pro_free");
        assert!(report.json["result"]["locked"].as_array().unwrap().contains(&json!("optimizationTypes")));
    }

    async fn the_rules_of_a_campaign_are_set_from_the_campaign(app: TestApp) {
        let f = fixture(&app).await;
        let a = create(&app, &f, example(&f)).await["id"].as_str().unwrap().to_string();
        let mut second = example(&f);
        second["name"] = json!("Second");
        second["campaignIds"] = json!([]);
        let b = create(&app, &f, second).await["id"].as_str().unwrap().to_string();
        let mut jpy = example(&f);
        jpy["orgId"] = json!("4500999");
        jpy["campaignIds"] = json!([]);
        jpy["guardrails"] = json!({});
        let c = create(&app, &f, jpy).await["id"].as_str().unwrap().to_string();

        let path = format!("/api/rules/rulesCampaigns/many/{}", CAMPAIGNS[0]);
        let res = app.request(Method::POST, &path, Some(json!({"rulesIds": [b]})), Some(&f.cookie)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let items = res.json["result"]["items"].as_array().unwrap();
        assert_eq!((items.len(), items[0]["id"].clone()), (1, json!(b)));
        let all = app.get(&format!("/api/rules/all?campaignId={}", CAMPAIGNS[0]), Some(&f.cookie)).await.json["result"]["items"].clone();
        assert_eq!(all.as_array().unwrap().iter().map(|r| r["id"].clone()).collect::<Vec<_>>(), [json!(b)], "rule a left the campaign");
        let a_now = app.get("/api/rules/all", Some(&f.cookie)).await.json["result"]["items"].as_array().unwrap().iter().find(|r| r["id"] == json!(a)).unwrap().clone();
        assert_eq!(campaign_ids(&a_now), json!(["1870002"]), "and kept its other campaign");

        let res = app.request(Method::POST, &path, Some(json!({"rulesIds": [b, c]})), Some(&f.cookie)).await;
        assert_eq!(fields(&res), ["rulesIds.1"], "a rule of another campaign group");
        let res = app.request(Method::POST, &path, Some(json!({"rulesIds": ["nope"]})), Some(&f.cookie)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        let res = app.request(Method::POST, &path, Some(json!({"rulesIds": []})), Some(&f.cookie)).await;
        assert_eq!(res.json["result"]["items"], json!([]));
        assert_eq!(app.get(&format!("/api/rules/all?campaignId={}", CAMPAIGNS[0]), Some(&f.cookie)).await.json["result"]["items"], json!([]));

        // Another workspace's campaign is a 404; a reader may not.
        let g = fixture(&app).await;
        let res = app.request(Method::POST, "/api/rules/rulesCampaigns/many/1", Some(json!({"rulesIds": []})), Some(&g.cookie)).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        let reader = app.member(&f.cookie, Role::Reader).await;
        let res = app.request(Method::POST, &path, Some(json!({"rulesIds": [b]})), Some(&reader)).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        let res = put(&app, "/api/rules/rulesCampaigns/toggleRule", json!({"ruleId": b, "campaignId": "1870001", "enabled": true}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
    }
}
