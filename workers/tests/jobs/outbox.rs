//! The outbox: a task created while the queue is unavailable is not lost or left running
//! forever (its job reaches the queue once it is back), and a relay that re-sends a row
//! after a crash does not run the job twice. The store fails and recovers: on the SQL
//! stores its job table is renamed away and back, on Redis the connection goes through a
//! proxy that is cut and restored.

use std::{
    sync::{
        Arc,
        atomic::{AtomicBool, Ordering},
    },
    time::Duration,
};

use searchdeck_common::{
    jobs::TestJob,
    queue::{
        Queue, Store,
        outbox::{self, OutboxOptions},
        testing,
    },
    tasks::{self, NewTask},
    test_support::backend_url,
};

use crate::support::{Kind, TestEnv, eventually};

searchdeck_common::per_backend!([sqlite, postgres, redis]
    a_task_created_while_the_queue_is_down_runs_once_it_is_back,
);
searchdeck_common::per_backend!([sqlite, postgres] a_relay_that_resends_a_row_runs_its_job_once);

/// A TCP proxy to Redis that can be cut (connections dropped, new ones refused) and
/// restored, standing for a Redis server that goes away and comes back.
struct Proxy {
    url: String,
    up: Arc<AtomicBool>,
    cut: Arc<tokio::sync::Notify>,
}

impl Proxy {
    async fn to(redis_url: &str) -> Proxy {
        let target = redis_url
            .trim_start_matches("redis://")
            .trim_end_matches('/')
            .to_string();
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("redis://{}", listener.local_addr().unwrap());
        let up = Arc::new(AtomicBool::new(true));
        let cut = Arc::new(tokio::sync::Notify::new());
        let (up2, cut2) = (up.clone(), cut.clone());
        tokio::spawn(async move {
            while let Ok((mut client, _)) = listener.accept().await {
                if !up2.load(Ordering::SeqCst) {
                    continue; // dropped: the connection is refused in effect
                }
                let (target, cut) = (target.clone(), cut2.clone());
                tokio::spawn(async move {
                    let mut server = tokio::net::TcpStream::connect(target).await.unwrap();
                    tokio::select! {
                        _ = tokio::io::copy_bidirectional(&mut client, &mut server) => {}
                        () = cut.notified() => {}
                    }
                });
            }
        });
        Proxy { url, up, cut }
    }

    fn set_up(&self, up: bool) {
        self.up.store(up, Ordering::SeqCst);
        if !up {
            self.cut.notify_waiters();
        }
    }
}

/// Renames the store's job table away (`down`) or back, so enqueues fail in between (the
/// SQL stores; Redis goes down through its [`Proxy`]).
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
        Store::Redis { .. } => {}
    }
}

async fn a_task_created_while_the_queue_is_down_runs_once_it_is_back(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    // On Redis the relay's queue reaches the server through a proxy that is cut.
    let proxy = match kind {
        Kind::Redis => Some(Proxy::to(&backend_url("TEST_REDIS_URL").unwrap()).await),
        _ => None,
    };
    let relay_queue = match &proxy {
        Some(p) => Queue::connect_with(&p.url, env.settings.clone())
            .await
            .unwrap(),
        None => env.queue.clone(),
    };
    queue_down(&env, true).await;
    if let Some(p) = &proxy {
        p.set_up(false);
    }
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
        account_id: None,
        org_id: None,
    };
    let task = tasks::create_with_job(&env.db, task, &job).await.unwrap();
    // The enqueue fails; the job waits in the outbox instead of being lost.
    assert!(outbox::relay_once(&env.db, &relay_queue, 10).await.is_err());
    assert_eq!(outbox::pending(&env.db).await.unwrap(), 1);
    assert!(!env.task_state(&task).await.0);
    queue_down(&env, false).await;
    if let Some(p) = &proxy {
        // Back up: the relay's own connection recovers and hands the job over.
        p.set_up(true);
        eventually(
            Duration::from_secs(10),
            "the relay to reach Redis again",
            || async {
                outbox::relay_once(&env.db, &relay_queue, 10)
                    .await
                    .ok()
                    .filter(|n| *n == 1)
            },
        )
        .await;
    }
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
    // A second copy in the queue would run before the queue settles.
    env.queue_settled().await;
    worker.stop().await;
    let runs = testing::runs(&env.db, "outbox-twice").await.unwrap();
    assert_eq!(runs.len(), 1, "{runs:?}");
}
