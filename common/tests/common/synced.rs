//! Conformance of the synced-data store (`store::synced`) on SQLite and PostgreSQL: synced
//! groups and their state, batched entity upserts past one statement's bind limit, marking
//! unlisted entities deleted, search terms, `replace_days` and the connection's schedule.

use searchdeck_common::{
    Backend, Db,
    ids::{new_id, now_ms},
    store::{
        self,
        accounts::NewAccount,
        synced::{
            self,
            entities::{self, Keyword, ProductPage},
            metrics::{DayRow, Level, replace_days},
        },
        users::NewUser,
    },
    test_support::{TestDatabase, backend_url},
};

struct Fixture {
    db: Db,
    account_id: String,
    _dir: Option<tempfile::TempDir>,
    _pg: Option<TestDatabase>,
}

async fn fixture(backend: Backend) -> Option<Fixture> {
    let (db, dir, pg) = match backend {
        Backend::Sqlite => {
            let dir = tempfile::tempdir().unwrap();
            let url = format!("sqlite://{}", dir.path().join("synced.db").display());
            let db = Db::connect_url(&url).await.unwrap();
            db.migrate().await.unwrap();
            (db, Some(dir), None)
        }
        _ => {
            let base = backend_url("TEST_DATABASE_URL")?;
            let pg = TestDatabase::migrated(&base, "sd_synced").await;
            let db = Db::connect_url(&pg.url).await.unwrap();
            (db, None, Some(pg))
        }
    };
    let now = now_ms();
    let (user, workspace, account) = (new_id(), new_id(), new_id());
    store::users::insert(
        &db.pool,
        NewUser {
            id: &user,
            email: &format!("{user}@example.com"),
            password_hash: "x",
            full_name: "U",
            source: "test",
            now,
        },
    )
    .await
    .unwrap();
    store::workspaces::insert(&db.pool, &workspace, "W", now)
        .await
        .unwrap();
    let account_id = store::accounts::upsert(
        &db.pool,
        NewAccount {
            provider_user_id: 7,
            name: "A",
            method: "oauth",
            refresh_token_sealed: Some("v1:x"),
            ..NewAccount::without_credentials(&account, &workspace, &user, "c", now)
        },
    )
    .await
    .unwrap();
    Some(Fixture {
        db,
        account_id,
        _dir: dir,
        _pg: pg,
    })
}

async fn count(db: &Db, sql: &str, org_key: i64) -> i64 {
    sqlx::query_scalar(sqlx::AssertSqlSafe(sql.to_string()))
        .bind(org_key)
        .fetch_one(&db.pool)
        .await
        .unwrap()
}

/// (day, entity, impressions, spend) of every row of a level, in key order.
async fn day_rows(db: &Db, org_key: i64, level: Level) -> Vec<(String, i64, i64, i64)> {
    sqlx::query_as(
        "SELECT CAST(day AS TEXT), entity_id, impressions, spend_micros FROM asa_day_metrics \
         WHERE org_key = $1 AND level = $2 ORDER BY day, entity_id",
    )
    .bind(org_key)
    .bind(level.code())
    .fetch_all(&db.pool)
    .await
    .unwrap()
}

fn row(day: &str, entity: i64, impressions: i64, spend: i64) -> DayRow {
    DayRow {
        day: day.into(),
        entity_id: entity,
        campaign_id: 1,
        ad_group_id: 2,
        impressions,
        spend_micros: spend,
        ..Default::default()
    }
}

