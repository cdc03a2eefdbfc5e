//! The pure part of the pull: a row's facts at each level, an event's revenue split by the
//! cohort curve (exact totals), keyword texts matched to ids, and the settings' checks.

use super::*;
use crate::store::attribution::facts::LATER;

fn row(keyword: KeywordRef) -> PulledRow {
    PulledRow {
        install_day: "2026-11-20".into(),
        adam_id: 900,
        campaign_id: 1,
        ad_group_id: Some(2),
        keyword,
        claim_type: Some(ClaimType::Click),
        installs: 10,
        events: vec![
            PulledEvent {
                name: "af_start_trial".into(),
                count: 4,
                revenue_micros: 0,
            },
            PulledEvent {
                name: "af_subscribe".into(),
                count: 2,
                revenue_micros: 19_980_000,
            },
        ],
        revenue_micros: 19_980_000,
        curve: vec![(1, 9_990_000), (3, 9_990_000), (7, 19_980_000)],
        currency: "USD".into(),
    }
}

#[test]
fn the_split_keeps_the_total_and_follows_the_curve() {
    assert_eq!(split_by_curve(0, 10, &[(1, 5)]), vec![]);
    assert_eq!(split_by_curve(100, 0, &[]), vec![(LATER, 100)]);
    assert_eq!(
        split_by_curve(100, 200, &[(1, 50), (3, 50), (7, 150), (30, 200)]),
        vec![(1, 25), (7, 50), (30, 25)]
    );
    // Growth the curve has not reached is later than day 30; rounding never loses a micro.
    let parts = split_by_curve(1_000_001, 3, &[(1, 1), (7, 2)]);
    assert_eq!(parts.iter().map(|(_, m)| m).sum::<i64>(), 1_000_001);
    assert_eq!(parts.last().unwrap().0, LATER);
}

#[test]
fn a_row_counts_for_its_campaign_group_and_keyword() {
    let keywords = Keywords::new(&[
        KeywordText {
            id: 30,
            ad_group_id: 2,
            text: "Fitness".into(),
            match_type: "BROAD".into(),
        },
        KeywordText {
            id: 31,
            ad_group_id: 2,
            text: "fitness".into(),
            match_type: "EXACT".into(),
        },
    ]);
    assert_eq!(
        keywords.id_of(Some(2), &KeywordRef::Text("FITNESS ".into())),
        Some(31)
    );
    assert_eq!(
        keywords.id_of(Some(3), &KeywordRef::Text("fitness".into())),
        None
    );
    let facts = facts_of_day(&[row(KeywordRef::Text("fitness".into()))], &keywords);
    for level in [1, 2, 3] {
        let of: Vec<_> = facts.iter().filter(|f| f.level == level).collect();
        let installs: i64 = of
            .iter()
            .filter(|f| f.event_name == "install")
            .map(|f| f.events)
            .sum();
        let revenue: i64 = of.iter().map(|f| f.revenue_micros).sum();
        assert_eq!((installs, revenue), (10, 19_980_000), "level {level}");
        assert!(of.iter().all(|f| f.claim_type == "Click"));
    }
    // The subscription's revenue at days 1 and 7, its count at day 0.
    let sub: Vec<_> = facts
        .iter()
        .filter(|f| f.level == 3 && f.event_name == "af_subscribe")
        .map(|f| (f.age_days, f.events, f.revenue_micros))
        .collect();
    assert_eq!(sub, vec![(0, 2, 0), (1, 0, 9_990_000), (7, 0, 9_990_000)]);
    // Search Match: the campaign and ad group only.
    let none = facts_of_day(&[row(KeywordRef::None)], &keywords);
    assert!(none.iter().all(|f| f.level != 3));
}

#[test]
fn appsflyer_settings_name_their_fields() {
    let ok = settings::appsflyer(settings::AppsFlyerInput {
        app_ids: vec![" id900 ".into()],
        ..Default::default()
    })
    .unwrap();
    assert_eq!(ok.app_ids, vec!["id900"]);
    assert_eq!(ok.currency, "USD");
    assert_eq!(ok.events.len(), 3);
    let bad = settings::appsflyer(settings::AppsFlyerInput {
        app_ids: vec!["com.example".into()],
        currency: Some("dollars".into()),
        events: Some(vec!["bad name".into()]),
    })
    .unwrap_err();
    let fields: Vec<_> = bad.iter().map(|e| e.field.as_str()).collect();
    assert_eq!(fields, vec!["appIds[0]", "currency", "events[0]"]);
    // As the document's pattern: digits only, 1 to 18 of them past leading zeros.
    use settings::AppsFlyerSettings as S;
    assert_eq!(S::adam_id("id000123"), Some(123));
    assert_eq!(
        S::adam_id("id999999999999999999"),
        Some(999_999_999_999_999_999)
    );
    for bad in ["id+1", "id0", "id", "id1234567890123456789", "id-5", "id1 "] {
        assert_eq!(S::adam_id(bad), None, "{bad}");
    }
}
