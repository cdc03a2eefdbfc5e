//! A user's several workspaces: a session moves only between the user's own, and sign-in
//! opens the workspace last switched to while the user is still its member.

use searchdeck_common::{
    Db,
    store::{self, team},
};

use super::{session, user, workspace};

pub async fn sessions_move_between_the_user_workspaces_only(db: &Db) {
    let ws = workspace(db).await;
    let other = workspace(db).await;
    let foreign = workspace(db).await;
    let bob = user(db, "bob@example.com", "Bob").await;
    store::workspaces::add_member(&db.pool, &ws, &bob, "owner", 10)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &other, &bob, "reader", 20)
        .await
        .unwrap();
    let listed = store::workspaces::of_user(&db.pool, &bob).await.unwrap();
    let got: Vec<(&str, &str, i64)> = listed
        .iter()
        .map(|w| (w.id.as_str(), w.role.as_str(), w.joined_at))
        .collect();
    assert_eq!(
        got,
        [(ws.as_str(), "owner", 10), (other.as_str(), "reader", 20)]
    );
    assert_eq!(listed[0].name, "W");
    assert!(
        store::workspaces::of_user(&db.pool, "nobody")
            .await
            .unwrap()
            .is_empty()
    );
    let hash = session(db, &bob, &ws, 100).await;
    let id = store::sessions::find_valid(&db.pool, &hash, 0)
        .await
        .unwrap()
        .unwrap()
        .id;
    // Not a member of `foreign`: the session stays.
    assert!(
        !store::sessions::move_to_workspace(&db.pool, &id, &foreign)
            .await
            .unwrap()
    );
    assert!(
        store::sessions::move_to_workspace(&db.pool, &id, &other)
            .await
            .unwrap()
    );
    let row = store::sessions::find_valid(&db.pool, &hash, 0)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (row.workspace_id.as_str(), row.role.as_str()),
        (other.as_str(), "reader")
    );
    assert!(
        !store::sessions::move_to_workspace(&db.pool, "no-such-session", &ws)
            .await
            .unwrap()
    );
}

pub async fn sign_in_opens_the_last_workspace_while_a_member(db: &Db) {
    let first = workspace(db).await;
    let second = workspace(db).await;
    let bob = user(db, "bob@example.com", "Bob").await;
    store::workspaces::add_member(&db.pool, &second, &bob, "reader", 20)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &first, &bob, "owner", 10)
        .await
        .unwrap();
    let opens = || async {
        store::users::for_login(&db.pool, "bob@example.com")
            .await
            .unwrap()
            .unwrap()
            .workspace_id
    };
    assert_eq!(opens().await, first, "never switched: the first joined");
    store::users::set_last_workspace(&db.pool, &bob, &second)
        .await
        .unwrap();
    assert_eq!(opens().await, second, "the one last switched to");
    let mut conn = db.pool.acquire().await.unwrap();
    assert!(team::remove_member(&mut conn, &second, &bob).await.unwrap());
    drop(conn);
    assert_eq!(
        opens().await,
        first,
        "no longer a member there: the first again"
    );
    store::users::set_last_workspace(&db.pool, &bob, "no-such-workspace")
        .await
        .unwrap();
    assert_eq!(opens().await, first);
    assert!(
        store::users::for_login(&db.pool, "nobody@example.com")
            .await
            .unwrap()
            .is_none()
    );
}