async fn orgs_have_one_key_and_a_widening_state(backend: Backend) {
    let Some(f) = fixture(backend).await else {
        return;
    };
    let db = &f.db;
    let a = synced::ensure_org(&db.pool, &f.account_id, 100, Some("USD"), None)
        .await
        .unwrap();
    let again = synced::ensure_org(&db.pool, &f.account_id, 100, None, Some("Europe/Paris"))
        .await
        .unwrap();
    let b = synced::ensure_org(&db.pool, &f.account_id, 200, None, None)
        .await
        .unwrap();
    assert_eq!(a, again);
    assert_ne!(a, b);
    let org = synced::org(&db.pool, a).await.unwrap().unwrap();
    assert_eq!(
        org.currency.as_deref(),
        Some("USD"),
        "a missing currency keeps the stored one"
    );
    assert_eq!(org.time_zone.as_deref(), Some("Europe/Paris"));
    assert_eq!(org.metrics_from, None);
    synced::set_metrics_synced(&db.pool, a, "2026-05-01", "2026-06-30", 10, "j1")
        .await
        .unwrap();
    synced::set_metrics_synced(&db.pool, a, "2026-06-01", "2026-06-15", 20, "j2")
        .await
        .unwrap();
    synced::set_metrics_synced(&db.pool, a, "2026-04-20", "2026-07-01", 30, "j3")
        .await
        .unwrap();
    synced::set_entities_synced(&db.pool, a, 40).await.unwrap();
    let org = synced::org(&db.pool, a).await.unwrap().unwrap();
    assert_eq!(org.metrics_from.as_deref(), Some("2026-04-20"));
    assert_eq!(org.metrics_through.as_deref(), Some("2026-07-01"));
    assert_eq!(org.metrics_synced_at, Some(30));
    assert_eq!(org.metrics_job.as_deref(), Some("j3"));
    assert_eq!(org.entities_synced_at, Some(40));
    let all = synced::orgs_of(&db.pool, &f.account_id).await.unwrap();
    assert_eq!(
        all.iter().map(|o| o.org_id).collect::<Vec<_>>(),
        vec![100, 200]
    );
    // The one reader, by connection and org id and by workspace, answers the same row.
    assert_eq!(
        synced::org_of(&db.pool, &f.account_id, 100).await.unwrap(),
        Some(org.clone())
    );
    assert_eq!(
        synced::org_of(&db.pool, &f.account_id, 300).await.unwrap(),
        None
    );
    let workspace: String = sqlx::query_scalar("SELECT workspace_id FROM accounts WHERE id = $1")
        .bind(&f.account_id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let of_workspace = synced::orgs_of_workspace(&db.pool, &workspace)
        .await
        .unwrap();
    assert_eq!(of_workspace, all);
    assert!(
        synced::orgs_of_workspace(&db.pool, "another")
            .await
            .unwrap()
            .is_empty()
    );
}

async fn upserts_batch_past_the_bind_limit_and_unlisted_rows_are_marked_deleted(backend: Backend) {
    let Some(f) = fixture(backend).await else {
        return;
    };
    let db = &f.db;
    let org_key = synced::ensure_org(&db.pool, &f.account_id, 1, None, None)
        .await
        .unwrap();
    // 12 columns × 5,000 rows = 60,000 parameters: several statements on both backends.
    let keywords: Vec<entities::Keyword> = (1..=5000)
        .map(|id| entities::Keyword {
            id,
            campaign_id: 1,
            ad_group_id: 10 + id % 3,
            text: format!("kw {id}"),
            match_type: "EXACT".into(),
            bid_micros: Some(id * 10),
            status: "ACTIVE".into(),
            ..Default::default()
        })
        .collect();
    let mut conn = db.pool.acquire().await.unwrap();
    let written = entities::upsert(&mut conn, org_key, &keywords, 100)
        .await
        .unwrap();
    assert!(written >= 5000);
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM asa_keywords WHERE org_key = $1",
            org_key
        )
        .await,
        5000
    );
    // The next complete listing returns 4,000 of them with a new bid: upserted by id, the
    // other 1,000 marked deleted, nothing duplicated.
    let listed: Vec<entities::Keyword> = keywords[..4000]
        .iter()
        .map(|k| entities::Keyword {
            bid_micros: Some(1),
            ..k.clone()
        })
        .collect();
    entities::upsert(&mut conn, org_key, &listed, 200)
        .await
        .unwrap();
    let marked = entities::mark_unlisted_deleted::<Keyword>(&mut conn, org_key, 200)
        .await
        .unwrap();
    assert_eq!(marked, 1000);
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM asa_keywords WHERE org_key = $1",
            org_key
        )
        .await,
        5000
    );
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM asa_keywords WHERE org_key = $1 AND deleted = 1",
            org_key
        )
        .await,
        1000
    );
    assert_eq!(
        count(db, "SELECT COUNT(*) FROM asa_keywords WHERE org_key = $1 AND bid_micros = 1 AND deleted = 0", org_key).await,
        4000
    );
    // A campaign keeps the user's hidden flag through upserts; a product page that is no
    // longer listed is removed.
    let campaign = entities::Campaign {
        id: 5,
        name: "C".into(),
        status: "ENABLED".into(),
        daily_budget_micros: Some(5_000_000),
        ..Default::default()
    };
    entities::upsert(&mut conn, org_key, std::slice::from_ref(&campaign), 100)
        .await
        .unwrap();
    sqlx::query("UPDATE asa_campaigns SET hidden = 1 WHERE org_key = $1")
        .bind(org_key)
        .execute(&db.pool)
        .await
        .unwrap();
    let renamed = entities::Campaign {
        name: "C2".into(),
        ..campaign
    };
    entities::upsert(&mut conn, org_key, &[renamed], 200)
        .await
        .unwrap();
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM asa_campaigns WHERE org_key = $1 AND hidden = 1 AND name = 'C2'",
            org_key
        )
        .await,
        1
    );
    let page = entities::ProductPage {
        id: "pp-1".into(),
        adam_id: 9,
        name: "P".into(),
        ..Default::default()
    };
    entities::upsert(&mut conn, org_key, &[page], 100)
        .await
        .unwrap();
    entities::mark_unlisted_deleted::<ProductPage>(&mut conn, org_key, 200)
        .await
        .unwrap();
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM asa_product_pages WHERE org_key = $1",
            org_key
        )
        .await,
        0
    );
    // Search terms: one row per stable id, however often seen.
    let term = entities::SearchTerm::new(1, 2, Some(3), "TARGETED", "photo editor");
    let auto = entities::SearchTerm::new(1, 2, None, "AUTO", "photo editor");
    entities::upsert_search_terms(&mut conn, org_key, &[term.clone(), auto.clone()])
        .await
        .unwrap();
    entities::upsert_search_terms(&mut conn, org_key, &[term])
        .await
        .unwrap();
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM asa_search_terms WHERE org_key = $1",
            org_key
        )
        .await,
        2
    );
}

