//! Rules: the contract's example round trip, validation, limits, roles and scope.

use axum::http::StatusCode;
use searchdeck_api::session::Role;
use serde_json::json;

use super::{create, delete, example, fields, fixture, put};
use crate::common::{TestApp, TestBackend};

backend_tests! {
    async fn a_rule_round_trips_as_the_contract_shows_it(app: TestApp) {
        let f = fixture(&app).await;
        let sent = example(&f);
        let stored = create(&app, &f, sent.clone()).await;
        // The server's fields are the server's; the rest comes back as sent.
        let id = stored["id"].as_str().unwrap().to_string();
        assert_ne!(id, "01J…");
        assert_eq!(stored["currency"], "USD");
        assert_eq!(stored["createdBy"], json!(app.get("/api/auth/me", Some(&f.cookie)).await.json["result"]["item"]["email"]));
        assert!(stored["createdAt"].as_i64().unwrap() > 1_700_000_000);
        assert_eq!(stored["createdAt"], stored["updatedAt"]);
        assert_eq!(stored["lastRun"], json!(null));
        let mut expected = sent.clone();
        for key in ["id", "createdBy", "createdAt", "updatedAt", "lastRun"] {
            expected[key] = stored[key].clone();
        }
        assert_eq!(stored, expected);

        let listed = app.get("/api/rules/all", Some(&f.cookie)).await;
        assert_eq!(listed.status, StatusCode::OK);
        assert_eq!(listed.json["result"]["items"], json!([stored.clone()]));
        let filtered = app.get("/api/rules/all?orgId=4500999", Some(&f.cookie)).await;
        assert_eq!(filtered.json["result"]["items"], json!([]));
        let by_campaign = app.get("/api/rules/all?campaignId=1870002", Some(&f.cookie)).await;
        assert_eq!(by_campaign.json["result"]["items"][0]["id"], json!(id));
        let none = app.get("/api/rules/all?campaignId=1870003", Some(&f.cookie)).await;
        assert_eq!(none.json["result"]["items"], json!([]));
        assert_eq!(app.get("/api/rules/all?orgId=abc", Some(&f.cookie)).await.status, StatusCode::BAD_REQUEST);

        // Replace: a new name, disabled, other campaigns; the author and creation stay.
        let mut changed = sent.clone();
        changed["name"] = json!("Renamed");
        changed["enabled"] = json!(false);
        changed["campaignIds"] = json!(["1870003"]);
        let res = put(&app, &format!("/api/rules/user/{id}"), changed, &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let replaced = &res.json["result"]["item"];
        assert_eq!((replaced["name"].clone(), replaced["enabled"].clone()), (json!("Renamed"), json!(false)));
        assert_eq!(replaced["campaignIds"], json!(["1870003"]));
        assert_eq!(replaced["createdBy"], stored["createdBy"]);
        assert_eq!(replaced["createdAt"], stored["createdAt"]);

        // Enabling it again moves its schedule's start (enabled_at) to now.
        let enabled_at = |app: &TestApp| {
            let pool = app.state.db.pool.clone();
            let id = id.clone();
            async move {
                sqlx::query_scalar::<_, i64>("SELECT enabled_at FROM rules WHERE id = $1")
                    .bind(id).fetch_one(&pool).await.unwrap()
            }
        };
        sqlx::query("UPDATE rules SET enabled_at = 5 WHERE id = $1").bind(&id).execute(&app.state.db.pool).await.unwrap();
        let mut again = sent.clone();
        again.as_object_mut().unwrap().remove("campaignIds");
        let res = put(&app, &format!("/api/rules/user/{id}"), again, &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["campaignIds"], json!(["1870003"]), "without campaignIds the attachments stay");
        assert!(enabled_at(&app).await > 1_700_000_000);

        // Moved to the other campaign group (JPY) without campaignIds: it leaves the old
        // group's campaigns.
        let mut moved = sent.clone();
        moved.as_object_mut().unwrap().remove("campaignIds");
        moved["orgId"] = json!("4500999");
        moved["guardrails"] = json!({});
        let res = put(&app, &format!("/api/rules/user/{id}"), moved, &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["campaignIds"], json!([]));
        assert_eq!(res.json["result"]["item"]["currency"], "JPY");

        // Delete: an unknown id deletes nothing (404), then the rule goes.
        let res = delete(&app, "/api/rules/user/many", json!({"rulesIds": [id, "nope"]}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        assert_eq!(app.get("/api/rules/all", Some(&f.cookie)).await.json["result"]["items"].as_array().unwrap().len(), 1);
        let res = delete(&app, "/api/rules/user/many", json!({"rulesIds": [id]}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["deleted"], 1);
        assert_eq!(app.get("/api/rules/all", Some(&f.cookie)).await.json["result"]["items"], json!([]));
        let links: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rule_campaigns").fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(links, 0, "the attachments went with it");
    }

    async fn invalid_rules_answer_field_errors_and_store_nothing(app: TestApp) {
        let f = fixture(&app).await;
        let mut bad = example(&f);
        bad["name"] = json!(" ");
        bad["conditions"]["groups"][1]["conditions"][0] = json!({"type": "metric", "metric": "taps", "operator": "EQUALS", "value": "x"});
        bad["window"]["days"] = json!(0);
        bad["actions"][0] = json!({"type": "setBid", "amount": "1.234"});
        bad["guardrails"]["maxBid"] = json!("0.05");
        bad["campaignIds"] = json!(["1870001", "1870002", "1879001"]);
        let res = put(&app, "/api/rules/user", bad, &f.cookie).await;
        assert_eq!(fields(&res), [
            "name",
            "conditions.groups.1.conditions.0.value",
            "window.days",
            "actions.0.amount",
            "guardrails.maxBid",
            "campaignIds.2",
        ]);
        assert_eq!(res.json["errors"][0]["message"], "Enter a rule name");
        // A whole number no integer of the window holds is named where it is, inside the
        // tagged variant too (serde alone names only `window`).
        let mut huge = example(&f);
        huge["window"]["days"] = json!(9_223_372_036_854_775_808u64);
        let res = put(&app, "/api/rules/user", huge, &f.cookie).await;
        assert_eq!(fields(&res), ["window.days"]);
        assert_eq!(res.json["errors"][0]["message"], "Number out of range");
        // JPY money has no decimals; another connection is refused; version 2 is not ours.
        let mut jpy = example(&f);
        jpy["orgId"] = json!("4500999");
        jpy["campaignIds"] = json!(["1879001"]);
        assert_eq!(fields(&put(&app, "/api/rules/user", jpy, &f.cookie).await), ["guardrails.minBid"]);
        let mut foreign = example(&f);
        foreign["accountId"] = json!("someone-elses");
        assert_eq!(fields(&put(&app, "/api/rules/user", foreign, &f.cookie).await), ["accountId"]);
        let mut unsynced = example(&f);
        unsynced["orgId"] = json!("777");
        assert_eq!(fields(&put(&app, "/api/rules/user", unsynced, &f.cookie).await), ["orgId"]);
        let mut v2 = example(&f);
        v2["version"] = json!(2);
        assert_eq!(fields(&put(&app, "/api/rules/user", v2, &f.cookie).await), ["version"]);
        let mut wrong_type = example(&f);
        wrong_type["level"] = json!("ADS");
        assert_eq!(fields(&put(&app, "/api/rules/user", wrong_type, &f.cookie).await), ["level"]);
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rules").fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(count, 0, "nothing stored");
    }

    async fn plan_limits_refuse_before_storing(app: TestApp) {
        let f = fixture(&app).await;
        // pro_free: 10 rules, 20 campaigns with rules.
        for i in 0..10 {
            let mut rule = example(&f);
            rule["name"] = json!(format!("Rule {i}"));
            create(&app, &f, rule).await;
        }
        let res = put(&app, "/api/rules/user", example(&f), &f.cookie).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        assert_eq!(res.message(), "LIMIT_HAS_BEEN_REACHED");
        assert_eq!(res.json["meta"]["type"], "AVAILABLERULES");
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rules").fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(count, 10);

        // 20 campaigns: 18 more synced campaigns bring the fixture's group to 21.
        let org_key: i64 = sqlx::query_scalar("SELECT org_key FROM sync_orgs WHERE account_id = $1 AND org_id = 4500123")
            .bind(&f.account_id).fetch_one(&app.state.db.pool).await.unwrap();
        let mut ids: Vec<String> = super::CAMPAIGNS.iter().map(|c| c.to_string()).collect();
        for c in 1_871_000..1_871_018_i64 {
            sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) VALUES ($1, $2, 'More', 'ENABLED', 1)")
                .bind(org_key).bind(c).execute(&app.state.db.pool).await.unwrap();
            ids.push(c.to_string());
        }
        let rule_id = app.get("/api/rules/all", Some(&f.cookie)).await.json["result"]["items"][0]["id"].as_str().unwrap().to_string();
        let res = put(&app, &format!("/api/rules/rulesCampaigns/many/{rule_id}"), json!({"campaignIds": ids}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        assert_eq!(res.json["meta"]["type"], "AVAILABLERULESCAMPAIGNS");
        ids.pop();
        let res = put(&app, &format!("/api/rules/rulesCampaigns/many/{rule_id}"), json!({"campaignIds": ids}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "20 campaigns: {:?}", res.json);
        let res = put(&app, "/api/rules/rulesCampaigns", json!({"ruleId": rule_id, "campaignIds": ["1871017"]}), &f.cookie).await;
        assert_eq!(res.json["meta"]["type"], "AVAILABLERULESCAMPAIGNS");
        // Another rule on campaigns already counted passes.
        let other = app.get("/api/rules/all", Some(&f.cookie)).await.json["result"]["items"][1]["id"].as_str().unwrap().to_string();
        let res = put(&app, "/api/rules/rulesCampaigns", json!({"ruleId": other, "campaignIds": ["1871016"]}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        // The Subscription page's usage counts as these checks count (docs/api/plans.md).
        let usage = app.get("/api/plan/current", Some(&f.cookie)).await.json["result"]["usage"].clone();
        assert_eq!((usage["rules"].as_u64(), usage["rulesCampaigns"].as_u64(), usage["campaigns"].as_u64()), (Some(10), Some(20), Some(21)));
    }

    async fn concurrent_writes_cannot_pass_the_plan_limits_together(app: TestApp) {
        let f = fixture(&app).await;
        // pro_free: 10 rules. Eight exist; four concurrent creations: two stored.
        for i in 0..8 {
            let mut rule = example(&f);
            rule["name"] = json!(format!("Rule {i}"));
            rule["campaignIds"] = json!([]);
            create(&app, &f, rule).await;
        }
        let tries = (0..4).map(|i| {
            let mut rule = example(&f);
            rule["name"] = json!(format!("Race {i}"));
            rule["campaignIds"] = json!([]);
            put(&app, "/api/rules/user", rule, &f.cookie)
        });
        let answers = futures::future::join_all(tries).await;
        let stored = answers.iter().filter(|r| r.status == StatusCode::OK).count();
        assert_eq!(stored, 2, "{answers:?}");
        assert!(answers.iter().filter(|r| r.status != StatusCode::OK).all(|r| r.status == StatusCode::FORBIDDEN && r.json["meta"]["type"] == "AVAILABLERULES"), "{answers:?}");
        let count: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM rules").fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(count, 10);

        // 20 campaigns with rules: one rule on 18 of the group's 21, then three rules each
        // attached concurrently to another new campaign: two pass.
        let org_key: i64 = sqlx::query_scalar("SELECT org_key FROM sync_orgs WHERE account_id = $1 AND org_id = 4500123")
            .bind(&f.account_id).fetch_one(&app.state.db.pool).await.unwrap();
        let mut ids: Vec<String> = super::CAMPAIGNS.iter().map(|c| c.to_string()).collect();
        for c in 1_871_000..1_871_018_i64 {
            sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) VALUES ($1, $2, 'More', 'ENABLED', 1)")
                .bind(org_key).bind(c).execute(&app.state.db.pool).await.unwrap();
            ids.push(c.to_string());
        }
        let rules: Vec<String> = app.get("/api/rules/all", Some(&f.cookie)).await.json["result"]["items"]
            .as_array().unwrap().iter().map(|r| r["id"].as_str().unwrap().to_string()).collect();
        let first: Vec<String> = ids[..18].to_vec();
        let res = put(&app, &format!("/api/rules/rulesCampaigns/many/{}", rules[0]), json!({"campaignIds": first}), &f.cookie).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let tries = (0..3).map(|i| {
            put(&app, "/api/rules/rulesCampaigns", json!({"ruleId": rules[i + 1], "campaignIds": [ids[18 + i]]}), &f.cookie)
        });
        let answers = futures::future::join_all(tries).await;
        let attached = answers.iter().filter(|r| r.status == StatusCode::OK).count();
        assert_eq!(attached, 2, "{answers:?}");
        assert!(answers.iter().filter(|r| r.status != StatusCode::OK).all(|r| r.json["meta"]["type"] == "AVAILABLERULESCAMPAIGNS"), "{answers:?}");
        let distinct: i64 = sqlx::query_scalar("SELECT COUNT(DISTINCT campaign_id) FROM rule_campaigns").fetch_one(&app.state.db.pool).await.unwrap();
        assert_eq!(distinct, 20);
    }

    async fn readers_read_and_other_workspaces_see_nothing(app: TestApp) {
        let f = fixture(&app).await;
        let stored = create(&app, &f, example(&f)).await;
        let id = stored["id"].as_str().unwrap();
        let reader = app.member(&f.cookie, Role::Reader).await;
        assert_eq!(app.get("/api/rules/all", Some(&reader)).await.json["result"]["items"][0]["id"], json!(id));
        for res in [
            put(&app, "/api/rules/user", example(&f), &reader).await,
            put(&app, &format!("/api/rules/user/{id}"), example(&f), &reader).await,
            delete(&app, "/api/rules/user/many", json!({"rulesIds": [id]}), &reader).await,
        ] {
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        }
        let writer = app.member(&f.cookie, Role::Writer).await;
        let mut renamed = example(&f);
        renamed["name"] = json!("By the writer");
        assert_eq!(put(&app, &format!("/api/rules/user/{id}"), renamed, &writer).await.status, StatusCode::OK);

        let g = fixture(&app).await;
        assert_eq!(app.get("/api/rules/all", Some(&g.cookie)).await.json["result"]["items"], json!([]));
        let res = put(&app, &format!("/api/rules/user/{id}"), example(&g), &g.cookie).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND);
        assert_eq!(res.message(), "Rule not found");
        assert_eq!(delete(&app, "/api/rules/user/many", json!({"rulesIds": [id]}), &g.cookie).await.status, StatusCode::NOT_FOUND);
        assert_eq!(put(&app, "/api/rules/rulesCampaigns", json!({"ruleId": id, "campaignIds": ["1870001"]}), &g.cookie).await.status, StatusCode::NOT_FOUND);
        // Our connection is not theirs to use.
        let res = put(&app, "/api/rules/user", example(&f), &g.cookie).await;
        assert_eq!(fields(&res)[0], "accountId");
    }
}
