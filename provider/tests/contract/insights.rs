//! Discovery and insights: suggestions, popularity, impression share, app and geo search,
//! change history.

use searchdeck_provider::ProviderError;
use searchdeck_provider::calls::Keyword;
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use serde_json::json;

use crate::support::{start, validate_all};

#[tokio::test]
async fn suggestions_insights_search_and_change_history() {
    let h = start().await;
    let c = &h.client;
    let account = c.ad_accounts().await.unwrap()[0].0;
    let owned = c.search_apps(account, "", true, 50).await.unwrap();
    assert_eq!(owned.len(), 2, "{owned:?}");
    let all = c.search_apps(account, "", false, 50).await.unwrap();
    assert!(all.len() > owned.len());
    let adam_id = owned[0].adam_id;

    let suggestions = c
        .keyword_suggestions(account, adam_id, None, 50)
        .await
        .unwrap();
    assert_eq!(suggestions.len(), 50);
    assert!(
        suggestions
            .windows(2)
            .all(|w| w[0].popularity >= w[1].popularity)
    );
    assert!(suggestions.iter().all(|s| s.popularity <= 100));
    let missing = c
        .call(
            reqwest::Method::POST,
            "/suggestions/keywords/query",
            Some(account),
            Some(&json!({})),
        )
        .await
        .unwrap_err();
    assert!(matches!(
        missing,
        ProviderError::Permanent { status: 400, .. }
    ));

    let today = time::OffsetDateTime::now_utc().date();
    let weeks = json!({ "timeRange": { "start": (today - time::Duration::days(21)).to_string(), "end": today.to_string(), "granularity": "WEEKLY_SUN_SAT" },
        "filters": [{ "field": "countryOrRegion", "operator": "IN", "value": ["US", "GB"] }], "pagination": { "pageSize": 50 } });
    let popular = c.search_term_popularity(account, &weeks).await.unwrap();
    assert_eq!(popular.items.len(), 50);
    assert_eq!(popular.items[0]["rankInGenre"], 1);
    let share = c.impression_share(account, &json!({ "timeRange": { "start": (today - time::Duration::days(6)).to_string(), "end": today.to_string(), "granularity": "DAILY" },
        "filters": [{ "field": "promotedObjectId", "operator": "EQUALS", "value": [adam_id.to_string()] }] })).await.unwrap();
    assert!(!share.items.is_empty());
    assert!(
        share
            .items
            .iter()
            .all(|r| r["lowImpressionShare"].as_f64().unwrap()
                <= r["highImpressionShare"].as_f64().unwrap())
    );

    let cities = c
        .search_geo(account, "san", Some("Locality"), Some("US"))
        .await
        .unwrap();
    assert_eq!(cities[0]["legacyId"], "US|CA|San Francisco");
    let by_id = c.call(reqwest::Method::POST, "/search/geo", Some(account), Some(&json!({ "geoRequest": [{ "legacyId": "US|CA", "entity": "AdminArea" }], "supplySource": "APPSTORE" }))).await.unwrap();
    assert_eq!(by_id["result"][0]["adminArea"], "CA");

    let kws = c.query::<Keyword>(account, Entity::Keywords, &json!({ "filters": [{ "field": "deleted", "operator": "EQUALS", "value": [false] }], "pagination": { "pageSize": 2 } })).await.unwrap();
    let items: Vec<_> = kws
        .items
        .iter()
        .map(|k| json!({ "id": k.id, "bid": { "amount": "3.33" } }))
        .collect();
    c.bulk::<Keyword>(account, Entity::Keywords, "update", &items)
        .await
        .unwrap();
    c.bulk::<Keyword>(account, Entity::Keywords, "update", &items)
        .await
        .unwrap();
    let since = json!({ "field": "eventTime", "operator": "GREATER_THAN", "value": "2000-01-01T00:00:00Z" });
    let history = c.change_history(account, &json!({ "filters": [since, { "field": "entityType", "operator": "EQUALS", "value": "Keyword" }], "options": { "metadata": "snapshot" } })).await.unwrap();
    assert_eq!(
        history.items.len(),
        1,
        "one transaction; the repeat changed nothing: {:?}",
        history.items
    );
    assert_eq!(history.items[0]["count"], 2);
    assert_eq!(history.items[0]["userType"], "CUSTOMER_API");
    let detail_id = history.items[0]["metas"][0]["detailId"].as_str().unwrap();
    let details = c
        .change_details(account, detail_id, None, None)
        .await
        .unwrap();
    let changes = &details.items[0]["details"][0]["changes"];
    assert_eq!(changes[0]["field"], "bid");
    assert_eq!(changes[0]["newValues"][0], "3.33");
    // Without an eventTime filter Apple refuses the query.
    let refused = c
        .change_history(account, &json!({ "filters": [] }))
        .await
        .unwrap_err();
    assert!(matches!(
        refused,
        ProviderError::Permanent { status: 400, .. }
    ));
    assert!(validate_all(&h.seen) >= 12);
}
