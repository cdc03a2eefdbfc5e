//! Synced campaign groups: one key per connection and campaign group, and a sync state that
//! only widens.

use searchdeck_common::{Backend, store::synced};

use super::fixture;

pub async fn orgs_have_one_key_and_a_widening_state(backend: Backend) {
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
