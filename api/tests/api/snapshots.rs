//! Response shapes pinned as insta snapshots (ids, emails and times redacted) where the
//! shape is the point: the signed-in user, the task list and the saved options. And the
//! `TestApp` guard: a test that leaves a failed job in the queue fails.

use std::time::Duration;

use crate::common::{TestApp, TestBackend};
use searchdeck_common::{queue::EnqueueOptions, store, tasks::NewTask};
use serde_json::json;

/// `/api/auth/me` of a fresh owner.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn me_response_shape() {
    let app = TestApp::new(TestBackend::Sqlite).await;
    let cookie = app.register(&app.email(), "long password").await;
    let me = app.get("/api/auth/me", Some(&cookie)).await;
    insta::assert_json_snapshot!(me.json, {
        ".result.item.id" => "[id]",
        ".result.item.workspaceId" => "[id]",
        ".result.item.email" => "[email]",
        ".result.item.createdAt" => "[time]",
    });
}

/// `/api/tasks` with one running task.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tasks_response_shape() {
    let app = TestApp::new(TestBackend::Sqlite).await;
    let cookie = app.register(&app.email(), "long password").await;
    let me = app.get("/api/auth/me", Some(&cookie)).await;
    let item = &me.json["result"]["item"];
    store::tasks::create(
        &app.state.db.pool,
        NewTask {
            workspace_id: item["workspaceId"].as_str().unwrap(),
            user_id: item["id"].as_str(),
            kind: "collect-keywords",
            message: "Collecting keywords",
            total_steps: 4,
            account_id: None,
            org_id: None,
        },
    )
    .await
    .unwrap();
    let tasks = app.get("/api/tasks", Some(&cookie)).await;
    insta::assert_json_snapshot!(tasks.json, {
        ".result.items[].id" => "[id]",
        ".result.items[].createdAt" => "[time]",
        ".result.items[].updatedAt" => "[time]",
    });
}

/// `PUT /api/options/front` answers every saved option.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn options_response_shape() {
    let app = TestApp::new(TestBackend::Sqlite).await;
    let cookie = app.register(&app.email(), "long password").await;
    let body = json!({"theme": "dark", "filterPresets": [{"name": "Top", "conditions": []}]});
    let saved = app
        .request(
            axum::http::Method::PUT,
            "/api/options/front",
            Some(body),
            Some(&cookie),
        )
        .await;
    insta::assert_json_snapshot!(saved.json);
}

/// The guard itself: a job that fails for good makes the test that left it fail.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[should_panic(expected = "failed job(s) in the queue")]
async fn a_test_leaving_a_failed_job_fails() {
    let app = TestApp::new(TestBackend::Sqlite).await;
    let unknown = json!({"id": "x", "kind": "no-such-kind", "payload": {}});
    app.state
        .queue
        .enqueue_raw(unknown, &EnqueueOptions::default())
        .await
        .unwrap();
    // Wait until the worker has failed it; the check runs when `app` is dropped.
    for _ in 0..100 {
        let killed: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM Jobs WHERE status = 'Killed'")
            .fetch_one(&app.state.db.pool)
            .await
            .unwrap();
        if killed > 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    unreachable!("the worker never failed the job");
}
