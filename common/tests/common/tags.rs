//! Conformance of the report-tag and catalog stores (`store::tags`, `store::catalog`) on
//! SQLite and, with `TEST_DATABASE_URL`, PostgreSQL: names unique per workspace and type,
//! links idempotent and scoped to synced entities, deletes cascading, app and developer
//! counts per workspace.

use searchdeck_common::{
    Db,
    ids::{new_id, now_ms},
    store::{self, catalog, tags, tags::NewTag, users::NewUser},
};

conformance!("sd_tags";
    tag_names_are_unique_per_workspace_and_type,
    links_are_idempotent_and_deleted_with_the_tag,
    entities_are_found_per_level_and_campaign_group,
    apps_and_developers_are_counted_per_workspace,
);

/// A workspace with one connection; returns (workspace id, account id).
async fn workspace(db: &Db) -> (String, String) {
    let (user, ws, account) = (new_id(), new_id(), new_id());
    let email = format!("{user}@example.com");
    let now = now_ms();
    store::users::insert(
        &db.pool,
        NewUser {
            id: &user,
            email: &email,
            password_hash: "h",
            full_name: "",
            source: "",
            now,
        },
    )
    .await
    .unwrap();
    store::workspaces::insert(&db.pool, &ws, "W", now)
        .await
        .unwrap();
    store::workspaces::add_member(&db.pool, &ws, &user, "owner", now)
        .await
        .unwrap();
    store::accounts::upsert(
        &db.pool,
        store::accounts::NewAccount {
            name: "A",
            method: "oauth",
            refresh_token_sealed: Some("v1:x"),
            ..store::accounts::NewAccount::without_credentials(&account, &ws, &user, "c", now)
        },
    )
    .await
    .unwrap();
    (ws, account)
}

/// A synced campaign group of `account` (what the sync writes); returns its org_key.
async fn synced_org(db: &Db, account: &str, org_id: i64) -> i64 {
    sqlx::query_scalar(
        "INSERT INTO sync_orgs (account_id, org_id) VALUES ($1, $2) RETURNING org_key",
    )
    .bind(account)
    .bind(org_id)
    .fetch_one(&db.pool)
    .await
    .unwrap()
}

async fn campaign(db: &Db, org_key: i64, id: i64) {
    sqlx::query(
        "INSERT INTO asa_campaigns (org_key, id, name, status, synced_at) VALUES ($1, $2, 'C', 'ENABLED', 1)",
    )
    .bind(org_key)
    .bind(id)
    .execute(&db.pool)
    .await
    .unwrap();
}

async fn app(db: &Db, org_key: i64, adam_id: i64, developer: Option<&str>) {
    sqlx::query(
        "INSERT INTO asa_apps (org_key, adam_id, app_name, developer_name, synced_at) VALUES ($1, $2, $3, $4, 1)",
    )
    .bind(org_key)
    .bind(adam_id)
    .bind(format!("App {adam_id}"))
    .bind(developer)
    .execute(&db.pool)
    .await
    .unwrap();
}

fn new_tag<'a>(id: &'a str, ws: &'a str, kind: &'a str, name: &'a str) -> NewTag<'a> {
    NewTag {
        id,
        workspace_id: ws,
        kind,
        name,
        color: "Green",
        now: 5,
    }
}

async fn tag_names_are_unique_per_workspace_and_type(db: &Db) {
    let (ws, _) = workspace(db).await;
    let (other, _) = workspace(db).await;
    let (a, b, c, d) = (new_id(), new_id(), new_id(), new_id());
    tags::create(&db.pool, new_tag(&a, &ws, "CAMPAIGNS", "Brand"))
        .await
        .unwrap();
    let err = tags::create(&db.pool, new_tag(&b, &ws, "CAMPAIGNS", "Brand"))
        .await
        .unwrap_err();
    assert!(Db::is_unique_violation(&err), "{err}");
    tags::create(&db.pool, new_tag(&b, &ws, "KEYWORDS", "Brand"))
        .await
        .unwrap();
    tags::create(&db.pool, new_tag(&c, &other, "CAMPAIGNS", "Brand"))
        .await
        .unwrap();
    assert!(
        tags::name_taken(&db.pool, &ws, "CAMPAIGNS", "Brand", None)
            .await
            .unwrap()
    );
    assert!(
        !tags::name_taken(&db.pool, &ws, "CAMPAIGNS", "Brand", Some(&a))
            .await
            .unwrap()
    );
    assert!(
        !tags::name_taken(&db.pool, &ws, "GROUPS", "Brand", None)
            .await
            .unwrap()
    );
    tags::create(&db.pool, new_tag(&d, &ws, "CAMPAIGNS", "Apple"))
        .await
        .unwrap();
    let all = tags::all(&db.pool, &ws).await.unwrap();
    let names: Vec<(&str, &str)> = all
        .iter()
        .map(|t| (t.kind.as_str(), t.name.as_str()))
        .collect();
    assert_eq!(
        names,
        [
            ("CAMPAIGNS", "Apple"),
            ("CAMPAIGNS", "Brand"),
            ("KEYWORDS", "Brand")
        ]
    );
    assert!(
        tags::in_workspace(&db.pool, &other, &a)
            .await
            .unwrap()
            .is_none(),
        "scoped"
    );
    tags::update(&db.pool, &a, "Generic", "Red").await.unwrap();
    let t = tags::in_workspace(&db.pool, &ws, &a)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (t.name.as_str(), t.color.as_str(), t.items, t.created_at),
        ("Generic", "Red", 0, 5)
    );
}

