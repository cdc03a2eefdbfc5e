//! Conformance cases of `store::negative_lists` and `store::product_ads` (run on both
//! backends by the `store` suite).

use searchdeck_common::{
    Db,
    store::{
        self,
        negative_lists::{ListKeyword, Place},
    },
    test_support::connected_org,
};

fn term(text: &str, m: &str) -> ListKeyword {
    ListKeyword {
        text: text.into(),
        match_type: m.into(),
    }
}

fn place(account_id: &str, campaign: i64, group: Option<i64>) -> Place {
    Place {
        account_id: account_id.into(),
        org_id: 42,
        campaign_id: campaign,
        ad_group_id: group,
        campaign_name: "C".into(),
        ad_group_name: group.map(|_| "G".into()),
    }
}

pub async fn negative_lists_terms_places_and_records(db: &Db) {
    let (workspace, account, org_key) = connected_org(db, "lists@example.com").await;
    let (other_ws, _, _) = connected_org(db, "lists-other@example.com").await;
    let pool = &db.pool;
    store::negative_lists::create(pool, "l1", &workspace, " Brand ", 1)
        .await
        .unwrap();
    store::negative_lists::create(pool, "l2", &workspace, "Generic", 2)
        .await
        .unwrap();
    // Names are unique per workspace, trimmed and case-insensitive; not across workspaces.
    let taken = store::negative_lists::create(pool, "l3", &workspace, "brand", 3)
        .await
        .unwrap_err();
    assert!(Db::is_unique_violation(&taken));
    store::negative_lists::create(pool, "l4", &other_ws, "Brand", 4)
        .await
        .unwrap();
    let taken = store::negative_lists::rename(pool, "l2", "BRAND", 5)
        .await
        .unwrap_err();
    assert!(Db::is_unique_violation(&taken));

    let mut conn = pool.acquire().await.unwrap();
    let terms: Vec<ListKeyword> = (0..450)
        .map(|i| term(&format!("t{i}"), "EXACT"))
        .chain([term("free", "BROAD")])
        .collect();
    store::negative_lists::insert_keywords(&mut conn, "l1", &terms)
        .await
        .unwrap();
    store::negative_lists::insert_keywords(
        &mut conn,
        "l2",
        &[term("free", "BROAD"), term("cheap", "EXACT")],
    )
    .await
    .unwrap();
    let places = [place(&account, 7, None), place(&account, 7, Some(70))];
    store::negative_lists::insert_places(&mut conn, "l1", &places)
        .await
        .unwrap();
    store::negative_lists::insert_places(&mut conn, "l2", &places[..1])
        .await
        .unwrap();
    drop(conn);

    assert_eq!(
        store::negative_lists::keywords(pool, "l1").await.unwrap(),
        terms,
        "terms in the order saved"
    );
    assert_eq!(
        store::negative_lists::places(pool, "l1").await.unwrap(),
        places
    );
    let all = store::negative_lists::all(pool, &workspace).await.unwrap();
    assert_eq!(
        all.iter()
            .map(|l| (l.name.as_str(), l.keywords_count))
            .collect::<Vec<_>>(),
        [("Brand", 451), ("Generic", 2)]
    );
    assert!(
        store::negative_lists::in_workspace(pool, &other_ws, "l1")
            .await
            .unwrap()
            .is_none(),
        "another workspace's list"
    );

    // What the lists hold at a place: the union, each term once.
    let at_campaign = store::negative_lists::terms_at(pool, &workspace, &places[0])
        .await
        .unwrap();
    assert_eq!(at_campaign.len(), 452);
    assert_eq!(at_campaign.iter().filter(|t| t.text == "free").count(), 1);
    let at_group = store::negative_lists::terms_at(pool, &workspace, &places[1])
        .await
        .unwrap();
    assert_eq!(at_group.len(), 451);
    assert!(
        store::negative_lists::terms_at(pool, &other_ws, &places[0])
            .await
            .unwrap()
            .is_empty()
    );

    // Replacing terms and places; a task recorded.
    store::negative_lists::clear_keywords(pool, "l1")
        .await
        .unwrap();
    store::negative_lists::clear_places(pool, "l1")
        .await
        .unwrap();
    assert_eq!(
        store::negative_lists::terms_at(pool, &workspace, &places[1])
            .await
            .unwrap(),
        vec![]
    );
    store::negative_lists::set_task(pool, "l1", Some("t"), 9)
        .await
        .unwrap();
    let l1 = store::negative_lists::in_workspace(pool, &workspace, "l1")
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (l1.task_id.as_deref(), l1.updated_at, l1.keywords_count),
        (Some("t"), 9, 0)
    );

    // Negatives the lists made, per place, keyed as Apple compares them.
    let mut conn = pool.acquire().await.unwrap();
    store::negative_lists::claim(
        &mut conn,
        &places[0],
        &[term(" Free ", "broad"), term("cheap", "EXACT")],
    )
    .await
    .unwrap();
    store::negative_lists::claim(&mut conn, &places[0], &[term("free", "BROAD")])
        .await
        .unwrap();
    store::negative_lists::claim(&mut conn, &places[1], &[term("free", "BROAD")])
        .await
        .unwrap();
    store::negative_lists::release(&mut conn, &places[0], &[term("CHEAP", "EXACT")])
        .await
        .unwrap();
    drop(conn);
    assert_eq!(
        store::negative_lists::made_at(pool, &places[0])
            .await
            .unwrap(),
        [term("free", "BROAD")]
    );
    assert_eq!(
        store::negative_lists::made_at(pool, &places[1])
            .await
            .unwrap(),
        [term("free", "BROAD")]
    );
    assert!(
        store::negative_lists::made_at(pool, &place(&account, 8, None))
            .await
            .unwrap()
            .is_empty()
    );

    // Keywords a place bids on (synced, live).
    for (id, group, text, deleted) in [
        (1, 70, "photo editor", 0),
        (2, 71, "free photo", 0),
        (3, 70, "gone", 1),
    ] {
        sqlx::query("INSERT INTO asa_keywords (org_key, id, campaign_id, ad_group_id, text, match_type, status, deleted, synced_at) \
                     VALUES ($1, $2, 7, $3, $4, 'EXACT', 'ENABLED', $5, 1)")
            .bind(org_key).bind(id as i64).bind(group as i64).bind(text).bind(deleted as i64)
            .execute(pool).await.unwrap();
    }
    let campaign: Vec<i64> = store::negative_lists::bid_keywords(pool, org_key, 7, None)
        .await
        .unwrap()
        .iter()
        .map(|k| k.id)
        .collect();
    assert_eq!(campaign, [1, 2]);
    let group: Vec<i64> = store::negative_lists::bid_keywords(pool, org_key, 7, Some(70))
        .await
        .unwrap()
        .iter()
        .map(|k| k.id)
        .collect();
    assert_eq!(group, [1]);

    // Deleting a list takes its terms and places.
    assert!(
        store::negative_lists::delete(pool, &workspace, "l2")
            .await
            .unwrap()
    );
    assert!(
        !store::negative_lists::delete(pool, &other_ws, "l1")
            .await
            .unwrap()
    );
    assert!(
        store::negative_lists::terms_at(pool, &workspace, &places[0])
            .await
            .unwrap()
            .is_empty()
    );
}

