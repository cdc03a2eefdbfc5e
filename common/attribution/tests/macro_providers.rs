//! The providers configured with macros in a pasted URL (Adjust, Singular, Kochava,
//! Tenjin): `setup` binds our names to their macros, `parse` reads them back; an unfilled
//! macro is absent, other networks and uncounted activities are skipped, malformed values
//! are named by the provider's macro.

mod common;

use common::{at, get, one, query, refused, sample, skipped};
use searchdeck_attribution::setup;
use searchdeck_model::attribution::{ConversionType, EventKind, INSTALL_EVENT, Provider, Revenue};

fn text(path: &str) -> String {
    String::from_utf8(sample(path)).expect("UTF-8")
}

#[test]
fn adjust_install() {
    let e = one(get(Provider::Adjust, &text("adjust/install.txt")));
    assert_eq!(
        (e.kind, e.event_name.as_str()),
        (EventKind::Install, INSTALL_EVENT)
    );
    assert_eq!((e.adam_id, e.org_id), (Some(123_456_789), Some(40_669_820)));
    assert_eq!(
        (e.campaign_id, e.ad_group_id, e.keyword_id, e.ad_id),
        (
            Some(542_370_539),
            Some(542_317_095),
            Some(87_675_432),
            Some(542_317_136)
        )
    );
    assert_eq!(e.conversion_type, Some(ConversionType::Download));
    assert_eq!(e.country.as_deref(), Some("US"));
    assert_eq!(
        (e.event_time, e.install_time),
        (at(1_767_268_800), Some(at(1_767_268_800)))
    );
    assert_eq!(
        e.device_id.as_deref(),
        Some("18546f6171f67e29d1cb983322ad1329")
    );
    assert_eq!(e.revenue, None);
}

#[test]
fn adjust_search_match_purchase_with_unfilled_macros() {
    let e = one(get(
        Provider::Adjust,
        &text("adjust/search_match_purchase.txt"),
    ));
    assert_eq!(
        (e.kind, e.event_name.as_str()),
        (EventKind::Event, "purchase")
    );
    assert_eq!(
        e.keyword_id, None,
        "{{iad_keyword_id}} arrived unfilled: Search Match"
    );
    assert_eq!(e.ad_id, None, "-1: the default product page");
    assert_eq!(e.conversion_type, Some(ConversionType::Redownload));
    assert_eq!(
        e.revenue,
        Some(Revenue {
            micros: 4_990_000,
            currency: "EUR".into()
        })
    );
    assert_eq!(e.install_time, Some(at(1_767_268_800)));
    let replay = one(get(
        Provider::Adjust,
        &text("adjust/search_match_purchase.txt"),
    ));
    assert_eq!(
        (replay.dedupe_id.len(), replay.dedupe_id),
        (64, e.dedupe_id)
    );
}

#[test]
fn adjust_skips_organic_installs_and_sessions() {
    skipped(get(Provider::Adjust, &text("adjust/organic.txt")));
    skipped(get(Provider::Adjust, &text("adjust/session.txt")));
}

#[test]
fn adjust_malformed_values_are_named_by_the_placeholder() {
    let path = "adjust/search_match_purchase.txt";
    let cases = [
        (
            "campaign_id=542370539",
            "campaign_id=Brand",
            "iad_campaign_id",
        ),
        ("ad_group_id=542317095", "ad_group_id=1.5", "iad_adgroup_id"),
        ("revenue=4.99", "revenue=4.99.1", "revenue_float"),
        ("currency=EUR", "currency=EU", "currency"),
        ("event_time=1767355200", "event_time=tomorrow", "created_at"),
        ("country=de", "country=Germany", "country"),
        (
            "conversion_type=Redownload",
            "conversion_type=Maybe",
            "iad_conversion_type",
        ),
    ];
    for (from, to, field) in cases {
        assert_eq!(
            refused(get(Provider::Adjust, &query(path, from, to))),
            [field],
            "{to}"
        );
    }
    let no_time = query(path, "event_time=1767355200", "event_time=");
    assert_eq!(refused(get(Provider::Adjust, &no_time)), ["created_at"]);
}

