//! The activity log of real changes made through the sandbox: edits appear once with their
//! values and are undone from the log, and a rule run is one notification undone through
//! the rules' own undo.

use std::collections::HashMap;

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::ids::{new_id, now_ms};
use serde_json::{Value, json};

use super::{ALL, me};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

/// A USD ad group's live keywords with bids: (campaign, ad group, [(keyword, bid micros)]).
async fn keywords(t: &Connected, account_id: &str) -> (i64, i64, i64, Vec<(i64, i64)>) {
    let pool = &t.app.state.db.pool;
    let (org_id, campaign, group): (i64, i64, i64) = sqlx::query_as(
        "SELECT o.org_id, k.campaign_id, k.ad_group_id FROM asa_keywords k \
         JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND o.currency = 'USD' AND k.deleted = 0 AND k.bid_micros IS NOT NULL \
           AND k.status = 'ENABLED' \
         GROUP BY o.org_id, k.campaign_id, k.ad_group_id ORDER BY COUNT(*) DESC, k.ad_group_id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(pool)
    .await
    .unwrap();
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT k.id, k.bid_micros FROM asa_keywords k JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND k.ad_group_id = $2 AND k.deleted = 0 AND k.bid_micros IS NOT NULL \
           AND k.status = 'ENABLED' ORDER BY k.id",
    )
    .bind(account_id)
    .bind(group)
    .fetch_all(pool)
    .await
    .unwrap();
    assert!(rows.len() >= 4, "an ad group with keywords: {rows:?}");
    (org_id, campaign, group, rows)
}

async fn bids(t: &Connected, account_id: &str) -> HashMap<i64, i64> {
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT k.id, k.bid_micros FROM asa_keywords k JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND k.bid_micros IS NOT NULL",
    )
    .bind(account_id)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    rows.into_iter().collect()
}

fn amount(micros: i64) -> String {
    rust_decimal::Decimal::new(micros, 6)
        .normalize()
        .to_string()
}

