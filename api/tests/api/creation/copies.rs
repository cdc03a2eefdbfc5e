//! Copies of a created campaign (`copy-campaigns`): named ' copy N', with every setting on
//! and off (ad groups, the campaign's negatives, ads, bids and CPA goals overridden, the
//! status), campaigns of two apps in one request each promoting its own app, and another
//! workspace's campaign answering 404.

use axum::http::{Method, StatusCode};
use searchdeck_provider::{AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{ADS_OF, CAMPAIGNS_NAMED, Creation, GROUPS_OF, KEYWORDS_OF, NEGATIVES_OF, count};
use crate::harness::Connected;

/// Copies of `brand` with each setting on and off, then a copy of a campaign of another
/// app beside it.
pub async fn copies_with_each_setting_on_and_off(t: &Connected, c: &Creation, brand: &str) {
    let (org_key, org_id, adam_id) = (c.org_key, c.org_id, c.adam_id);
    let (q, writer) = (&c.q, c.writer.clone());

    // Copies: twice with everything, named ' copy N'.
    let copy = |body: Value| {
        let t = &t;
        let writer = writer.clone();
        let path = format!("/api/asa/campaigns/copy?{q}");
        async move {
            let res = t.call(Method::PUT, &path, body, &writer).await;
            assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
            let task = t
                .task_finished(&writer, res.json["result"]["id"].as_str().unwrap())
                .await;
            assert_eq!(task["error"], Value::Null, "{task}");
            task
        }
    };
    let task = copy(json!({"campaigns": [brand], "numberOfCopies": 2})).await;
    let names: Vec<&str> = task["details"]["campaignsMapping"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["T Brand Exact copy 1", "T Brand Exact copy 2"]);
    for name in names {
        assert_eq!(count(t, GROUPS_OF, org_key, name).await, 3, "{name}");
        assert_eq!(count(t, KEYWORDS_OF, org_key, name).await, 28, "{name}");
        assert_eq!(count(t, NEGATIVES_OF, org_key, name).await, 3, "{name}");
        assert_eq!(
            count(t, ADS_OF, org_key, name).await,
            2,
            "{name}: the ads of the original"
        );
    }
    let status: String = sqlx::query_scalar(
        "SELECT status FROM asa_campaigns WHERE org_key = $1 AND name = 'T Brand Exact copy 1'",
    )
    .bind(org_key)
    .fetch_one(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(status, "PAUSED");
    // Without ad groups (so no keywords, ad-group negatives or ads), without the campaign's
    // negatives, enabled.
    copy(json!({"campaigns": [brand], "adGroup": false, "campaignNegativeKeywords": false, "status": "ENABLED"}))
        .await;
    let name = "T Brand Exact copy 3";
    assert_eq!(count(t, CAMPAIGNS_NAMED, org_key, name).await, 1);
    assert_eq!(count(t, GROUPS_OF, org_key, name).await, 0);
    assert_eq!(count(t, NEGATIVES_OF, org_key, name).await, 0);
    // Ad groups without ads, every bid and CPA goal overridden.
    copy(json!({"campaigns": [brand], "customAds": false, "cptBid": {"amount": "2.5", "currency": "USD"}, "cpaGoal": "3"}))
        .await;
    let name = "T Brand Exact copy 4";
    assert_eq!(count(t, GROUPS_OF, org_key, name).await, 3);
    assert_eq!(count(t, ADS_OF, org_key, name).await, 0);
    let bids: Vec<(Option<i64>, Option<i64>)> = sqlx::query_as(
        "SELECT g.default_bid_micros, g.cpa_goal_micros FROM asa_ad_groups g JOIN asa_campaigns c \
         ON c.org_key = g.org_key AND c.id = g.campaign_id WHERE g.org_key = $1 AND c.name = $2",
    )
    .bind(org_key)
    .bind(name)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert!(
        bids.iter()
            .all(|b| *b == (Some(2_500_000), Some(3_000_000))),
        "{bids:?}"
    );
    let kw_bids: Vec<Option<i64>> = sqlx::query_scalar(
        "SELECT k.bid_micros FROM asa_keywords k JOIN asa_campaigns c ON c.org_key = k.org_key AND c.id = k.campaign_id \
         WHERE k.org_key = $1 AND c.name = $2",
    )
    .bind(org_key)
    .bind(name)
    .fetch_all(&t.app.state.db.pool)
    .await
    .unwrap();
    assert_eq!(kw_bids.len(), 28);
    assert!(kw_bids.iter().all(|b| *b == Some(2_500_000)));
    // Campaigns of two apps in one request: each copy promotes its own original's app and
    // carries its ads (their creatives are that app's), both whole.
    let (other, other_name, other_app): (i64, String, i64) = sqlx::query_as(
        "SELECT c.id, c.name, c.adam_id FROM asa_campaigns c WHERE c.org_key = $1 AND c.deleted = 0 \
         AND c.adam_id IS NOT NULL AND c.adam_id <> $2 AND EXISTS (SELECT 1 FROM asa_ads a \
         WHERE a.org_key = c.org_key AND a.campaign_id = c.id AND a.deleted = 0) ORDER BY c.id LIMIT 1",
    )
    .bind(org_key)
    .bind(adam_id)
    .fetch_one(&t.app.state.db.pool)
    .await
    .expect("a campaign of another app with ads in the group");
    let task = copy(json!({"campaigns": [brand, other.to_string()]})).await;
    let made: Vec<(String, String)> = task["details"]["campaignsMapping"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            (
                m["name"].as_str().unwrap().to_string(),
                m["campaignId"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(made.len(), 2, "{task}");
    assert_eq!(made[0].0, "T Brand Exact copy 5");
    assert_eq!(made[1].0, format!("{other_name} copy 1"));
    let row = searchdeck_common::store::accounts::by_id(&t.app.state.db.pool, &c.account)
        .await
        .unwrap()
        .unwrap();
    let client = t.app.state.provider.client_of(&row).unwrap();
    for ((name, id), (original, app)) in made
        .iter()
        .zip([(brand.to_string(), adam_id), (other.to_string(), other_app)])
    {
        let c: Value = client
            .get(org_id, Entity::Campaigns, id.parse().unwrap())
            .await
            .unwrap();
        assert_eq!(
            c["promotedObjectId"]
                .as_str()
                .map(str::to_string)
                .or_else(|| c["promotedObjectId"].as_i64().map(|a| a.to_string())),
            Some(app.to_string()),
            "{name} promotes its original's app"
        );
        let original_ads: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM asa_ads WHERE org_key = $1 AND campaign_id = $2 AND deleted = 0",
        )
        .bind(org_key)
        .bind(original.parse::<i64>().unwrap())
        .fetch_one(&t.app.state.db.pool)
        .await
        .unwrap();
        assert_eq!(
            count(t, ADS_OF, org_key, name).await,
            original_ads,
            "{name}: every ad of {original}"
        );
    }
    // A campaign of no campaign group of the caller's: 404, nothing queued.
    let res = t
        .call(
            Method::PUT,
            &format!("/api/asa/campaigns/copy?{q}"),
            json!({"campaigns": ["123"]}),
            &writer,
        )
        .await;
    assert_eq!(res.status, StatusCode::NOT_FOUND);
}
