//! Conformance of the keyword suggester's stores on every backend: the competitor store
//! (`store::competitors`, per workspace and app) and Apple's search popularity
//! (`store::popularity`, per normalised text and storefront). Each case runs as
//! `sqlite::<case>` and `postgres::<case>` (PostgreSQL when `TEST_DATABASE_URL` is set).

use searchdeck_common::{
    Db,
    store::{
        competitors::{self, Competitor},
        popularity::{self, Popularity},
    },
    test_support::{connected_org, owner},
};

conformance!("sd_suggester";
    competitors_are_per_workspace_and_app,
    popularity_is_kept_per_text_and_storefront,
    popularity_reads_the_synced_texts,
);

fn app(adam_id: i64, competitor_id: i64, name: &str) -> Competitor {
    Competitor {
        adam_id,
        competitor_id,
        name: name.into(),
        developer: Some("Dev".into()),
        icon: None,
        genre: Some("Photo & Video".into()),
    }
}

async fn competitors_are_per_workspace_and_app(db: &Db) {
    let (_, mine) = owner(db, "ann@example.com").await;
    let (_, theirs) = owner(db, "bob@example.com").await;
    let pool = &db.pool;
    assert!(
        competitors::save(pool, &mine, &app(1, 10, "Ten"), 100)
            .await
            .unwrap()
    );
    assert!(
        competitors::save(pool, &mine, &app(1, 20, "Twenty"), 200)
            .await
            .unwrap()
    );
    assert!(
        competitors::save(pool, &mine, &app(2, 10, "Ten"), 300)
            .await
            .unwrap()
    );
    assert!(
        competitors::save(pool, &theirs, &app(1, 30, "Thirty"), 400)
            .await
            .unwrap()
    );
    // Saved again: its details change, its place does not, and it is not new.
    let renamed = Competitor {
        name: "Ten Pro".into(),
        ..app(1, 10, "")
    };
    assert!(!competitors::save(pool, &mine, &renamed, 500).await.unwrap());

    let of_one = competitors::of_app(pool, &mine, 1).await.unwrap();
    assert_eq!(
        of_one
            .iter()
            .map(|c| (c.competitor_id, c.name.as_str()))
            .collect::<Vec<_>>(),
        [(10, "Ten Pro"), (20, "Twenty")]
    );
    assert_eq!(of_one[1], app(1, 20, "Twenty"));
    assert_eq!(competitors::count(pool, &mine, 1).await.unwrap(), 2);
    assert_eq!(competitors::count(pool, &theirs, 1).await.unwrap(), 1);
    let many = competitors::of_apps(pool, &mine, &[2, 1, 99])
        .await
        .unwrap();
    assert_eq!(
        many.iter()
            .map(|c| (c.adam_id, c.competitor_id))
            .collect::<Vec<_>>(),
        [(1, 10), (1, 20), (2, 10)]
    );
    assert!(
        competitors::of_apps(pool, &mine, &[])
            .await
            .unwrap()
            .is_empty()
    );

    assert!(competitors::has_app(pool, &mine, 2).await.unwrap());
    assert!(!competitors::has_app(pool, &mine, 3).await.unwrap());
    assert!(!competitors::has_app(pool, &theirs, 2).await.unwrap());

    // Another workspace's competitor is not this workspace's to remove.
    assert!(!competitors::remove(pool, &mine, 1, 30).await.unwrap());
    assert!(competitors::remove(pool, &mine, 2, 10).await.unwrap());
    assert!(!competitors::remove(pool, &mine, 2, 10).await.unwrap());
    assert!(!competitors::has_app(pool, &mine, 2).await.unwrap());
    assert_eq!(competitors::count(pool, &theirs, 1).await.unwrap(), 1);
}

fn pop(text: &str, country: &str, value: Option<i64>, at: i64) -> Popularity {
    Popularity {
        text: text.into(),
        country: country.into(),
        popularity: value,
        fetched_at: at,
    }
}

