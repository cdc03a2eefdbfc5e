//! The scheduler fires each period once however many schedulers run, for built-in entries
//! and for entries in the `schedules` table, and the clean-up it schedules deletes exactly
//! what has expired. On every backend (see `support`).

use std::time::Duration;

use searchdeck_common::{Db, ids, jobs::TestJob, queue::Enqueued};
use searchdeck_scheduler::{Entry, period_start, tick};

use crate::support::{Kind, TestEnv, eventually};

searchdeck_common::per_backend!([sqlite, postgres, redis]
    two_schedulers_fire_each_period_once,
    two_schedulers_fire_database_entries_once_per_period,
    concurrent_ticks_enqueue_one_job_per_period,
    cleanup_deletes_what_has_expired,
);

fn every_two_seconds() -> Vec<Entry> {
    vec![Entry::every::<TestJob>(
        "probe",
        Duration::from_secs(2),
        |start| serde_json::json!({ "key": format!("probe-{start}") }),
    )]
}

/// Runs two schedulers with `built_in` entries (and the database's) for `run_for`.
async fn two_schedulers(env: &TestEnv, built_in: Vec<Entry>, run_for: Duration) {
    let mut stops = Vec::new();
    let mut handles = Vec::new();
    for _ in 0..2 {
        let (tx, rx) = tokio::sync::oneshot::channel::<()>();
        let (db, queue, entries) = (env.db.clone(), env.queue.clone(), built_in.clone());
        handles.push(tokio::spawn(async move {
            searchdeck_scheduler::run_with(db, queue, entries, Duration::from_millis(100), async {
                let _ = rx.await;
            })
            .await
        }));
        stops.push(tx);
    }
    tokio::time::sleep(run_for).await;
    for tx in stops {
        let _ = tx.send(());
    }
    for h in handles {
        h.await.unwrap().unwrap();
    }
}

/// Starts of the test job per key, for keys starting with `prefix`.
async fn starts_per_key(db: &Db, prefix: &str) -> Vec<(String, i64)> {
    sqlx::query_as(
        "SELECT key, COUNT(*) FROM test_job_runs WHERE key LIKE $1 GROUP BY key ORDER BY key",
    )
    .bind(format!("{prefix}%"))
    .fetch_all(&db.pool)
    .await
    .unwrap()
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
        period_start(Duration::from_secs(2), now) + 1999,
    )
    .await;
    assert_eq!(later[0].as_ref().unwrap(), &Enqueued::Duplicate);
    let next = tick(
        &env.queue,
        &entries,
        period_start(Duration::from_secs(2), now) + 2000,
    )
    .await;
    assert!(matches!(next[0].as_ref().unwrap(), Enqueued::New(_)));
}

async fn two_schedulers_fire_each_period_once(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    let worker = env.start_worker();
    two_schedulers(&env, every_two_seconds(), Duration::from_millis(5000)).await;
    // Let the last period's job run.
    tokio::time::sleep(Duration::from_millis(800)).await;
    let starts = starts_per_key(&env.db, "probe-").await;
    worker.stop().await;
    eprintln!("scheduled runs per period on {kind:?}: {starts:?}");
    assert!((2..=4).contains(&starts.len()), "{starts:?}");
    assert!(
        starts.iter().all(|(_, n)| *n == 1),
        "a period fired twice: {starts:?}"
    );
}

