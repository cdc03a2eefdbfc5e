//! What a quick edit route takes and refuses: its contract in the OpenAPI document, and
//! edits refused by us or by the sandbox changing nothing on either side.

use axum::http::{Method, StatusCode};
use searchdeck_api::session::Role;
use searchdeck_common::money::currency::MoneyRule;
use serde_json::json;

use super::{campaign_url, client, field, group_url, keyword_url, ours, pick, records, theirs};
use crate::common::TestApp;
use crate::harness::{Connected, args, start_sandbox};

#[tokio::test]
async fn edit_routes_are_documented_with_resolvable_schemas() {
    let app = TestApp::sqlite_with(&[]).await;
    let doc = app.get("/api/openapi.json", None).await.json;
    for (path, body) in [
        ("/api/asa/campaigns/update/{id}", "CampaignEdit"),
        ("/api/asa/groups/updatesV2/{id}", "AdGroupEdit"),
        ("/api/asa/keywords/update/{a}/{b}", "KeywordEdit"),
        ("/api/asa/ads/update/{a}/{b}", "AdEdit"),
        ("/api/asa/keywords/update/negative/{id}", "NegativeEdit"),
    ] {
        let op = &doc["paths"][path]["put"];
        for status in ["200", "400", "401", "403", "404", "429"] {
            assert!(
                op["responses"][status].is_object(),
                "PUT {path} documents {status}"
            );
        }
        assert_eq!(op["tags"], json!(["edits"]));
        let schema = &op["requestBody"]["content"]["application/json"]["schema"]["$ref"];
        assert_eq!(
            schema,
            &json!(format!("#/components/schemas/{body}")),
            "PUT {path}"
        );
    }
    let text = doc.to_string();
    for r in text.split("\"$ref\":\"").skip(1) {
        let name = r
            .split('"')
            .next()
            .unwrap()
            .trim_start_matches("#/components/schemas/");
        assert!(
            doc["components"]["schemas"][name].is_object(),
            "{name} resolves"
        );
    }
    assert!(doc["components"]["schemas"]["MoneyIn"].is_object());
}

sandbox_tests! {
    async fn refused_edits_change_nothing(t: Connected) {
        let owner = t.owner().await;
        let account_id = t.connect_until_entities_synced(&owner, "Edited").await;
        let p = pick(&t, &account_id).await;
        let client = client(&t, &account_id).await;
        let reader = t.app.member(&owner, Role::Reader).await;
        let before = (ours(&t, &p).await, theirs(client.as_ref(), &p).await);
        let digits = MoneyRule::of(Some(&p.currency)).digits;
        assert_eq!(digits, 2);

        // Refused by the sandbox: its message on our field.
        for (url, body, f, says) in [
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "0.01"}), "cptBid", "at least"),
            (group_url(&p), json!({"adGroupId": p.group, "defaultBidAmount": "0.01"}), "defaultBidAmount", "at least"),
            (campaign_url(&p), json!({"dailyBudgetAmount": "0.5"}), "dailyBudgetAmount", "at least"),
            (group_url(&p), json!({"adGroupId": p.group, "cpaGoal": "0"}), "cpaGoal", "positive"),
        ] {
            let res = t.call(Method::PUT, &url, body.clone(), &owner).await;
            assert_eq!((res.status, field(&res)), (StatusCode::BAD_REQUEST, f.to_string()), "{body}: {:?}", res.json);
            assert!(res.json["message"].as_str().unwrap().contains(says), "{body}: {:?}", res.json);
        }
        // Refused by us before anything is sent.
        for (url, body, f, says) in [
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "1.234"}), "cptBid", "Bid has at most 2 decimals in USD"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "-1"}), "cptBid", "Bid must not be negative"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "abc"}), "cptBid", "Bid must be a number"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": {"amount": "1", "currency": "EUR"}}), "cptBid", "Bid must be in USD, the campaign group's currency"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "status": "STOPPED"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            // Values are taken exactly as documented: no other case, no spaces.
            (campaign_url(&p), json!({"status": "enabled"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (campaign_url(&p), json!({"status": " ENABLED\t"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "status": "ACTIVE "}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (group_url(&p), json!({"adGroupId": p.group, "status": "Paused"}), "status", "Must be one of: ENABLED, PAUSED, ACTIVE"),
            (keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": {"amount": "1", "currency": "usd"}}), "cptBid", "Bid must be in USD, the campaign group's currency"),
            (keyword_url(&p), json!({"keywordId": p.keyword}), "cptBid", "Choose a value to change"),
            (keyword_url(&p), json!({"cptBid": "1"}), "keywordId", "Please complete this field to continue"),
            (group_url(&p), json!({"adGroupId": p.group, "cpaGoal": "1.001"}), "cpaGoal", "CPA goal has at most 2 decimals in USD"),
            (group_url(&p), json!({"defaultBidAmount": "1"}), "adGroupId", "Please complete this field to continue"),
            (campaign_url(&p), json!({"dailyBudgetAmount": "1e3"}), "dailyBudgetAmount", "Daily budget must be a number"),
        ] {
            let res = t.call(Method::PUT, &url, body.clone(), &owner).await;
            assert_eq!((res.status, field(&res), res.json["errors"][0]["message"].as_str()), (StatusCode::BAD_REQUEST, f.to_string(), Some(says)), "{body}: {:?}", res.json);
        }
        // Readers cannot edit.
        let res = t.call(Method::PUT, &keyword_url(&p), json!({"keywordId": p.keyword, "cptBid": "2"}), &reader).await;
        assert_eq!(res.status, StatusCode::FORBIDDEN, "{:?}", res.json);
        assert_eq!(res.json["message"], "Access restricted");
        // Another workspace's ids are not found, and unknown children neither.
        let stranger = t.owner().await;
        for (url, body) in [
            (campaign_url(&p), json!({"status": "PAUSED"})),
            (group_url(&p), json!({"adGroupId": p.group, "status": "PAUSED"})),
            (keyword_url(&p), json!({"keywordId": p.keyword, "status": "PAUSED"})),
        ] {
            let res = t.call(Method::PUT, &url, body, &stranger).await;
            assert_eq!(res.status, StatusCode::NOT_FOUND, "{url}: {:?}", res.json);
        }
        let res = t.call(Method::PUT, &group_url(&p), json!({"adGroupId": 1, "status": "PAUSED"}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);
        let res = t.call(Method::PUT, &keyword_url(&p), json!({"keywordId": 1, "status": "PAUSED"}), &owner).await;
        assert_eq!(res.status, StatusCode::NOT_FOUND, "{:?}", res.json);

        // Nothing changed anywhere, nothing recorded.
        assert_eq!((ours(&t, &p).await, theirs(client.as_ref(), &p).await), before);
        assert!(records(&t, &owner).await.is_empty());
    }
}