pub async fn product_ads_join_creatives_pages_and_scope(db: &Db) {
    let (workspace, account, org_key) = connected_org(db, "ads@example.com").await;
    let (other_ws, _, _) = connected_org(db, "ads-other@example.com").await;
    let pool = &db.pool;
    for sql in [
        "INSERT INTO asa_ad_groups (org_key, id, campaign_id, name, status, synced_at) VALUES ($1, 70, 7, 'Exact', 'ENABLED', 1)",
        "INSERT INTO asa_product_pages (org_key, id, adam_id, name, synced_at) VALUES ($1, 'pp-1', 900, 'Spotlight', 1)",
        "INSERT INTO asa_creatives (org_key, id, name, creative_type, product_page_id, synced_at) VALUES ($1, 50, 'Spotlight', 'CUSTOM_PRODUCT_PAGE', 'pp-1', 1)",
        "INSERT INTO asa_creatives (org_key, id, name, creative_type, product_page_id, synced_at) VALUES ($1, 51, 'Default', 'DEFAULT_PRODUCT_PAGE', 'pp-0', 1)",
        "INSERT INTO asa_ads (org_key, id, campaign_id, ad_group_id, creative_id, name, status, synced_at) VALUES ($1, 500, 7, 70, 50, 'A', 'ENABLED', 1)",
        "INSERT INTO asa_ads (org_key, id, campaign_id, ad_group_id, creative_id, name, status, synced_at) VALUES ($1, 501, 7, 70, 51, 'B', 'PAUSED', 1)",
        "INSERT INTO asa_ads (org_key, id, campaign_id, ad_group_id, creative_id, name, status, deleted, synced_at) VALUES ($1, 502, 7, 70, 50, 'C', 'ENABLED', 1, 1)",
        "INSERT INTO asa_ads (org_key, id, campaign_id, ad_group_id, creative_id, name, status, synced_at) VALUES ($1, 503, 7, 71, 50, 'D', 'ENABLED', 1)",
    ] {
        sqlx::query(sql).bind(org_key).execute(pool).await.unwrap();
    }
    let ads = store::product_ads::ads_of_campaign(pool, org_key, 7, None)
        .await
        .unwrap();
    assert_eq!(
        ads.iter().map(|a| a.id).collect::<Vec<_>>(),
        [500, 501, 503],
        "live ads by ad group"
    );
    assert_eq!(ads[0].product_page_name.as_deref(), Some("Spotlight"));
    assert_eq!(ads[0].ad_group_name.as_deref(), Some("Exact"));
    assert!(ads[0].custom_page() && !ads[1].custom_page());
    let of_group = store::product_ads::ads_of_campaign(pool, org_key, 7, Some(70))
        .await
        .unwrap();
    assert_eq!(of_group.len(), 2);

    let page = store::product_ads::page_in_workspace(pool, &workspace, "pp-1")
        .await
        .unwrap();
    assert_eq!(page.len(), 1);
    assert_eq!(
        (page[0].account_id.as_str(), page[0].org_id, page[0].adam_id),
        (account.as_str(), 42, 900)
    );
    assert!(
        store::product_ads::page_in_workspace(pool, &other_ws, "pp-1")
            .await
            .unwrap()
            .is_empty()
    );
    let group = store::product_ads::ad_group_in_workspace(pool, &workspace, 70)
        .await
        .unwrap();
    assert_eq!(
        (
            group[0].campaign_id,
            group[0].name.as_str(),
            group[0].deleted
        ),
        (7, "Exact", false)
    );
    assert!(
        store::product_ads::ad_group_in_workspace(pool, &other_ws, 70)
            .await
            .unwrap()
            .is_empty()
    );
}