/// The log's items of changes made through Searchdeck as `cookie` sees them.
async fn items(t: &Connected, cookie: &str) -> Vec<Value> {
    let res = t.get(&format!("{ALL}?limit=200"), cookie).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    res.json["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|i| i["source"] != "apple_ads")
        .cloned()
        .collect()
}

sandbox_tests! {
    async fn edits_appear_once_and_undo_sets_them_back(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Activity").await;
        let (org_id, campaign, group, kws) = keywords(&t, &account_id).await;
        let scope = format!("accountId={account_id}&orgId={org_id}");
        let writer = t.app.member(&owner, Role::Writer).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        assert!(items(&t, &owner).await.is_empty(), "the sync makes no change of ours");

        // A quick edit: one notification, by the writer, with its old and new bid.
        let (k0, bid0) = kws[0];
        let new0 = bid0 + 130_000;
        let res = t.call(Method::PUT, &format!("/api/asa/keywords/update/{campaign}/{group}?{scope}"),
            json!({"keywordId": k0, "cptBid": amount(new0)}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let log = items(&t, &owner).await;
        assert_eq!(log.len(), 1, "{log:?}");
        let quick = &log[0];
        assert_eq!((quick["title"].as_str(), quick["tag"].as_str(), quick["source"].as_str(), quick["sourceName"].as_str(), quick["target"].as_str()),
            (Some("Bid changed"), Some("manual_change"), Some("user"), Some("Test User"), Some("KEYWORD")), "{quick}");
        assert!(quick["key"].as_str().unwrap().starts_with("edit:"));
        assert_eq!(quick["oldData"]["value"], amount(bid0));
        assert_eq!(quick["saveData"]["value"], amount(new0));
        assert_eq!(quick["saveData"]["currency"], "USD");
        assert_eq!(quick["undo"]["possible"], true);

        // A bulk edit of three keywords' bids: one notification, its changes grouped.
        let bulk: Vec<(i64, i64)> = kws[1..4].to_vec();
        let res = t.call(Method::PUT, &format!("/api/asa/keywords/update/targeting/{campaign}?{scope}"),
            json!({"keywordIds": bulk.iter().map(|k| k.0).collect::<Vec<_>>(), "field": "cptBid", "action": "set", "value": "2.22"}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t.task_finished(&writer, res.json["result"]["item"]["taskId"].as_str().unwrap()).await;
        assert_eq!(task["details"]["applied"], 3, "{task}");
        let log = items(&t, &owner).await;
        assert_eq!(log.len(), 2, "{log:?}");
        let grouped = &log[0];
        assert!(grouped["key"].as_str().unwrap().starts_with("job:"), "{grouped}");
        assert_eq!(grouped["title"], "Bid changed on 3 keywords");
        assert_eq!(grouped["count"], 3);
        assert_eq!(grouped["notificationsData"].as_array().unwrap().len(), 1);
        let data = &grouped["notificationsData"][0];
        assert_eq!((data["typeOfChange"].as_str(), data["count"].as_i64(), data["saveData"].as_str()),
            (Some("cptBid"), Some(3), Some("2.22")), "{data}");
        let res = t.get(&format!("/api/accountsActions/{}/changes", grouped["_id"].as_str().unwrap()), &reader).await;
        assert_eq!(res.json["result"]["total"], 3);

        // One of them changed since (a quick edit to a third bid): the undo skips it.
        let (k1, _) = bulk[0];
        let res = t.call(Method::PUT, &format!("/api/asa/keywords/update/{campaign}/{group}?{scope}"),
            json!({"keywordId": k1, "cptBid": "3.33"}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let grouped_id = grouped["_id"].as_str().unwrap().to_string();
        let res = t.call(Method::POST, &format!("/api/accountsActions/{grouped_id}/undo"), json!({}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);
        let res = t.call(Method::POST, &format!("/api/accountsActions/{grouped_id}/undo"), json!({}), &writer).await;
        assert_eq!(res.status, StatusCode::ACCEPTED, "{:?}", res.json);
        let task = t.task_finished(&writer, res.json["result"]["taskId"].as_str().unwrap()).await;
        assert!(task["error"].is_null(), "{task}");
        let d = &task["details"];
        assert_eq!((d["restored"].as_u64(), d["skipped"].as_u64()), (Some(2), Some(1)), "{task}");
        assert_eq!(d["left"][0]["entityId"], k1.to_string());
        assert_eq!(d["left"][0]["message"], "Changed since");
        let now = bids(&t, &account_id).await;
        assert_eq!(now[&k1], 3_330_000, "changed since: left as it is");
        for (k, old) in &bulk[1..] {
            assert_eq!(now[k], *old, "keyword {k} set back");
        }
        let log = items(&t, &owner).await;
        let undo = log.iter().find(|i| i["type"] == "undo").unwrap_or_else(|| panic!("{log:?}"));
        assert_eq!(undo["undo"]["undoOf"], grouped_id);
        assert_eq!(undo["count"], 2);
        assert_eq!(undo["title"], "Undone: Bid changed on 3 keywords");
        let original = log.iter().find(|i| i["_id"] == grouped_id.as_str()).unwrap();
        assert_eq!(original["undo"]["undoneBy"], undo["_id"]);
        assert_eq!(original["undo"]["possible"], false);
        let res = t.call(Method::POST, &format!("/api/accountsActions/{grouped_id}/undo"), json!({}), &writer).await;
        assert_eq!((res.status, res.json["message"].as_str()), (StatusCode::CONFLICT, Some("ALREADY_UNDONE")));
        // The same undo again (a retried job): nothing is sent twice, no second notification.
        let (workspace_id, writer_id) = me(&t.app, &writer).await;
        let payload = searchdeck_common::jobs::UndoNotification {
            workspace_id: workspace_id.clone(),
            notification_id: grouped_id.clone(),
            user_id: Some(writer_id.clone()),
            user_email: None,
        };
        let task_id = searchdeck_common::store::tasks::create(&t.app.state.db.pool, searchdeck_common::tasks::NewTask {
            workspace_id: &workspace_id, user_id: Some(&writer_id), kind: "undo-notification",
            message: "Retry", total_steps: 1, account_id: None, org_id: None }).await.unwrap();
        let envelope = searchdeck_common::queue::Envelope::with_id(new_id(), &payload, Some(task_id.clone())).unwrap();
        t.app.state.queue.enqueue_envelope(&envelope, &searchdeck_common::queue::EnqueueOptions {
            task_id: Some(task_id.clone()), ..Default::default() }).await.unwrap();
        let again = t.task_finished(&writer, &task_id).await;
        assert!(again["error"].is_null(), "{again}");
        assert_eq!((again["details"]["restored"].as_u64(), again["details"]["skipped"].as_u64()), (Some(2), Some(1)), "{again}");
        assert_eq!(again["details"]["undoId"], undo["_id"], "the same undo notification");
        assert_eq!(items(&t, &owner).await.len(), log.len(), "no second notification");
        assert_eq!(bids(&t, &account_id).await, now, "nothing moved");
        let res = t.call(Method::POST, &format!("/api/accountsActions/{}/undo", undo["_id"].as_str().unwrap()), json!({}), &writer).await;
        assert_eq!((res.status, res.json["message"].as_str()), (StatusCode::BAD_REQUEST, Some("NOT_UNDOABLE")));

        // The quick edit's undo sets its bid back, at Apple too.
        let res = t.call(Method::POST, &format!("/api/accountsActions/{}/undo", quick["_id"].as_str().unwrap()), json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::ACCEPTED, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["taskId"].as_str().unwrap()).await;
        assert_eq!(task["details"]["restored"], 1, "{task}");
        assert_eq!(bids(&t, &account_id).await[&k0], bid0);
    }

    async fn a_rule_run_is_one_notification_undone_through_the_rules_undo(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Rules").await;
        // Metrics complete through yesterday: a rule on statuses and amounts may run.
        searchdeck_common::test_support::metrics_delivered(&t.app.state.db, Some(&account_id), None, now_ms() / 1000).await;
        let (org_id, campaign, _, _) = keywords(&t, &account_id).await;
        let (workspace_id, _) = me(&t.app, &owner).await;
        let rule: searchdeck_common::rules::Rule = serde_json::from_value(json!({
            "name": "Raise winners", "accountId": account_id, "orgId": org_id.to_string(),
            "level": "KEYWORDS", "campaignIds": [campaign.to_string()],
            "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [{"type": "status", "values": ["ACTIVE"]}]}]},
            "window": {"type": "last", "days": 7}, "frequency": {"type": "daily", "hour": 6},
            "actions": [{"type": "changeBid", "by": "PERCENT", "value": "10"}],
            "guardrails": {"maxEntities": 3}
        })).unwrap();
        let mut rule = rule;
        rule.id = new_id();
        rule.created_at = now_ms() / 1000;
        rule.updated_at = rule.created_at;
        let pool = &t.app.state.db.pool;
        searchdeck_common::store::rules::insert(pool, &workspace_id, None, &rule, org_id).await.unwrap();
        searchdeck_common::store::rules::attach(pool, &rule.id, campaign, rule.created_at).await.unwrap();
        let res = t.call(Method::POST, &format!("/api/rules/user/{}/run", rule.id), json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["id"].as_str().unwrap()).await;
        assert!(task["error"].is_null(), "{task}");
        let run_id = task["details"]["runId"].as_str().unwrap().to_string();
        let before = bids(&t, &account_id).await;

        let log = items(&t, &owner).await;
        assert_eq!(log.len(), 1, "{log:?}");
        let n = &log[0];
        assert_eq!((n["tag"].as_str(), n["source"].as_str(), n["sourceName"].as_str(), n["ruleId"].as_str()),
            (Some("auto_rules"), Some("rule"), Some("Raise winners"), Some(rule.id.as_str())), "{n}");
        assert_eq!(n["key"], format!("rule-run:{run_id}"));
        assert_eq!(n["title"], "Rule 'Raise winners' changed 3 keywords");
        assert_eq!(n["count"], 3);
        assert_eq!(n["undo"]["possible"], true);

        let id = n["_id"].as_str().unwrap().to_string();
        let res = t.call(Method::POST, &format!("/api/accountsActions/{id}/undo"), json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::ACCEPTED, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["taskId"].as_str().unwrap()).await;
        assert!(task["error"].is_null(), "{task}");
        assert_eq!(task["details"]["restored"], 3, "{task}");
        let run = t.get(&format!("/api/rules/runs/{run_id}"), &owner).await.json["result"]["item"].clone();
        let undo_run = run["undoneBy"].as_str().unwrap_or_else(|| panic!("{run}")).to_string();
        let after = bids(&t, &account_id).await;
        let restored = before.iter().filter(|(k, b)| after[*k] != **b).count();
        assert_eq!(restored, 3, "three bids set back");
        let log = items(&t, &owner).await;
        let undo = log.iter().find(|i| i["type"] == "undo").unwrap_or_else(|| panic!("{log:?}"));
        assert_eq!(undo["key"], format!("rule-run:{undo_run}"));
        assert_eq!((undo["undo"]["undoOf"].as_str(), undo["tag"].as_str()), (Some(id.as_str()), Some("auto_rules")));
        let original = log.iter().find(|i| i["_id"] == id.as_str()).unwrap();
        assert_eq!(original["undo"]["undoneBy"], undo["_id"]);
        let res = t.call(Method::POST, &format!("/api/accountsActions/{id}/undo"), json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::CONFLICT);
    }
}
