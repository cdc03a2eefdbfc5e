//! The store conformance suite: every store implementation, on every backend.
//!
//! Each case runs on SQLite always and on PostgreSQL when `TEST_DATABASE_URL` is set (under
//! `CI=true` a missing URL fails). The report facts run on each backend's native pool, the
//! area stores over the `Any` pool, so one suite holds both backends to the same behaviour.

use searchdeck_common::{
    Db, Engines,
    ids::{new_id, now_ms},
    report::Caches,
    store::{
        self,
        recovery::NewCode,
        report_facts::{self, Counters, DayRow, FactLevel, Scope},
        sessions::NewSession,
        users::NewUser,
    },
    tasks::NewTask,
    test_support::{MigratedDb, connected_org, owner},
};
use time::{Date, Month};

mod rules_cases;
use rules_cases::{
    campaigns_report_shows_rules_and_goals, optimizations_alerts_and_slack,
    rules_attachments_limits_and_lists,
};
mod rule_runs_cases;
use rule_runs_cases::{
    rule_runs_given_up_end_failed_once, rule_runs_plan_once_results_and_schedule,
};

mod negative_lists_cases;
use negative_lists_cases::{
    negative_lists_terms_places_and_records, product_ads_join_creatives_pages_and_scope,
};

async fn sqlite() -> MigratedDb {
    MigratedDb::sqlite().await
}

async fn postgres() -> Option<MigratedDb> {
    MigratedDb::postgres("sd_store").await
}

/// Runs each listed case as `sqlite::<case>` and `postgres::<case>`.
macro_rules! conformance {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test]
            async fn $case() {
                let f = super::sqlite().await;
                super::$case(&f.db).await;
            })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $case() {
                if let Some(f) = super::postgres().await {
                    super::$case(&f.db).await;
                }
            })*
        }
    };
}

conformance!(
    rule_attributes_follow_edits_of_other_processes,
    rule_runs_plan_once_results_and_schedule,
    rule_runs_given_up_end_failed_once,
    facts_sum_exactly_for_every_range_and_scope,
    facts_refresh_follows_restatements_and_backfilled_history,
    facts_write_large_batches_and_daily_series,
    facts_blobs_stay_exact_through_restatements_backfills_and_deletions,
    facts_reads_see_one_generation_while_a_refresh_runs,
    report_caches_follow_writes_of_other_processes,
    reports_during_back_to_back_refreshes_show_one_state,
    users_sessions_and_workspaces,
    recovery_codes_are_single_use,
    recovery_codes_die_after_wrong_guesses,
    tasks_are_scoped_and_finish_once,
    store_functions_compose_in_one_transaction,
    fx_rates_are_the_latest_on_or_before_a_day,
    reports_over_currencies_give_subtotals_and_convert_at_stored_rates,
    suggester_results_timings_defaults_and_places,
    negative_lists_terms_places_and_records,
    product_ads_join_creatives_pages_and_scope,
    creation_entities_are_recorded_once_per_job,
    rules_attachments_limits_and_lists,
    optimizations_alerts_and_slack,
    campaigns_report_shows_rules_and_goals,
    last_month_spend_is_memoised_until_new_synced_data,
);

fn day(d: u8) -> Date {
    Date::from_calendar_date(2026, Month::November, d).unwrap()
}

/// A synced campaign group (the facts' foreign key) of a new workspace's connection.
async fn org(db: &Db, email: &str) -> i64 {
    connected_org(db, email).await.2
}

fn fact(org_key: i64, level: FactLevel, d: u8, entity: i64, seed: i64) -> DayRow {
    let mut counters = Counters::default();
    for (i, c) in counters.0.iter_mut().enumerate() {
        *c = (seed * 31 + i as i64 * 7 + d as i64 * 3) % 97;
    }
    counters.0[10] = seed * 1_000_003 + d as i64;
    DayRow {
        org_key,
        level,
        day: day(d),
        entity_id: entity,
        campaign_id: 10 + entity % 2,
        ad_group_id: 20 + entity % 3,
        counters,
    }
}

/// Every range `[a, b]` of days 1..=days through the running sums equals the naive sum.
async fn assert_all_ranges_exact(db: &Db, org_key: i64, level: FactLevel, days: u8, scope: Scope) {
    for a in 1..=days {
        for b in a..=days {
            let fast = report_facts::range(
                db,
                &report_facts::Snapshot::new(),
                org_key,
                level,
                day(a),
                day(b),
                scope,
            )
            .await
            .unwrap();
            let naive = report_facts::range_naive(db, org_key, level, day(a), day(b), scope)
                .await
                .unwrap();
            assert_eq!(fast, naive, "range {a}..={b} {scope:?}");
        }
    }
}

async fn facts_sum_exactly_for_every_range_and_scope(db: &Db) {
    let org_key = org(db, "ann@example.com").await;
    let other = org(db, "bob@example.com").await;
    // Sparse: entity e has metrics on the days where (d + e) % 3 != 0, plus an entity
    // appearing late and one with a spend past f64's exact integers.
    let mut rows = Vec::new();
    for d in 1..=12u8 {
        for e in 1..=6i64 {
            if (d as i64 + e) % 3 != 0 {
                rows.push(fact(org_key, FactLevel::Keyword, d, e, e));
            }
        }
        rows.push(fact(other, FactLevel::Keyword, d, 1, 99));
    }
    rows.push(fact(org_key, FactLevel::Keyword, 11, 7, 7));
    let mut big = fact(org_key, FactLevel::Keyword, 5, 8, 8);
    big.counters.0[10] = 4_503_599_627_370_497;
    rows.push(big.clone());
    big.day = day(6);
    rows.push(big);
    report_facts::insert_days(db, &rows).await.unwrap();
    let done = report_facts::refresh(db, org_key, FactLevel::Keyword, day(1))
        .await
        .unwrap();
    assert_eq!(done.from, Some(day(1)));
    assert_all_ranges_exact(db, org_key, FactLevel::Keyword, 14, Scope::default()).await;
    let campaign = Scope {
        campaign_id: Some(11),
        ad_group_id: None,
    };
    assert_all_ranges_exact(db, org_key, FactLevel::Keyword, 12, campaign).await;
    let group = Scope {
        campaign_id: None,
        ad_group_id: Some(22),
    };
    assert_all_ranges_exact(db, org_key, FactLevel::Keyword, 12, group).await;
    let five_six = report_facts::range(
        db,
        &report_facts::Snapshot::new(),
        org_key,
        FactLevel::Keyword,
        day(5),
        day(6),
        Scope::default(),
    )
    .await
    .unwrap();
    let eight = five_six.iter().find(|e| e.entity_id == 8).unwrap();
    assert_eq!(
        eight.counters.spend_micros(),
        9_007_199_254_740_994,
        "exact past 2^53"
    );
    // The other org's facts have no sums until refreshed, and never mix in.
    assert!(
        report_facts::range(
            db,
            &report_facts::Snapshot::new(),
            other,
            FactLevel::Keyword,
            day(1),
            day(12),
            Scope::default()
        )
        .await
        .unwrap()
        .is_empty()
    );
    report_facts::refresh(db, other, FactLevel::Keyword, day(1))
        .await
        .unwrap();
    let theirs = report_facts::range(
        db,
        &report_facts::Snapshot::new(),
        other,
        FactLevel::Keyword,
        day(1),
        day(12),
        Scope::default(),
    )
    .await
    .unwrap();
    assert_eq!(theirs.len(), 1);
    assert_all_ranges_exact(db, org_key, FactLevel::Keyword, 12, Scope::default()).await;
    // Another level of the same org is separate.
    assert!(
        report_facts::range(
            db,
            &report_facts::Snapshot::new(),
            org_key,
            FactLevel::Campaign,
            day(1),
            day(12),
            Scope::default()
        )
        .await
        .unwrap()
        .is_empty()
    );
}

async fn facts_refresh_follows_restatements_and_backfilled_history(db: &Db) {
    let org_key = org(db, "ann@example.com").await;
    let level = FactLevel::AdGroup;
    let rows: Vec<DayRow> = (10..=20u8)
        .flat_map(|d| (1..=3).map(move |e| fact(org_key, level, d, e, e)))
        .collect();
    report_facts::insert_days(db, &rows).await.unwrap();
    report_facts::refresh(db, org_key, level, day(10))
        .await
        .unwrap();
    // A restated day (and a new entity from it on): refresh from that day.
    let mut restated = fact(org_key, level, 15, 2, 50);
    restated.counters.0[1] = 1_000;
    report_facts::insert_days(db, &[restated, fact(org_key, level, 15, 9, 9)])
        .await
        .unwrap();
    let done = report_facts::refresh(db, org_key, level, day(15))
        .await
        .unwrap();
    assert_eq!(done.from, Some(day(15)));
    assert_eq!(done.prepended, None);
    // Days 15..=20 rewritten: six daily blobs, the checkpoint on the grid among them
    // (Julian day ≡ 15 mod 16) and the last day's.
    let grid = (15..=20u8)
        .filter(|&d| day(d).to_julian_day() % 16 == 15)
        .count() as u64;
    assert_eq!(done.blobs, 6 + grid + 1);
    assert_all_ranges_exact(db, org_key, level, 22, Scope::default()).await;
    // History fetched backwards, before the stored days: refreshing from a later day
    // prepends it without rewriting the days between.
    let older: Vec<DayRow> = (3..=9u8).map(|d| fact(org_key, level, d, 1, 4)).collect();
    report_facts::insert_days(db, &older).await.unwrap();
    let done = report_facts::refresh(db, org_key, level, day(18))
        .await
        .unwrap();
    assert_eq!(done.prepended, Some(day(3)));
    assert_eq!(done.from, Some(day(18)));
    assert_all_ranges_exact(db, org_key, level, 22, Scope::default()).await;
    // New days after the stored range with a from_day past them: the gap is filled.
    report_facts::insert_days(db, &[fact(org_key, level, 22, 3, 3)])
        .await
        .unwrap();
    let done = report_facts::refresh(db, org_key, level, day(22))
        .await
        .unwrap();
    assert_eq!(done.from, Some(day(21)), "the day after the stored days");
    assert_all_ranges_exact(db, org_key, level, 23, Scope::default()).await;
    // Idempotent.
    let again = report_facts::refresh(db, org_key, level, day(3))
        .await
        .unwrap();
    assert_eq!(again.from, Some(day(3)));
    assert_eq!(again.prepended, None);
    assert_all_ranges_exact(db, org_key, level, 23, Scope::default()).await;
}

