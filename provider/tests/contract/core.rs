//! Core contract: accounts, campaigns, ad groups, keywords, negatives, the first reports,
//! auth failures and fault classification.

use searchdeck_provider::calls::{AdGroup, Campaign, Keyword, NegativeKeyword};
use searchdeck_provider::{AppleAds, AppleAdsExt, Entity};
use std::sync::Arc;
use std::time::{Duration, Instant};

use searchdeck_common::ratelimit::{RateLimiter, SharedStore};
use searchdeck_provider::limiter::settings;
use searchdeck_provider::{ClientConfig, KeyPair, ProviderError, RetryPolicy, Unlimited};
use serde_json::{Value, json};

use crate::support::{client, client_from, start, validate_all};

#[tokio::test]
async fn client_calls_validate_against_the_reference() {
    let h = start().await;
    let c = &h.client;
    let me = c.me().await.unwrap();
    assert!(me.org_id.is_some());
    let accounts = c.ad_accounts().await.unwrap();
    assert_eq!(accounts.len(), 3);
    let account = accounts[0].0;
    assert_eq!(c.ad_account(account).await.unwrap().id, account);

    let page = c.query::<Campaign>(account, Entity::Campaigns, &json!({ "sorting": [{ "field": "name", "order": "ASC" }], "pagination": { "offset": 0, "pageSize": 2 } })).await.unwrap();
    assert_eq!(page.items.len(), 2);
    assert_eq!(page.total, Some(4));
    let existing = &page.items[0];
    let adam_id = existing.promoted_object_id.clone().unwrap();
    let got: Campaign = c
        .get(account, Entity::Campaigns, existing.id)
        .await
        .unwrap();
    assert_eq!(got.name, existing.name);

    let created: Campaign = c
        .create(
            account,
            Entity::Campaigns,
            &json!({
                "adAccountId": account, "name": "Contract test", "billingEvent": "TAPS",
                "promotedObjectType": "APPSTORE_APP", "promotedObjectId": adam_id,
                "dailyBudget": { "value": { "amount": "100", "currency": "USD" } },
                "targeting": { "countryOrRegion": { "include": ["US", "GB"] } }
            }),
        )
        .await
        .unwrap();
    let paused: Campaign = c
        .update(
            account,
            Entity::Campaigns,
            created.id,
            &json!({ "status": "PAUSED" }),
        )
        .await
        .unwrap();
    assert_eq!(paused.status, "PAUSED");
    let group: AdGroup = c
        .create(account, Entity::AdGroups, &json!({ "name": "Exact", "campaignId": created.id, "pricingModel": "CPT", "bidStrategy": { "bid": { "amount": "1.25", "currency": "USD" } } }))
        .await
        .unwrap();
    let items = vec![
        json!({ "adGroupId": group.id, "text": "photo editor", "matchType": "EXACT", "bid": { "amount": "1.10", "currency": "USD" } }),
        json!({ "adGroupId": group.id, "text": "collage maker", "matchType": "BROAD" }),
        json!({ "adGroupId": group.id, "text": "photo editor", "matchType": "EXACT" }),
    ];
    let results = c
        .bulk::<Keyword>(account, Entity::Keywords, "create", &items)
        .await
        .unwrap();
    assert!(results[0].outcome.is_ok() && results[1].outcome.is_ok());
    assert_eq!(
        results[2].outcome.as_ref().unwrap_err().code,
        "INVALID_ARGUMENT",
        "duplicate reported per item"
    );
    let kw = results[0].outcome.as_ref().unwrap();
    let updated = c
        .bulk::<Keyword>(
            account,
            Entity::Keywords,
            "update",
            &[json!({ "id": kw.id, "bid": { "amount": "2.00" } })],
        )
        .await
        .unwrap();
    assert_eq!(
        updated[0]
            .outcome
            .as_ref()
            .unwrap()
            .bid
            .as_ref()
            .unwrap()
            .amount,
        "2.00"
    );
    let deleted = c
        .bulk::<Keyword>(
            account,
            Entity::Keywords,
            "delete",
            &[json!({ "id": results[1].outcome.as_ref().unwrap().id })],
        )
        .await
        .unwrap();
    assert_eq!(deleted[0].outcome.as_ref().unwrap().deleted, Some(true));
    let negative: NegativeKeyword = c
        .create(
            account,
            Entity::NegativeKeywords,
            &json!({ "campaignId": created.id, "text": "free" }),
        )
        .await
        .unwrap();
    assert_eq!(negative.ad_group_id, None);
    let kws = c.query::<Keyword>(account, Entity::Keywords, &json!({ "filters": [{ "field": "adGroupId", "operator": "EQUALS", "value": [group.id] }] })).await.unwrap();
    assert_eq!(kws.items.len(), 2);
    c.delete(account, Entity::Campaigns, created.id)
        .await
        .unwrap();

    let today = time::OffsetDateTime::now_utc().date();
    let range = json!({ "start": (today - time::Duration::days(30)).to_string(), "end": today.to_string(), "timeZone": "ORTZ", "granularity": "DAILY" });
    let report = c.report(account, "campaigns", &json!({ "timeRange": range, "options": { "includeRows": ["GRAND_TOTAL"] }, "sorting": [{ "field": "localSpend", "order": "DESC" }] })).await.unwrap();
    assert!(!report.items.is_empty());
    let campaign_id = report.items[0]["metadata"]["id"].as_i64().unwrap();
    let groups = c.report(account, "adgroups", &json!({ "timeRange": range, "filters": [{ "field": "campaignId", "operator": "EQUALS", "value": [campaign_id] }] })).await.unwrap();
    let keywords = c.report(account, "keywords", &json!({ "timeRange": range, "filters": [{ "field": "campaignId", "operator": "IN", "value": [campaign_id.to_string()] }], "pagination": { "pageSize": 1000 } })).await.unwrap();
    let impressions = |rows: &[Value]| {
        rows.iter()
            .map(|r| r["totalMetrics"]["impressions"].as_u64().unwrap())
            .sum::<u64>()
    };
    assert_eq!(
        impressions(&groups.items),
        report.items[0]["totalMetrics"]["impressions"]
            .as_u64()
            .unwrap(),
        "ad groups add up to the campaign"
    );
    let terms = c.report(account, "searchterms", &json!({ "timeRange": { "start": range["start"], "end": range["end"] }, "filters": [{ "field": "campaignId", "operator": "EQUALS", "value": [campaign_id] }], "pagination": { "pageSize": 5000 } })).await.unwrap();
    let search_match = crate::support::search_match(&terms.items);
    assert_eq!(
        impressions(&keywords.items) + impressions(&search_match),
        impressions(&groups.items),
        "keywords and search-match terms add up to the ad groups"
    );

    let too_big = c
        .query::<Campaign>(
            account,
            Entity::Campaigns,
            &json!({ "pagination": { "pageSize": 5000 } }),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(too_big, ProviderError::Permanent { status: 400, .. }),
        "{too_big:?}"
    );
    let bad_enum = c
        .update::<Campaign>(
            account,
            Entity::Campaigns,
            existing.id,
            &json!({ "status": "RUNNING" }),
        )
        .await
        .unwrap_err();
    assert!(
        matches!(&bad_enum, ProviderError::Permanent { message, .. } if message.contains("unknown variant")),
        "{bad_enum:?}"
    );
    let missing = c
        .report(account, "adgroups", &json!({ "timeRange": range }))
        .await
        .unwrap_err();
    assert!(
        matches!(missing, ProviderError::Permanent { status: 400, .. }),
        "{missing:?}"
    );
    let validated = validate_all(&h.seen);
    assert!(validated >= 20, "{validated}");
}

