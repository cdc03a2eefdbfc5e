//! What an action does to one matched entity (`docs/api/rules.md` "actions", "guardrails"):
//! the absolute new value from the entity's current one, so that a run stores "1.00 → 1.10"
//! rather than "+10 %" and a retried run can never apply a relative change twice. Pure.
//!
//! A computed bid or budget is, in order: moved at most `maxChangePercent` (and
//! `bidToTarget` at most its `maxStepPercent`) from the current value; clamped into the
//! guardrails' `min…`/`max…` (an entity already outside is not moved further out, nor pulled
//! across); kept at or above Apple's minimum for the currency; floored to the currency's
//! digits. A result equal to the current value is no change ("Already at the target").
//! [`limit`] keeps the `maxEntities` largest spenders.

use std::collections::HashSet;

use rust_decimal::Decimal;

use super::{Action, ChangeBy, Guardrails, RuleLevel, Target, decimal};
use crate::{
    money::currency::{Minimum, MoneyRule, minimum},
    report::EntityRow,
};

/// What a run does to one entity for one action.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Planned {
    /// The action's `type`.
    pub action: &'static str,
    /// The field changed, as bulk edits and change records name it: `status`, `cptBid`
    /// (keyword bid), `defaultBidAmount` (ad group), `dailyBudget` (campaign), `keyword`
    /// (an added keyword), `negative` (an added negative keyword).
    pub field: &'static str,
    /// Current and new value (money as exact decimals, `"1.1"`; statuses as the level
    /// says them; an added keyword or negative: its match type as new value).
    pub old: Option<String>,
    pub new: Option<String>,
    /// Why nothing is done (the item is stored `SKIPPED` with it).
    pub skipped: Option<&'static str>,
}

/// Money limits of a rule in its currency.
#[derive(Debug, Clone, PartialEq)]
pub struct Limits {
    pub money: MoneyRule,
    pub min_bid: Option<Decimal>,
    pub max_bid: Option<Decimal>,
    pub min_budget: Option<Decimal>,
    pub max_budget: Option<Decimal>,
    pub max_change_percent: Option<Decimal>,
    /// Apple's minimum bid and daily budget in the currency.
    pub apple_bid: Decimal,
    pub apple_budget: Decimal,
}

impl Limits {
    /// The limits of `guardrails` in `currency` (validated: amounts parse).
    pub fn of(guardrails: &Guardrails, currency: &str) -> Limits {
        let amount = |v: &Option<String>| v.as_deref().and_then(decimal);
        Limits {
            money: MoneyRule::of(Some(currency)),
            min_bid: amount(&guardrails.min_bid),
            max_bid: amount(&guardrails.max_bid),
            min_budget: amount(&guardrails.min_budget),
            max_budget: amount(&guardrails.max_budget),
            max_change_percent: amount(&guardrails.max_change_percent),
            apple_bid: Decimal::new(minimum(Minimum::Bid, currency), 6),
            apple_budget: Decimal::new(minimum(Minimum::DailyBudget, currency), 6),
        }
    }
}

/// What planning needs beside the action and the row.
#[derive(Debug, Clone)]
pub struct PlanScope<'a> {
    pub level: RuleLevel,
    pub limits: &'a Limits,
    /// The campaign's goal targets (bidToTarget without an amount, at campaign level).
    pub targets: super::evaluate::Targets,
    /// Keywords already in an ad group: (ad group id, lower-case text, match type).
    pub keywords: &'a HashSet<(i64, String, String)>,
    /// Negative keywords already there: (campaign id, ad group id or None, lower-case
    /// text, match type).
    pub negatives: &'a HashSet<(i64, Option<i64>, String, String)>,
}

/// Exact decimal text of money, as change records write it (`"1.1"`).
pub fn money_text(d: Decimal) -> String {
    d.normalize().to_string()
}

fn micros(m: Option<i64>) -> Option<Decimal> {
    m.map(|m| Decimal::new(m, 6))
}

/// `value` moved at most `percent` % from `current`, either way.
fn step(current: Decimal, value: Decimal, percent: Option<Decimal>) -> Decimal {
    match percent {
        Some(p) if p > Decimal::ZERO => {
            let span = current * p / Decimal::from(100);
            value.clamp(current - span, current + span)
        }
        _ => value,
    }
}

