//! Conformance of the change-history store (`store::activity::change_history`) on SQLite and, with
//! `TEST_DATABASE_URL`, PostgreSQL: the per-campaign-group mark only moves forward; a field
//! change of Apple's history is ours when one of our change records (not one read from the
//! history itself) of the same workspace, group, level, entity and field set the same value
//! (amounts as numbers) within ten minutes; synced entities are named with their campaign.

use searchdeck_common::{
    Db,
    store::{
        activity::change_history::{self, Detail, Mark},
        activity::changes::{self, NewChange},
        activity::notifications::{self, NewNotification},
        synced::{self, entities},
    },
};

use crate::changes::{change, workspace};

conformance!("sd_change_history";
    the_mark_moves_forward_only,
    a_detail_is_ours_when_our_record_set_the_same_value_nearby,
    synced_entities_are_named_with_their_campaign,
);

async fn the_mark_moves_forward_only(db: &Db) {
    let (_, _, account) = workspace(db).await;
    let (_, _, other) = workspace(db).await;
    assert_eq!(
        change_history::mark(&db.pool, &account, 7).await.unwrap(),
        None
    );
    let at = |ms: i64, txn: &str| Mark {
        event_time_ms: ms,
        transaction_id: Some(txn.into()),
    };
    change_history::set_mark(&db.pool, &account, 7, &at(2_000, "b"), 1)
        .await
        .unwrap();
    change_history::set_mark(&db.pool, &account, 7, &at(1_000, "a"), 2)
        .await
        .unwrap();
    assert_eq!(
        change_history::mark(&db.pool, &account, 7).await.unwrap(),
        Some(at(2_000, "b")),
        "an older mark does not move it back"
    );
    change_history::set_mark(&db.pool, &account, 7, &at(3_000, "c"), 3)
        .await
        .unwrap();
    assert_eq!(
        change_history::mark(&db.pool, &account, 7).await.unwrap(),
        Some(at(3_000, "c"))
    );
    // Per campaign group and per connection.
    assert_eq!(
        change_history::mark(&db.pool, &account, 8).await.unwrap(),
        None
    );
    assert_eq!(
        change_history::mark(&db.pool, &other, 7).await.unwrap(),
        None
    );
    // Removing the connection removes its marks.
    sqlx::query("DELETE FROM accounts WHERE id = $1")
        .bind(&account)
        .execute(&db.pool)
        .await
        .unwrap();
    assert_eq!(
        change_history::mark(&db.pool, &account, 7).await.unwrap(),
        None
    );
}

fn record(
    w: &(String, String, String),
    entity_id: i64,
    field: &str,
    new_value: Option<&str>,
    at: i64,
) -> NewChange {
    NewChange {
        new_value: new_value.map(str::to_string),
        ..change(w, "KEYWORD", entity_id, field, at)
    }
}

