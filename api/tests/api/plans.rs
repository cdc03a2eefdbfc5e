//! Plans and trials through the real router (docs/api/plans.md), on SQLite and PostgreSQL:
//! the Pro trial started once per workspace by an owner or admin (`pay/giveMeTrial`), its
//! refusals, the purchases list (`purchase/all`), who may call them.

use crate::common::{TestApp, TestBackend};
use axum::http::StatusCode;
use searchdeck_api::session::Role;
use searchdeck_common::{
    ids::{new_id, now_ms},
    plan::derive::{DAY_MS, PRO_TRIAL_MS, Purchase},
    store,
};
use serde_json::Value;

const TRIAL: &str = "/api/pay/giveMeTrial";
const PURCHASES: &str = "/api/purchase/all";

async fn workspace_of(app: &TestApp, token: &str) -> String {
    app.get("/api/auth/me", Some(token)).await.json["result"]["item"]["workspaceId"]
        .as_str()
        .unwrap()
        .to_string()
}

fn purchases(json: &Value) -> Vec<Value> {
    json["result"]["items"].as_array().unwrap().clone()
}

backend_tests! {
    async fn plans_an_owner_starts_the_pro_trial_once(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let res = app.get(PURCHASES, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert!(purchases(&res.json).is_empty());

        let before = now_ms();
        let res = app.get(TRIAL, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.message(), "Congratulations! Your 14-day Pro Plan trial has begun");
        let result = &res.json["result"];
        assert_eq!((result["status"].as_str(), result["plan"].as_str()), (Some("ok"), Some("pro_trial")));
        let p = &result["purchase"];
        assert_eq!((p["name"].as_str(), p["trial"].as_bool(), p["full"].as_bool(), p["free"].as_bool()), (Some("pro"), Some(true), Some(false), Some(false)));
        assert_eq!((p["usedTrial"].as_bool(), p["usedPreTrial"].as_bool(), p["usedGrowthTrial"].as_bool()), (Some(true), Some(false), Some(false)));
        let (start, end) = (p["startedAt"].as_i64().unwrap(), p["offAccountTime"].as_i64().unwrap());
        assert!(start >= before && start <= now_ms());
        assert_eq!(end - start, 14 * 24 * 3_600_000, "14 days, no card");

        let list = purchases(&app.get(PURCHASES, Some(&owner)).await.json);
        assert_eq!(list.len(), 1);
        assert_eq!(list[0]["id"], p["id"]);

        // During the trial the plan already includes Pro.
        let res = app.get(TRIAL, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{:?}", res.json);
        assert_eq!(res.message(), "Your plan already includes Pro");

        // After it ended the workspace is free again, and the trial cannot be had twice.
        sqlx::query("UPDATE purchases SET started_at = started_at - $1, off_account_time = off_account_time - $1")
            .bind(PRO_TRIAL_MS + DAY_MS)
            .execute(&app.state.db.pool)
            .await
            .unwrap();
        let res = app.get(TRIAL, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{:?}", res.json);
        assert_eq!(res.message(), "The Pro trial has already been used");
        assert_eq!(purchases(&app.get(PURCHASES, Some(&owner)).await.json).len(), 1);
    }

    async fn plans_a_paid_plan_refuses_the_trial_and_lists_newest_first(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let ws = workspace_of(&app, &owner).await;
        let now = now_ms();
        let growth = Purchase {
            id: new_id(),
            name: "growth".into(),
            free: false,
            trial: false,
            full: true,
            organization: true,
            trial_kind: None,
            suggester: true,
            payment_failed: false,
            started_at: now - DAY_MS,
            off_account_time: Some(now + 30 * DAY_MS),
        };
        let old = Purchase { id: new_id(), name: "pro".into(), organization: false, started_at: now - 90 * DAY_MS, off_account_time: Some(now - 60 * DAY_MS), ..growth.clone() };
        store::purchases::insert(&app.state.db.pool, &ws, &old, now).await.unwrap();
        store::purchases::insert(&app.state.db.pool, &ws, &growth, now).await.unwrap();
        let res = app.get(TRIAL, Some(&owner)).await;
        assert_eq!(res.status, StatusCode::CONFLICT, "{:?}", res.json);
        assert_eq!(res.message(), "Your plan already includes Pro");
        let ids: Vec<String> = purchases(&app.get(PURCHASES, Some(&owner)).await.json).iter().map(|p| p["id"].as_str().unwrap().to_string()).collect();
        assert_eq!(ids, [growth.id.clone(), old.id.clone()]);
        let first = &purchases(&app.get(PURCHASES, Some(&owner)).await.json)[0];
        assert_eq!((first["organization"].as_bool(), first["full"].as_bool(), first["usedTrial"].as_bool()), (Some(true), Some(true), Some(false)));

        // Another workspace sees none of them.
        let other = app.register(&app.email(), "long password").await;
        assert!(purchases(&app.get(PURCHASES, Some(&other)).await.json).is_empty());
    }

    async fn plans_only_owners_and_admins_start_trials_or_read_purchases(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        for role in [Role::Writer, Role::Reader] {
            let member = app.member(&owner, role).await;
            for path in [TRIAL, PURCHASES] {
                let res = app.get(path, Some(&member)).await;
                assert_eq!(res.status, StatusCode::FORBIDDEN, "{role:?} {path}");
            }
        }
        assert_eq!(app.get(TRIAL, None).await.status, StatusCode::UNAUTHORIZED);
        assert!(purchases(&app.get(PURCHASES, Some(&owner)).await.json).is_empty(), "nothing started");
        let admin = app.member(&owner, Role::Admin).await;
        let res = app.get(TRIAL, Some(&admin)).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(purchases(&app.get(PURCHASES, Some(&owner)).await.json).len(), 1, "the workspace's trial");
    }

    async fn plans_two_racing_starts_give_one_trial(app: TestApp) {
        let owner = app.register(&app.email(), "long password").await;
        let admin = app.member(&owner, Role::Admin).await;
        let (a, b) = tokio::join!(app.get(TRIAL, Some(&owner)), app.get(TRIAL, Some(&admin)));
        let mut statuses = [a.status, b.status];
        statuses.sort();
        assert_eq!(statuses, [StatusCode::OK, StatusCode::CONFLICT], "{:?} {:?}", a.json, b.json);
        assert_eq!(purchases(&app.get(PURCHASES, Some(&owner)).await.json).len(), 1);
    }
}
