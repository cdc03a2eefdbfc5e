//! Daily metrics: `replace_days` swaps exactly the given range of days and never stores a
//! day twice.

use searchdeck_common::{
    Backend,
    store::synced::{
        self,
        metrics::{DayRow, Level, replace_days},
    },
};

use super::{day_rows, fixture, row};

pub async fn replace_days_swaps_exactly_the_range_and_never_duplicates(backend: Backend) {
    let Some(f) = fixture(backend).await else {
        return;
    };
    let db = &f.db;
    let org_key = synced::ensure_org(&db.pool, &f.account_id, 1, None, None)
        .await
        .unwrap();
    let other = synced::ensure_org(&db.pool, &f.account_id, 2, None, None)
        .await
        .unwrap();
    let first = vec![
        row("2026-06-01", 1, 10, 100),
        row("2026-06-02", 1, 20, 200),
        row("2026-06-03", 1, 30, 300),
        row("2026-06-03", 2, 5, 50),
    ];
    replace_days(
        &db.pool,
        org_key,
        Level::Keyword,
        "2026-06-01",
        "2026-06-03",
        &first,
    )
    .await
    .unwrap();
    replace_days(
        &db.pool,
        other,
        Level::Keyword,
        "2026-06-01",
        "2026-06-03",
        &first,
    )
    .await
    .unwrap();
    replace_days(
        &db.pool,
        org_key,
        Level::Campaign,
        "2026-06-01",
        "2026-06-03",
        &first[..1],
    )
    .await
    .unwrap();
    // The same page again changes nothing.
    replace_days(
        &db.pool,
        org_key,
        Level::Keyword,
        "2026-06-01",
        "2026-06-03",
        &first,
    )
    .await
    .unwrap();
    assert_eq!(day_rows(db, org_key, Level::Keyword).await.len(), 4);
    // Restated days 2–3: day 2 corrected, entity 2 gone from day 3, day 1 untouched; other
    // levels and groups untouched. Two rows of one key add up.
    let restated = vec![
        row("2026-06-02", 1, 21, 210),
        row("2026-06-03", 1, 30, 300),
        row("2026-06-03", 1, 1, 1),
    ];
    replace_days(
        &db.pool,
        org_key,
        Level::Keyword,
        "2026-06-02",
        "2026-06-03",
        &restated,
    )
    .await
    .unwrap();
    assert_eq!(
        day_rows(db, org_key, Level::Keyword).await,
        vec![
            ("2026-06-01".to_string(), 1, 10, 100),
            ("2026-06-02".to_string(), 1, 21, 210),
            ("2026-06-03".to_string(), 1, 31, 301),
        ]
    );
    assert_eq!(day_rows(db, other, Level::Keyword).await.len(), 4);
    assert_eq!(day_rows(db, org_key, Level::Campaign).await.len(), 1);
    // A row outside the range is refused and nothing changes.
    let err = replace_days(
        &db.pool,
        org_key,
        Level::Keyword,
        "2026-06-02",
        "2026-06-02",
        &first,
    )
    .await;
    assert!(err.is_err());
    assert_eq!(day_rows(db, org_key, Level::Keyword).await.len(), 3);
    // Many rows (17 columns × 3,000 > 32,000 parameters) in one transaction.
    let many: Vec<DayRow> = (0..3000).map(|i| row("2026-06-10", i, i, i)).collect();
    let stored = replace_days(
        &db.pool,
        org_key,
        Level::SearchTerm,
        "2026-06-10",
        "2026-06-10",
        &many,
    )
    .await
    .unwrap();
    assert_eq!(stored, 3000);
    let sum: i64 = sqlx::query_scalar(
        "SELECT CAST(SUM(impressions) AS BIGINT) FROM asa_day_metrics WHERE org_key = $1 AND level = 4",
    )
    .bind(org_key)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(sum, (0..3000).sum::<i64>());
}
