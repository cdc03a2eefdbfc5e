//! Every action a rule can take, run against the sandbox: pause, enable, setBid, changeBid,
//! setBudget, addKeyword and addNegative each reach Apple and our synced rows.

use std::time::Duration;

use axum::http::Method;
use searchdeck_common::ids;
use searchdeck_provider::{AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{
    changes, client, connect_and_sync, finished, money_micros, pick, rule_json, run_now, store_rule,
};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

sandbox_tests! {
    async fn each_action_reaches_the_sandbox(t: Connected) {
        let owner = t.owner().await;
        let account_id = connect_and_sync(&t, &owner).await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let pool = &t.app.state.db.pool;

        // pause, then enable, two keywords (by name).
        let (k1, _) = p.keywords[0];
        let text: String = sqlx::query_scalar("SELECT text FROM asa_keywords WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(k1).fetch_one(pool).await.unwrap();
        let by_name = json!([{"type": "name", "operator": "EQUALS", "value": text}]);
        let pause = store_rule(&t, &p, &rule_json(&p, "KEYWORDS", by_name.clone(), json!([{"type": "pause"}]), json!({})), "a@example.com").await;
        let run = run_now(&t, &owner, &pause).await;
        assert!(!changes(&run, "APPLIED").is_empty(), "{run}");
        let k: Value = client.get(p.org_id, Entity::Keywords, k1).await.unwrap();
        assert_eq!(k["status"], "PAUSED");
        let enable = store_rule(&t, &p, &rule_json(&p, "KEYWORDS", by_name, json!([{"type": "enable"}]), json!({})), "a@example.com").await;
        let run = run_now(&t, &owner, &enable).await;
        assert!(!changes(&run, "APPLIED").is_empty(), "{run}");
        let k: Value = client.get(p.org_id, Entity::Keywords, k1).await.unwrap();
        assert_ne!(k["status"], "PAUSED");

        // setBid on the campaign's ad groups, setBudget on the campaign.
        let any = json!([{"type": "status", "values": ["ENABLED", "PAUSED"]}]);
        let set_bid = store_rule(&t, &p, &rule_json(&p, "ADGROUPS", any.clone(), json!([{"type": "setBid", "amount": "0.77"}]), json!({})), "a@example.com").await;
        let run = run_now(&t, &owner, &set_bid).await;
        let groups = changes(&run, "APPLIED");
        assert!(!groups.is_empty(), "{run}");
        for (id, _, new) in &groups {
            assert_eq!(new, "0.77");
            let g: Value = client.get(p.org_id, Entity::AdGroups, id.parse().unwrap()).await.unwrap();
            assert_eq!(money_micros(&g["bidStrategy"]["bid"]), 770_000);
        }
        let budget = store_rule(&t, &p, &rule_json(&p, "CAMPAIGNS", any, json!([{"type": "setBudget", "amount": "123"}]), json!({})), "a@example.com").await;
        let run = run_now(&t, &owner, &budget).await;
        assert_eq!(changes(&run, "APPLIED"), vec![(p.campaign.to_string(), changes(&run, "APPLIED")[0].1.clone(), "123".to_string())], "{run}");
        let c: Value = client.get(p.org_id, Entity::Campaigns, p.campaign).await.unwrap();
        assert_eq!(money_micros(&c["dailyBudget"]["value"]), 123_000_000);

        // A search term (as the reports sync stores them) added as a keyword of an ad group and
        // as a negative where it came from.
        let group: i64 = sqlx::query_scalar("SELECT id FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0 ORDER BY id LIMIT 1")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();
        sqlx::query("INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, keyword_id, text, source) VALUES ($1, 777001, $2, $3, NULL, 'rule added term', 'AUTO')")
            .bind(p.org_key).bind(p.campaign).bind(group).execute(pool).await.unwrap();
        let term = json!([{"type": "name", "operator": "EQUALS", "value": "rule added term"}]);
        let add = store_rule(&t, &p, &rule_json(&p, "SEARCHTERMS", term,
            json!([{"type": "addKeyword", "campaignId": p.campaign.to_string(), "adGroupId": group.to_string(), "matchType": "EXACT"},
                   {"type": "addNegative", "where": "CAMPAIGN", "matchType": "EXACT"}]), json!({})), "a@example.com").await;
        let run = run_now(&t, &owner, &add).await;
        let items = run["items"].as_array().unwrap();
        assert_eq!(items.len(), 2, "{run}");
        assert!(items.iter().all(|i| i["result"] == "APPLIED"), "{run}");
        let keyword = items.iter().find(|i| i["field"] == "keyword").unwrap();
        let kid: i64 = keyword["detail"]["id"].as_str().unwrap().parse().unwrap();
        let k: Value = client.get(p.org_id, Entity::Keywords, kid).await.unwrap();
        assert_eq!(k["text"], "rule added term");
        let negatives: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM asa_negative_keywords WHERE org_key = $1 AND campaign_id = $2 AND ad_group_id IS NULL AND text = 'rule added term' AND deleted = 0")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();
        assert_eq!(negatives, 1);
        // Run again on the same data: it joins the first run and applies nothing.
        let res = t.call(Method::POST, &format!("/api/rules/user/{add}/run"), json!({}), &owner).await;
        let task = finished(&t, &owner, res.json["result"]["id"].as_str().unwrap()).await;
        assert!(task["message"].as_str().unwrap().starts_with("Nothing applied"), "{task}");
        assert_eq!(task["details"]["runId"], run["id"]);
        // After a new sync (new data), it evaluates again: both are there already.
        let account_id = p.account_id.clone();
        searchdeck_common::test_support::metrics_delivered(&t.app.state.db, Some(&account_id), None, ids::now_ms() / 1000 + 1).await;
        tokio::time::sleep(Duration::from_millis(1100)).await;
        let again = run_now(&t, &owner, &add).await;
        assert_ne!(again["id"], run["id"]);
        assert!(again["items"].as_array().unwrap().iter().all(|i| i["result"] == "SKIPPED"), "{again}");
    }
}
