//! Queue semantics on every backend: enqueue-to-start latency, retries with backoff and a
//! cap, rate-limit snoozes, permanent failures, recovery after SIGKILL, graceful SIGTERM,
//! unique worker names and uniqueness keys.
//!
//! SQLite always runs; PostgreSQL and Redis run with `TEST_DATABASE_URL` /
//! `TEST_REDIS_URL` (and must, under `CI=true`).

use std::time::{Duration, Instant};

use crate::support::{Kind, TestEnv, eventually, signal};
use searchdeck_common::{
    ids,
    jobs::TestJob,
    queue::{EnqueueOptions, Enqueued, testing},
};

searchdeck_common::per_backend!([sqlite, postgres, redis]

    enqueue_to_start_is_under_a_second,
    failing_jobs_retry_with_growing_delays_and_stop_at_the_cap,
    rate_limited_jobs_snooze_without_spending_attempts,
    a_busy_database_spends_no_attempt,
    unknown_kinds_and_bad_payloads_fail_permanently,
    uniqueness_keys_enqueue_once,
    worker_names_are_unique_per_process,
    a_job_killed_with_its_worker_runs_again_and_takes_effect_once,
    sigterm_lets_running_jobs_finish,
    sigterm_releases_jobs_that_outlast_the_grace_period,
);

fn test_job(key: &str) -> TestJob {
    TestJob {
        key: key.into(),
        ..TestJob::default()
    }
}

async fn enqueue(env: &TestEnv, job: TestJob, task_id: Option<String>) -> String {
    let options = EnqueueOptions {
        task_id,
        ..Default::default()
    };
    match env.queue.enqueue_with(&job, options).await.unwrap() {
        Enqueued::New(id) => id,
        Enqueued::Duplicate => panic!("unexpected duplicate"),
    }
}

async fn wait_runs(env: &TestEnv, key: &str, n: usize, limit: Duration) -> Vec<testing::TestRun> {
    eventually(limit, &format!("{n} runs of {key}"), || async {
        let runs = testing::runs(&env.db, key).await.unwrap();
        (runs.len() >= n).then_some(runs)
    })
    .await
}

async fn wait_finished(env: &TestEnv, task: &str, limit: Duration) -> (bool, Option<String>, i64) {
    eventually(limit, "the task to finish", || async {
        let state = env.task_state(task).await;
        state.0.then_some(state)
    })
    .await
}

async fn enqueue_to_start_is_under_a_second(kind: Kind) {
    // Production's heartbeat (5 s), longer than the bound: an idle worker that looked for
    // jobs only on its heartbeat (apalis' own interval strategy) would miss it.
    let Some(env) = TestEnv::with_settings(kind, |s| {
        s.heartbeat_interval =
            searchdeck_common::queue::QueueSettings::default().heartbeat_interval;
    })
    .await
    else {
        return;
    };
    let worker = env.start_worker();
    let mut latencies = Vec::new();
    for i in 0..3 {
        // Let the worker go idle first (several poll intervals, under a heartbeat): the case
        // apalis' default polling gets wrong.
        tokio::time::sleep(Duration::from_millis(1500)).await;
        let key = format!("latency-{i}");
        let enqueued_ms = ids::now_ms();
        enqueue(&env, test_job(&key), None).await;
        let runs = wait_runs(&env, &key, 1, Duration::from_secs(5)).await;
        latencies.push(runs[0].started_ms - enqueued_ms);
    }
    worker.stop().await;
    eprintln!("enqueue-to-start latency on {kind:?} (idle queue, ms): {latencies:?}");
    println!("LATENCY {kind:?} {latencies:?}");
    assert!(
        latencies.iter().all(|ms| *ms < 1000),
        "enqueue-to-start over 1 s: {latencies:?}"
    );
}

