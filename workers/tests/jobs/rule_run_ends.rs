//! How a rule run ends when it cannot do its work (docs/api/rules.md "A run"): a run whose
//! `run-rule` job is given up for good — here its attempts all lost with killed workers —
//! ends `FAILED` with the reason instead of showing `APPLYING` forever, keeping what it
//! applied; a rule whose campaign group was never synced stores a `SKIPPED` run saying so.
//! On every backend (see `support`).

use std::{collections::BTreeMap, time::Duration};

use searchdeck_common::{
    ids,
    jobs::RunRule,
    queue::{EnqueueOptions, Envelope, Job},
    rules::Rule,
    store::{
        self,
        rule_runs::{self, ItemRow, RunRow},
    },
    test_support::connected_org,
};

use crate::support::{Kind, TestEnv, eventually};

searchdeck_common::per_backend!([sqlite, postgres, redis]
    a_run_whose_job_is_given_up_ends_failed,
    a_rule_of_an_unsynced_group_stores_a_skipped_run,
);

/// A keyword rule of campaign group `org_id` of a new workspace's connection; (workspace,
/// connection, rule id).
async fn rule(env: &TestEnv, org_id: i64) -> (String, String, String) {
    let (workspace, account, _) =
        connected_org(&env.db, &format!("{}@example.com", ids::new_id())).await;
    let now = ids::now_ms() / 1000;
    let mut rule: Rule = serde_json::from_value(serde_json::json!({
        "name": "Pause the idle", "accountId": account, "orgId": org_id.to_string(),
        "level": "KEYWORDS",
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "metric", "metric": "taps", "operator": "EQUALS", "value": "0"}]}]},
        "window": {"type": "last", "days": 7},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "pause"}]
    }))
    .unwrap();
    rule.id = ids::new_id();
    rule.created_at = now;
    rule.updated_at = now;
    store::rules::insert(&env.db.pool, &workspace, None, &rule, org_id)
        .await
        .unwrap();
    store::rules::attach(&env.db.pool, &rule.id, 1_870_001, now)
        .await
        .unwrap();
    (workspace, account, rule.id)
}

fn item(seq: i64, result: &str) -> ItemRow {
    ItemRow {
        seq,
        level: "KEYWORD".into(),
        entity_id: 500 + seq,
        name: format!("keyword {seq}"),
        campaign_id: 1_870_001,
        ad_group_id: Some(1_880_001),
        values: BTreeMap::new(),
        action: "pause".into(),
        field: "status".into(),
        old_value: Some("ACTIVE".into()),
        new_value: Some("PAUSED".into()),
        detail: None,
        result: result.into(),
        message: None,
    }
}

async fn the_run(env: &TestEnv, rule: &str, period: &str) -> Option<RunRow> {
    rule_runs::by_period(&env.db.pool, rule, period)
        .await
        .unwrap()
}

