//! Automated rules, goal optimisation and alerts through the real router, on SQLite and
//! PostgreSQL (docs/api/rules.md), over a connection whose synced campaign groups are written
//! straight into the database (no sandbox: these routes call no provider):
//!
//! - `crud`: the contract's example round trip (create, list, replace, delete), validation
//!   field errors, the plan limits, readers 403 and another workspace's rule 404.
//! - `attachments`: attach, detach, set, the rules of a campaign, toggle; campaigns of another
//!   campaign group refused; the campaigns report's `rules` and `optimizationTypes` columns.
//! - `alerts`: goal optimisation set, listed and turned off; alerts listed by campaign and
//!   dismissed; the Slack webhook set, masked and cleared.

mod alerts;
mod attachments;
mod crud;

use crate::common::{TestApp, TestResponse};
use axum::http::{Method, StatusCode};
use searchdeck_common::{ids::new_id, store};
use serde_json::{Value, json};

/// A workspace with a connection, its synced campaign group 4500123 (USD) holding campaigns
/// 1870001–1870003 and group 4500999 (JPY) holding campaign 1879001.
struct Fixture {
    cookie: String,
    workspace_id: String,
    account_id: String,
}

/// The campaigns of the fixture's first group.
const CAMPAIGNS: [i64; 3] = [1_870_001, 1_870_002, 1_870_003];
/// The campaign of the fixture's second group.
const OTHER_GROUP_CAMPAIGN: i64 = 1_879_001;

async fn fixture(app: &TestApp) -> Fixture {
    let cookie = app.register(&app.email(), "long password").await;
    let me = app.get("/api/auth/me", Some(&cookie)).await.json["result"]["item"].clone();
    let workspace_id = me["workspaceId"].as_str().unwrap().to_string();
    let pool = &app.state.db.pool;
    let id = new_id();
    let client = format!("SEARCHADS.{id}");
    let account_id = store::accounts::upsert(
        pool,
        store::accounts::NewAccount::without_credentials(
            &id,
            &workspace_id,
            me["id"].as_str().unwrap(),
            &client,
            1,
        ),
    )
    .await
    .unwrap();
    for (org, currency, campaigns) in [
        (4_500_123_i64, "USD", CAMPAIGNS.to_vec()),
        (4_500_999, "JPY", vec![OTHER_GROUP_CAMPAIGN]),
    ] {
        let row = store::accounts::OrgRow {
            org_id: org,
            display_name: format!("Group {org}"),
            currency: Some(currency.into()),
            time_zone: Some("UTC".into()),
            permission: "ADMIN".into(),
            selected: true,
        };
        store::accounts::upsert_org(pool, &account_id, &row, 1)
            .await
            .unwrap();
        let org_key =
            store::synced::ensure_org(pool, &account_id, org, Some(currency), Some("UTC"))
                .await
                .unwrap();
        for (i, c) in campaigns.into_iter().enumerate() {
            sqlx::query(
                "INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) \
                 VALUES ($1, $2, $3, 'ENABLED', 1)",
            )
            .bind(org_key)
            .bind(c)
            .bind(format!("Campaign {i}"))
            .execute(pool)
            .await
            .unwrap();
        }
    }
    Fixture {
        cookie,
        workspace_id,
        account_id,
    }
}

/// The contract's example rule (docs/api/rules.md "A rule") for the fixture's connection.
fn example(f: &Fixture) -> Value {
    json!({
      "id": "01J…", "version": 1, "name": "Pause keywords that spend without installs",
      "enabled": true, "accountId": f.account_id, "orgId": "4500123", "currency": "USD",
      "level": "KEYWORDS", "campaignIds": ["1870001", "1870002"],
      "conditions": {"operator": "AND", "groups": [
        {"operator": "AND", "conditions": [
          {"type": "metric", "metric": "localSpend", "operator": "GREATER_THAN", "value": "20"},
          {"type": "metric", "metric": "installs", "operator": "EQUALS", "value": "0"}
        ]},
        {"operator": "OR", "conditions": [
          {"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "cpaGoal", "coefficient": "1.5"},
          {"type": "status", "values": ["ACTIVE"]}
        ]}
      ]},
      "window": {"type": "last", "days": 7, "excludeToday": true},
      "frequency": {"type": "daily", "hour": 6},
      "actions": [{"type": "pause"}, {"type": "alert", "channels": ["EMAIL", "SLACK"], "emails": []}],
      "guardrails": {
        "minBid": "0.10", "maxBid": "5.00", "minBudget": null, "maxBudget": null,
        "maxChangePercent": "50", "maxEntities": 500, "maxChangeShare": 50,
        "minData": [{"metric": "taps", "value": "10"}]
      },
      "createdBy": "someone@else.com", "createdAt": 1, "updatedAt": 1,
      "lastRun": {"id": "x", "at": 1, "status": "DONE", "matched": 1, "applied": 1, "refused": 0, "skipped": 0}
    })
}

async fn put(app: &TestApp, path: &str, body: Value, cookie: &str) -> TestResponse {
    app.request(Method::PUT, path, Some(body), Some(cookie))
        .await
}

async fn delete(app: &TestApp, path: &str, body: Value, cookie: &str) -> TestResponse {
    app.request(Method::DELETE, path, Some(body), Some(cookie))
        .await
}

/// Creates `rule` and answers the stored rule.
async fn create(app: &TestApp, f: &Fixture, rule: Value) -> Value {
    let res = put(app, "/api/rules/user", rule, &f.cookie).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    res.json["result"]["item"].clone()
}

/// The fields of a 400's errors.
fn fields(res: &TestResponse) -> Vec<String> {
    assert_eq!(res.status, StatusCode::BAD_REQUEST, "{:?}", res.json);
    res.json["errors"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["field"].as_str().unwrap().to_string())
        .collect()
}
