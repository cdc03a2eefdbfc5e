//! Conformance of the synced-data store (`store::synced`) on SQLite and PostgreSQL (each
//! case runs as `synced::<case>::sqlite` and `synced::<case>::postgres`):
//!
//! - `orgs`: synced campaign groups, one key each, and their state.
//! - `entities`: batched entity upserts past one statement's bind limit, unlisted entities
//!   marked deleted, and search terms.
//! - `days`: `replace_days` swapping exactly the given range.
//! - `schedule`: the connection's sync schedule.
//!
//! The fixture below is a connection of a fresh workspace on the backend's own database.

mod orgs;
use orgs::orgs_have_one_key_and_a_widening_state;
mod entities;
use entities::upserts_batch_past_the_bind_limit_and_unlisted_rows_are_marked_deleted;
mod days;
use days::replace_days_swaps_exactly_the_range_and_never_duplicates;
mod schedule;
use schedule::the_sync_schedule_goes_with_its_connection;

use searchdeck_common::{
    Backend, Db,
    ids::{new_id, now_ms},
    store::{
        self,
        accounts::NewAccount,
        synced::metrics::{DayRow, Level},
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

searchdeck_common::per_backend!(
    [sqlite, postgres]
    orgs_have_one_key_and_a_widening_state,
    upserts_batch_past_the_bind_limit_and_unlisted_rows_are_marked_deleted,
    replace_days_swaps_exactly_the_range_and_never_duplicates,
    the_sync_schedule_goes_with_its_connection,
);
