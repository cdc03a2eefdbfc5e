//! Conformance cases of `store::users`, `store::workspaces`, `store::sessions` and
//! `store::recovery` (run on both backends by the `store` suite): sign-in lookups, members
//! of several workspaces, sessions that expire and are ended, and recovery codes used once
//! and dead after too many wrong guesses.

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store::{self, recovery::NewCode, sessions::NewSession, users::NewUser},
    test_support::owner,
};

pub async fn users_sessions_and_workspaces(db: &Db) {
    let (user_id, first) = owner(db, "ann@example.com").await;
    let dup = NewUser {
        id: &new_id(),
        email: "ann@example.com",
        password_hash: "h",
        full_name: "",
        source: "",
        now: now_ms(),
    };
    let err = store::users::insert(&db.pool, dup).await.unwrap_err();
    assert!(Db::is_unique_violation(&err), "{err}");
    let second = new_id();
    store::workspaces::insert(&db.pool, &second, "Later", now_ms())
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &second, &user_id, "reader", now_ms() + 1000)
        .await
        .unwrap();
    assert!(
        store::workspaces::add_member(&db.pool, &second, &new_id(), "owner", 0)
            .await
            .is_err(),
        "unknown user"
    );

    let login = store::users::for_login(&db.pool, "ann@example.com")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (login.user_id.as_str(), login.workspace_id.as_str()),
        (user_id.as_str(), first.as_str()),
        "first joined workspace"
    );
    assert!(
        store::users::for_login(&db.pool, "bob@example.com")
            .await
            .unwrap()
            .is_none()
    );
    assert_eq!(
        store::users::id_by_email(&db.pool, "ann@example.com")
            .await
            .unwrap(),
        Some(user_id.clone())
    );
    store::users::set_password(&db.pool, &user_id, "h2", now_ms())
        .await
        .unwrap();
    assert_eq!(
        store::users::password_hash(&db.pool, &user_id)
            .await
            .unwrap(),
        "h2"
    );
    store::users::set_alternative_invoice_email(
        &db.pool,
        &user_id,
        Some("b@example.com"),
        now_ms(),
    )
    .await
    .unwrap();
    let member = store::users::member(&db.pool, &user_id, &second)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            member.role.as_str(),
            member.alternative_invoice_email.as_deref()
        ),
        ("reader", Some("b@example.com"))
    );
    assert!(
        store::users::member(&db.pool, &user_id, "other")
            .await
            .unwrap()
            .is_none()
    );

    let now = now_ms();
    for (id, hash, expires_at) in [
        ("s1", "t1", now + 1000),
        ("s2", "t2", now + 1000),
        ("s3", "t3", now - 1),
    ] {
        let s = NewSession {
            id,
            token_hash: hash,
            user_id: &user_id,
            workspace_id: &second,
            now: now - 10,
            expires_at,
        };
        store::sessions::insert(&db.pool, s).await.unwrap();
    }
    let found = store::sessions::find_valid(&db.pool, "t1", now)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.id.as_str(), found.role.as_str(), found.email.as_str()),
        ("s1", "reader", "ann@example.com")
    );
    assert!(
        store::sessions::find_valid(&db.pool, "t3", now)
            .await
            .unwrap()
            .is_none(),
        "expired"
    );
    store::sessions::touch(&db.pool, "s1", now + 5)
        .await
        .unwrap();
    assert_eq!(
        store::sessions::find_valid(&db.pool, "t1", now)
            .await
            .unwrap()
            .unwrap()
            .last_seen_at,
        now + 5
    );
    store::sessions::delete_others(&db.pool, &user_id, Some("s2"))
        .await
        .unwrap();
    assert!(
        store::sessions::find_valid(&db.pool, "t1", now)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store::sessions::find_valid(&db.pool, "t2", now)
            .await
            .unwrap()
            .is_some(),
        "kept"
    );
    store::sessions::delete_by_token_hash(&db.pool, "t2")
        .await
        .unwrap();
    assert!(
        store::sessions::find_valid(&db.pool, "t2", now)
            .await
            .unwrap()
            .is_none()
    );
}

pub async fn recovery_codes_are_single_use(db: &Db) {
    let (user_id, _) = owner(db, "rc@example.com").await;
    let now = now_ms();
    let code = |hash, selector| NewCode {
        id: "",
        user_id: &user_id,
        code_hash: hash,
        selector,
        expires_at: now + 1000,
        now,
    };
    let live = async |selector: &str, at: i64| {
        store::recovery::live_by_selector(&db.pool, selector, at, 5)
            .await
            .unwrap()
            .into_iter()
            .map(|c| c.code_hash)
            .collect::<Vec<_>>()
    };
    let old_id = new_id();
    store::recovery::insert(
        &db.pool,
        NewCode {
            id: &old_id,
            ..code("old", "OLD")
        },
    )
    .await
    .unwrap();
    store::recovery::retire_open(&db.pool, &user_id, now)
        .await
        .unwrap();
    let new = new_id();
    store::recovery::insert(
        &db.pool,
        NewCode {
            id: &new,
            ..code("new", "NEW")
        },
    )
    .await
    .unwrap();
    assert!(live("OLD", now).await.is_empty(), "replaced");
    assert_eq!(live("NEW", now).await, ["new"]);
    assert!(live("NEW", now + 1000).await.is_empty(), "expired");
    assert!(
        !store::recovery::consume(&db.pool, &old_id, now, 5)
            .await
            .unwrap(),
        "a retired code is not consumed"
    );
    assert!(
        store::recovery::consume(&db.pool, &new, now, 5)
            .await
            .unwrap()
    );
    assert!(
        !store::recovery::consume(&db.pool, &new, now, 5)
            .await
            .unwrap(),
        "used once"
    );
}

pub async fn recovery_codes_die_after_wrong_guesses(db: &Db) {
    let (user_id, _) = owner(db, "guess@example.com").await;
    let now = now_ms();
    let id = new_id();
    let row = NewCode {
        id: &id,
        user_id: &user_id,
        code_hash: "h",
        selector: "SEL",
        expires_at: now + 1000,
        now,
    };
    store::recovery::insert(&db.pool, row).await.unwrap();
    for _ in 0..2 {
        store::recovery::count_wrong_guess(&db.pool, "SEL", now)
            .await
            .unwrap();
    }
    let found = store::recovery::live_by_selector(&db.pool, "SEL", now, 3)
        .await
        .unwrap();
    assert_eq!(found.len(), 1, "two wrong guesses of three allowed");
    assert_eq!(found[0].user_id, user_id);
    store::recovery::count_wrong_guess(&db.pool, "SEL", now)
        .await
        .unwrap();
    assert!(
        store::recovery::live_by_selector(&db.pool, "SEL", now, 3)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        !store::recovery::consume(&db.pool, &id, now, 3)
            .await
            .unwrap(),
        "a code past its guesses cannot be used"
    );
}