/// A deterministic pseudo-random number.
fn mix(a: i64, b: i64) -> u64 {
    let mut x = (a as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ (b as u64).rotate_left(29);
    x ^= x >> 31;
    x = x.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x ^ (x >> 29)
}

/// Day `n` of a long stretch (2026-01-01 + n), for ranges across many checkpoints.
fn long_day(n: i64) -> Date {
    Date::from_calendar_date(2026, Month::January, 1).unwrap() + time::Duration::days(n)
}

/// Entity `e`'s row on long day `n`; `salt` changes the figures (a restatement), and
/// negative counters stand for Apple's corrections.
fn long_fact(org_key: i64, n: i64, e: i64, salt: i64) -> DayRow {
    let mut counters = Counters::default();
    for (i, c) in counters.0.iter_mut().enumerate() {
        *c = (mix(n * 100 + e, salt * 16 + i as i64) % 1_000) as i64 - 100;
    }
    DayRow {
        org_key,
        level: FactLevel::Keyword,
        day: long_day(n),
        entity_id: 1_000 + e * 37,
        campaign_id: 10 + e % 2,
        ad_group_id: 20 + e % 3,
        counters,
    }
}

/// Random ranges (and the edges) of long days `lo..=hi` equal the naive sums, in every scope.
async fn assert_random_ranges_exact(db: &Db, org_key: i64, lo: i64, hi: i64, seed: i64) {
    let scopes = [
        Scope::default(),
        Scope {
            campaign_id: Some(11),
            ad_group_id: None,
        },
        Scope {
            campaign_id: None,
            ad_group_id: Some(22),
        },
    ];
    let span = (hi - lo + 1) as u64;
    let mut ranges: Vec<(i64, i64)> = (0..40)
        .map(|i| {
            let a = lo + (mix(seed, i) % span) as i64;
            let b = lo + (mix(seed, i + 1_000) % span) as i64;
            (a.min(b), a.max(b))
        })
        .collect();
    ranges.extend([
        (lo, hi),
        (lo, lo),
        (hi, hi),
        (lo - 5, lo + 3),
        (hi - 3, hi + 9),
    ]);
    for (i, (a, b)) in ranges.into_iter().enumerate() {
        let scope = scopes[i % scopes.len()];
        let (from, to) = (long_day(a), long_day(b));
        let fast = report_facts::range(
            db,
            &report_facts::Snapshot::new(),
            org_key,
            FactLevel::Keyword,
            from,
            to,
            scope,
        )
        .await
        .unwrap();
        let naive = report_facts::range_naive(db, org_key, FactLevel::Keyword, from, to, scope)
            .await
            .unwrap();
        assert_eq!(fast, naive, "long days {a}..={b} {scope:?}");
    }
}

/// Replaces long days `a..=b` of the keyword level with `rows` (none: the days are deleted),
/// as the sync does.
async fn replace_long_days(db: &Db, org_key: i64, a: i64, b: i64, rows: &[DayRow]) {
    let rows: Vec<store::synced::metrics::DayRow> = rows
        .iter()
        .map(|r| store::synced::metrics::DayRow {
            day: r.day.to_string(),
            entity_id: r.entity_id,
            campaign_id: r.campaign_id,
            ad_group_id: r.ad_group_id,
            impressions: r.counters.0[0],
            taps: r.counters.0[1],
            tap_installs: r.counters.0[2],
            view_installs: r.counters.0[3],
            tap_new_downloads: r.counters.0[4],
            tap_redownloads: r.counters.0[5],
            view_new_downloads: r.counters.0[6],
            view_redownloads: r.counters.0[7],
            tap_pre_orders: r.counters.0[8],
            view_pre_orders: r.counters.0[9],
            spend_micros: r.counters.0[10],
        })
        .collect();
    store::synced::metrics::replace_days(
        &db.pool,
        org_key,
        FactLevel::Keyword,
        &long_day(a).to_string(),
        &long_day(b).to_string(),
        &rows,
    )
    .await
    .unwrap();
}

async fn facts_blobs_stay_exact_through_restatements_backfills_and_deletions(db: &Db) {
    let org_key = org(db, "ann@example.com").await;
    let level = FactLevel::Keyword;
    let refresh = |n: i64| report_facts::refresh(db, org_key, level, long_day(n));
    // Days 40..=120, five entities most days; entity 6 only from day 75, after a
    // checkpoint.
    let mut rows = Vec::new();
    for n in 40..=120 {
        for e in 1..=5 {
            if !mix(n, e).is_multiple_of(5) {
                rows.push(long_fact(org_key, n, e, 0));
            }
        }
        if n >= 75 {
            rows.push(long_fact(org_key, n, 6, 0));
        }
    }
    report_facts::insert_days(db, &rows).await.unwrap();
    let built = refresh(40).await.unwrap();
    assert_eq!(built.from, Some(long_day(40)));
    assert_random_ranges_exact(db, org_key, 40, 120, 1).await;
    // A restatement in the middle, with a day left without rows.
    let restated: Vec<DayRow> = (60..=80)
        .filter(|&n| n != 66)
        .flat_map(|n| (1..=6).map(move |e| long_fact(org_key, n, e, 1)))
        .collect();
    replace_long_days(db, org_key, 60, 80, &restated).await;
    let done = refresh(60).await.unwrap();
    assert_eq!(done.from, Some(long_day(60)));
    assert_random_ranges_exact(db, org_key, 40, 120, 2).await;
    // Backfilled history before the first day, refreshed from the restated window: it is
    // prepended, the days between are not rewritten, and a second run adds nothing twice.
    let older: Vec<DayRow> = (8..=39)
        .flat_map(|n| (1..=3).map(move |e| long_fact(org_key, n, e, 2)))
        .collect();
    report_facts::insert_days(db, &older).await.unwrap();
    let done = refresh(100).await.unwrap();
    assert_eq!(done.prepended, Some(long_day(8)));
    assert_eq!(done.from, Some(long_day(100)));
    assert_random_ranges_exact(db, org_key, 0, 125, 3).await;
    let again = refresh(100).await.unwrap();
    assert_eq!(again.prepended, None);
    assert_random_ranges_exact(db, org_key, 0, 125, 4).await;
    // The last days deleted: the new last day gets its checkpoint, later blobs go.
    replace_long_days(db, org_key, 117, 120, &[]).await;
    refresh(117).await.unwrap();
    assert_eq!(
        report_facts::last_day(db, org_key, level).await.unwrap(),
        Some(long_day(116))
    );
    assert_random_ranges_exact(db, org_key, 0, 125, 5).await;
    // The first days deleted: everything sums from the new first day.
    replace_long_days(db, org_key, 8, 12, &[]).await;
    refresh(110).await.unwrap();
    assert_eq!(
        report_facts::sums_bounds(db, org_key, level).await.unwrap(),
        Some((long_day(13), long_day(116)))
    );
    assert_random_ranges_exact(db, org_key, 0, 125, 6).await;
    // Every day deleted: no blobs, no sums.
    replace_long_days(db, org_key, 0, 130, &[]).await;
    let cleared = refresh(0).await.unwrap();
    assert_eq!(cleared.from, None);
    assert!(
        report_facts::sums_bounds(db, org_key, level)
            .await
            .unwrap()
            .is_none()
    );
    assert_random_ranges_exact(db, org_key, 0, 125, 7).await;
}

/// What one report reads of the keyword level through one snapshot: the sums of long days
/// 20..=50 (across the restated days) and the daily series of days 0..=59.
type FactsState = (Vec<report_facts::EntitySums>, Vec<(Date, Counters)>);

async fn read_facts(db: &Db, org_key: i64, snapshot: &report_facts::Snapshot) -> FactsState {
    let level = FactLevel::Keyword;
    let all = Scope::default();
    let sums = report_facts::range(
        db,
        snapshot,
        org_key,
        level,
        long_day(20),
        long_day(50),
        all,
    )
    .await
    .unwrap();
    let series = report_facts::daily(
        db,
        snapshot,
        org_key,
        level,
        long_day(0)..=long_day(59),
        all,
        None,
    )
    .await
    .unwrap();
    (sums, series)
}

/// A read through a new snapshot that holds, checked against the raw rows.
async fn settled_facts(db: &Db, org_key: i64, when: &str) -> FactsState {
    let snapshot = report_facts::Snapshot::new();
    let state = read_facts(db, org_key, &snapshot).await;
    assert!(snapshot.holds(db).await.unwrap());
    let naive = report_facts::range_naive(
        db,
        org_key,
        FactLevel::Keyword,
        long_day(20),
        long_day(50),
        Scope::default(),
    )
    .await
    .unwrap();
    assert!(
        state.0 == naive,
        "{when}: the published blobs sum as the raw rows"
    );
    state
}

/// The rows of 400 keywords on each of long `days`, figures salted with `salt`.
fn long_days(org_key: i64, days: std::ops::RangeInclusive<i64>, salt: i64) -> Vec<DayRow> {
    days.flat_map(|n| (1..=400).map(move |e| long_fact(org_key, n, e, salt)))
        .collect()
}

/// Blob rows of unpublished generations (left by a refresh that did not finish).
async fn unpublished_blobs(db: &Db, org_key: i64) -> i64 {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM asa_day_blobs b JOIN asa_blob_generations g \
         ON g.org_key = b.org_key AND g.level = b.level \
         WHERE b.org_key = $1 AND b.generation > g.generation",
    )
    .bind(org_key)
    .fetch_one(&db.pool)
    .await
    .unwrap()
}

