//! Conformance cases of the engines' spend memo over the report facts (run on both backends by
//! the `store` suite): last month's spend, which sets a workspace's plan, is read once and
//! answered from the memo until new synced metrics, a new month or a removed connection.

use searchdeck_common::{
    Db, Engines,
    ids::now_ms,
    store::{
        self,
        report_facts::{self, Counters, DayRow, FactLevel},
    },
    test_support::connected_org,
};

use super::day;

/// Last month's spend (`plan::spend::last_month_usd`) is read from the reports once and then
/// answered from the memo, until a refresh publishes new synced metrics of one of the
/// workspace's campaign groups, the month turns or a connection goes.
pub async fn last_month_spend_is_memoised_until_new_synced_data(db: &Db) {
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
