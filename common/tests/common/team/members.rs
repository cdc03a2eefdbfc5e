//! A workspace's members: listed with their role and last activity, roles changed with the
//! owners counted, and a removal ending the member's sessions in that workspace only.

use searchdeck_common::{
    Db,
    store::{self, team},
};

use super::{session, user, workspace};

pub async fn members_are_listed_with_role_and_last_activity(db: &Db) {
    let ws = workspace(db).await;
    let other = workspace(db).await;
    let ann = user(db, "ann@example.com", "Ann").await;
    let bob = user(db, "bob@example.com", "").await;
    store::workspaces::add_member(&db.pool, &ws, &ann, "owner", 10)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &ws, &bob, "reader", 20)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &other, &bob, "owner", 5)
        .await
        .unwrap();
    session(db, &ann, &ws, 300).await;
    session(db, &ann, &ws, 500).await;
    // Bob's activity in another workspace is not his activity here.
    session(db, &bob, &other, 900).await;
    let list = team::members(&db.pool, &ws).await.unwrap();
    let seen: Vec<_> = list
        .iter()
        .map(|m| {
            (
                m.email.as_str(),
                m.full_name.as_str(),
                m.role.as_str(),
                m.joined_at,
                m.last_active,
            )
        })
        .collect();
    assert_eq!(
        seen,
        [
            ("ann@example.com", "Ann", "owner", 10, Some(500)),
            ("bob@example.com", "", "reader", 20, None),
        ]
    );
    let among = team::members_among(&db.pool, &ws, &[bob.clone(), "nobody".into()])
        .await
        .unwrap();
    assert_eq!(among.len(), 1);
    assert_eq!(among[0].user_id, bob);
    assert!(
        team::members_among(&db.pool, &ws, &[])
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(
        team::member(&db.pool, &other, &ann).await.unwrap(),
        None,
        "not a member there"
    );
    assert!(
        team::is_member_email(&db.pool, &ws, "bob@example.com")
            .await
            .unwrap()
    );
    assert!(
        !team::is_member_email(&db.pool, &other, "ann@example.com")
            .await
            .unwrap()
    );
}

pub async fn roles_change_and_owners_are_counted(db: &Db) {
    let ws = workspace(db).await;
    let ann = user(db, "ann@example.com", "Ann").await;
    let bob = user(db, "bob@example.com", "Bob").await;
    store::workspaces::add_member(&db.pool, &ws, &ann, "owner", 10)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &ws, &bob, "reader", 20)
        .await
        .unwrap();
    assert_eq!(team::owners(&db.pool, &ws).await.unwrap(), 1);
    assert!(team::set_role(&db.pool, &ws, &bob, "owner").await.unwrap());
    assert!(
        !team::set_role(&db.pool, &ws, &bob, "owner").await.unwrap(),
        "already so"
    );
    assert!(
        !team::set_role(&db.pool, &ws, "nobody", "owner")
            .await
            .unwrap()
    );
    assert_eq!(team::owners(&db.pool, &ws).await.unwrap(), 2);
    assert_eq!(
        team::member(&db.pool, &ws, &bob)
            .await
            .unwrap()
            .unwrap()
            .role,
        "owner"
    );
    // The schema admits the four roles only.
    assert!(team::set_role(&db.pool, &ws, &bob, "boss").await.is_err());
}

pub async fn removal_ends_the_sessions_in_that_workspace_only(db: &Db) {
    let ws = workspace(db).await;
    let other = workspace(db).await;
    let bob = user(db, "bob@example.com", "Bob").await;
    store::workspaces::add_member(&db.pool, &ws, &bob, "writer", 10)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &other, &bob, "owner", 10)
        .await
        .unwrap();
    let here = session(db, &bob, &ws, 100).await;
    let there = session(db, &bob, &other, 100).await;
    let mut conn = db.pool.acquire().await.unwrap();
    assert!(team::remove_member(&mut conn, &ws, &bob).await.unwrap());
    assert!(
        !team::remove_member(&mut conn, &ws, &bob).await.unwrap(),
        "already gone"
    );
    drop(conn);
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM sessions WHERE token_hash = $1")
        .bind(&here)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0, "the session in that workspace is deleted");
    assert!(
        store::sessions::find_valid(&db.pool, &there, 0)
            .await
            .unwrap()
            .is_some()
    );
    assert_eq!(team::member(&db.pool, &ws, &bob).await.unwrap(), None);
    assert!(
        team::member(&db.pool, &other, &bob)
            .await
            .unwrap()
            .is_some()
    );
}