/// A refresh rewrites blobs one day at a time, yet every read sees the blobs from before it
/// or from after it, never a mix: a snapshot taken before a refresh keeps reading the old
/// generation after it is published, a refresh cut short changes nothing readers see, and
/// reads in a loop while a refresh runs each equal one of the two complete states.
async fn facts_reads_see_one_generation_while_a_refresh_runs(db: &Db) {
    let org_key = org(db, "ann@example.com").await;
    let level = FactLevel::Keyword;
    report_facts::insert_days(db, &long_days(org_key, 0..=59, 0))
        .await
        .unwrap();
    let first = report_facts::refresh(db, org_key, level, long_day(0))
        .await
        .unwrap();
    let a = settled_facts(db, org_key, "built").await;

    // A snapshot taken before a restatement's refresh reads the old generation after the
    // refresh is published, and still holds; a new one reads the new generation.
    let before = report_facts::Snapshot::new();
    assert_eq!(read_facts(db, org_key, &before).await, a);
    replace_long_days(db, org_key, 30, 59, &long_days(org_key, 30..=59, 1)).await;
    let second = report_facts::refresh(db, org_key, level, long_day(30))
        .await
        .unwrap();
    assert_eq!(second.generation, first.generation + 1);
    assert_eq!(read_facts(db, org_key, &before).await, a);
    assert!(before.holds(db).await.unwrap());
    let b = settled_facts(db, org_key, "restated").await;
    assert_ne!(a, b, "the restatement changed the sums");
    // The next refresh deletes the blobs the old generation still needed: a snapshot of it
    // no longer holds (its reader reads again).
    replace_long_days(db, org_key, 30, 59, &long_days(org_key, 30..=59, 2)).await;
    report_facts::refresh(db, org_key, level, long_day(30))
        .await
        .unwrap();
    assert!(!before.holds(db).await.unwrap());
    let c = settled_facts(db, org_key, "restated again").await;

    // A refresh cut short (its task aborted once it has written blobs) changes nothing
    // readers see; the next one cleans up after it and publishes the restatement.
    replace_long_days(db, org_key, 30, 59, &long_days(org_key, 30..=59, 3)).await;
    let task = {
        let db = db.clone();
        tokio::spawn(async move { report_facts::refresh(&db, org_key, level, long_day(30)).await })
    };
    let mut waited = 0;
    while unpublished_blobs(db, org_key).await == 0 {
        tokio::time::sleep(std::time::Duration::from_millis(1)).await;
        waited += 1;
        assert!(waited < 60_000, "the refresh never wrote a blob");
    }
    task.abort();
    assert!(task.await.is_err(), "the refresh was cut short");
    // The raw rows are restated already; the blobs readers see are still those of before.
    let unchanged = report_facts::Snapshot::new();
    assert_eq!(read_facts(db, org_key, &unchanged).await, c);
    assert!(unchanged.holds(db).await.unwrap());
    report_facts::refresh(db, org_key, level, long_day(30))
        .await
        .unwrap();
    assert_eq!(unpublished_blobs(db, org_key).await, 0);
    let d = settled_facts(db, org_key, "after the cleanup").await;
    assert_ne!(c, d);

    // Reads in a loop while a restatement's refresh runs: each that holds is all old or
    // all new.
    replace_long_days(db, org_key, 30, 59, &long_days(org_key, 30..=59, 4)).await;
    let task = {
        let db = db.clone();
        tokio::spawn(async move { report_facts::refresh(&db, org_key, level, long_day(30)).await })
    };
    let (mut during, mut old, mut retried) = (0, 0, 0);
    let mut new_states = Vec::new();
    while !task.is_finished() {
        let snapshot = report_facts::Snapshot::new();
        let state = read_facts(db, org_key, &snapshot).await;
        if !snapshot.holds(db).await.unwrap() {
            retried += 1;
            continue;
        }
        during += 1;
        if state == d {
            assert!(new_states.is_empty(), "an old state after a new one");
            old += 1;
        } else {
            new_states.push(state);
        }
        tokio::task::yield_now().await;
    }
    task.await.unwrap().unwrap();
    let e = settled_facts(db, org_key, "after the loop").await;
    assert_ne!(d, e);
    for state in new_states {
        assert!(
            state == e,
            "a read during the refresh mixed old and new blobs"
        );
    }
    eprintln!("reads during the refresh: {during} ({old} of the old state), {retried} retried");
    assert!(old >= 1, "no read overlapped the refresh");
}

async fn facts_write_large_batches_and_daily_series(db: &Db) {
    let org_key = org(db, "ann@example.com").await;
    // More rows than one SQLite statement takes.
    let rows: Vec<DayRow> = (0..7_001)
        .map(|k| fact(org_key, FactLevel::Keyword, 1 + (k % 28) as u8, k, 1))
        .collect();
    assert_eq!(report_facts::insert_days(db, &rows).await.unwrap(), 7_001);
    report_facts::refresh(db, org_key, FactLevel::Keyword, day(1))
        .await
        .unwrap();
    let sums = report_facts::range(
        db,
        &report_facts::Snapshot::new(),
        org_key,
        FactLevel::Keyword,
        day(1),
        day(28),
        Scope::default(),
    )
    .await
    .unwrap();
    assert_eq!(sums.len(), 7_001);
    let total: i64 = sums.iter().map(|s| s.counters.spend_micros()).sum();
    let expected: i64 = rows.iter().map(|r| r.counters.spend_micros()).sum();
    assert_eq!(total, expected);
    let series = report_facts::daily(
        db,
        &report_facts::Snapshot::new(),
        org_key,
        FactLevel::Keyword,
        day(2)..=day(3),
        Scope::default(),
        None,
    )
    .await
    .unwrap();
    assert_eq!(
        series.iter().map(|(d, _)| *d).collect::<Vec<_>>(),
        [day(2), day(3)]
    );
    let day2: i64 = rows
        .iter()
        .filter(|r| r.day == day(2))
        .map(|r| r.counters.impressions())
        .sum();
    assert_eq!(series[0].1.impressions(), day2);
    let only = report_facts::daily(
        db,
        &report_facts::Snapshot::new(),
        org_key,
        FactLevel::Keyword,
        day(1)..=day(28),
        Scope::default(),
        Some(&[1, 29]),
    )
    .await
    .unwrap();
    assert_eq!(only.len(), 1, "entities 1 and 29 both report on day 2");
    assert_eq!(
        only[0].1.taps(),
        rows[1].counters.taps() + rows[29].counters.taps()
    );
}

/// A user who owns a new workspace; returns (user id, workspace id).
fn keyword(id: i64) -> store::synced::entities::Keyword {
    store::synced::entities::Keyword {
        id,
        campaign_id: 10 + id % 2,
        ad_group_id: 20 + id % 3,
        text: format!("keyword {id}"),
        match_type: "EXACT".into(),
        status: "ACTIVE".into(),
        ..Default::default()
    }
}

/// The KEYWORDS report of days 1..=5 by keyword id: (localSpend, deleted), and the total.
async fn keyword_report(
    db: &Db,
    caches: &Caches,
    ctx: &searchdeck_common::report::Context,
) -> (std::collections::BTreeMap<i64, (f64, bool)>, u64) {
    use searchdeck_common::report::{self, Cancel, ReportBody, SortIn};
    let q = ReportBody {
        level: Some("KEYWORDS".into()),
        start_date: Some(day(1).to_string()),
        end_date: Some(day(5).to_string()),
        sort: Some(SortIn {
            field: "localSpend".into(),
            order: Some("desc".into()),
        }),
        ..ReportBody::default()
    }
    .parse()
    .unwrap();
    let r = report::run(db, caches, ctx, &q, &Cancel::new())
        .await
        .unwrap();
    let rows = r
        .items
        .iter()
        .map(|i| {
            (
                i["keywordId"].as_str().unwrap().parse::<i64>().unwrap(),
                (
                    i["localSpend"].as_f64().unwrap(),
                    i["deleted"].as_bool().unwrap(),
                ),
            )
        })
        .collect();
    (rows, r.total)
}

