//! A rule's backtest on known history: replayed over past days, it shows what each daily
//! run would have done and the metrics it read, and takes at most 90 days.

use axum::http::{Method, StatusCode};
use searchdeck_common::{ids, store};
use serde_json::json;

use crate::common::TestApp;

/// Backtest on known history: keyword A has 20 taps a day, keyword B none; a rule pausing
/// keywords with more than 50 taps over the last 3 days, replayed over 5 days, would have
/// paused A at each of its 5 daily runs and never B, and shows A's taps over those days.
async fn backtest_on_known_history(app: TestApp) {
    let owner = app.register(&app.email(), "long password").await;
    let me = app.get("/api/auth/me", Some(&owner)).await.json["result"]["item"].clone();
    let (workspace_id, user_id) = (
        me["workspaceId"].as_str().unwrap(),
        me["id"].as_str().unwrap(),
    );
    let pool = &app.state.db.pool;
    let account_id = store::accounts::upsert(
        pool,
        store::accounts::NewAccount::without_credentials(
            &ids::new_id(),
            workspace_id,
            user_id,
            "bt",
            1,
        ),
    )
    .await
    .unwrap();
    let org_key = store::synced::ensure_org(pool, &account_id, 42, Some("USD"), Some("UTC"))
        .await
        .unwrap();
    searchdeck_common::test_support::metrics_delivered(
        &app.state.db,
        None,
        Some(org_key),
        ids::now_ms() / 1000,
    )
    .await;
    sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) VALUES ($1, 10, 'C', 'ENABLED', 1)")
        .bind(org_key).execute(pool).await.unwrap();
    sqlx::query("INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, 100, 10, 'G', 'ENABLED', 1)")
        .bind(org_key).execute(pool).await.unwrap();
    sqlx::query("INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, bid_micros, synced_at) \
                 VALUES ($1, 1001, 10, 100, 'busy', 'EXACT', 'ACTIVE', 1000000, 1), ($1, 1002, 10, 100, 'quiet', 'EXACT', 'ACTIVE', 1000000, 1)")
        .bind(org_key).execute(pool).await.unwrap();
    store::synced::entities_changed(pool, org_key)
        .await
        .unwrap();
    let today = searchdeck_common::rules::window::today(ids::now_ms() / 1000, Some("UTC"));
    let mut rows = Vec::new();
    for back in 1..=10 {
        let day = today - time::Duration::days(back);
        let mut c = [0i64; 11];
        c[0] = 200;
        c[1] = 20;
        c[10] = 10_000_000;
        rows.push(store::report_facts::DayRow {
            org_key,
            level: store::report_facts::FactLevel::Keyword,
            day,
            entity_id: 1001,
            campaign_id: 10,
            ad_group_id: 100,
            counters: store::report_facts::Counters(c),
        });
    }
    store::report_facts::insert_days(&app.state.db, &rows)
        .await
        .unwrap();
    store::report_facts::refresh(
        &app.state.db,
        org_key,
        store::report_facts::FactLevel::Keyword,
        today - time::Duration::days(10),
    )
    .await
    .unwrap();
    let rule = json!({
        "name": "Busy", "accountId": account_id, "orgId": "42", "level": "KEYWORDS", "campaignIds": ["10"],
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "metric", "metric": "taps", "operator": "GREATER_THAN", "value": "50"}]}]},
        "window": {"type": "last", "days": 3},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "pause"}]
    });
    let res = app
        .request(
            Method::POST,
            "/api/rules/backtest",
            Some(json!({"rule": rule, "days": 5})),
            Some(&owner),
        )
        .await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    let bt = &res.json["result"]["item"];
    let points = bt["points"].as_array().unwrap();
    assert_eq!(points.len(), 5, "{bt}");
    for (i, p) in points.iter().enumerate() {
        let day = today - time::Duration::days(5 - i as i64);
        assert_eq!(p["at"], format!("{day}T06:00:00Z"));
        assert_eq!(
            p["window"]["endDate"],
            (day - time::Duration::days(1)).to_string()
        );
        assert_eq!(
            (p["matched"].as_i64(), p["changes"].as_i64()),
            (Some(1), Some(1)),
            "{p}"
        );
    }
    let entities = bt["entities"].as_array().unwrap();
    assert_eq!(entities.len(), 1, "{bt}");
    assert_eq!(entities[0]["entityId"], "1001");
    assert_eq!(entities[0]["timesChanged"], 5);
    assert_eq!(entities[0]["metrics"]["taps"], "100");
    // Out of range days answer 400; nothing was sent anywhere (no connection credentials).
    let res = app
        .request(
            Method::POST,
            "/api/rules/backtest",
            Some(json!({"rule": rule, "days": 91})),
            Some(&owner),
        )
        .await;
    assert_eq!(res.status, StatusCode::BAD_REQUEST);
    assert_eq!(res.json["errors"][0]["field"], "days");
}

#[tokio::test]
async fn sqlite() {
    backtest_on_known_history(TestApp::sqlite_with(&[]).await).await
}

#[tokio::test]
async fn postgres() {
    if let Some(app) = TestApp::postgres_with(&[]).await {
        backtest_on_known_history(app).await
    }
}
