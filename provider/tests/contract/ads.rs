//! Ads, creatives and product pages: the write cycle, their rules and reference shapes.

use searchdeck_provider::ProviderError;
use searchdeck_provider::calls::{Ad, AdGroup, Creative, ProductPage};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use serde_json::json;

use crate::support::{start, validate_all};

#[tokio::test]
async fn ads_creatives_and_product_pages_round_trip() {
    let h = start().await;
    let c = &h.client;
    let account = c.ad_accounts().await.unwrap()[0].0;
    let pages = c
        .query::<ProductPage>(account, Entity::ProductPages, &json!({}))
        .await
        .unwrap();
    assert!(pages.items.len() >= 6, "{}", pages.items.len());
    let custom = pages
        .items
        .iter()
        .find(|p| {
            p.name
                .as_deref()
                .is_some_and(|n| n.ends_with("Seasonal offer"))
        })
        .unwrap();
    let got = c.product_page(account, &custom.id).await.unwrap();
    assert_eq!(
        (got.id.as_str(), got.adam_id),
        (custom.id.as_str(), custom.adam_id)
    );
    let missing = c
        .call(
            reqwest::Method::GET,
            "/product-pages/nope",
            Some(account),
            None,
        )
        .await
        .unwrap_err();
    assert!(
        matches!(missing, ProviderError::Permanent { status: 404, .. }),
        "{missing:?}"
    );

    let creative: Creative = c
        .create(account, Entity::Creatives, &json!({
            "name": "Seasonal CPP", "creativeType": "CUSTOM_PRODUCT_PAGE",
            "destination": { "destinationType": "APP_STORE_PRODUCT_PAGE",
                "parameters": { "adamId": custom.adam_id.to_string(), "productPageId": custom.id } }
        }))
        .await
        .unwrap();
    assert_eq!(creative.creative_type, "CUSTOM_PRODUCT_PAGE");
    let renamed: Creative = c
        .update(
            account,
            Entity::Creatives,
            creative.id,
            &json!({ "name": "Seasonal CPP v2" }),
        )
        .await
        .unwrap();
    assert_eq!(renamed.name, "Seasonal CPP v2");
    let dup = c.create::<Creative>(account, Entity::Creatives, &json!({
        "name": "Seasonal CPP v2", "creativeType": "DEFAULT_PRODUCT_PAGE",
        "destination": { "destinationType": "APP_STORE_PRODUCT_PAGE", "parameters": { "adamId": custom.adam_id.to_string() } }
    })).await.unwrap_err();
    assert!(
        matches!(dup, ProviderError::Permanent { status: 400, .. }),
        "{dup:?}"
    );

    let groups = c
        .query::<AdGroup>(
            account,
            Entity::AdGroups,
            &json!({ "pagination": { "pageSize": 1000 } }),
        )
        .await
        .unwrap();
    let campaigns = c
        .query::<searchdeck_provider::calls::Campaign>(
            account,
            Entity::Campaigns,
            &json!({ "pagination": { "pageSize": 1000 } }),
        )
        .await
        .unwrap();
    let campaign = campaigns
        .items
        .iter()
        .find(|x| {
            x.promoted_object_id.as_deref() == Some(&custom.adam_id.to_string())
                && x.deleted != Some(true)
        })
        .unwrap();
    let group = groups
        .items
        .iter()
        .find(|g| g.campaign_id == campaign.id && g.deleted != Some(true))
        .unwrap();
    let ad: Ad = c.create(account, Entity::Ads, &json!({ "adGroupId": group.id, "creativeId": creative.id, "name": "Seasonal", "status": "ENABLED" })).await.unwrap();
    assert_eq!(ad.creative_id, creative.id);
    let again = c.create::<Ad>(account, Entity::Ads, &json!({ "adGroupId": group.id, "creativeId": creative.id, "name": "Seasonal 2", "status": "ENABLED" })).await.unwrap_err();
    assert!(
        matches!(&again, ProviderError::Permanent { message, .. } if message.contains("already has an ad")),
        "{again:?}"
    );
    let paused: Ad = c
        .update(account, Entity::Ads, ad.id, &json!({ "status": "PAUSED" }))
        .await
        .unwrap();
    assert_eq!(paused.status, "PAUSED");
    let listed = c.query::<Ad>(account, Entity::Ads, &json!({ "filters": [{ "field": "adGroupId", "operator": "EQUALS", "value": [group.id] }] })).await.unwrap();
    assert!(listed.items.iter().any(|a| a.id == ad.id));
    c.delete(account, Entity::Ads, ad.id).await.unwrap();
    assert_eq!(
        c.get::<Ad>(account, Entity::Ads, ad.id)
            .await
            .unwrap()
            .deleted,
        Some(true)
    );
    c.delete(account, Entity::Creatives, creative.id)
        .await
        .unwrap();
    let gone = c
        .update::<Creative>(
            account,
            Entity::Creatives,
            creative.id,
            &json!({ "name": "x" }),
        )
        .await
        .unwrap_err();
    assert!(matches!(gone, ProviderError::Permanent { status: 400, .. }));
    let bad = c
        .create::<Ad>(
            account,
            Entity::Ads,
            &json!({ "adGroupId": group.id, "name": "no creative", "status": "ENABLED" }),
        )
        .await
        .unwrap_err();
    assert!(matches!(bad, ProviderError::Permanent { status: 400, .. }));
    assert!(validate_all(&h.seen) >= 15);
}
