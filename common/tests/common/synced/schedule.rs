//! A connection's sync schedule: made with the connection and gone with it.

use searchdeck_common::{
    Backend,
    store::{
        self,
        synced::{
            self,
            metrics::{Level, replace_days},
        },
    },
};

use super::{count, fixture, row};

pub async fn the_sync_schedule_goes_with_its_connection(backend: Backend) {
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
