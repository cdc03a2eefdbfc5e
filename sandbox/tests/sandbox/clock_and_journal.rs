//! The simulated clock (timestamps, forward-only moves) and the journal (a restart keeps
//! every write, the change history and the clock), through the HTTP routes.

use crate::support::Client;
use axum::http::{Method, StatusCode};
use searchdeck_sandbox::SandboxConfig;
use serde_json::{Value, json};
use time::macros::datetime;

fn config(dir: Option<std::path::PathBuf>) -> SandboxConfig {
    SandboxConfig {
        now: Some(datetime!(2026-03-15 10:00 UTC)),
        frozen_clock: true,
        data_dir: dir,
        ..SandboxConfig::default()
    }
}

fn temp_dir(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "searchdeck-sandbox-{name}-{}-{}",
        std::process::id(),
        rand_suffix()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn rand_suffix() -> u128 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos()
}

/// The first live ad group of the first ad account.
fn group(c: &Client) -> i64 {
    let w = c.sandbox.world.read();
    let account = c.account();
    *w.index
        .children("AdGroup", account)
        .iter()
        .find(|g| !w.ad_groups[g].life.deleted())
        .unwrap()
}

#[tokio::test]
async fn the_clock_stamps_every_write_and_only_moves_forward() {
    let c = Client::new(config(None));
    let (status, now) = c.call(Method::GET, "/sandbox/clock", None, None).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(now["now"], "2026-03-15T10:00:00Z");
    assert_eq!(
        (now["today"].as_str(), now["running"].as_bool()),
        (Some("2026-03-15"), Some(false))
    );

    let group = group(&c);
    let created = c
        .post("/keywords", json!({ "adGroupId": group, "text": "clockwork puzzle", "matchType": "EXACT", "bid": { "amount": "1.50", "currency": "USD" } }))
        .await;
    let id = created["result"]["id"].as_i64().unwrap();
    assert_eq!(created["result"]["creationTime"], "2026-03-15T10:00:00Z");

    let (status, moved) = c.clock(json!({ "advanceSeconds": 3600 })).await;
    assert_eq!(
        (status, moved["now"].as_str()),
        (StatusCode::OK, Some("2026-03-15T11:00:00Z"))
    );
    let (status, updated) = c
        .call(
            Method::PUT,
            &format!("/v1/keywords/{id}"),
            Some(c.account()),
            Some(&json!({ "bid": { "amount": "2.10", "currency": "USD" } })),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{updated}");
    assert_eq!(
        updated["result"]["modificationTime"],
        "2026-03-15T11:00:00Z"
    );
    let events: Vec<String> = c
        .sandbox
        .world
        .read()
        .audit
        .iter()
        .filter(|e| e.entity_id == id)
        .map(|e| e.time.to_string())
        .collect();
    assert_eq!(events.len(), 2, "{events:?}");
    assert!(events[1].starts_with("2026-03-15 11:00:00"), "{events:?}");

    let (status, refused) = c.clock(json!({ "now": "2026-03-15T09:00:00Z" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{refused}");
    let (status, _) = c
        .clock(json!({ "advanceSeconds": 1, "advanceDays": 1 }))
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let (status, _) = c.clock(json!({ "rewind": true })).await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "unknown fields are refused"
    );
    let (_, moved) = c.clock(json!({ "today": "2026-03-20" })).await;
    assert_eq!(moved["now"], "2026-03-20T11:00:00Z");
    assert_eq!(c.sandbox.world.read().today.to_string(), "2026-03-20");

    // Tokens expire on the simulated clock.
    let (status, _) = c.call(Method::GET, "/v1/me", None, None).await;
    assert_eq!(status, StatusCode::OK);
    c.clock_only(json!({ "advanceSeconds": 3600 })).await;
    let (status, _) = c.call(Method::GET, "/v1/me", None, None).await;
    assert_eq!(
        status,
        StatusCode::UNAUTHORIZED,
        "a token older than an hour expired"
    );
}

#[tokio::test]
async fn a_restart_keeps_every_write_the_history_and_the_clock() {
    let dir = temp_dir("journal");
    let (keywords, audit, campaigns, clock) = {
        let c = Client::new(config(Some(dir.clone())));
        let account = c.account();
        let group = group(&c);
        let made = c
            .post("/keywords/bulk-create", json!({ "items": [
                { "correlationId": 1, "data": { "adGroupId": group, "text": "kept after restart", "matchType": "BROAD" } },
                { "correlationId": 2, "data": { "adGroupId": group, "text": "deleted before restart", "matchType": "EXACT" } }
            ] }))
            .await;
        let ids: Vec<i64> = made["result"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["result"]["id"].as_i64().unwrap())
            .collect();
        c.clock(json!({ "advanceDays": 2 })).await;
        let (status, _) = c
            .call(
                Method::PUT,
                &format!("/v1/keywords/{}", ids[0]),
                Some(account),
                Some(&json!({ "bid": { "amount": "3.00" }, "status": "PAUSED" })),
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let (status, _) = c
            .call(
                Method::DELETE,
                &format!("/v1/keywords/{}", ids[1]),
                Some(account),
                None,
            )
            .await;
        assert_eq!(status, StatusCode::OK);
        let campaign = c.sandbox.world.read().ad_groups[&group].campaign_id;
        let (status, body) = c
            .call(
                Method::PUT,
                &format!("/v1/campaigns/{campaign}"),
                Some(account),
                Some(&json!({ "name": "Renamed before restart" })),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{body}");
        let w = c.sandbox.world.read();
        (
            ids.iter()
                .map(|id| w.keywords[id].clone())
                .collect::<Vec<_>>(),
            w.audit.clone(),
            w.campaigns[&campaign].clone(),
            c.sandbox.world.clock().now(),
        )
    };
    assert!(audit.len() >= 5, "{}", audit.len());

    let restarted = Client::new(config(Some(dir.clone())));
    let w = restarted.sandbox.world.read();
    for k in &keywords {
        assert_eq!(&w.keywords[&k.id], k, "keyword {} as written", k.id);
    }
    assert_eq!(w.audit, audit, "the change history survives");
    assert_eq!(w.campaigns[&campaigns.id], campaigns);
    assert_eq!(
        restarted.sandbox.world.clock().now(),
        clock,
        "the clock resumes"
    );
    assert_eq!(
        w.index.children("Keyword", keywords[0].ad_group_id).last(),
        Some(&keywords[1].id)
    );
    drop(w);
    // New ids continue after the journal's.
    let group = keywords[0].ad_group_id;
    let next = restarted
        .post(
            "/keywords",
            json!({ "adGroupId": group, "text": "after the restart", "matchType": "EXACT" }),
        )
        .await;
    assert!(next["result"]["id"].as_i64().unwrap() > keywords[1].id);
    let history: Value = restarted
        .post(
            "/change-history/query",
            json!({ "filters": [{ "field": "eventTime", "operator": "GREATER_THAN", "value": "2000-01-01" }] }),
        )
        .await;
    assert!(history["result"].as_array().is_some_and(|a| !a.is_empty()));

    let other_seed = SandboxConfig {
        world: searchdeck_sandbox::WorldConfig {
            seed: 7,
            ..Default::default()
        },
        ..config(Some(dir.clone()))
    };
    let refused = searchdeck_sandbox::Sandbox::open(other_seed).err().unwrap();
    assert!(refused.to_string().contains("seed 42"), "{refused}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first target-CPA recommendation of the first ad account's campaigns: `(id, campaign)`.
async fn a_target_cpa_recommendation(c: &Client) -> (String, i64) {
    let campaigns: Vec<i64> = {
        let w = c.sandbox.world.read();
        w.index.children("Campaign", c.account()).to_vec()
    };
    for campaign in campaigns {
        let listed = c
            .post(
                "/recommendations/target-cpas/query",
                json!({ "filters": [
                    { "field": "promotedObjectId", "operator": "EQUALS", "value": [campaign.to_string()] },
                    { "field": "promotedObjectType", "operator": "EQUALS", "value": ["APPSTORE_APP"] }
                ] }),
            )
            .await;
        if let Some(id) = listed["result"][0]["id"].as_str() {
            return (id.to_string(), campaign);
        }
    }
    panic!("no campaign earns a target CPA recommendation");
}

#[tokio::test]
async fn decisions_survive_a_restart_and_a_long_journal_is_compacted_while_running() {
    let dir = temp_dir("compaction");
    let journal = searchdeck_sandbox::journal::path(&dir);
    let lines = || std::fs::read_to_string(&journal).unwrap().lines().count();
    let writes = 2 * searchdeck_sandbox::journal::COMPACT_AFTER;
    let (id, campaign, keyword, audit) = {
        let c = Client::new(config(Some(dir.clone())));
        let (id, campaign) = a_target_cpa_recommendation(&c).await;
        let dismissed = c
            .post(
                "/recommendations/target-cpas/dismiss",
                json!({ "id": id, "promotedObjectId": campaign.to_string(), "promotedObjectType": "APPSTORE_APP" }),
            )
            .await;
        assert_eq!(dismissed["result"][0]["state"], "DISMISSED", "{dismissed}");
        // Many writes to one keyword: a long journal of few entities.
        let group = group(&c);
        let made = c
            .post(
                "/keywords",
                json!({ "adGroupId": group, "text": "rewritten often", "matchType": "EXACT" }),
            )
            .await;
        let keyword = made["result"]["id"].as_i64().unwrap();
        for i in 0..writes {
            let (status, body) = c
                .call(
                    Method::PUT,
                    &format!("/v1/keywords/{keyword}"),
                    Some(c.account()),
                    Some(
                        &json!({ "bid": { "amount": format!("{}.{:02}", 1 + i / 100, i % 100) } }),
                    ),
                )
                .await;
            assert_eq!(status, StatusCode::OK, "{body}");
        }
        let (compactions, held) = c.sandbox.world.journal().unwrap().stats();
        assert!(compactions >= 1, "compacted while running");
        assert_eq!(held, lines());
        assert!(
            held < searchdeck_sandbox::journal::COMPACT_AFTER,
            "{held} lines after {writes} writes"
        );
        let w = c.sandbox.world.read();
        (id, campaign, w.keywords[&keyword].clone(), w.audit.clone())
    };
    assert!(audit.len() > writes, "{}", audit.len());

    let restarted = Client::new(config(Some(dir.clone())));
    {
        let w = restarted.sandbox.world.read();
        assert_eq!(w.keywords[&keyword.id], keyword, "the latest state is kept");
        assert_eq!(w.audit, audit, "the whole change history is kept");
    }
    let listed = restarted
        .post(
            "/recommendations/target-cpas/query",
            json!({ "filters": [
                { "field": "promotedObjectId", "operator": "EQUALS", "value": [campaign.to_string()] },
                { "field": "promotedObjectType", "operator": "EQUALS", "value": ["APPSTORE_APP"] }
            ] }),
        )
        .await;
    assert_eq!(listed["result"][0]["id"], id.as_str());
    assert_eq!(
        listed["result"][0]["state"], "DISMISSED",
        "the decision is kept"
    );
    drop(restarted);

    // The compacted journal replays to the same world, and keeps growing from there.
    let again = Client::new(config(Some(dir.clone())));
    let w = again.sandbox.world.read();
    assert_eq!(w.keywords[&keyword.id], keyword);
    assert_eq!(w.audit, audit);
    drop(w);
    let _ = std::fs::remove_dir_all(&dir);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrent_writes_across_compactions_are_all_kept() {
    let dir = temp_dir("concurrent-compaction");
    let c = std::sync::Arc::new(Client::new(config(Some(dir.clone()))));
    let group = group(&c);
    let tasks: Vec<_> = (0..4)
        .map(|t| {
            let c = std::sync::Arc::clone(&c);
            tokio::spawn(async move {
                let mut ids = Vec::new();
                for i in 0..searchdeck_sandbox::journal::COMPACT_AFTER / 2 {
                    let made = c
                        .post(
                            "/keywords",
                            json!({ "adGroupId": group, "text": format!("writer {t} keyword {i}"), "matchType": "EXACT" }),
                        )
                        .await;
                    ids.push(made["result"]["id"].as_i64().unwrap());
                    if i % 25 == 0 {
                        // Clock lines land between the writes too.
                        c.clock(json!({ "advanceSeconds": 1 })).await;
                    }
                }
                ids
            })
        })
        .collect();
    let mut ids = Vec::new();
    for t in tasks {
        ids.extend(t.await.unwrap());
    }
    let (compactions, _) = c.sandbox.world.journal().unwrap().stats();
    assert!(
        compactions >= 1,
        "the journal was compacted while writers ran"
    );
    let (keywords, audit, now) = {
        let w = c.sandbox.world.read();
        let keywords: Vec<_> = ids.iter().map(|id| w.keywords[id].clone()).collect();
        (keywords, w.audit.clone(), c.sandbox.world.clock().now())
    };
    drop(c);
    let restarted = Client::new(config(Some(dir.clone())));
    let w = restarted.sandbox.world.read();
    for k in &keywords {
        assert_eq!(w.keywords.get(&k.id), Some(k), "keyword {} kept", k.id);
    }
    assert_eq!(w.audit, audit, "every change-history event kept");
    assert_eq!(
        restarted.sandbox.world.clock().now(),
        now,
        "the last clock kept"
    );
    drop(w);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_restart_keeps_registered_keys_refresh_tokens_and_codes() {
    use searchdeck_sandbox::Sandbox;
    use searchdeck_sandbox::auth::store::{Access, Credential};
    let dir = temp_dir("auth");
    let signing = p256::ecdsa::SigningKey::from_slice(&[7u8; 32]).unwrap();
    let credential = Credential {
        client_id: "SEARCHADS.kept".into(),
        team_id: "SEARCHADS.team".into(),
        key_id: "key".into(),
        key: *signing.verifying_key(),
        access: Access {
            accounts: Some([1].into()),
            read_only: true,
        },
    };
    let (refresh, popup_refresh, code, spent, access) = {
        let s = Sandbox::open(config(Some(dir.clone()))).unwrap();
        s.auth.register(credential.clone());
        let refresh = s.auth.issue_refresh_token("SEARCHADS.kept");
        let popup_refresh = s.auth.issue_refresh_token("popup-client");
        let code = s.auth.issue_code("popup-client", "http://app/cb");
        let spent = s.auth.issue_code("popup-client", "http://app/cb");
        assert!(s.auth.take_code(&spent, "popup-client", None));
        let (access, _) = s.auth.issue_token("SEARCHADS.kept");
        (refresh, popup_refresh, code, spent, access)
    };
    let s = Sandbox::open(config(Some(dir.clone()))).unwrap();
    let kept = s
        .auth
        .credential("SEARCHADS.kept")
        .expect("the key is kept");
    assert_eq!(
        (&kept.team_id, &kept.key_id, kept.key, &kept.access),
        (
            &credential.team_id,
            &credential.key_id,
            credential.key,
            &credential.access
        )
    );
    assert_eq!(
        s.auth.refresh_client(&refresh).as_deref(),
        Some("SEARCHADS.kept")
    );
    assert_eq!(
        s.auth.refresh_client(&popup_refresh).as_deref(),
        Some("popup-client")
    );
    assert_eq!(
        s.auth.check_token(&access),
        None,
        "access tokens are issued again"
    );
    assert!(
        !s.auth.take_code(&spent, "popup-client", None),
        "a spent code stays spent"
    );
    // Enough clock lines that the next open compacts the journal; the auth lines survive it.
    for _ in 0..=searchdeck_sandbox::journal::COMPACT_AFTER {
        s.world.clock_changed();
    }
    drop(s);
    let s = Sandbox::open(config(Some(dir.clone()))).unwrap();
    assert!(s.world.journal().unwrap().stats().1 < 20, "compacted");
    drop(s);
    let s = Sandbox::open(config(Some(dir.clone()))).unwrap();
    assert!(s.auth.credential("SEARCHADS.kept").is_some());
    assert_eq!(
        s.auth.refresh_client(&refresh).as_deref(),
        Some("SEARCHADS.kept")
    );
    assert!(
        s.auth
            .take_code(&code, "popup-client", Some("http://app/cb")),
        "an unspent code is kept"
    );
    drop(s);
    let s = Sandbox::open(config(Some(dir.clone()))).unwrap();
    assert!(
        !s.auth.take_code(&code, "popup-client", None),
        "spent across restarts"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
