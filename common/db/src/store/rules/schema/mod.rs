//! The rule schema, version 1, exactly as `docs/api/rules.md` shows it on the wire (camelCase,
//! `type`-tagged unions). Decimal amounts and values stay decimal strings here so that a bad
//! one is a field error of validation (`conditions.groups.1.conditions.0.value`), not a
//! serde failure; validated rules parse them with [`decimal`]. The browser's zod schema
//! (`frontend/src/features/rules/schema.ts`) mirrors these types.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

mod actions;
pub use actions::*;

/// The schema version this server reads and writes.
pub const VERSION: u32 = 1;

/// A rule as a request sends it and the API answers it. Server-owned fields (`id`,
/// `currency`, `createdBy`, times, `lastRun`) are ignored in requests.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Rule {
    #[serde(default, deserialize_with = "server_field")]
    #[schema(read_only)]
    pub id: String,
    /// Schema version; omitted means 1.
    #[serde(default = "version")]
    pub version: u32,
    /// 1–100 characters.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    #[serde(default = "yes")]
    pub enabled: bool,
    /// The connection the rule acts in.
    pub account_id: String,
    /// The campaign group (org) the rule acts in: its currency and time zone are the rule's.
    #[schema(pattern = "^[0-9]{1,19}$")]
    pub org_id: String,
    /// The org's currency (server).
    #[serde(default, deserialize_with = "server_field")]
    #[schema(read_only)]
    pub currency: Option<String>,
    pub level: RuleLevel,
    /// Attached campaigns (ids as strings of digits). Sent on create/update, it replaces them.
    #[serde(default)]
    #[schema(max_items = 1000)]
    pub campaign_ids: Option<Vec<String>>,
    pub conditions: Conditions,
    pub window: Window,
    pub frequency: Frequency,
    /// 1–5, at most one of each type.
    #[schema(min_items = 1, max_items = 5)]
    pub actions: Vec<Action>,
    #[serde(default)]
    pub guardrails: Guardrails,
    #[serde(default, deserialize_with = "server_field")]
    #[schema(read_only)]
    pub created_by: Option<String>,
    /// Unix seconds (server).
    #[serde(default, deserialize_with = "server_field")]
    #[schema(read_only)]
    pub created_at: i64,
    /// Unix seconds (server).
    #[serde(default, deserialize_with = "server_field")]
    #[schema(read_only)]
    pub updated_at: i64,
    #[serde(default, deserialize_with = "server_field")]
    #[schema(read_only)]
    pub last_run: Option<LastRun>,
}

/// A field the server sets (`id`, `currency`, `createdBy`, `createdAt`, `updatedAt`,
/// `lastRun`): a client may send it back as it read it, and it is ignored. Documented (read
/// only), so a rule read from the API is a body the API takes.
fn server_field<'de, D: serde::Deserializer<'de>, T: Default>(d: D) -> Result<T, D::Error> {
    serde::de::IgnoredAny::deserialize(d)?;
    Ok(T::default())
}

fn version() -> u32 {
    VERSION
}

fn yes() -> bool {
    true
}

/// The entities a rule evaluates and acts on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum RuleLevel {
    Campaigns,
    Adgroups,
    Keywords,
    Searchterms,
}

impl RuleLevel {
    /// The name on the wire.
    pub fn as_str(self) -> &'static str {
        match self {
            RuleLevel::Campaigns => "CAMPAIGNS",
            RuleLevel::Adgroups => "ADGROUPS",
            RuleLevel::Keywords => "KEYWORDS",
            RuleLevel::Searchterms => "SEARCHTERMS",
        }
    }
}

/// `AND` or `OR`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Logic {
    And,
    Or,
}

/// The outer operator over groups of conditions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Conditions {
    pub operator: Logic,
    /// 1–10 groups.
    #[schema(min_items = 1, max_items = 10)]
    pub groups: Vec<ConditionGroup>,
}

/// One group: an operator over 1–20 conditions.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConditionGroup {
    pub operator: Logic,
    /// 1–20 conditions.
    #[schema(min_items = 1, max_items = 20)]
    pub conditions: Vec<Condition>,
}

/// A comparison operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum Comparison {
    GreaterThan,
    GreaterThanOrEqual,
    LessThan,
    LessThanOrEqual,
    Equals,
    NotEquals,
}

/// How a name condition compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
pub enum TextMatch {
    Contains,
    DoesNotContain,
    Equals,
}

/// One condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Condition {
    /// `metric operator value`.
    Metric {
        metric: String,
        operator: Comparison,
        /// Decimal string.
        value: String,
    },
    /// `metric operator coefficient × other` (`other`: a metric, or `bid`, `defaultBid`,
    /// `cpaGoal`, `dailyBudget`, `targetCpa`, `targetCpt`).
    Compare {
        metric: String,
        operator: Comparison,
        other: String,
        /// Decimal string.
        coefficient: String,
    },
    /// The entity's status is one of `values`.
    Status { values: Vec<String> },
    /// The entity's name or text (case-insensitive).
    Name { operator: TextMatch, value: String },
    /// The entity carries any of these report tags.
    Tag { values: Vec<String> },
    /// The keyword's or search term's match type is one of `values`.
    MatchType { values: Vec<String> },
}

/// The days whose metrics a rule sums, in the org's time zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Window {
    /// The last `days` days (1–365), today excluded by default.
    #[serde(rename_all = "camelCase")]
    Last {
        #[schema(minimum = 1, maximum = 365)]
        days: u32,
        #[serde(default = "yes")]
        exclude_today: bool,
    },
    /// From `fromDaysAgo` to `toDaysAgo` days ago (1 ≤ to ≤ from ≤ 365).
    #[serde(rename_all = "camelCase")]
    Between {
        #[schema(minimum = 1, maximum = 365)]
        from_days_ago: u32,
        #[schema(minimum = 1, maximum = 365)]
        to_days_ago: u32,
    },
}

