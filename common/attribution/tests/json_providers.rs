//! The providers that post JSON (AppsFlyer's Push API, Branch's webhooks, RevenueCat's
//! webhooks): their documented samples read into events, other media sources skipped,
//! malformed values refused under the provider's field names, replays deduplicated.

mod common;

use common::{at, edited, get, one, post, refused, sample, skipped};
use searchdeck_attribution::setup;
use searchdeck_model::attribution::{ClaimType, EventKind, INSTALL_EVENT, Provider, Revenue};
use time::Duration;

fn revenue(micros: i64, currency: &str) -> Option<Revenue> {
    Some(Revenue {
        micros,
        currency: currency.into(),
    })
}

#[test]
fn appsflyer_install() {
    let e = one(post(Provider::AppsFlyer, &sample("appsflyer/install.json")));
    assert_eq!(e.provider, Provider::AppsFlyer);
    assert_eq!(
        (e.kind, e.event_name.as_str()),
        (EventKind::Install, INSTALL_EVENT)
    );
    assert_eq!(e.adam_id, Some(123_456_789));
    assert_eq!(
        (e.campaign_id, e.ad_group_id, e.keyword_id, e.ad_id),
        (
            Some(542_370_539),
            Some(542_317_095),
            Some(87_675_432),
            Some(542_317_136)
        )
    );
    assert_eq!(e.claim_type, Some(ClaimType::Click));
    assert_eq!(e.conversion_type, None);
    assert_eq!(e.country.as_deref(), Some("US"));
    assert_eq!(e.revenue, None);
    assert_eq!(
        (e.event_time, e.install_time),
        (at(1_767_268_800), Some(at(1_767_268_800)))
    );
    assert_eq!(e.device_id.as_deref(), Some("1767268800000-1234567"));
    assert_eq!(
        e.dedupe_id.len(),
        64,
        "derived: the Push API sends no event id"
    );
}

#[test]
fn appsflyer_purchase_and_its_replay() {
    let e = one(post(
        Provider::AppsFlyer,
        &sample("appsflyer/purchase.json"),
    ));
    assert_eq!(
        (e.kind, e.event_name.as_str()),
        (EventKind::Event, "af_purchase")
    );
    assert_eq!(e.revenue, revenue(9_990_000, "GBP"));
    assert_eq!(
        e.event_time,
        at(1_767_342_615) + Duration::milliseconds(250)
    );
    assert_eq!(e.install_time, Some(at(1_767_268_800)));
    assert_eq!(e.keyword_id, None);
    let replay = one(post(
        Provider::AppsFlyer,
        &sample("appsflyer/purchase.json"),
    ));
    assert_eq!(replay.dedupe_id, e.dedupe_id);
    let other = one(post(
        Provider::AppsFlyer,
        &edited(
            "appsflyer/purchase.json",
            "\"event_revenue\": \"9.99\"",
            "\"event_revenue\": \"19.99\"",
        ),
    ));
    assert_ne!(other.dedupe_id, e.dedupe_id);
}

#[test]
fn appsflyer_get_reads_the_same_fields_from_the_query() {
    let query = String::from_utf8(sample("appsflyer/install_get.txt")).expect("UTF-8");
    let e = one(get(Provider::AppsFlyer, &query));
    assert_eq!(
        (e.kind, e.campaign_id, e.adam_id),
        (EventKind::Install, Some(542_370_539), Some(123_456_789))
    );
    let posted = one(post(Provider::AppsFlyer, &sample("appsflyer/install.json")));
    assert_eq!(e.dedupe_id, posted.dedupe_id);
}

#[test]
fn appsflyer_other_media_sources_and_organic_are_skipped() {
    skipped(post(
        Provider::AppsFlyer,
        &sample("appsflyer/other_source.json"),
    ));
    skipped(post(
        Provider::AppsFlyer,
        &edited(
            "appsflyer/install.json",
            "\"media_source\": \"Apple Search Ads\",",
            "",
        ),
    ));
    let odd_ids = edited(
        "appsflyer/other_source.json",
        "\"23851234567890123\"",
        "\"fb-summer\"",
    );
    skipped(post(Provider::AppsFlyer, &odd_ids));
    let legacy = edited(
        "appsflyer/install.json",
        "Apple Search Ads",
        "iOS Search Ads",
    );
    assert_eq!(
        one(post(Provider::AppsFlyer, &legacy)).campaign_id,
        Some(542_370_539)
    );
}