#[tokio::test]
async fn bad_secrets_are_rejected_and_a_revoked_token_is_refreshed_once() {
    let h = start().await;
    let wrong_key = client(&h.base, &h.seen, &h.ids, KeyPair::generate());
    assert!(matches!(wrong_key.me().await, Err(ProviderError::Auth(m)) if m.contains("signature")));
    let wrong_kid = client(
        &h.base,
        &h.seen,
        &(h.ids.0.clone(), h.ids.1.clone(), "other".into()),
        h.key.clone(),
    );
    assert!(matches!(wrong_kid.me().await, Err(ProviderError::Auth(m)) if m.contains("kid")));
    let expired = searchdeck_provider::credentials::client_secret(
        &h.key, &h.ids.0, &h.ids.1, &h.ids.2, 1_000_000, 3600,
    );
    let form = [
        ("grant_type", "client_credentials"),
        ("client_id", h.ids.0.as_str()),
        ("client_secret", expired.as_str()),
        ("scope", "searchadsorg"),
    ];
    let answer = reqwest::Client::new()
        .post(format!("{}/auth/oauth2/token", h.base))
        .form(&form)
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), 401);

    h.client.me().await.unwrap();
    reqwest::Client::new()
        .post(format!("{}/sandbox/tokens/revoke", h.base))
        .send()
        .await
        .unwrap();
    h.client.me().await.expect("a 401 refreshes the token once");
    let statuses: Vec<u16> = h.seen.lock().unwrap().iter().map(|s| s.2).collect();
    assert_eq!(statuses, vec![200, 401, 200]);
    validate_all(&h.seen);
}