async fn popularity_is_kept_per_text_and_storefront(db: &Db) {
    let pool = &db.pool;
    popularity::put_many(
        pool,
        &[
            pop("photo editor", "US", Some(57), 1000),
            pop("photo editor", "GB", Some(31), 1000),
            pop("rare words", "US", None, 1000),
            // A duplicate in one batch keeps the last.
            pop("collage", "US", Some(10), 1000),
            pop("collage", "US", Some(12), 1000),
        ],
    )
    .await
    .unwrap();
    // A refresh replaces the value and the time.
    popularity::put_many(pool, &[pop("photo editor", "US", Some(60), 5000)])
        .await
        .unwrap();
    popularity::put_many(pool, &[]).await.unwrap();

    let texts = |t: &[&str]| t.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    let mut got = popularity::get_many(pool, &texts(&["photo editor", "collage", "nothing"]), &[])
        .await
        .unwrap();
    got.sort_by(|a, b| (&a.text, &a.country).cmp(&(&b.text, &b.country)));
    assert_eq!(
        got,
        [
            pop("collage", "US", Some(12), 1000),
            pop("photo editor", "GB", Some(31), 1000),
            pop("photo editor", "US", Some(60), 5000),
        ]
    );
    let us = popularity::get_many(
        pool,
        &texts(&["photo editor", "rare words"]),
        &texts(&["US"]),
    )
    .await
    .unwrap();
    assert_eq!(us.len(), 2);
    assert!(us.contains(&pop("rare words", "US", None, 1000)));
    assert!(
        popularity::get_many(pool, &[], &[])
            .await
            .unwrap()
            .is_empty()
    );

    // Fresh since 2000: only the refreshed one (a text without popularity counts too when
    // fetched recently).
    let fresh = popularity::fresh(
        pool,
        "US",
        &texts(&["photo editor", "rare words", "collage"]),
        2000,
    )
    .await
    .unwrap();
    assert_eq!(fresh, ["photo editor"]);
    let mut all = popularity::fresh(pool, "US", &texts(&["photo editor", "rare words"]), 0)
        .await
        .unwrap();
    all.sort();
    assert_eq!(all, ["photo editor", "rare words"]);
}

async fn popularity_reads_the_synced_texts(db: &Db) {
    let (_, account_id, org_key) = connected_org(db, "cy@example.com").await;
    let pool = &db.pool;
    for (id, countries) in [(1, r#"["US","GB"]"#), (2, r#"["FR"]"#)] {
        sqlx::query("INSERT INTO asa_campaigns (org_key, id, name, status, countries, synced_at) VALUES ($1, $2, 'C', 'ENABLED', $3, 1)")
            .bind(org_key).bind(id as i64).bind(countries).execute(pool).await.unwrap();
    }
    for (id, campaign, text, deleted) in [
        (1, 1, "Photo Editor", 0),
        (2, 2, "collage", 0),
        (3, 1, "gone", 1),
    ] {
        sqlx::query("INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, deleted, synced_at) VALUES ($1, $2, $3, 1, $4, 'EXACT', 'ACTIVE', $5, 1)")
            .bind(org_key).bind(id as i64).bind(campaign as i64).bind(text).bind(deleted as i64)
            .execute(pool).await.unwrap();
    }
    sqlx::query("INSERT INTO asa_search_terms (org_key, id, campaign_id, ad_group_id, text, source) VALUES ($1, 9, 1, 1, 'selfie cam', 'AUTO')")
        .bind(org_key).execute(pool).await.unwrap();
    let mut texts = popularity::synced_texts(pool, org_key).await.unwrap();
    texts.sort();
    assert_eq!(
        texts,
        [
            (
                "Photo Editor".to_string(),
                Some(r#"["US","GB"]"#.to_string())
            ),
            ("collage".to_string(), Some(r#"["FR"]"#.to_string())),
            ("selfie cam".to_string(), Some(r#"["US","GB"]"#.to_string())),
        ]
    );
    let orgs = popularity::synced_orgs(pool).await.unwrap();
    assert!(orgs.contains(&(org_key, account_id, 42)), "{orgs:?}");
}