/// The naive localSpend of keyword `id` over days 1..=5 (USD: floored to cents).
async fn naive_spend(db: &Db, org_key: i64, id: i64) -> f64 {
    let sums = report_facts::range_naive(
        db,
        org_key,
        FactLevel::Keyword,
        day(1),
        day(5),
        Scope::default(),
    )
    .await
    .unwrap();
    let micros = sums
        .iter()
        .find(|s| s.entity_id == id)
        .map_or(0, |s| s.counters.spend_micros());
    (micros / 10_000) as f64 / 100.0
}

/// A connected org with keywords `1..=n` and the report context of its owner.
async fn keyword_group(db: &Db, n: i64) -> (searchdeck_common::report::Context, i64) {
    let (workspace_id, account_id, org_key) = connected_org(db, "ann@example.com").await;
    let mut conn = db.pool.acquire().await.unwrap();
    let kws: Vec<_> = (1..=n).map(keyword).collect();
    store::synced::entities::upsert(&mut conn, org_key, &kws, 1)
        .await
        .unwrap();
    drop(conn);
    let ctx = searchdeck_common::report::Context {
        workspace_id,
        org: store::report_entities::sync_org_of(&db.pool, &account_id, 42)
            .await
            .unwrap(),
        account_id,
        columns: searchdeck_common::plan::Plan::ProFree.columns(),
    };
    (ctx, org_key)
}

/// One process (`db`) keeps report inputs in its caches; another (`other`: the same
/// database, caches of its own) adds a keyword, deletes one and restates a day. The first
/// process's next report shows each change.
async fn report_caches_follow_writes_of_other_processes(db: &Db) {
    let (ctx, org_key) = keyword_group(db, 3).await;
    let caches = Caches::default();
    // Another process: the same database, caches of its own.
    let other = db.clone();
    let level = FactLevel::Keyword;
    let mut rows = Vec::new();
    for d in 1..=5u8 {
        for e in 1..=3 {
            let mut f = fact(org_key, level, d, e, e);
            (f.campaign_id, f.ad_group_id) = (10 + e % 2, 20 + e % 3);
            rows.push(f);
        }
    }
    report_facts::insert_days(db, &rows).await.unwrap();
    report_facts::refresh(db, org_key, level, day(1))
        .await
        .unwrap();
    let (first, total) = keyword_report(db, &caches, &ctx).await;
    assert_eq!(total, 3);
    for id in 1..=3 {
        assert_eq!(first[&id], (naive_spend(db, org_key, id).await, false));
    }
    let cached = caches.bytes();
    assert!(cached > 0, "the universe and the blobs are cached");
    assert_eq!(keyword_report(db, &caches, &ctx).await, (first.clone(), 3));
    assert_eq!(caches.bytes(), cached, "served from the cache");

    // Another process syncs a new keyword (no metrics yet) and deletes keyword 3 (its past
    // metrics keep it in the report, flagged deleted).
    let mut tx = other.pool.begin().await.unwrap();
    store::synced::entities::upsert(&mut tx, org_key, &[keyword(4)], 2)
        .await
        .unwrap();
    store::synced::edits::set_deleted(&mut tx, "KEYWORD", org_key, 3)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let (second, total) = keyword_report(db, &caches, &ctx).await;
    assert_eq!(total, 4);
    assert_eq!(second[&4], (0.0, false));
    assert_eq!(second[&3], (first[&3].0, true));
    assert_eq!(second[&1], first[&1]);

    // Another process stores a restated day 5 of keyword 2 and refreshes the blobs.
    let mut restated = fact(org_key, level, 5, 2, 2);
    (restated.campaign_id, restated.ad_group_id) = (10, 22);
    restated.counters.0[10] += 7_000_000;
    report_facts::insert_days(&other, &[restated])
        .await
        .unwrap();
    report_facts::refresh(&other, org_key, level, day(5))
        .await
        .unwrap();
    let (third, _) = keyword_report(db, &caches, &ctx).await;
    let want = naive_spend(db, org_key, 2).await;
    assert_eq!(third[&2], (want, false));
    assert_eq!(want, first[&2].0 + 7.0);
    assert_eq!(third[&1], first[&1]);

    // Marking unlisted keywords deleted (a complete listing without 1 and 2) also shows.
    let mut tx = other.pool.begin().await.unwrap();
    let listed_at = 3;
    store::synced::entities::upsert(&mut tx, org_key, &[keyword(3), keyword(4)], listed_at)
        .await
        .unwrap();
    store::synced::entities::mark_unlisted_deleted::<store::synced::entities::Keyword>(
        &mut tx, org_key, listed_at,
    )
    .await
    .unwrap();
    tx.commit().await.unwrap();
    let (fourth, _) = keyword_report(db, &caches, &ctx).await;
    assert!(fourth[&1].1 && fourth[&2].1, "{fourth:?}");
    // Keyword 3 was upserted as listed (not deleted) again.
    assert!(!fourth[&3].1);
}

