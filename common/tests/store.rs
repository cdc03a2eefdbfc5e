//! The store conformance suite: every store implementation, on every backend.
//!
//! Each case runs on SQLite always and on PostgreSQL when `TEST_DATABASE_URL` is set (under
//! `CI=true` a missing URL fails). On each backend `Db::metrics()` is that backend's own
//! [`MetricsStore`] implementation (native pool), and the area stores run over the `Any`
//! pool, so one suite holds both implementations to the same behaviour.

use std::str::FromStr;

use rust_decimal::Decimal;
use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store::{
        self,
        metrics::{KeywordDay, MetricsStore},
        recovery::NewCode,
        sessions::NewSession,
        users::NewUser,
    },
    tasks::NewTask,
    test_support::{TestDatabase, backend_url},
};
use time::{Date, Month};

/// A migrated database and what keeps it alive.
struct Fixture {
    db: Db,
    _dir: Option<tempfile::TempDir>,
    _pg: Option<TestDatabase>,
}

async fn sqlite() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("store.db").display());
    let db = Db::connect_url(&url).await.unwrap();
    db.migrate().await.unwrap();
    Fixture {
        db,
        _dir: Some(dir),
        _pg: None,
    }
}

async fn postgres() -> Option<Fixture> {
    let base = backend_url("TEST_DATABASE_URL")?;
    let pg = TestDatabase::create(&base, "sd_store").await;
    let db = Db::connect_url(&pg.url).await.unwrap();
    db.migrate().await.unwrap();
    Some(Fixture {
        db,
        _dir: None,
        _pg: Some(pg),
    })
}

/// Runs each listed case as `sqlite::<case>` and `postgres::<case>`.
macro_rules! conformance {
    ($($case:ident),* $(,)?) => {
        mod sqlite {
            $(#[tokio::test]
            async fn $case() {
                let f = super::sqlite().await;
                super::$case(&f.db).await;
            })*
        }
        mod postgres {
            $(#[tokio::test]
            async fn $case() {
                if let Some(f) = super::postgres().await {
                    super::$case(&f.db).await;
                }
            })*
        }
    };
}

conformance!(
    metrics_sum_exactly_within_the_range_and_account,
    metrics_upserts_replace_and_the_last_of_a_key_wins,
    metrics_write_large_batches_in_one_call,
    users_sessions_and_workspaces,
    recovery_codes_are_single_use,
    recovery_codes_die_after_wrong_guesses,
    options_upsert_and_delete,
    options_versions_count_saves,
    tasks_are_scoped_and_finish_once,
    store_functions_compose_in_one_transaction,
);

fn day(d: u8) -> Date {
    Date::from_calendar_date(2026, Month::November, d).unwrap()
}

fn fact(account: i64, d: u8, keyword: i64, spend_micros: i64) -> KeywordDay {
    KeywordDay {
        ad_account_id: account,
        day: day(d),
        campaign_id: 10,
        ad_group_id: 20,
        keyword_id: keyword,
        impressions: 100,
        taps: 10,
        installs: 1,
        spend_micros,
    }
}

async fn metrics_sum_exactly_within_the_range_and_account(db: &Db) {
    // 2^52 + 1 micros twice: a sum past f64's exact integers must still be exact.
    let big = 4_503_599_627_370_497;
    let rows = [
        fact(1, 1, 7, big),
        fact(1, 2, 7, big),
        fact(1, 3, 7, 1_230_000),
        fact(1, 4, 7, 5),
        fact(1, 2, 8, 990_000),
        fact(2, 2, 7, 1_000_000),
    ];
    assert_eq!(db.metrics().upsert_days(&rows).await.unwrap(), 6);
    let sums = db.metrics().sum_range(1, day(1), day(3)).await.unwrap();
    assert_eq!(sums.len(), 2);
    assert_eq!(
        (sums[0].keyword_id, sums[1].keyword_id),
        (7, 8),
        "ordered by keyword"
    );
    assert_eq!((sums[0].campaign_id, sums[0].ad_group_id), (10, 20));
    assert_eq!(
        (sums[0].impressions, sums[0].taps, sums[0].installs),
        (300, 30, 3)
    );
    assert_eq!(
        sums[0].spend,
        Decimal::from_str("9007199255.970994").unwrap(),
        "both ends inclusive, exact"
    );
    assert_eq!(sums[1].spend, Decimal::from_str("0.99").unwrap());
    let one_day = db.metrics().sum_range(1, day(4), day(4)).await.unwrap();
    assert_eq!(one_day[0].spend, Decimal::from_str("0.000005").unwrap());
    assert!(
        db.metrics()
            .sum_range(3, day(1), day(30))
            .await
            .unwrap()
            .is_empty(),
        "another account"
    );
    assert!(
        db.metrics()
            .sum_range(1, day(5), day(30))
            .await
            .unwrap()
            .is_empty(),
        "outside the range"
    );
}

async fn metrics_upserts_replace_and_the_last_of_a_key_wins(db: &Db) {
    db.metrics()
        .upsert_days(&[fact(1, 1, 7, 100), fact(1, 2, 7, 100)])
        .await
        .unwrap();
    let restated = [fact(1, 2, 7, 300), fact(1, 2, 7, 500), fact(1, 3, 7, 1)];
    assert_eq!(
        db.metrics().upsert_days(&restated).await.unwrap(),
        2,
        "distinct rows written"
    );
    let sums = db.metrics().sum_range(1, day(1), day(3)).await.unwrap();
    assert_eq!(
        sums[0].spend,
        Decimal::from_str("0.000601").unwrap(),
        "100 + 500 (last wins) + 1"
    );
    assert_eq!(sums[0].impressions, 300);
    assert_eq!(db.metrics().upsert_days(&[]).await.unwrap(), 0);
}

