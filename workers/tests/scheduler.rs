//! The scheduler fires each period once however many schedulers run, and the clean-up it
//! schedules deletes exactly what has expired. On every backend (see `support`).

#[macro_use]
mod support;

use std::time::Duration;

use searchdeck_common::{
    ids,
    queue::{Enqueued, Job, TestJob},
};
use searchdeck_scheduler::{Periodic, period_start, tick};
use support::{Kind, TestEnv, eventually};

on_every_backend!(
    two_schedulers_fire_each_period_once,
    concurrent_ticks_enqueue_one_job_per_period,
    cleanup_deletes_what_has_expired,
);

fn every_two_seconds() -> Vec<Periodic> {
    vec![Periodic {
        name: "probe",
        every: Duration::from_secs(2),
        job: |start| {
            Job::Test(TestJob {
                key: format!("probe-{start}"),
                ..TestJob::default()
            })
        },
    }]
}

async fn concurrent_ticks_enqueue_one_job_per_period(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let entries = every_two_seconds();
    let now = ids::now_ms();
    let (a, b) = tokio::join!(
        tick(&env.queue, &entries, now),
        tick(&env.queue, &entries, now)
    );
    let new = [&a[0], &b[0]]
        .iter()
        .filter(|r| matches!(r.as_ref().unwrap(), Enqueued::New(_)))
        .count();
    assert_eq!(new, 1, "{a:?} {b:?}");
    // The same period later on is still a duplicate; the next period is new.
    let later = tick(
        &env.queue,
        &entries,
        period_start(entries[0].every, now) + 1999,
    )
    .await;
    assert_eq!(later[0].as_ref().unwrap(), &Enqueued::Duplicate);
    let next = tick(
        &env.queue,
        &entries,
        period_start(entries[0].every, now) + 2000,
    )
    .await;
    assert!(matches!(next[0].as_ref().unwrap(), Enqueued::New(_)));
}

async fn two_schedulers_fire_each_period_once(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let worker = env.start_worker();
    let mut stops = Vec::new();
    let mut handles = Vec::new();
    for _ in 0..2 {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let (config, db, queue) = (env.config.clone(), env.db.clone(), env.queue.clone());
        handles.push(tokio::spawn(async move {
            searchdeck_scheduler::run_with(
                &config,
                db,
                queue,
                every_two_seconds(),
                Duration::from_millis(100),
                async {
                    let _ = rx.await;
                },
            )
            .await
        }));
        stops.push(tx);
    }
    tokio::time::sleep(Duration::from_millis(5000)).await;
    for tx in stops {
        let _ = tx.send(());
    }
    for h in handles {
        h.await.unwrap().unwrap();
    }
    // Let the last period's job run.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let starts: Vec<(String, i64)> = sqlx::query_as(
        "SELECT key, COUNT(*) FROM test_job_runs WHERE key LIKE 'probe-%' GROUP BY key ORDER BY key",
    )
    .fetch_all(&env.db.pool)
    .await
    .unwrap();
    worker.stop().await;
    eprintln!("scheduled runs per period on {kind:?}: {starts:?}");
    assert!((2..=4).contains(&starts.len()), "{starts:?}");
    assert!(
        starts.iter().all(|(_, n)| *n == 1),
        "a period fired twice: {starts:?}"
    );
}

async fn cleanup_deletes_what_has_expired(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let db = &env.db;
    let now = ids::now_ms();
    let day = 24 * 3600 * 1000;
    let user = ids::new_id();
    sqlx::query("INSERT INTO users (id, email, password_hash, created_at, updated_at) VALUES ($1, $2, 'x', $3, $3)")
        .bind(&user)
        .bind(format!("{user}@example.com"))
        .bind(now)
        .execute(&db.pool)
        .await
        .unwrap();
    for (id, expires) in [("s-old", now - 1), ("s-live", now + day)] {
        sqlx::query(
            "INSERT INTO sessions (id, token_hash, user_id, workspace_id, created_at, last_seen_at, expires_at) \
             VALUES ($1, $1, $2, $3, $4, $4, $5)",
        )
        .bind(id)
        .bind(&user)
        .bind(&env.workspace_id)
        .bind(now - 2 * day)
        .bind(expires)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    // (id, expires_at, used_at): used long ago, expired long ago, used just now, still valid.
    let codes: [(&str, i64, Option<i64>); 4] = [
        ("c-used-old", now + day, Some(now - 2 * day)),
        ("c-expired-old", now - 2 * day, None),
        ("c-used-recent", now + day, Some(now - 1000)),
        ("c-live", now + 3_600_000, None),
    ];
    for (id, expires, used) in codes {
        sqlx::query(
            "INSERT INTO recovery_codes (id, user_id, code_hash, expires_at, used_at, created_at) VALUES ($1, $2, 'h', $3, $4, $5)",
        )
        .bind(id)
        .bind(&user)
        .bind(expires)
        .bind(used)
        .bind(now - 3 * day)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    let old_task = env.new_task().await;
    let recent_task = env.new_task().await;
    let running_task = env.new_task().await;
    searchdeck_common::store::tasks::finish(&db.pool, &old_task, "Done", None)
        .await
        .unwrap();
    searchdeck_common::store::tasks::finish(&db.pool, &recent_task, "Done", None)
        .await
        .unwrap();
    sqlx::query("UPDATE tasks SET finished_at = $2, created_at = $2 WHERE id = $1")
        .bind(&old_task)
        .bind(now - 31 * day)
        .execute(&db.pool)
        .await
        .unwrap();
    sqlx::query("UPDATE tasks SET created_at = $2 WHERE id = $1")
        .bind(&running_task)
        .bind(now - 60 * day)
        .execute(&db.pool)
        .await
        .unwrap();

    // Through the queue, as the scheduler does it.
    let worker = env.start_worker();
    let job = searchdeck_scheduler::schedule()[0].job;
    env.queue
        .enqueue(&job(period_start(Duration::from_secs(3600), now)))
        .await
        .unwrap();
    eventually(Duration::from_secs(10), "the clean-up to run", || async {
        let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions")
            .fetch_one(&db.pool)
            .await
            .unwrap();
        (left == 1).then_some(())
    })
    .await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    worker.stop().await;

    let ids_of = |sql: &'static str| async move {
        let ids: Vec<String> = sqlx::query_scalar(sql).fetch_all(&db.pool).await.unwrap();
        ids
    };
    assert_eq!(
        ids_of("SELECT id FROM sessions").await,
        vec!["s-live".to_string()]
    );
    let mut left_codes = ids_of("SELECT id FROM recovery_codes").await;
    left_codes.sort();
    assert_eq!(
        left_codes,
        vec!["c-live".to_string(), "c-used-recent".to_string()]
    );
    let left_tasks = ids_of("SELECT id FROM tasks").await;
    assert!(!left_tasks.contains(&old_task));
    assert!(left_tasks.contains(&recent_task) && left_tasks.contains(&running_task));
}