#[test]
fn adjust_setup_binds_our_names_to_its_placeholders() {
    let s = setup(
        Provider::Adjust,
        "https://app.example.com/api/attribution/postbacks/adjust/t0k",
    );
    assert_eq!(s.method, "GET");
    assert!(
        s.url
            .starts_with("https://app.example.com/api/attribution/postbacks/adjust/t0k?")
    );
    for pair in [
        "activity={activity_kind}",
        "event={event_name}",
        "campaign_id={iad_campaign_id}",
        "ad_group_id={iad_adgroup_id}",
        "keyword_id={iad_keyword_id}",
        "ad_id={iad_ad_id}",
        "conversion_type={iad_conversion_type}",
        "revenue={revenue_float}",
        "currency={currency}",
        "event_time={created_at}",
        "install_time={installed_at}",
        "device_id={adid}",
        "country={country}",
    ] {
        assert!(s.url.contains(pair), "{pair} missing from {}", s.url);
    }
}

#[test]
fn the_pasted_url_filled_in_reads_back() {
    // What Adjust does with the URL: replace each placeholder with its value.
    let s = setup(Provider::Adjust, "https://x.test/p");
    let filled = s
        .url
        .replace("{activity_kind}", "install")
        .replace("{network_name}", "Apple%20Search%20Ads")
        .replace("{iad_campaign_id}", "542370539")
        .replace("{created_at}", "1767268800");
    let query = filled.split_once('?').map(|(_, q)| q).unwrap_or_default();
    let e = one(get(Provider::Adjust, query));
    assert_eq!(
        (e.campaign_id, e.ad_group_id, e.event_time),
        (Some(542_370_539), None, at(1_767_268_800))
    );
}

#[test]
fn singular_install() {
    let e = one(get(Provider::Singular, &text("singular/install.txt")));
    assert_eq!(
        (e.provider, e.kind),
        (Provider::Singular, EventKind::Install)
    );
    assert_eq!(
        (e.campaign_id, e.ad_group_id, e.keyword_id),
        (Some(542_370_539), Some(542_317_095), Some(87_675_432))
    );
    assert_eq!(e.install_time, Some(at(1_767_268_800)));
    let bad = query(
        "singular/install.txt",
        "campaign_id=542370539",
        "campaign_id=x",
    );
    assert_eq!(
        refused(get(Provider::Singular, &bad)),
        ["tracker_campaign_id"]
    );
    let other = query("singular/install.txt", "Apple%20Search%20Ads", "Facebook");
    skipped(get(Provider::Singular, &other));
}

#[test]
fn kochava_install() {
    let e = one(get(Provider::Kochava, &text("kochava/install.txt")));
    assert_eq!(
        (e.provider, e.kind, e.event_name.as_str()),
        (Provider::Kochava, EventKind::Install, INSTALL_EVENT)
    );
    assert_eq!(
        (e.campaign_id, e.ad_id),
        (Some(542_370_539), Some(542_317_136))
    );
    assert_eq!(e.event_time, at(1_767_268_800));
    let bad = query(
        "kochava/install.txt",
        "event_time=2026-01-01T12%3A00%3A00Z",
        "event_time=Jan",
    );
    assert_eq!(refused(get(Provider::Kochava, &bad)), ["event_time_utc"]);
    let other = query("kochava/install.txt", "Apple%20Search%20Ads", "Unity%20Ads");
    skipped(get(Provider::Kochava, &other));
}

#[test]
fn tenjin_purchase_in_a_currency_without_decimals() {
    let e = one(get(Provider::Tenjin, &text("tenjin/purchase.txt")));
    assert_eq!(
        (e.kind, e.event_name.as_str()),
        (EventKind::Event, "purchase")
    );
    assert_eq!(
        e.revenue,
        Some(Revenue {
            micros: 480_000_000,
            currency: "JPY".into()
        })
    );
    assert_eq!(e.country.as_deref(), Some("JP"));
    let bad = query("tenjin/purchase.txt", "revenue=480", "revenue=lots");
    assert_eq!(refused(get(Provider::Tenjin, &bad)), ["revenue"]);
    let replay = one(get(Provider::Tenjin, &text("tenjin/purchase.txt")));
    assert_eq!(replay.dedupe_id, e.dedupe_id);
}

#[test]
fn every_macro_provider_is_a_get_with_its_macros() {
    let url = "https://app.example.com/api/attribution/postbacks/x/t0k";
    for (provider, campaign) in [
        (Provider::Adjust, "campaign_id={iad_campaign_id}"),
        (Provider::Singular, "campaign_id={tracker_campaign_id}"),
        (Provider::Kochava, "campaign_id={campaign_id}"),
        (Provider::Tenjin, "campaign_id={remote_campaign_id}"),
    ] {
        let s = setup(provider, url);
        assert_eq!(s.method, "GET", "{provider:?}");
        assert!(s.url.contains(campaign), "{provider:?}: {}", s.url);
        assert!(s.url.contains("event_time={"), "{provider:?}");
        assert!(s.steps.len() >= 2, "{provider:?}");
    }
}
