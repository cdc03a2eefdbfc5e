//! Bulk edits while Apple fails: 5xx answers (some after the write was applied) and 429
//! bursts still apply every item exactly once; the throughput of a keyword edit over a whole
//! campaign group; and 2,000 keywords of the mid-size sandbox world, each raised once by the
//! sandbox's own change history.

use std::collections::HashMap;

use axum::http::{Method, StatusCode};
use searchdeck_common::{
    jobs::{BulkEdit, BulkEditItem},
    store::changes,
    tasks::NewTask,
};
use searchdeck_provider::{AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{
    amount, bid_updates, client, job_id_of, job_records, keywords_url, money_micros, our_bids,
    pick, raised, their_bid,
};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

sandbox_tests! {
    async fn faults_and_a_429_burst_still_apply_every_item_exactly_once(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let pool = &t.app.state.db.pool;
        let groups: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT id, default_bid_micros FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0 AND default_bid_micros IS NOT NULL ORDER BY id")
            .bind(p.org_key).bind(p.campaign).fetch_all(pool).await.unwrap();
        // 30 % of Apple calls fail with 5xx (half of them after the write was applied: the
        // answer is lost), and the next 3 calls are answered 429.
        let faults = t.http.put(format!("{}/sandbox/faults", t.sandbox))
            .json(&json!({"errorRate": 0.3, "burst429": 3})).send().await.unwrap();
        assert!(faults.status().is_success());
        let started = std::time::Instant::now();
        let ids: Vec<i64> = p.keywords.iter().map(|k| k.0).collect();
        let res = t.call(Method::PUT, &keywords_url(&p),
            json!({"keywordIds": ids, "field": "cptBid", "action": "raise", "percent": 10}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let kw_task = res.json["result"]["item"]["taskId"].as_str().unwrap().to_string();
        let gids: Vec<i64> = groups.iter().map(|g| g.0).collect();
        let res = t.call(Method::PUT, &format!("/api/asa/groups/updates/{}?accountId={}&orgId={}", p.campaign, p.account_id, p.org_id),
            json!({"adGroupIds": gids, "field": "defaultBidAmount", "action": "raise", "percent": 10}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let group_task = res.json["result"]["item"]["taskId"].as_str().unwrap().to_string();
        let kw = t.task_finished(&owner, &kw_task).await;
        let gr = t.task_finished(&owner, &group_task).await;
        let elapsed = started.elapsed();
        eprintln!("bulk edit under faults: {} keywords + {} ad groups in {elapsed:?}", ids.len(), gids.len());
        let faults = t.http.put(format!("{}/sandbox/faults", t.sandbox)).json(&json!({})).send().await.unwrap();
        assert!(faults.status().is_success());
        for (task, n) in [(&kw, ids.len()), (&gr, gids.len())] {
            assert!(task["error"].is_null(), "{task}");
            assert_eq!((task["details"]["applied"].as_u64(), task["details"]["refused"].as_u64()), (Some(n as u64), Some(0)), "{task}");
            assert_eq!(task["details"]["items"].as_array().unwrap().len(), n);
        }
        // Each raised once: at Apple and here.
        let ours = our_bids(&t, &p).await;
        for (id, old) in &p.keywords {
            assert_eq!(their_bid(client.as_ref(), &p, *id).await, raised(*old), "keyword {id} at the sandbox");
            assert_eq!(ours[id], raised(*old), "keyword {id} here");
        }
        for (id, old) in &groups {
            let g: Value = client.get(p.org_id, Entity::AdGroups, *id).await.unwrap();
            assert_eq!(money_micros(&g["bidStrategy"]["bid"]), raised(*old), "ad group {id}");
        }
        // One change record per item.
        let me = t.get("/api/auth/me", &owner).await.json["result"]["item"].clone();
        let all = changes::list(pool, &changes::Filter {
            workspace_id: me["workspaceId"].as_str().unwrap(), ..Default::default() }, 10_000).await.unwrap();
        assert_eq!(all.len(), ids.len() + gids.len());
    }

    async fn throughput_of_a_keyword_bulk_edit_over_a_whole_campaign_group(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let pool = &t.app.state.db.pool;
        let all: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT id, bid_micros FROM asa_keywords WHERE org_key = $1 AND deleted = 0 AND bid_micros IS NOT NULL ORDER BY id")
            .bind(p.org_key).fetch_all(pool).await.unwrap();
        let me = t.get("/api/auth/me", &owner).await.json["result"]["item"].clone();
        let workspace_id = me["workspaceId"].as_str().unwrap().to_string();
        // The job as a route would enqueue it, over every keyword of the campaign group.
        let job = BulkEdit {
            workspace_id: workspace_id.clone(),
            user_id: me["id"].as_str().map(str::to_string),
            user_email: me["email"].as_str().map(str::to_string),
            account_id: p.account_id.clone(),
            org_key: p.org_key,
            org_id: p.org_id,
            currency: Some("USD".into()),
            level: "KEYWORD".into(),
            field: "cptBid".into(),
            operation: "Raise cptBid by 10 %".into(),
            items: all.iter().map(|(id, old)| BulkEditItem::to(*id, Some(amount(raised(*old))))).collect(),
        };
        let started = std::time::Instant::now();
        let task_id = t.app.state.start_task(NewTask { workspace_id: &workspace_id, user_id: me["id"].as_str(),
            kind: "bulk-edit", message: "Raise", total_steps: all.len() as i64, account_id: None, org_id: None, }, &job).await.unwrap();
        let task = t.task_finished(&owner, &task_id).await;
        let elapsed = started.elapsed();
        eprintln!("bulk edit throughput: {} keywords in {elapsed:?} = {:.0} items/s",
            all.len(), all.len() as f64 / elapsed.as_secs_f64());
        assert_eq!(task["details"]["applied"].as_u64(), Some(all.len() as u64), "{task}");
        for (id, old) in all.iter().step_by(17) {
            assert_eq!(their_bid(client.as_ref(), &p, *id).await, raised(*old), "keyword {id}");
        }
    }
}

/// A bulk edit of 2,000 keywords (of the mid-size sandbox world) with 10 % of Apple calls
/// failing with 5xx and a 429 burst: every keyword applied exactly once, by the sandbox's
/// change history, with correct per-item results.
mod two_thousand_keywords_under_faults_are_each_raised_exactly_once {
    use super::*;

    async fn start_mid_sandbox() -> String {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let sandbox = searchdeck_sandbox::Sandbox::new(searchdeck_sandbox::SandboxConfig::sized(
            searchdeck_sandbox::WorldSize::Mid,
        ));
        let app = searchdeck_sandbox::app(sandbox);
        tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
        format!("http://{addr}")
    }

    #[tokio::test]
    async fn sqlite() {
        let base = start_mid_sandbox().await;
        let app = TestApp::sqlite_with(&args(&base)).await;
        run(Connected::new(app, base)).await
    }

    #[tokio::test]
    async fn postgres() {
        let base = start_mid_sandbox().await;
        if let Some(app) = TestApp::postgres_with(&args(&base)).await {
            run(Connected::new(app, base)).await
        }
    }

    async fn run(t: Connected) {
        const N: usize = 2000;
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let client = client(&t, &account_id).await;
        // The mid-size world's young account has one ad group of 2,200 keywords.
        let p = pick(&t, &account_id).await;
        assert!(p.keywords.len() >= N, "{} keywords", p.keywords.len());
        let chosen: Vec<(i64, i64)> = p.keywords.iter().take(N).copied().collect();
        let ids: Vec<i64> = chosen.iter().map(|k| k.0).collect();

        // 10 % of Apple calls fail with 5xx (half of them after the write), and a burst of
        // 429s.
        let faults = t
            .http
            .put(format!("{}/sandbox/faults", t.sandbox))
            .json(&json!({"errorRate": 0.1, "burst429": 5}))
            .send()
            .await
            .unwrap();
        assert!(faults.status().is_success());
        let started = std::time::Instant::now();
        let res = t
            .call(
                Method::PUT,
                &keywords_url(&p),
                json!({"keywordIds": ids, "field": "cptBid", "action": "raise", "percent": 10}),
                &owner,
            )
            .await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t
            .task_finished(
                &owner,
                res.json["result"]["item"]["taskId"].as_str().unwrap(),
            )
            .await;
        let elapsed = started.elapsed();
        let faults = t
            .http
            .put(format!("{}/sandbox/faults", t.sandbox))
            .json(&json!({}))
            .send()
            .await
            .unwrap();
        assert!(faults.status().is_success());
        eprintln!(
            "bulk edit of {N} keywords under 10 % 5xx and a 429 burst: {elapsed:?} = {:.0} items/s",
            N as f64 / elapsed.as_secs_f64()
        );

        // Per-item results: every keyword applied, old → old × 1.1.
        assert!(task["error"].is_null(), "{task}");
        let d = &task["details"];
        assert_eq!(
            (
                d["applied"].as_u64(),
                d["refused"].as_u64(),
                d["skipped"].as_u64()
            ),
            (Some(N as u64), Some(0), Some(0)),
            "{}",
            task["message"]
        );
        let items = d["items"].as_array().unwrap();
        assert_eq!(items.len(), N);
        let olds: HashMap<i64, i64> = chosen.iter().copied().collect();
        for item in items {
            let id = item["id"].as_str().unwrap().parse::<i64>().unwrap();
            assert_eq!(
                (
                    item["result"].as_str(),
                    item["oldValue"].as_str(),
                    item["newValue"].as_str()
                ),
                (
                    Some("applied"),
                    Some(amount(olds[&id]).as_str()),
                    Some(amount(raised(olds[&id])).as_str())
                ),
                "{item}"
            );
        }
        // The sandbox holds each raised once, and its change history shows one bid update
        // per keyword.
        let mut theirs: HashMap<i64, i64> = HashMap::new();
        let mut offset = 0;
        loop {
            let page = client
                .query::<Value>(
                    p.org_id,
                    Entity::Keywords,
                    &json!({
            "filters": [{"field": "campaignId", "operator": "EQUALS", "value": [p.campaign]}],
            "pagination": {"offset": offset, "pageSize": 1000}}),
                )
                .await
                .unwrap();
            let n = page.items.len();
            for k in page.items {
                theirs.insert(k["id"].as_i64().unwrap(), money_micros(&k["bid"]));
            }
            offset += n;
            if n < 1000 {
                break;
            }
        }
        let ours = our_bids(&t, &p).await;
        for (id, old) in &chosen {
            assert_eq!(theirs[id], raised(*old), "keyword {id} at the sandbox");
            assert_eq!(ours[id], raised(*old), "keyword {id} here");
        }
        let updates = bid_updates(client.as_ref(), &p).await;
        for id in &ids {
            assert_eq!(
                updates.get(id).copied().unwrap_or(0),
                1,
                "keyword {id}: bid updates in the sandbox's history"
            );
        }
        // One change record per keyword.
        let job_id = job_id_of(&t).await;
        assert_eq!(job_records(&t, &job_id).await.len(), N);
    }
}
