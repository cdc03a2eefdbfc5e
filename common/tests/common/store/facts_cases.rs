//! Conformance cases of `store::report_facts` (run on both backends by the `store` suite):
//! the running sums of a level's day rows answer every range and scope exactly as the naive
//! sum does, a refresh follows restated days and history fetched backwards, and batches
//! larger than one SQLite statement and the daily series are written and read whole.

use searchdeck_common::{
    Db,
    store::report_facts::{self, DayRow, FactLevel, Scope},
};

use super::{day, fact, org};

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

pub async fn facts_sum_exactly_for_every_range_and_scope(db: &Db) {
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

pub async fn facts_refresh_follows_restatements_and_backfilled_history(db: &Db) {
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

pub async fn facts_write_large_batches_and_daily_series(db: &Db) {
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
