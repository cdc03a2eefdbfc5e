//! The sync jobs against the in-process sandbox (small world), on SQLite and PostgreSQL:
//! connecting queues a sync that completes with progress; our stored daily metrics add up
//! to the sandbox's own report totals for an org, a campaign and a keyword over 30 days;
//! after the sandbox's clock moves a day, a second sync corrects the restated days and
//! duplicates nothing; the connection's schedule exists and goes with the connection.

use std::{collections::BTreeMap, sync::Arc, time::Duration};

use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};
use axum::http::{Method, StatusCode};
use searchdeck_provider::AppleAds;
use serde_json::{Value, json};

/// (impressions, taps, installs, spend micros).
type Totals = (i64, i64, i64, i64);

fn add(a: Totals, b: Totals) -> Totals {
    (a.0 + b.0, a.1 + b.1, a.2 + b.2, a.3 + b.3)
}

fn micros(v: &Value) -> i64 {
    let s = v["amount"].as_str().unwrap();
    let (int, frac) = s.split_once('.').unwrap_or((s, ""));
    let mut frac = frac.to_string();
    while frac.len() < 6 {
        frac.push('0');
    }
    int.parse::<i64>().unwrap() * 1_000_000 + frac.parse::<i64>().unwrap()
}

fn totals(m: &Value) -> Totals {
    (
        m["impressions"].as_i64().unwrap(),
        m["taps"].as_i64().unwrap(),
        m["totalInstalls"].as_i64().unwrap(),
        micros(&m["localSpend"]),
    )
}

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

/// A provider client over the stored connection's credentials (as the jobs build it).
async fn client(t: &Connected, account_id: &str) -> Arc<dyn AppleAds> {
    let row = searchdeck_common::store::accounts::by_id(&t.app.state.db.pool, account_id)
        .await
        .unwrap()
        .unwrap();
    t.app.state.provider.client_of(&row).unwrap()
}

/// Every row of a sandbox report (no granularity: totals over the range), keyed by
/// `key(metadata)`.
async fn sandbox_report(
    client: &dyn AppleAds,
    org: i64,
    level: &str,
    from: time::Date,
    to: time::Date,
    filters: Value,
    daily: bool,
) -> Vec<Value> {
    let mut out = Vec::new();
    let mut offset = 0;
    loop {
        let mut range =
            json!({"start": from.to_string(), "end": to.to_string(), "timeZone": "ORTZ"});
        if daily {
            range["granularity"] = json!("DAILY");
        }
        let mut request = json!({
            "timeRange": range,
            "pagination": {"offset": offset, "pageSize": 1000},
        });
        if !filters.is_null() {
            request["filters"] = filters.clone();
        }
        let page = client.report(org, level, &request).await.unwrap();
        let n = page.items.len();
        out.extend(page.items);
        offset += n;
        if n < 1000 {
            return out;
        }
    }
}

/// Our sums over `asa_day_metrics` of a level, optionally of one entity, over a range.
async fn ours(
    t: &Connected,
    org_key: i64,
    level: i64,
    entity: Option<i64>,
    from: time::Date,
    to: time::Date,
) -> Totals {
    let postgres = t.app.state.db.backend == searchdeck_common::Backend::Postgres;
    let day = |n: u32| {
        if postgres {
            format!("CAST(${n} AS DATE)")
        } else {
            format!("${n}")
        }
    };
    let sql = format!(
        "SELECT CAST(COALESCE(SUM(impressions), 0) AS BIGINT), CAST(COALESCE(SUM(taps), 0) AS BIGINT), \
         CAST(COALESCE(SUM(tap_installs + view_installs), 0) AS BIGINT), \
         CAST(COALESCE(SUM(spend_micros), 0) AS BIGINT) FROM asa_day_metrics \
         WHERE org_key = $1 AND level = $2 AND day >= {} AND day <= {} AND ($5 = 0 OR entity_id = $6)",
        day(3),
        day(4)
    );
    sqlx::query_as(sqlx::AssertSqlSafe(sql))
        .bind(org_key)
        .bind(level)
        .bind(from.to_string())
        .bind(to.to_string())
        .bind(i64::from(entity.is_some()))
        .bind(entity.unwrap_or(0))
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap()
}

