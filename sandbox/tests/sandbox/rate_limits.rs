//! Rate limits as Apple applies them: a quota per ad account (the `X-AP-Context` of the
//! request) per one-second window, announced on every answer (`RateLimit-Limit`,
//! `RateLimit-Remaining`, `RateLimit-Reset`), past it 429 with `Retry-After`; another ad
//! account of the same caller keeps its own quota, and calls outside any ad account count
//! per token. Over the agency world (the small world plus 50 ad accounts of 20 campaigns),
//! which `searchdeck bench rules` runs its scheduled rules on.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

use axum::body::Body;
use axum::http::{HeaderMap, Request, StatusCode};
use searchdeck_sandbox::{
    AGENCY_ACCOUNTS, AGENCY_CAMPAIGNS, FaultConfig, SandboxConfig, WorldSize,
};
use tower::ServiceExt;

use crate::support::Client;

async fn get(c: &Client, path: &str, account: Option<i64>) -> (StatusCode, HeaderMap) {
    let mut request = Request::builder().uri(path).header(
        "authorization",
        format!("Bearer {}", c.token.lock().unwrap()),
    );
    if let Some(a) = account {
        request = request.header("x-ap-context", format!("adAccountId={a}"));
    }
    let response = c
        .app
        .clone()
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap();
    (response.status(), response.headers().clone())
}

fn header(h: &HeaderMap, name: &str) -> Option<String> {
    h.get(name)
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
}

/// Sleeps to just after the start of the next wall-clock second (the sandbox's window).
async fn next_window() {
    let now = SystemTime::now().duration_since(UNIX_EPOCH).unwrap();
    let into = Duration::from_nanos(u64::from(now.subsec_nanos()));
    tokio::time::sleep(Duration::from_secs(1) - into + Duration::from_millis(20)).await;
}

#[tokio::test]
async fn each_ad_account_has_its_own_quota() {
    let mut config = SandboxConfig::sized(WorldSize::Agency);
    config.faults = FaultConfig {
        requests_per_second: 2,
        ..FaultConfig::default()
    };
    let c = Client::new(config);
    let (first, second) = {
        let world = c.sandbox.world.read();
        let agency: Vec<i64> = world
            .accounts
            .keys()
            .copied()
            .filter(|a| {
                world
                    .campaigns
                    .values()
                    .filter(|c| c.ad_account_id == *a)
                    .count()
                    == AGENCY_CAMPAIGNS
            })
            .collect();
        assert_eq!(
            agency.len(),
            AGENCY_ACCOUNTS,
            "the agency world's ad accounts"
        );
        assert_eq!(world.accounts.len(), AGENCY_ACCOUNTS + 3);
        (agency[0], agency[1])
    };
    let one = |a: i64| format!("/v1/ad-accounts/{a}");
    next_window().await;
    for remaining in ["1", "0"] {
        let (status, h) = get(&c, &one(first), Some(first)).await;
        assert_eq!(status, StatusCode::OK);
        assert_eq!(header(&h, "ratelimit-limit").as_deref(), Some("2"));
        assert_eq!(
            header(&h, "ratelimit-remaining").as_deref(),
            Some(remaining)
        );
        assert_eq!(header(&h, "ratelimit-reset").as_deref(), Some("1"));
    }
    let (status, h) = get(&c, &one(first), Some(first)).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(header(&h, "retry-after").as_deref(), Some("1"));
    assert_eq!(header(&h, "ratelimit-remaining").as_deref(), Some("0"));
    // The same caller's other ad account, and a call outside any ad account, are not held.
    let (status, h) = get(&c, &one(second), Some(second)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(header(&h, "ratelimit-remaining").as_deref(), Some("1"));
    let (status, _) = get(&c, "/v1/me", None).await;
    assert_eq!(status, StatusCode::OK);
    // After the Retry-After, the first ad account is served again.
    next_window().await;
    let (status, _) = get(&c, &one(first), Some(first)).await;
    assert_eq!(status, StatusCode::OK);
}
