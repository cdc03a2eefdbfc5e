//! A transaction of Apple's change history read into the activity log: the field changes,
//! titles and values it becomes, which of them are our own writes, and a rerun that finds
//! what it wrote before.

use super::*;
use serde_json::json;

fn details(v: serde_json::Value) -> ChangeDetails {
    serde_json::from_value(v).unwrap()
}

#[test]
fn amounts_are_written_as_quick_edits_write_them() {
    assert_eq!(amount_text(1_500_000), "1.5");
    assert_eq!(amount_text(2_000_000), "2");
    assert_eq!(amount_text(1), "0.000001");
    assert_eq!(amount_text(-250_000), "-0.25");
}

#[test]
fn apples_fields_become_our_columns() {
    let d = details(json!({
        "entityType": "AdGroup", "entityId": "55", "eventType": "UPDATE",
        "details": [{"changes": [
            {"field": "bidStrategy.bid", "oldValues": ["1.50"], "newValues": ["2"]},
            {"field": "cpaCap.value", "oldValues": [], "newValues": ["3.25"]},
            {"field": "status", "oldValues": ["ENABLED"], "newValues": ["PAUSED"]},
            {"field": "startTime", "oldValues": ["a"], "newValues": ["b"]},
        ]}],
    }));
    let got: Vec<_> = changes_of(&d, "UPDATE")
        .into_iter()
        .map(|c| (c.level, c.field, c.money, c.old_value, c.new_value))
        .collect();
    assert_eq!(
        got,
        vec![
            (
                "AD_GROUP",
                "defaultBidAmount".into(),
                true,
                Some("1.5".into()),
                Some("2".into())
            ),
            (
                "AD_GROUP",
                "cpaGoal".into(),
                true,
                None,
                Some("3.25".into())
            ),
            (
                "AD_GROUP",
                "status".into(),
                false,
                Some("ENABLED".into()),
                Some("PAUSED".into())
            ),
            (
                "AD_GROUP",
                "startTime".into(),
                false,
                Some("a".into()),
                Some("b".into())
            ),
        ]
    );
    let created = details(json!({
        "entityType": "Keyword", "entityId": "9", "eventType": "CREATE",
        "details": [{"changes": [
            {"field": "text", "newValues": ["shoes"]},
            {"field": "matchType", "newValues": ["EXACT"]},
            {"field": "bid", "newValues": ["1"]},
        ]}],
    }));
    let fields: Vec<_> = changes_of(&created, "CREATE")
        .into_iter()
        .map(|c| c.field)
        .collect();
    assert_eq!(fields, ["name", "cptBid"]);
    let deleted = details(
        json!({"entityType": "Ad", "entityId": "3", "eventType": "DELETE",
        "details": [{"changes": [{"field": "deleted", "oldValues": ["false"], "newValues": ["true"]}]}]}),
    );
    assert_eq!(changes_of(&deleted, "DELETE")[0].field, "deleted");
    let creative =
        details(json!({"entityType": "Creative", "entityId": "3", "eventType": "UPDATE"}));
    assert!(changes_of(&creative, "UPDATE").is_empty());
}

#[test]
fn titles_say_what_changed() {
    let c = |level: &'static str, id: i64, field: &str, new: &str| Change {
        level,
        entity_id: id,
        event: "UPDATE",
        field: field.into(),
        money: false,
        old_value: None,
        new_value: Some(new.into()),
        meta: BTreeMap::new(),
    };
    assert_eq!(
        title(&[c("KEYWORD", 1, "cptBid", "2")], "UPDATE", "KEYWORD"),
        "Bid changed in Apple Ads"
    );
    assert_eq!(
        title(
            &[
                c("KEYWORD", 1, "status", "PAUSED"),
                c("KEYWORD", 2, "status", "PAUSED")
            ],
            "UPDATE",
            "KEYWORD"
        ),
        "2 keywords paused in Apple Ads"
    );
    assert_eq!(
        title(&[c("CAMPAIGN", 1, "name", "x")], "CREATE", "CAMPAIGN"),
        "Campaign created in Apple Ads"
    );
    assert_eq!(
        title(
            &[
                c("CAMPAIGN", 1, "dailyBudget", "5"),
                c("AD_GROUP", 2, "status", "PAUSED")
            ],
            "UPDATE",
            "MIXED"
        ),
        "2 items changed in Apple Ads"
    );
}
