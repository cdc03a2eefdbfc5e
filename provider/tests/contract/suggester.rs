//! The keyword suggester's inputs: the App Store client against the sandbox's stand-ins,
//! phrase and category suggestions (apps and campaigns as `promotedObjectId`), app details,
//! search-term popularity filters; recommendations; change-history filters.

use searchdeck_provider::calls::Campaign;
use searchdeck_provider::recommendations::{Recommendation, promoted};
use searchdeck_provider::{AppStore, AppStoreConfig, ProviderError};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use serde_json::{Value, json};

use crate::support::{advance_days, start, validate_all};

#[tokio::test]
async fn app_store_client_reads_the_stand_ins() {
    let h = start().await;
    let account = h.client.ad_accounts().await.unwrap()[0].0;
    let owned = h.client.search_apps(account, "", true, 5).await.unwrap();
    let app = h
        .client
        .app_details(account, owned[0].adam_id)
        .await
        .unwrap();
    let name = app["appName"].as_str().unwrap().to_string();
    let storefronts: Vec<String> =
        serde_json::from_value(app["availableStorefronts"].clone()).unwrap();
    assert!(storefronts.contains(&"US".to_string()));

    let store = AppStore::new(AppStoreConfig::sandbox(&h.base)).unwrap();
    let found = store.lookup(&[owned[0].adam_id, 1], "us").await.unwrap();
    assert_eq!(found.len(), 1);
    assert_eq!(found[0].track_name, name);
    assert_eq!(found[0].currency.as_deref(), Some("USD"));
    let nowhere = store.lookup(&[owned[0].adam_id], "ru").await.unwrap();
    assert!(nowhere.is_empty(), "not sold in RU: {nowhere:?}");

    let searched = store.search(&name, "us", 10).await.unwrap();
    assert_eq!(searched[0].track_id, owned[0].adam_id);
    let genre = app["primaryGenre"].as_str().unwrap();
    let in_genre = store
        .search(&genre.to_lowercase(), "us", 200)
        .await
        .unwrap();
    assert!(in_genre.len() > 1);

    let hints = store.hints("photo", "us").await.unwrap();
    assert!(!hints.is_empty() && hints.len() <= 10);
    assert!(hints.iter().all(|h| h.term.starts_with("photo")));
    assert!(hints.windows(2).all(|w| w[0].priority >= w[1].priority));
    assert!(matches!(
        store.hints("photo", "ZZ").await,
        Err(ProviderError::Permanent { status: 400, .. })
    ));
    assert!(validate_all(&h.seen) >= 3);
}

