//! A rule's preview, its run and the run's undo: the preview writes nothing and shows what
//! the run then applies (bids raised by 10 % once, recorded as `auto_rules`), and undo sets
//! back what nobody changed since; readers and other workspaces are refused.

use std::collections::HashMap;

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_provider::{AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{
    changes, client, connect_and_sync_settled, finished, money_micros, pick, raised, rule_json,
    sandbox_writes, store_rule,
};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

sandbox_tests! {
    async fn preview_equals_the_run_which_raises_once_and_undo_skips_what_changed_since(t: Connected) {
        let owner = t.owner().await;
        // Runs again on the same data count as one intent: no metrics sync may end between.
        let account_id = connect_and_sync_settled(&t, &owner).await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let writer = t.app.member(&owner, Role::Writer).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let rule = rule_json(&p, "KEYWORDS",
            json!([{"type": "status", "values": ["ACTIVE"]}]),
            json!([{"type": "changeBid", "by": "PERCENT", "value": "10"}]),
            json!({"maxEntities": 5}));

        // Preview: what it would do, nothing sent.
        let before = sandbox_writes(client.as_ref(), p.org_id).await;
        let res = t.call(Method::POST, "/api/rules/preview", json!({"rule": rule}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let preview = res.json["result"]["item"].clone();
        assert_eq!(preview["status"], "PREVIEW");
        assert_eq!(preview["matched"].as_u64(), Some(p.keywords.len() as u64));
        let planned = changes(&preview, "PLANNED");
        assert_eq!(planned.len(), 5, "maxEntities 5: {preview}");
        let over = preview["items"].as_array().unwrap().iter()
            .filter(|i| i["message"] == "Over the rule's entity limit").count();
        assert_eq!(over, p.keywords.len() - 5);
        assert_eq!(sandbox_writes(client.as_ref(), p.org_id).await, before, "a preview writes nothing");
        // A reader may not preview.
        let res = t.call(Method::POST, "/api/rules/preview", json!({"rule": rule}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN);

        // The run: the preview's changes, applied once.
        let id = store_rule(&t, &p, &rule, "ann@example.com").await;
        let res = t.call(Method::POST, &format!("/api/rules/user/{id}/run"), json!({}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "readers do not run rules");
        // Two clicks at once are one run: the second joins the first's task.
        let path = format!("/api/rules/user/{id}/run");
        let (first, second) = tokio::join!(
            t.call(Method::POST, &path, json!({}), &writer),
            t.call(Method::POST, &path, json!({}), &owner)
        );
        assert_eq!((first.status, second.status), (StatusCode::OK, StatusCode::OK), "{:?}", second.json);
        assert_eq!(first.json["result"]["id"], second.json["result"]["id"], "joined");
        let task = finished(&t, &writer, first.json["result"]["id"].as_str().unwrap()).await;
        assert!(task["error"].is_null(), "{task}");
        let run_id = task["details"]["runId"].as_str().unwrap().to_string();
        let run = t.get(&format!("/api/rules/runs/{run_id}"), &writer).await.json["result"]["item"].clone();
        assert_eq!(run["status"], "DONE", "{run}");
        assert_eq!(run["trigger"], "MANUAL");
        assert_eq!(changes(&run, "APPLIED"), planned, "the run applied what the preview showed");
        // Items name their campaign and ad group as synced, in the preview and the run.
        let campaign_name: String = sqlx::query_scalar("SELECT name FROM asa_campaigns WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(p.campaign).fetch_one(&t.app.state.db.pool).await.unwrap();
        let groups: HashMap<String, String> = sqlx::query_as::<_, (i64, String)>("SELECT id, name FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2")
            .bind(p.org_key).bind(p.campaign).fetch_all(&t.app.state.db.pool).await.unwrap()
            .into_iter().map(|(id, name)| (id.to_string(), name)).collect();
        for item in preview["items"].as_array().unwrap().iter().chain(run["items"].as_array().unwrap()) {
            assert_eq!(item["campaignName"].as_str(), Some(campaign_name.as_str()), "{item}");
            let group = item["adGroupId"].as_str().unwrap();
            assert_eq!(item["adGroupName"].as_str(), Some(groups[group].as_str()), "{item}");
        }
        // Run now again, after the first ended and at once twice: the same delivered data and
        // the same rule are one intent, so nothing is applied again (the bids stay raised
        // once) and each request says what it applied itself.
        let writes = sandbox_writes(client.as_ref(), p.org_id).await;
        let again = t.call(Method::POST, &format!("/api/rules/user/{id}/run"), json!({}), &writer).await;
        let twice = t.call(Method::POST, &format!("/api/rules/user/{id}/run"), json!({}), &writer).await;
        let (again, twice) = (again.json["result"]["id"].as_str().unwrap().to_string(), twice.json["result"]["id"].as_str().unwrap().to_string());
        for task_id in [&again, &twice] {
            let task = finished(&t, &writer, task_id).await;
            assert!(task["error"].is_null(), "{task}");
            assert!(task["message"].as_str().unwrap().starts_with("Nothing applied: the rule already ran on the same data"), "{task}");
            assert_eq!((task["details"]["runId"].as_str(), task["details"]["applied"].as_u64()), (run["id"].as_str(), Some(0)), "{task}");
        }
        assert_eq!(sandbox_writes(client.as_ref(), p.org_id).await, writes, "nothing sent again");
        let res = t.get(&format!("/api/rules/user/{id}/runs"), &writer).await;
        assert_eq!(res.json["result"]["total"], 1, "one run: {:?}", res.json);
        let old: HashMap<i64, i64> = p.keywords.iter().copied().collect();
        let applied: Vec<i64> = planned.iter().map(|(id, _, _)| id.parse().unwrap()).collect();
        for id in &applied {
            let k: Value = client.get(p.org_id, Entity::Keywords, *id).await.unwrap();
            assert_eq!(money_micros(&k["bid"]), raised(old[id]), "keyword {id} at the sandbox");
        }
        let records: Vec<(String, String)> = sqlx::query_as(
            "SELECT source, job_id FROM change_records WHERE level = 'KEYWORD' AND field = 'cptBid'")
            .fetch_all(&t.app.state.db.pool).await.unwrap();
        assert_eq!(records.len(), 5);
        assert!(records.iter().all(|(s, j)| s == "auto_rules" && Some(j.as_str()) == run["id"].as_str()));
        // Readers read runs; another workspace does not see them.
        let res = t.get(&format!("/api/rules/user/{id}/runs"), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["total"], 1);
        let stranger = t.owner().await;
        let run_id = run["id"].as_str().unwrap();
        assert_eq!(t.get(&format!("/api/rules/runs/{run_id}"), &stranger).await.status, StatusCode::NOT_FOUND);
        assert_eq!(t.get(&format!("/api/rules/user/{id}/runs"), &stranger).await.status, StatusCode::NOT_FOUND);

        // Someone changes one keyword since (as a sync would see it); the undo restores the
        // others and skips it.
        let changed = applied[0];
        sqlx::query("UPDATE asa_keywords SET bid_micros = 4440000 WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(changed).execute(&t.app.state.db.pool).await.unwrap();
        let res = t.call(Method::POST, &format!("/api/rules/runs/{run_id}/undo"), json!({}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = finished(&t, &writer, res.json["result"]["id"].as_str().unwrap()).await;
        assert!(task["error"].is_null(), "{task}");
        let undo_id = task["details"]["runId"].as_str().unwrap();
        let undo = t.get(&format!("/api/rules/runs/{undo_id}"), &writer).await.json["result"]["item"].clone();
        assert_eq!((undo["trigger"].as_str(), undo["undoOf"].as_str()), (Some("UNDO"), Some(run_id)));
        let skipped: Vec<&Value> = undo["items"].as_array().unwrap().iter().filter(|i| i["result"] == "SKIPPED").collect();
        assert_eq!(skipped.len(), 1, "{undo}");
        assert_eq!(skipped[0]["entityId"], changed.to_string());
        assert_eq!(skipped[0]["message"], "Changed since the run");
        for id in &applied[1..] {
            let k: Value = client.get(p.org_id, Entity::Keywords, *id).await.unwrap();
            assert_eq!(money_micros(&k["bid"]), old[id], "keyword {id} restored");
        }
        let original = t.get(&format!("/api/rules/runs/{run_id}"), &writer).await.json["result"]["item"].clone();
        assert_eq!(original["undoneBy"].as_str(), Some(undo_id));
        // The rules list's last run is the undo, saying what it undid and who asked.
        let listed = t.get("/api/rules/all", &writer).await.json;
        let last = listed["result"]["items"].as_array().unwrap().iter().find(|r| r["id"] == id.as_str()).unwrap()["lastRun"].clone();
        let writer_email = t.get("/api/auth/me", &writer).await.json["result"]["item"]["email"].clone();
        assert_eq!((last["id"].as_str(), last["trigger"].as_str(), last["undoOf"].as_str()), (Some(undo_id), Some("UNDO"), Some(run_id)), "{last}");
        assert_eq!(last["by"], writer_email, "{last}");
        assert_eq!(changes(&original, "UNDONE").len(), 4);
        // Undone once only; an undo is not undone.
        let res = t.call(Method::POST, &format!("/api/rules/runs/{run_id}/undo"), json!({}), &writer).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
        let res = t.call(Method::POST, &format!("/api/rules/runs/{undo_id}/undo"), json!({}), &writer).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST);
    }
}
