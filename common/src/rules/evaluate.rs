//! Whether an entity matches a rule (`docs/api/rules.md` "conditions", guardrail
//! `minData`), on the rows the report engine reads for rules ([`EntityRow`]: counters over
//! the window and the entity's attributes). Pure, so unit tests pin every case on fixed
//! data.
//!
//! - Metrics are the report engine's ([`Metric::value`]: derived from the summed counters,
//!   money floored to the currency, ratios as fractions), plus `popularity`, plus the
//!   Conversions and Cohort columns of the attributed conversions (null when no provider
//!   delivered any for the entity's campaign in the window: unknown, never zero revenue;
//!   a cohort ROAS over only the window's installs old enough for it).
//! - A ratio without denominator is `null`, and a condition on `null` is false whatever its
//!   operator; so is a `compare` whose other side is missing (no CPA goal).
//! - `minData` is an extra AND: every listed counter must reach its value.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde_json::Value;

use super::{Comparison, Condition, Conditions, Guardrails, Logic, Rule, RuleLevel, TextMatch};
use crate::{
    money::currency::MoneyRule,
    report::{EntityRow, Metric},
};

/// The campaign's goal-optimisation targets (`targetCpa` / `targetCpt` in comparisons).
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Targets {
    pub cpa: Option<Decimal>,
    pub cpt: Option<Decimal>,
}

/// What evaluation needs beside the row: the currency's rounding and the goal targets.
#[derive(Debug, Clone, Copy)]
pub struct Scope {
    pub level: RuleLevel,
    pub money: MoneyRule,
    pub targets: Targets,
}

fn micros(m: Option<i64>) -> Option<Decimal> {
    m.map(|m| Decimal::new(m, 6))
}

/// The value of metric `name` for `row` (None: unknown name, or a ratio without
/// denominator, or no popularity).
pub fn metric(name: &str, row: &EntityRow, money: &MoneyRule) -> Option<Decimal> {
    if name == "popularity" {
        return row.popularity.map(Decimal::from);
    }
    if let Some(column) = crate::report::filter::conversion_column(name) {
        return row
            .conversions
            .as_ref()?
            .value(&row.counters, money, column);
    }
    Metric::parse(name)?.value(&row.counters, money)
}

/// The other side of a `compare`: a metric or an entity amount.
pub fn other(name: &str, row: &EntityRow, scope: &Scope) -> Option<Decimal> {
    match name {
        "bid" => micros(row.bid_micros),
        "defaultBid" => micros(row.default_bid_micros),
        "cpaGoal" => micros(row.cpa_goal_micros),
        "dailyBudget" => micros(row.daily_budget_micros),
        "targetCpa" => scope.targets.cpa,
        "targetCpt" => scope.targets.cpt,
        _ => metric(name, row, &scope.money),
    }
}

fn compare(left: Decimal, op: Comparison, right: Decimal) -> bool {
    match op {
        Comparison::GreaterThan => left > right,
        Comparison::GreaterThanOrEqual => left >= right,
        Comparison::LessThan => left < right,
        Comparison::LessThanOrEqual => left <= right,
        Comparison::Equals => left == right,
        Comparison::NotEquals => left != right,
    }
}

fn any_of(values: &[String], v: Option<&str>) -> bool {
    v.is_some_and(|v| values.iter().any(|x| x.trim().eq_ignore_ascii_case(v)))
}