async fn a_detail_is_ours_when_our_record_set_the_same_value_nearby(db: &Db) {
    let w = workspace(db).await;
    let other = workspace(db).await;
    let t = 1_800_000_000;
    let mut conn = db.pool.acquire().await.unwrap();
    changes::insert(&mut conn, &record(&w, 1001, "cptBid", Some("1.5"), t))
        .await
        .unwrap();
    changes::insert(&mut conn, &record(&w, 1002, "status", None, t))
        .await
        .unwrap();
    // A change read from Apple's history before is not ours.
    let n = notifications::record(
        &mut conn,
        &NewNotification {
            workspace_id: w.0.clone(),
            key: format!("history:{}:100:t1", w.2),
            tag: notifications::TAG_MANUAL,
            kind: notifications::TYPE_CHANGE,
            title: "Bid changed in Apple Ads".into(),
            action: "UPDATE".into(),
            target: "KEYWORD".into(),
            source: notifications::SOURCE_APPLE_ADS,
            source_name: "Apple Ads".into(),
            user_id: None,
            email: None,
            rule_id: None,
            account_id: Some(w.2.clone()),
            org_id: Some(100),
            undo_of: None,
            created_at: t,
        },
    )
    .await
    .unwrap();
    let mut outside = record(&w, 1003, "cptBid", Some("2"), t);
    outside.user_id = None;
    outside.notification_id = Some(n);
    changes::insert(&mut conn, &outside).await.unwrap();
    drop(conn);

    let ws = w.0.as_str();
    let detail =
        |entity_id: i64, field: &'static str, value: Option<&'static str>, at: i64| Detail {
            workspace_id: ws,
            org_id: 100,
            level: "KEYWORD",
            entity_id,
            field,
            new_value: value,
            at,
        };
    let cases = [
        (
            detail(1001, "cptBid", Some("1.50"), t + 30),
            true,
            "amounts compare as numbers",
        ),
        (
            detail(1001, "cptBid", Some("1.5"), t - 600),
            true,
            "ten minutes early",
        ),
        (
            detail(1001, "cptBid", Some("1.5"), t + 600),
            true,
            "ten minutes late",
        ),
        (
            detail(1001, "cptBid", Some("1.5"), t + 601),
            false,
            "past the window",
        ),
        (
            detail(1001, "cptBid", Some("1.6"), t),
            false,
            "another value",
        ),
        (
            detail(1001, "status", Some("1.5"), t),
            false,
            "another field",
        ),
        (
            detail(1004, "cptBid", Some("1.5"), t),
            false,
            "another entity",
        ),
        (
            Detail {
                workspace_id: &other.0,
                ..detail(1001, "cptBid", Some("1.5"), t)
            },
            false,
            "another workspace",
        ),
        (
            Detail {
                org_id: 101,
                ..detail(1001, "cptBid", Some("1.5"), t)
            },
            false,
            "another campaign group",
        ),
        (
            Detail {
                level: "AD_GROUP",
                ..detail(1001, "cptBid", Some("1.5"), t)
            },
            false,
            "another level",
        ),
        (detail(1002, "status", None, t), true, "a cleared value"),
        (
            detail(1003, "cptBid", Some("2"), t),
            false,
            "read from the history: not ours",
        ),
    ];
    for (d, expected, why) in cases {
        assert_eq!(
            change_history::is_ours(&db.pool, &d).await.unwrap(),
            expected,
            "{why}"
        );
    }
    // The entity-level question (any field) the sync asks before reading an API
    // transaction's fields.
    let changed = |ws: &str, org: i64, level: &'static str, id: i64, at: i64| {
        let (pool, ws) = (db.pool.clone(), ws.to_string());
        async move {
            change_history::entity_changed_by_us(&pool, &ws, org, level, id, at)
                .await
                .unwrap()
        }
    };
    assert!(
        changed(&w.0, 100, "KEYWORD", 1001, t + 30).await,
        "any field, nearby"
    );
    assert!(
        !changed(
            &w.0,
            100,
            "KEYWORD",
            1001,
            t + change_history::WINDOW_SECS + 1
        )
        .await,
        "too late"
    );
    assert!(
        !changed(&w.0, 100, "KEYWORD", 1004, t).await,
        "another entity"
    );
    assert!(
        !changed(&w.0, 101, "KEYWORD", 1001, t).await,
        "another campaign group"
    );
    assert!(
        !changed(&other.0, 100, "KEYWORD", 1001, t).await,
        "another workspace"
    );
    assert!(
        !changed(&w.0, 100, "KEYWORD", 1003, t).await,
        "read from the history: not ours"
    );
}

async fn synced_entities_are_named_with_their_campaign(db: &Db) {
    let (_, _, account) = workspace(db).await;
    let org_key = synced::ensure_org(&db.pool, &account, 100, Some("USD"), Some("UTC"))
        .await
        .unwrap();
    let mut conn = db.pool.acquire().await.unwrap();
    entities::upsert(
        &mut conn,
        org_key,
        &[entities::Campaign {
            id: 11,
            name: "Alpha".into(),
            adam_id: Some(5),
            status: "ENABLED".into(),
            display_status: None,
            system_status: None,
            daily_budget_micros: Some(50_000_000),
            countries: None,
            start_time: None,
            end_time: None,
            creation_time: None,
            modification_time: None,
            deleted: false,
            body: None,
        }],
        1,
    )
    .await
    .unwrap();
    entities::upsert(
        &mut conn,
        org_key,
        &[entities::Keyword {
            id: 1001,
            campaign_id: 11,
            ad_group_id: 111,
            text: "running shoes".into(),
            match_type: "EXACT".into(),
            bid_micros: Some(1_500_000),
            status: "ACTIVE".into(),
            display_status: None,
            modification_time: None,
            deleted: true,
        }],
        1,
    )
    .await
    .unwrap();
    drop(conn);
    assert_eq!(
        change_history::entity(&db.pool, org_key, "KEYWORD", 1001)
            .await
            .unwrap(),
        Some(change_history::Named {
            name: "running shoes".into(),
            campaign_id: 11,
            ad_group_id: Some(111),
            campaign_name: "Alpha".into(),
        }),
        "deleted ones too"
    );
    assert_eq!(
        change_history::entity(&db.pool, org_key, "CAMPAIGN", 11)
            .await
            .unwrap(),
        Some(change_history::Named {
            name: "Alpha".into(),
            campaign_id: 11,
            ad_group_id: None,
            campaign_name: "Alpha".into(),
        })
    );
    assert_eq!(
        change_history::entity(&db.pool, org_key, "AD", 1001)
            .await
            .unwrap(),
        None
    );
    assert_eq!(
        change_history::entity(&db.pool, org_key, "CREATIVE", 11)
            .await
            .unwrap(),
        None
    );
}
