//! The contract's rules of a rule's name, scope, groups and conditions; the fixtures (the
//! contract's example rule and its edits) are here, for the tests of windows, actions and
//! guardrails too ([`actions`]).

mod actions;

use super::*;

/// The contract's example rule (docs/api/rules.md "A rule").
const EXAMPLE: &str = r#"{
  "id": "01J", "version": 1, "name": "Pause keywords that spend without installs",
  "enabled": true, "accountId": "01H", "orgId": "4500123", "currency": "USD",
  "level": "KEYWORDS", "campaignIds": ["1870001", "1870002"],
  "conditions": {"operator": "AND", "groups": [
    {"operator": "AND", "conditions": [
      {"type": "metric", "metric": "localSpend", "operator": "GREATER_THAN", "value": "20"},
      {"type": "metric", "metric": "installs", "operator": "EQUALS", "value": "0"}
    ]},
    {"operator": "OR", "conditions": [
      {"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "cpaGoal", "coefficient": "1.5"},
      {"type": "status", "values": ["ACTIVE"]}
    ]}
  ]},
  "window": {"type": "last", "days": 7, "excludeToday": true},
  "frequency": {"type": "daily", "hour": 6},
  "actions": [{"type": "pause"}, {"type": "alert", "channels": ["EMAIL", "SLACK"], "emails": []}],
  "guardrails": {
    "minBid": "0.10", "maxBid": "5.00", "minBudget": null, "maxBudget": null,
    "maxChangePercent": "50", "maxEntities": 500,
    "minData": [{"metric": "taps", "value": "10"}]
  },
  "createdBy": "ann@example.com", "createdAt": 1764200000, "updatedAt": 1764200000,
  "lastRun": null
}"#;

fn example() -> Rule {
    serde_json::from_str(EXAMPLE).expect("the example reads")
}

/// The fields of the errors of `rule` (in USD).
fn fields(rule: &Rule) -> Vec<String> {
    validate(rule, "USD")
        .err()
        .unwrap_or_default()
        .into_iter()
        .map(|e| e.field)
        .collect()
}

fn with(edit: impl FnOnce(&mut Rule)) -> Vec<String> {
    let mut r = example();
    edit(&mut r);
    fields(&r)
}

fn cond(json: &str) -> Condition {
    serde_json::from_str(json).unwrap()
}

fn action(json: &str) -> Action {
    serde_json::from_str(json).unwrap()
}

#[test]
fn the_contract_example_is_valid() {
    assert_eq!(validate(&example(), "USD"), Ok(()));
}

#[test]
fn version_and_name() {
    assert_eq!(with(|r| r.version = 2), ["version"]);
    let mut r = example();
    r.name = "  ".into();
    assert_eq!(
        validate(&r, "USD").unwrap_err(),
        [FieldError::new("name", NAME_REQUIRED)]
    );
    assert_eq!(with(|r| r.name = "x".repeat(101)), ["name"]);
    assert_eq!(with(|r| r.name = "x".repeat(100)), Vec::<String>::new());
    assert_eq!(with(|r| r.name = "a\u{7}b".into()), ["name"]);
}

#[test]
fn scope_fields() {
    assert_eq!(with(|r| r.org_id = "45x".into()), ["orgId"]);
    assert_eq!(with(|r| r.account_id = String::new()), ["accountId"]);
    assert_eq!(
        with(|r| r.campaign_ids = Some(vec!["1".into(), "1".into(), "x".into()])),
        ["campaignIds.1", "campaignIds.2"]
    );
    assert_eq!(
        with(|r| r.campaign_ids = Some(vec![
            "9223372036854775807".into(),
            "9223372036854775808".into()
        ])),
        ["campaignIds.1"],
        "past 2^63 is no id"
    );
}

#[test]
fn groups_and_conditions_are_bounded() {
    assert_eq!(with(|r| r.conditions.groups.clear()), ["conditions.groups"]);
    assert_eq!(
        with(|r| {
            let g = r.conditions.groups[0].clone();
            r.conditions.groups = vec![g; 11];
        }),
        ["conditions.groups"]
    );
    assert_eq!(
        with(|r| r.conditions.groups[1].conditions.clear()),
        ["conditions.groups.1.conditions"]
    );
    assert_eq!(
        with(|r| {
            let c = r.conditions.groups[0].conditions[0].clone();
            r.conditions.groups[0].conditions = vec![c; 21];
        }),
        ["conditions.groups.0.conditions"]
    );
}