#[tokio::test]
async fn suggestions_popularity_and_change_history_filters() {
    let h = start().await;
    let c = &h.client;
    let account = c.ad_accounts().await.unwrap()[0].0;
    let campaigns = c
        .query::<Campaign>(account, Entity::Campaigns, &json!({}))
        .await
        .unwrap();
    let campaign = &campaigns.items[0];
    let adam = campaign.promoted_object_id.clone().unwrap();

    let by_app = c.phrase_suggestions(account, &adam, 30).await.unwrap();
    let by_campaign = c
        .phrase_suggestions(account, &campaign.id.to_string(), 30)
        .await
        .unwrap();
    assert_eq!(by_app.len(), 30);
    assert_eq!(
        by_app.iter().map(|p| &p.phrase).collect::<Vec<_>>(),
        by_campaign.iter().map(|p| &p.phrase).collect::<Vec<_>>()
    );
    let target_cpa = |id: String| {
        let body = json!({ "filters": promoted(&id) });
        async move {
            c.call(
                reqwest::Method::POST,
                "/suggestions/target-cpas/query",
                Some(account),
                Some(&body),
            )
            .await
            .unwrap()
        }
    };
    let by_app = target_cpa(adam.clone()).await;
    assert_eq!(by_app["result"]["promotedObjectId"], adam.as_str());
    assert!(
        by_app["result"]["suggestedTargetCPA"]["amount"].is_string(),
        "{by_app}"
    );
    let by_campaign = target_cpa(campaign.id.to_string()).await;
    assert_eq!(
        by_campaign["result"]["promotedObjectId"],
        campaign.id.to_string()
    );
    let categories = c
        .category_suggestions(account, &campaign.id.to_string())
        .await
        .unwrap();
    let details = c.app_details(account, adam.parse().unwrap()).await.unwrap();
    assert_eq!(
        categories[0].category,
        details["primaryGenre"].as_str().unwrap()
    );

    let query = |filters: Vec<Value>, offset: u32| json!({ "filters": filters, "pagination": { "offset": offset, "pageSize": 1000 } });
    let mut all = Vec::new();
    for offset in [0, 1000] {
        let page = c
            .call(
                reqwest::Method::POST,
                "/suggestions/keywords/query",
                Some(account),
                Some(&query(promoted(&adam), offset)),
            )
            .await
            .unwrap();
        all.extend(page["result"].as_array().unwrap().clone());
    }
    assert_eq!(all.len(), 2000, "a vocabulary of 2,000 terms per app");
    let sample = &all[40];
    let prefix = sample["text"]
        .as_str()
        .unwrap()
        .split(' ')
        .next()
        .unwrap()
        .to_string();
    let floor = sample["popularity"].as_u64().unwrap() / 2;
    let wanted = |r: &Value| {
        r["popularity"].as_u64().unwrap() >= floor
            && r["text"].as_str().unwrap().starts_with(&prefix)
    };
    let mut filters = promoted(&campaign.id.to_string());
    filters.push(json!({ "field": "popularity", "operator": "GREATER_THAN_OR_EQUAL_TO", "value": [floor.to_string()] }));
    filters.push(json!({ "field": "text", "operator": "STARTS_WITH", "value": [prefix] }));
    let picked = c
        .call(
            reqwest::Method::POST,
            "/suggestions/keywords/query",
            Some(account),
            Some(&query(filters, 0)),
        )
        .await
        .unwrap();
    let rows = picked["result"].as_array().unwrap();
    assert!(!rows.is_empty());
    assert!(rows.iter().all(wanted));
    assert_eq!(rows.len(), all.iter().filter(|r| wanted(r)).count());
    let unknown = c
        .call(
            reqwest::Method::POST,
            "/suggestions/keywords/query",
            Some(account),
            Some(&json!({ "filters": promoted(&adam), "fields": ["text"] })),
        )
        .await;
    assert!(
        matches!(unknown, Err(ProviderError::Permanent { status: 400, ref details, .. }) if details == &["UNKNOWN_FIELD"])
    );

    let today = time::OffsetDateTime::now_utc().date();
    let weeks = json!({ "timeRange": { "start": (today - time::Duration::days(13)).to_string(), "end": today.to_string(), "granularity": "WEEKLY_SUN_SAT" },
        "filters": [
            { "field": "genre", "operator": "EQUALS", "value": [details["primaryGenre"]] },
            { "field": "searchPopularity1to100", "operator": "BETWEEN", "value": [30, 70] },
            { "field": "searchTerm", "operator": "LIKE", "value": ["%app%"] },
        ], "pagination": { "pageSize": 500 } });
    let popular = c.search_term_popularity(account, &weeks).await.unwrap();
    assert!(!popular.items.is_empty());
    assert!(popular.items.iter().all(|r| {
        let p = r["searchPopularity1to100"].as_i64().unwrap();
        (30..=70).contains(&p)
            && r["searchTerm"].as_str().unwrap().contains("app")
            && r["genre"] == details["primaryGenre"]
    }));

    // Change history: eventTime ranges, sorting, unknown fields refused.
    let before = time::OffsetDateTime::now_utc();
    let _: Campaign = c
        .update(
            account,
            Entity::Campaigns,
            campaign.id,
            &json!({ "status": "PAUSED" }),
        )
        .await
        .unwrap();
    let _: Campaign = c
        .update(
            account,
            Entity::Campaigns,
            campaign.id,
            &json!({ "status": "ENABLED" }),
        )
        .await
        .unwrap();
    let stamp = before
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let since = |order: &str| json!({ "filters": [{ "field": "eventTime", "operator": "GREATER_THAN_OR_EQUAL_TO", "value": stamp }], "sorting": [{ "field": "eventTime", "order": order }] });
    let newest = c.change_history(account, &since("DESC")).await.unwrap();
    let oldest = c.change_history(account, &since("ASC")).await.unwrap();
    assert_eq!(newest.items.len(), 2);
    assert_eq!(newest.items[0], oldest.items[1]);
    let early =
        json!({ "filters": [{ "field": "eventTime", "operator": "LESS_THAN", "value": stamp }] });
    assert!(
        c.change_history(account, &early)
            .await
            .unwrap()
            .items
            .is_empty()
    );
    for bad in [
        json!({ "filters": [{ "field": "colour", "operator": "EQUALS", "value": "x" }] }),
        json!({ "filters": [{ "field": "entityType", "operator": "GREATER_THAN", "value": "Campaign" }] }),
        json!({ "sort": [] }),
    ] {
        let r = c
            .call(
                reqwest::Method::POST,
                "/change-history/query",
                Some(account),
                Some(&bad),
            )
            .await;
        assert!(
            matches!(r, Err(ProviderError::Permanent { status: 400, .. })),
            "{bad}: {r:?}"
        );
    }
    assert!(validate_all(&h.seen) > 10);
}

