//! Conformance cases of the report facts' blobs and their generations (run on both backends
//! by the `store` suite), over long stretches of days across many checkpoints: the blobs stay
//! exact through restatements, backfills and deletions, and a read sees one generation
//! whole while a refresh writes the next, even one cut short.

use searchdeck_common::{
    Db,
    store::{
        self,
        report_facts::{self, Counters, DayRow, FactLevel, Scope},
    },
};
use time::{Date, Month};

use super::org;

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

pub async fn facts_blobs_stay_exact_through_restatements_backfills_and_deletions(db: &Db) {
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
pub async fn facts_reads_see_one_generation_while_a_refresh_runs(db: &Db) {
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
