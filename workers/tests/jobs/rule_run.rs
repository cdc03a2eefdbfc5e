//! A rule run interrupted by killed workers (issue 24, "exactly once"): a rule raising every
//! ad group's default bid of a campaign group by 10 % runs as `run-rule`; the worker is
//! SIGKILLed once right after the run's plan is stored (before any change reached Apple,
//! each call slowed to a second by the sandbox's latency fault) and once more in the middle
//! of the sends, and a third worker finishes the run. Every ad group ends raised exactly
//! once — at the sandbox and here — with one change record each (source `auto_rules`, job
//! id the run's id) and its item `APPLIED`.

use std::time::Duration;

use searchdeck_common::{
    ids,
    jobs::RunRule,
    queue::outbox,
    rules::Rule,
    store,
    tasks::{NewTask, create_with_job},
};
use searchdeck_provider::{AppleAdsExt, Client, ClientConfig, Credentials, Entity};
use serde_json::{Value, json};

use crate::support::{Kind, TestEnv, eventually, signal};
use crate::sync::{Connected, connected, entity_sync_done, first_usd_org, start_sync};

/// 10 % more, floored to cents: ⌊micros × 1.1 / 10⁴⌋ × 10⁴.
fn raised(micros: i64) -> i64 {
    micros * 11 / 100_000 * 10_000
}

fn micros_of(money: &Value) -> i64 {
    let amount: rust_decimal::Decimal = money["amount"].as_str().unwrap().parse().unwrap();
    (amount * rust_decimal::Decimal::from(1_000_000))
        .try_into()
        .unwrap()
}

async fn records(env: &TestEnv) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM change_records WHERE level = 'AD_GROUP' AND field = 'defaultBidAmount' \
         AND source = 'auto_rules'",
    )
    .fetch_one(&env.db.pool)
    .await
    .unwrap()
}

async fn latency(http: &reqwest::Client, sandbox: &str, ms: u64) {
    let body = if ms == 0 {
        json!({})
    } else {
        json!({"latencyMs": ms})
    };
    let r = http
        .put(format!("{sandbox}/sandbox/faults"))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(r.status().is_success());
}

