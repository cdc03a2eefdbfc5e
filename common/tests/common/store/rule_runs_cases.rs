//! Conformance cases of `store::rule_runs` (run on both backends by `store.rs`).

use std::collections::BTreeMap;

use searchdeck_common::{
    Db,
    rules::Rule,
    store::{
        self,
        rule_runs::{self, ItemRow, RunRow},
    },
    test_support::connected_org,
};

/// A rule of `account` (org 42), stored with id `id` and created at `at`.
pub fn rule(id: &str, account: &str, at: i64) -> Rule {
    let mut r: Rule = serde_json::from_value(serde_json::json!({
        "name": "Pause", "accountId": account, "orgId": "42", "level": "KEYWORDS",
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "metric", "metric": "taps", "operator": "GREATER_THAN", "value": "1"}]}]},
        "window": {"type": "last", "days": 7},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "pause"}]
    }))
    .unwrap();
    r.id = id.into();
    r.created_at = at;
    r.updated_at = at;
    r
}

fn run(id: &str, workspace: &str, account: &str, key: &str, period: &str, at: i64) -> RunRow {
    RunRow {
        id: id.into(),
        workspace_id: workspace.into(),
        rule_key: key.into(),
        rule_id: Some(key.into()),
        account_id: account.into(),
        org_id: 42,
        source: "auto_rules".into(),
        rule_name: "Pause".into(),
        body: "{}".into(),
        currency: Some("USD".into()),
        trigger: "SCHEDULE".into(),
        period: period.into(),
        status: rule_runs::PLANNED.into(),
        reason: None,
        window_start: Some("2026-11-20".into()),
        window_end: Some("2026-11-26".into()),
        newest_complete_day: Some("2026-11-26".into()),
        cohorts: None,
        matched: 2,
        applied: 0,
        refused: 0,
        skipped: 0,
        undo_of: None,
        undone_by: None,
        user_id: None,
        user_email: None,
        created_at: at,
        started_at: at,
        finished_at: None,
    }
}

fn item(seq: i64, id: i64, result: &str) -> ItemRow {
    ItemRow {
        seq,
        level: "KEYWORD".into(),
        entity_id: id,
        name: format!("kw {id}"),
        campaign_id: 10,
        ad_group_id: Some(100),
        values: BTreeMap::from([("taps".to_string(), serde_json::json!("31"))]),
        action: "changeBid".into(),
        field: "cptBid".into(),
        old_value: Some("1".into()),
        new_value: Some("1.1".into()),
        detail: None,
        result: result.into(),
        message: None,
    }
}

