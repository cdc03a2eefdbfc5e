//! The sync jobs against the in-process sandbox (small world), on SQLite and PostgreSQL
//! (docs/sync-and-jobs.md):
//!
//! - here: connecting queues a sync that completes with progress; our stored daily metrics
//!   add up to the sandbox's own report totals (`compare`); after the sandbox's clock moves
//!   a day, a second sync corrects the restated days and duplicates nothing.
//! - `sync_now`: Sync now joins a running sync, is paced after one that just ended, and is
//!   another workspace's 404.
//!
//! The fixtures below move the sandbox's clock and wait for the syncs they start.

mod compare;
mod sync_now;

use std::{collections::BTreeMap, time::Duration};

use axum::http::{Method, StatusCode};
use compare::check_against_sandbox;
use serde_json::{Value, json};

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

/// The sandbox's today.
async fn sandbox_today(t: &Connected) -> time::Date {
    let clock: Value = t
        .http
        .get(format!("{}/sandbox/clock", t.sandbox))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    harness_day(clock["today"].as_str().unwrap())
}

fn harness_day(s: &str) -> time::Date {
    time::Date::parse(s, time::macros::format_description!("[year]-[month]-[day]")).unwrap()
}

async fn set_clock(t: &Connected, body: Value) {
    let res = t
        .http
        .put(format!("{}/sandbox/clock", t.sandbox))
        .json(&body)
        .send()
        .await
        .unwrap();
    assert!(res.status().is_success(), "{:?}", res.text().await);
}

/// Moves the sandbox's clock forward to the next `hour`:00 UTC and stops it there; returns
/// that day (UTC).
async fn stop_clock_at(t: &Connected, hour: u8) -> time::Date {
    let clock: Value = t
        .http
        .get(format!("{}/sandbox/clock", t.sandbox))
        .send()
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let now = time::OffsetDateTime::parse(
        clock["now"].as_str().unwrap(),
        &time::format_description::well_known::Rfc3339,
    )
    .unwrap()
    .to_offset(time::UtcOffset::UTC);
    let mut at = now.date().with_hms(hour, 0, 0).unwrap().assume_utc();
    if at <= now {
        at += time::Duration::days(1);
    }
    let text = at
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    set_clock(t, json!({"now": text, "running": false})).await;
    at.date()
}

/// Each synced campaign group's time zone and newest synced day.
async fn newest_days(t: &Connected, account_id: &str) -> BTreeMap<String, String> {
    let rows: Vec<(Option<String>, Option<String>)> =
        sqlx::query_as("SELECT time_zone, metrics_through FROM sync_orgs WHERE account_id = $1")
            .bind(account_id)
            .fetch_all(&t.app.state.db.pool)
            .await
            .unwrap();
    rows.into_iter()
        .map(|(tz, through)| (tz.unwrap(), through.unwrap()))
        .collect()
}

/// Queues a sync of the connection and waits until it ended after `after`.
async fn resync(t: &Connected, account_id: &str, after: i64) -> i64 {
    searchdeck_workers::sandbox_account::queue_sync(
        &t.app.state.db,
        &t.app.state.queue,
        account_id,
    )
    .await
    .unwrap();
    synced_after(t, account_id, after).await
}

/// Waits until the connection's `last_synced_at` is set and later than `after`.
async fn synced_after(t: &Connected, account_id: &str, after: i64) -> i64 {
    let started = std::time::Instant::now();
    for _ in 0..2400 {
        let at: Option<i64> =
            sqlx::query_scalar("SELECT last_synced_at FROM accounts WHERE id = $1")
                .bind(account_id)
                .fetch_one(&t.app.state.db.pool)
                .await
                .unwrap();
        if let Some(at) = at.filter(|at| *at > after) {
            eprintln!("sync done in {:?}", started.elapsed());
            return at;
        }
        let failed: Option<String> =
            sqlx::query_scalar("SELECT error FROM tasks WHERE error IS NOT NULL LIMIT 1")
                .fetch_optional(&t.app.state.db.pool)
                .await
                .unwrap()
                .flatten();
        assert!(failed.is_none(), "a sync task failed: {failed:?}");
        tokio::time::sleep(Duration::from_millis(250)).await;
    }
    let tasks: Vec<(String, String, i64, i64)> =
        sqlx::query_as("SELECT kind, message, step, total_steps FROM tasks")
            .fetch_all(&t.app.state.db.pool)
            .await
            .unwrap();
    panic!("the sync did not complete within 10 minutes: {tasks:?}");
}