async fn replace_days_swaps_exactly_the_range_and_never_duplicates(backend: Backend) {
    let Some(f) = fixture(backend).await else {
        return;
    };
    let db = &f.db;
    let org_key = synced::ensure_org(&db.pool, &f.account_id, 1, None, None)
        .await
        .unwrap();
    let other = synced::ensure_org(&db.pool, &f.account_id, 2, None, None)
        .await
        .unwrap();
    let first = vec![
        row("2026-06-01", 1, 10, 100),
        row("2026-06-02", 1, 20, 200),
        row("2026-06-03", 1, 30, 300),
        row("2026-06-03", 2, 5, 50),
    ];
    replace_days(
        &db.pool,
        org_key,
        Level::Keyword,
        "2026-06-01",
        "2026-06-03",
        &first,
    )
    .await
    .unwrap();
    replace_days(
        &db.pool,
        other,
        Level::Keyword,
        "2026-06-01",
        "2026-06-03",
        &first,
    )
    .await
    .unwrap();
    replace_days(
        &db.pool,
        org_key,
        Level::Campaign,
        "2026-06-01",
        "2026-06-03",
        &first[..1],
    )
    .await
    .unwrap();
    // The same page again changes nothing.
    replace_days(
        &db.pool,
        org_key,
        Level::Keyword,
        "2026-06-01",
        "2026-06-03",
        &first,
    )
    .await
    .unwrap();
    assert_eq!(day_rows(db, org_key, Level::Keyword).await.len(), 4);
    // Restated days 2–3: day 2 corrected, entity 2 gone from day 3, day 1 untouched; other
    // levels and groups untouched. Two rows of one key add up.
    let restated = vec![
        row("2026-06-02", 1, 21, 210),
        row("2026-06-03", 1, 30, 300),
        row("2026-06-03", 1, 1, 1),
    ];
    replace_days(
        &db.pool,
        org_key,
        Level::Keyword,
        "2026-06-02",
        "2026-06-03",
        &restated,
    )
    .await
    .unwrap();
    assert_eq!(
        day_rows(db, org_key, Level::Keyword).await,
        vec![
            ("2026-06-01".to_string(), 1, 10, 100),
            ("2026-06-02".to_string(), 1, 21, 210),
            ("2026-06-03".to_string(), 1, 31, 301),
        ]
    );
    assert_eq!(day_rows(db, other, Level::Keyword).await.len(), 4);
    assert_eq!(day_rows(db, org_key, Level::Campaign).await.len(), 1);
    // A row outside the range is refused and nothing changes.
    let err = replace_days(
        &db.pool,
        org_key,
        Level::Keyword,
        "2026-06-02",
        "2026-06-02",
        &first,
    )
    .await;
    assert!(err.is_err());
    assert_eq!(day_rows(db, org_key, Level::Keyword).await.len(), 3);
    // Many rows (17 columns × 3,000 > 32,000 parameters) in one transaction.
    let many: Vec<DayRow> = (0..3000).map(|i| row("2026-06-10", i, i, i)).collect();
    let stored = replace_days(
        &db.pool,
        org_key,
        Level::SearchTerm,
        "2026-06-10",
        "2026-06-10",
        &many,
    )
    .await
    .unwrap();
    assert_eq!(stored, 3000);
    let sum: i64 = sqlx::query_scalar(
        "SELECT CAST(SUM(impressions) AS BIGINT) FROM asa_day_metrics WHERE org_key = $1 AND level = 4",
    )
    .bind(org_key)
    .fetch_one(&db.pool)
    .await
    .unwrap();
    assert_eq!(sum, (0..3000).sum::<i64>());
}