async fn two_schedulers_fire_database_entries_once_per_period(kind: Kind) {
    let Some(env) = TestEnv::new(kind).await else {
        return;
    };
    // A rule's entry: every 2 s, a test job whose runs all share one key; a disabled entry
    // and an entry with an invalid cron expression never fire.
    let created = ids::now_ms();
    for (key, cron, every_ms, enabled, job_key) in [
        ("rule-1", None, Some(2000_i64), 1_i64, "db-rule"),
        ("rule-off", None, Some(2000), 0, "db-off"),
        ("rule-bad", Some("not cron"), None, 1, "db-bad"),
    ] {
        sqlx::query(
            "INSERT INTO schedules (key, workspace_id, cron, every_ms, kind, payload, enabled, created_at, updated_at) \
             VALUES ($1, $2, $3, $4, 'test', $5, $6, $7, $7)",
        )
        .bind(key)
        .bind(&env.workspace_id)
        .bind(cron)
        .bind(every_ms)
        .bind(serde_json::json!({ "key": job_key }).to_string())
        .bind(enabled)
        .bind(created)
        .execute(&env.db.pool)
        .await
        .unwrap();
    }
    let entries = searchdeck_scheduler::entries(&env.db).await.unwrap();
    assert_eq!(entries.len(), 1, "{entries:?}");
    let worker = env.start_worker();
    let started = ids::now_ms();
    two_schedulers(&env, Vec::new(), Duration::from_millis(5000)).await;
    let ended = ids::now_ms();
    tokio::time::sleep(Duration::from_millis(800)).await;
    worker.stop().await;
    // The period the entry was created in does not fire: the first is the next one (or the
    // one the schedulers started in, if later).
    let every = Duration::from_secs(2);
    let first = (period_start(every, created) + 2000).max(period_start(every, started));
    let periods = (period_start(every, ended) - first) / 2000 + 1;
    let starts = starts_per_key(&env.db, "db-").await;
    eprintln!("database entry runs on {kind:?}: {starts:?} over {periods} periods");
    // Runs share one key here, so a period fired twice shows as more runs than periods (the
    // last period may end between the schedulers' last tick and the stop).
    assert_eq!(starts.len(), 1, "{starts:?}");
    assert_eq!(starts[0].0, "db-rule");
    assert!(
        (periods - 1..=periods).contains(&starts[0].1) && starts[0].1 >= 1,
        "{starts:?} over {periods} periods"
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
    for (id, created) in [("e-stale", now - 2 * day), ("e-fresh", now - 1000)] {
        sqlx::query(
            "INSERT INTO emails (id, to_address, subject, body, created_at) VALUES ($1, 'a@b.c', 's', 'b', $2)",
        )
        .bind(id)
        .bind(created)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    // The creation jobs' records: one from 31 days ago, one from now.
    for (key, at) in [("c:old", now - 31 * day), ("c:fresh", now - 1000)] {
        searchdeck_common::store::creation::record(&db.pool, "job", key, 1, None, at)
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

    // The activity log: a notification (with a change) past the 400 days kept by default,
    // and one just inside them.
    for (key, age_days) in [("old", 401), ("kept", 399)] {
        let mut conn = db.pool.acquire().await.unwrap();
        let at = (now - age_days * day) / 1000;
        let n = searchdeck_common::store::activity::notifications::NewNotification {
            workspace_id: env.workspace_id.clone(),
            key: key.into(),
            tag: "manual_change",
            kind: "change",
            title: key.into(),
            action: "UPDATE".into(),
            target: "KEYWORD".into(),
            source: "user",
            source_name: "Ann".into(),
            user_id: None,
            email: None,
            rule_id: None,
            account_id: None,
            org_id: None,
            undo_of: None,
            created_at: at,
        };
        let id = searchdeck_common::store::activity::notifications::record(&mut conn, &n)
            .await
            .unwrap();
        sqlx::query(
            "INSERT INTO change_records (id, workspace_id, org_id, level, entity_id, campaign_id, \
               entity_name, campaign_name, field, source, created_at, notification_id) \
             VALUES ($1, $2, 1, 'KEYWORD', 1, 1, 'k', 'c', 'status', 'manual_change', $3, $4)",
        )
        .bind(format!("change-{key}"))
        .bind(&env.workspace_id)
        .bind(at)
        .bind(&id)
        .execute(&db.pool)
        .await
        .unwrap();
    }

    // Team invitations: (id, expires_at, used_at). Expired or used more than 30 days ago
    // go; expired recently (still listed as expired), used recently and pending stay.
    let invitations: [(&str, i64, Option<i64>); 5] = [
        ("i-expired-old", now - 31 * day, None),
        ("i-used-old", now + day, Some(now - 31 * day)),
        ("i-expired-recent", now - 29 * day, None),
        ("i-used-recent", now - day, Some(now - 8 * day)),
        ("i-pending", now + day, None),
    ];
    for (id, expires, used) in invitations {
        sqlx::query(
            "INSERT INTO team_invitations (id, workspace_id, email, role, code_hash, created_at, \
               expires_at, used_at) VALUES ($1, $2, 'bob@example.com', 'reader', $1, $3, $4, $5)",
        )
        .bind(id)
        .bind(&env.workspace_id)
        .bind(now - 40 * day)
        .bind(expires)
        .bind(used)
        .execute(&db.pool)
        .await
        .unwrap();
    }

    // Through the queue, as the scheduler does it.
    let worker = env.start_worker();
    tick(&env.queue, &searchdeck_scheduler::schedule(), now)
        .await
        .into_iter()
        .for_each(|r| {
            r.unwrap();
        });
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
    assert_eq!(
        ids_of("SELECT id FROM emails").await,
        vec!["e-fresh".to_string()]
    );
    assert_eq!(
        ids_of("SELECT id FROM team_invitations ORDER BY id").await,
        ["i-expired-recent", "i-pending", "i-used-recent"],
        "invitations are kept 30 days after they expired or were used"
    );
    assert_eq!(
        ids_of("SELECT natural_key FROM creation_entities").await,
        vec!["c:fresh".to_string()]
    );
    assert_eq!(
        ids_of("SELECT key FROM notifications").await,
        vec!["kept".to_string()],
        "the activity log keeps 400 days"
    );
    assert_eq!(
        ids_of("SELECT id FROM change_records").await,
        vec!["change-kept".to_string()],
        "a notification's changes go with it"
    );
}
