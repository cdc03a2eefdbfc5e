//! The completeness of a window (the newest day Apple delivered whole) and the guards of a
//! run (the collapse of delivery, the share of entities changed), over rows built here.

use time::macros::date;

use super::*;
use crate::store::report_facts::Counters;

/// 2026-12-01T10:00:00Z.
const NOW: i64 = 1_796_119_200;

fn org(synced_at: Option<i64>, through: Option<&str>) -> SyncOrg {
    SyncOrg {
        org_key: 1,
        account_id: "acc".into(),
        org_id: 42,
        currency: Some("USD".into()),
        time_zone: Some("UTC".into()),
        entities_synced_at: synced_at,
        metrics_through: through.map(str::to_string),
        metrics_from: Some("2026-09-01".into()),
        metrics_synced_at: synced_at,
        metrics_job: None,
    }
}

fn keyword(id: i64, impressions: i64, spend_micros: i64) -> EntityRow {
    let mut c = [0i64; 11];
    c[0] = impressions;
    c[10] = spend_micros;
    EntityRow {
        id,
        campaign_id: 10,
        ad_group_id: 100,
        name: format!("keyword {id}"),
        status: Some("ACTIVE".into()),
        match_type: Some("EXACT".into()),
        tags: vec![],
        bid_micros: Some(1_000_000),
        default_bid_micros: None,
        cpa_goal_micros: None,
        daily_budget_micros: None,
        popularity: None,
        counters: Counters(c),
        conversions: None,
    }
}

fn subject(rule: serde_json::Value) -> Subject {
    let mut body = json!({
        "name": "Pause the silent", "accountId": "acc", "orgId": "42", "level": "KEYWORDS",
        "campaignIds": ["10"],
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "metric", "metric": "impressions", "operator": "EQUALS", "value": "0"}]}]},
        "window": {"type": "last", "days": 2},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "pause"}]
    });
    if let (Some(b), Some(extra)) = (body.as_object_mut(), rule.as_object()) {
        b.extend(extra.clone());
    }
    Subject {
        workspace_id: "ws".into(),
        rule: serde_json::from_value(body).expect("a rule"),
        campaigns: vec![10],
        org: org(Some(NOW), Some("2026-12-01")),
        currency: "USD".into(),
        targets: HashMap::new(),
    }
}

#[test]
fn the_newest_complete_day_is_the_newest_day_apple_delivered_whole() {
    // Apple's clock is ours: its today (served in part) is not complete, yesterday is.
    assert_eq!(
        newest_complete_day(&org(Some(NOW), Some("2026-12-01"))),
        Some(date!(2026 - 11 - 30))
    );
    // Apple's reporting three days behind ours: only what it delivered counts, however
    // recently our sync ran.
    assert_eq!(
        newest_complete_day(&org(Some(NOW), Some("2026-11-28"))),
        Some(date!(2026 - 11 - 27))
    );
    // A sync that finished long ago bounds it too (Apple served the day, but it had not
    // ended when we read it).
    assert_eq!(
        newest_complete_day(&org(Some(NOW - 3 * 86_400), Some("2026-12-01"))),
        Some(date!(2026 - 11 - 27))
    );
    // Never synced, or synced without a served day: nothing is complete.
    assert_eq!(newest_complete_day(&org(None, None)), None);
    assert_eq!(newest_complete_day(&org(Some(NOW), None)), None);
}

#[test]
fn a_window_past_the_delivered_days_has_a_reason_in_words() {
    let lagging = org(Some(NOW), Some("2026-11-28"));
    let reason = incomplete_reason(&lagging, date!(2026 - 11 - 30)).expect("incomplete");
    assert!(
        reason.starts_with("Metrics for 2026-11-30 are not synced yet")
            && reason.contains("through 2026-11-27"),
        "{reason}"
    );
    assert_eq!(incomplete_reason(&lagging, date!(2026 - 11 - 27)), None);
    assert!(incomplete_reason(&org(None, None), date!(2026 - 11 - 27)).is_some());
}

#[test]
fn delivery_collapses_when_impressions_or_spend_halve() {
    let d = |impressions, spend_micros| Delivery {
        impressions,
        spend_micros,
    };
    assert!(d(0, 0).collapsed_from(&d(10_000, 5_000_000)));
    assert!(d(4_999, 5_000_000).collapsed_from(&d(10_000, 5_000_000)));
    assert!(d(10_000, 2_000_000).collapsed_from(&d(10_000, 5_000_000)));
    assert!(!d(5_000, 2_500_000).collapsed_from(&d(10_000, 5_000_000)));
    // Nothing the week before: nothing to collapse from.
    assert!(!d(0, 0).collapsed_from(&d(0, 0)));
}

#[test]
fn the_share_guard_counts_distinct_changed_entities_of_those_read() {
    let s = subject(json!({}));
    // 3 of 4 keywords silent: 75 % would be paused, over the default 50 %.
    let rows = [
        keyword(1, 0, 0),
        keyword(2, 0, 0),
        keyword(3, 0, 0),
        keyword(4, 900, 3_000_000),
    ];
    let e = evaluate_rows(
        &s,
        (date!(2026 - 11 - 29), date!(2026 - 11 - 30)),
        &rows,
        &mut HashSet::new(),
        &mut HashSet::new(),
    );
    assert_eq!((e.matched, e.read, changed_entities(&e)), (3, 4, 3));
    assert_eq!(
        e.delivery,
        Delivery {
            impressions: 900,
            spend_micros: 3_000_000
        }
    );
    assert!(over_share(&s.rule, &e));
    // The rule's own share.
    let lenient = subject(json!({"guardrails": {"maxChangeShare": 75}}));
    assert!(!over_share(&lenient.rule, &e));
    // 2 of 4 is not over 50 %.
    let half = evaluate_rows(
        &s,
        (date!(2026 - 11 - 29), date!(2026 - 11 - 30)),
        &rows[1..],
        &mut HashSet::new(),
        &mut HashSet::new(),
    );
    assert_eq!((half.read, changed_entities(&half)), (3, 2));
    assert!(over_share(&s.rule, &half));
    let two_of_four = evaluate_rows(
        &s,
        (date!(2026 - 11 - 29), date!(2026 - 11 - 30)),
        &[
            rows[0].clone(),
            rows[1].clone(),
            rows[3].clone(),
            keyword(5, 10, 1),
        ],
        &mut HashSet::new(),
        &mut HashSet::new(),
    );
    assert!(!over_share(&s.rule, &two_of_four));
}