#[tokio::test]
async fn recommendations_are_derived_applied_and_dismissed() {
    let h = start().await;
    let c = &h.client;
    let accounts = c.ad_accounts().await.unwrap();
    // Starve the first account's largest running campaign of budget, then let a week pass:
    // it spends its whole (smaller) budget every day and earns a budget recommendation.
    let first = accounts[0].0;
    let campaigns = c
        .query::<Campaign>(first, Entity::Campaigns, &json!({}))
        .await
        .unwrap();
    let amount = |c: &Campaign| {
        c.daily_budget.as_ref().unwrap()["value"]["amount"]
            .as_str()
            .unwrap()
            .parse::<f64>()
            .unwrap()
    };
    let starved = campaigns
        .items
        .iter()
        .filter(|c| c.status == "ENABLED" && c.daily_budget.is_some())
        .max_by(|a, b| amount(a).total_cmp(&amount(b)))
        .expect("a running campaign");
    let mut budget = starved.daily_budget.clone().unwrap();
    budget["value"]["amount"] = json!(format!("{:.2}", (amount(starved) / 5.0).max(1.0)));
    let _: Campaign = c
        .update(
            first,
            Entity::Campaigns,
            starved.id,
            &json!({ "dailyBudget": budget }),
        )
        .await
        .unwrap();
    advance_days(&h.base, 8).await;
    // Find a campaign with each kind of recommendation anywhere in the world.
    let mut budget: Option<(i64, Value)> = None;
    let mut cpa: Option<(i64, Value)> = None;
    for (account, _) in &accounts {
        for app in c.search_apps(*account, "", true, 50).await.unwrap() {
            let q = json!({ "filters": promoted(&app.adam_id.to_string()) });
            let b = c
                .recommendations(*account, Recommendation::DailyBudgets, &q)
                .await
                .unwrap();
            let t = c
                .recommendations(*account, Recommendation::TargetCpas, &q)
                .await
                .unwrap();
            budget = budget.or(b.items.first().map(|r| (*account, r.clone())));
            cpa = cpa.or(t.items.first().map(|r| (*account, r.clone())));
        }
    }
    let (account, rec) = budget.expect("some campaign spends its budget");
    let campaign_id = rec["campaignId"].as_i64().unwrap();
    assert_eq!(rec["state"], "AVAILABLE");
    let id = rec["id"].as_str().unwrap();
    let applied = c
        .decide_recommendation(
            account,
            Recommendation::DailyBudgets,
            true,
            id,
            campaign_id,
            None,
        )
        .await
        .unwrap();
    assert_eq!(applied[0]["state"], "APPLIED");
    let after: Campaign = c
        .get(account, Entity::Campaigns, campaign_id)
        .await
        .unwrap();
    assert_eq!(
        after.daily_budget.unwrap()["value"]["amount"],
        rec["suggestedDailyBudgetAmount"]["amount"]
    );
    let again = c
        .decide_recommendation(
            account,
            Recommendation::DailyBudgets,
            true,
            id,
            campaign_id,
            None,
        )
        .await;
    assert!(
        matches!(
            again,
            Err(ProviderError::Permanent {
                status: 400 | 404,
                ..
            })
        ),
        "{again:?}"
    );

    let (account, rec) = cpa.expect("some campaign has installs");
    let campaign_id = rec["campaignId"].as_i64().unwrap();
    let id = rec["id"].as_str().unwrap();
    let q = json!({ "filters": promoted(&campaign_id.to_string()) });
    let dismissed = c
        .decide_recommendation(
            account,
            Recommendation::TargetCpas,
            false,
            id,
            campaign_id,
            None,
        )
        .await
        .unwrap();
    assert_eq!(dismissed[0]["state"], "DISMISSED");
    let listed = c
        .recommendations(account, Recommendation::TargetCpas, &q)
        .await
        .unwrap();
    assert_eq!(listed.items[0]["state"], "DISMISSED");
    let mut available = promoted(&campaign_id.to_string());
    available.push(json!({ "field": "state", "operator": "EQUALS", "value": ["AVAILABLE"] }));
    let open = c
        .recommendations(
            account,
            Recommendation::TargetCpas,
            &json!({ "filters": available }),
        )
        .await
        .unwrap();
    assert!(open.items.is_empty(), "{:?}", open.items);
    let unknown = c
        .decide_recommendation(
            account,
            Recommendation::TargetCpas,
            true,
            "TCPA-1-1",
            campaign_id,
            None,
        )
        .await;
    assert!(matches!(
        unknown,
        Err(ProviderError::Permanent { status: 404, .. })
    ));
    assert!(validate_all(&h.seen) > 6);
}
