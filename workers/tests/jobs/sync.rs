//! A sync interrupted by a killed worker: a worker process (the real worker code in the
//! test worker binary) is SIGKILLed while `sync-reports` writes metrics, another one takes
//! the job over, and the connection ends with exactly the rows an uninterrupted sync of the
//! same Apple Ads user stores.

use std::{sync::Arc, time::Duration};

use searchdeck_common::secrets::SecretBox;
use searchdeck_sandbox::{Sandbox, SandboxConfig};
use searchdeck_workers::sandbox_account::{self, SandboxKey};
use serde_json::json;

use crate::support::{Kind, TestEnv, eventually, signal};

/// Serves `sandbox` on a free loopback port; its base URL.
pub(crate) async fn serve_sandbox(sandbox: Arc<Sandbox>) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let app = searchdeck_sandbox::app(sandbox);
    tokio::spawn(async move { axum::serve(listener, app).await.unwrap() });
    format!("http://{addr}")
}

/// A fresh sandbox with its default world, served; its base URL.
pub(crate) async fn start_sandbox() -> String {
    serve_sandbox(Sandbox::new(SandboxConfig::default())).await
}

/// What the job tests against the sandbox start from: a served sandbox, a test environment
/// whose provider it is, and the sandbox user's key-pair connection stored (not yet synced).
pub(crate) struct Connected {
    /// The sandbox's base URL.
    pub sandbox: String,
    pub env: TestEnv,
    pub http: reqwest::Client,
    pub key: SandboxKey,
    /// The stored connection's id.
    pub account: String,
}

/// [`Connected`] on a fresh default sandbox; `None` when `kind`'s backend is not reachable.
pub(crate) async fn connected(kind: Kind) -> Option<Connected> {
    connected_to(kind, Sandbox::new(SandboxConfig::default())).await
}

/// [`Connected`] on `sandbox` (a handle the test keeps to steer it).
pub(crate) async fn connected_to(kind: Kind, sandbox: Arc<Sandbox>) -> Option<Connected> {
    let base = serve_sandbox(sandbox).await;
    let env = TestEnv::with_provider(kind, Some(&base)).await?;
    let http = reqwest::Client::new();
    let key = sandbox_account::register_key(&http, &base).await.unwrap();
    let account = connection(&env, &base, &key).await;
    Some(Connected {
        sandbox: base,
        env,
        http,
        key,
        account,
    })
}

/// Stores a key-pair connection of the sandbox user in a new workspace (as `account/create`
/// does, sealed with the configured key) with every campaign group selected; returns its id.
pub(crate) async fn connection(env: &TestEnv, sandbox: &str, key: &SandboxKey) -> String {
    let secrets = SecretBox::from_config(&env.config).unwrap();
    sandbox_account::connect(&env.db, &secrets, sandbox, key)
        .await
        .unwrap()
}

/// The connection's first USD campaign group (by org id): its `(org_key, org_id,
/// workspace_id)`, the group the edit and rule tests act in.
pub(crate) async fn first_usd_org(env: &TestEnv, account_id: &str) -> (i64, i64, String) {
    sqlx::query_as(
        "SELECT o.org_key, o.org_id, a.workspace_id FROM sync_orgs o JOIN accounts a ON a.id = o.account_id \
         WHERE o.account_id = $1 AND o.currency = 'USD' ORDER BY o.org_id LIMIT 1",
    )
    .bind(account_id)
    .fetch_one(&env.db.pool)
    .await
    .unwrap()
}

pub(crate) async fn start_sync(env: &TestEnv, account_id: &str) {
    sandbox_account::queue_sync(&env.db, &env.queue, account_id)
        .await
        .unwrap();
}

/// Waits until the entity sync (`sync-account`) has finished without an error.
pub(crate) async fn entity_sync_done(env: &TestEnv) {
    eventually(Duration::from_secs(300), "the entity sync", || async {
        let done: Option<i64> = sqlx::query_scalar(
            "SELECT finish FROM tasks WHERE kind = 'sync-account' AND error IS NULL",
        )
        .fetch_optional(&env.db.pool)
        .await
        .unwrap();
        (done == Some(1)).then_some(())
    })
    .await;
}