async fn failing_jobs_retry_with_growing_delays_and_stop_at_the_cap(kind: Kind) {
    // Retry base 1 s, cap 2 s, 4 attempts: delays ≈ 0.5–1 s, 1–2 s, then capped at 1–2 s.
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let worker = env.start_worker();
    let task = env.new_task().await;
    let job = TestJob {
        fail_runs: 100,
        max_attempts: Some(4),
        ..test_job("flaky")
    };
    let queued = enqueue(&env, job, Some(task.clone())).await;
    let (finish, error, attempts) = wait_finished(&env, &task, Duration::from_secs(60)).await;
    assert!(finish);
    assert!(error.unwrap_or_default().contains("told to fail"));
    assert_eq!(attempts, 4);
    // No run after the cap: the queue holds the job as ended.
    env.queue_settled().await;
    let runs = testing::runs(&env.db, "flaky").await.unwrap();
    worker.stop().await;
    assert_eq!(runs.len(), 4, "{runs:?}");
    let gaps: Vec<i64> = runs
        .windows(2)
        .map(|w| w[1].started_ms - w[0].started_ms)
        .collect();
    eprintln!("retry gaps on {kind:?} (ms): {gaps:?}");
    // The stores schedule in whole seconds, so each gap is the delay rounded up to a second
    // boundary, plus polling.
    for gap in &gaps {
        assert!(*gap >= 400, "retried too soon: {gaps:?}");
        assert!(*gap <= 3500, "delay above the cap: {gaps:?}");
    }
    // Whole-second scheduling can move each run by up to a second, so growth is checked with
    // that tolerance here; the exact exponential sequence is unit-tested in `retry.rs`.
    assert!(
        gaps[1] + 1100 >= gaps[0],
        "delays should not shrink: {gaps:?}"
    );
    assert_eq!(env.store_status(&queued).await.as_deref(), Some("Done"));
}

async fn rate_limited_jobs_snooze_without_spending_attempts(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let worker = env.start_worker();
    let task = env.new_task().await;
    // One attempt allowed, rate limited twice: succeeds only if snoozes spend no attempt.
    let job = TestJob {
        rate_limited_runs: 2,
        retry_after_secs: 1,
        max_attempts: Some(1),
        ..test_job("limited")
    };
    enqueue(&env, job, Some(task.clone())).await;
    let (finish, error, _) = wait_finished(&env, &task, Duration::from_secs(15)).await;
    worker.stop().await;
    assert!(finish);
    assert_eq!(error, None);
    let runs = testing::runs(&env.db, "limited").await.unwrap();
    assert_eq!(runs.len(), 3);
    assert!(runs[1].started_ms - runs[0].started_ms >= 900, "{runs:?}");
    assert_eq!(testing::effects(&env.db, "limited").await.unwrap(), 1);
}

async fn a_busy_database_spends_no_attempt(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let worker = env.start_worker();
    let task = env.new_task().await;
    // Two attempts allowed, the database busy on the first three runs and a real failure on
    // the fourth: it succeeds on its fifth run only if the busy runs gave their attempts back
    // and the failure spent one.
    let job = TestJob {
        busy_runs: 3,
        fail_runs: 1,
        max_attempts: Some(2),
        ..test_job("busy")
    };
    enqueue(&env, job, Some(task.clone())).await;
    let (finish, error, _) = wait_finished(&env, &task, Duration::from_secs(30)).await;
    worker.stop().await;
    assert!(finish);
    assert_eq!(error, None, "busy runs spent no attempt");
    assert_eq!(testing::runs(&env.db, "busy").await.unwrap().len(), 5);
    assert_eq!(testing::effects(&env.db, "busy").await.unwrap(), 1);
}