/// Waits (up to 30 s) until no task is running: a job sets what a test waits for (the sync
/// time) a moment before it finishes its task.
async fn tasks_settled(t: &Connected) {
    for _ in 0..300 {
        let running: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tasks WHERE finish = 0")
            .fetch_one(&t.app.state.db.pool)
            .await
            .unwrap();
        if running == 0 {
            return;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    panic!("a task was still running 30 s after the sync");
}

async fn connect(t: &Connected, owner: &str) -> String {
    let ids = t.registered_key(owner).await;
    let res = t.create(owner, "Synced", &ids).await;
    assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
    sqlx::query_scalar("SELECT id FROM accounts")
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

sandbox_tests! {
    async fn connect_sync_matches_the_sandbox_and_a_restating_resync_corrects_it(t: Connected) {
        // A still clock at noon UTC, when the sandbox's ad accounts (Los Angeles, Berlin,
        // Tokyo) share one date: both sides see the same days while the test compares.
        let day = stop_clock_at(&t, 12).await;
        let owner = t.owner().await;
        let account_id = connect(&t, &owner).await;
        let first = synced_after(&t, &account_id, 0).await;
        // Each ad account's metrics end at its own today, by the provider's clock.
        let newest = newest_days(&t, &account_id).await;
        assert_eq!(newest.len(), 3, "{newest:?}");
        assert!(newest.values().all(|d| *d == day.to_string()), "{day}: {newest:?}");

        // Progress on the task records: the entity sync, then the metrics sync, both done.
        // The metrics job stamps the connection's sync time just before it finishes its task.
        tasks_settled(&t).await;
        let tasks: Vec<(String, i64, Option<String>, String, i64, i64)> = sqlx::query_as(
            "SELECT kind, finish, error, message, step, total_steps FROM tasks ORDER BY created_at, kind",
        )
        .fetch_all(&t.app.state.db.pool)
        .await
        .unwrap();
        let kinds: Vec<&str> = tasks.iter().map(|r| r.0.as_str()).collect();
        assert_eq!(kinds, ["sync-account", "sync-reports"], "{tasks:?}");
        for (kind, finish, error, _, step, total) in &tasks {
            assert_eq!((*finish, error.as_deref()), (1, None), "{kind}");
            assert!(*total > 1 && step == total, "{kind}: step {step} of {total}");
        }
        assert_eq!(tasks[1].3, "Sync completed");
        // Both tasks name their connection (and no one campaign group): the header shows only
        // the active account's sync.
        let listed = t.get("/api/tasks", &owner).await;
        let scopes: Vec<(String, serde_json::Value)> = listed.json["result"]["items"]
            .as_array()
            .unwrap()
            .iter()
            .map(|i| (i["accountId"].as_str().unwrap_or_default().to_string(), i["orgId"].clone()))
            .collect();
        assert_eq!(scopes, vec![(account_id.clone(), json!(null)); 2], "{:?}", listed.json);
        let all = t.get("/api/account/getAll", &owner).await;
        assert!(all.json.to_string().contains("lastSyncedAt\":\"20"), "{:?}", all.json);
        for table in ["asa_campaigns", "asa_ad_groups", "asa_keywords", "asa_ads", "asa_creatives", "asa_apps"] {
            assert!(t.count(table).await > 0, "{table} is synced");
        }
        assert!(t.count("asa_search_terms").await > 0);
        for level in 1..=5 {
            let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM asa_day_metrics WHERE level = $1")
                .bind(level)
                .fetch_one(&t.app.state.db.pool)
                .await
                .unwrap();
            assert!(n > 0, "level {level} has metrics");
        }
        let schedules: Vec<(String, i64, String)> =
            sqlx::query_as("SELECT key, every_ms, kind FROM schedules")
                .fetch_all(&t.app.state.db.pool)
                .await
                .unwrap();
        assert_eq!(schedules, vec![(format!("sync:{account_id}"), 3 * 3600 * 1000, "sync-account".to_string())]);
        check_against_sandbox(&t, &account_id).await;

        // A day later the sandbox restates recent days; the next sync follows it exactly.
        let rows_before = t.count("asa_day_metrics").await;
        set_clock(&t, json!({"advanceDays": 1, "running": false})).await;
        let second = resync(&t, &account_id, first).await;
        check_against_sandbox(&t, &account_id).await;
        assert!(t.count("asa_day_metrics").await >= rows_before);

        // At 03:00 UTC the next day has begun in Berlin and Tokyo but not yet in Los Angeles
        // (19:00 the day before): the sync ends each ad account's window at its own today.
        let next = stop_clock_at(&t, 3).await;
        assert_eq!(next, day + time::Duration::days(2));
        resync(&t, &account_id, second).await;
        let newest = newest_days(&t, &account_id).await;
        let expected: BTreeMap<String, String> = [
            ("America/Los_Angeles", day + time::Duration::days(1)),
            ("Europe/Berlin", next),
            ("Asia/Tokyo", next),
        ]
        .into_iter()
        .map(|(tz, d)| (tz.to_string(), d.to_string()))
        .collect();
        assert_eq!(newest, expected);

        // Deleting the connection removes its data and its schedule.
        let res = t.call(Method::DELETE, &format!("/api/account/{account_id}"), json!({}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(t.count("schedules").await, 0);
        assert_eq!(t.count("asa_day_metrics").await, 0);
        assert_eq!(t.count("sync_orgs").await, 0);
    }
}
