//! Bulk edits through the `bulk-edit` job against the in-process sandbox, on SQLite and
//! PostgreSQL: a raise by 10 % over keywords is applied exactly once (sandbox, our rows,
//! one change record per keyword with the job's id, per-item results on the task); a lower
//! that takes some bids below the sandbox's minimum finishes with errors listing exactly
//! those, the others applied; the same job run again (after a simulated crash) applies no
//! relative change twice; bad requests (over 10,000 items, unknown ids, readers) are refused
//! before anything is queued.

use std::{collections::HashMap, sync::Arc};

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use rust_decimal::{Decimal, prelude::ToPrimitive};
use searchdeck_api::session::Role;
use searchdeck_common::{
    jobs::{BulkEdit, BulkEditItem},
    queue::{EnqueueOptions, Envelope},
    store::{self, changes},
    tasks::NewTask,
};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use serde_json::{Value, json};

/// A USD campaign group's campaign with the most live keywords with bids, and those keywords
/// (id, bid micros), ascending by id.
struct Picked {
    account_id: String,
    org_id: i64,
    org_key: i64,
    campaign: i64,
    keywords: Vec<(i64, i64)>,
}

async fn pick(t: &Connected, account_id: &str) -> Picked {
    let pool = &t.app.state.db.pool;
    let (org_key, org_id, campaign): (i64, i64, i64) = sqlx::query_as(
        "SELECT o.org_key, o.org_id, k.campaign_id FROM asa_keywords k \
         JOIN sync_orgs o ON o.org_key = k.org_key \
         WHERE o.account_id = $1 AND o.currency = 'USD' AND k.deleted = 0 AND k.bid_micros IS NOT NULL \
         GROUP BY o.org_key, o.org_id, k.campaign_id ORDER BY COUNT(*) DESC, k.campaign_id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(pool)
    .await
    .unwrap();
    let keywords: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, bid_micros FROM asa_keywords WHERE org_key = $1 AND campaign_id = $2 \
         AND deleted = 0 AND bid_micros IS NOT NULL ORDER BY id",
    )
    .bind(org_key)
    .bind(campaign)
    .fetch_all(pool)
    .await
    .unwrap();
    assert!(
        keywords.len() >= 6,
        "a campaign with keywords: {keywords:?}"
    );
    Picked {
        account_id: account_id.to_string(),
        org_id,
        org_key,
        campaign,
        keywords,
    }
}

async fn client(t: &Connected, account_id: &str) -> Arc<dyn AppleAds> {
    let row = store::accounts::by_id(&t.app.state.db.pool, account_id)
        .await
        .unwrap()
        .unwrap();
    t.app.state.provider.client_of(&row).unwrap()
}

fn keywords_url(p: &Picked) -> String {
    format!(
        "/api/asa/keywords/update/targeting/{}?accountId={}&orgId={}",
        p.campaign, p.account_id, p.org_id
    )
}

fn amount(micros: i64) -> String {
    Decimal::new(micros, 6).normalize().to_string()
}

fn money_micros(v: &Value) -> i64 {
    let d: Decimal = v["amount"].as_str().unwrap().parse().unwrap();
    (d * Decimal::from(1_000_000)).to_i64().unwrap()
}

/// 10 % more, floored to cents.
fn raised(micros: i64) -> i64 {
    let d = Decimal::new(micros, 6) * Decimal::new(11, 1);
    let cents = (d * Decimal::from(100)).floor();
    (cents * Decimal::from(10_000)).to_i64().unwrap()
}

/// Our stored bids of `ids`.
async fn our_bids(t: &Connected, p: &Picked) -> HashMap<i64, i64> {
    let rows: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, bid_micros FROM asa_keywords WHERE org_key = $1 AND campaign_id = $2 AND bid_micros IS NOT NULL",
    )
    .bind(p.org_key)
    .bind(p.campaign)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    rows.into_iter().collect()
}

async fn their_bid(client: &dyn AppleAds, p: &Picked, id: i64) -> i64 {
    let k: Value = client.get(p.org_id, Entity::Keywords, id).await.unwrap();
    money_micros(&k["bid"])
}

