//! Invitations: single use, expiring and replaced by a resend, revoked within their own
//! workspace, and listed as expired for a while before the clean-up deletes them.

use searchdeck_common::{
    Db,
    store::team::{self, NewInvitation},
};

use super::{invitation, user, workspace};

pub async fn invitations_are_single_use_expire_and_are_replaced(db: &Db) {
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

pub async fn invitations_are_revoked_within_their_workspace(db: &Db) {
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

pub async fn expired_invitations_stay_listed_then_are_cleaned_up(db: &Db) {
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
