//! The outbox: a task created while the queue is unavailable is not lost or left running
//! forever (its job reaches the queue once it is back), and a relay that re-sends a row
//! after a crash does not run the job twice. On the SQL stores, where the test can make
//! the store fail and recover.

use std::time::Duration;

use searchdeck_common::{
    jobs::TestJob,
    queue::{
        Store,
        outbox::{self, OutboxOptions},
        testing,
    },
    tasks::{self, NewTask},
};

use crate::support::{Kind, TestEnv, eventually};

searchdeck_common::per_backend!([sqlite, postgres]
    a_task_created_while_the_queue_is_down_runs_once_it_is_back,
    a_relay_that_resends_a_row_runs_its_job_once,
);

/// Renames the store's job table away (`down`) or back, so enqueues fail in between.
async fn queue_down(env: &TestEnv, down: bool) {
    let (from, to) = if down {
        ("jobs", "jobs_away")
    } else {
        ("jobs_away", "jobs")
    };
    match env.queue.store() {
        Store::Sqlite(pool) => {
            let sql = format!("ALTER TABLE {from} RENAME TO {to}");
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(pool)
                .await
                .unwrap();
        }
        Store::Postgres(pool) => {
            let sql = format!("ALTER TABLE apalis.{from} RENAME TO {to}");
            sqlx::query(sqlx::AssertSqlSafe(sql))
                .execute(pool)
                .await
                .unwrap();
        }
        Store::Redis { .. } => unreachable!("SQL stores only"),
    }
}

async fn a_task_created_while_the_queue_is_down_runs_once_it_is_back(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    queue_down(&env, true).await;
    let job = TestJob {
        key: "outbox-down".into(),
        ..TestJob::default()
    };
    let task = NewTask {
        workspace_id: &env.workspace_id,
        user_id: None,
        kind: "test",
        message: "Queued",
        total_steps: 2,
    };
    let task = tasks::create_with_job(&env.db, task, &job).await.unwrap();
    // The enqueue fails; the job waits in the outbox instead of being lost.
    assert!(outbox::relay_once(&env.db, &env.queue, 10).await.is_err());
    assert_eq!(outbox::pending(&env.db).await.unwrap(), 1);
    assert!(!env.task_state(&task).await.0);
    queue_down(&env, false).await;
    // The worker's relay loop hands it over once the queue is back.
    let worker = env.start_worker();
    let (finish, error, attempts) =
        eventually(Duration::from_secs(10), "the task to finish", || async {
            let state = env.task_state(&task).await;
            state.0.then_some(state)
        })
        .await;
    worker.stop().await;
    assert!(finish);
    assert_eq!((error, attempts), (None, 1));
    assert_eq!(outbox::pending(&env.db).await.unwrap(), 0);
    assert_eq!(testing::effects(&env.db, "outbox-down").await.unwrap(), 1);
}

async fn a_relay_that_resends_a_row_runs_its_job_once(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let job = TestJob {
        key: "outbox-twice".into(),
        ..TestJob::default()
    };
    let id = outbox::push(&env.db.pool, &job, OutboxOptions::default())
        .await
        .unwrap();
    let row: (String, String, i64, i64) = sqlx::query_as(
        "SELECT kind, payload, run_after_ms, created_at FROM job_outbox WHERE id = $1",
    )
    .bind(&id)
    .fetch_one(&env.db.pool)
    .await
    .unwrap();
    assert_eq!(
        outbox::relay_once(&env.db, &env.queue, 10).await.unwrap(),
        1
    );
    // A relay that crashed after enqueueing but before deleting the row sends it again.
    sqlx::query(
        "INSERT INTO job_outbox (id, kind, payload, run_after_ms, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(&id)
    .bind(&row.0)
    .bind(&row.1)
    .bind(row.2)
    .bind(row.3)
    .execute(&env.db.pool)
    .await
    .unwrap();
    assert_eq!(
        outbox::relay_once(&env.db, &env.queue, 10).await.unwrap(),
        1
    );
    assert_eq!(outbox::pending(&env.db).await.unwrap(), 0);
    let worker = env.start_worker();
    eventually(Duration::from_secs(10), "the job's effect", || async {
        (testing::effects(&env.db, "outbox-twice").await.unwrap() == 1).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(1000)).await;
    worker.stop().await;
    let runs = testing::runs(&env.db, "outbox-twice").await.unwrap();
    assert_eq!(runs.len(), 1, "{runs:?}");
}
