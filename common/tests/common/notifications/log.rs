//! The activity log as the store keeps it: a notification written once per key with its
//! changes' campaigns, listed newest first with every filter, total and counts, and old
//! notifications deleted in batches.

use searchdeck_common::{
    Db,
    store::{
        changes,
        notifications::{self, Filter},
    },
};

use super::{base, keys, notification, seed};
use crate::changes::{change, workspace};

pub async fn a_notification_is_written_once_per_key_with_its_campaigns(db: &Db) {
    let w = workspace(db).await;
    let mut conn = db.pool.acquire().await.unwrap();
    let n = notification(&w, "job:1", notifications::TAG_MANUAL, 1_000);
    let id = notifications::record(&mut conn, &n).await.unwrap();
    assert_eq!(
        notifications::record(&mut conn, &n).await.unwrap(),
        id,
        "a retry finds the notification already written"
    );
    for (entity, campaign, name) in [(1, 11, "US — Brand"), (2, 11, "US — Brand"), (3, 12, "UK")]
    {
        let mut c = change(&w, "KEYWORD", entity, "status", 1_000);
        c.campaign_id = campaign;
        c.campaign_name = name.into();
        c.notification_id = Some(id.clone());
        assert!(changes::insert(&mut conn, &c).await.unwrap());
    }
    let row = notifications::get(&db.pool, &w.0, &id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            row.campaign_id,
            row.campaign_name.as_deref(),
            row.campaign_count
        ),
        (Some(11), Some("US — Brand"), 2),
        "the first campaign is kept, the distinct names counted"
    );
    let other = workspace(db).await;
    assert!(
        notifications::get(&db.pool, &other.0, &id)
            .await
            .unwrap()
            .is_none(),
        "another workspace's id is not found"
    );
    let mut undo = notification(&w, &format!("undo:{id}"), notifications::TAG_MANUAL, 2_000);
    undo.kind = notifications::TYPE_UNDO;
    undo.undo_of = Some(id.clone());
    let undo_id = notifications::record(&mut conn, &undo).await.unwrap();
    let row = notifications::by_key(&db.pool, &w.0, "job:1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.undone_by.as_deref(), Some(undo_id.as_str()));
    assert!(
        !notifications::set_undone_by(&db.pool, &id, "another")
            .await
            .unwrap(),
        "the first undo wins"
    );
}

