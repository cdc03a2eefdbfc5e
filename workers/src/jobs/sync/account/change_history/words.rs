//! Apple's change details in the activity log's words: its entity types as our levels, its
//! field names as ours (and which are money), the changed values as text, and the
//! transaction's title ("Bid changed on 3 keywords").

use super::*;

/// Our level of Apple's entity type, if we show it.
pub(super) fn level_of(entity_type: &str) -> Option<&'static str> {
    Some(match entity_type {
        "Campaign" => "CAMPAIGN",
        "AdGroup" => "AD_GROUP",
        "Keyword" | "TargetingKeyword" => "KEYWORD",
        "NegativeKeyword" | "CampaignNegativeKeyword" | "AdGroupNegativeKeyword" => {
            "NEGATIVE_KEYWORD"
        }
        "Ad" => "AD",
        _ => return None,
    })
}

/// Our field name for Apple's `field` of an entity at `level`, and whether it is money.
pub(super) fn field_of(level: &str, field: &str) -> (String, bool) {
    let mapped = match (level, field) {
        (
            "CAMPAIGN",
            "dailyBudget" | "dailyBudget.value" | "dailyBudget.value.amount" | "dailyBudgetAmount",
        ) => Some(("dailyBudget", true)),
        (
            "AD_GROUP",
            "bidStrategy.bid" | "bidStrategy.bid.amount" | "defaultBid" | "defaultBidAmount",
        ) => Some(("defaultBidAmount", true)),
        ("AD_GROUP", "cpaCap" | "cpaCap.value" | "cpaCap.value.amount" | "cpaGoal") => {
            Some(("cpaGoal", true))
        }
        ("KEYWORD", "bid" | "bid.amount" | "bidAmount" | "cptBid") => Some(("cptBid", true)),
        (_, "status") => Some(("status", false)),
        (_, "name" | "text") => Some(("name", false)),
        _ => None,
    };
    match mapped {
        Some((f, money)) => (f.to_string(), money),
        None => (field.to_string(), false),
    }
}

/// Fields a creation shows (the rest of a new entity's fields are its settings).
pub(super) const CREATED_FIELDS: &[&str] = &[
    "name",
    "status",
    "dailyBudget",
    "defaultBidAmount",
    "cpaGoal",
    "cptBid",
];

/// An amount as change records write it (`1.5`, `2`): exact, without trailing zeros.
pub fn amount_text(micros: i64) -> String {
    let sign = if micros < 0 { "-" } else { "" };
    let m = micros.unsigned_abs();
    let (whole, frac) = (m / 1_000_000, m % 1_000_000);
    if frac == 0 {
        return format!("{sign}{whole}");
    }
    let frac = format!("{frac:06}");
    format!("{sign}{whole}.{}", frac.trim_end_matches('0'))
}

/// A field's values as one change-record value: money as an exact decimal, others joined.
pub(super) fn value_of(values: &[String], money: bool) -> Option<String> {
    if values.is_empty() {
        return None;
    }
    if money && let Some(m) = values.first().and_then(|v| micros(&serde_json::json!(v))) {
        return Some(amount_text(m));
    }
    Some(values.join(", "))
}

/// One field change of Apple's history, mapped.
#[derive(Debug, Clone, PartialEq)]
pub(super) struct Change {
    pub(super) level: &'static str,
    pub(super) entity_id: i64,
    pub(super) event: &'static str,
    pub(super) field: String,
    pub(super) money: bool,
    pub(super) old_value: Option<String>,
    pub(super) new_value: Option<String>,
    /// Apple's name or text of the entity and its campaign and ad group, when it gives them.
    pub(super) meta: BTreeMap<String, String>,
}

/// The field changes of one entity's `ChangeDetails`, mapped; a creation shows its main
/// fields, a deletion one `deleted` change.
pub(super) fn changes_of(d: &ChangeDetails, row_event: &'static str) -> Vec<Change> {
    let Some(level) = d.entity_type.as_deref().and_then(level_of) else {
        return vec![];
    };
    let Some(entity_id) = d.entity_id.as_deref().and_then(|s| s.parse().ok()) else {
        return vec![];
    };
    let event = d.event_type.map_or(row_event, |e| e.as_str());
    let change = |field: String, money: bool, old: Option<String>, new: Option<String>| Change {
        level,
        entity_id,
        event,
        field,
        money,
        old_value: old,
        new_value: new,
        meta: d.entity_meta_data.clone(),
    };
    if event == "DELETE" {
        return vec![change(
            "deleted".into(),
            false,
            Some("false".into()),
            Some("true".into()),
        )];
    }
    let mut out: Vec<Change> = Vec::new();
    for c in d.changes() {
        let Some(apple) = c.field.as_deref() else {
            continue;
        };
        let (field, money) = field_of(level, apple);
        if field == "deleted" || (event == "CREATE" && !CREATED_FIELDS.contains(&field.as_str())) {
            continue;
        }
        if out.iter().any(|o| o.field == field) {
            continue;
        }
        let old = value_of(&c.old_values, money);
        let new = value_of(&c.new_values, money);
        if old == new {
            continue;
        }
        out.push(change(field, money, old, new));
    }
    out
}

/// "Keyword", "keywords", … for titles.
pub(super) fn noun(level: &str, n: usize) -> String {
    let one = match level {
        "CAMPAIGN" => "campaign",
        "AD_GROUP" => "ad group",
        "KEYWORD" => "keyword",
        "NEGATIVE_KEYWORD" => "negative keyword",
        "AD" => "ad",
        _ => "item",
    };
    if n == 1 {
        let mut c = one.chars();
        c.next()
            .map(|f| f.to_uppercase().collect::<String>() + c.as_str())
            .unwrap_or_default()
    } else {
        format!("{n} {one}s")
    }
}

/// The notification's title: what changed, "in Apple Ads".
pub(super) fn title(changes: &[Change], action: &str, target: &str) -> String {
    let entities = {
        let mut e: Vec<(&str, i64)> = changes.iter().map(|c| (c.level, c.entity_id)).collect();
        e.sort_unstable();
        e.dedup();
        e.len()
    };
    let what = match action {
        "CREATE" => format!("{} created", noun(target, entities)),
        "DELETE" => format!("{} deleted", noun(target, entities)),
        _ => {
            let first = &changes[0].field;
            let same = changes.iter().all(|c| &c.field == first);
            match (same, first.as_str()) {
                (true, "cptBid" | "defaultBidAmount") => "Bid changed".into(),
                (true, "dailyBudget") => "Daily budget changed".into(),
                (true, "cpaGoal") => "CPA goal changed".into(),
                (true, "name") => "Renamed".into(),
                (true, "status") => match changes[0].new_value.as_deref() {
                    Some("PAUSED")
                        if changes.iter().all(|c| c.new_value == changes[0].new_value) =>
                    {
                        format!("{} paused", noun(target, entities))
                    }
                    Some("ENABLED" | "ACTIVE")
                        if changes.iter().all(|c| c.new_value == changes[0].new_value) =>
                    {
                        format!("{} enabled", noun(target, entities))
                    }
                    _ => "Status changed".into(),
                },
                _ => format!("{} changed", noun(target, entities)),
            }
        }
    };
    format!("{what} in Apple Ads")
}

pub(super) fn parse_time(s: Option<&str>) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(s?, &Rfc3339).ok()
}

pub(super) fn unix_ms(t: OffsetDateTime) -> i64 {
    (t.unix_timestamp_nanos() / 1_000_000) as i64
}
