use super::*;

fn event(name: &str, kind: &str) -> StoredEvent {
    StoredEvent {
        provider: "adjust".into(),
        dedupe_id: "d1".into(),
        kind: kind.into(),
        event_name: name.into(),
        adam_id: Some(123),
        org_id: Some(1),
        campaign_id: Some(10),
        ad_group_id: Some(20),
        keyword_id: None,
        ad_id: Some(40),
        claim_type: Some("Click".into()),
        conversion_type: Some("Download".into()),
        placement: None,
        country: Some("US".into()),
        revenue_micros: None,
        currency: None,
        event_at: 1_000_000_000_000 + 3 * 86_400_000 + 5,
        install_at: 1_000_000_000_000,
        install_day: "2001-09-09".into(),
        device_id: Some("dev".into()),
        test: false,
        received_at: 0,
    }
}

#[test]
fn an_event_adds_to_each_level_it_names_with_its_age() {
    let mut e = event("af_purchase", "event");
    e.revenue_micros = Some(-4_990_000);
    e.currency = Some("USD".into());
    let facts = facts_of(&e);
    let levels: Vec<i64> = facts.iter().map(|f| f.level).collect();
    // Search Match: no keyword, so no keyword fact.
    assert_eq!(
        levels,
        [
            FactLevel::Campaign.code(),
            FactLevel::AdGroup.code(),
            FactLevel::Ad.code()
        ]
    );
    assert!(
        facts
            .iter()
            .all(|f| f.age_days == 3 && f.revenue_micros == -4_990_000)
    );
    assert_eq!(facts[0].claim_type, "Click");
    assert_eq!(facts[0].placement, "");
}

#[test]
fn an_event_of_no_campaign_adds_to_no_report_row() {
    let mut e = event("install", "install");
    e.campaign_id = None;
    assert!(facts_of(&e).is_empty());
}

#[test]
fn ages_past_thirty_days_share_one_bucket() {
    let mut e = event("renewal", "event");
    e.event_at = e.install_at + 90 * 86_400_000;
    assert_eq!(facts_of(&e)[0].age_days, LATER);
}

#[test]
fn names_count_as_trials_purchases_and_revenue_by_default() {
    let counts = |name: &str, revenue: Option<i64>| {
        let mut e = event(name, "event");
        e.revenue_micros = revenue;
        default_counts(&e)
    };
    assert_eq!(counts(INSTALL_EVENT, None), Counts::default());
    assert!(counts("af_start_trial", None).trial);
    assert!(!counts("af_start_trial", None).purchase);
    assert!(counts("INITIAL_PURCHASE", Some(9_990_000)).purchase);
    assert!(counts("INITIAL_PURCHASE", Some(9_990_000)).revenue);
    assert!(!counts("RENEWAL", Some(9_990_000)).purchase);
    assert!(counts("RENEWAL", Some(9_990_000)).revenue);
    assert!(counts("af_subscribe", None).purchase);
    assert!(!counts("af_subscribe", Some(0)).revenue);
}

#[test]
fn install_days_are_the_campaign_groups_days() {
    // 2026-12-01 03:00 UTC is still 30 November in New York.
    let at = 1_796_094_000_000;
    assert_eq!(day_in(at, Some("America/New_York")), "2026-11-30");
    assert_eq!(day_in(at, None), "2026-12-01");
    assert_eq!(day_in(at, Some("Not/AZone")), "2026-12-01");
}