async fn unknown_kinds_and_bad_payloads_fail_permanently(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let worker = env.start_worker();
    let task = env.new_task().await;
    let unknown = serde_json::json!({"id": "u1", "kind": "no-such-kind", "payload": {}});
    let bad =
        serde_json::json!({"id": "b1", "kind": "send-email", "taskId": task, "payload": {"to": 5}});
    let none = EnqueueOptions::default();
    let unknown_id = env
        .queue
        .enqueue_raw(unknown, &none)
        .await
        .unwrap()
        .id()
        .unwrap()
        .to_string();
    let bad_id = env
        .queue
        .enqueue_raw(bad, &none)
        .await
        .unwrap()
        .id()
        .unwrap()
        .to_string();
    let (finish, error, _) = wait_finished(&env, &task, Duration::from_secs(5)).await;
    assert!(finish && error.is_some());
    for id in [&unknown_id, &bad_id] {
        eventually(Duration::from_secs(5), "the job to be killed", || async {
            (env.store_status(id).await.as_deref() == Some("Killed")).then_some(())
        })
        .await;
    }
    // Never picked up again: a job enqueued after them runs, and they stay killed.
    enqueue(&env, test_job("after-the-killed"), None).await;
    wait_runs(&env, "after-the-killed", 1, Duration::from_secs(10)).await;
    env.queue_settled().await;
    for id in [&unknown_id, &bad_id] {
        assert_eq!(env.store_status(id).await.as_deref(), Some("Killed"));
    }
    worker.stop().await;
}

async fn uniqueness_keys_enqueue_once(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let options = EnqueueOptions {
        unique_key: Some("cleanup:2026-11-21".into()),
        ..Default::default()
    };
    let first = env
        .queue
        .enqueue_with(&test_job("u"), options.clone())
        .await
        .unwrap();
    let second = env
        .queue
        .enqueue_with(&test_job("u"), options)
        .await
        .unwrap();
    assert!(matches!(first, Enqueued::New(_)));
    assert_eq!(second, Enqueued::Duplicate);
    let other = EnqueueOptions {
        unique_key: Some("cleanup:2026-11-22".into()),
        ..Default::default()
    };
    assert!(matches!(
        env.queue.enqueue_with(&test_job("u"), other).await.unwrap(),
        Enqueued::New(_)
    ));
}

async fn worker_names_are_unique_per_process(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let a = env.start_worker();
    let b = env.start_worker();
    let names = eventually(Duration::from_secs(5), "two registered workers", || async {
        let names = env.worker_names().await;
        (names.len() >= 2).then_some(names)
    })
    .await;
    a.stop().await;
    b.stop().await;
    let pid = format!("-{}-", std::process::id());
    assert!(names.iter().all(|n| n.contains(&pid)), "{names:?}");
    assert_ne!(names[0], names[1]);
}

async fn a_job_killed_with_its_worker_runs_again_and_takes_effect_once(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let mut doomed = env.spawn_worker(&[]);
    let task = env.new_task().await;
    enqueue(
        &env,
        TestJob {
            sleep_ms: 3000,
            ..test_job("crash")
        },
        Some(task.clone()),
    )
    .await;
    let runs = wait_runs(&env, "crash", 1, Duration::from_secs(5)).await;
    signal(&doomed, "KILL");
    doomed.wait().unwrap();
    let killed_at = Instant::now();
    assert_eq!(runs[0].finished_ms, None);
    let survivor = env.start_worker();
    let (finish, error, attempts) = wait_finished(&env, &task, Duration::from_secs(60)).await;
    eprintln!(
        "job recovered {:?} after SIGKILL on {kind:?}",
        killed_at.elapsed()
    );
    survivor.stop().await;
    assert!(finish);
    assert_eq!(error, None);
    assert_eq!(attempts, 2);
    let runs = testing::runs(&env.db, "crash").await.unwrap();
    assert_eq!(runs.len(), 2, "{runs:?}");
    assert_eq!(
        runs.iter().filter(|r| r.finished_ms.is_some()).count(),
        1,
        "{runs:?}"
    );
    assert_ne!(runs[0].worker, runs[1].worker);
    assert_eq!(testing::effects(&env.db, "crash").await.unwrap(), 1);
}

async fn sigterm_lets_running_jobs_finish(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let mut child = env.spawn_worker(&[]);
    let task = env.new_task().await;
    let queued = enqueue(
        &env,
        TestJob {
            sleep_ms: 1500,
            ..test_job("graceful")
        },
        Some(task.clone()),
    )
    .await;
    wait_runs(&env, "graceful", 1, Duration::from_secs(5)).await;
    signal(&child, "TERM");
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let (finish, error, attempts) = env.task_state(&task).await;
    assert!(finish, "the running job finished before the worker exited");
    assert_eq!((error, attempts), (None, 1));
    assert_eq!(testing::effects(&env.db, "graceful").await.unwrap(), 1);
    assert_eq!(env.store_status(&queued).await.as_deref(), Some("Done"));
}

