//! Sync now (`POST /api/account/sync/{id}`): it joins the sync already running, answers 429
//! with when to try again right after a sync stored its data, starts a sync of its own
//! later, and is another workspace's 404.

use axum::http::{Method, StatusCode};
use serde_json::json;

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

sandbox_tests! {
    async fn sync_now_joins_a_running_sync_and_is_paced(t: Connected) {
        let owner = t.owner().await;
        let ids = t.registered_key(&owner).await;
        let res = t.create(&owner, "Sync now", &ids).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let account_id = res.json["result"]["item"]["_id"].as_str().unwrap().to_string();
        let next = res.json["result"]["item"]["nextSyncAt"].as_str().unwrap().to_string();
        assert!(next.ends_with(":00:00Z") || next.ends_with(":00:00.000Z"), "on a 3-hour boundary: {next}");
        // The first sync runs: Sync now joins its task, twice at once too.
        let path = format!("/api/account/sync/{account_id}");
        let first_task: String = sqlx::query_scalar("SELECT id FROM tasks WHERE kind = 'sync-account' AND account_id = $1")
            .bind(&account_id).fetch_one(&t.app.state.db.pool).await.unwrap();
        let (a, b) = tokio::join!(t.call(Method::POST, &path, json!({}), &owner), t.call(Method::POST, &path, json!({}), &owner));
        for res in [&a, &b] {
            assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
            assert_eq!(res.json["result"], json!({"id": first_task, "joined": true}), "{:?}", res.json);
        }
        t.task_finished(&owner, &first_task).await;
        // A connection whose last sync stored its data moments ago (as its reports sync does
        // when it ends) answers 429 with when to try again.
        sqlx::query("UPDATE accounts SET last_synced_at = $2 WHERE id = $1")
            .bind(&account_id).bind(searchdeck_common::ids::now_ms() - 10_000).execute(&t.app.state.db.pool).await.unwrap();
        let res = t.call(Method::POST, &path, json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::TOO_MANY_REQUESTS, "{:?}", res.json);
        assert!(res.json["message"].as_str().unwrap().starts_with("This account was synced moments ago. Try again in "), "{:?}", res.json);
        // Later, a new sync with its own task, which the caller sees run and finish.
        sqlx::query("UPDATE accounts SET last_synced_at = last_synced_at - 600000 WHERE id = $1")
            .bind(&account_id).execute(&t.app.state.db.pool).await.unwrap();
        let res = t.call(Method::POST, &path, json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["joined"], false);
        let id = res.json["result"]["id"].as_str().unwrap().to_string();
        assert_ne!(id, first_task);
        let task = t.task_finished(&owner, &id).await;
        assert!(task["error"].is_null(), "{task}");
        // Another workspace's connection: 404.
        let stranger = t.owner().await;
        assert_eq!(t.call(Method::POST, &path, json!({}), &stranger).await.status, StatusCode::NOT_FOUND);
    }
}
