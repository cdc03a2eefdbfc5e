//! Conformance cases of `store::creation` (run on both backends by the `store` suite): what a
//! creation job made at Apple, recorded once per job and natural key.

use searchdeck_common::{Db, store};

/// The creation jobs' records: one row per job and natural key (the first kept), read back
/// per job, old ones removed.
pub async fn creation_entities_are_recorded_once_per_job(db: &Db) {
    use store::creation;
    creation::record(&db.pool, "job-a", "c:US Brand", 101, None, 1_000)
        .await
        .unwrap();
    // A rerun that found the entity again records nothing new.
    creation::record(&db.pool, "job-a", "c:US Brand", 999, Some("x"), 2_000)
        .await
        .unwrap();
    let refused = r#"[{"text":"x"}]"#;
    let mut tx = db.pool.begin().await.unwrap();
    creation::record(&mut *tx, "job-a", "k:7", 0, Some(refused), 3_000)
        .await
        .unwrap();
    creation::record(&mut *tx, "job-b", "c:US Brand", 202, None, 5_000)
        .await
        .unwrap();
    tx.commit().await.unwrap();
    let a = creation::of_job(&db.pool, "job-a").await.unwrap();
    assert_eq!(a.len(), 2);
    assert_eq!(
        a["c:US Brand"],
        creation::Recorded {
            provider_id: 101,
            detail: None
        }
    );
    assert_eq!(a["k:7"].detail.as_deref(), Some(refused));
    assert_eq!(
        creation::of_job(&db.pool, "job-b").await.unwrap()["c:US Brand"].provider_id,
        202
    );
    assert!(creation::of_job(&db.pool, "nope").await.unwrap().is_empty());
    // A rolled-back record is not there.
    let mut tx = db.pool.begin().await.unwrap();
    creation::record(&mut *tx, "job-c", "g:1:Exact", 5, None, 1)
        .await
        .unwrap();
    tx.rollback().await.unwrap();
    assert!(
        creation::of_job(&db.pool, "job-c")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(creation::delete_before(&db.pool, 4_000).await.unwrap(), 2);
    assert!(
        creation::of_job(&db.pool, "job-a")
            .await
            .unwrap()
            .is_empty()
    );
    assert_eq!(creation::of_job(&db.pool, "job-b").await.unwrap().len(), 1);
}