async fn links_are_idempotent_and_deleted_with_the_tag(db: &Db) {
    let (ws, account) = workspace(db).await;
    let key = synced_org(db, &account, 40).await;
    campaign(db, key, 7).await;
    campaign(db, key, 8).await;
    let id = new_id();
    tags::create(&db.pool, new_tag(&id, &ws, "CAMPAIGNS", "Brand"))
        .await
        .unwrap();
    for e in [7, 8, 7] {
        tags::link(&db.pool, &id, key, 1, e).await.unwrap();
    }
    assert_eq!(
        tags::links(&db.pool, &id).await.unwrap(),
        [(key, 1, 7), (key, 1, 8)]
    );
    assert_eq!(
        tags::in_workspace(&db.pool, &ws, &id)
            .await
            .unwrap()
            .unwrap()
            .items,
        2
    );
    tags::unlink(&db.pool, &id, key, 1, 7).await.unwrap();
    tags::unlink(&db.pool, &id, key, 1, 99).await.unwrap();
    assert_eq!(tags::links(&db.pool, &id).await.unwrap(), [(key, 1, 8)]);
    tags::delete(&db.pool, &id).await.unwrap();
    assert!(
        tags::in_workspace(&db.pool, &ws, &id)
            .await
            .unwrap()
            .is_none()
    );
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM tag_links")
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0, "links go with their tag");
}

async fn entities_are_found_per_level_and_campaign_group(db: &Db) {
    let (ws, account) = workspace(db).await;
    let (other_ws, other_account) = workspace(db).await;
    let key = synced_org(db, &account, 40).await;
    let other_key = synced_org(db, &other_account, 40).await;
    campaign(db, key, 7).await;
    assert_eq!(
        catalog::org_key(&db.pool, &ws, &account, 40).await.unwrap(),
        Some(key)
    );
    assert_eq!(
        catalog::org_key(&db.pool, &ws, &account, 41).await.unwrap(),
        None
    );
    assert_eq!(
        catalog::org_key(&db.pool, &other_ws, &account, 40)
            .await
            .unwrap(),
        None,
        "another workspace's connection"
    );
    assert_eq!(
        catalog::org_key(&db.pool, &other_ws, &other_account, 40)
            .await
            .unwrap(),
        Some(other_key)
    );
    assert!(tags::entity_exists(&db.pool, key, 1, 7).await.unwrap());
    assert!(
        !tags::entity_exists(&db.pool, other_key, 1, 7)
            .await
            .unwrap()
    );
    assert!(
        !tags::entity_exists(&db.pool, key, 2, 7).await.unwrap(),
        "an ad group is not a campaign"
    );
    assert!(!tags::entity_exists(&db.pool, key, 9, 7).await.unwrap());
    // Many ids in one query: only the synced ones of that campaign group and level come back.
    campaign(db, key, 8).await;
    let found = tags::existing(&db.pool, key, 1, &[7, 8, 9_999])
        .await
        .unwrap();
    assert_eq!(found, [7, 8].into_iter().collect(), "{found:?}");
    assert!(
        tags::existing(&db.pool, other_key, 1, &[7])
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        tags::existing(&db.pool, key, 1, &[])
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(tags::level_of("SEARCHTERMS"), Some(4));
    assert_eq!(tags::level_of("ADS"), None);
}

async fn apps_and_developers_are_counted_per_workspace(db: &Db) {
    let (ws, account) = workspace(db).await;
    let (other_ws, other_account) = workspace(db).await;
    assert_eq!(catalog::usage(&db.pool, &ws).await.unwrap(), (0, 0));
    assert!(catalog::developers(&db.pool, &ws).await.unwrap().is_empty());
    let k1 = synced_org(db, &account, 40).await;
    let k2 = synced_org(db, &account, 41).await;
    app(db, k1, 100, Some("Acme")).await;
    app(db, k2, 100, Some("Acme")).await;
    app(db, k2, 200, Some("Beta")).await;
    app(db, k2, 300, None).await;
    let ko = synced_org(db, &other_account, 40).await;
    app(db, ko, 900, Some("Other")).await;
    assert_eq!(catalog::usage(&db.pool, &ws).await.unwrap(), (3, 2));
    assert_eq!(
        catalog::developers(&db.pool, &ws).await.unwrap(),
        [("Acme".to_string(), 100), ("Beta".to_string(), 200)]
    );
    assert_eq!(catalog::usage(&db.pool, &other_ws).await.unwrap(), (1, 1));
    let apps = catalog::apps(&db.pool, &account, None).await.unwrap();
    assert_eq!(
        apps.iter()
            .map(|a| (a.org_id, a.adam_id))
            .collect::<Vec<_>>(),
        [(40, 100), (41, 100), (41, 200), (41, 300)]
    );
    let only = catalog::apps(&db.pool, &account, Some(40)).await.unwrap();
    assert_eq!(only.len(), 1);
    assert_eq!(only[0].developer_name.as_deref(), Some("Acme"));
}
