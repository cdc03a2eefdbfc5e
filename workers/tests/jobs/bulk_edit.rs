//! A bulk edit interrupted by a killed worker: a worker process (the real worker code in the
//! test worker binary) is SIGKILLed while a `bulk-edit` job raises every ad group's default
//! bid of a campaign group by 10 % (one `PUT` each, slowed by the sandbox's latency fault),
//! another worker takes the job over, and every ad group ends raised exactly once — at the
//! sandbox and here — with one change record each. While it runs, the task's progress moves
//! with every ad group done.

use std::time::Duration;

use searchdeck_common::{
    jobs::{BulkEdit, BulkEditItem, money_text},
    queue::outbox,
    tasks::{NewTask, create_with_job},
};
use searchdeck_provider::{AppleAdsExt, Client, ClientConfig, Credentials, Entity};
use serde_json::{Value, json};

use crate::support::{Kind, TestEnv, eventually, signal};
use crate::sync::{Connected, connected, entity_sync_done, first_usd_org, start_sync};

/// 10 % more, floored to cents (what the route computes): ⌊micros × 1.1 / 10⁴⌋ × 10⁴.
fn raised(micros: i64) -> i64 {
    micros * 11 / 100_000 * 10_000
}

fn micros_of(money: &Value) -> i64 {
    let amount: f64 = money["amount"].as_str().unwrap().parse().unwrap();
    (amount * 1e6).round() as i64
}

async fn records(env: &TestEnv) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM change_records WHERE level = 'AD_GROUP' AND field = 'defaultBidAmount'",
    )
    .fetch_one(&env.db.pool)
    .await
    .unwrap()
}

async fn killed_worker_does_not_raise_twice(kind: Kind) {
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
    let mut first = env.spawn_worker(&[]);
    start_sync(&env, &account).await;
    entity_sync_done(&env).await;

    let (org_key, org_id, workspace) = first_usd_org(&env, &account).await;
    let groups: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT id, default_bid_micros FROM asa_ad_groups WHERE org_key = $1 AND deleted = 0 \
         AND default_bid_micros IS NOT NULL ORDER BY id",
    )
    .bind(org_key)
    .fetch_all(&env.db.pool)
    .await
    .unwrap();
    assert!(groups.len() >= 6, "ad groups to raise: {groups:?}");

    // Every Apple call takes 250 ms, so the job is still under way when it is killed.
    let faults = http
        .put(format!("{sandbox}/sandbox/faults"))
        .json(&json!({"latencyMs": 250}))
        .send()
        .await
        .unwrap();
    assert!(faults.status().is_success());
    let job = BulkEdit {
        workspace_id: workspace.clone(),
        user_id: None,
        user_email: None,
        account_id: account.clone(),
        org_key,
        org_id,
        currency: Some("USD".into()),
        level: "AD_GROUP".into(),
        field: "defaultBidAmount".into(),
        operation: "Raise defaultBidAmount by 10 %".into(),
        items: groups
            .iter()
            .map(|(id, old)| BulkEditItem::to(*id, money_text(Some(raised(*old)))))
            .collect(),
    };
    let task_id = create_with_job(
        &env.db,
        NewTask {
            workspace_id: &workspace,
            user_id: None,
            kind: "bulk-edit",
            message: "Raise",
            total_steps: groups.len() as i64,
            account_id: None,
            org_id: None,
        },
        &job,
    )
    .await
    .unwrap();
    outbox::relay_once(&env.db, &env.queue, 10).await.unwrap();
    // The task counts each ad group as it is done (one `PUT` each), not only at the end:
    // while the job runs, the record and its details (the popover's `done / total`) show
    // part of the work done.
    let (step, done) = eventually(
        Duration::from_secs(120),
        "the task's progress to move before the end",
        || async {
            let (step, details): (i64, String) =
                sqlx::query_as("SELECT step, progress FROM tasks WHERE id = $1")
                    .bind(&task_id)
                    .fetch_one(&env.db.pool)
                    .await
                    .unwrap();
            let done = serde_json::from_str::<Value>(&details).unwrap()["done"].as_i64();
            (step >= 1 && step < groups.len() as i64).then_some((step, done))
        },
    )
    .await;
    assert_eq!(done, Some(step), "the details count what the task counts");
    signal(&first, "KILL");
    first.wait().unwrap();
    let at_kill = records(&env).await;
    assert!(
        (at_kill as usize) < groups.len(),
        "killed mid-edit, not after it ({at_kill} of {})",
        groups.len()
    );

    let faults = http
        .put(format!("{sandbox}/sandbox/faults"))
        .json(&json!({}))
        .send()
        .await
        .unwrap();
    assert!(faults.status().is_success());
    let mut second = env.spawn_worker(&[]);
    let (message, details): (String, String) = eventually(
        Duration::from_secs(300),
        "the resumed bulk edit",
        || async {
            let row: (i64, String, String) =
                sqlx::query_as("SELECT finish, message, progress FROM tasks WHERE id = $1")
                    .bind(&task_id)
                    .fetch_one(&env.db.pool)
                    .await
                    .unwrap();
            (row.0 == 1).then_some((row.1, row.2))
        },
    )
    .await;
    signal(&second, "TERM");
    second.wait().unwrap();
    eprintln!(
        "killed after {at_kill} of {} ad groups; {message}",
        groups.len()
    );

    // Each raised exactly once: at the sandbox, here, and in the change records.
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
    for (id, old) in &groups {
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
    let details: Value = serde_json::from_str(&details).unwrap();
    assert_eq!(
        details["applied"].as_u64(),
        Some(groups.len() as u64),
        "{message}: {details}"
    );
}

searchdeck_common::per_backend!([sqlite, postgres] killed_worker_does_not_raise_twice);