#[test]
fn metric_conditions_read_the_catalog_at_the_level() {
    let set = |c: &str| with(|r| r.conditions.groups[1].conditions[0] = cond(c));
    assert_eq!(
        set(r#"{"type": "metric", "metric": "nope", "operator": "EQUALS", "value": "1"}"#),
        ["conditions.groups.1.conditions.0.metric"]
    );
    assert_eq!(
        set(r#"{"type": "metric", "metric": "taps", "operator": "EQUALS", "value": "abc"}"#),
        ["conditions.groups.1.conditions.0.value"]
    );
    assert_eq!(
        set(r#"{"type": "metric", "metric": "taps", "operator": "EQUALS", "value": "1.5"}"#),
        ["conditions.groups.1.conditions.0.value"],
        "counts are whole"
    );
    assert_eq!(
        set(
            r#"{"type": "metric", "metric": "localSpend", "operator": "EQUALS", "value": "1.555"}"#
        ),
        ["conditions.groups.1.conditions.0.value"],
        "money has the currency's digits"
    );
    assert!(
        set(r#"{"type": "metric", "metric": "ttr", "operator": "LESS_THAN", "value": "0.05"}"#)
            .is_empty()
    );
    assert!(
        set(r#"{"type": "metric", "metric": "popularity", "operator": "LESS_THAN", "value": "5"}"#)
            .is_empty()
    );
    // No popularity at CAMPAIGNS (and the example's KEYWORDS status values are wrong there).
    let mut r = example();
    r.level = RuleLevel::Campaigns;
    r.conditions.groups[1].conditions = vec![cond(
        r#"{"type": "metric", "metric": "popularity", "operator": "LESS_THAN", "value": "5"}"#,
    )];
    r.guardrails = Guardrails::default();
    assert_eq!(fields(&r), ["conditions.groups.1.conditions.0.metric"]);
    // JPY has no decimals.
    let mut r = example();
    r.guardrails = Guardrails::default();
    assert_eq!(validate(&r, "JPY"), Ok(()));
    r.conditions.groups[0].conditions[0] = cond(
        r#"{"type": "metric", "metric": "localSpend", "operator": "GREATER_THAN", "value": "20.5"}"#,
    );
    assert_eq!(
        validate(&r, "JPY").unwrap_err()[0].field,
        "conditions.groups.0.conditions.0.value"
    );
}

#[test]
fn compare_status_name_tag_and_match_type() {
    let set = |c: &str| with(|r| r.conditions.groups[1].conditions[0] = cond(c));
    assert_eq!(
        set(
            r#"{"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "budget", "coefficient": "1"}"#
        ),
        ["conditions.groups.1.conditions.0.other"]
    );
    assert!(
        set(r#"{"type": "compare", "metric": "avgCPT", "operator": "GREATER_THAN", "other": "bid", "coefficient": "1"}"#)
            .is_empty()
    );
    assert!(
        set(r#"{"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "avgCPT", "coefficient": "2"}"#)
            .is_empty(),
        "another metric"
    );
    assert_eq!(
        set(
            r#"{"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "cpaGoal", "coefficient": "0"}"#
        ),
        ["conditions.groups.1.conditions.0.coefficient"]
    );
    assert_eq!(
        set(r#"{"type": "status", "values": ["ENABLED"]}"#),
        ["conditions.groups.1.conditions.0.values.0"],
        "keywords are ACTIVE or PAUSED"
    );
    assert_eq!(
        set(r#"{"type": "status", "values": []}"#),
        ["conditions.groups.1.conditions.0.values"]
    );
    assert_eq!(
        set(r#"{"type": "name", "operator": "CONTAINS", "value": " "}"#),
        ["conditions.groups.1.conditions.0.value"]
    );
    assert_eq!(
        set(r#"{"type": "tag", "values": ["Brand", ""]}"#),
        ["conditions.groups.1.conditions.0.values.1"]
    );
    assert_eq!(
        set(r#"{"type": "matchType", "values": ["PHRASE"]}"#),
        ["conditions.groups.1.conditions.0.values.0"]
    );
    // `bid` is a keyword's; ad groups have `defaultBid`; no match type at ADGROUPS.
    let mut r = example();
    r.level = RuleLevel::Adgroups;
    r.guardrails = Guardrails::default();
    r.conditions.groups[1].conditions = vec![
        cond(
            r#"{"type": "compare", "metric": "avgCPT", "operator": "GREATER_THAN", "other": "bid", "coefficient": "1"}"#,
        ),
        cond(r#"{"type": "matchType", "values": ["EXACT"]}"#),
        cond(r#"{"type": "status", "values": ["ENABLED", "PAUSED"]}"#),
    ];
    assert_eq!(
        fields(&r),
        [
            "conditions.groups.1.conditions.0.other",
            "conditions.groups.1.conditions.1.type"
        ]
    );
    r.level = RuleLevel::Searchterms;
    r.actions = vec![action(r#"{"type": "addNegative", "where": "CAMPAIGN"}"#)];
    r.conditions.groups[1].conditions = vec![cond(r#"{"type": "status", "values": ["ACTIVE"]}"#)];
    assert_eq!(fields(&r), ["conditions.groups.1.conditions.0.type"]);
}