/// Whether `row` meets one condition.
pub fn condition(c: &Condition, row: &EntityRow, scope: &Scope) -> bool {
    match c {
        Condition::Metric {
            metric: m,
            operator,
            value,
        } => match (metric(m, row, &scope.money), super::decimal(value)) {
            (Some(l), Some(r)) => compare(l, *operator, r),
            _ => false,
        },
        Condition::Compare {
            metric: m,
            operator,
            other: o,
            coefficient,
        } => match (
            metric(m, row, &scope.money),
            other(o, row, scope),
            super::decimal(coefficient),
        ) {
            (Some(l), Some(r), Some(k)) => compare(l, *operator, k * r),
            _ => false,
        },
        Condition::Status { values } => {
            // Keywords say ACTIVE where campaigns and ad groups say ENABLED (and a synced
            // keyword may say either): one status for a keyword.
            let keyword = |s: &str| {
                if scope.level == RuleLevel::Keywords && s.eq_ignore_ascii_case("ENABLED") {
                    "ACTIVE".to_string()
                } else {
                    s.trim().to_ascii_uppercase()
                }
            };
            row.status
                .as_deref()
                .is_some_and(|s| values.iter().any(|v| keyword(v) == keyword(s)))
        }
        Condition::Name { operator, value } => {
            let name = row.name.to_lowercase();
            let value = value.trim().to_lowercase();
            match operator {
                TextMatch::Contains => name.contains(&value),
                TextMatch::DoesNotContain => !name.contains(&value),
                TextMatch::Equals => name.trim() == value,
            }
        }
        Condition::Tag { values } => row.tags.iter().any(|t| any_of(values, Some(t))),
        Condition::MatchType { values } => any_of(values, row.match_type.as_deref()),
    }
}

fn combine(op: Logic, mut each: impl Iterator<Item = bool>) -> bool {
    match op {
        Logic::And => each.all(|b| b),
        Logic::Or => each.any(|b| b),
    }
}

/// Whether `row` meets the rule's conditions (groups combined by the outer operator).
pub fn conditions(c: &Conditions, row: &EntityRow, scope: &Scope) -> bool {
    combine(
        c.operator,
        c.groups.iter().map(|g| {
            combine(
                g.operator,
                g.conditions.iter().map(|c| condition(c, row, scope)),
            )
        }),
    )
}

/// Whether `row` has the data the guardrail `minData` asks for.
pub fn min_data(g: &Guardrails, row: &EntityRow, money: &MoneyRule) -> bool {
    g.min_data.iter().all(
        |m| match (metric(&m.metric, row, money), super::decimal(&m.value)) {
            (Some(v), Some(min)) => v >= min,
            _ => false,
        },
    )
}

/// Whether the rule acts on `row`: its conditions and its minimum data.
pub fn matches(rule: &Rule, row: &EntityRow, scope: &Scope) -> bool {
    conditions(&rule.conditions, row, scope) && min_data(&rule.guardrails, row, &scope.money)
}