/// Automated rules read a level's attributes (text, status, bid) from the process's cache:
/// an edit another process writes back after Apple accepted it (bid and status of a
/// keyword, a campaign's budget, an ad group's name) shows in the next read, and a read
/// with nothing changed is served from the cache.
async fn rule_attributes_follow_edits_of_other_processes(db: &Db) {
    use searchdeck_common::report::{Cancel, DateRange, EntityRead, Level, entity_rows};
    use store::{report_entities::EntityKind, report_facts::cache::rule_attributes};
    let (ctx, org_key) = keyword_group(db, 3).await;
    let caches = Caches::default();
    let org = ctx.org.clone().unwrap();
    for (id, name) in [(10, "Even"), (11, "Odd")] {
        sqlx::query(
            "INSERT INTO asa_campaigns (org_key, id, name, status, daily_budget_micros, synced_at) \
             VALUES ($1, $2, $3, 'ENABLED', 50000000, 1)",
        )
        .bind(org_key)
        .bind(id)
        .bind(name)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    // Another process: the same database, caches of its own.
    let other = db.clone();
    let read = |level: Level| EntityRead {
        level,
        campaigns: vec![10, 11],
        range: DateRange {
            from: day(1),
            to: day(5),
        },
        tags: false,
        popularity: false,
    };
    let rows = |level: Level| {
        let read = read(level);
        let (ctx, org, caches) = (&ctx, &org, &caches);
        async move {
            entity_rows(db, caches, &ctx.workspace_id, org, &read, &Cancel::new())
                .await
                .unwrap()
        }
    };
    let keywords = rows(Level::Keywords).await;
    assert_eq!(keywords.len(), 3);
    assert!(
        keywords
            .iter()
            .all(|k| k.status.as_deref() == Some("ACTIVE"))
    );
    let cached = rule_attributes(db, &caches, EntityKind::Keyword, org_key)
        .await
        .unwrap()
        .unwrap();
    assert!(
        std::sync::Arc::ptr_eq(
            &cached,
            &rule_attributes(db, &caches, EntityKind::Keyword, org_key)
                .await
                .unwrap()
                .unwrap()
        ),
        "nothing changed: the cached attributes"
    );
    assert!(
        rule_attributes(db, &caches, EntityKind::SearchTerm, org_key)
            .await
            .unwrap()
            .is_none()
    );
    // Only the rule's campaigns.
    let mut one = read(Level::Keywords);
    one.campaigns = vec![11];
    let odd = entity_rows(db, &caches, &ctx.workspace_id, &org, &one, &Cancel::new())
        .await
        .unwrap();
    assert_eq!(odd.iter().map(|k| k.id).collect::<Vec<_>>(), [1, 3]);

    // Another process writes back a paused keyword with a new bid, a campaign's new budget
    // and an ad group renamed.
    let mut tx = other.pool.begin().await.unwrap();
    let state = store::synced::edits::KeywordState {
        status: "PAUSED".into(),
        bid_micros: Some(2_500_000),
        ..Default::default()
    };
    assert!(
        store::synced::edits::set_keyword(&mut tx, org_key, 2, &state)
            .await
            .unwrap()
    );
    let budget = store::synced::edits::CampaignState {
        status: "ENABLED".into(),
        daily_budget_micros: Some(70_000_000),
        body: "{}".into(),
        ..Default::default()
    };
    assert!(
        store::synced::edits::set_campaign(&mut tx, org_key, 10, &budget)
            .await
            .unwrap()
    );
    tx.commit().await.unwrap();
    let keywords = rows(Level::Keywords).await;
    let two = keywords.iter().find(|k| k.id == 2).unwrap();
    assert_eq!(
        (
            two.status.as_deref(),
            two.bid_micros,
            two.daily_budget_micros
        ),
        (Some("PAUSED"), Some(2_500_000), Some(70_000_000))
    );
    let campaigns = rows(Level::Campaigns).await;
    assert_eq!(
        campaigns
            .iter()
            .map(|c| c.daily_budget_micros)
            .collect::<Vec<_>>(),
        [Some(70_000_000), Some(50_000_000)]
    );
    // A rename: the next read names it anew.
    let mut tx = other.pool.begin().await.unwrap();
    assert!(
        store::synced::edits::set_name(&mut tx, "CAMPAIGN", org_key, 11, "Odd renamed")
            .await
            .unwrap()
    );
    tx.commit().await.unwrap();
    let campaigns = rows(Level::Campaigns).await;
    assert_eq!(campaigns[1].name, "Odd renamed");
    // An edit of an entity not synced changes nothing (and keeps the cache).
    let before = rule_attributes(db, &caches, EntityKind::Keyword, org_key)
        .await
        .unwrap()
        .unwrap();
    let mut tx = other.pool.begin().await.unwrap();
    assert!(
        !store::synced::edits::set_keyword(&mut tx, org_key, 99, &state)
            .await
            .unwrap()
    );
    tx.commit().await.unwrap();
    assert!(std::sync::Arc::ptr_eq(
        &before,
        &rule_attributes(db, &caches, EntityKind::Keyword, org_key)
            .await
            .unwrap()
            .unwrap()
    ));
}

/// Reports run while another process restates days 1..=5 back and forth, refreshing after
/// each restatement: every report shows one complete state, never a mix of blobs from
/// before and after a refresh (the engine reads a report again when a refresh swept blobs
/// it was reading).
async fn reports_during_back_to_back_refreshes_show_one_state(db: &Db) {
    let (ctx, org_key) = keyword_group(db, 40).await;
    let caches = Caches::default();
    let level = FactLevel::Keyword;
    let rows = move |seed: i64| -> Vec<DayRow> {
        (1..=5u8)
            .flat_map(|d| (1..=40).map(move |e| fact(org_key, level, d, e, e * seed)))
            .collect()
    };
    let mut states = Vec::new();
    for seed in [1, 2] {
        report_facts::insert_days(db, &rows(seed)).await.unwrap();
        report_facts::refresh(db, org_key, level, day(1))
            .await
            .unwrap();
        states.push(keyword_report(db, &caches, &ctx).await);
    }
    assert_ne!(states[0], states[1]);
    // Another process: the same database, caches of its own.
    let other = db.clone();
    let restating = tokio::spawn(async move {
        for round in 0..60 {
            report_facts::insert_days(&other, &rows(1 + round % 2))
                .await
                .unwrap();
            report_facts::refresh(&other, org_key, level, day(1))
                .await
                .unwrap();
        }
    });
    let mut reports = 0;
    while !restating.is_finished() {
        let report = keyword_report(db, &caches, &ctx).await;
        assert!(states.contains(&report), "a report mixed two states");
        reports += 1;
        tokio::task::yield_now().await;
    }
    restating.await.unwrap();
    assert!(reports > 0);
}

async fn users_sessions_and_workspaces(db: &Db) {
    let (user_id, first) = owner(db, "ann@example.com").await;
    let dup = NewUser {
        id: &new_id(),
        email: "ann@example.com",
        password_hash: "h",
        full_name: "",
        source: "",
        now: now_ms(),
    };
    let err = store::users::insert(&db.pool, dup).await.unwrap_err();
    assert!(Db::is_unique_violation(&err), "{err}");
    let second = new_id();
    store::workspaces::insert(&db.pool, &second, "Later", now_ms())
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &second, &user_id, "reader", now_ms() + 1000)
        .await
        .unwrap();
    assert!(
        store::workspaces::add_member(&db.pool, &second, &new_id(), "owner", 0)
            .await
            .is_err(),
        "unknown user"
    );

    let login = store::users::for_login(&db.pool, "ann@example.com")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (login.user_id.as_str(), login.workspace_id.as_str()),
        (user_id.as_str(), first.as_str()),
        "first joined workspace"
    );
    assert!(
        store::users::for_login(&db.pool, "bob@example.com")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        store::users::id_by_email(&db.pool, "ann@example.com")
            .await
            .unwrap(),
        Some(user_id.clone())
    );
    store::users::set_password(&db.pool, &user_id, "h2", now_ms())
        .await
        .unwrap();
    assert_eq!(
        store::users::password_hash(&db.pool, &user_id)
            .await
            .unwrap(),
        "h2"
    );
    store::users::set_alternative_invoice_email(
        &db.pool,
        &user_id,
        Some("b@example.com"),
        now_ms(),
    )
    .await
    .unwrap();
    let member = store::users::member(&db.pool, &user_id, &second)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            member.role.as_str(),
            member.alternative_invoice_email.as_deref()
        ),
        ("reader", Some("b@example.com"))
    );
    assert!(
        store::users::member(&db.pool, &user_id, "other")
            .await
            .unwrap()
            .is_none()
    );

    let now = now_ms();
    for (id, hash, expires_at) in [
        ("s1", "t1", now + 1000),
        ("s2", "t2", now + 1000),
        ("s3", "t3", now - 1),
    ] {
        let s = NewSession {
            id,
            token_hash: hash,
            user_id: &user_id,
            workspace_id: &second,
            now: now - 10,
            expires_at,
        };
        store::sessions::insert(&db.pool, s).await.unwrap();
    }
    let found = store::sessions::find_valid(&db.pool, "t1", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.id.as_str(), found.role.as_str(), found.email.as_str()),
        ("s1", "reader", "ann@example.com")
    );
    assert!(
        store::sessions::find_valid(&db.pool, "t3", now)
            .await
            .unwrap()
            .is_none(),
        "expired"
    );
    store::sessions::touch(&db.pool, "s1", now + 5)
        .await
        .unwrap();
    assert_eq!(
        store::sessions::find_valid(&db.pool, "t1", now)
            .await
            .unwrap()
            .unwrap()
            .last_seen_at,
        now + 5
    );
    store::sessions::delete_others(&db.pool, &user_id, Some("s2"))
        .await
        .unwrap();
    assert!(
        store::sessions::find_valid(&db.pool, "t1", now)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store::sessions::find_valid(&db.pool, "t2", now)
            .await
            .unwrap()
            .is_some(),
        "kept"
    );
    store::sessions::delete_by_token_hash(&db.pool, "t2")
        .await
        .unwrap();
    assert!(
        store::sessions::find_valid(&db.pool, "t2", now)
            .await
            .unwrap()
            .is_none()
    );
}

async fn recovery_codes_are_single_use(db: &Db) {
    let (user_id, _) = owner(db, "rc@example.com").await;
    let now = now_ms();
    let code = |hash, selector| NewCode {
        id: "",
        user_id: &user_id,
        code_hash: hash,
        selector,
        expires_at: now + 1000,
        now,
    };
    let live = async |selector: &str, at: i64| {
        store::recovery::live_by_selector(&db.pool, selector, at, 5)
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.code_hash)
            .collect::<Vec<_>>()
    };
    let old_id = new_id();
    store::recovery::insert(
        &db.pool,
        NewCode {
            id: &old_id,
            ..code("old", "OLD")
        },
    )
    .await
    .unwrap();
    store::recovery::retire_open(&db.pool, &user_id, now)
        .await
        .unwrap();
    let new = new_id();
    store::recovery::insert(
        &db.pool,
        NewCode {
            id: &new,
            ..code("new", "NEW")
        },
    )
    .await
    .unwrap();
    assert!(live("OLD", now).await.is_empty(), "replaced");
    assert_eq!(live("NEW", now).await, ["new"]);
    assert!(live("NEW", now + 1000).await.is_empty(), "expired");
    assert!(
        !store::recovery::consume(&db.pool, &old_id, now, 5)
            .await
            .unwrap(),
        "a retired code is not consumed"
    );
    assert!(
        store::recovery::consume(&db.pool, &new, now, 5)
            .await
            .unwrap()
    );
    assert!(
        !store::recovery::consume(&db.pool, &new, now, 5)
            .await
            .unwrap(),
        "used once"
    );
}

async fn recovery_codes_die_after_wrong_guesses(db: &Db) {
    let (user_id, _) = owner(db, "guess@example.com").await;
    let now = now_ms();
    let id = new_id();
    let row = NewCode {
        id: &id,
        user_id: &user_id,
        code_hash: "h",
        selector: "SEL",
        expires_at: now + 1000,
        now,
    };
    store::recovery::insert(&db.pool, row).await.unwrap();
    for _ in 0..2 {
        store::recovery::count_wrong_guess(&db.pool, "SEL", now)
            .await
            .unwrap();
    }
    let found = store::recovery::live_by_selector(&db.pool, "SEL", now, 3)
        .await
        .unwrap();
    assert_eq!(found.len(), 1, "two wrong guesses of three allowed");
    assert_eq!(found[0].user_id, user_id);
    store::recovery::count_wrong_guess(&db.pool, "SEL", now)
        .await
        .unwrap();
    assert!(
        store::recovery::live_by_selector(&db.pool, "SEL", now, 3)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        !store::recovery::consume(&db.pool, &id, now, 3)
            .await
            .unwrap(),
        "a code past its guesses cannot be used"
    );
}

/// A task of connection `connection-1`'s campaign group 4200000123.
fn scoped_task(workspace_id: &str) -> NewTask<'_> {
    NewTask {
        workspace_id,
        user_id: None,
        kind: "sync-reports",
        message: "Syncing metrics",
        total_steps: 1,
        account_id: Some("connection-1"),
        org_id: Some(4_200_000_123),
    }
}