/// The absolute amount an action aims `current` at, within the limits (see the module).
pub fn bounded(
    current: Decimal,
    desired: Decimal,
    limits: &Limits,
    min: Option<Decimal>,
    max: Option<Decimal>,
    apple: Decimal,
) -> Decimal {
    let mut v = step(current, desired, limits.max_change_percent);
    // Not further out than the entity already is, nor pulled across its current value.
    let lo = min.map(|m| m.min(current));
    let hi = max.map(|m| m.max(current));
    if let Some(lo) = lo {
        v = v.max(lo);
    }
    if let Some(hi) = hi {
        v = v.min(hi);
    }
    v = v.max(apple);
    limits.money.floor(v)
}

fn change(current: Decimal, by: ChangeBy, value: Decimal) -> Decimal {
    match by {
        ChangeBy::Percent => current * (Decimal::ONE + value / Decimal::from(100)),
        ChangeBy::Amount => current + value,
    }
}

/// The keyword's or ad group's bid (KEYWORDS: its own bid; ADGROUPS: the default bid).
fn bid_of(level: RuleLevel, row: &EntityRow) -> Option<Decimal> {
    match level {
        RuleLevel::Keywords => micros(row.bid_micros),
        _ => micros(row.default_bid_micros),
    }
}

fn bid_field(level: RuleLevel) -> &'static str {
    match level {
        RuleLevel::Keywords => "cptBid",
        _ => "defaultBidAmount",
    }
}

fn skip(
    action: &'static str,
    field: &'static str,
    old: Option<String>,
    why: &'static str,
) -> Planned {
    Planned {
        action,
        field,
        new: old.clone(),
        old,
        skipped: Some(why),
    }
}

fn money_change(
    action: &'static str,
    field: &'static str,
    current: Decimal,
    new: Decimal,
) -> Planned {
    let old = Some(money_text(current));
    if new == current {
        return skip(action, field, old, "Already at the target");
    }
    Planned {
        action,
        field,
        old,
        new: Some(money_text(new)),
        skipped: None,
    }
}

/// What `target` is over the window: Apple's CPA or CPT exact (spend over installs or
/// taps), or the Conversions or Cohort column of the attributed conversions (a cohort ROAS
/// over the installs old enough). `Err` says why there is none.
fn actual(target: Target, row: &EntityRow, money: &MoneyRule) -> Result<Decimal, &'static str> {
    if let Some(metric) = target.conversion_metric() {
        let Some(conversions) = &row.conversions else {
            return Err("No attributed conversions for this campaign in the window");
        };
        return conversions
            .value(&row.counters, money, metric)
            .ok_or(match target {
                Target::CostPerTrial => "No trials in the window",
                Target::CostPerPurchase => "No purchases in the window",
                _ => "No spend on installs old enough for the cohort",
            });
    }
    let c = &row.counters;
    let den = match target {
        Target::Cpt => c.taps(),
        _ => c.tap_installs() + c.view_installs(),
    };
    if den > 0 {
        Ok(Decimal::new(c.spend_micros(), 6) / Decimal::from(den))
    } else if target == Target::Cpt {
        Err("No taps in the window")
    } else {
        Err("No installs in the window")
    }
}

