//! Conformance of the saved options (`store::options`) on SQLite and, with
//! `TEST_DATABASE_URL`, PostgreSQL: a user in two workspaces keeps a separate set in each,
//! the personal keys (language, theme, `onboarding-*`) are shared by all; versions count
//! every save and conditional saves look at the key in its own set; leaving a workspace
//! drops its options. And the migration that made them per workspace
//! (`20261203004000_member_options`) keeps the rows saved before it.

use searchdeck_common::{
    Db,
    store::{
        self,
        options::{Owner, is_personal},
    },
    test_support::{TestDatabase, backend_url, owner},
};
use sqlx::migrate::Migrator;

conformance!("sd_options";
    options_are_per_workspace_and_personal_ones_per_user,
    versions_count_every_save_and_conditions_stay_in_their_set,
    leaving_a_workspace_drops_its_options_only,
);

/// A user owning one workspace and a reader of a second: (user, first, second).
async fn member_of_two(db: &Db, email: &str) -> (String, String, String) {
    let (user_id, first) = owner(db, email).await;
    let (_, second) = owner(db, &format!("other-{email}")).await;
    store::workspaces::add_member(&db.pool, &second, &user_id, "reader", 2)
        .await
        .unwrap();
    (user_id, first, second)
}

/// The (key, value) pairs of a set, by key.
async fn pairs(db: &Db, owner: Owner<'_>) -> Vec<(String, String)> {
    store::options::all(&db.pool, owner)
        .await
        .unwrap()
        .into_iter()
        .map(|r| (r.key, r.value))
        .collect()
}

fn set<'a>(user_id: &'a str, workspace_id: &'a str) -> Owner<'a> {
    Owner {
        user_id,
        workspace_id,
    }
}

fn kv(pairs: &[(&str, &str)]) -> Vec<(String, String)> {
    pairs
        .iter()
        .map(|(k, v)| ((*k).to_string(), (*v).to_string()))
        .collect()
}

#[test]
fn personal_keys_are_language_theme_and_onboarding_flags() {
    for key in ["language", "theme", "onboarding-tour", "onboarding-"] {
        assert!(is_personal(key), "{key}");
    }
    for key in [
        "optimization-column-presets",
        "optimization-filters-presets",
        "suggester-entry",
        "reporting-currency",
        "themes",
        "my-onboarding-tour",
    ] {
        assert!(!is_personal(key), "{key}");
    }
}

async fn options_are_per_workspace_and_personal_ones_per_user(db: &Db) {
    let (ann, first, second) = member_of_two(db, "ann@example.com").await;
    let (here, there) = (set(&ann, &first), set(&ann, &second));
    store::options::upsert(
        &db.pool,
        here,
        "optimization-column-presets",
        "{\"KEYWORDS\":\"p1\"}",
        5,
        1,
    )
    .await
    .unwrap();
    store::options::upsert(
        &db.pool,
        there,
        "optimization-column-presets",
        "{\"KEYWORDS\":\"p2\"}",
        6,
        2,
    )
    .await
    .unwrap();
    store::options::upsert(&db.pool, here, "theme", "\"dark\"", 7, 3)
        .await
        .unwrap();
    // Saved from the second workspace, a personal key replaces the same row.
    store::options::upsert(&db.pool, there, "language", "\"en\"", 8, 4)
        .await
        .unwrap();
    store::options::upsert(&db.pool, there, "language", "\"de\"", 9, 5)
        .await
        .unwrap();
    assert_eq!(
        pairs(db, here).await,
        kv(&[
            ("language", "\"de\""),
            ("optimization-column-presets", "{\"KEYWORDS\":\"p1\"}"),
            ("theme", "\"dark\""),
        ])
    );
    assert_eq!(
        pairs(db, there).await,
        kv(&[
            ("language", "\"de\""),
            ("optimization-column-presets", "{\"KEYWORDS\":\"p2\"}"),
            ("theme", "\"dark\""),
        ])
    );
    // Deleting in one workspace leaves the other's; a personal key goes everywhere.
    store::options::delete(&db.pool, there, "optimization-column-presets")
        .await
        .unwrap();
    store::options::delete(&db.pool, there, "theme")
        .await
        .unwrap();
    assert_eq!(pairs(db, there).await, kv(&[("language", "\"de\"")]));
    assert_eq!(
        pairs(db, here).await,
        kv(&[
            ("language", "\"de\""),
            ("optimization-column-presets", "{\"KEYWORDS\":\"p1\"}"),
        ])
    );
    let row = store::options::all(&db.pool, here).await.unwrap();
    assert_eq!(row[1].updated_at, 5);
    // Another user of the same workspace sees none of it.
    let (bob, _) = owner(db, "bob@example.com").await;
    store::workspaces::add_member(&db.pool, &first, &bob, "writer", 3)
        .await
        .unwrap();
    assert!(pairs(db, set(&bob, &first)).await.is_empty());
}

