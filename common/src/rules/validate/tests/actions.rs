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