/// When a rule runs, in the org's time zone.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "type", rename_all = "camelCase")]
pub enum Frequency {
    /// On the hour, every hour.
    Hourly,
    /// Every day at `hour` (0–23).
    Daily {
        #[schema(maximum = 23)]
        hour: u32,
    },
    /// Every week on `weekday` at `hour`.
    Weekly {
        weekday: Weekday,
        #[schema(maximum = 23)]
        hour: u32,
    },
}

/// A day of the week.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "UPPERCASE")]
pub enum Weekday {
    Monday,
    Tuesday,
    Wednesday,
    Thursday,
    Friday,
    Saturday,
    Sunday,
}

/// Limits on what a run may do (all optional).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Guardrails {
    #[serde(default)]
    pub min_bid: Option<String>,
    #[serde(default)]
    pub max_bid: Option<String>,
    #[serde(default)]
    pub min_budget: Option<String>,
    #[serde(default)]
    pub max_budget: Option<String>,
    /// 1–1000: a bid or budget moves at most this much per run, either way.
    #[serde(default)]
    pub max_change_percent: Option<String>,
    /// 1–10,000 (default 1,000): entities acted on per run, largest spenders first.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 10000)]
    pub max_entities: Option<u32>,
    /// Counters an entity must reach before the rule acts on it.
    #[serde(default)]
    #[schema(max_items = 50)]
    pub min_data: Vec<MinData>,
    /// 1–100 (default 50): the share of its entities, in percent, a run may change while
    /// the window's impressions or spend fell to less than half of the week before; past it
    /// the run stops and alerts instead of acting (`rules::run::collapse_guard`).
    #[serde(default)]
    #[schema(minimum = 1, maximum = 100)]
    pub max_change_share: Option<u32>,
}

/// `metric ≥ value` required before acting.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MinData {
    pub metric: String,
    pub value: String,
}

/// The latest run of a rule, as its list shows it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LastRun {
    pub id: String,
    /// Unix seconds.
    pub at: i64,
    pub status: String,
    pub matched: u32,
    pub applied: u32,
    pub refused: u32,
    pub skipped: u32,
    /// SCHEDULE, MANUAL or UNDO (an undo is a run of its own: it set back `undoOf`'s
    /// changes).
    #[serde(default)]
    pub trigger: String,
    /// Who started it (a manual run or an undo), else null.
    #[serde(default)]
    pub by: Option<String>,
    /// The run this one undid (trigger UNDO).
    #[serde(default)]
    pub undo_of: Option<String>,
    /// The undo run that set this run's changes back, when one did.
    #[serde(default)]
    pub undone_by: Option<String>,
}

/// A validated decimal string (validation has refused any that does not parse).
pub fn decimal(text: &str) -> Option<Decimal> {
    text.trim().parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_contract_example_reads_and_writes_back() {
        let text = r#"{
          "version": 1, "name": "Pause", "enabled": true, "accountId": "a", "orgId": "4500123",
          "level": "KEYWORDS", "campaignIds": ["1870001"],
          "conditions": {"operator": "AND", "groups": [
            {"operator": "AND", "conditions": [
              {"type": "metric", "metric": "localSpend", "operator": "GREATER_THAN", "value": "20"},
              {"type": "compare", "metric": "avgCPA", "operator": "GREATER_THAN", "other": "cpaGoal", "coefficient": "1.5"},
              {"type": "status", "values": ["ACTIVE"]},
              {"type": "name", "operator": "DOES_NOT_CONTAIN", "value": "brand"},
              {"type": "matchType", "values": ["EXACT"]}
            ]}]},
          "window": {"type": "between", "fromDaysAgo": 14, "toDaysAgo": 3},
          "frequency": {"type": "weekly", "weekday": "MONDAY", "hour": 6},
          "actions": [{"type": "changeBid", "by": "PERCENT", "value": "-10"},
                      {"type": "addNegative", "where": "AD_GROUP"},
                      {"type": "alert", "channels": ["SLACK"]}],
          "guardrails": {"minBid": "0.10", "maxEntities": 500, "minData": [{"metric": "taps", "value": "10"}]}
        }"#;
        let rule: Rule = serde_json::from_str(text).expect("reads");
        assert_eq!(rule.level, RuleLevel::Keywords);
        assert_eq!(
            rule.actions[1],
            Action::AddNegative {
                r#where: NegativePlace::AdGroup,
                match_type: "EXACT".into()
            }
        );
        assert_eq!(
            rule.window,
            Window::Between {
                from_days_ago: 14,
                to_days_ago: 3
            }
        );
        let back = serde_json::to_value(&rule).expect("writes");
        assert_eq!(back["actions"][0]["type"], "changeBid");
        assert_eq!(back["actions"][1]["where"], "AD_GROUP");
        assert_eq!(
            back["conditions"]["groups"][0]["conditions"][4]["type"],
            "matchType"
        );
        assert_eq!(back["window"]["fromDaysAgo"], 14);
        assert_eq!(back["frequency"]["weekday"], "MONDAY");
    }

    #[test]
    fn today_is_excluded_unless_asked() {
        let w: Window = serde_json::from_str(r#"{"type": "last", "days": 7}"#).expect("reads");
        assert_eq!(
            w,
            Window::Last {
                days: 7,
                exclude_today: true
            }
        );
    }
}
