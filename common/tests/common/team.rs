//! Conformance of the team store (`store::team`) on SQLite and, with `TEST_DATABASE_URL`,
//! PostgreSQL: members with their last activity, role changes, removal ending the member's
//! sessions in that workspace only, and invitations — replaced by a resend, single use,
//! expiring, revoked, scoped to their workspace; a user's workspaces and a session moving
//! between them (`store::workspaces::of_user`, `store::sessions::move_to_workspace`);
//! expired invitations listed for `EXPIRED_KEPT_MS`, then deleted by the clean-up's
//! `delete_stale`; sign-in opening the workspace last switched to (`users::for_login`).

use searchdeck_common::{
    Db,
    ids::new_id,
    store::{
        self,
        sessions::NewSession,
        team::{self, NewInvitation},
        users::NewUser,
    },
};

conformance!("sd_team";
    members_are_listed_with_role_and_last_activity,
    roles_change_and_owners_are_counted,
    removal_ends_the_sessions_in_that_workspace_only,
    invitations_are_single_use_expire_and_are_replaced,
    invitations_are_revoked_within_their_workspace,
    sessions_move_between_the_user_workspaces_only,
    expired_invitations_stay_listed_then_are_cleaned_up,
    sign_in_opens_the_last_workspace_while_a_member,
);

/// A user; returns their id.
async fn user(db: &Db, email: &str, name: &str) -> String {
    let id = new_id();
    store::users::insert(
        &db.pool,
        NewUser {
            id: &id,
            email,
            password_hash: "h",
            full_name: name,
            source: "",
            now: 1,
        },
    )
    .await
    .unwrap();
    id
}

async fn workspace(db: &Db) -> String {
    let id = new_id();
    store::workspaces::insert(&db.pool, &id, "W", 1)
        .await
        .unwrap();
    id
}

async fn session(db: &Db, user_id: &str, workspace_id: &str, seen: i64) -> String {
    let (id, hash) = (new_id(), new_id());
    store::sessions::insert(
        &db.pool,
        NewSession {
            id: &id,
            token_hash: &hash,
            user_id,
            workspace_id,
            now: seen,
            expires_at: i64::MAX / 2,
        },
    )
    .await
    .unwrap();
    hash
}

fn invitation<'a>(
    ws: &'a str,
    email: &'a str,
    hash: &'a str,
    id: &'a str,
    by: &'a str,
) -> NewInvitation<'a> {
    NewInvitation {
        id,
        workspace_id: ws,
        email,
        role: "writer",
        code_hash: hash,
        invited_by: by,
        now: 1_000,
        expires_at: 2_000,
    }
}

