//! Conformance cases of the report engine's caches over the stores (run on both backends by
//! the `store` suite): one process's cached report inputs and rule attributes follow what
//! another process writes to the same database, and reports during back-to-back refreshes
//! each show one complete state.

use searchdeck_common::{
    Db,
    report::Caches,
    store::{
        self,
        report_facts::{self, DayRow, FactLevel, Scope},
    },
    test_support::connected_org,
};

use super::{day, fact};

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
pub async fn report_caches_follow_writes_of_other_processes(db: &Db) {
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
pub async fn rule_attributes_follow_edits_of_other_processes(db: &Db) {
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
        conversions: None,
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
pub async fn reports_during_back_to_back_refreshes_show_one_state(db: &Db) {
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