/// What `action` does to `row`; None for the `alert` action (one alert per run, no item).
pub fn plan(action: &Action, row: &EntityRow, scope: &PlanScope<'_>) -> Option<Planned> {
    let kind = action.kind();
    let level = scope.level;
    let limits = scope.limits;
    let (min_bid, max_bid) = (limits.min_bid, limits.max_bid);
    let bid = |desired: Decimal, current: Decimal| {
        money_change(
            kind,
            bid_field(level),
            current,
            bounded(current, desired, limits, min_bid, max_bid, limits.apple_bid),
        )
    };
    let budget = |desired: Decimal, current: Decimal| {
        money_change(
            kind,
            "dailyBudget",
            current,
            bounded(
                current,
                desired,
                limits,
                limits.min_budget,
                limits.max_budget,
                limits.apple_budget,
            ),
        )
    };
    Some(match action {
        Action::Pause | Action::Enable => {
            let target = match action {
                Action::Pause => "PAUSED",
                _ if level == RuleLevel::Keywords => "ACTIVE",
                _ => "ENABLED",
            };
            let old = row.status.clone();
            let same = old.as_deref() == Some(target)
                || (target == "ACTIVE" && old.as_deref() == Some("ENABLED"));
            if same {
                skip(kind, "status", old, "Already at the target")
            } else {
                Planned {
                    action: kind,
                    field: "status",
                    old,
                    new: Some(target.to_string()),
                    skipped: None,
                }
            }
        }
        Action::SetBid { amount } | Action::ChangeBid { value: amount, .. } => {
            let Some(current) = bid_of(level, row) else {
                return Some(skip(kind, bid_field(level), None, "No current bid"));
            };
            let v = decimal(amount)?;
            let desired = match action {
                Action::ChangeBid { by, .. } => change(current, *by, v),
                _ => v,
            };
            bid(desired, current)
        }
        Action::BidToTarget {
            target,
            amount,
            max_step_percent,
        } => {
            let Some(current) = bid_of(level, row) else {
                return Some(skip(kind, bid_field(level), None, "No current bid"));
            };
            let aim = match (amount.as_deref().and_then(decimal), target) {
                (Some(a), _) => Some(a),
                (None, Target::Cpa) => micros(row.cpa_goal_micros).or(scope.targets.cpa),
                (None, Target::Cpt) => scope.targets.cpt,
                (None, _) => None,
            };
            let Some(aim) = aim.filter(|a| *a > Decimal::ZERO) else {
                return Some(skip(
                    kind,
                    bid_field(level),
                    Some(money_text(current)),
                    "No target to aim at",
                ));
            };
            let actual = match actual(*target, row, &limits.money) {
                Ok(a) => a,
                Err(why) => {
                    return Some(skip(kind, bid_field(level), Some(money_text(current)), why));
                }
            };
            // A cost above its target lowers the bid; a return (ROAS) below its target does.
            // A cost of 0 is no signal to act on; a ROAS of 0 (spend that earned nothing)
            // lowers the bid by the whole step.
            let desired = if target.is_return() {
                current * actual / aim
            } else if actual > Decimal::ZERO {
                current * aim / actual
            } else {
                return Some(skip(
                    kind,
                    bid_field(level),
                    Some(money_text(current)),
                    "No cost in the window",
                ));
            };
            let step_percent = max_step_percent
                .as_deref()
                .and_then(decimal)
                .unwrap_or(Decimal::from(20));
            let desired = step(current, desired, Some(step_percent));
            bid(desired, current)
        }
        Action::SetBudget { amount } | Action::ChangeBudget { value: amount, .. } => {
            let Some(current) = micros(row.daily_budget_micros) else {
                return Some(skip(kind, "dailyBudget", None, "No daily budget"));
            };
            let v = decimal(amount)?;
            let desired = match action {
                Action::ChangeBudget { by, .. } => change(current, *by, v),
                _ => v,
            };
            budget(desired, current)
        }
        Action::AddKeyword {
            ad_group_id,
            match_type,
            ..
        } => {
            let group: i64 = ad_group_id.parse().ok()?;
            let key = (group, row.name.to_lowercase(), match_type.clone());
            if scope.keywords.contains(&key) {
                skip(kind, "keyword", None, "Already a keyword there")
            } else {
                Planned {
                    action: kind,
                    field: "keyword",
                    old: None,
                    new: Some(match_type.clone()),
                    skipped: None,
                }
            }
        }
        Action::AddNegative {
            r#where,
            match_type,
        } => {
            let group = match r#where {
                super::NegativePlace::AdGroup => Some(row.ad_group_id),
                super::NegativePlace::Campaign => None,
            };
            let key = (
                row.campaign_id,
                group,
                row.name.to_lowercase(),
                match_type.clone(),
            );
            if scope.negatives.contains(&key) {
                skip(kind, "negative", None, "Already a negative keyword there")
            } else {
                Planned {
                    action: kind,
                    field: "negative",
                    old: None,
                    new: Some(match_type.clone()),
                    skipped: None,
                }
            }
        }
        Action::Alert { .. } => return None,
    })
}

/// The guardrail `maxEntities` (default 1,000): the indices of `rows` a run acts on, the
/// largest spenders first (ties by id); the rest are over the limit.
pub fn limit(rows: &[&EntityRow], max_entities: Option<u32>) -> HashSet<usize> {
    let max = max_entities.unwrap_or(1000) as usize;
    let mut order: Vec<usize> = (0..rows.len()).collect();
    order.sort_by(|&a, &b| {
        rows[b]
            .counters
            .spend_micros()
            .cmp(&rows[a].counters.spend_micros())
            .then(rows[a].id.cmp(&rows[b].id))
    });
    order.into_iter().take(max).collect()
}

#[cfg(test)]
mod tests;