async fn tasks_are_scoped_and_finish_once(db: &Db) {
    let (user_id, workspace_id) = owner(db, "task@example.com").await;
    let task = NewTask {
        workspace_id: &workspace_id,
        user_id: Some(&user_id),
        kind: "k",
        message: "Queued",
        total_steps: 3,
        account_id: None,
        org_id: None,
    };
    let id = store::tasks::create(&db.pool, task).await.unwrap();
    // A task of one connection and campaign group says so; the others say nothing.
    let scoped = NewTask {
        workspace_id: &workspace_id,
        user_id: None,
        kind: "sync-reports",
        message: "Syncing metrics",
        total_steps: 1,
        account_id: Some("connection-1"),
        org_id: Some(4_200_000_123),
    };
    let scoped = store::tasks::create(&db.pool, scoped).await.unwrap();
    let scope_of = |t: Option<searchdeck_common::tasks::TaskRecord>| {
        let t = t.unwrap();
        (t.account_id, t.org_id)
    };
    assert_eq!(
        scope_of(
            store::tasks::in_workspace(&db.pool, &workspace_id, &scoped)
                .await
                .unwrap()
        ),
        (Some("connection-1".to_string()), Some(4_200_000_123))
    );
    assert_eq!(
        scope_of(
            store::tasks::in_workspace(&db.pool, &workspace_id, &id)
                .await
                .unwrap()
        ),
        (None, None)
    );
    // The unfinished tasks of some kinds in one campaign group (running creations).
    let creation = store::tasks::create(
        &db.pool,
        NewTask {
            kind: "create-campaigns",
            message: "Creating campaigns...",
            ..scoped_task(&workspace_id)
        },
    )
    .await
    .unwrap();
    let in_org = |kinds: &'static [&'static str], org_id: i64| {
        let workspace_id = workspace_id.clone();
        async move {
            store::tasks::unfinished_in_org(&db.pool, &workspace_id, "connection-1", org_id, kinds)
                .await
                .unwrap()
                .into_iter()
                .map(|t| t.id)
                .collect::<std::collections::BTreeSet<_>>()
                .into_iter()
                .collect::<Vec<_>>()
        }
    };
    let both: &[&str] = &["create-campaigns", "sync-reports"];
    let mut two = vec![scoped.clone(), creation.clone()];
    two.sort();
    assert_eq!(in_org(both, 4_200_000_123).await, two);
    assert_eq!(
        in_org(&["create-campaigns"], 4_200_000_123).await,
        std::slice::from_ref(&creation)
    );
    assert!(in_org(both, 7).await.is_empty(), "another campaign group");
    assert!(in_org(&[], 4_200_000_123).await.is_empty());
    assert!(
        store::tasks::unfinished_in_org(&db.pool, "other", "connection-1", 4_200_000_123, both)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store::tasks::finish(&db.pool, &creation, "Done", None)
            .await
            .unwrap()
    );
    assert_eq!(
        in_org(both, 4_200_000_123).await,
        std::slice::from_ref(&scoped),
        "finished: gone"
    );
    store::tasks::progress(
        &db.pool,
        &id,
        "Working",
        1,
        3,
        Some(&serde_json::json!({"n": 1})),
    )
    .await
    .unwrap();
    assert_eq!(store::tasks::attempt(&db.pool, &id).await.unwrap(), 1);
    let t = store::tasks::in_workspace(&db.pool, &workspace_id, &id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            t.message.as_str(),
            t.step,
            t.percent,
            t.details["n"].as_i64()
        ),
        ("Working", 1, 25, Some(1))
    );
    assert!(
        store::tasks::in_workspace(&db.pool, "other", &id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store::tasks::finish(&db.pool, &id, "Done", None)
            .await
            .unwrap()
    );
    assert!(
        !store::tasks::finish(&db.pool, &id, "Again", Some("x"))
            .await
            .unwrap()
    );
    store::tasks::progress(&db.pool, &id, "Late", 2, 3, None)
        .await
        .unwrap();
    let list = store::tasks::for_user(&db.pool, &workspace_id, &user_id, 60_000, 10)
        .await
        .unwrap();
    assert_eq!(
        (
            list.len(),
            list[0].message.as_str(),
            list[0].step,
            list[0].finish
        ),
        (1, "Done", 3, true)
    );
    // Every message shown, in order, each once (a repeated progress adds none; a finished
    // task takes no more).
    let phases = store::tasks::in_workspace(&db.pool, &workspace_id, &id)
        .await
        .unwrap()
        .unwrap()
        .phases;
    let first = phases.first().cloned().unwrap_or_default();
    assert_eq!(
        phases[1..],
        ["Working".to_string(), "Done".to_string()],
        "{first} then…"
    );
    let quoted = store::tasks::create(
        &db.pool,
        NewTask {
            workspace_id: &workspace_id,
            user_id: Some(&user_id),
            kind: "test",
            message: "Starting \"now\"",
            total_steps: 3,
            account_id: None,
            org_id: None,
        },
    )
    .await
    .unwrap();
    for m in ["Step \\ one", "Step \\ one", "Step two", "Done"] {
        store::tasks::progress(&db.pool, &quoted, m, 1, 3, None)
            .await
            .unwrap();
    }
    let t = store::tasks::in_workspace(&db.pool, &workspace_id, &quoted)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        t.phases,
        ["Starting \"now\"", "Step \\ one", "Step two", "Done"]
    );
}

async fn store_functions_compose_in_one_transaction(db: &Db) {
    let (user_id, workspace_id) = owner(db, "tx@example.com").await;
    let mut tx = db.pool.begin().await.unwrap();
    store::users::set_password(&mut *tx, &user_id, "changed", now_ms())
        .await
        .unwrap();
    let options = store::options::Owner {
        user_id: &user_id,
        workspace_id: &workspace_id,
    };
    store::options::upsert(&mut *tx, options, "k", "1", 1, 1)
        .await
        .unwrap();
    let task = NewTask {
        workspace_id: &workspace_id,
        user_id: None,
        kind: "k",
        message: "",
        total_steps: 0,
        account_id: None,
        org_id: None,
    };
    store::tasks::create(&mut *tx, task).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(
        store::users::password_hash(&db.pool, &user_id)
            .await
            .unwrap(),
        "h"
    );
    assert!(
        store::options::all(&db.pool, options)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store::tasks::for_user(&db.pool, &workspace_id, &user_id, 60_000, 10)
            .await
            .unwrap()
            .is_empty()
    );
}

fn rate(day: &str, currency: &str, rate: &str) -> store::fx_rates::StoredRate {
    store::fx_rates::StoredRate {
        day: day.into(),
        currency: currency.into(),
        rate: rate.into(),
        source: "ECB".into(),
    }
}

async fn fx_rates_are_the_latest_on_or_before_a_day(db: &Db) {
    use store::fx_rates;
    assert_eq!(fx_rates::latest_day(&db.pool).await.unwrap(), None);
    for r in [
        rate("2026-11-19", "USD", "1.0498"),
        rate("2026-11-20", "USD", "1.0523"),
        rate("2026-11-18", "JPY", "161.9"),
        rate("2026-11-23", "USD", "1.06"),
    ] {
        fx_rates::upsert(&db.pool, &r, 1).await.unwrap();
    }
    // A restated rate replaces the published one.
    fx_rates::upsert(&db.pool, &rate("2026-11-20", "USD", "1.0525"), 2)
        .await
        .unwrap();
    // Sunday the 22nd: the Friday's dollar, and the yen's latest (an older day).
    let rates = fx_rates::on_or_before(&db.pool, "2026-11-22")
        .await
        .unwrap();
    assert_eq!(
        rates,
        [
            rate("2026-11-18", "JPY", "161.9"),
            rate("2026-11-20", "USD", "1.0525")
        ]
    );
    let set = fx_rates::rate_set(&db.pool, day(22)).await.unwrap();
    assert_eq!(set.source.as_deref(), Some("ECB"));
    assert_eq!(set.day_of(["USD", "JPY"]), Some(day(20)));
    assert!(
        fx_rates::on_or_before(&db.pool, "2026-11-17")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        fx_rates::latest_day(&db.pool).await.unwrap().as_deref(),
        Some("2026-11-23")
    );
}

/// Campaign-level metrics of `org_key` on November `d`: `taps` taps and `spend_micros`.
async fn campaign_day(db: &Db, org_key: i64, d: u8, taps: i64, spend_micros: i64) {
    let on = day(d).to_string();
    let row = store::synced::metrics::DayRow {
        day: on.clone(),
        entity_id: 7,
        campaign_id: 7,
        ad_group_id: 0,
        impressions: taps * 10,
        taps,
        tap_installs: taps / 2,
        spend_micros,
        ..Default::default()
    };
    store::synced::metrics::replace_days(&db.pool, org_key, FactLevel::Campaign, &on, &on, &[row])
        .await
        .unwrap();
}