async fn the_sync_schedule_goes_with_its_connection(backend: Backend) {
    let Some(f) = fixture(backend).await else {
        return;
    };
    let db = &f.db;
    let workspace: String = sqlx::query_scalar("SELECT workspace_id FROM accounts WHERE id = $1")
        .bind(&f.account_id)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    let payload = serde_json::json!({"accountId": f.account_id});
    for _ in 0..2 {
        synced::set_schedule(
            &db.pool,
            &f.account_id,
            &workspace,
            "sync-account",
            &payload,
            10_800_000,
            1,
        )
        .await
        .unwrap();
    }
    let key = synced::schedule_key(&f.account_id);
    let rows: Vec<(i64, String)> =
        sqlx::query_as("SELECT every_ms, payload FROM schedules WHERE key = $1")
            .bind(&key)
            .fetch_all(&db.pool)
            .await
            .unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].0, 10_800_000);
    let org_key = synced::ensure_org(&db.pool, &f.account_id, 1, None, None)
        .await
        .unwrap();
    replace_days(
        &db.pool,
        org_key,
        Level::Ad,
        "2026-06-01",
        "2026-06-01",
        &[row("2026-06-01", 1, 1, 1)],
    )
    .await
    .unwrap();
    synced::set_last_synced(&db.pool, &f.account_id, 1234)
        .await
        .unwrap();
    let account = store::accounts::by_id(&db.pool, &f.account_id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(account.last_synced_at, Some(1234));
    store::accounts::delete(&db.pool, &f.account_id)
        .await
        .unwrap();
    let left: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM schedules WHERE key = $1")
        .bind(&key)
        .fetch_one(&db.pool)
        .await
        .unwrap();
    assert_eq!(left, 0);
    assert_eq!(
        count(
            db,
            "SELECT COUNT(*) FROM asa_day_metrics WHERE org_key = $1",
            org_key
        )
        .await,
        0
    );
}

searchdeck_common::per_backend!(
    [sqlite, postgres]
    orgs_have_one_key_and_a_widening_state,
    upserts_batch_past_the_bind_limit_and_unlisted_rows_are_marked_deleted,
    replace_days_swaps_exactly_the_range_and_never_duplicates,
    the_sync_schedule_goes_with_its_connection,
);