pub(crate) async fn synced(env: &TestEnv, account_id: &str) -> bool {
    sandbox_account::synced(&env.db, account_id).await.unwrap()
}

async fn metric_rows(env: &TestEnv, account_id: &str) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM asa_day_metrics m JOIN sync_orgs o ON o.org_key = m.org_key \
         WHERE o.account_id = $1",
    )
    .bind(account_id)
    .fetch_one(&env.db.pool)
    .await
    .unwrap()
}

type MetricRow = (i64, i64, String, i64, i64, i64, i64, i64, i64, i64);

/// Every stored fact of a connection, keyed by org id instead of the local org key.
async fn snapshot(
    env: &TestEnv,
    account_id: &str,
) -> (Vec<MetricRow>, Vec<(i64, i64, String, i64)>, i64) {
    let metrics: Vec<MetricRow> = sqlx::query_as(
        "SELECT o.org_id, m.level, CAST(m.day AS TEXT), m.entity_id, m.campaign_id, m.ad_group_id, \
           m.impressions, m.taps, m.tap_installs + m.view_installs, m.spend_micros \
         FROM asa_day_metrics m JOIN sync_orgs o ON o.org_key = m.org_key \
         WHERE o.account_id = $1 ORDER BY 1, 2, 3, 4",
    )
    .bind(account_id)
    .fetch_all(&env.db.pool)
    .await
    .unwrap();
    let keywords: Vec<(i64, i64, String, i64)> = sqlx::query_as(
        "SELECT o.org_id, k.id, k.text, k.deleted FROM asa_keywords k \
         JOIN sync_orgs o ON o.org_key = k.org_key WHERE o.account_id = $1 ORDER BY 1, 2",
    )
    .bind(account_id)
    .fetch_all(&env.db.pool)
    .await
    .unwrap();
    let terms: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM asa_search_terms t JOIN sync_orgs o ON o.org_key = t.org_key \
         WHERE o.account_id = $1",
    )
    .bind(account_id)
    .fetch_one(&env.db.pool)
    .await
    .unwrap();
    (metrics, keywords, terms)
}

async fn killed_worker_resumes_to_the_same_rows(kind: Kind) {
    let sandbox = start_sandbox().await;
    let Some(env) = TestEnv::with_provider(kind, Some(&sandbox)).await else {
        return;
    };
    let http = reqwest::Client::new();
    // A still clock, so both syncs see the same simulated day.
    http.put(format!("{sandbox}/sandbox/clock"))
        .json(&json!({"advanceSeconds": 1, "running": false}))
        .send()
        .await
        .unwrap();
    let key = sandbox_account::register_key(&http, &sandbox)
        .await
        .unwrap();
    let interrupted = connection(&env, &sandbox, &key).await;
    let reference = connection(&env, &sandbox, &key).await;

    let mut first = env.spawn_worker(&[]);
    start_sync(&env, &interrupted).await;
    // Kill the worker once the metrics sync has stored some rows, before it is done.
    eventually(
        Duration::from_secs(180),
        "metrics being written",
        || async { (metric_rows(&env, &interrupted).await > 0).then_some(()) },
    )
    .await;
    assert!(
        !synced(&env, &interrupted).await,
        "killed mid-sync, not after it"
    );
    signal(&first, "KILL");
    first.wait().unwrap();

    let mut second = env.spawn_worker(&[]);
    eventually(Duration::from_secs(300), "the resumed sync", || async {
        synced(&env, &interrupted).await.then_some(())
    })
    .await;
    start_sync(&env, &reference).await;
    eventually(
        Duration::from_secs(300),
        "the uninterrupted sync",
        || async { synced(&env, &reference).await.then_some(()) },
    )
    .await;
    signal(&second, "TERM");
    second.wait().unwrap();

    let (resumed, uninterrupted) = (
        snapshot(&env, &interrupted).await,
        snapshot(&env, &reference).await,
    );
    assert!(!uninterrupted.0.is_empty() && !uninterrupted.1.is_empty());
    assert_eq!(resumed.0.len(), uninterrupted.0.len(), "metric rows");
    assert!(
        resumed == uninterrupted,
        "the resumed sync stored other rows"
    );
}