async fn reports_over_currencies_give_subtotals_and_convert_at_stored_rates(db: &Db) {
    use searchdeck_common::report::{self, Cancel, Context, ReportBody};
    use serde_json::json;
    use store::accounts::OrgRow;

    let (workspace_id, account_id, usd) = connected_org(db, "fx@example.com").await;
    let jpy = store::synced::ensure_org(&db.pool, &account_id, 43, Some("JPY"), None)
        .await
        .unwrap();
    for (org_id, currency) in [(42, "USD"), (43, "JPY"), (44, "EUR")] {
        let row = OrgRow {
            org_id,
            display_name: format!("Group {currency}"),
            currency: Some(currency.into()),
            time_zone: None,
            permission: "ADMIN".into(),
            selected: true,
        };
        store::accounts::upsert_org(&db.pool, &account_id, &row, 1)
            .await
            .unwrap();
    }
    // 108.70 USD and 16,304.35 JPY are 100 EUR each at the rates of the 20th.
    campaign_day(db, usd, 20, 10, 108_700_000).await;
    campaign_day(db, jpy, 20, 30, 16_304_350_000).await;
    campaign_day(db, jpy, 21, 2, 1_000_000).await;
    for key in [usd, jpy] {
        report_facts::refresh(db, key, FactLevel::Campaign, day(1))
            .await
            .unwrap();
        store::synced::set_metrics_synced(&db.pool, key, "2026-11-01", "2026-11-21", 1, "job:done")
            .await
            .unwrap();
    }
    store::synced::set_last_synced(&db.pool, &account_id, 1)
        .await
        .unwrap();
    for r in [
        rate("2026-11-20", "USD", "1.0870"),
        rate("2026-11-20", "JPY", "163.0435"),
        rate("2026-11-19", "USD", "2"),
    ] {
        store::fx_rates::upsert(&db.pool, &r, 1).await.unwrap();
    }
    let engines = Engines::default();
    let caches = &engines.reports;
    let ctx = Context {
        workspace_id: workspace_id.clone(),
        account_id: account_id.clone(),
        org: None,
        columns: engines.plan(db, &workspace_id).await.unwrap().columns(),
    };
    let body = |level: &str, reporting: Option<&str>| ReportBody {
        level: Some(level.into()),
        start_date: Some("2026-11-19".into()),
        end_date: Some("2026-11-22".into()),
        graph: true,
        reporting_currency: reporting.map(str::to_string),
        ..Default::default()
    };
    let run = |b: ReportBody| {
        let ctx = ctx.clone();
        async move {
            report::run(db, caches, &ctx, &b.parse().unwrap(), &Cancel::new())
                .await
                .unwrap()
        }
    };

    // Per currency, never added up: the totals leave money out, the subtotals have it.
    let orgs = run(body("ORGS", None)).await;
    assert_eq!(orgs.currency, None);
    let totals = orgs.totals.as_ref().unwrap();
    assert_eq!(totals["localSpend"], json!(null));
    assert_eq!(totals["taps"], json!(42));
    let subtotals = orgs.subtotals.as_ref().unwrap();
    let by: Vec<(&str, &serde_json::Value, &serde_json::Value)> = subtotals
        .iter()
        .map(|s| {
            (
                s["currency"].as_str().unwrap(),
                &s["localSpend"],
                &s["avgCPT"],
            )
        })
        .collect();
    // The EUR group has no metrics stored (it shows as syncing) and adds nothing.
    assert_eq!(
        by,
        [
            ("JPY", &json!(16305), &json!(509)),
            ("USD", &json!(108.7), &json!(10.87)),
        ]
    );
    assert!(orgs.converted.is_none());
    let graph = orgs.graph.as_ref().unwrap();
    let on20 = graph.iter().find(|p| p["date"] == "2026-11-20").unwrap();
    assert_eq!(on20["localSpend"], json!(null));
    assert_eq!(on20["byCurrency"]["USD"]["localSpend"], json!(108.7));
    assert_eq!(on20["byCurrency"]["JPY"]["localSpend"], json!(16304));
    assert_eq!(on20["synced"], json!(true));
    let on22 = graph.iter().find(|p| p["date"] == "2026-11-22").unwrap();
    assert_eq!(on22["synced"], json!(false), "after metrics_through");
    // The group without stored metrics is flagged, not shown as zeros that look like data.
    let syncing: Vec<(String, bool)> = orgs
        .items
        .iter()
        .map(|r| {
            (
                r["orgName"].as_str().unwrap().to_string(),
                r["syncing"] == json!(true),
            )
        })
        .collect();
    assert!(
        syncing.contains(&("Group EUR".to_string(), true)),
        "{syncing:?}"
    );
    assert!(
        syncing.contains(&("Group USD".to_string(), false)),
        "{syncing:?}"
    );
    assert!(orgs.syncing);

    // Converted to euros at the rates in force on the range's last day (a Sunday: the
    // Friday's), decimal and floored to the euro's cents.
    let eur = run(body("ORGS", Some("eur"))).await;
    let converted = eur.converted.as_ref().unwrap();
    assert_eq!(converted.currency, "EUR");
    assert_eq!(converted.rate_date.as_deref(), Some("2026-11-20"));
    assert_eq!(converted.asked_date, "2026-11-22");
    assert_eq!(converted.source.as_deref(), Some("ECB"));
    assert!(converted.missing.is_empty());
    // 100 + 100 + 1,000,000 / 163.0435 micros (6.133332…) = 200.006133 EUR.
    assert_eq!(converted.totals["localSpend"], json!(200));
    assert_eq!(converted.totals["taps"], json!(42));
    let graph = eur.graph.as_ref().unwrap();
    let on20 = graph.iter().find(|p| p["date"] == "2026-11-20").unwrap();
    assert_eq!(on20["converted"]["localSpend"], json!(200));
    // To yen, whole units.
    let yen = run(body("ORGS", Some("JPY"))).await;
    assert_eq!(yen.converted.unwrap().totals["localSpend"], json!(32609));

    // All accounts: the one account spans currencies, with the same subtotals.
    let accounts = run(body("ACCOUNTS", Some("EUR"))).await;
    assert_eq!(accounts.items[0]["currency"], json!(null));
    assert_eq!(accounts.subtotals.as_ref().unwrap().len(), 2);
    assert_eq!(accounts.converted.unwrap().totals["localSpend"], json!(200));

    // An unknown reporting currency is a field error, not a failure.
    let bad = body("ORGS", Some("XXX")).parse().unwrap_err();
    assert_eq!(bad[0].field, "reportingCurrency");
}

