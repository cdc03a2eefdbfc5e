//! Windows and frequencies, actions by the contract's table, guardrails, and every problem
//! answered at once.

use super::*;

#[test]
fn windows_and_frequencies() {
    assert_eq!(
        with(|r| r.window = Window::Last {
            days: 0,
            exclude_today: true
        }),
        ["window.days"]
    );
    assert_eq!(
        with(|r| r.window = Window::Last {
            days: 366,
            exclude_today: false
        }),
        ["window.days"]
    );
    assert!(
        with(|r| r.window = Window::Between {
            from_days_ago: 14,
            to_days_ago: 3
        })
        .is_empty()
    );
    assert_eq!(
        with(|r| r.window = Window::Between {
            from_days_ago: 3,
            to_days_ago: 14
        }),
        ["window.fromDaysAgo"]
    );
    assert_eq!(
        with(|r| r.window = Window::Between {
            from_days_ago: 3,
            to_days_ago: 0
        }),
        ["window.toDaysAgo"]
    );
    assert_eq!(
        with(|r| r.frequency = crate::rules::Frequency::Daily { hour: 24 }),
        ["frequency.hour"]
    );
}

#[test]
fn actions_follow_the_table() {
    assert_eq!(with(|r| r.actions.clear()), ["actions"]);
    assert_eq!(
        with(|r| r.actions.push(action(r#"{"type": "pause"}"#))),
        ["actions.2.type"],
        "one of each type"
    );
    assert_eq!(
        with(|r| r.actions[0] = action(r#"{"type": "setBudget", "amount": "10"}"#)),
        ["actions.0.type"],
        "budgets are campaigns'"
    );
    assert_eq!(
        with(|r| r.actions[0] = action(r#"{"type": "setBid", "amount": "0"}"#)),
        ["actions.0.amount"]
    );
    assert_eq!(
        with(|r| r.actions[0] = action(r#"{"type": "setBid", "amount": "1.234"}"#)),
        ["actions.0.amount"]
    );
    assert!(
        with(
            |r| r.actions[0] = action(r#"{"type": "changeBid", "by": "AMOUNT", "value": "-0.10"}"#)
        )
        .is_empty()
    );
    assert_eq!(
        with(|r| r.actions[0] = action(r#"{"type": "changeBid", "by": "PERCENT", "value": "0"}"#)),
        ["actions.0.value"]
    );
    assert_eq!(
        with(
            |r| r.actions[0] = action(r#"{"type": "changeBid", "by": "PERCENT", "value": "-100"}"#)
        ),
        ["actions.0.value"]
    );
    assert_eq!(
        with(|r| r.actions[0] =
            action(r#"{"type": "bidToTarget", "target": "CPA", "maxStepPercent": "101"}"#)),
        ["actions.0.maxStepPercent"]
    );
    assert!(
        with(|r| r.actions[0] =
            action(r#"{"type": "bidToTarget", "target": "CPT", "amount": null}"#))
        .is_empty()
    );
}

#[test]
fn conversion_targets_need_an_amount_and_a_mature_window() {
    let to = |json: &str, window: Window| {
        with(|r| {
            r.actions[0] = action(json);
            r.window = window;
        })
    };
    let last7 = || Window::Last {
        days: 7,
        exclude_today: true,
    };
    let mature = || Window::Between {
        from_days_ago: 21,
        to_days_ago: 8,
    };
    assert_eq!(
        to(
            r#"{"type": "bidToTarget", "target": "COST_PER_TRIAL"}"#,
            last7()
        ),
        ["actions.0.amount"],
        "no goal to fall back on"
    );
    assert!(
        to(
            r#"{"type": "bidToTarget", "target": "COST_PER_TRIAL", "amount": "4.50"}"#,
            last7()
        )
        .is_empty()
    );
    assert_eq!(
        to(
            r#"{"type": "bidToTarget", "target": "COST_PER_PURCHASE", "amount": "-1"}"#,
            last7()
        ),
        ["actions.0.amount"]
    );
    assert_eq!(
        to(
            r#"{"type": "bidToTarget", "target": "ROAS_D7", "amount": "1.2"}"#,
            last7()
        ),
        ["actions.0.target"],
        "ROAS D7 over installs younger than 7 days"
    );
    assert!(
        to(
            r#"{"type": "bidToTarget", "target": "ROAS_D7", "amount": "1.2"}"#,
            mature()
        )
        .is_empty()
    );
    for bad in ["0", "1001", "1.23456", "120%"] {
        assert_eq!(
            to(
                &format!(r#"{{"type": "bidToTarget", "target": "ROAS_D7", "amount": "{bad}"}}"#),
                mature()
            ),
            ["actions.0.amount"],
            "{bad}"
        );
    }
    let mut r = example();
    r.actions[0] = action(r#"{"type": "bidToTarget", "target": "ROAS_D7", "amount": "1.2"}"#);
    r.window = last7();
    let errors = validate(&r, "USD").unwrap_err();
    assert_eq!(
        errors[0].message,
        "ROAS D7 is judged on installs at least 7 days old: choose a window that starts 8 or more days ago"
    );
}

#[test]
fn every_conversion_target_reads_a_known_column() {
    for t in crate::rules::Target::ALL {
        if let Some(m) = t.conversion_metric() {
            assert!(crate::report::filter::conversion_column(m).is_some(), "{m}");
            assert_eq!(
                t.is_return(),
                crate::attribution::conversions::COHORT_ROAS.contains(&m),
                "{m}"
            );
        }
    }
    assert_eq!(
        with(|r| r.actions[1] = action(r#"{"type": "alert", "channels": []}"#)),
        ["actions.1.channels"]
    );
    assert_eq!(
        with(|r| r.actions[1] = action(
            r#"{"type": "alert", "channels": ["EMAIL"], "emails": ["ok@example.com", "nope"]}"#
        )),
        ["actions.1.emails.1"]
    );
    let mut r = example();
    r.level = RuleLevel::Searchterms;
    r.guardrails = Guardrails::default();
    r.conditions.groups.truncate(1);
    r.actions = vec![
        action(
            r#"{"type": "addKeyword", "campaignId": "1870001", "adGroupId": "2870001", "bid": "1.00"}"#,
        ),
        action(r#"{"type": "addNegative", "where": "AD_GROUP", "matchType": "BROAD"}"#),
    ];
    assert_eq!(validate(&r, "USD"), Ok(()));
    r.actions[0] = action(
        r#"{"type": "addKeyword", "campaignId": "999", "adGroupId": "x", "matchType": "PHRASE"}"#,
    );
    assert_eq!(
        fields(&r),
        [
            "actions.0.campaignId",
            "actions.0.adGroupId",
            "actions.0.matchType"
        ]
    );
    r.actions = vec![action(r#"{"type": "pause"}"#)];
    assert_eq!(
        fields(&r),
        ["actions.0.type"],
        "a search term has no status"
    );
}

#[test]
fn guardrails_are_money_and_ranges() {
    assert_eq!(
        with(|r| {
            r.guardrails.min_bid = Some("5.00".into());
            r.guardrails.max_bid = Some("1.00".into());
        }),
        ["guardrails.maxBid"]
    );
    assert_eq!(
        with(|r| r.guardrails.max_bid = Some("-1".into())),
        ["guardrails.maxBid"]
    );
    assert_eq!(
        with(|r| r.guardrails.min_budget = Some("1.001".into())),
        ["guardrails.minBudget"]
    );
    assert_eq!(
        with(|r| r.guardrails.max_change_percent = Some("0".into())),
        ["guardrails.maxChangePercent"]
    );
    assert_eq!(
        with(|r| r.guardrails.max_change_percent = Some("1001".into())),
        ["guardrails.maxChangePercent"]
    );
    assert_eq!(
        with(|r| r.guardrails.max_entities = Some(0)),
        ["guardrails.maxEntities"]
    );
    assert_eq!(
        with(|r| r.guardrails.max_entities = Some(10_001)),
        ["guardrails.maxEntities"]
    );
    assert_eq!(
        with(|r| r.guardrails.max_change_share = Some(0)),
        ["guardrails.maxChangeShare"]
    );
    assert_eq!(
        with(|r| r.guardrails.max_change_share = Some(101)),
        ["guardrails.maxChangeShare"]
    );
    assert_eq!(
        with(|r| r.guardrails.min_data[0].metric = "avgCPA".into()),
        ["guardrails.minData.0.metric"],
        "counters only"
    );
    assert_eq!(
        with(|r| r.guardrails.min_data[0].value = "x".into()),
        ["guardrails.minData.0.value"]
    );
}

#[test]
fn every_problem_is_answered_at_once() {
    let errors = with(|r| {
        r.name = String::new();
        r.window = Window::Last {
            days: 0,
            exclude_today: true,
        };
        r.guardrails.max_entities = Some(0);
    });
    assert_eq!(errors, ["name", "window.days", "guardrails.maxEntities"]);
}
