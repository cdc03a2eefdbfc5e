//! The changes of the log's notifications: a page's changes grouped per field with their
//! shared values, and one notification's changes paged in order.

use searchdeck_common::{
    Db,
    store::{changes, notifications},
};

use super::notification;
use crate::changes::{change, workspace};

pub async fn changes_are_grouped_per_field_with_shared_values(db: &Db) {
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

pub async fn a_notifications_changes_are_paged_in_order(db: &Db) {
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