async fn killed_rule_run_raises_once(kind: Kind) {
    let Some(Connected {
        sandbox,
        env,
        http,
        key,
        account,
    }) = connected(kind).await
    else {
        return;
    };
    let mut worker = env.spawn_worker(&[]);
    start_sync(&env, &account).await;
    entity_sync_done(&env).await;
    let (org_key, org_id, workspace) = first_usd_org(&env, &account).await;
    // The metrics are complete through yesterday (the rule reads the last 7 days).
    searchdeck_common::test_support::metrics_delivered(
        &env.db,
        None,
        Some(org_key),
        ids::now_ms() / 1000,
    )
    .await;
    let groups: Vec<(i64, i64, i64)> = sqlx::query_as(
        "SELECT id, campaign_id, default_bid_micros FROM asa_ad_groups WHERE org_key = $1 AND deleted = 0 \
         AND default_bid_micros IS NOT NULL ORDER BY id",
    )
    .bind(org_key)
    .fetch_all(&env.db.pool)
    .await
    .unwrap();
    assert!(groups.len() >= 6, "ad groups to raise: {groups:?}");
    let now = ids::now_ms() / 1000;
    let mut rule: Rule = serde_json::from_value(json!({
        "name": "Raise every ad group by 10 %", "accountId": account, "orgId": org_id.to_string(),
        "level": "ADGROUPS",
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "status", "values": ["ENABLED", "PAUSED"]}]}]},
        "window": {"type": "last", "days": 7},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "changeBid", "by": "PERCENT", "value": "10"}]
    }))
    .unwrap();
    rule.id = ids::new_id();
    rule.created_at = now;
    rule.updated_at = now;
    store::rules::insert(&env.db.pool, &workspace, None, &rule, org_id)
        .await
        .unwrap();
    let mut campaigns: Vec<i64> = groups.iter().map(|g| g.1).collect();
    campaigns.dedup();
    for c in campaigns {
        store::rules::attach(&env.db.pool, &rule.id, c, now)
            .await
            .unwrap();
    }

    latency(&http, &sandbox, 1000).await;
    let job = RunRule {
        rule: rule.id.clone(),
        period: "manual:test".into(),
        trigger: "MANUAL".into(),
        user_id: None,
        user_email: None,
    };
    let task_id = create_with_job(
        &env.db,
        NewTask {
            workspace_id: &workspace,
            user_id: None,
            kind: "run-rule",
            message: "Run",
            total_steps: 1,
            account_id: None,
            org_id: None,
        },
        &job,
    )
    .await
    .unwrap();
    outbox::relay_once(&env.db, &env.queue, 10).await.unwrap();

    // Kill 1: the plan is stored, nothing sent yet (every call takes a second).
    let run_id: String = eventually(Duration::from_secs(120), "the stored plan", || async {
        sqlx::query_scalar("SELECT id FROM rule_runs WHERE rule_key = $1")
            .bind(&rule.id)
            .fetch_optional(&env.db.pool)
            .await
            .unwrap()
    })
    .await;
    signal(&worker, "KILL");
    worker.wait().unwrap();
    let first_kill = records(&env).await;
    let planned: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM rule_run_items WHERE run_id = $1 AND result = 'PLANNED'",
    )
    .bind(&run_id)
    .fetch_one(&env.db.pool)
    .await
    .unwrap();
    assert_eq!(
        planned as usize,
        groups.len(),
        "every ad group planned before any send"
    );

    // Kill 2: in the middle of the sends.
    latency(&http, &sandbox, 250).await;
    worker = env.spawn_worker(&[]);
    let second_kill = eventually(
        Duration::from_secs(300),
        "some ad groups raised",
        || async {
            let n = records(&env).await;
            (n > first_kill + 1 && (n as usize) < groups.len()).then_some(n)
        },
    )
    .await;
    signal(&worker, "KILL");
    worker.wait().unwrap();

    latency(&http, &sandbox, 0).await;
    worker = env.spawn_worker(&[]);
    let message: String = eventually(Duration::from_secs(300), "the resumed run", || async {
        let row: (i64, String) = sqlx::query_as("SELECT finish, message FROM tasks WHERE id = $1")
            .bind(&task_id)
            .fetch_one(&env.db.pool)
            .await
            .unwrap();
        (row.0 == 1).then_some(row.1)
    })
    .await;
    signal(&worker, "TERM");
    worker.wait().unwrap();
    eprintln!(
        "killed with {first_kill} then {second_kill} of {} ad groups raised; {message}",
        groups.len()
    );

    let client = Client::new(
        ClientConfig::sandbox(&sandbox),
        Credentials::ClientCredentials {
            client_id: key.client_id.clone(),
            team_id: key.team_id.clone(),
            key_id: key.key_id.clone(),
            key: key.key.clone(),
        },
    )
    .unwrap();
    for (id, _, old) in &groups {
        let g: Value = client.get(org_id, Entity::AdGroups, *id).await.unwrap();
        assert_eq!(
            micros_of(&g["bidStrategy"]["bid"]),
            raised(*old),
            "ad group {id} at the sandbox"
        );
        let ours: i64 = sqlx::query_scalar(
            "SELECT default_bid_micros FROM asa_ad_groups WHERE org_key = $1 AND id = $2",
        )
        .bind(org_key)
        .bind(id)
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
        assert_eq!(ours, raised(*old), "ad group {id} here");
    }
    assert_eq!(records(&env).await as usize, groups.len());
    let job_ids: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT job_id FROM change_records WHERE source = 'auto_rules'",
    )
    .fetch_all(&env.db.pool)
    .await
    .unwrap();
    assert_eq!(job_ids, vec![run_id.clone()]);
    let (status, applied): (String, i64) =
        sqlx::query_as("SELECT status, applied FROM rule_runs WHERE id = $1")
            .bind(&run_id)
            .fetch_one(&env.db.pool)
            .await
            .unwrap();
    assert_eq!(
        (status.as_str(), applied as usize),
        ("DONE", groups.len()),
        "{message}"
    );
}

searchdeck_common::per_backend!([sqlite, postgres] killed_rule_run_raises_once);