searchdeck_common::per_backend!([sqlite, postgres] killed_worker_resumes_to_the_same_rows);

/// A sync whose provider calls all fail is given up after its attempts and recorded on the
/// connection (`accounts.sync_failed_at`, newer than any stored sync): what the
/// appleDataIssues banner reads (docs/api/plans.md "Banners").
async fn a_given_up_sync_is_recorded_on_the_connection(kind: Kind) {
    let Some(Connected {
        sandbox,
        env,
        http,
        account,
        ..
    }) = connected(kind).await
    else {
        return;
    };
    let workspace = searchdeck_common::store::accounts::by_id(&env.db.pool, &account)
        .await
        .unwrap()
        .unwrap()
        .workspace_id;
    let states = |env: &TestEnv| {
        let (db, workspace) = (env.db.clone(), workspace.clone());
        async move {
            searchdeck_common::store::accounts::sync_states(&db.pool, &workspace)
                .await
                .unwrap()
        }
    };
    let faults = http
        .put(format!("{sandbox}/sandbox/faults"))
        .json(&json!({"errorRate": 1.0}))
        .send()
        .await
        .unwrap();
    assert!(faults.status().is_success());
    let worker = env.start_worker();
    start_sync(&env, &account).await;
    let failed = eventually(Duration::from_secs(240), "the sync given up", || async {
        let s = states(&env).await;
        s.iter().find_map(|s| s.sync_failed_at)
    })
    .await;
    worker.stop().await;
    assert!(failed > 0);
    assert!(!synced(&env, &account).await, "nothing was synced");
    assert!(searchdeck_common::plan::prompts::data_issues(
        &states(&env).await,
        searchdeck_common::ids::now_ms()
    ));
}

searchdeck_common::per_backend!([sqlite] a_given_up_sync_is_recorded_on_the_connection);

/// A connection removed while its sync reads Apple's change history (the read held at the
/// sandbox until the connection is gone): the read's writes would miss their foreign keys,
/// and the sync ends quietly, done with 'Connection removed', rather than warn and go on
/// writing for a connection that no longer exists.
async fn a_connection_removed_during_its_change_history_read_ends_its_sync(kind: Kind) {
    let sandbox = Sandbox::new(SandboxConfig::default());
    let hold = sandbox.faults.hold("/change-history/query");
    let Some(Connected { env, account, .. }) = connected_to(kind, Arc::clone(&sandbox)).await
    else {
        return;
    };
    let worker = env.start_worker();
    start_sync(&env, &account).await;
    tokio::time::timeout(Duration::from_secs(300), hold.entered())
        .await
        .expect("the sync reads the change history");
    searchdeck_common::store::accounts::delete(&env.db.pool, &account)
        .await
        .unwrap();
    hold.release();
    env.queue_settled().await;
    worker.stop().await;
    // Done at its first attempt: no error, no retry finding the connection gone.
    let runs: Vec<i64> =
        sqlx::query_scalar("SELECT runs FROM job_runs WHERE kind = 'sync-account'")
            .fetch_all(&env.db.pool)
            .await
            .unwrap();
    assert_eq!(runs, [1], "{}", env.queue_dump().await);
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sync_orgs WHERE account_id = $1")
        .bind(&account)
        .fetch_one(&env.db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0, "nothing written for the removed connection");
}

searchdeck_common::per_backend!(
    [sqlite, postgres] a_connection_removed_during_its_change_history_read_ends_its_sync
);
