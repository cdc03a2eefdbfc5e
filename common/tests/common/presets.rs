//! Column preset store on SQLite and PostgreSQL (`per_backend!`): scoping per user,
//! workspace and type, case-insensitive unique names, updates and deletes of missing ids,
//! and the owner lock composing with a count-then-insert transaction.

use searchdeck_common::{
    Backend, Db,
    ids::{new_id, now_ms},
    store::{
        self,
        presets::{self, NewPreset},
        users::NewUser,
    },
    test_support::{TestDatabase, backend_url},
};

/// A migrated database of `backend` and what keeps it alive (None: PostgreSQL not configured).
async fn database(
    backend: Backend,
) -> Option<(Db, Option<tempfile::TempDir>, Option<TestDatabase>)> {
    match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}", dir.path().join("presets.db").display());
            let db = Db::connect_url(&url).await.unwrap();
            db.migrate().await.unwrap();
            Some((db, Some(dir), None))
        }
        Backend::Postgres => {
            let Some(base) = backend_url("TEST_DATABASE_URL") else {
                eprintln!("TEST_DATABASE_URL unset: PostgreSQL variant skipped");
                return None;
            };
            let pg = TestDatabase::migrated(&base, "sd_presets").await;
            let db = Db::connect_url(&pg.url).await.unwrap();
            Some((db, None, Some(pg)))
        }
        Backend::Redis => panic!("presets live in the application database"),
    }
}

/// A user in a new workspace: (user id, workspace id).
async fn user(db: &Db) -> (String, String) {
    let (user_id, workspace_id, now) = (new_id(), new_id(), now_ms());
    let email = format!("{user_id}@example.com");
    let user = NewUser {
        id: &user_id,
        email: &email,
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

fn cols(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

async fn save(db: &Db, (u, w): (&str, &str), kind: &str, name: &str, fields: &[String]) -> String {
    let id = new_id();
    let p = NewPreset {
        id: &id,
        workspace_id: w,
        user_id: u,
        kind,
        name,
        fields,
        now: now_ms(),
    };
    presets::insert(&db.pool, p).await.unwrap();
    id
}

async fn presets_are_scoped_and_named_uniquely(backend: Backend) {
    let Some((db, _dir, _pg)) = database(backend).await else {
        return;
    };
    let (ann, w1) = user(&db).await;
    let (bob, w2) = user(&db).await;
    let fields = cols(&["keyword", "taps"]);
    let first = save(&db, (&ann, &w1), "KEYWORDS", " Bids ", &fields).await;
    save(
        &db,
        (&ann, &w1),
        "KEYWORDS",
        "Spend",
        &cols(&["localSpend"]),
    )
    .await;
    save(&db, (&ann, &w1), "CAMPAIGNS", "Bids", &fields).await;
    save(&db, (&bob, &w2), "KEYWORDS", "Bids", &fields).await;

    // Names: trimmed, unique per user, workspace and type regardless of case.
    let list = presets::list(&db.pool, &w1, &ann, "KEYWORDS")
        .await
        .unwrap();
    assert_eq!(
        list.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(),
        ["Bids", "Spend"]
    );
    assert_eq!(list[0].fields, fields);
    assert_eq!(list[0].kind, "KEYWORDS");
    assert_eq!(
        presets::count(&db.pool, &w1, &ann, "KEYWORDS")
            .await
            .unwrap(),
        2
    );
    assert_eq!(
        presets::count(&db.pool, &w1, &ann, "GROUPS").await.unwrap(),
        0
    );
    let dup = NewPreset {
        id: &new_id(),
        workspace_id: &w1,
        user_id: &ann,
        kind: "KEYWORDS",
        name: "BIDS",
        fields: &fields,
        now: now_ms(),
    };
    let err = presets::insert(&db.pool, dup).await.unwrap_err();
    assert!(Db::is_unique_violation(&err), "{err}");
    assert!(
        presets::name_taken(&db.pool, &w1, &ann, "KEYWORDS", "bids", None)
            .await
            .unwrap()
    );
    assert!(
        !presets::name_taken(&db.pool, &w1, &ann, "KEYWORDS", "bids", Some(&first))
            .await
            .unwrap(),
        "a preset keeps its own name"
    );
    assert!(
        !presets::name_taken(&db.pool, &w1, &ann, "GROUPS", "bids", None)
            .await
            .unwrap()
    );

    // Lookups are workspace-scoped.
    let found = presets::in_workspace(&db.pool, &w1, &first)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (found.user_id.as_str(), found.name.as_str()),
        (ann.as_str(), "Bids")
    );
    assert_eq!(
        presets::in_workspace(&db.pool, &w2, &first).await.unwrap(),
        None
    );

    // Updates: partial, missing ids report false, names stay unique.
    let renamed = presets::update(&db.pool, &first, Some(" Bids 2 "), None, now_ms()).await;
    assert!(renamed.unwrap());
    let now = presets::in_workspace(&db.pool, &w1, &first)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((now.name.as_str(), &now.fields), ("Bids 2", &fields));
    let new_fields = cols(&["keyword", "cptBid"]);
    assert!(
        presets::update(&db.pool, &first, None, Some(&new_fields), now_ms())
            .await
            .unwrap()
    );
    let now = presets::in_workspace(&db.pool, &w1, &first)
        .await
        .unwrap()
        .unwrap();
    assert_eq!((now.name.as_str(), &now.fields), ("Bids 2", &new_fields));
    assert!(
        !presets::update(&db.pool, "missing", Some("x"), None, now_ms())
            .await
            .unwrap()
    );
    let err = presets::update(&db.pool, &first, Some("spend"), None, now_ms())
        .await
        .unwrap_err();
    assert!(Db::is_unique_violation(&err), "{err}");

    // Deletes.
    assert!(presets::delete(&db.pool, &first).await.unwrap());
    assert!(!presets::delete(&db.pool, &first).await.unwrap());
    assert_eq!(
        presets::count(&db.pool, &w1, &ann, "KEYWORDS")
            .await
            .unwrap(),
        1
    );
}

async fn the_owner_lock_composes_with_a_count_and_an_insert(backend: Backend) {
    let Some((db, _dir, _pg)) = database(backend).await else {
        return;
    };
    let (ann, w) = user(&db).await;
    let fields = cols(&["campaignName"]);
    let mut tx = db.pool.begin().await.unwrap();
    presets::lock_owner(&mut *tx, &ann).await.unwrap();
    assert_eq!(
        presets::count(&mut *tx, &w, &ann, "CAMPAIGNS")
            .await
            .unwrap(),
        0
    );
    let id = new_id();
    let p = NewPreset {
        id: &id,
        workspace_id: &w,
        user_id: &ann,
        kind: "CAMPAIGNS",
        name: "Mine",
        fields: &fields,
        now: now_ms(),
    };
    presets::insert(&mut *tx, p).await.unwrap();
    tx.rollback().await.unwrap();
    assert_eq!(
        presets::count(&db.pool, &w, &ann, "CAMPAIGNS")
            .await
            .unwrap(),
        0,
        "rolled back"
    );
    // An unknown type is refused by the schema.
    let p = NewPreset {
        kind: "SOMETHING",
        ..p
    };
    assert!(presets::insert(&db.pool, p).await.is_err());
}

searchdeck_common::per_backend!(
    [sqlite, postgres] presets_are_scoped_and_named_uniquely,
    the_owner_lock_composes_with_a_count_and_an_insert,
);