/// The metrics a run shows per entity (why it matched): those the conditions and `minData`
/// name, with `localSpend` (the order of `maxEntities`), as decimal strings or `null`.
pub fn values(rule: &Rule, row: &EntityRow, scope: &Scope) -> BTreeMap<String, Value> {
    let mut names: Vec<&str> = vec!["localSpend"];
    names.extend(super::named::named(rule).into_iter().map(|(_, m)| m));
    names
        .into_iter()
        .map(|n| {
            let v = other(n, row, scope)
                .map_or(Value::Null, |d| Value::String(d.normalize().to_string()));
            (n.to_string(), v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::MinData;
    use crate::store::report_facts::Counters;

    fn d(s: &str) -> Decimal {
        s.parse().unwrap()
    }

    /// A keyword with `taps`, `installs` (tap installs), `spend` (micros) and a bid.
    fn kw(taps: i64, installs: i64, spend: i64) -> EntityRow {
        let mut c = [0i64; 11];
        c[0] = taps * 10;
        c[1] = taps;
        c[2] = installs;
        c[10] = spend;
        EntityRow {
            id: 1,
            campaign_id: 10,
            ad_group_id: 100,
            name: "Photo Editor Pro".into(),
            status: Some("ACTIVE".into()),
            match_type: Some("EXACT".into()),
            tags: vec!["Brand".into()],
            bid_micros: Some(1_000_000),
            default_bid_micros: Some(800_000),
            cpa_goal_micros: Some(2_000_000),
            daily_budget_micros: Some(50_000_000),
            popularity: Some(40),
            counters: Counters(c),
            conversions: None,
        }
    }

    fn scope() -> Scope {
        Scope {
            level: RuleLevel::Keywords,
            money: MoneyRule::of(Some("USD")),
            targets: Targets {
                cpa: Some(d("3")),
                cpt: None,
            },
        }
    }

    fn metric_c(m: &str, op: Comparison, v: &str) -> Condition {
        Condition::Metric {
            metric: m.into(),
            operator: op,
            value: v.into(),
        }
    }

    fn cmp(m: &str, op: Comparison, other: &str, k: &str) -> Condition {
        Condition::Compare {
            metric: m.into(),
            operator: op,
            other: other.into(),
            coefficient: k.into(),
        }
    }

    fn one(c: Condition, row: &EntityRow) -> bool {
        condition(&c, row, &scope())
    }

    #[test]
    fn metrics_against_values_with_every_operator() {
        use Comparison::*;
        let row = kw(31, 0, 23_100_000);
        assert!(one(metric_c("localSpend", GreaterThan, "20"), &row));
        assert!(!one(metric_c("localSpend", GreaterThan, "23.10"), &row));
        assert!(one(
            metric_c("localSpend", GreaterThanOrEqual, "23.1"),
            &row
        ));
        assert!(one(metric_c("installs", Equals, "0"), &row));
        assert!(!one(metric_c("installs", NotEquals, "0"), &row));
        assert!(one(metric_c("taps", LessThan, "32"), &row));
        assert!(one(metric_c("taps", LessThanOrEqual, "31"), &row));
        // Ratios are fractions: ttr = 31 / 310 = 0.1.
        assert!(one(metric_c("ttr", Equals, "0.1"), &row));
        assert!(
            one(metric_c("avgCPT", Equals, "0.74"), &row),
            "23.10 / 31 floored"
        );
        assert!(one(metric_c("popularity", GreaterThan, "39"), &row));
        assert!(!one(metric_c("nonsense", GreaterThan, "0"), &row));
    }

    #[test]
    fn a_ratio_without_denominator_is_false_whatever_the_operator() {
        use Comparison::*;
        let row = kw(31, 0, 23_100_000);
        for op in [
            GreaterThan,
            GreaterThanOrEqual,
            LessThan,
            LessThanOrEqual,
            Equals,
            NotEquals,
        ] {
            assert!(!one(metric_c("avgCPA", op, "1"), &row), "{op:?}");
            assert!(!one(cmp("avgCPA", op, "cpaGoal", "1"), &row), "{op:?}");
        }
        let mut no_goal = kw(31, 5, 23_100_000);
        no_goal.cpa_goal_micros = None;
        assert!(!one(cmp("avgCPA", GreaterThan, "cpaGoal", "0"), &no_goal));
        assert!(!one(cmp("avgCPA", LessThan, "targetCpt", "100"), &no_goal));
    }

    #[test]
    fn comparisons_with_a_coefficient_times_another_metric_or_amount() {
        use Comparison::*;
        // 5 installs, 23.10 spent: avgCPA 4.62; CPA goal 2.00, × 1.5 = 3.00.
        let row = kw(31, 5, 23_100_000);
        assert!(one(cmp("avgCPA", GreaterThan, "cpaGoal", "1.5"), &row));
        assert!(!one(cmp("avgCPA", GreaterThan, "cpaGoal", "2.5"), &row));
        // avgCPT 0.74 < bid 1.00 × 0.8.
        assert!(one(cmp("avgCPT", LessThan, "bid", "0.8"), &row));
        assert!(
            !one(cmp("avgCPT", LessThan, "defaultBid", "0.9"), &row),
            "0.74 vs 0.72"
        );
        assert!(one(cmp("localSpend", LessThan, "dailyBudget", "0.5"), &row));
        assert!(
            one(cmp("avgCPA", GreaterThan, "targetCpa", "1.5"), &row),
            "4.62 > 4.5"
        );
        // Metric against metric: installs × 6 ≤ taps.
        assert!(one(cmp("taps", GreaterThanOrEqual, "installs", "6"), &row));
    }

    #[test]
    fn entity_conditions() {
        let row = kw(31, 5, 23_100_000);
        let s = |values: &[&str]| Condition::Status {
            values: values.iter().map(|v| v.to_string()).collect(),
        };
        assert!(one(s(&["ACTIVE"]), &row));
        assert!(
            one(s(&["ENABLED"]), &row),
            "ENABLED reads as a keyword's ACTIVE"
        );
        assert!(!one(s(&["PAUSED"]), &row));
        let mut synced_enabled = row.clone();
        synced_enabled.status = Some("ENABLED".into());
        assert!(
            one(s(&["ACTIVE"]), &synced_enabled),
            "a keyword synced as ENABLED is ACTIVE"
        );
        let name = |op, v: &str| Condition::Name {
            operator: op,
            value: v.into(),
        };
        assert!(one(name(TextMatch::Contains, "EDITOR"), &row));
        assert!(!one(name(TextMatch::DoesNotContain, "editor"), &row));
        assert!(one(name(TextMatch::Equals, "photo editor pro"), &row));
        assert!(!one(name(TextMatch::Equals, "photo editor"), &row));
        assert!(one(
            Condition::Tag {
                values: vec!["brand".into(), "x".into()]
            },
            &row
        ));
        assert!(!one(
            Condition::Tag {
                values: vec!["generic".into()]
            },
            &row
        ));
        assert!(one(
            Condition::MatchType {
                values: vec!["EXACT".into()]
            },
            &row
        ));
        let mut term = row.clone();
        term.match_type = None;
        term.status = None;
        assert!(!one(
            Condition::MatchType {
                values: vec!["EXACT".into(), "BROAD".into()]
            },
            &term
        ));
        assert!(!one(s(&["ACTIVE", "PAUSED"]), &term));
    }

    #[test]
    fn and_or_groups() {
        use Comparison::*;
        let row = kw(31, 0, 23_100_000);
        let yes = metric_c("taps", GreaterThan, "1");
        let no = metric_c("taps", LessThan, "1");
        let group = |op, cs: Vec<Condition>| crate::rules::ConditionGroup {
            operator: op,
            conditions: cs,
        };
        let all = |outer, groups| Conditions {
            operator: outer,
            groups,
        };
        let s = scope();
        assert!(conditions(
            &all(
                Logic::And,
                vec![group(Logic::And, vec![yes.clone(), yes.clone()])]
            ),
            &row,
            &s
        ));
        assert!(!conditions(
            &all(
                Logic::And,
                vec![group(Logic::And, vec![yes.clone(), no.clone()])]
            ),
            &row,
            &s
        ));
        assert!(conditions(
            &all(
                Logic::And,
                vec![group(Logic::Or, vec![yes.clone(), no.clone()])]
            ),
            &row,
            &s
        ));
        assert!(!conditions(
            &all(
                Logic::And,
                vec![
                    group(Logic::Or, vec![yes.clone()]),
                    group(Logic::Or, vec![no.clone()])
                ]
            ),
            &row,
            &s
        ));
        assert!(conditions(
            &all(
                Logic::Or,
                vec![
                    group(Logic::And, vec![no.clone()]),
                    group(Logic::And, vec![yes.clone()])
                ]
            ),
            &row,
            &s
        ));
        assert!(!conditions(
            &all(
                Logic::Or,
                vec![
                    group(Logic::And, vec![no.clone()]),
                    group(Logic::Or, vec![no])
                ]
            ),
            &row,
            &s
        ));
    }

    #[test]
    fn min_data_is_an_extra_and() {
        let g = |taps: &str| Guardrails {
            min_data: vec![MinData {
                metric: "taps".into(),
                value: taps.into(),
            }],
            ..Default::default()
        };
        let row = kw(10, 0, 5_000_000);
        let money = MoneyRule::of(Some("USD"));
        assert!(min_data(&g("10"), &row, &money));
        assert!(!min_data(&g("11"), &row, &money));
        assert!(min_data(&Guardrails::default(), &row, &money));
    }
}
