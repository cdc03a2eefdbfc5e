//! Conformance of the notifications store (`store::notifications`, the activity log) on
//! SQLite and, with `TEST_DATABASE_URL`, PostgreSQL: a notification written once per key with
//! the campaigns of its changes; the log's list newest first with its filters (tag,
//! campaign-name search with LIKE's wildcards taken literally, the caller's days, unread,
//! connection and campaign group), total, counts per tag and the unread count; read state per
//! member (single reads and the "Mark all as read" watermark, unread again below it, another
//! workspace's ids ignored); a page's changes grouped per field with their shared values;
//! one notification's changes paged; the retention deleting in batches.

use searchdeck_common::{
    Db,
    ids::new_id,
    store::{
        changes,
        notifications::{self, Filter, NewNotification},
    },
};

use super::changes::{change, workspace};

conformance!("sd_notifications";
    a_notification_is_written_once_per_key_with_its_campaigns,
    the_log_is_listed_newest_first_and_filtered,
    read_state_is_per_member,
    changes_are_grouped_per_field_with_shared_values,
    a_notifications_changes_are_paged_in_order,
    retention_deletes_old_notifications_in_batches,
);

type Workspace = (String, String, String);

fn notification(w: &Workspace, key: &str, tag: &'static str, at: i64) -> NewNotification {
    NewNotification {
        workspace_id: w.0.clone(),
        key: key.into(),
        tag,
        kind: notifications::TYPE_CHANGE,
        title: format!("Made by {key}"),
        action: "UPDATE".into(),
        target: "KEYWORD".into(),
        source: notifications::SOURCE_USER,
        source_name: "Ann Lee".into(),
        user_id: Some(w.1.clone()),
        email: Some("ann@example.com".into()),
        rule_id: None,
        account_id: Some(w.2.clone()),
        org_id: Some(100),
        undo_of: None,
        created_at: at,
    }
}

/// Writes notification `n` with one change in campaign `campaign` (id, name) per `fields`.
async fn seed(db: &Db, w: &Workspace, n: &NewNotification, campaign: (i64, &str)) -> String {
    let mut conn = db.pool.acquire().await.unwrap();
    let id = notifications::record(&mut conn, n).await.unwrap();
    let mut c = change(w, "KEYWORD", 1001, "cptBid", n.created_at);
    c.campaign_id = campaign.0;
    c.campaign_name = campaign.1.into();
    c.notification_id = Some(id.clone());
    assert!(changes::insert(&mut conn, &c).await.unwrap());
    id
}

fn base<'a>(w: &'a Workspace) -> Filter<'a> {
    Filter {
        workspace_id: &w.0,
        user_id: &w.1,
        ..Filter::default()
    }
}

/// The keys of a page.
async fn keys(db: &Db, f: &Filter<'_>, limit: i64, skip: i64) -> Vec<String> {
    let seq = notifications::read_seq(&db.pool, f.workspace_id, f.user_id)
        .await
        .unwrap();
    notifications::list(&db.pool, f, seq, limit, skip)
        .await
        .unwrap()
        .into_iter()
        .map(|l| l.row.key)
        .collect()
}