pub async fn rule_runs_plan_once_results_and_schedule(db: &Db) {
    let (workspace, account, org_key) = connected_org(db, "runs@example.com").await;
    let (other_ws, other_account, _) = connected_org(db, "runs-other@example.com").await;
    let pool = &db.pool;
    // Rules: r1 enabled with one enabled campaign, r2 enabled without campaigns, r3 with
    // its only campaign turned off.
    for id in ["r1", "r2", "r3"] {
        store::rules::insert(pool, &workspace, None, &rule(id, &account, 100), 42)
            .await
            .unwrap();
    }
    store::rules::attach(pool, "r1", 10, 100).await.unwrap();
    store::rules::attach(pool, "r3", 11, 100).await.unwrap();
    sqlx::query("UPDATE rule_campaigns SET enabled = 0 WHERE rule_id = 'r3'")
        .execute(pool)
        .await
        .unwrap();
    let due = rule_runs::scheduled_rules(pool).await.unwrap();
    assert_eq!(
        due.iter().map(|r| r.rule_id.as_str()).collect::<Vec<_>>(),
        ["r1"]
    );
    assert_eq!(due[0].enabled_at, 100);
    assert_eq!(
        rule_runs::enabled_campaigns(pool, "r1").await.unwrap(),
        [10]
    );

    // A run is stored once per (rule, period), with its items in the same transaction.
    let first = run(
        "run1",
        &workspace,
        &account,
        "r1",
        "2026-11-27T06:00:00Z",
        1000,
    );
    let mut tx = pool.begin().await.unwrap();
    assert!(rule_runs::insert_run(&mut *tx, &first).await.unwrap());
    rule_runs::insert_items(
        &mut tx,
        "run1",
        &[item(0, 501, "PLANNED"), item(1, 502, "PLANNED")],
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let again = run(
        "run2",
        &workspace,
        &account,
        "r1",
        "2026-11-27T06:00:00Z",
        1001,
    );
    assert!(!rule_runs::insert_run(pool, &again).await.unwrap());
    let found = rule_runs::by_period(pool, "r1", "2026-11-27T06:00:00Z")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(found, first);
    assert_eq!(
        rule_runs::items(pool, "run1").await.unwrap(),
        [item(0, 501, "PLANNED"), item(1, 502, "PLANNED")]
    );

    // Results move; the run's counts come from its items.
    rule_runs::set_item(
        pool,
        "run1",
        0,
        "APPLIED",
        None,
        Some(&serde_json::json!({"id": "9"})),
    )
    .await
    .unwrap();
    rule_runs::set_item(pool, "run1", 1, "REFUSED", Some("No"), None)
        .await
        .unwrap();
    let mut conn = pool.acquire().await.unwrap();
    let done = rule_runs::finish(&mut conn, "run1", rule_runs::DONE, None, 1010)
        .await
        .unwrap();
    assert_eq!(
        (
            done.status.as_str(),
            done.applied,
            done.refused,
            done.skipped,
            done.finished_at
        ),
        ("DONE", 1, 1, 0, Some(1010))
    );
    let items = rule_runs::items(pool, "run1").await.unwrap();
    assert_eq!(items[0].detail, Some(serde_json::json!({"id": "9"})));
    assert_eq!(
        (items[1].result.as_str(), items[1].message.as_deref()),
        ("REFUSED", Some("No"))
    );

    // Pages, newest first; another workspace sees none; undo marks items.
    rule_runs::insert_run(
        pool,
        &run(
            "run3",
            &workspace,
            &account,
            "r1",
            "2026-11-28T06:00:00Z",
            2000,
        ),
    )
    .await
    .unwrap();
    let (page, total) = rule_runs::of_rule(&mut conn, &workspace, "r1", 1, 1)
        .await
        .unwrap();
    assert_eq!((page[0].id.as_str(), total), ("run3", 2));
    let (page, _) = rule_runs::of_rule(&mut conn, &workspace, "r1", 2, 1)
        .await
        .unwrap();
    assert_eq!(page[0].id, "run1");
    assert_eq!(
        rule_runs::of_rule(&mut conn, &other_ws, "r1", 1, 10)
            .await
            .unwrap()
            .1,
        0
    );
    assert!(
        rule_runs::get(pool, &other_ws, "run1")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        rule_runs::latest(pool, "r1").await.unwrap().unwrap().id,
        "run3"
    );
    rule_runs::set_undone(&mut conn, "run1", "run3", &[0])
        .await
        .unwrap();
    let undone = rule_runs::get(pool, &workspace, "run1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(undone.undone_by.as_deref(), Some("run3"));
    assert_eq!(
        rule_runs::items(pool, "run1").await.unwrap()[0].result,
        "UNDONE"
    );

    // A rule that pauses itself leaves the schedule.
    rule_runs::disable_rule(pool, "r1", 3000).await.unwrap();
    assert!(rule_runs::scheduled_rules(pool).await.unwrap().is_empty());

    // Goal optimisations and their keys.
    sqlx::query(
        "INSERT INTO campaign_optimizations (workspace_id, account_id, org_id, campaign_id, type, \
           target_micros, max_step_percent, created_by_email, enabled_at, updated_at) \
         VALUES ($1, $2, 42, 10, 'CPA_GOAL', 2500000, 15, 'a@example.com', 5, 5)",
    )
    .bind(&other_ws)
    .bind(&other_account)
    .execute(pool)
    .await
    .unwrap();
    let all = rule_runs::optimizations(pool).await.unwrap();
    assert_eq!(all.len(), 1);
    assert_eq!(
        (all[0].target_micros, all[0].max_step_percent),
        (Some(2_500_000), 15)
    );
    let key = all[0].key();
    assert_eq!(
        rule_runs::parse_optimization_key(&key),
        Some((other_account.clone(), 42, 10))
    );
    assert!(
        rule_runs::optimization_of(pool, &other_account, 42, 10)
            .await
            .unwrap()
            .is_some()
    );
    assert!(
        rule_runs::optimization_of(pool, &other_account, 42, 11)
            .await
            .unwrap()
            .is_none()
    );

    // What a rule adds is checked against what is there.
    sqlx::query(
        "INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, deleted, synced_at) \
         VALUES ($1, 1, 10, 100, 'Photo Editor', 'EXACT', 'ACTIVE', 0, 1), ($1, 2, 10, 101, 'gone', 'EXACT', 'ACTIVE', 1, 1)",
    )
    .bind(org_key)
    .execute(pool)
    .await
    .unwrap();
    let kws = rule_runs::keywords_in(pool, org_key, &[100, 101])
        .await
        .unwrap();
    assert_eq!(
        kws.into_iter().collect::<Vec<_>>(),
        [(100, "photo editor".to_string(), "EXACT".to_string())]
    );
    assert!(
        rule_runs::negatives_in(pool, org_key, &[10])
            .await
            .unwrap()
            .is_empty()
    );
}

/// A run its job gave up on ends FAILED once (`fail_unfinished`), with its item counts; an
/// ended run, or none, is left alone.
pub async fn rule_runs_given_up_end_failed_once(db: &Db) {
    let (workspace, account, _) = connected_org(db, "given-up@example.com").await;
    let pool = &db.pool;
    store::rules::insert(pool, &workspace, None, &rule("g", &account, 100), 42)
        .await
        .unwrap();
    let mut applying = run("g1", &workspace, &account, "g", "manual:1", 1000);
    applying.status = rule_runs::APPLYING.into();
    let mut done = run("g2", &workspace, &account, "g", "manual:2", 1000);
    done.status = rule_runs::DONE.into();
    let mut tx = pool.begin().await.unwrap();
    assert!(rule_runs::insert_run(&mut *tx, &applying).await.unwrap());
    assert!(rule_runs::insert_run(&mut *tx, &done).await.unwrap());
    rule_runs::insert_items(
        &mut tx,
        "g1",
        &[
            item(0, 501, "APPLIED"),
            item(1, 502, "REFUSED"),
            item(2, 503, "PLANNED"),
        ],
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();

    let mut conn = pool.acquire().await.unwrap();
    let ended = rule_runs::fail_unfinished(&mut conn, "g", "manual:1", "lost", 2000)
        .await
        .unwrap()
        .expect("the APPLYING run ends");
    assert_eq!(
        (
            ended.id.as_str(),
            ended.status.as_str(),
            ended.reason.as_deref(),
            ended.finished_at
        ),
        ("g1", "FAILED", Some("lost"), Some(2000))
    );
    assert_eq!((ended.applied, ended.refused, ended.skipped), (1, 1, 0));
    assert!(
        rule_runs::fail_unfinished(&mut conn, "g", "manual:1", "again", 3000)
            .await
            .unwrap()
            .is_none(),
        "an ended run stays as it ended"
    );
    assert!(
        rule_runs::fail_unfinished(&mut conn, "g", "manual:2", "lost", 3000)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        rule_runs::fail_unfinished(&mut conn, "g", "manual:3", "lost", 3000)
            .await
            .unwrap()
            .is_none()
    );
    let kept = rule_runs::by_period(pool, "g", "manual:2")
        .await
        .unwrap()
        .unwrap();
    assert_eq!((kept.status.as_str(), kept.reason), ("DONE", None));

    // The workspace lock of the rule writes composes with counting and inserting.
    let mut tx = pool.begin().await.unwrap();
    store::rules::lock_workspace(&mut *tx, &workspace)
        .await
        .unwrap();
    assert_eq!(store::rules::count(&mut *tx, &workspace).await.unwrap(), 1);
    store::rules::insert(&mut *tx, &workspace, None, &rule("locked", &account, 5), 42)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    assert_eq!(store::rules::count(pool, &workspace).await.unwrap(), 2);
}