#[test]
fn appsflyer_malformed_values_are_named() {
    let cases = [
        (
            "\"af_c_id\": \"542370539\"",
            "\"af_c_id\": \"Brand\"",
            "af_c_id",
        ),
        (
            "\"event_time\": \"2026-01-02 08:30:15.250\"",
            "\"event_time\": \"soon\"",
            "event_time",
        ),
        (
            "\"event_revenue\": \"9.99\"",
            "\"event_revenue\": \"9,99\"",
            "event_revenue",
        ),
        (
            "\"event_revenue_currency\": \"GBP\"",
            "\"event_revenue_currency\": \"XYZ\"",
            "event_revenue_currency",
        ),
        (
            "\"app_id\": \"id123456789\"",
            "\"app_id\": \"com.example\"",
            "app_id",
        ),
    ];
    for (from, to, field) in cases {
        let body = edited("appsflyer/purchase.json", from, to);
        assert_eq!(refused(post(Provider::AppsFlyer, &body)), [field], "{to}");
    }
    assert_eq!(
        refused(post(Provider::AppsFlyer, b"event_name=install")),
        ["body"]
    );
}

#[test]
fn branch_install() {
    let e = one(post(Provider::Branch, &sample("branch/install.json")));
    assert_eq!(
        (e.kind, e.event_name.as_str()),
        (EventKind::Install, INSTALL_EVENT)
    );
    assert_eq!(e.dedupe_id, "1234567890123456789");
    assert_eq!(
        (e.campaign_id, e.ad_group_id, e.keyword_id, e.ad_id),
        (
            Some(542_370_539),
            Some(542_317_095),
            Some(87_675_432),
            Some(542_317_136)
        )
    );
    assert_eq!(e.claim_type, Some(ClaimType::Click));
    assert_eq!(e.country.as_deref(), Some("US"));
    assert_eq!(
        (e.event_time, e.install_time),
        (at(1_767_268_800), Some(at(1_767_268_800)))
    );
    assert_eq!(e.device_id.as_deref(), Some("user-42"));
}

#[test]
fn branch_purchase() {
    let e = one(post(Provider::Branch, &sample("branch/purchase.json")));
    assert_eq!(
        (e.kind, e.event_name.as_str()),
        (EventKind::Event, "PURCHASE")
    );
    assert_eq!(e.revenue, revenue(12_990_000, "CAD"));
    assert_eq!(e.ad_id, Some(542_317_136), "from ~creative_id");
    assert_eq!(e.claim_type, Some(ClaimType::Impression));
    assert_eq!(e.country.as_deref(), Some("CA"));
    assert_eq!(
        e.event_time,
        at(1_767_355_200) + Duration::milliseconds(500)
    );
    assert_eq!(e.install_time, Some(at(1_767_268_800)));
    assert_eq!(
        e.device_id.as_deref(),
        Some("5A1D4E2B-7C3F-4B9A-8E6D-0F1A2B3C4D5E")
    );
    let replay = one(post(Provider::Branch, &sample("branch/purchase.json")));
    assert_eq!(replay.dedupe_id, e.dedupe_id);
}

#[test]
fn branch_other_partners_are_skipped_and_bad_values_named() {
    skipped(post(Provider::Branch, &sample("branch/other_partner.json")));
    let bad = edited(
        "branch/purchase.json",
        "\"~ad_set_id\": \"542317095\"",
        "\"~ad_set_id\": \"x\"",
    );
    assert_eq!(
        refused(post(Provider::Branch, &bad)),
        ["last_attributed_touch_data.~ad_set_id"]
    );
    let bad = edited(
        "branch/purchase.json",
        "\"revenue\": 12.99",
        "\"revenue\": \"lots\"",
    );
    assert_eq!(
        refused(post(Provider::Branch, &bad)),
        ["event_data.revenue"]
    );
    let bad = edited(
        "branch/purchase.json",
        "\"timestamp\": 1767355200500",
        "\"timestamp\": \"x\"",
    );
    assert_eq!(refused(post(Provider::Branch, &bad)), ["timestamp"]);
    assert_eq!(refused(post(Provider::Branch, b"not json")), ["body"]);
}