async fn versions_count_every_save_and_conditions_stay_in_their_set(db: &Db) {
    let (ann, first, second) = member_of_two(db, "ann@example.com").await;
    let (here, there) = (set(&ann, &first), set(&ann, &second));
    assert_eq!(store::options::version(&db.pool, &ann).await.unwrap(), 0);
    let v1 = store::options::bump_version(&db.pool, &ann).await.unwrap();
    store::options::upsert(&db.pool, here, "suggester-entry", "1", 1, v1)
        .await
        .unwrap();
    let v2 = store::options::bump_version(&db.pool, &ann).await.unwrap();
    store::options::upsert(&db.pool, there, "suggester-entry", "2", 2, v2)
        .await
        .unwrap();
    store::options::upsert(&db.pool, there, "onboarding-tour", "true", 2, v2)
        .await
        .unwrap();
    assert_eq!((v1, v2), (1, 2));
    assert_eq!(store::options::version(&db.pool, &ann).await.unwrap(), 2);
    // The save in the second workspace is no change of the first's key…
    assert!(
        !store::options::changed_since(&db.pool, here, "suggester-entry", 1)
            .await
            .unwrap()
    );
    assert!(
        store::options::changed_since(&db.pool, there, "suggester-entry", 1)
            .await
            .unwrap()
    );
    // …but a personal key written from anywhere is.
    assert!(
        store::options::changed_since(&db.pool, here, "onboarding-tour", 1)
            .await
            .unwrap()
    );
    assert!(
        !store::options::changed_since(&db.pool, here, "onboarding-tour", 2)
            .await
            .unwrap()
    );
}

async fn leaving_a_workspace_drops_its_options_only(db: &Db) {
    let (ann, first, second) = member_of_two(db, "ann@example.com").await;
    for ws in [&first, &second] {
        store::options::upsert(
            &db.pool,
            set(&ann, ws),
            "reporting-currency",
            "\"EUR\"",
            1,
            1,
        )
        .await
        .unwrap();
    }
    store::options::upsert(&db.pool, set(&ann, &second), "theme", "\"dark\"", 1, 1)
        .await
        .unwrap();
    let mut conn = db.pool.acquire().await.unwrap();
    assert!(
        store::team::remove_member(&mut conn, &second, &ann)
            .await
            .unwrap()
    );
    drop(conn);
    assert_eq!(
        pairs(db, set(&ann, &first)).await,
        kv(&[("reporting-currency", "\"EUR\""), ("theme", "\"dark\"")])
    );
    let left: i64 =
        sqlx::query_scalar("SELECT COUNT(*) FROM member_options WHERE workspace_id = $1")
            .bind(&second)
            .fetch_one(&db.pool)
            .await
            .unwrap();
    assert_eq!(left, 0, "the membership's options went with it");
    // Options can only be saved for a membership.
    assert!(
        store::options::upsert(
            &db.pool,
            set(&ann, &second),
            "reporting-currency",
            "1",
            2,
            2
        )
        .await
        .is_err()
    );
}

/// The migration that made options per workspace.
const PER_WORKSPACE: i64 = 20_261_203_004_000;

/// Migrates `db` up to the one before [`PER_WORKSPACE`], saves options the old way (per
/// user), migrates the rest and checks where they went.
async fn migration_keeps_the_saved_options(db: &Db, full: &Migrator) {
    let before: Vec<_> = full
        .iter()
        .filter(|m| m.version < PER_WORKSPACE)
        .cloned()
        .collect();
    assert!(before.len() < full.iter().count(), "the migration exists");
    Migrator::with_migrations(before)
        .run(&db.pool)
        .await
        .unwrap();
    let (ann, first) = owner(db, "ann@example.com").await;
    let (_, second) = owner(db, "team@example.com").await;
    store::workspaces::add_member(&db.pool, &second, &ann, "writer", 2)
        .await
        .unwrap();
    let (solo, _) = owner(db, "solo@example.com").await;
    for (user, key, value) in [
        (&ann, "optimization-filters-presets", "[1]"),
        (&ann, "theme", "\"dark\""),
        (&ann, "onboarding-tour", "true"),
        (&solo, "suggester-entry", "{}"),
    ] {
        sqlx::query(
            "INSERT INTO user_options (user_id, key, value, updated_at, version) \
             VALUES ($1, $2, $3, 7, 3)",
        )
        .bind(user)
        .bind(key)
        .bind(value)
        .execute(&db.pool)
        .await
        .unwrap();
    }
    full.run(&db.pool).await.unwrap();
    let want = kv(&[
        ("onboarding-tour", "true"),
        ("optimization-filters-presets", "[1]"),
        ("theme", "\"dark\""),
    ]);
    for ws in [&first, &second] {
        assert_eq!(
            pairs(db, set(&ann, ws)).await,
            want,
            "every workspace of the user"
        );
    }
    let (_, solo_ws) = store::workspaces::of_user(&db.pool, &solo)
        .await
        .unwrap()
        .into_iter()
        .map(|w| (w.name, w.id))
        .next()
        .unwrap();
    let rows = store::options::all(&db.pool, set(&solo, &solo_ws))
        .await
        .unwrap();
    assert_eq!(
        rows.iter()
            .map(|r| (r.key.as_str(), r.value.as_str(), r.updated_at))
            .collect::<Vec<_>>(),
        [("suggester-entry", "{}", 7)]
    );
    assert!(
        !store::options::changed_since(&db.pool, set(&solo, &solo_ws), "suggester-entry", 3)
            .await
            .unwrap(),
        "the versions are kept"
    );
    let per_user: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM user_options")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(per_user, 2, "only the personal keys stay per user");
}

#[tokio::test]
async fn migration_keeps_the_saved_options_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("old.db").display());
    let db = Db::connect_url(&url).await.unwrap();
    migration_keeps_the_saved_options(&db, &sqlx::migrate!("db/migrations/sqlite")).await;
}

#[tokio::test]
async fn migration_keeps_the_saved_options_postgres() {
    let Some(base) = backend_url("TEST_DATABASE_URL") else {
        return;
    };
    let pg = TestDatabase::create(&base, "sd_optmig").await;
    let db = Db::connect_url(&pg.url).await.unwrap();
    migration_keeps_the_saved_options(&db, &sqlx::migrate!("db/migrations/postgres")).await;
}