/// Our campaign-level rows (day, campaign) → totals over a range.
async fn our_days(
    t: &Connected,
    org_key: i64,
    from: time::Date,
    to: time::Date,
) -> BTreeMap<(String, i64), Totals> {
    let rows: Vec<(String, i64, i64, i64, i64, i64)> = sqlx::query_as(
        "SELECT CAST(day AS TEXT), entity_id, impressions, taps, tap_installs + view_installs, \
         spend_micros FROM asa_day_metrics WHERE org_key = $1 AND level = 1",
    )
    .bind(org_key)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    rows.into_iter()
        .filter(|r| {
            r.0.as_str() >= from.to_string().as_str() && r.0.as_str() <= to.to_string().as_str()
        })
        .map(|r| ((r.0, r.1), (r.2, r.3, r.4, r.5)))
        .collect()
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

/// Checks org, campaign and keyword totals over the 30 days before the sandbox's today,
/// and every campaign-day of the trailing window, against the sandbox's reports.
async fn check_against_sandbox(t: &Connected, account_id: &str) {
    let client = client(t, account_id).await;
    let today = sandbox_today(t).await;
    let (from, to) = (
        today - time::Duration::days(30),
        today - time::Duration::days(1),
    );
    let orgs: Vec<(i64, i64)> = sqlx::query_as(
        "SELECT org_key, org_id FROM sync_orgs WHERE account_id = $1 ORDER BY org_id",
    )
    .bind(account_id)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(!orgs.is_empty(), "the campaign groups are synced");
    let mut checked_keyword = false;
    for (org_key, org_id) in orgs {
        let campaigns = sandbox_report(
            client.as_ref(),
            org_id,
            "campaigns",
            from,
            to,
            Value::Null,
            false,
        )
        .await;
        let org_total = campaigns
            .iter()
            .map(|r| totals(&r["totalMetrics"]))
            .fold((0, 0, 0, 0), add);
        assert_eq!(
            ours(t, org_key, 1, None, from, to).await,
            org_total,
            "org {org_id} over {from}..{to}"
        );
        let Some(top) = campaigns
            .iter()
            .max_by_key(|r| totals(&r["totalMetrics"]).3)
        else {
            continue;
        };
        let campaign_id = top["metadata"]["id"].as_i64().unwrap();
        assert_eq!(
            ours(t, org_key, 1, Some(campaign_id), from, to).await,
            totals(&top["totalMetrics"]),
            "campaign {campaign_id}"
        );
        let filter = json!([{"field": "campaignId", "operator": "IN", "value": [campaign_id]}]);
        let keywords =
            sandbox_report(client.as_ref(), org_id, "keywords", from, to, filter, false).await;
        if let Some(k) = keywords.iter().max_by_key(|r| totals(&r["totalMetrics"]).1) {
            let keyword_id = k["metadata"]["id"].as_i64().unwrap();
            assert_eq!(
                ours(t, org_key, 3, Some(keyword_id), from, to).await,
                totals(&k["totalMetrics"]),
                "keyword {keyword_id}"
            );
            checked_keyword |= org_total.0 > 0;
        }
        // Every campaign-day of the trailing window, today included, as the sandbox says now.
        let window_from = today - time::Duration::days(29);
        let daily = sandbox_report(
            client.as_ref(),
            org_id,
            "campaigns",
            window_from,
            today,
            Value::Null,
            true,
        )
        .await;
        let mut theirs = BTreeMap::new();
        for row in &daily {
            let id = row["metadata"]["id"].as_i64().unwrap();
            for m in row["granularMetrics"].as_array().into_iter().flatten() {
                let tot = totals(m);
                if tot != (0, 0, 0, 0) {
                    theirs.insert((m["date"].as_str().unwrap().to_string(), id), tot);
                }
            }
        }
        let mine: BTreeMap<_, _> = our_days(t, org_key, window_from, today)
            .await
            .into_iter()
            .filter(|(_, v)| *v != (0, 0, 0, 0))
            .collect();
        assert_eq!(mine, theirs, "campaign days of org {org_id}");
    }
    assert!(checked_keyword, "some keyword had metrics to compare");
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