async fn suggester_results_timings_defaults_and_places(db: &Db) {
    use store::suggester;
    let (workspace_id, _account_id, org_key) = connected_org(db, "sugg@example.com").await;
    let (_, other_ws) = owner(db, "other@example.com").await;
    let task = |ws: String| async move {
        store::tasks::create(
            &db.pool,
            NewTask {
                workspace_id: &ws,
                user_id: None,
                kind: "collect-keywords",
                message: "m",
                total_steps: 7,
                account_id: None,
                org_id: None,
            },
        )
        .await
        .unwrap()
    };
    let t1 = task(workspace_id.clone()).await;
    let now = now_ms();
    suggester::save_result(&db.pool, &t1, &workspace_id, "[1]", now)
        .await
        .unwrap();
    // Written once: a second save keeps the first.
    suggester::save_result(&db.pool, &t1, &workspace_id, "[2]", now)
        .await
        .unwrap();
    assert_eq!(
        suggester::result(&db.pool, &workspace_id, &t1, now)
            .await
            .unwrap()
            .as_deref(),
        Some("[1]")
    );
    assert_eq!(
        suggester::result(&db.pool, &other_ws, &t1, now)
            .await
            .unwrap(),
        None,
        "another workspace's"
    );
    let day = suggester::RESULT_TTL_MS;
    assert_eq!(
        suggester::result(&db.pool, &workspace_id, &t1, now + day + 1)
            .await
            .unwrap(),
        None,
        "24 h later"
    );
    assert_eq!(
        suggester::delete_expired(&db.pool, now + day)
            .await
            .unwrap(),
        0
    );
    assert_eq!(
        suggester::delete_expired(&db.pool, now + day + 1)
            .await
            .unwrap(),
        1
    );

    assert_eq!(
        suggester::median_duration(&db.pool, "app", "US")
            .await
            .unwrap(),
        None
    );
    assert_eq!(suggester::median_ms_per_call(&db.pool).await.unwrap(), None);
    for (i, ms) in [9_000, 1_000, 5_000, 3_000].iter().enumerate() {
        suggester::record_run(&db.pool, "app", "US", *ms, 100, now + i as i64)
            .await
            .unwrap();
    }
    suggester::record_run(&db.pool, "keywords", "US", 60_000, 20, now)
        .await
        .unwrap();
    // Per call over every type and country: 90, 10, 50, 30 and 3,000 ms.
    assert_eq!(
        suggester::median_ms_per_call(&db.pool).await.unwrap(),
        Some(50)
    );
    assert_eq!(
        suggester::median_duration(&db.pool, "app", "US")
            .await
            .unwrap(),
        Some(4_000)
    );
    // Only the last 10 count.
    for i in 0..10 {
        suggester::record_run(&db.pool, "app", "US", 100_000, 50, now + 100 + i)
            .await
            .unwrap();
    }
    assert_eq!(
        suggester::median_duration(&db.pool, "app", "US")
            .await
            .unwrap(),
        Some(100_000)
    );

    let (user_id, ws) = owner(db, "defaults@example.com").await;
    assert_eq!(
        suggester::defaults(&db.pool, &ws, &user_id).await.unwrap(),
        None
    );
    suggester::set_defaults(&db.pool, &ws, &user_id, "[\"a\"]", now)
        .await
        .unwrap();
    suggester::set_defaults(&db.pool, &ws, &user_id, "[\"free\"]", now + 1)
        .await
        .unwrap();
    assert_eq!(
        suggester::defaults(&db.pool, &ws, &user_id)
            .await
            .unwrap()
            .as_deref(),
        Some("[\"free\"]")
    );

    // Places: live keywords with campaign and ad group names, negatives at both levels,
    // search terms of the app's campaigns only.
    for sql in [
        "INSERT INTO asa_campaigns (org_key, id, name, adam_id, status, synced_at) VALUES ($1, 1, 'US Brand', 77, 'ENABLED', 1)",
        "INSERT INTO asa_campaigns (org_key, id, name, adam_id, status, synced_at) VALUES ($1, 2, 'Other app', 88, 'ENABLED', 1)",
        "INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, 10, 1, 'Exact', 'ENABLED', 1)",
        "INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, 100, 1, 10, 'Photo Editor', 'EXACT', 'ACTIVE', 1)",
        "INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, deleted, synced_at) VALUES ($1, 101, 1, 10, 'gone', 'EXACT', 'ACTIVE', 1, 1)",
        "INSERT INTO asa_negative_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, 200, 1, NULL, 'free', 'EXACT', 'ACTIVE', 1)",
        "INSERT INTO asa_negative_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, synced_at) VALUES ($1, 201, 1, 10, 'cheap', 'EXACT', 'ACTIVE', 1)",
        "INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, text, source) VALUES ($1, 300, 1, 10, 'photo editor pro', 'AUTO')",
        "INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, text, source) VALUES ($1, 301, 2, 20, 'not this app', 'AUTO')",
    ] {
        sqlx::query(sqlx::AssertSqlSafe(sql))
            .bind(org_key)
            .execute(&db.pool)
            .await
            .unwrap();
    }
    let places = suggester::keyword_places(&db.pool, org_key).await.unwrap();
    let s = |t: &str| t.to_string();
    assert_eq!(
        places,
        vec![(
            s("Photo Editor"),
            s("EXACT"),
            1,
            s("US Brand"),
            10,
            s("Exact")
        )]
    );
    let negatives = suggester::negative_places(&db.pool, org_key).await.unwrap();
    assert_eq!(
        negatives,
        vec![
            (s("free"), 1, s("US Brand"), None),
            (s("cheap"), 1, s("US Brand"), Some(10))
        ]
    );
    let terms = suggester::search_terms(&db.pool, org_key, 77)
        .await
        .unwrap();
    assert_eq!(terms, vec![(300, "photo editor pro".to_string())]);

    // A stop finishes a running task of the workspace once, with its details.
    let t2 = task(workspace_id.clone()).await;
    let details = serde_json::json!({"candidates": 3, "stopped": true});
    assert!(
        !store::tasks::stop(&db.pool, &other_ws, &t2, "Stopped", &details)
            .await
            .unwrap()
    );
    assert!(
        store::tasks::stop(&db.pool, &workspace_id, &t2, "Stopped", &details)
            .await
            .unwrap()
    );
    assert!(
        !store::tasks::stop(&db.pool, &workspace_id, &t2, "Stopped", &details)
            .await
            .unwrap()
    );
    let stopped = store::tasks::in_workspace(&db.pool, &workspace_id, &t2)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (stopped.finish, stopped.error.as_deref(), stopped.details),
        (true, Some("Stopped"), details)
    );
    assert!(store::tasks::cancel_requested(&db.pool, &t2).await.unwrap());
    assert!(
        !store::tasks::finish(&db.pool, &t2, "Keywords collecting completed!", None)
            .await
            .unwrap()
    );
}

/// The creation jobs' records: one row per job and natural key (the first kept), read back
/// per job, old ones removed.
async fn creation_entities_are_recorded_once_per_job(db: &Db) {
    use store::creation;
    creation::record(&db.pool, "job-a", "c:US Brand", 101, None, 1_000)
        .await
        .unwrap();
    // A rerun that found the entity again records nothing new.
    creation::record(&db.pool, "job-a", "c:US Brand", 999, Some("x"), 2_000)
        .await
        .unwrap();
    let refused = r#"[{"text":"x"}]"#;
    let mut tx = db.pool.begin().await.unwrap();
    creation::record(&mut *tx, "job-a", "k:7", 0, Some(refused), 3_000)
        .await
        .unwrap();
    creation::record(&mut *tx, "job-b", "c:US Brand", 202, None, 5_000)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let a = creation::of_job(&db.pool, "job-a").await.unwrap();
    assert_eq!(a.len(), 2);
    assert_eq!(
        a["c:US Brand"],
        creation::Recorded {
            provider_id: 101,
            detail: None
        }
    );
    assert_eq!(a["k:7"].detail.as_deref(), Some(refused));
    assert_eq!(
        creation::of_job(&db.pool, "job-b").await.unwrap()["c:US Brand"].provider_id,
        202
    );
    assert!(creation::of_job(&db.pool, "nope").await.unwrap().is_empty());
    // A rolled-back record is not there.
    let mut tx = db.pool.begin().await.unwrap();
    creation::record(&mut *tx, "job-c", "g:1:Exact", 5, None, 1)
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    assert!(
        creation::of_job(&db.pool, "job-c")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(creation::delete_before(&db.pool, 4_000).await.unwrap(), 2);
    assert!(
        creation::of_job(&db.pool, "job-a")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(creation::of_job(&db.pool, "job-b").await.unwrap().len(), 1);
}

/// Last month's spend (`plan::spend::last_month_usd`) is read from the reports once and then
/// answered from the memo, until a refresh publishes new synced metrics of one of the
/// workspace's campaign groups, the month turns or a connection goes.
async fn last_month_spend_is_memoised_until_new_synced_data(db: &Db) {
    use searchdeck_common::plan::Plan;
    use time::macros::datetime;

    let (workspace_id, account_id, org_key) = connected_org(db, "spend@example.com").await;
    let org = store::accounts::OrgRow {
        org_id: 42,
        display_name: "Acme".into(),
        currency: Some("USD".into()),
        time_zone: None,
        permission: "ADMIN".into(),
        selected: true,
    };
    store::accounts::upsert_org(&db.pool, &account_id, &org, now_ms())
        .await
        .unwrap();
    let spent = |d: u8, dollars: i64| {
        let mut counters = Counters::default();
        counters.0[10] = dollars * 1_000_000;
        DayRow {
            org_key,
            level: FactLevel::Campaign,
            day: day(d),
            entity_id: 7,
            campaign_id: 7,
            ad_group_id: 0,
            counters,
        }
    };
    let december = datetime!(2026-12-15 12:00 UTC).unix_timestamp() * 1000;
    report_facts::insert_days(db, &[spent(3, 4_000)])
        .await
        .unwrap();
    report_facts::refresh(db, org_key, FactLevel::Campaign, day(3))
        .await
        .unwrap();
    let engines = Engines::default();
    let reads = engines.spend.reads();
    let usd = |n: i64| rust_decimal::Decimal::from(n);
    assert_eq!(
        engines
            .last_month_usd(db, &workspace_id, december)
            .await
            .unwrap(),
        usd(4_000)
    );
    assert_eq!(engines.spend.reads(), reads + 1);
    for _ in 0..3 {
        assert_eq!(
            engines
                .last_month_usd(db, &workspace_id, december)
                .await
                .unwrap(),
            usd(4_000)
        );
        assert_eq!(
            engines
                .standing(db, &workspace_id, december)
                .await
                .unwrap()
                .plan,
            Plan::ProFree
        );
    }
    assert_eq!(engines.spend.reads(), reads + 1, "answered from the memo");

    // The sync stores new metrics and refreshes: the memo is read again, the plan follows.
    report_facts::insert_days(db, &[spent(10, 6_000), spent(11, 1)])
        .await
        .unwrap();
    report_facts::refresh(db, org_key, FactLevel::Campaign, day(10))
        .await
        .unwrap();
    assert_eq!(
        engines
            .standing(db, &workspace_id, december)
            .await
            .unwrap()
            .plan,
        Plan::ProLimited
    );
    assert_eq!(
        engines
            .last_month_usd(db, &workspace_id, december)
            .await
            .unwrap(),
        usd(10_001)
    );
    assert_eq!(
        engines.spend.reads(),
        reads + 2,
        "read once after the refresh"
    );

    // A restatement of a day already stored is new synced data too.
    report_facts::insert_days(db, &[spent(11, 0)])
        .await
        .unwrap();
    report_facts::refresh(db, org_key, FactLevel::Campaign, day(11))
        .await
        .unwrap();
    assert_eq!(
        engines
            .last_month_usd(db, &workspace_id, december)
            .await
            .unwrap(),
        usd(10_000)
    );
    assert_eq!(engines.spend.reads(), reads + 3);

    // Another month is another sum; a connection removed takes its groups' spend with it.
    let january = datetime!(2027-01-02 00:00 UTC).unix_timestamp() * 1000;
    assert_eq!(
        engines
            .last_month_usd(db, &workspace_id, january)
            .await
            .unwrap(),
        usd(0)
    );
    store::accounts::delete(&db.pool, &account_id)
        .await
        .unwrap();
    assert_eq!(
        engines
            .last_month_usd(db, &workspace_id, december)
            .await
            .unwrap(),
        usd(0)
    );
    assert_eq!(engines.spend.reads(), reads + 5);
}
