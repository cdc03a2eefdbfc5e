//! Validation as Apple does it: every rule the sandbox enforces refused through the real
//! client, with its detail code, and every refusal's body validated against the reference.

use searchdeck_provider::calls::{AdGroup, Campaign};
use searchdeck_provider::{AppleAdsExt, Entity};
use searchdeck_provider::{Client, ProviderError};
use serde_json::{Value, json};

use crate::support::{start, validate_all};

/// The detail codes of a permanent 400, or a panic naming what came instead.
async fn refused(c: &Client, method: &str, path: &str, account: i64, body: Value) -> Vec<String> {
    let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
    match c.call(method, path, Some(account), Some(&body)).await {
        Err(ProviderError::Permanent {
            status: 400,
            details,
            ..
        }) => details,
        other => panic!("{path} {body}: expected a 400, got {other:?}"),
    }
}

fn campaign(account: i64, adam_id: &str) -> Value {
    json!({
        "adAccountId": account, "name": "Validation", "billingEvent": "TAPS",
        "promotedObjectType": "APPSTORE_APP", "promotedObjectId": adam_id,
        "dailyBudget": { "value": { "amount": "50", "currency": "USD" } },
        "targeting": { "countryOrRegion": { "include": ["US"] } }
    })
}

fn with(mut v: Value, pointer: &str, value: Value) -> Value {
    let (parent, key) = pointer.rsplit_once('/').unwrap();
    v.pointer_mut(parent).unwrap()[key] = value;
    v
}