pub async fn the_log_is_listed_newest_first_and_filtered(db: &Db) {
    let w = workspace(db).await;
    let other = workspace(db).await;
    let day = 86_400;
    // 2026-11-27 00:00 UTC.
    let today = 1_795_737_600;
    seed(
        db,
        &w,
        &notification(&w, "a", notifications::TAG_MANUAL, today + 3_600),
        (11, "US — Brand"),
    )
    .await;
    seed(
        db,
        &w,
        &notification(&w, "b", notifications::TAG_AUTO_RULES, today - 3_600),
        (12, "50%_off Generic"),
    )
    .await;
    seed(
        db,
        &w,
        &notification(&w, "c", notifications::TAG_MANUAL, today - 3 * day),
        (13, "50 percent off"),
    )
    .await;
    let mut elsewhere = notification(&w, "d", notifications::TAG_QUICK_START, today - 40 * day);
    elsewhere.org_id = Some(200);
    seed(db, &w, &elsewhere, (14, "Brand DE")).await;
    seed(
        db,
        &other,
        &notification(&other, "x", notifications::TAG_MANUAL, today),
        (11, "US — Brand"),
    )
    .await;

    let all = base(&w);
    assert_eq!(
        keys(db, &all, 50, 0).await,
        ["a", "b", "c", "d"],
        "newest first, this workspace only"
    );
    assert_eq!(keys(db, &all, 2, 1).await, ["b", "c"], "a page");
    assert_eq!(notifications::total(&db.pool, &all, 0).await.unwrap(), 4);

    let manual = Filter {
        tag: Some(notifications::TAG_MANUAL),
        ..base(&w)
    };
    assert_eq!(keys(db, &manual, 50, 0).await, ["a", "c"]);
    assert_eq!(notifications::total(&db.pool, &manual, 0).await.unwrap(), 2);

    let brand = Filter {
        campaign_name: Some("bRaNd"),
        ..base(&w)
    };
    assert_eq!(
        keys(db, &brand, 50, 0).await,
        ["a", "d"],
        "case-insensitive, anywhere in the name"
    );
    let literal = Filter {
        campaign_name: Some("50%_"),
        ..base(&w)
    };
    assert_eq!(
        keys(db, &literal, 50, 0).await,
        ["b"],
        "% and _ are taken literally"
    );

    // The caller lives at UTC+2: their 2026-11-27 began at 22:00 UTC the day before.
    let d = |day: u8| time::Date::from_calendar_date(2026, time::Month::November, day).unwrap();
    let (from, to) = notifications::day_bounds(d(27), d(27), 120);
    assert_eq!((from, to), (today - 7_200, today + day - 7_200));
    let dated = Filter {
        from: Some(from),
        to: Some(to),
        ..base(&w)
    };
    assert_eq!(
        keys(db, &dated, 50, 0).await,
        ["a", "b"],
        "23:00 UTC the day before is their today"
    );
    // At UTC−5 the same day began at 05:00 UTC: b (23:00 UTC the day before) is theirs too.
    let (from, to) = notifications::day_bounds(d(26), d(27), -300);
    let dated = Filter {
        from: Some(from),
        to: Some(to),
        ..base(&w)
    };
    assert_eq!(keys(db, &dated, 50, 0).await, ["a", "b"]);
    let mut counts = notifications::counts(
        &db.pool,
        &Filter {
            tag: Some(notifications::TAG_TEAM),
            ..dated.clone()
        },
    )
    .await
    .unwrap();
    counts.sort();
    assert_eq!(
        counts,
        [
            ("auto_rules".to_string(), 1),
            ("manual_change".to_string(), 1)
        ],
        "counts per tag within the dates, whatever the tag asked"
    );

    let org = Filter {
        org_id: Some(200),
        ..base(&w)
    };
    assert_eq!(keys(db, &org, 50, 0).await, ["d"]);
    let account = Filter {
        account_id: Some(&other.2),
        ..base(&w)
    };
    assert!(keys(db, &account, 50, 0).await.is_empty());
}

pub async fn retention_deletes_old_notifications_in_batches(db: &Db) {
    let w = workspace(db).await;
    for (key, at) in [("old1", 100), ("old2", 200), ("old3", 300), ("new", 5_000)] {
        seed(
            db,
            &w,
            &notification(&w, key, notifications::TAG_MANUAL, at),
            (11, "A"),
        )
        .await;
    }
    // A change record of no notification (written before the activity log).
    changes::insert(
        &mut db.pool.acquire().await.unwrap(),
        &change(&w, "KEYWORD", 7, "status", 50),
    )
    .await
    .unwrap();
    let mut conn = db.pool.acquire().await.unwrap();
    assert_eq!(
        notifications::delete_older(&mut conn, 1_000, 2)
            .await
            .unwrap(),
        3,
        "two notifications and the orphan"
    );
    assert_eq!(
        notifications::delete_older(&mut conn, 1_000, 2)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        notifications::delete_older(&mut conn, 1_000, 2)
            .await
            .unwrap(),
        0
    );
    assert_eq!(keys(db, &base(&w), 50, 0).await, ["new"]);
    let left = changes::list(
        &db.pool,
        &changes::Filter {
            workspace_id: &w.0,
            ..Default::default()
        },
        100,
    )
    .await
    .unwrap();
    assert_eq!(
        left.iter().map(|c| c.created_at).collect::<Vec<_>>(),
        [5_000],
        "their changes went with them"
    );
}