async fn a_notification_is_written_once_per_key_with_its_campaigns(db: &Db) {
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

async fn the_log_is_listed_newest_first_and_filtered(db: &Db) {
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

async fn read_state_is_per_member(db: &Db) {
    let w = workspace(db).await;
    // A second member of the same workspace.
    let bob = new_id();
    searchdeck_common::store::users::insert(
        &db.pool,
        searchdeck_common::store::users::NewUser {
            id: &bob,
            email: &format!("{bob}@example.com"),
            password_hash: "h",
            full_name: "",
            source: "",
            now: 0,
        },
    )
    .await
    .unwrap();
    let mut ids = Vec::new();
    for (i, key) in ["a", "b", "c"].into_iter().enumerate() {
        ids.push(
            seed(
                db,
                &w,
                &notification(&w, key, notifications::TAG_MANUAL, 1_000 + i as i64),
                (11, "A"),
            )
            .await,
        );
        // Distinct insertion order (`seq` is milliseconds).
        tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    }
    let other = workspace(db).await;
    let foreign = seed(
        db,
        &other,
        &notification(&other, "x", notifications::TAG_MANUAL, 1_000),
        (11, "A"),
    )
    .await;
    let ann = base(&w);
    let bobs = Filter {
        user_id: &bob,
        ..base(&w)
    };
    let mut conn = db.pool.acquire().await.unwrap();
    assert_eq!(unread(db, &ann).await, 3);
    let marked = notifications::mark(
        &mut conn,
        &w.0,
        &w.1,
        &[ids[0].clone(), foreign.clone()],
        true,
    )
    .await
    .unwrap();
    assert_eq!(marked, 1, "another workspace's id is ignored");
    assert_eq!(
        notifications::mark(&mut conn, &w.0, &w.1, &[ids[0].clone()], true)
            .await
            .unwrap(),
        0,
        "already read"
    );
    assert_eq!(
        (unread(db, &ann).await, unread(db, &bobs).await),
        (2, 3),
        "per member"
    );
    let only_unread = Filter {
        unread: true,
        ..base(&w)
    };
    assert_eq!(keys(db, &only_unread, 50, 0).await, ["c", "b"]);
    let seq = notifications::read_seq(&db.pool, &w.0, &w.1).await.unwrap();
    let listed = notifications::list(&db.pool, &ann, seq, 50, 0)
        .await
        .unwrap();
    assert_eq!(
        listed.iter().map(|l| l.read).collect::<Vec<_>>(),
        [false, false, true]
    );

    assert_eq!(
        notifications::mark_all(&mut conn, &w.0, &w.1, true)
            .await
            .unwrap(),
        2
    );
    assert_eq!(unread(db, &ann).await, 0);
    assert_eq!(
        unread(db, &bobs).await,
        3,
        "the other member's state is untouched"
    );
    tokio::time::sleep(std::time::Duration::from_millis(3)).await;
    seed(
        db,
        &w,
        &notification(&w, "d", notifications::TAG_MANUAL, 500),
        (11, "A"),
    )
    .await;
    assert_eq!(
        unread(db, &ann).await,
        1,
        "written after the mark (however old its change): unread"
    );

    // Unread again below the watermark: only that one.
    assert_eq!(
        notifications::mark(&mut conn, &w.0, &w.1, &[ids[1].clone()], false)
            .await
            .unwrap(),
        1
    );
    assert_eq!(keys(db, &only_unread, 50, 0).await, ["b", "d"]);
    assert_eq!(
        notifications::mark_all(&mut conn, &w.0, &w.1, false)
            .await
            .unwrap(),
        2
    );
    assert_eq!(unread(db, &ann).await, 4);
    assert_eq!(
        notifications::mark(
            &mut conn,
            &other.0,
            &other.1,
            std::slice::from_ref(&ids[2]),
            true
        )
        .await
        .unwrap(),
        0,
        "another workspace's member cannot mark this one's"
    );
}

/// How many notifications `f` selects that its member has not read, whatever the dates.
async fn unread(db: &Db, f: &Filter<'_>) -> i64 {
    let seq = notifications::read_seq(&db.pool, f.workspace_id, f.user_id)
        .await
        .unwrap();
    notifications::unread(&db.pool, f, seq).await.unwrap()
}

async fn changes_are_grouped_per_field_with_shared_values(db: &Db) {
    let w = workspace(db).await;
    let mut conn = db.pool.acquire().await.unwrap();
    let paused = notifications::record(
        &mut conn,
        &notification(&w, "job:p", notifications::TAG_MANUAL, 10),
    )
    .await
    .unwrap();
    let bids = notifications::record(
        &mut conn,
        &notification(&w, "job:b", notifications::TAG_MANUAL, 20),
    )
    .await
    .unwrap();
    for entity in 1..=3 {
        let mut c = change(&w, "KEYWORD", entity, "status", 10);
        c.old_value = Some("ENABLED".into());
        c.new_value = Some("PAUSED".into());
        c.currency = None;
        c.notification_id = Some(paused.clone());
        changes::insert(&mut conn, &c).await.unwrap();
    }
    for (entity, old) in [(1, "1.00"), (2, "1.20")] {
        let mut c = change(&w, "KEYWORD", entity, "cptBid", 20);
        c.old_value = Some(old.into());
        c.new_value = Some("1.50".into());
        c.notification_id = Some(bids.clone());
        changes::insert(&mut conn, &c).await.unwrap();
    }
    let mut c = change(&w, "KEYWORD", 9, "created", 20);
    c.entity_name = "running shoes".into();
    c.old_value = None;
    c.new_value = Some("EXACT".into());
    c.notification_id = Some(bids.clone());
    changes::insert(&mut conn, &c).await.unwrap();

    let groups = notifications::groups(&db.pool, &[paused.clone(), bids.clone()])
        .await
        .unwrap();
    let summary: Vec<_> = groups
        .iter()
        .map(|g| {
            (
                g.notification_id == paused,
                g.field.as_str(),
                g.action,
                g.count,
                g.old_value.clone(),
                g.new_value.clone(),
                g.entity_name.clone(),
            )
        })
        .collect();
    let s = |v: &str| Some(Some(v.to_string()));
    let mut expected = vec![
        (true, "status", "UPDATE", 3, s("ENABLED"), s("PAUSED"), None),
        (false, "cptBid", "UPDATE", 2, None, s("1.50"), None),
        (
            false,
            "created",
            "CREATE",
            1,
            Some(None),
            s("EXACT"),
            Some("running shoes".to_string()),
        ),
    ];
    let mut got = summary.clone();
    got.sort_by_key(|g| (g.0, g.1));
    expected.sort_by_key(|g| (g.0, g.1));
    assert_eq!(got, expected);
    assert!(
        notifications::groups(&db.pool, &[])
            .await
            .unwrap()
            .is_empty()
    );
}

async fn a_notifications_changes_are_paged_in_order(db: &Db) {
    let w = workspace(db).await;
    let mut conn = db.pool.acquire().await.unwrap();
    let id = notifications::record(
        &mut conn,
        &notification(&w, "job:1", notifications::TAG_MANUAL, 10),
    )
    .await
    .unwrap();
    for entity in 1..=5 {
        let mut c = change(&w, "KEYWORD", entity, "cptBid", 10);
        c.notification_id = Some(id.clone());
        changes::insert(&mut conn, &c).await.unwrap();
    }
    let (page, total) =
        searchdeck_common::store::changes::page_of_notification(&mut conn, &id, 2, 2)
            .await
            .unwrap();
    assert_eq!(total, 5);
    assert_eq!(
        page.iter().map(|c| c.entity_id).collect::<Vec<_>>(),
        [3, 4],
        "in the order applied"
    );
    assert_eq!(
        searchdeck_common::store::changes::of_notification(&db.pool, &id)
            .await
            .unwrap()
            .len(),
        5
    );
}

async fn retention_deletes_old_notifications_in_batches(db: &Db) {
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
