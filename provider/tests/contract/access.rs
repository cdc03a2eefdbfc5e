//! Per-key access: a key registered for some ad accounts only (Limited Access) and for
//! reads only (Read Only) is answered 403 the way the API answers such users.

use searchdeck_provider::calls::Campaign;
use searchdeck_provider::{AppleAdsExt, Entity};
use searchdeck_provider::{KeyPair, ProviderError};
use serde_json::{Value, json};

use crate::support::{Seen, client, register, start, validate_all};

fn detail(r: Result<Value, ProviderError>) -> (u16, Vec<String>) {
    match r {
        Err(ProviderError::Permanent {
            status, details, ..
        }) => (status, details),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[tokio::test]
async fn limited_and_read_only_keys_are_refused_with_403() {
    let h = start().await;
    let accounts = h.client.ad_accounts().await.unwrap();
    let (mine, other) = (accounts[0].0, accounts[1].0);

    let key = KeyPair::generate();
    let registration =
        json!({ "publicKey": key.public_pem(), "adAccountIds": [mine], "readOnly": true });
    let ids = register(&h.base, registration).await;
    let full = h
        .client
        .call(reqwest::Method::GET, "/acls", None, None)
        .await
        .unwrap();
    assert_eq!(full["result"]["acls"][0]["roles"][0], "API Account Manager");
    let seen = Seen::default();
    let c = client(&h.base, &seen, &ids, key);

    let visible = c.ad_accounts().await.unwrap();
    assert_eq!(visible.iter().map(|a| a.0).collect::<Vec<_>>(), [mine]);
    let acls = c
        .call(reqwest::Method::GET, "/acls", None, None)
        .await
        .unwrap();
    assert_eq!(
        acls["result"]["acls"][0]["roles"][0],
        "Limited Access: API Read Only"
    );
    let campaigns = c
        .query::<Campaign>(mine, Entity::Campaigns, &json!({}))
        .await
        .unwrap();
    assert!(!campaigns.items.is_empty());

    let outside = c
        .call(
            reqwest::Method::POST,
            "/campaigns/query",
            Some(other),
            Some(&json!({})),
        )
        .await;
    assert_eq!(detail(outside), (403, vec!["LIMITED_ACCESS".to_string()]));

    let id = campaigns.items[0].id;
    let write = c
        .call(
            reqwest::Method::PUT,
            &format!("/campaigns/{id}"),
            Some(mine),
            Some(&json!({ "status": "PAUSED" })),
        )
        .await;
    assert_eq!(detail(write), (403, vec!["READ_ONLY".to_string()]));
    let unchanged: Campaign = c.get(mine, Entity::Campaigns, id).await.unwrap();
    assert_eq!(unchanged.status, campaigns.items[0].status);

    let refused = reqwest::Client::new()
        .post(format!("{}/sandbox/keys", h.base))
        .json(&json!({ "publicKey": KeyPair::generate().public_pem(), "adAccountIds": [1] }))
        .send()
        .await
        .unwrap();
    assert_eq!(refused.status(), 400);
    assert!(validate_all(&seen) >= 5);
}
