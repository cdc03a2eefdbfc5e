//! Reports beyond the basics: search terms and ads add up to keywords and ad groups,
//! `groupBy` rows add up to the entity, HOURLY buckets to the day, and the reference's
//! restrictions are answered with 400s.

use searchdeck_provider::ProviderError;
use searchdeck_provider::{AppleAds, AppleAdsExt};
use serde_json::{Value, json};

use crate::support::{range, start, sum, validate_all};

fn ids_filter(field: &str, id: i64) -> Value {
    json!([{ "field": field, "operator": "EQUALS", "value": [id] }])
}

#[tokio::test]
async fn search_terms_ads_group_by_and_hourly_add_up() {
    let h = start().await;
    let c = &h.client;
    let account = c.ad_accounts().await.unwrap()[0].0;
    let week = range(7, 7, None);
    let campaigns = c
        .report(
            account,
            "campaigns",
            &json!({ "timeRange": week, "sorting": [{ "field": "impressions", "order": "DESC" }] }),
        )
        .await
        .unwrap();
    let top = &campaigns.items[0];
    let campaign = top["metadata"]["id"].as_i64().unwrap();
    let impressions = top["totalMetrics"]["impressions"].as_u64().unwrap();
    assert!(impressions > 0);
    let filters = ids_filter("campaignId", campaign);
    let page = json!({ "pageSize": 5000 });

    let keywords = c
        .report(
            account,
            "keywords",
            &json!({ "timeRange": week, "filters": filters, "pagination": page }),
        )
        .await
        .unwrap();
    let terms = c
        .report(
            account,
            "searchterms",
            &json!({ "timeRange": week, "filters": filters, "pagination": page }),
        )
        .await
        .unwrap();
    assert_eq!(
        sum(&terms.items, "impressions"),
        impressions,
        "search terms add up"
    );
    let search_match = crate::support::search_match(&terms.items);
    assert!(!search_match.is_empty(), "search match serves");
    assert!(
        search_match
            .iter()
            .all(|r| r["metadata"]["keyword"].is_null())
    );
    assert_eq!(
        sum(&keywords.items, "impressions") + sum(&search_match, "impressions"),
        impressions,
        "keywords and search-match terms add up to the campaign"
    );
    assert!(
        terms.items.len() > keywords.items.len(),
        "broad keywords match variants"
    );
    assert!(
        terms
            .items
            .iter()
            .any(|r| r["metadata"]["searchTermSource"] == "TARGETED")
    );

    let ads = c.report(account, "ads", &json!({ "timeRange": week, "filters": filters, "pagination": page, "groupBy": ["countryOrRegion"] })).await.unwrap();
    assert_eq!(sum(&ads.items, "impressions"), impressions, "ads add up");
    assert!(
        ads.items
            .iter()
            .all(|r| r["metadata"]["countryOrRegion"].is_string())
    );
    assert!(
        ads.items
            .iter()
            .all(|r| r["metadata"]["creative"]["id"].is_i64())
    );

    let by_dims = c.report(account, "campaigns", &json!({ "timeRange": week, "filters": filters, "groupBy": ["countryOrRegion", "deviceClass", "ageRange"], "pagination": page })).await.unwrap();
    assert_eq!(
        sum(&by_dims.items, "impressions"),
        impressions,
        "groupBy rows add up"
    );
    assert!(
        by_dims
            .items
            .iter()
            .any(|r| r["metadata"]["deviceClass"] == "IPAD")
    );

    let day = range(2, 1, Some("HOURLY"));
    let daily = c
        .report(
            account,
            "campaigns",
            &json!({ "timeRange": range(2, 1, Some("DAILY")), "filters": filters }),
        )
        .await
        .unwrap();
    let hourly = c
        .report(
            account,
            "campaigns",
            &json!({ "timeRange": day, "filters": filters, "groupBy": ["deviceClass"] }),
        )
        .await
        .unwrap();
    let hours: u64 = hourly
        .items
        .iter()
        .flat_map(|r| r["granularMetrics"].as_array().unwrap().clone())
        .map(|m| m["taps"].as_u64().unwrap())
        .sum();
    assert_eq!(
        hours,
        daily.items[0]["totalMetrics"]["taps"].as_u64().unwrap(),
        "hours add up to the day"
    );
    let label = hourly.items[0]["granularMetrics"][0]["date"]
        .as_str()
        .unwrap();
    assert_eq!(label.len(), "YYYY-MM-DD HH".len(), "{label}");

    let refused = [
        (
            "searchterms",
            json!({ "timeRange": day, "filters": filters }),
        ),
        (
            "keywords",
            json!({ "timeRange": week, "filters": filters, "groupBy": ["gender"] }),
        ),
        (
            "campaigns",
            json!({ "timeRange": day, "groupBy": ["ageRange"] }),
        ),
        (
            "campaigns",
            json!({ "timeRange": range(12, 7, Some("WEEKLY")) }),
        ),
        (
            "campaigns",
            json!({ "timeRange": range(120, 7, Some("DAILY")) }),
        ),
        (
            "searchterms",
            json!({ "timeRange": { "start": week["start"], "end": week["end"], "timeZone": "UTC" }, "filters": filters }),
        ),
        (
            "campaigns",
            json!({ "timeRange": week, "groupBy": ["weekday"] }),
        ),
    ];
    for (level, body) in refused {
        let e = c
            .report(account, level, &body)
            .await
            .err()
            .unwrap_or_else(|| panic!("{level} {body} was accepted"));
        assert!(
            matches!(e, ProviderError::Permanent { status: 400, .. }),
            "{level} {body}: {e:?}"
        );
    }
    assert!(validate_all(&h.seen) >= 14);
}
