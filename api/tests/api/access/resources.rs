//! One fixture per workspace resource kind (`x-resource`): a record of the kind made in a
//! workspace, whose id the scoping test then asks for from that workspace and from another.
//! A new resource kind needs its fixture here.

use searchdeck_api::session::Role;
use searchdeck_common::{store, tasks::NewTask};
use serde_json::json;

use crate::common::TestApp;

/// Creates a resource of `kind` in the workspace of `token`'s user and returns its id.
pub async fn resource_in_workspace(app: &TestApp, kind: &str, token: &str) -> String {
    let me = app.get("/api/auth/me", Some(token)).await.json["result"]["item"].clone();
    let workspace_id = me["workspaceId"].as_str().unwrap();
    match kind {
        "task" => store::tasks::create(
            &app.state.db.pool,
            NewTask {
                workspace_id,
                user_id: me["id"].as_str(),
                kind: "sync-account",
                message: "Starting",
                total_steps: 1,
                account_id: None,
                org_id: None,
            },
        )
        .await
        .unwrap(),
        "account" => {
            let (workspace_id, id) = (workspace_id.to_string(), searchdeck_common::ids::new_id());
            let sealed = app.state.secrets.seal(
                &format!("account:{workspace_id}:1:refresh_token"),
                b"refresh",
            );
            store::accounts::upsert(
                &app.state.db.pool,
                store::accounts::NewAccount {
                    name: "Fixture",
                    method: "oauth",
                    refresh_token_sealed: Some(&sealed),
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
            .unwrap()
        }
        "tag" => {
            let id = searchdeck_common::ids::new_id();
            store::tags::create(
                &app.state.db.pool,
                store::tags::NewTag {
                    id: &id,
                    workspace_id,
                    kind: "CAMPAIGNS",
                    name: &format!("Fixture {id}"),
                    color: "Green",
                    now: 1,
                },
            )
            .await
            .unwrap();
            id
        }
        "column-preset" => {
            let id = searchdeck_common::ids::new_id();
            let fields = vec!["keyword".to_string()];
            store::presets::insert(
                &app.state.db.pool,
                store::presets::NewPreset {
                    id: &id,
                    workspace_id,
                    user_id: me["id"].as_str().unwrap(),
                    kind: "KEYWORDS",
                    name: &id,
                    fields: &fields,
                    now: 1,
                },
            )
            .await
            .unwrap();
            id
        }
        "campaign" => {
            // A synced campaign 4242 with an ad group 4242 (so `asa/groups/{a}/{b}` finds
            // both with one id) in campaign group 100 of the workspace's connection.
            let account = Box::pin(resource_in_workspace(app, "account", token)).await;
            let pool = &app.state.db.pool;
            sqlx::query("INSERT INTO sync_orgs (account_id, org_id) VALUES ($1, 100) ON CONFLICT (account_id, org_id) DO NOTHING")
                .bind(&account).execute(pool).await.unwrap();
            let org_key: i64 = sqlx::query_scalar(
                "SELECT org_key FROM sync_orgs WHERE account_id = $1 AND org_id = 100",
            )
            .bind(&account)
            .fetch_one(pool)
            .await
            .unwrap();
            sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) VALUES ($1, 4242, 'Fixture', 'ENABLED', 1) ON CONFLICT (org_key, id) DO NOTHING")
                .bind(org_key).execute(pool).await.unwrap();
            sqlx::query("INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, 4242, 4242, 'Fixture', 'ENABLED', 1) ON CONFLICT (org_key, id) DO NOTHING")
                .bind(org_key).execute(pool).await.unwrap();
            "4242".to_string()
        }
        "competitor" => {
            // App `n` with competitor `n` (so `suggester/competitors/{a}/{b}` finds both
            // with one id) saved in the workspace's competitor store.
            let n = fresh_app_id();
            store::competitors::save(
                &app.state.db.pool,
                workspace_id,
                &store::competitors::Competitor {
                    adam_id: n,
                    competitor_id: n,
                    name: "Fixture".into(),
                    developer: None,
                    icon: None,
                    genre: None,
                },
                1,
            )
            .await
            .unwrap();
            n.to_string()
        }
        "negative-list" => {
            let id = searchdeck_common::ids::new_id();
            store::negative_lists::create(
                &app.state.db.pool,
                &id,
                workspace_id,
                &format!("Fixture {id}"),
                1,
            )
            .await
            .unwrap();
            id
        }
        "ad-group" => {
            // The campaign fixture's ad group 4242.
            Box::pin(resource_in_workspace(app, "campaign", token)).await
        }
        "product-page" => {
            // Product page "4242" synced in the campaign fixture's campaign group.
            Box::pin(resource_in_workspace(app, "campaign", token)).await;
            let pool = &app.state.db.pool;
            let org_key: i64 = sqlx::query_scalar(
                "SELECT o.org_key FROM sync_orgs o JOIN accounts a ON a.id = o.account_id \
                 WHERE a.workspace_id = $1 AND o.org_id = 100 ORDER BY o.org_key DESC LIMIT 1",
            )
            .bind(workspace_id)
            .fetch_one(pool)
            .await
            .unwrap();
            sqlx::query("INSERT INTO asa_product_pages (org_key, id, adam_id, name, synced_at) VALUES ($1, '4242', 4242, 'Fixture', 1) ON CONFLICT (org_key, id) DO NOTHING")
                .bind(org_key).execute(pool).await.unwrap();
            "4242".to_string()
        }
        "rule" => {
            // A rule acting in the campaign fixture's campaign group 100.
            Box::pin(resource_in_workspace(app, "campaign", token)).await;
            let pool = &app.state.db.pool;
            let account_id: String = sqlx::query_scalar(
                "SELECT o.account_id FROM sync_orgs o JOIN accounts a ON a.id = o.account_id \
                 WHERE a.workspace_id = $1 AND o.org_id = 100 ORDER BY o.org_key DESC LIMIT 1",
            )
            .bind(workspace_id)
            .fetch_one(pool)
            .await
            .unwrap();
            let mut rule: searchdeck_common::rules::Rule = serde_json::from_value(json!({
                "name": "Fixture", "accountId": account_id, "orgId": "100", "level": "CAMPAIGNS",
                "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
                    {"type": "metric", "metric": "taps", "operator": "GREATER_THAN", "value": "1"}]}]},
                "window": {"type": "last", "days": 7}, "frequency": {"type": "hourly"},
                "actions": [{"type": "pause"}]
            }))
            .unwrap();
            rule.id = searchdeck_common::ids::new_id();
            store::rules::insert(pool, workspace_id, None, &rule, 100)
                .await
                .unwrap();
            rule.id
        }
        "notification" => {
            // A notification of the activity log without changes (its undo is a 400).
            let mut conn = app.state.db.pool.acquire().await.unwrap();
            let n = store::activity::notifications::NewNotification {
                workspace_id: workspace_id.to_string(),
                key: format!("edit:{}", searchdeck_common::ids::new_id()),
                tag: store::activity::notifications::TAG_MANUAL,
                kind: store::activity::notifications::TYPE_CHANGE,
                title: "Fixture".into(),
                action: "UPDATE".into(),
                target: "KEYWORD".into(),
                source: store::activity::notifications::SOURCE_USER,
                source_name: "Fixture".into(),
                user_id: None,
                email: None,
                rule_id: None,
                account_id: None,
                org_id: None,
                undo_of: None,
                created_at: searchdeck_common::ids::now_ms() / 1000,
            };
            store::activity::notifications::record(&mut conn, &n)
                .await
                .unwrap()
        }
        "rule_run" => {
            // A finished run of the rule fixture that changed one keyword.
            let rule = Box::pin(resource_in_workspace(app, "rule", token)).await;
            let account: String = sqlx::query_scalar("SELECT account_id FROM rules WHERE id = $1")
                .bind(&rule)
                .fetch_one(&app.state.db.pool)
                .await
                .unwrap();
            let id = searchdeck_common::ids::new_id();
            store::rule_runs::insert_run(
                &app.state.db.pool,
                &store::rule_runs::RunRow {
                    id: id.clone(),
                    workspace_id: workspace_id.to_string(),
                    rule_key: rule.clone(),
                    rule_id: Some(rule.clone()),
                    account_id: account,
                    org_id: 100,
                    source: "auto_rules".into(),
                    rule_name: "Fixture".into(),
                    body: "{}".into(),
                    currency: Some("USD".into()),
                    trigger: "MANUAL".into(),
                    period: format!("manual:{id}"),
                    status: "DONE".into(),
                    reason: None,
                    window_start: None,
                    window_end: None,
                    newest_complete_day: None,
                    cohorts: None,
                    matched: 1,
                    applied: 1,
                    refused: 0,
                    skipped: 0,
                    undo_of: None,
                    undone_by: None,
                    user_id: None,
                    user_email: None,
                    created_at: 1,
                    started_at: 1,
                    finished_at: Some(1),
                },
            )
            .await
            .unwrap();
            id
        }
        "team-member" | "team-entry" => {
            // A reader of the workspace, addressed by their user id (docs/api/team.md).
            let member = app.member(token, Role::Reader).await;
            app.get("/api/auth/me", Some(&member)).await.json["result"]["item"]["id"]
                .as_str()
                .unwrap()
                .to_string()
        }
        "app_store_connection" => {
            // A connected App Store Connect key (its sealed key never opened here).
            let id = searchdeck_common::ids::new_id();
            store::app_store_connect::upsert(
                &app.state.db.pool,
                &store::app_store_connect::NewConnection {
                    id: &id,
                    workspace_id,
                    issuer_id: "57246542-96fe-1a63-e053-0824d011072a",
                    key_id: "2X9R4HXF34",
                    vendor_number: "80012345",
                    private_key_sealed: "sealed",
                    name: "2X9R4HXF34",
                    apps: "[]",
                    created_by: me["id"].as_str().unwrap(),
                },
                1,
            )
            .await
            .unwrap()
        }
        other => panic!("no fixture for resource kind {other:?}: add one here"),
    }
}

/// An App Store id no other fixture used.
pub fn fresh_app_id() -> i64 {
    static NEXT: std::sync::atomic::AtomicI64 = std::sync::atomic::AtomicI64::new(0);
    searchdeck_common::ids::now_ms() * 1000
        + NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed) % 1000
}
