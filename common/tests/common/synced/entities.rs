//! Synced entities: upserts in batches past one statement's bind limit, entities a complete
//! listing leaves out marked deleted, and search terms.

use searchdeck_common::{
    Backend,
    store::synced::{
        self,
        entities::{self, Keyword, ProductPage},
    },
};

use super::{count, fixture};

pub async fn upserts_batch_past_the_bind_limit_and_unlisted_rows_are_marked_deleted(
    backend: Backend,
) {
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