async fn job_records(t: &Connected, job_id: &str) -> Vec<(i64, Option<String>, Option<String>)> {
    let mut rows = changes::of_job(&t.app.state.db.pool, job_id, "KEYWORD", "cptBid")
        .await
        .unwrap();
    rows.sort();
    rows
}

async fn job_id_of(t: &Connected) -> String {
    sqlx::query_scalar(
        "SELECT job_id FROM job_runs WHERE kind = 'bulk-edit' ORDER BY created_at LIMIT 1",
    )
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap()
}

#[tokio::test]
async fn bulk_routes_are_documented() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    for (method, path, body) in [
        ("put", "/api/asa/campaigns/updates", "BulkEditRequest"),
        ("put", "/api/asa/groups/updates/{id}", "BulkEditRequest"),
        (
            "put",
            "/api/asa/groups/updatesAllGroupsByCampaigns",
            "BulkEditRequest",
        ),
        (
            "put",
            "/api/asa/keywords/update/targeting/{id}",
            "BulkEditRequest",
        ),
        (
            "patch",
            "/api/asa/campaigns/replacePartName",
            "RenameRequest",
        ),
        ("put", "/api/asa/keywords/add/negative", "AddNegatives"),
        (
            "put",
            "/api/asa/keywords/add/negative/{campaignId}",
            "AddNegatives",
        ),
        ("delete", "/api/asa/campaigns", "DeleteRequest"),
        ("delete", "/api/asa/groups", "DeleteRequest"),
        ("delete", "/api/asa/keywords", "DeleteRequest"),
    ] {
        let op = &doc["paths"][path][method];
        for status in ["200", "400", "401", "403", "404"] {
            assert!(
                op["responses"][status].is_object(),
                "{method} {path} documents {status}"
            );
        }
        assert_eq!(op["tags"], json!(["edits"]));
        assert_eq!(
            op["requestBody"]["content"]["application/json"]["schema"]["$ref"],
            json!(format!("#/components/schemas/{body}")),
            "{method} {path}"
        );
    }
    assert!(doc["components"]["schemas"]["BulkEditStarted"].is_object());
}

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

    async fn bad_bulk_edits_are_refused_before_anything_is_queued(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let ids: Vec<i64> = p.keywords.iter().map(|k| k.0).take(3).collect();
        let ok = json!({"ids": ids, "field": "cptBid", "action": "raise", "percent": 10});

        // Over 10,000 items: a clear message on ids.
        let many: Vec<i64> = (1..=10_001).collect();
        let res = t.call(Method::PUT, &keywords_url(&p), json!({"ids": many, "field": "cptBid", "action": "raise", "percent": 10}), &owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        assert_eq!(res.json["errors"][0]["field"], "ids");
        assert_eq!(res.json["errors"][0]["message"], "A bulk edit takes at most 10,000 items. Select fewer and try again");
        // Money and operation rules.
        for (body, field, says) in [
            (json!({"ids": ids, "field": "cptBid", "action": "set", "value": "1.234"}), "value", "has at most 2 decimals in USD"),
            (json!({"ids": ids, "field": "cptBid", "action": "set", "value": "-1"}), "value", "must not be negative"),
            (json!({"ids": ids, "field": "cptBid", "action": "raise"}), "value", "Give either an amount (value) or a percentage (percent)"),
            (json!({"ids": ids, "field": "cptBid", "action": "lower", "percent": 150}), "percent", "Percentage must be at most 100"),
            (json!({"ids": ids, "field": "cptBid", "action": "raise", "percent": 10, "floor": "2", "cap": "1"}), "floor", "The floor must not be above the cap"),
            (json!({"ids": ids, "field": "dailyBudget", "action": "set", "value": "1"}), "field", "Field must be one of cptBid, status"),
            (json!({"ids": ids, "field": "cptBid", "action": "double"}), "action", "Must be one of: set, raise, lower, pause, enable"),
            // Values are taken exactly as documented: no other case, no spaces, numbers as numbers.
            (json!({"ids": ids, "field": "cptBid", "action": "RAISE", "percent": 10}), "action", "Must be one of: set, raise, lower, pause, enable"),
            (json!({"ids": ids, "field": "cptBid", "action": "raise", "percent": "10"}), "percent", "Percentage must be a number"),
            (json!({"ids": ids, "field": "status", "action": "set", "value": "enabled"}), "value", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (json!({"ids": [], "action": "pause"}), "ids", "Please complete this field to continue"),
        ] {
            let res = t.call(Method::PUT, &keywords_url(&p), body.clone(), &owner).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}: {:?}", res.json);
            assert_eq!(res.json["errors"][0]["field"], field, "{body}: {:?}", res.json);
            assert!(res.json["errors"][0]["message"].as_str().unwrap().contains(says), "{body}: {:?}", res.json);
        }
        // Unknown keyword ids, another workspace's campaign: 404.
        let res = t.call(Method::PUT, &keywords_url(&p), json!({"ids": [ids[0], 1], "action": "pause"}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        let stranger = t.owner().await;
        let res = t.call(Method::PUT, &keywords_url(&p), ok.clone(), &stranger).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        let res = t.call(Method::PUT, "/api/asa/campaigns/updates", json!({"ids": [p.campaign], "action": "pause"}), &stranger).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        // Readers cannot bulk-edit.
        for url in [keywords_url(&p), format!("/api/asa/groups/updates/{}", p.campaign), "/api/asa/campaigns/updates".to_string()] {
            let res = t.call(Method::PUT, &url, ok.clone(), &reader).await;
            assert_eq!(res.status, StatusCode::FORBIDDEN, "{url}: {:?}", res.json);
        }
        // Nothing was queued.
        let tasks: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tasks WHERE kind = 'bulk-edit'")
            .fetch_one(&t.app.state.db.pool).await.unwrap();
        assert_eq!(tasks, 0);
    }

    async fn campaigns_and_ad_groups_are_edited_one_by_one(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let pool = &t.app.state.db.pool;
        let groups: Vec<(i64, i64)> = sqlx::query_as(
            "SELECT id, default_bid_micros FROM asa_ad_groups WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0 AND default_bid_micros IS NOT NULL ORDER BY id")
            .bind(p.org_key).bind(p.campaign).fetch_all(pool).await.unwrap();
        assert!(!groups.is_empty());
        let ids: Vec<i64> = groups.iter().map(|g| g.0).collect();
        let res = t.call(Method::PUT, &format!("/api/asa/groups/updates/{}?accountId={}&orgId={}", p.campaign, p.account_id, p.org_id),
            json!({"adGroupIds": ids, "field": "defaultBidAmount", "action": "raise", "value": "0.25", "cap": "100"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["item"]["taskId"].as_str().unwrap()).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(groups.len() as u64), "{task}");
        for (id, old) in &groups {
            let g: Value = client.get(p.org_id, Entity::AdGroups, *id).await.unwrap();
            assert_eq!(money_micros(&g["bidStrategy"]["bid"]), (old + 250_000).min(100_000_000), "ad group {id}");
        }
        let res = t.call(Method::PUT, &format!("/api/asa/campaigns/updates?accountId={}&orgId={}", p.account_id, p.org_id),
            json!({"campaignIds": [p.campaign], "action": "pause"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let task = t.task_finished(&owner, res.json["result"]["item"]["taskId"].as_str().unwrap()).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        let c: Value = client.get(p.org_id, Entity::Campaigns, p.campaign).await.unwrap();
        assert_eq!(c["status"], "PAUSED");
        let status: String = sqlx::query_scalar("SELECT status FROM asa_campaigns WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();
        assert_eq!(status, "PAUSED");
    }
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

    async fn ad_groups_of_campaigns_renames_negatives_and_deletions(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Bulk").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let pool = &t.app.state.db.pool;
        let q = format!("accountId={}&orgId={}", p.account_id, p.org_id);
        let other: i64 = sqlx::query_scalar(
            "SELECT id FROM asa_campaigns WHERE org_key = $1 AND deleted = 0 AND id <> $2 ORDER BY id LIMIT 1")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();

        // Every ad group of two campaigns, raised by 10 % once.
        let groups: Vec<(i64, i64, i64)> = sqlx::query_as(
            "SELECT id, campaign_id, default_bid_micros FROM asa_ad_groups WHERE org_key = $1 AND campaign_id IN ($2, $3) \
             AND deleted = 0 AND default_bid_micros IS NOT NULL ORDER BY id")
            .bind(p.org_key).bind(p.campaign).bind(other).fetch_all(pool).await.unwrap();
        assert!(groups.iter().any(|g| g.1 == other) && groups.iter().any(|g| g.1 == p.campaign));
        let task = completed(&t, &owner, t.call(Method::PUT, &format!("/api/asa/groups/updatesAllGroupsByCampaigns?{q}"),
            json!({"campaignIds": [p.campaign, other], "field": "defaultBidAmount", "action": "raise", "percent": 10}), &owner).await).await;
        assert_eq!((task["details"]["applied"].as_u64(), task["details"]["total"].as_u64()), (Some(groups.len() as u64), Some(groups.len() as u64)), "{task}");
        for (id, _, old) in &groups {
            let g: Value = client.get(p.org_id, Entity::AdGroups, *id).await.unwrap();
            assert_eq!(money_micros(&g["bidStrategy"]["bid"]), raised(*old), "ad group {id}");
        }

        // Renames: part of a campaign's name, then of an ad group's.
        let name: String = sqlx::query_scalar("SELECT name FROM asa_campaigns WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();
        let find = name.split_whitespace().next().unwrap().to_string();
        let want = name.replace(&find, "Renamed").trim().to_string();
        let rename = format!("/api/asa/campaigns/replacePartName?{q}");
        let task = completed(&t, &owner, t.call(Method::PATCH, &rename, json!({"ids": [p.campaign], "find": find, "replace": "Renamed"}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        let c: Value = client.get(p.org_id, Entity::Campaigns, p.campaign).await.unwrap();
        assert_eq!(c["name"], want.as_str());
        let ours: String = sqlx::query_scalar("SELECT name FROM asa_campaigns WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(p.campaign).fetch_one(pool).await.unwrap();
        assert_eq!(ours, want);
        let (group, _, _) = groups[0];
        let group_name: String = sqlx::query_scalar("SELECT name FROM asa_ad_groups WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(group).fetch_one(pool).await.unwrap();
        let group_campaign = groups[0].1;
        let task = completed(&t, &owner, t.call(Method::PATCH, &rename, json!({"level": "AD_GROUP", "campaignId": group_campaign, "ids": [group],
            "find": group_name.clone(), "replace": format!("{group_name} (new)")}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        let g: Value = client.get(p.org_id, Entity::AdGroups, group).await.unwrap();
        assert_eq!(g["name"], format!("{group_name} (new)"));
        // Bad renames are refused before anything is queued.
        for (body, field, says) in [
            (json!({"ids": [p.campaign], "find": find, "replace": "x"}), "find", "None of the selected names contains this text"),
            (json!({"ids": [p.campaign], "find": "Renamed", "replace": "x".repeat(300)}), "replace", "would be longer than 200 characters"),
            (json!({"ids": [p.campaign], "find": want, "replace": " "}), "replace", "would be empty"),
            (json!({"ids": [p.campaign], "replace": "x"}), "find", "Please complete this field to continue"),
            (json!({"level": "AD_GROUP", "ids": [group], "find": "a", "replace": "b"}), "campaignId", "Please complete this field to continue"),
            (json!({"level": "KEYWORD", "ids": [group], "find": "a", "replace": "b"}), "level", "Level must be CAMPAIGN or AD_GROUP"),
        ] {
            let res = t.call(Method::PATCH, &rename, body.clone(), &owner).await;
            assert_eq!(res.status, StatusCode::BAD_REQUEST, "{body}: {:?}", res.json);
            assert_eq!(res.json["errors"][0]["field"], field, "{body}: {:?}", res.json);
            assert!(res.json["errors"][0]["message"].as_str().unwrap().contains(says), "{body}: {:?}", res.json);
        }

        // Negatives: campaign level (cleaned texts, once), then ad group level.
        let add = format!("/api/asa/keywords/add/negative?{q}");
        let body = json!({"campaignIds": [p.campaign], "texts": "Free Stuff!\nfree stuff\n\ncheap app", "matchType": "exact"});
        let task = completed(&t, &owner, t.call(Method::PUT, &add, body.clone(), &owner).await).await;
        assert_eq!((task["details"]["applied"].as_u64(), task["details"]["total"].as_u64()), (Some(2), Some(2)), "{task}");
        let added: Vec<(i64, String, Option<i64>)> = sqlx::query_as(
            "SELECT id, text, ad_group_id FROM asa_negative_keywords WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0 \
             AND text IN ('free stuff', 'cheap app') ORDER BY text")
            .bind(p.org_key).bind(p.campaign).fetch_all(pool).await.unwrap();
        assert_eq!(added.iter().map(|a| (a.1.as_str(), a.2)).collect::<Vec<_>>(), vec![("cheap app", None), ("free stuff", None)]);
        for (id, text, _) in &added {
            let n: Value = client.get(p.org_id, Entity::NegativeKeywords, *id).await.unwrap();
            assert_eq!((n["text"].as_str(), n["campaignId"].as_i64(), n["matchType"].as_str()), (Some(text.as_str()), Some(p.campaign), Some("EXACT")));
        }
        let task = completed(&t, &owner, t.call(Method::PUT, &add, body, &owner).await).await;
        assert_eq!((task["details"]["applied"].as_u64(), task["details"]["skipped"].as_u64()), (Some(0), Some(2)), "already there: {task}");
        let task = completed(&t, &owner, t.call(Method::PUT, &format!("/api/asa/keywords/add/negative/{group_campaign}?{q}"),
            json!({"adGroupIds": [group], "texts": ["cheap app"], "matchType": "BROAD"}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        let at_group: i64 = sqlx::query_scalar("SELECT id FROM asa_negative_keywords WHERE org_key = $1 AND ad_group_id = $2 AND text = 'cheap app' AND deleted = 0")
            .bind(p.org_key).bind(group).fetch_one(pool).await.unwrap();
        for (body, field) in [
            (json!({"campaignIds": [p.campaign], "texts": ["!!"]}), "texts"),
            (json!({"campaignIds": [p.campaign], "texts": ["a"], "matchType": "PHRASE"}), "matchType"),
            (json!({"campaignIds": [p.campaign], "texts": ["x".repeat(81)]}), "texts"),
            (json!({"texts": ["a"]}), "campaignIds"),
        ] {
            let res = t.call(Method::PUT, &add, body.clone(), &owner).await;
            assert_eq!((res.status, res.json["errors"][0]["field"].as_str()), (StatusCode::BAD_REQUEST, Some(field)), "{body}: {:?}", res.json);
        }

        // Deletions: keywords, negatives, an ad group, a campaign; each once.
        let del = |path: &str| format!("/api/asa/{path}?{q}");
        let kws: Vec<i64> = p.keywords.iter().take(2).map(|k| k.0).collect();
        let task = completed(&t, &owner, t.call(Method::DELETE, &del("keywords"), json!({"campaignId": p.campaign, "keywordIds": kws}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(2), "{task}");
        let res = t.call(Method::DELETE, &del("keywords"), json!({"campaignId": p.campaign, "keywordIds": kws}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "already deleted here: {:?}", res.json);
        let negatives: Vec<i64> = added.iter().map(|a| a.0).collect();
        let task = completed(&t, &owner, t.call(Method::DELETE, &del("keywords"), json!({"campaignId": p.campaign, "negativeKeywordIds": negatives}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(2), "{task}");
        let res = t.call(Method::DELETE, &del("keywords"), json!({"campaignId": p.campaign, "ids": kws, "negativeKeywordIds": [at_group]}), &owner).await;
        assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
        let other_groups: Vec<i64> = groups.iter().filter(|g| g.1 == other).map(|g| g.0).collect();
        let task = completed(&t, &owner, t.call(Method::DELETE, &del("groups"), json!({"campaignId": other, "adGroupIds": other_groups}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(other_groups.len() as u64), "{task}");
        let task = completed(&t, &owner, t.call(Method::DELETE, &del("campaigns"), json!({"campaignIds": [other]}), &owner).await).await;
        assert_eq!(task["details"]["applied"].as_u64(), Some(1), "{task}");
        // Gone at the sandbox and marked deleted here.
        for (entity, id) in kws.iter().map(|k| (Entity::Keywords, *k)).chain(negatives.iter().map(|n| (Entity::NegativeKeywords, *n)))
            .chain(other_groups.iter().map(|g| (Entity::AdGroups, *g))).chain([(Entity::Campaigns, other)]) {
            let gone = match client.get::<Value>(p.org_id, entity, id).await {
                Ok(v) => v["deleted"] == true,
                Err(e) => matches!(e, searchdeck_provider::ProviderError::Permanent { status: 404, .. }) || e.has_detail("ENTITY_DELETED"),
            };
            assert!(gone, "{entity:?} {id} deleted at the sandbox");
        }
        let deleted: i64 = sqlx::query_scalar(
            "SELECT (SELECT COUNT(*) FROM asa_keywords WHERE org_key = $1 AND deleted = 1) \
             + (SELECT COUNT(*) FROM asa_negative_keywords WHERE org_key = $1 AND deleted = 1) \
             + (SELECT COUNT(*) FROM asa_ad_groups WHERE org_key = $1 AND deleted = 1) \
             + (SELECT COUNT(*) FROM asa_campaigns WHERE org_key = $1 AND deleted = 1)")
            .bind(p.org_key).fetch_one(pool).await.unwrap();
        assert!(deleted >= (2 + 2 + other_groups.len() + 1) as i64);
        // Change records: one per applied item and field.
        let me = t.get("/api/auth/me", &owner).await.json["result"]["item"].clone();
        let all = changes::list(pool, &changes::Filter { workspace_id: me["workspaceId"].as_str().unwrap(), ..Default::default() }, 10_000).await.unwrap();
        let count = |f: &str| all.iter().filter(|r| r.field == f).count();
        assert_eq!(count("defaultBidAmount"), groups.len());
        assert_eq!(count("name"), 2);
        assert_eq!(count("created"), 3);
        assert_eq!(count("deleted"), 2 + 2 + other_groups.len() + 1);
        let rename_record = all.iter().find(|r| r.field == "name" && r.level == "CAMPAIGN").unwrap();
        assert_eq!((rename_record.old_value.as_deref(), rename_record.new_value.as_deref()), (Some(name.as_str()), Some(want.as_str())));
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

/// Waits for the bulk edit a route answered and returns its task.
async fn completed(t: &Connected, owner: &str, res: crate::common::TestResponse) -> Value {
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    t.task_finished(
        owner,
        res.json["result"]["item"]["taskId"].as_str().unwrap(),
    )
    .await
}

/// Per keyword of the picked campaign: how many UPDATE events the sandbox's change history
/// holds (an update that changes nothing is not recorded; no test changed these before).
async fn bid_updates(client: &dyn AppleAds, p: &Picked) -> HashMap<i64, usize> {
    let mut out: HashMap<i64, usize> = HashMap::new();
    let mut offset = 0;
    loop {
        let page = client.change_history(p.org_id, &json!({
            "filters": [
                {"field": "eventTime", "operator": "GREATER_THAN", "value": "2000-01-01"},
                {"field": "entityType", "operator": "EQUALS", "value": ["Keyword"]},
                {"field": "campaignId", "operator": "EQUALS", "value": [p.campaign.to_string()]},
            ],
            "pagination": {"offset": offset, "pageSize": 1000},
            "options": {"metadata": "snapshot"},
        })).await.unwrap();
        let n = page.items.len();
        for row in &page.items {
            if row["eventType"] != "UPDATE" {
                continue;
            }
            for m in row["metas"].as_array().into_iter().flatten() {
                *out.entry(m["Keyword"].as_str().unwrap().parse().unwrap())
                    .or_default() += 1;
            }
        }
        offset += n;
        if n < 1000 {
            return out;
        }
    }
}