#[tokio::test]
async fn every_rule_is_refused_with_its_detail() {
    let h = start().await;
    let c = &h.client;
    let account = c.ad_accounts().await.unwrap()[0].0;
    let existing = c
        .query::<Campaign>(account, Entity::Campaigns, &json!({}))
        .await
        .unwrap();
    let adam = existing.items[0].promoted_object_id.clone().unwrap();
    let base = campaign(account, &adam);
    let cases: Vec<(&str, Value)> = vec![
        ("UNKNOWN_FIELD", with(base.clone(), "/color", json!("red"))),
        (
            "UNKNOWN_FIELD",
            with(base.clone(), "/targeting/age", json!({})),
        ),
        (
            "AMOUNT_TOO_LOW",
            with(base.clone(), "/dailyBudget/value/amount", json!("0.50")),
        ),
        (
            "COUNTRIES_OR_REGIONS_NOT_ELIGIBLE",
            with(
                base.clone(),
                "/targeting/countryOrRegion/include",
                json!(["US", "ZZ"]),
            ),
        ),
        (
            "INVALID_DATE_RANGE",
            with(
                with(base.clone(), "/startTime", json!("2030-01-02T00:00:00Z")),
                "/endTime",
                json!("2030-01-01T00:00:00Z"),
            ),
        ),
        (
            "INVALID_LENGTH",
            with(base.clone(), "/name", json!("x".repeat(201))),
        ),
        (
            "UNSUPPORTED_BID_STRATEGY",
            with(
                base.clone(),
                "/bidStrategy",
                json!({ "bidStrategyType": "MAX_CONVERSIONS" }),
            ),
        ),
        (
            "INVALID_ENUM_VALUE",
            with(
                base.clone(),
                "/bidStrategy",
                json!({ "bidStrategyType": "AUTO" }),
            ),
        ),
    ];
    for (code, body) in cases {
        let details = refused(c, "POST", "/campaigns", account, body.clone()).await;
        assert_eq!(details, [code], "{body}");
    }
    let created: Campaign = c.create(account, Entity::Campaigns, &base).await.unwrap();
    let details = refused(
        c,
        "PUT",
        &format!("/campaigns/{}", created.id),
        account,
        json!({ "endTime": "2000-01-01T00:00:00Z" }),
    )
    .await;
    assert_eq!(details, ["INVALID_DATE_RANGE"]);

    let group = json!({ "name": "G", "campaignId": created.id, "pricingModel": "CPT", "bidStrategy": { "bid": { "amount": "1.00" } } });
    for (code, body) in [
        (
            "AMOUNT_TOO_LOW",
            with(group.clone(), "/bidStrategy/bid/amount", json!("0.05")),
        ),
        (
            "UNSUPPORTED_BID_STRATEGY",
            with(
                group.clone(),
                "/bidStrategy/bidStrategyGoal",
                json!("INSTALL"),
            ),
        ),
        (
            "UNSUPPORTED_VALUE",
            with(
                group.clone(),
                "/targeting",
                json!({ "gender": { "include": ["F"] } }),
            ),
        ),
        (
            "UNKNOWN_FIELD",
            with(group.clone(), "/defaultBid", json!("1")),
        ),
    ] {
        assert_eq!(
            refused(c, "POST", "/adgroups", account, body.clone()).await,
            [code],
            "{body}"
        );
    }
    let g: AdGroup = c.create(account, Entity::AdGroups, &group).await.unwrap();

    let kw = |text: &str, m: &str| json!({ "adGroupId": g.id, "text": text, "matchType": m });
    for (code, body) in [
        (
            "AMOUNT_TOO_LOW",
            with(
                kw("cheap bid", "EXACT"),
                "/bid",
                json!({ "amount": "0.01" }),
            ),
        ),
        ("INVALID_LENGTH", kw(&"k".repeat(81), "EXACT")),
        ("UNSUPPORTED_VALUE", kw("category", "CATEGORY")),
        (
            "UNKNOWN_FIELD",
            with(kw("x", "EXACT"), "/campaignId", json!(created.id)),
        ),
    ] {
        assert_eq!(
            refused(c, "POST", "/keywords", account, body.clone()).await,
            [code],
            "{body}"
        );
    }
    let phrase = c
        .call(
            reqwest::Method::POST,
            "/keywords",
            Some(account),
            Some(&kw("photo editor", "PHRASE")),
        )
        .await
        .unwrap();
    assert_eq!(phrase["result"]["matchType"], "PHRASE");

    // Bulk: each item is validated on its own; duplicates inside the request are refused.
    let bulk = json!({ "allowPartialSuccess": true, "items": [
        { "correlationId": 1, "data": kw("collage maker", "BROAD") },
        { "correlationId": 2, "data": kw("Collage Maker", "BROAD") },
        { "correlationId": 3, "data": with(kw("selfie", "EXACT"), "/colour", json!(1)) },
        { "correlationId": 4, "data": kw("selfie", "EXACT") },
    ]});
    let answer = c
        .call(
            reqwest::Method::POST,
            "/keywords/bulk-create",
            Some(account),
            Some(&bulk),
        )
        .await
        .unwrap();
    let results = answer["result"].as_array().unwrap();
    let ok: Vec<bool> = results
        .iter()
        .map(|r| r["success"].as_bool().unwrap())
        .collect();
    assert_eq!(ok, [true, false, false, true]);
    assert_eq!(
        results[1]["error"]["details"][0]["code"],
        "DUPLICATE_KEYWORD"
    );
    assert_eq!(results[2]["error"]["details"][0]["code"], "UNKNOWN_FIELD");
    assert_eq!(results[2]["correlationId"], 3);

    // Negatives: exactly one level, no duplicates in one request.
    let both = json!({ "campaignId": created.id, "adGroupId": g.id, "text": "free" });
    assert_eq!(
        refused(c, "POST", "/negative-keywords", account, both).await,
        ["INVALID_LEVEL"]
    );
    assert_eq!(
        refused(
            c,
            "POST",
            "/negative-keywords",
            account,
            json!({ "text": "free" })
        )
        .await,
        ["FIELD_REQUIRED"]
    );
    let negatives = json!({ "items": [
        { "data": { "adGroupId": g.id, "text": "free", "matchType": "PHRASE" } },
        { "data": { "adGroupId": g.id, "text": "FREE", "matchType": "PHRASE" } },
    ]});
    let details = refused(
        c,
        "POST",
        "/negative-keywords/bulk-create",
        account,
        negatives,
    )
    .await;
    assert_eq!(details, ["DUPLICATE_KEYWORD"]);

    assert!(validate_all(&h.seen) > 25);
}

#[tokio::test]
async fn unserved_paths_and_wrong_methods_answer_json() {
    let h = start().await;
    let account = h.client.ad_accounts().await.unwrap()[0].0;
    let c = crate::support::client(&h.base, &Default::default(), &h.ids, h.key.clone());
    for (method, path, status, code) in [
        (reqwest::Method::GET, "/nothing-here", 404, "NOT_FOUND"),
        (reqwest::Method::DELETE, "/me", 405, "METHOD_NOT_ALLOWED"),
        (
            reqwest::Method::PATCH,
            "/campaigns/1",
            405,
            "METHOD_NOT_ALLOWED",
        ),
    ] {
        match c.call(method.clone(), path, Some(account), None).await {
            Err(ProviderError::Permanent {
                status: s,
                code: got,
                ..
            }) => {
                assert_eq!((s, got.as_str()), (status, code), "{method} {path}");
            }
            other => panic!("{method} {path}: {other:?}"),
        }
    }
    let outside = reqwest::get(format!("{}/elsewhere", h.base)).await.unwrap();
    assert_eq!(outside.status(), 404);
    let body: Value = outside.json().await.unwrap();
    assert_eq!(body["error"]["code"], "NOT_FOUND");
}
