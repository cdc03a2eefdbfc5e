//! Conformance cases of `store::suggester` (run on both backends by the `store` suite): a
//! collection's result written once and kept a day, the timings its estimate reads, a
//! member's defaults, the places of an app's keywords, negatives and search terms, and a
//! stopped collection's task.

use searchdeck_common::{
    Db,
    ids::now_ms,
    store,
    tasks::NewTask,
    test_support::{connected_org, owner},
};

pub async fn suggester_results_timings_defaults_and_places(db: &Db) {
    use store::suggester;
    let (workspace_id, _account_id, org_key) = connected_org(db, "sugg@example.com").await;
    let (_, other_ws) = owner(db, "other@example.com").await;
    let task = |ws: String| async move {
        store::tasks::create(
            &db.pool,
            NewTask {
                workspace_id: &ws,
                user_id: None,
                kind: "collect-keywords",
                message: "m",
                total_steps: 7,
                account_id: None,
                org_id: None,
            },
        )
        .await
        .unwrap()
    };
    let t1 = task(workspace_id.clone()).await;
    let now = now_ms();
    suggester::save_result(&db.pool, &t1, &workspace_id, "[1]", now)
        .await
        .unwrap();
    // Written once: a second save keeps the first.
    suggester::save_result(&db.pool, &t1, &workspace_id, "[2]", now)
        .await
        .unwrap();
    assert_eq!(
        suggester::result(&db.pool, &workspace_id, &t1, now)
            .await
            .unwrap()
            .as_deref(),
        Some("[1]")
    );
    assert_eq!(
        suggester::result(&db.pool, &other_ws, &t1, now)
            .await
            .unwrap(),
        None,
        "another workspace's"
    );
    let day = suggester::RESULT_TTL_MS;
    assert_eq!(
        suggester::result(&db.pool, &workspace_id, &t1, now + day + 1)
            .await
            .unwrap(),
        None,
        "24 h later"
    );
    assert_eq!(
        suggester::delete_expired(&db.pool, now + day)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        suggester::delete_expired(&db.pool, now + day + 1)
            .await
            .unwrap(),
        1
    );

    assert_eq!(
        suggester::median_duration(&db.pool, "app", "US")
            .await
            .unwrap(),
        None
    );
    assert_eq!(suggester::median_ms_per_call(&db.pool).await.unwrap(), None);
    for (i, ms) in [9_000, 1_000, 5_000, 3_000].iter().enumerate() {
        suggester::record_run(&db.pool, "app", "US", *ms, 100, now + i as i64)
            .await
            .unwrap();
    }
    suggester::record_run(&db.pool, "keywords", "US", 60_000, 20, now)
        .await
        .unwrap();
    // Per call over every type and country: 90, 10, 50, 30 and 3,000 ms.
    assert_eq!(
        suggester::median_ms_per_call(&db.pool).await.unwrap(),
        Some(50)
    );
    assert_eq!(
        suggester::median_duration(&db.pool, "app", "US")
            .await
            .unwrap(),
        Some(4_000)
    );
    // Only the last 10 count.
    for i in 0..10 {
        suggester::record_run(&db.pool, "app", "US", 100_000, 50, now + 100 + i)
            .await
            .unwrap();
    }
    assert_eq!(
        suggester::median_duration(&db.pool, "app", "US")
            .await
            .unwrap(),
        Some(100_000)
    );

    let (user_id, ws) = owner(db, "defaults@example.com").await;
    assert_eq!(
        suggester::defaults(&db.pool, &ws, &user_id).await.unwrap(),
        None
    );
    suggester::set_defaults(&db.pool, &ws, &user_id, "[\"a\"]", now)
        .await
        .unwrap();
    suggester::set_defaults(&db.pool, &ws, &user_id, "[\"free\"]", now + 1)
        .await
        .unwrap();
    assert_eq!(
        suggester::defaults(&db.pool, &ws, &user_id)
            .await
            .unwrap()
            .as_deref(),
        Some("[\"free\"]")
    );

    // Places: live keywords with campaign and ad group names, negatives at both levels,
    // search terms of the app's campaigns only.
    for sql in [
        "INSERT INTO asa_campaigns (org_key, id, name, adam_id, status, synced_at) VALUES ($1, 1, 'US Brand', 77, 'ENABLED', 1)",
        "INSERT INTO asa_campaigns (org_key, id, name, adam_id, status, synced_at) VALUES ($1, 2, 'Other app', 88, 'ENABLED', 1)",
        "INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, 10, 1, 'Exact', 'ENABLED', 1)",
        "INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, 100, 1, 10, 'Photo Editor', 'EXACT', 'ACTIVE', 1)",
        "INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, deleted, synced_at) VALUES ($1, 101, 1, 10, 'gone', 'EXACT', 'ACTIVE', 1, 1)",
        "INSERT INTO asa_negative_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, 200, 1, NULL, 'free', 'EXACT', 'ACTIVE', 1)",
        "INSERT INTO asa_negative_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, 201, 1, 10, 'cheap', 'EXACT', 'ACTIVE', 1)",
        "INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, text, source) VALUES ($1, 300, 1, 10, 'photo editor pro', 'AUTO')",
        "INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, text, source) VALUES ($1, 301, 2, 20, 'not this app', 'AUTO')",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(org_key)
            .execute(&db.pool)
            .await
            .unwrap();
    }
    let places = suggester::keyword_places(&db.pool, org_key).await.unwrap();
    let s = |t: &str| t.to_string();
    assert_eq!(
        places,
        vec![(
            s("Photo Editor"),
            s("EXACT"),
            1,
            s("US Brand"),
            10,
            s("Exact")
        )]
    );
    let negatives = suggester::negative_places(&db.pool, org_key).await.unwrap();
    assert_eq!(
        negatives,
        vec![
            (s("free"), 1, s("US Brand"), None),
            (s("cheap"), 1, s("US Brand"), Some(10))
        ]
    );
    let terms = suggester::search_terms(&db.pool, org_key, 77)
        .await
        .unwrap();
    assert_eq!(terms, vec![(300, "photo editor pro".to_string())]);

    // A stop finishes a running task of the workspace once, with its details.
    let t2 = task(workspace_id.clone()).await;
    let details = serde_json::json!({"candidates": 3, "stopped": true});
    assert!(
        !store::tasks::stop(&db.pool, &other_ws, &t2, "Stopped", &details)
            .await
            .unwrap()
    );
    assert!(
        store::tasks::stop(&db.pool, &workspace_id, &t2, "Stopped", &details)
            .await
            .unwrap()
    );
    assert!(
        !store::tasks::stop(&db.pool, &workspace_id, &t2, "Stopped", &details)
            .await
            .unwrap()
    );
    let stopped = store::tasks::in_workspace(&db.pool, &workspace_id, &t2)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (stopped.finish, stopped.error.as_deref(), stopped.details),
        (true, Some("Stopped"), details)
    );
    assert!(store::tasks::cancel_requested(&db.pool, &t2).await.unwrap());
    assert!(
        !store::tasks::finish(&db.pool, &t2, "Keywords collecting completed!", None)
            .await
            .unwrap()
    );
}
