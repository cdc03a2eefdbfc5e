//! Keyword bids and statuses in bulk: a raise applied once per keyword and recorded, the
//! same job run again after a crash, a partial refusal listing exactly the refused items,
//! and a pause that the second run skips.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::{
    jobs::{BulkEdit, BulkEditItem},
    queue::{EnqueueOptions, Envelope},
    store::{self, changes},
    tasks::NewTask,
};
use serde_json::json;

use super::{
    amount, client, job_id_of, job_records, keywords_url, our_bids, pick, raised, their_bid,
};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

sandbox_tests! {
    async fn a_raise_by_ten_percent_is_applied_once_per_keyword_and_recorded(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let writer = t.app.member(&owner, Role::Writer).await;
        let chosen: Vec<(i64, i64)> = p.keywords.iter().take(20).copied().collect();
        let ids: Vec<i64> = chosen.iter().map(|k| k.0).collect();

        let res = t.call(Method::PUT, &keywords_url(&p),
            json!({"keywordIds": ids, "field": "cptBid", "action": "raise", "percent": 10}), &writer).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let started = res.json["result"]["item"].clone();
        assert_eq!(started["total"], chosen.len());
        assert_eq!(started["operation"], format!("Raise the bid of {} keywords by 10%", chosen.len()));
        let task = t.task_finished(&writer, started["taskId"].as_str().unwrap()).await;
        assert!(task["error"].is_null(), "{task}");
        let d = &task["details"];
        assert_eq!((d["applied"].as_u64(), d["refused"].as_u64(), d["skipped"].as_u64()),
            (Some(chosen.len() as u64), Some(0), Some(0)), "{task}");
        assert_eq!(d["items"].as_array().unwrap().len(), chosen.len());

        // Exactly once: sandbox and our rows at old × 1.1 (floored to cents), not more.
        let ours = our_bids(&t, &p).await;
        for (id, old) in &chosen {
            let want = raised(*old);
            assert_eq!(ours[id], want, "ours {id}");
            assert_eq!(their_bid(client.as_ref(), &p, *id).await, want, "sandbox {id}");
            let item = d["items"].as_array().unwrap().iter().find(|i| i["id"].as_str().and_then(|s| s.parse::<i64>().ok()) == Some(*id)).unwrap();
            assert_eq!((item["result"].as_str(), item["oldValue"].as_str(), item["newValue"].as_str()),
                (Some("applied"), Some(amount(*old).as_str()), Some(amount(want).as_str())), "{item}");
        }
        // One change record per keyword, with the job's id, who and old/new values.
        let job_id = job_id_of(&t).await;
        let records = job_records(&t, &job_id).await;
        let mut want: Vec<(i64, Option<String>, Option<String>)> = chosen.iter()
            .map(|(id, old)| (*id, Some(amount(*old)), Some(amount(raised(*old))))).collect();
        want.sort();
        assert_eq!(records, want);
        let me = t.get("/api/auth/me", &owner).await.json["result"]["item"].clone();
        let all = changes::list(&t.app.state.db.pool, &changes::Filter {
            workspace_id: me["workspaceId"].as_str().unwrap(), ..Default::default() }, 1000).await.unwrap();
        assert_eq!(all.len(), chosen.len());
        assert!(all.iter().all(|r| r.user_email.is_some() && r.source == changes::MANUAL && r.currency.as_deref() == Some("USD")));

        // The same job again after a simulated crash: keyword 0 was applied at Apple but our
        // write and record were lost; keyword 1's new value came back with a sync but its
        // record was lost; the rest were recorded. Nothing may be raised a second time.
        let (k0, old0) = chosen[0];
        let (k1, _) = chosen[1];
        sqlx::query("DELETE FROM change_records WHERE job_id = $1 AND entity_id IN ($2, $3)")
            .bind(&job_id).bind(k0).bind(k1).execute(&t.app.state.db.pool).await.unwrap();
        sqlx::query("UPDATE asa_keywords SET bid_micros = $1 WHERE org_key = $2 AND id = $3")
            .bind(old0).bind(p.org_key).bind(k0).execute(&t.app.state.db.pool).await.unwrap();
        let payload = BulkEdit {
            workspace_id: me["workspaceId"].as_str().unwrap().to_string(),
            user_id: me["id"].as_str().map(str::to_string),
            user_email: me["email"].as_str().map(str::to_string),
            account_id: p.account_id.clone(),
            org_key: p.org_key,
            org_id: p.org_id,
            currency: Some("USD".into()),
            level: "KEYWORD".into(),
            field: "cptBid".into(),
            operation: "Raise cptBid by 10 %".into(),
            items: chosen.iter().map(|(id, old)| BulkEditItem::to(*id, Some(amount(raised(*old))))).collect(),
        };
        let task_id = store::tasks::create(&t.app.state.db.pool, NewTask {
            workspace_id: me["workspaceId"].as_str().unwrap(), user_id: me["id"].as_str(),
            kind: "bulk-edit", message: "Retry", total_steps: 1, account_id: None, org_id: None, }).await.unwrap();
        let envelope = Envelope::with_id(job_id.clone(), &payload, Some(task_id.clone())).unwrap();
        t.app.state.queue.enqueue_envelope(&envelope, &EnqueueOptions { task_id: Some(task_id.clone()), ..Default::default() }).await.unwrap();
        let again = t.task_finished(&owner, &task_id).await;
        let d = &again["details"];
        assert!(again["error"].is_null(), "{again}");
        assert_eq!((d["applied"].as_u64(), d["skipped"].as_u64(), d["refused"].as_u64()),
            (Some(chosen.len() as u64 - 1), Some(1), Some(0)), "{again}");
        let ours = our_bids(&t, &p).await;
        for (id, old) in &chosen {
            assert_eq!(ours[id], raised(*old), "ours {id} after the retry");
            assert_eq!(their_bid(client.as_ref(), &p, *id).await, raised(*old), "sandbox {id} after the retry");
        }
        // Keyword 0 recorded again (once), keyword 1 not (no change seen), the rest kept.
        let records = job_records(&t, &job_id).await;
        assert_eq!(records.len(), chosen.len() - 1);
        assert!(records.iter().any(|r| r.0 == k0) && !records.iter().any(|r| r.0 == k1));
    }

    async fn a_partial_refusal_finishes_with_errors_listing_the_refused_items(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        // Lower every bid by (a middle bid − 0.05): bids at or under it fall below the
        // sandbox's 0.10 minimum and are refused; bids 0.06 above it stay valid.
        let mut bids: Vec<i64> = p.keywords.iter().map(|k| k.1).collect();
        bids.sort();
        let middle = bids[bids.len() / 2];
        assert!(middle > 60_000, "bids {bids:?}");
        let by = middle - 50_000;
        let low: Vec<(i64, i64)> = p.keywords.iter().filter(|k| k.1 <= middle).take(5).copied().collect();
        let high: Vec<(i64, i64)> = p.keywords.iter().filter(|k| k.1 >= middle + 60_000).take(5).copied().collect();
        assert!(!low.is_empty() && !high.is_empty(), "{:?}", p.keywords);
        let ids: Vec<i64> = low.iter().chain(high.iter()).map(|k| k.0).collect();
        let res = t.call(Method::PUT, &keywords_url(&p),
            json!({"ids": ids, "field": "cptBid", "action": "lower", "value": amount(by)}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["item"]["taskId"].as_str().unwrap()).await;
        // Finished, not failed: errors listed in the details.
        assert!(task["error"].is_null(), "{task}");
        assert!(task["message"].as_str().unwrap().starts_with("Finished with errors"), "{task}");
        let d = &task["details"];
        assert_eq!((d["applied"].as_u64(), d["refused"].as_u64()), (Some(high.len() as u64), Some(low.len() as u64)), "{task}");
        let mut refused: Vec<i64> = d["errors"].as_array().unwrap().iter().map(|e| e["id"].as_str().unwrap().parse::<i64>().unwrap()).collect();
        refused.sort();
        let mut want: Vec<i64> = low.iter().map(|k| k.0).collect();
        want.sort();
        assert_eq!(refused, want);
        for e in d["errors"].as_array().unwrap() {
            // The sandbox's own message: below its minimum, or not positive once lowered to 0.
            let says = e["message"].as_str().unwrap();
            assert!(says.contains("bid") && (says.contains("at least") || says.contains("positive")), "{e}");
            assert_eq!(e["result"], "refused");
        }
        let ours = our_bids(&t, &p).await;
        for (id, old) in &low {
            assert_eq!(ours[id], *old, "refused {id} unchanged here");
            assert_eq!(their_bid(client.as_ref(), &p, *id).await, *old, "refused {id} unchanged at the sandbox");
        }
        for (id, old) in &high {
            assert_eq!(ours[id], old - by, "applied {id}");
            assert_eq!(their_bid(client.as_ref(), &p, *id).await, old - by, "applied {id} at the sandbox");
        }
        let job_id = job_id_of(&t).await;
        assert_eq!(job_records(&t, &job_id).await.len(), high.len());

        // Pausing twice: the second run skips every keyword as unchanged.
        for round in 0..2 {
            let res = t.call(Method::PUT, &keywords_url(&p), json!({"ids": &ids[..2], "action": "pause"}), &owner).await;
            assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
            let task = t.task_finished(&owner, res.json["result"]["item"]["taskId"].as_str().unwrap()).await;
            let (applied, skipped) = (task["details"]["applied"].as_u64().unwrap(), task["details"]["skipped"].as_u64().unwrap());
            assert_eq!(applied + skipped, 2, "{task}");
            if round == 1 {
                assert_eq!(skipped, 2, "already paused: {task}");
            }
        }
    }
}
