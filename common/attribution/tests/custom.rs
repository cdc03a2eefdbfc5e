//! The custom tracking server's contract: its documented sample, unknown fields refused
//! with their path, the 1,000-event limit, and the signature (accepted, and refused for a
//! wrong secret, a stale or future time, a tampered body).

mod common;

use common::{at, edited, post, refused, sample};
use searchdeck_attribution::custom::{MAX_EVENTS, SignatureError, sign, verify};
use searchdeck_model::attribution::{
    ClaimType, ConversionType, EventKind, INSTALL_EVENT, Provider, Revenue,
};

const SECRET: &[u8] = b"whsec_test_0123456789";
const NOW: i64 = 1_767_268_800;

#[test]
fn the_documented_sample_reads_into_two_events() {
    let parsed = post(Provider::Custom, &sample("custom/events.json")).expect("accepted");
    assert_eq!((parsed.events.len(), parsed.skipped), (2, 0));
    let install = &parsed.events[0];
    assert_eq!(
        (install.provider, install.dedupe_id.as_str()),
        (Provider::Custom, "evt_0001")
    );
    assert_eq!(
        (install.kind, install.event_name.as_str()),
        (EventKind::Install, INSTALL_EVENT)
    );
    assert_eq!(
        (install.adam_id, install.org_id),
        (Some(123_456_789), Some(40_669_820))
    );
    assert_eq!(
        (
            install.campaign_id,
            install.ad_group_id,
            install.keyword_id,
            install.ad_id
        ),
        (
            Some(542_370_539),
            Some(542_317_095),
            Some(87_675_432),
            Some(542_317_136)
        )
    );
    assert_eq!(install.claim_type, Some(ClaimType::Click));
    assert_eq!(install.conversion_type, Some(ConversionType::Download));
    assert_eq!(
        install.placement.as_deref(),
        Some("APPSTORE_SEARCH_RESULTS")
    );
    assert_eq!(install.country.as_deref(), Some("US"));
    assert_eq!(install.install_time, Some(at(NOW)));
    let refund = &parsed.events[1];
    assert_eq!(
        (refund.dedupe_id.as_str(), refund.event_name.as_str()),
        ("2", "purchase")
    );
    assert_eq!(
        refund.revenue,
        Some(Revenue {
            micros: -4_990_000,
            currency: "USD".into()
        })
    );
    assert_eq!(refund.event_time, at(1_767_428_100));
    assert_eq!(refund.install_time, Some(at(NOW)));
}

#[test]
fn unknown_and_malformed_fields_are_refused_with_their_path() {
    let typo = edited(
        "custom/events.json",
        "\"campaignId\": 542370539",
        "\"campaignID\": 542370539",
    );
    assert_eq!(
        refused(post(Provider::Custom, &typo)),
        ["events[0].campaignID"]
    );
    let bad = edited(
        "custom/events.json",
        "\"amount\": \"-4.99\"",
        "\"amount\": -4.99",
    );
    assert_eq!(
        refused(post(Provider::Custom, &bad)),
        ["events[1].revenue.amount"]
    );
    let bad = edited(
        "custom/events.json",
        "\"adGroupId\": 542317095",
        "\"adGroupId\": \"ag\"",
    );
    assert_eq!(
        refused(post(Provider::Custom, &bad)),
        ["events[1].adGroupId"]
    );
    let bad = edited(
        "custom/events.json",
        "\"type\": \"event\"",
        "\"type\": \"purchase\"",
    );
    assert_eq!(refused(post(Provider::Custom, &bad)), ["events[1].type"]);
    let bad = edited(
        "custom/events.json",
        "\"eventTime\": \"2026-01-01T12:00:00Z\",",
        "",
    );
    assert_eq!(
        refused(post(Provider::Custom, &bad)),
        ["events[0].eventTime"]
    );
    let extra = edited(
        "custom/events.json",
        "{\"events\": [",
        "{\"event\": [], \"events\": [",
    );
    assert_eq!(refused(post(Provider::Custom, &extra)), ["event"]);
    assert_eq!(refused(post(Provider::Custom, b"[]")), ["body"]);
}

#[test]
fn at_most_a_thousand_events_per_request() {
    let event = r#"{"id":"e","type":"install","eventTime":"2026-01-01T12:00:00Z"}"#;
    let body = |n: usize| format!("{{\"events\":[{}]}}", vec![event; n].join(","));
    let parsed = post(Provider::Custom, body(MAX_EVENTS).as_bytes()).expect("1,000 accepted");
    assert_eq!(parsed.events.len(), 1_000);
    assert_eq!(
        refused(post(Provider::Custom, body(MAX_EVENTS + 1).as_bytes())),
        ["events"]
    );
}

#[test]
fn the_signature_is_accepted_within_five_minutes() {
    let body = sample("custom/events.json");
    let header = sign(SECRET, NOW, &body);
    assert!(header.starts_with(&format!("t={NOW},v1=")));
    assert_eq!(header.len(), format!("t={NOW},v1=").len() + 64);
    assert_eq!(verify(SECRET, &header, &body, NOW), Ok(()));
    assert_eq!(verify(SECRET, &header, &body, NOW + 300), Ok(()));
    assert_eq!(verify(SECRET, &header, &body, NOW - 300), Ok(()));
    let rotating = format!("{header},v1={}", "00".repeat(32));
    assert_eq!(verify(SECRET, &rotating, &body, NOW), Ok(()));
}

#[test]
fn the_signature_is_refused_for_a_wrong_secret_a_stale_time_or_a_tampered_body() {
    let body = sample("custom/events.json");
    let header = sign(SECRET, NOW, &body);
    assert_eq!(
        verify(b"another secret", &header, &body, NOW),
        Err(SignatureError::Mismatch)
    );
    assert_eq!(
        verify(SECRET, &header, &body, NOW + 301),
        Err(SignatureError::OutsideTolerance)
    );
    assert_eq!(
        verify(SECRET, &header, &body, NOW - 301),
        Err(SignatureError::OutsideTolerance)
    );
    let tampered = edited("custom/events.json", "-4.99", "-0.99");
    assert_eq!(
        verify(SECRET, &header, &tampered, NOW),
        Err(SignatureError::Mismatch)
    );
    let moved = header.replacen(&NOW.to_string(), &(NOW + 1).to_string(), 1);
    assert_eq!(
        verify(SECRET, &moved, &body, NOW),
        Err(SignatureError::Mismatch)
    );
    for malformed in [
        "",
        "v1=abcd",
        "t=abc,v1=00",
        &format!("t={NOW}"),
        &format!("t={NOW},v1=zz"),
    ] {
        assert_eq!(
            verify(SECRET, malformed, &body, NOW),
            Err(SignatureError::Malformed),
            "{malformed}"
        );
    }
}