#[tokio::test]
async fn rate_limits_and_faults_are_classified() {
    let mut h = start().await;
    // No limiter: this test is about classification, not about waiting 429s out.
    let mut config = ClientConfig::sandbox(&h.base);
    config.retry = RetryPolicy {
        max_attempts: 1,
        max_rate_limited: 0,
        ..RetryPolicy::default()
    };
    config.gate = Arc::new(Unlimited);
    h.client = client_from(config, &h.seen, &h.ids, h.key.clone());
    let http = reqwest::Client::new();
    let account = h.client.ad_accounts().await.unwrap()[0].0;
    http.put(format!("{}/sandbox/faults", h.base))
        .json(&json!({ "burst429": 2 }))
        .send()
        .await
        .unwrap();
    for _ in 0..2 {
        let e = h.client.ad_account(account).await.unwrap_err();
        assert!(
            matches!(e, ProviderError::RateLimited { retry_after } if retry_after.as_secs() >= 1),
            "{e:?}"
        );
    }
    h.client.ad_account(account).await.unwrap();
    http.put(format!("{}/sandbox/faults", h.base))
        .json(&json!({ "errorRate": 1.0 }))
        .send()
        .await
        .unwrap();
    assert!(
        h.client
            .ad_account(account)
            .await
            .unwrap_err()
            .is_retryable()
    );
    http.put(format!("{}/sandbox/faults", h.base))
        .json(&json!({ "requestsPerSecond": 1 }))
        .send()
        .await
        .unwrap();
    let results = futures::future::join_all((0..3).map(|_| h.client.ad_account(account))).await;
    assert!(
        results
            .iter()
            .any(|r| matches!(r, Err(ProviderError::RateLimited { .. }))),
        "{results:?}"
    );
    let bad = http
        .put(format!("{}/sandbox/faults", h.base))
        .json(&json!({ "errorRate": 2 }))
        .send()
        .await
        .unwrap();
    assert_eq!(bad.status(), 400);
    validate_all(&h.seen);
}

/// Two clients standing for two processes (each its own limiter, one shared store): a 429
/// answered to the first pauses the second for the Retry-After, and both count what they did.
#[tokio::test]
async fn a_429_seen_by_one_process_pauses_the_others() {
    let h = start().await;
    let store = SharedStore::memory();
    let process = || {
        let mut config = ClientConfig::sandbox(&h.base);
        config.gate = Arc::new(RateLimiter::new(store.clone(), settings()));
        config.retry = RetryPolicy {
            max_rate_limited: 0,
            ..RetryPolicy::default()
        };
        client_from(config, &h.seen, &h.ids, h.key.clone())
    };
    let (first, second) = (process(), process());
    let account = first.ad_accounts().await.unwrap()[0].0;
    second.ad_account(account).await.unwrap();
    reqwest::Client::new()
        .put(format!("{}/sandbox/faults", h.base))
        .json(&json!({ "burst429": 1 }))
        .send()
        .await
        .unwrap();
    let e = first.ad_account(account).await.unwrap_err();
    assert!(matches!(e, ProviderError::RateLimited { .. }), "{e:?}");
    let started = Instant::now();
    second.ad_account(account).await.unwrap();
    assert!(
        started.elapsed() >= Duration::from_millis(900),
        "the second process waited only {:?}",
        started.elapsed()
    );
    let (a, b) = (first.metrics().snapshot(), second.metrics().snapshot());
    assert_eq!((a.calls, a.succeeded, a.failed_rate_limited), (2, 1, 1));
    assert_eq!(a.rate_limited_responses, 1);
    assert_eq!((b.calls, b.succeeded, b.failed()), (2, 2, 0));
    assert!(b.limiter_wait_ms >= 900, "{b:?}");
    validate_all(&h.seen);
}
