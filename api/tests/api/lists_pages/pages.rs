//! Custom product pages and their ads: listing, ads created once, statuses, checks and the
//! creative-set calls served from the ads.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use serde_json::{Value, json};

use super::{Picked, client, field, pick, scope};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

/// The live ads at Apple of ad group `group` (id, creative id).
async fn ads_at_apple(client: &dyn AppleAds, p: &Picked, group: i64) -> Vec<(i64, i64)> {
    let query = json!({
        "filters": [
            { "field": "adGroupId", "operator": "EQUALS", "value": [group] },
            { "field": "deleted", "operator": "EQUALS", "value": [false] },
        ],
        "pagination": { "offset": 0, "pageSize": 1000 },
    });
    client
        .query::<Value>(p.org_id, Entity::Ads, &query)
        .await
        .unwrap()
        .items
        .iter()
        .map(|a| (a["id"].as_i64().unwrap(), a["creativeId"].as_i64().unwrap()))
        .collect()
}

fn ids(v: &Value, key: &str) -> Vec<String> {
    v["result"]["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| i[key].as_str().unwrap().to_string())
        .collect()
}

crate::sandbox_tests! {
    async fn custom_product_page_ads_are_created_once_and_managed(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Lists").await;
        let p = pick(&t, &account_id).await;
        let apple = client(&t, &account_id).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let stranger = t.owner().await;
        let q = scope(&p);

        // The app's pages: the default first.
        let res = t.get(&format!("/api/productPages/all/adam/{}?{q}", p.adam_id), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let pages = res.json["result"]["items"].as_array().unwrap().clone();
        assert!(pages.len() >= 2, "{pages:?}");
        assert_eq!(pages[0]["isDefault"], true);
        assert!(pages[1..].iter().all(|p| p["isDefault"] == false));
        let res = t.get(&format!("/api/productPages/all/adam/{}", p.adam_id), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "accountId".into()));
        let res = t.get(&format!("/api/productPages/all/adam/{}?{q}", p.adam_id), &stranger).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "another workspace's connection");

        // A custom page no ad of the campaign shows yet.
        let res = t.get(&format!("/api/productPages/all/campaign/{}?{q}", p.campaign), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let shown: Vec<Value> = res.json["result"]["items"].as_array().unwrap().iter().map(|a| a["productPageId"].clone()).collect();
        let page = pages[1..].iter().find(|pg| !shown.contains(&pg["id"])).expect("a custom page without ads").clone();
        let page_id = page["id"].as_str().unwrap().to_string();
        let (g1, g2) = (p.groups[0], p.groups[1]);
        let url = format!("/api/productPages/many/{}/{}/{page_id}?{q}", p.campaign, p.adam_id);

        // Bad input and roles: nothing created.
        let res = t.call(Method::PUT, &url, json!({"groups": []}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "groups".into()));
        let res = t.call(Method::PUT, &url, json!({"groups": ["1"]}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::NOT_FOUND, "groups.0".into()));
        let res = t.call(Method::PUT, &format!("/api/productPages/many/{}/1/{page_id}?{q}", p.campaign), json!({"groups": [g1.to_string()]}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "adamId".into()));
        let res = t.call(Method::PUT, &format!("/api/productPages/many/{}/{}/no-such-page?{q}", p.campaign, p.adam_id), json!({"groups": [g1.to_string()]}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        assert_eq!(t.call(Method::PUT, &url, json!({"groups": [g1.to_string()]}), &reader).await.status, StatusCode::FORBIDDEN);
        assert_eq!(t.call(Method::PUT, &url, json!({"groups": [g1.to_string()]}), &stranger).await.status, StatusCode::NOT_FOUND);
        let before = ads_at_apple(apple.as_ref(), &p, g1).await;

        // Created once: the same call twice makes no second ad.
        let res = t.call(Method::PUT, &url, json!({"groups": [g1.to_string(), g2.to_string()]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let first = res.json["result"]["items"].clone();
        assert_eq!(first[0]["created"], true, "{first:?}");
        assert_eq!(first[1]["created"], true);
        let res = t.call(Method::PUT, &url, json!({"groups": [g1.to_string(), g2.to_string()]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["items"][0]["created"], false);
        assert_eq!(ids(&res.json, "adId"), first.as_array().unwrap().iter().map(|i| i["adId"].as_str().unwrap().to_string()).collect::<Vec<_>>());
        let after = ads_at_apple(apple.as_ref(), &p, g1).await;
        assert_eq!(after.len(), before.len() + 1, "one new ad in the ad group: {before:?} → {after:?}");
        let ad1: i64 = first[0]["adId"].as_str().unwrap().parse().unwrap();

        // Shown at once, with the page.
        let res = t.get(&format!("/api/productPages/all/campaign/{}?{q}", p.campaign), &owner).await;
        let listed = res.json["result"]["items"].as_array().unwrap().iter()
            .find(|a| a["adId"] == json!(ad1.to_string())).cloned().expect("the new ad is listed");
        assert_eq!(listed["productPageId"], json!(page_id));
        assert_eq!(listed["creativeType"], "CUSTOM_PRODUCT_PAGE");
        assert_eq!(listed["adGroupId"], json!(g1.to_string()));
        assert_eq!(t.get(&format!("/api/productPages/all/campaign/{}?{q}", p.campaign), &stranger).await.status, StatusCode::NOT_FOUND);

        // The whole campaign through the page: existing ads kept, the other groups get one.
        let res = t.call(Method::PUT, &format!("/api/productPages/many/{page_id}?{q}"), json!({"campaigns": [p.campaign.to_string()]}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let items = res.json["result"]["items"].as_array().unwrap().clone();
        assert_eq!(items.len(), p.groups.len());
        assert!(items.iter().filter(|i| i["adGroupId"] == json!(g1.to_string()) || i["adGroupId"] == json!(g2.to_string())).all(|i| i["created"] == false));

        // Checks.
        let res = t.call(Method::POST, &format!("/api/asa/campaigns/checkCustomProductPageAds?{q}"), json!({"campaignIds": [p.campaign.to_string()]}), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let n = res.json["result"]["items"][0]["customProductPageAds"].as_u64().unwrap();
        assert!(n >= p.groups.len() as u64, "{:?}", res.json);
        let res = t.call(Method::POST, &format!("/api/asa/campaigns/checkCustomProductPageAdsByAdGroups?{q}"),
            json!({"campaignId": p.campaign.to_string(), "adGroupIds": [g1.to_string()]}), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert!(res.json["result"]["items"][0]["customProductPageAds"].as_u64().unwrap() >= 1);
        let res = t.call(Method::POST, "/api/asa/campaigns/checkCustomProductPageAds", json!({"campaignIds": []}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "campaignIds".into()));
        let res = t.call(Method::POST, "/api/asa/campaigns/checkCustomProductPageAds", json!({"campaignIds": [p.campaign.to_string()]}), &stranger).await;
        assert_eq!((res.status, field(&res)), (StatusCode::NOT_FOUND, "campaignIds.0".into()));

        // Status through productPages/many/{id}: at Apple and in our rows.
        let patch = format!("/api/productPages/many/{}?{q}", p.campaign);
        let res = t.call(Method::PATCH, &patch, json!({"adIds": [ad1.to_string()], "status": "SOMETIMES"}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, "status".into()));
        let res = t.call(Method::PATCH, &patch, json!({"adIds": ["1"], "status": "PAUSED"}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::NOT_FOUND, "adIds.0".into()));
        assert_eq!(t.call(Method::PATCH, &patch, json!({"adIds": [ad1.to_string()], "status": "PAUSED"}), &reader).await.status, StatusCode::FORBIDDEN);
        let res = t.call(Method::PATCH, &patch, json!({"adIds": [ad1.to_string()], "status": "PAUSED"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["items"][0]["status"], "PAUSED");
        let theirs = apple.get::<Value>(p.org_id, Entity::Ads, ad1).await.unwrap();
        assert_eq!(theirs["status"], "PAUSED");
        let ours: String = sqlx::query_scalar("SELECT status FROM asa_ads WHERE org_key = $1 AND id = $2")
            .bind(p.org_key).bind(ad1).fetch_one(&t.app.state.db.pool).await.unwrap();
        assert_eq!(ours, "PAUSED");

        // Creative sets are served from the ads.
        let res = t.get(&format!("/api/creativeSet/getDetails/{g1}?{q}"), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        let item = res.json["result"]["item"].clone();
        assert!(item["items"].as_array().unwrap().iter().any(|a| a["adId"] == json!(ad1.to_string()) && a["status"] == "PAUSED"), "{item:?}");
        let res = t.call(Method::POST, &format!("/api/creativeSet/getDetails/{}/{g1}?{q}", p.campaign), json!({}), &reader).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["item"]["items"], item["items"]);
        assert_eq!(t.get(&format!("/api/creativeSet/getDetails/{g1}?{q}"), &stranger).await.status, StatusCode::NOT_FOUND);
        let res = t.call(Method::PUT, &format!("/api/creativeSet/updates/{g1}?{q}"), json!({"adIds": [ad1.to_string()], "status": "ENABLED"}), &owner).await;
        assert_eq!(res.status, StatusCode::OK, "{:?}", res.json);
        assert_eq!(res.json["result"]["items"][0]["status"], "ENABLED");
        let theirs = apple.get::<Value>(p.org_id, Entity::Ads, ad1).await.unwrap();
        assert_eq!(theirs["status"], "ENABLED");
        let res = t.call(Method::PUT, &format!("/api/creativeSet/updates/{g2}?{q}"), json!({"adIds": [ad1.to_string()], "status": "ENABLED"}), &owner).await;
        assert_eq!((res.status, field(&res)), (StatusCode::NOT_FOUND, "adIds.0".into()), "an ad of another ad group");
    }
}
