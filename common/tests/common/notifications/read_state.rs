//! Read state per member: single reads, the "Mark all as read" watermark and notifications
//! unread again below it, each member's own, other workspaces' ids ignored.

use searchdeck_common::{
    Db,
    ids::new_id,
    store::notifications::{self, Filter},
};

use super::{base, keys, notification, seed};
use crate::changes::workspace;

/// How many notifications `f` selects that its member has not read, whatever the dates.
async fn unread(db: &Db, f: &Filter<'_>) -> i64 {
    let seq = notifications::read_seq(&db.pool, f.workspace_id, f.user_id)
        .await
        .unwrap();
    notifications::unread(&db.pool, f, seq).await.unwrap()
}

pub async fn read_state_is_per_member(db: &Db) {
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
