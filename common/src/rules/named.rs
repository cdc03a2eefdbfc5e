//! The metrics a rule names, each with the field it is named at
//! (`conditions.groups.0.conditions.1.metric`, `guardrails.minData.0.metric`): what
//! validation checks, what a run reads (popularity, conversions), what its items show and
//! which cohorts its run record lists.

use time::{Date, Duration};

use super::{Action, Condition, Rule, window};
use crate::attribution::conversions::{COHORT_DAYS, cohort_index};
use crate::report::filter::conversion_column;

/// Every metric `rule` names (conditions' metrics and their `compare` sides, `minData`, the
/// Conversions or Cohort column a `bidToTarget` aims at), with its field, in the rule's
/// order; entity amounts (`bid`, `targetCpa`) included as named.
pub fn named(rule: &Rule) -> Vec<(String, &str)> {
    let mut out = Vec::new();
    for (g, group) in rule.conditions.groups.iter().enumerate() {
        for (i, c) in group.conditions.iter().enumerate() {
            let at = format!("conditions.groups.{g}.conditions.{i}");
            match c {
                Condition::Metric { metric, .. } => out.push((format!("{at}.metric"), &**metric)),
                Condition::Compare { metric, other, .. } => {
                    out.push((format!("{at}.metric"), &**metric));
                    out.push((format!("{at}.other"), &**other));
                }
                _ => {}
            }
        }
    }
    for (i, m) in rule.guardrails.min_data.iter().enumerate() {
        out.push((format!("guardrails.minData.{i}.metric"), &*m.metric));
    }
    for (i, a) in rule.actions.iter().enumerate() {
        if let Action::BidToTarget { target, .. } = a
            && let Some(metric) = target.conversion_metric()
        {
            out.push((format!("actions.{i}.target"), metric));
        }
    }
    out
}

/// Whether `rule` names `metric` anywhere.
pub fn names(rule: &Rule, metric: &str) -> bool {
    named(rule).iter().any(|(_, m)| *m == metric)
}

/// Whether `rule` names a Conversions or Cohort metric (its run then reads the attributed
/// conversions).
pub fn reads_conversions(rule: &Rule) -> bool {
    named(rule)
        .iter()
        .any(|(_, m)| conversion_column(m).is_some())
}

/// How many days ago the first day of `rule`'s window is (`last 7 days`: 7; `last 7 days`
/// with today: 6).
pub fn oldest_day_ago(rule: &Rule) -> i64 {
    let today = Date::MIN + Duration::days(1_000);
    (today - window::days(&rule.window, today).0).whole_days()
}

/// A Cohort metric the rule names and the installs it is judged on in a window
/// (`from..=through`; `through` before `from` when no day of the window is old enough).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CohortUse {
    pub metric: String,
    pub age_days: i64,
    pub from: Date,
    pub through: Date,
}

/// The Cohort metrics `rule` names (once each, in the rule's order), judged on the window
/// `(from, to)` as of `today`: installs of the window's days through `today − N − 1`, the
/// newest days old enough for `DN`. The run record lists them.
pub fn cohorts(rule: &Rule, (from, to): (Date, Date), today: Date) -> Vec<CohortUse> {
    let mut out: Vec<CohortUse> = Vec::new();
    for (_, m) in named(rule) {
        let Some(i) = cohort_index(m) else { continue };
        if out.iter().any(|c| c.metric == m) {
            continue;
        }
        let age_days = COHORT_DAYS[i];
        out.push(CohortUse {
            metric: m.to_string(),
            age_days,
            from,
            through: to.min(today - Duration::days(age_days + 1)),
        });
    }
    out
}

/// The run record's `cohorts` ([`cohorts`] as JSON `[{metric, ageDays, from, through}]`);
/// None when the rule names no Cohort metric.
pub fn cohorts_record(rule: &Rule, window: (Date, Date), today: Date) -> Option<String> {
    let used = cohorts(rule, window, today);
    (!used.is_empty()).then(|| {
        serde_json::Value::Array(
            used.iter()
                .map(|c| {
                    serde_json::json!({
                        "metric": c.metric,
                        "ageDays": c.age_days,
                        "from": c.from.to_string(),
                        "through": c.through.to_string(),
                    })
                })
                .collect(),
        )
        .to_string()
    })
}