async fn metrics_write_large_batches_in_one_call(db: &Db) {
    // More rows than one SQLite statement takes.
    let rows: Vec<KeywordDay> = (0..7_001)
        .map(|k| fact(9, 1 + (k % 28) as u8, k, 1_000_000))
        .collect();
    assert_eq!(db.metrics().upsert_days(&rows).await.unwrap(), 7_001);
    let sums = db.metrics().sum_range(9, day(1), day(28)).await.unwrap();
    assert_eq!(sums.len(), 7_001);
    assert_eq!(
        sums.iter().map(|s| s.spend).sum::<Decimal>(),
        Decimal::from(7_001)
    );
    assert_eq!(sums.iter().map(|s| s.impressions).sum::<i64>(), 700_100);
}

/// A user who owns a new workspace; returns (user id, workspace id).
async fn owner(db: &Db, email: &str) -> (String, String) {
    let (user_id, workspace_id, now) = (new_id(), new_id(), now_ms());
    let user = NewUser {
        id: &user_id,
        email,
        password_hash: "h",
        full_name: "Ann",
        source: "",
        now,
    };
    store::users::insert(&db.pool, user).await.unwrap();
    store::workspaces::insert(&db.pool, &workspace_id, "W", now)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &workspace_id, &user_id, "owner", now)
        .await
        .unwrap();
    (user_id, workspace_id)
}

async fn users_sessions_and_workspaces(db: &Db) {
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

async fn recovery_codes_are_single_use(db: &Db) {
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

async fn recovery_codes_die_after_wrong_guesses(db: &Db) {
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

async fn options_upsert_and_delete(db: &Db) {
    let (user_id, _) = owner(db, "opt@example.com").await;
    store::options::upsert(&db.pool, &user_id, "a", "1", 5, 1)
        .await
        .unwrap();
    store::options::upsert(&db.pool, &user_id, "a", "[2]", 6, 2)
        .await
        .unwrap();
    store::options::upsert(&db.pool, &user_id, "b", "true", 7, 3)
        .await
        .unwrap();
    store::options::delete(&db.pool, &user_id, "b")
        .await
        .unwrap();
    let rows = store::options::all(&db.pool, &user_id).await.unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (
            rows[0].key.as_str(),
            rows[0].value.as_str(),
            rows[0].updated_at
        ),
        ("a", "[2]", 6)
    );
    assert!(
        store::options::changed_since(&db.pool, &user_id, "a", 1)
            .await
            .unwrap()
    );
    assert!(
        !store::options::changed_since(&db.pool, &user_id, "a", 2)
            .await
            .unwrap()
    );
}

async fn options_versions_count_saves(db: &Db) {
    let (user_id, _) = owner(db, "optv@example.com").await;
    assert_eq!(
        store::options::version(&db.pool, &user_id).await.unwrap(),
        0
    );
    assert_eq!(
        store::options::bump_version(&db.pool, &user_id)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        store::options::bump_version(&db.pool, &user_id)
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        store::options::version(&db.pool, &user_id).await.unwrap(),
        2
    );
}

async fn tasks_are_scoped_and_finish_once(db: &Db) {
    let (user_id, workspace_id) = owner(db, "task@example.com").await;
    let task = NewTask {
        workspace_id: &workspace_id,
        user_id: Some(&user_id),
        kind: "k",
        message: "Queued",
        total_steps: 3,
    };
    let id = store::tasks::create(&db.pool, task).await.unwrap();
    store::tasks::progress(
        &db.pool,
        &id,
        "Working",
        1,
        3,
        Some(&serde_json::json!({"n": 1})),
    )
    .await
    .unwrap();
    assert_eq!(store::tasks::attempt(&db.pool, &id).await.unwrap(), 1);
    let t = store::tasks::in_workspace(&db.pool, &workspace_id, &id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            t.message.as_str(),
            t.step,
            t.percent,
            t.details["n"].as_i64()
        ),
        ("Working", 1, 25, Some(1))
    );
    assert!(
        store::tasks::in_workspace(&db.pool, "other", &id)
            .await
            .unwrap()
            .is_none()
    );
    assert!(
        store::tasks::finish(&db.pool, &id, "Done", None)
            .await
            .unwrap()
    );
    assert!(
        !store::tasks::finish(&db.pool, &id, "Again", Some("x"))
            .await
            .unwrap()
    );
    store::tasks::progress(&db.pool, &id, "Late", 2, 3, None)
        .await
        .unwrap();
    let list = store::tasks::for_user(&db.pool, &workspace_id, &user_id, 60_000, 10)
        .await
        .unwrap();
    assert_eq!(
        (
            list.len(),
            list[0].message.as_str(),
            list[0].step,
            list[0].finish
        ),
        (1, "Done", 3, true)
    );
}

async fn store_functions_compose_in_one_transaction(db: &Db) {
    let (user_id, workspace_id) = owner(db, "tx@example.com").await;
    let mut tx = db.pool.begin().await.unwrap();
    store::users::set_password(&mut *tx, &user_id, "changed", now_ms())
        .await
        .unwrap();
    store::options::upsert(&mut *tx, &user_id, "k", "1", 1, 1)
        .await
        .unwrap();
    let task = NewTask {
        workspace_id: &workspace_id,
        user_id: None,
        kind: "k",
        message: "",
        total_steps: 0,
    };
    store::tasks::create(&mut *tx, task).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(
        store::users::password_hash(&db.pool, &user_id)
            .await
            .unwrap(),
        "h"
    );
    assert!(
        store::options::all(&db.pool, &user_id)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        store::tasks::for_user(&db.pool, &workspace_id, &user_id, 60_000, 10)
            .await
            .unwrap()
            .is_empty()
    );
}