#[test]
fn revenuecat_initial_purchase() {
    let e = one(post(
        Provider::RevenueCat,
        &sample("revenuecat/initial_purchase.json"),
    ));
    assert_eq!(
        (e.kind, e.event_name.as_str()),
        (EventKind::Event, "INITIAL_PURCHASE")
    );
    assert_eq!(e.dedupe_id, "6B2E2C59-7D64-4C0B-9A1E-3F0C2B7A1D01");
    assert_eq!(
        e.revenue,
        revenue(4_990_000, "EUR"),
        "the amount paid, not the USD price"
    );
    assert_eq!(
        (e.campaign_id, e.ad_group_id, e.keyword_id, e.ad_id),
        (
            Some(542_370_539),
            Some(542_317_095),
            Some(87_675_432),
            Some(542_317_136)
        )
    );
    assert_eq!(e.adam_id, None, "RevenueCat's app_id is its own");
    assert_eq!(e.country.as_deref(), Some("US"));
    assert_eq!(
        e.event_time,
        at(1_767_268_800) + Duration::milliseconds(123)
    );
    assert_eq!(e.install_time, None);
    assert_eq!(e.device_id.as_deref(), Some("user-42"));
}

#[test]
fn revenuecat_refunds_are_negative_and_unsubscribes_carry_no_revenue() {
    let refund = one(post(
        Provider::RevenueCat,
        &sample("revenuecat/refund.json"),
    ));
    assert_eq!(
        (refund.event_name.as_str(), refund.revenue),
        ("CANCELLATION", revenue(-4_990_000, "EUR"))
    );
    let positive = edited("revenuecat/refund.json", "-4.99", "4.99");
    assert_eq!(
        one(post(Provider::RevenueCat, &positive)).revenue,
        revenue(-4_990_000, "EUR")
    );
    let unsubscribe = one(post(
        Provider::RevenueCat,
        &sample("revenuecat/unsubscribe.json"),
    ));
    assert_eq!(unsubscribe.revenue, None);
}

#[test]
fn revenuecat_skips_other_sources_tests_and_sandbox() {
    skipped(post(
        Provider::RevenueCat,
        &sample("revenuecat/other_source.json"),
    ));
    let sandbox = edited("revenuecat/initial_purchase.json", "PRODUCTION", "SANDBOX");
    skipped(post(Provider::RevenueCat, &sandbox));
    let test = edited(
        "revenuecat/initial_purchase.json",
        "INITIAL_PURCHASE",
        "TEST",
    );
    skipped(post(Provider::RevenueCat, &test));
    let organic = edited(
        "revenuecat/initial_purchase.json",
        "$mediaSource",
        "$someOther",
    );
    skipped(post(Provider::RevenueCat, &organic));
}

#[test]
fn revenuecat_malformed_values_are_named() {
    let bad = edited(
        "revenuecat/initial_purchase.json",
        "\"price_in_purchased_currency\": 4.99",
        "\"price_in_purchased_currency\": \"4,99\"",
    );
    assert_eq!(
        refused(post(Provider::RevenueCat, &bad)),
        ["event.price_in_purchased_currency"]
    );
    let bad = edited(
        "revenuecat/initial_purchase.json",
        "\"currency\": \"EUR\"",
        "\"currency\": \"EURO\"",
    );
    assert_eq!(
        refused(post(Provider::RevenueCat, &bad)),
        ["event.currency"]
    );
    let bad = edited(
        "revenuecat/initial_purchase.json",
        "1767268800123",
        "\"today\"",
    );
    assert_eq!(
        refused(post(Provider::RevenueCat, &bad)),
        ["event.event_timestamp_ms"]
    );
    assert_eq!(
        refused(post(Provider::RevenueCat, b"{\"event\": ")),
        ["body"]
    );
}

#[test]
fn json_providers_are_set_up_with_a_post_to_the_ingest_url() {
    let url = "https://app.example.com/api/attribution/postbacks/branch/t0k";
    for provider in [
        Provider::AppsFlyer,
        Provider::Branch,
        Provider::RevenueCat,
        Provider::Custom,
    ] {
        let s = setup(provider, url);
        assert_eq!((s.method, s.url.as_str()), ("POST", url), "{provider:?}");
        assert!(s.steps.len() >= 2, "{provider:?}");
    }
}