async fn members_are_listed_with_role_and_last_activity(db: &Db) {
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

async fn roles_change_and_owners_are_counted(db: &Db) {
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

async fn removal_ends_the_sessions_in_that_workspace_only(db: &Db) {
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

async fn invitations_are_single_use_expire_and_are_replaced(db: &Db) {
    let ws = workspace(db).await;
    let ann = user(db, "ann@example.com", "Ann").await;
    let bob = user(db, "bob@example.com", "Bob").await;
    let mut conn = db.pool.acquire().await.unwrap();
    team::replace_unused(
        &mut conn,
        invitation(&ws, "bob@example.com", "h1", "i1", &ann),
    )
    .await
    .unwrap();
    let first = team::by_code_hash(&mut *conn, "h1").await.unwrap().unwrap();
    assert_eq!(
        (
            first.id.as_str(),
            first.email.as_str(),
            first.role.as_str(),
            first.invited_by.as_deref(),
            first.expires_at,
            first.used_at
        ),
        (
            "i1",
            "bob@example.com",
            "writer",
            Some("ann@example.com"),
            2_000,
            None
        )
    );
    // A resend replaces the pending invitation: the first code no longer exists.
    let resend = NewInvitation {
        now: 1_500,
        expires_at: 2_500,
        ..invitation(&ws, "bob@example.com", "h2", "i2", &ann)
    };
    team::replace_unused(&mut conn, resend).await.unwrap();
    assert_eq!(team::by_code_hash(&mut *conn, "h1").await.unwrap(), None);
    let pending = team::unused(&mut *conn, &ws, 1_600).await.unwrap();
    assert_eq!(
        pending.iter().map(|i| i.id.as_str()).collect::<Vec<_>>(),
        ["i2"]
    );
    assert!(
        team::is_invited(&mut *conn, &ws, "bob@example.com", 1_600)
            .await
            .unwrap()
    );
    // Single use.
    assert!(team::consume(&mut *conn, "i2", &bob, 1_600).await.unwrap());
    assert!(
        !team::consume(&mut *conn, "i2", &bob, 1_700).await.unwrap(),
        "used once only"
    );
    let used = team::by_code_hash(&mut *conn, "h2").await.unwrap().unwrap();
    assert_eq!(used.used_at, Some(1_600));
    assert!(
        team::unused(&mut *conn, &ws, 1_600)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        !team::is_invited(&mut *conn, &ws, "bob@example.com", 1_600)
            .await
            .unwrap()
    );
    // A used invitation is not replaced by a new one (it stays as the record).
    team::replace_unused(
        &mut conn,
        NewInvitation {
            now: 1_700,
            expires_at: 3_000,
            ..invitation(&ws, "bob@example.com", "h3", "i3", &ann)
        },
    )
    .await
    .unwrap();
    assert!(
        team::by_code_hash(&mut *conn, "h2")
            .await
            .unwrap()
            .is_some()
    );
    // Expiry: pending until `expires_at`, then neither listed nor consumable.
    assert_eq!(team::unused(&mut *conn, &ws, 2_999).await.unwrap().len(), 1);
    assert!(
        team::unused(&mut *conn, &ws, 3_000)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        !team::consume(&mut *conn, "i3", &bob, 3_000).await.unwrap(),
        "expired"
    );
    // The code hash is unique across workspaces.
    let other = workspace(db).await;
    assert!(
        team::replace_unused(
            &mut conn,
            invitation(&other, "eve@example.com", "h3", "i4", &ann)
        )
        .await
        .is_err()
    );
}

async fn invitations_are_revoked_within_their_workspace(db: &Db) {
    let ws = workspace(db).await;
    let other = workspace(db).await;
    let ann = user(db, "ann@example.com", "Ann").await;
    let mut conn = db.pool.acquire().await.unwrap();
    team::replace_unused(
        &mut conn,
        invitation(&ws, "bob@example.com", "h1", "i1", &ann),
    )
    .await
    .unwrap();
    assert_eq!(
        team::unused_one(&mut *conn, &other, "i1", 1_000)
            .await
            .unwrap(),
        None
    );
    assert!(
        !team::revoke(&mut *conn, &other, "i1", 1_000).await.unwrap(),
        "another workspace's"
    );
    assert_eq!(
        team::unused_one(&mut *conn, &ws, "i1", 1_000)
            .await
            .unwrap()
            .unwrap()
            .email,
        "bob@example.com"
    );
    assert!(team::revoke(&mut *conn, &ws, "i1", 1_000).await.unwrap());
    assert!(!team::revoke(&mut *conn, &ws, "i1", 1_000).await.unwrap());
    assert_eq!(
        team::by_code_hash(&mut *conn, "h1").await.unwrap(),
        None,
        "its code stops working"
    );
    // The inviter gone, the invitation stays without its name.
    team::replace_unused(
        &mut conn,
        invitation(&ws, "eve@example.com", "h2", "i2", &ann),
    )
    .await
    .unwrap();
    sqlx::query("DELETE FROM users WHERE id = $1")
        .bind(&ann)
        .execute(&mut *conn)
        .await
        .unwrap();
    assert_eq!(
        team::unused(&mut *conn, &ws, 1_000).await.unwrap()[0].invited_by,
        None
    );
}

async fn sessions_move_between_the_user_workspaces_only(db: &Db) {
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

async fn expired_invitations_stay_listed_then_are_cleaned_up(db: &Db) {
    const KEPT: i64 = team::EXPIRED_KEPT_MS;
    let ws = workspace(db).await;
    let ann = user(db, "ann@example.com", "Ann").await;
    let bob = user(db, "bob@example.com", "Bob").await;
    let mut conn = db.pool.acquire().await.unwrap();
    // i1 expires at 2 000 unused; i2 (another email) is used at 1 500.
    team::replace_unused(
        &mut conn,
        invitation(&ws, "bob@example.com", "h1", "i1", &ann),
    )
    .await
    .unwrap();
    team::replace_unused(
        &mut conn,
        invitation(&ws, "eve@example.com", "h2", "i2", &ann),
    )
    .await
    .unwrap();
    assert!(team::consume(&mut *conn, "i2", &bob, 1_500).await.unwrap());
    let ids = |list: Vec<team::Invitation>| list.into_iter().map(|i| i.id).collect::<Vec<_>>();
    // Past its expiry it is no longer pending, but listed while the kept period runs.
    let now = 2_000 + KEPT - 1;
    assert!(team::unused(&mut *conn, &ws, now).await.unwrap().is_empty());
    assert_eq!(
        ids(team::unused(&mut *conn, &ws, now - KEPT).await.unwrap()),
        ["i1"]
    );
    assert_eq!(
        team::unused_one(&mut *conn, &ws, "i1", now - KEPT)
            .await
            .unwrap()
            .map(|i| i.expires_at),
        Some(2_000)
    );
    assert_eq!(
        team::unused_one(&mut *conn, &ws, "i2", 0).await.unwrap(),
        None,
        "used"
    );
    // The clean-up keeps both until their 30 days are over…
    assert_eq!(team::delete_stale(&mut *conn, 1_500).await.unwrap(), 0);
    // …then deletes the used one (30 days after its use) and the expired one.
    assert_eq!(team::delete_stale(&mut *conn, 1_501).await.unwrap(), 1);
    assert!(
        team::by_code_hash(&mut *conn, "h2")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(team::delete_stale(&mut *conn, 2_001).await.unwrap(), 1);
    assert!(
        team::by_code_hash(&mut *conn, "h1")
            .await
            .unwrap()
            .is_none()
    );
    // A resend replaces an expired invitation too (one row per email), and an expired one
    // can be revoked while it is listed.
    team::replace_unused(
        &mut conn,
        invitation(&ws, "bob@example.com", "h3", "i3", &ann),
    )
    .await
    .unwrap();
    let resend = NewInvitation {
        now: 5_000,
        expires_at: 6_000,
        ..invitation(&ws, "bob@example.com", "h4", "i4", &ann)
    };
    team::replace_unused(&mut conn, resend).await.unwrap();
    assert_eq!(ids(team::unused(&mut *conn, &ws, 0).await.unwrap()), ["i4"]);
    assert!(
        !team::revoke(&mut *conn, &ws, "i4", 6_000).await.unwrap(),
        "past the cut-off"
    );
    assert!(team::revoke(&mut *conn, &ws, "i4", 5_999).await.unwrap());
}

async fn sign_in_opens_the_last_workspace_while_a_member(db: &Db) {
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