async fn a_run_whose_job_is_given_up_ends_failed(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let (workspace, account, rule_id) = rule(&env, 42).await;
    let period = "manual:given-up";
    // The run as a killed worker left it: planned, one item sent, one not, APPLYING.
    let now = ids::now_ms() / 1000;
    let run = RunRow {
        id: ids::new_id(),
        workspace_id: workspace.clone(),
        rule_key: rule_id.clone(),
        rule_id: Some(rule_id.clone()),
        account_id: account,
        org_id: 42,
        source: "auto_rules".into(),
        rule_name: "Pause the idle".into(),
        body: "{}".into(),
        currency: Some("USD".into()),
        trigger: "MANUAL".into(),
        period: period.into(),
        status: rule_runs::APPLYING.into(),
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
        created_at: now,
        started_at: now,
        finished_at: None,
    };
    let mut tx = env.db.pool.begin().await.unwrap();
    assert!(rule_runs::insert_run(&mut *tx, &run).await.unwrap());
    rule_runs::insert_items(
        &mut tx,
        &run.id,
        &[
            item(0, rule_runs::ITEM_APPLIED),
            item(1, rule_runs::ITEM_PLANNED),
        ],
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();

    // Its job, every attempt already spent by workers that died: the next is given up.
    let job = RunRule {
        rule: rule_id.clone(),
        period: period.into(),
        trigger: "MANUAL".into(),
        user_id: None,
        user_email: None,
    };
    let task = store::tasks::create(
        &env.db.pool,
        searchdeck_common::tasks::NewTask {
            workspace_id: &workspace,
            user_id: None,
            kind: RunRule::KIND,
            message: "Run",
            total_steps: 1,
            account_id: None,
            org_id: None,
        },
    )
    .await
    .unwrap();
    let envelope = Envelope::new(&job, Some(task.clone())).unwrap();
    sqlx::query(
        "INSERT INTO job_runs (job_id, kind, runs, created_at, updated_at) VALUES ($1, $2, $3, $4, $4)",
    )
    .bind(&envelope.id)
    .bind(RunRule::KIND)
    .bind(i64::from(RunRule::MAX_ATTEMPTS))
    .bind(ids::now_ms())
    .execute(&env.db.pool)
    .await
    .unwrap();
    let options = EnqueueOptions {
        task_id: Some(task.clone()),
        unique_key: job.unique_key(),
        run_after: None,
    };
    env.queue
        .enqueue_envelope(&envelope, &options)
        .await
        .unwrap();
    let worker = env.start_worker();
    let ended = eventually(Duration::from_secs(60), "the run ended", || async {
        the_run(&env, &rule_id, period)
            .await
            .filter(|r| r.status != rule_runs::APPLYING)
    })
    .await;
    worker.stop().await;
    assert_eq!(ended.id, run.id);
    assert_eq!(ended.status, rule_runs::FAILED);
    let reason = ended.reason.unwrap_or_default();
    assert!(
        reason.starts_with("The run stopped before it finished: gave up after 5 attempts"),
        "{reason}"
    );
    assert_eq!((ended.applied, ended.refused, ended.skipped), (1, 0, 0));
    assert!(ended.finished_at.is_some());
    let results: Vec<String> = rule_runs::items(&env.db.pool, &run.id)
        .await
        .unwrap()
        .into_iter()
        .map(|i| i.result)
        .collect();
    assert_eq!(
        results,
        ["APPLIED", "PLANNED"],
        "what was applied stays applied"
    );
    let (finished, error, _) = env.task_state(&task).await;
    assert!(finished && error.is_some(), "{error:?}");
}

async fn a_rule_of_an_unsynced_group_stores_a_skipped_run(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    // Campaign group 777 of the connection was never synced.
    let (_, _, rule_id) = rule(&env, 777).await;
    let job = RunRule {
        rule: rule_id.clone(),
        period: "manual:unsynced".into(),
        trigger: "MANUAL".into(),
        user_id: None,
        user_email: None,
    };
    env.queue.enqueue(&job).await.unwrap();
    let worker = env.start_worker();
    let run = eventually(Duration::from_secs(60), "the skipped run", || async {
        the_run(&env, &rule_id, "manual:unsynced").await
    })
    .await;
    worker.stop().await;
    assert_eq!(run.status, rule_runs::SKIPPED);
    assert_eq!(
        run.reason.as_deref(),
        Some(searchdeck_workers::jobs::run_rule::NOT_SYNCED)
    );
    assert_eq!((run.window_start, run.matched), (None, 0));
    assert_eq!(run.rule_id.as_deref(), Some(rule_id.as_str()));
    assert_eq!(run.rule_name, "Pause the idle");
    assert!(run.finished_at.is_some());
    assert_eq!(
        rule_runs::latest(&env.db.pool, &rule_id)
            .await
            .unwrap()
            .map(|r| r.status)
            .as_deref(),
        Some("SKIPPED"),
        "the rules list shows why it did nothing"
    );
}