async fn sigterm_releases_jobs_that_outlast_the_grace_period(kind: Kind) {
    // A released job starts at the survivor's next poll; one left behind only once its
    // worker counts as dead (missed heartbeats). 20 missed heartbeats (20 s) make the bound
    // below (half of it) tell the two apart under any load the suite puts on 2 cores.
    let Some(env) = TestEnv::with_settings(kind, |s| s.missed_heartbeats = 20).await else {
        return;
    };
    let orphaned_after = env.settings.orphaned_after();
    let mut child = env.spawn_worker(&[("SEARCHDECK_QUEUE_SHUTDOWN_GRACE_MS", "300")]);
    let task = env.new_task().await;
    enqueue(
        &env,
        TestJob {
            sleep_ms: 4000,
            ..test_job("long")
        },
        Some(task.clone()),
    )
    .await;
    wait_runs(&env, "long", 1, Duration::from_secs(5)).await;
    signal(&child, "TERM");
    let status = child.wait().unwrap();
    assert!(status.success(), "{status:?}");
    let released_at = Instant::now();
    let survivor = env.start_worker();
    // Released jobs start again at once, not after the orphan timeout.
    let runs = wait_runs(&env, "long", 2, orphaned_after + Duration::from_secs(10)).await;
    let restart = released_at.elapsed();
    let (finish, error, _) = wait_finished(&env, &task, Duration::from_secs(20)).await;
    survivor.stop().await;
    eprintln!("released job restarted after {restart:?} on {kind:?}");
    assert!(
        restart < orphaned_after / 2,
        "restarted only as an orphan ({orphaned_after:?}): {restart:?}"
    );
    assert!(finish && error.is_none());
    assert_eq!(runs.iter().filter(|r| r.finished_ms.is_some()).count(), 0);
    assert_eq!(testing::effects(&env.db, "long").await.unwrap(), 1);
}

/// Regression (SQLite): a worker told to stop while a job runs must not keep the write lock
/// of a half-done store transaction (a fetch caught between its `UPDATE` and `COMMIT`:
/// apalis stops polling the backend until running jobs finish), or the running job's own
/// writes fail with "database is locked". Holding the write lock from the test while the
/// worker stops makes the stop land mid-fetch every time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_stopping_mid_fetch_keeps_no_write_lock_from_running_jobs() {
    let env = TestEnv::new(Kind::Sqlite).await.unwrap();
    let searchdeck_common::queue::Store::Sqlite(pool) = env.queue.store().clone() else {
        unreachable!()
    };
    let worker = env.start_worker();
    let task = env.new_task().await;
    enqueue(
        &env,
        TestJob {
            sleep_ms: 1500,
            ..test_job("mid-fetch")
        },
        Some(task.clone()),
    )
    .await;
    wait_runs(&env, "mid-fetch", 1, Duration::from_secs(5)).await;
    // The worker polls for more work every 50 ms; its next fetch waits on this lock.
    let mut blocker = pool.begin_with("BEGIN IMMEDIATE").await.unwrap();
    sqlx::query("UPDATE Workers SET last_seen = last_seen WHERE 0")
        .execute(&mut *blocker)
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stopping = tokio::spawn(worker.stop());
    tokio::time::sleep(Duration::from_millis(200)).await;
    blocker.rollback().await.unwrap();
    let started = Instant::now();
    stopping.await.unwrap();
    let (finish, error, attempts) = env.task_state(&task).await;
    assert!(finish, "the running job finished before the worker stopped");
    assert_eq!((error, attempts), (None, 1));
    assert_eq!(testing::effects(&env.db, "mid-fetch").await.unwrap(), 1);
    // The job had at most ~1.5 s left; a held lock would cost the 5 s busy timeout.
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "{:?}",
        started.elapsed()
    );
}
