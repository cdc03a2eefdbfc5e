//! Benchmarks through the real router on SQLite and PostgreSQL (docs/api/benchmarks.md):
//! the workspace's apps; cost-per-install, cost-per-event and ROAS targets set, read back
//! and cleared; every PATCH all or nothing (one bad item: 400 naming `items.N.field`,
//! nothing stored); roles (readers read, get 403 on every write); workspace scope; and the
//! published reference figures beside the targets.

mod targets;
mod writes;

use crate::common::TestApp;
use searchdeck_common::store;
use serde_json::Value;

/// The app the fixture's campaign group lists.
pub const APP: i64 = 900_001;
/// An app of the same campaign group's campaign only (no synced app row).
pub const CAMPAIGN_APP: i64 = 900_002;

/// Gives the workspace of `cookie` a connection whose campaign group (in `currency`) lists
/// [`APP`] and advertises [`CAMPAIGN_APP`] in a campaign, and the event names `trial_started`
/// (for [`APP`]) and `af_purchase` (no app) as a provider sent them.
pub async fn seed(app: &TestApp, cookie: &str, currency: &str) {
    let me = app.get("/api/auth/me", Some(cookie)).await.json["result"]["item"].clone();
    let workspace_id = me["workspaceId"].as_str().unwrap().to_string();
    let id = searchdeck_common::ids::new_id();
    let pool = &app.state.db.pool;
    store::accounts::upsert(
        pool,
        store::accounts::NewAccount {
            name: "Fixture",
            method: "oauth",
            ..store::accounts::NewAccount::without_credentials(
                &id,
                &workspace_id,
                me["id"].as_str().unwrap(),
                "SEARCHADS.fixture",
                1,
            )
        },
    )
    .await
    .unwrap();
    sqlx::query("INSERT INTO sync_orgs (account_id, org_id, currency) VALUES ($1, 100, $2)")
        .bind(&id)
        .bind(currency)
        .execute(pool)
        .await
        .unwrap();
    let org_key: i64 = sqlx::query_scalar("SELECT org_key FROM sync_orgs WHERE account_id = $1")
        .bind(&id)
        .fetch_one(pool)
        .await
        .unwrap();
    sqlx::query("INSERT INTO asa_apps (org_key, adam_id, app_name, developer_name, synced_at) VALUES ($1, $2, 'Fixture App', 'Fixture Dev', 1)")
        .bind(org_key).bind(APP).execute(pool).await.unwrap();
    sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, adam_id, status, synced_at) VALUES ($1, 4242, 'Fixture', $2, 'ENABLED', 1)")
        .bind(org_key).bind(CAMPAIGN_APP).execute(pool).await.unwrap();
    for (adam_id, name) in [(APP, "trial_started"), (0, "af_purchase")] {
        let seen = store::attribution::names::EventName {
            provider: "appsflyer".into(),
            adam_id,
            event_name: name.into(),
            counts: store::attribution::names::Counts {
                trial: false,
                purchase: false,
                revenue: false,
            },
            events: 1,
            first_seen_at: 1,
            last_seen_at: 1,
        };
        store::attribution::names::seen(pool, &workspace_id, &seen)
            .await
            .unwrap();
    }
}

/// The stored targets (every kind, every workspace).
pub async fn stored(app: &TestApp) -> i64 {
    sqlx::query_scalar("SELECT COUNT(*) FROM benchmarks")
        .fetch_one(&app.state.db.pool)
        .await
        .unwrap()
}

/// `result.items` of an answer.
pub fn items(json: &Value) -> Vec<Value> {
    json["result"]["items"]
        .as_array()
        .cloned()
        .unwrap_or_default()
}
