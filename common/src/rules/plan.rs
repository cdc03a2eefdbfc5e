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

/// The actual CPA or CPT over the window, exact (spend over installs or taps).
fn actual(target: Target, row: &EntityRow) -> Option<Decimal> {
    let c = &row.counters;
    let den = match target {
        Target::Cpa => c.tap_installs() + c.view_installs(),
        Target::Cpt => c.taps(),
    };
    (den > 0).then(|| Decimal::new(c.spend_micros(), 6) / Decimal::from(den))
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
            };
            let Some(aim) = aim.filter(|a| *a > Decimal::ZERO) else {
                return Some(skip(
                    kind,
                    bid_field(level),
                    Some(money_text(current)),
                    "No target to aim at",
                ));
            };
            let Some(actual) = actual(*target, row).filter(|a| *a > Decimal::ZERO) else {
                let why = match target {
                    Target::Cpa => "No installs in the window",
                    Target::Cpt => "No taps in the window",
                };
                return Some(skip(kind, bid_field(level), Some(money_text(current)), why));
            };
            let step_percent = max_step_percent
                .as_deref()
                .and_then(decimal)
                .unwrap_or(Decimal::from(20));
            let desired = step(current, current * aim / actual, Some(step_percent));
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
mod tests {
    use super::*;
    use crate::rules::evaluate::Targets;
    use crate::store::report_facts::Counters;

    fn row(bid: i64, taps: i64, installs: i64, spend: i64) -> EntityRow {
        let mut c = [0i64; 11];
        c[1] = taps;
        c[2] = installs;
        c[10] = spend;
        EntityRow {
            id: 7,
            campaign_id: 10,
            ad_group_id: 100,
            name: "Photo Editor".into(),
            status: Some("ACTIVE".into()),
            match_type: Some("EXACT".into()),
            tags: vec![],
            bid_micros: Some(bid),
            default_bid_micros: Some(500_000),
            cpa_goal_micros: Some(2_000_000),
            daily_budget_micros: Some(50_000_000),
            popularity: None,
            counters: Counters(c),
        }
    }

    fn limits(g: Guardrails, currency: &str) -> Limits {
        Limits::of(&g, currency)
    }

    fn run(action: Action, r: &EntityRow, l: &Limits, level: RuleLevel) -> Planned {
        let keywords = HashSet::from([(100, "photo editor".to_string(), "EXACT".to_string())]);
        let negatives = HashSet::from([(10, None, "free".to_string(), "EXACT".to_string())]);
        plan(
            &action,
            r,
            &PlanScope {
                level,
                limits: l,
                targets: Targets::default(),
                keywords: &keywords,
                negatives: &negatives,
            },
        )
        .unwrap()
    }

    fn new_of(action: Action, r: &EntityRow, l: &Limits) -> Option<String> {
        let p = run(action, r, l, RuleLevel::Keywords);
        p.skipped.map_or(p.new, |why| Some(format!("skip: {why}")))
    }

    fn change_bid(by: ChangeBy, v: &str) -> Action {
        Action::ChangeBid {
            by,
            value: v.into(),
        }
    }

    #[test]
    fn relative_changes_become_absolute_values() {
        let l = limits(Guardrails::default(), "USD");
        let r = row(1_000_000, 0, 0, 0);
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "10"), &r, &l).as_deref(),
            Some("1.1")
        );
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "-15"), &r, &l).as_deref(),
            Some("0.85")
        );
        assert_eq!(
            new_of(change_bid(ChangeBy::Amount, "-0.10"), &r, &l).as_deref(),
            Some("0.9")
        );
        assert_eq!(
            new_of(
                Action::SetBid {
                    amount: "2.5".into()
                },
                &r,
                &l
            )
            .as_deref(),
            Some("2.5")
        );
        assert_eq!(
            new_of(
                Action::SetBid {
                    amount: "1.00".into()
                },
                &r,
                &l
            )
            .as_deref(),
            Some("skip: Already at the target")
        );
        let p = run(
            change_bid(ChangeBy::Percent, "10"),
            &r,
            &l,
            RuleLevel::Keywords,
        );
        assert_eq!((p.field, p.old.as_deref()), ("cptBid", Some("1")));
        // An ad group's default bid.
        let p = run(
            change_bid(ChangeBy::Percent, "10"),
            &r,
            &l,
            RuleLevel::Adgroups,
        );
        assert_eq!(
            (p.field, p.old.as_deref(), p.new.as_deref()),
            ("defaultBidAmount", Some("0.5"), Some("0.55"))
        );
    }

    #[test]
    fn money_is_floored_to_the_currency_and_kept_above_apples_minimum() {
        let l = limits(Guardrails::default(), "USD");
        // 1.23 × 1.07 = 1.3161 → 1.31.
        let r = row(1_230_000, 0, 0, 0);
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "7"), &r, &l).as_deref(),
            Some("1.31")
        );
        // Apple's minimum bid in USD is 0.10.
        let low = row(150_000, 0, 0, 0);
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "-90"), &low, &l).as_deref(),
            Some("0.1")
        );
        // JPY has no decimals; its minimum bid is larger.
        let jpy = limits(Guardrails::default(), "JPY");
        let r = row(100_000_000, 0, 0, 0);
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "3.3"), &r, &jpy).as_deref(),
            Some("103")
        );
        assert!(jpy.apple_bid > Decimal::ONE);
    }

    #[test]
    fn guardrails_clamp_without_pushing_further_out() {
        let g = Guardrails {
            min_bid: Some("0.50".into()),
            max_bid: Some("2.00".into()),
            max_change_percent: Some("50".into()),
            ..Default::default()
        };
        let l = limits(g, "USD");
        let r = row(1_000_000, 0, 0, 0);
        // +200 % moves at most 50 %.
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "200"), &r, &l).as_deref(),
            Some("1.5")
        );
        // Setting 10.00 from 1.80: at most +50 % (2.70), then the maximum 2.00.
        let r18 = row(1_800_000, 0, 0, 0);
        assert_eq!(
            new_of(
                Action::SetBid {
                    amount: "10".into()
                },
                &r18,
                &l
            )
            .as_deref(),
            Some("2")
        );
        // Lowering 0.60 by 40 % stops at the minimum 0.50.
        let r06 = row(600_000, 0, 0, 0);
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "-40"), &r06, &l).as_deref(),
            Some("0.5")
        );
        // Already above the maximum: a raise leaves it where it is, a cut moves it down.
        let high = row(3_000_000, 0, 0, 0);
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "10"), &high, &l).as_deref(),
            Some("skip: Already at the target")
        );
        assert_eq!(
            new_of(change_bid(ChangeBy::Percent, "-10"), &high, &l).as_deref(),
            Some("2.7")
        );
        // Below the minimum: a cut does not push it lower.
        let under = row(300_000, 0, 0, 0);
        assert_eq!(
            new_of(change_bid(ChangeBy::Amount, "-0.1"), &under, &l).as_deref(),
            Some("skip: Already at the target")
        );
    }

    #[test]
    fn bid_to_target_moves_by_the_ratio_within_its_step() {
        let l = limits(Guardrails::default(), "USD");
        let to_cpa = |amount: Option<&str>, step: Option<&str>| Action::BidToTarget {
            target: Target::Cpa,
            amount: amount.map(str::to_string),
            max_step_percent: step.map(str::to_string),
        };
        // CPA 4.00 (20.00 / 5), goal 2.00 (the ad group's): bid × 0.5, at most −20 %.
        let r = row(1_000_000, 50, 5, 20_000_000);
        assert_eq!(new_of(to_cpa(None, None), &r, &l).as_deref(), Some("0.8"));
        assert_eq!(
            new_of(to_cpa(None, Some("100")), &r, &l).as_deref(),
            Some("0.5")
        );
        // A target of 4.40 with CPA 4.00: × 1.1.
        assert_eq!(
            new_of(to_cpa(Some("4.40"), None), &r, &l).as_deref(),
            Some("1.1")
        );
        // No installs: no change.
        let none = row(1_000_000, 50, 0, 20_000_000);
        assert_eq!(
            new_of(to_cpa(None, None), &none, &l).as_deref(),
            Some("skip: No installs in the window")
        );
        // CPT: 20.00 / 50 taps = 0.40, target 0.50 → × 1.25, capped at +20 %.
        let cpt = Action::BidToTarget {
            target: Target::Cpt,
            amount: Some("0.50".into()),
            max_step_percent: None,
        };
        assert_eq!(new_of(cpt, &r, &l).as_deref(), Some("1.2"));
        // No CPT target at all.
        let no_target = Action::BidToTarget {
            target: Target::Cpt,
            amount: None,
            max_step_percent: None,
        };
        assert_eq!(
            new_of(no_target, &r, &l).as_deref(),
            Some("skip: No target to aim at")
        );
    }

    #[test]
    fn budgets_statuses_and_additions() {
        let g = Guardrails {
            max_budget: Some("60".into()),
            ..Default::default()
        };
        let l = limits(g, "USD");
        let r = row(1_000_000, 0, 0, 0);
        let p = run(
            Action::ChangeBudget {
                by: ChangeBy::Percent,
                value: "50".into(),
            },
            &r,
            &l,
            RuleLevel::Campaigns,
        );
        assert_eq!(
            (p.field, p.old.as_deref(), p.new.as_deref()),
            ("dailyBudget", Some("50"), Some("60"))
        );
        let p = run(
            Action::SetBudget {
                amount: "0.5".into(),
            },
            &r,
            &l,
            RuleLevel::Campaigns,
        );
        assert_eq!(
            p.new.as_deref(),
            Some("1"),
            "Apple's minimum daily budget in USD"
        );
        let p = run(Action::Pause, &r, &l, RuleLevel::Keywords);
        assert_eq!(
            (p.old.as_deref(), p.new.as_deref(), p.skipped),
            (Some("ACTIVE"), Some("PAUSED"), None)
        );
        let p = run(Action::Enable, &r, &l, RuleLevel::Keywords);
        assert_eq!(p.skipped, Some("Already at the target"));
        let mut paused_group = r.clone();
        paused_group.status = Some("PAUSED".into());
        let p = run(Action::Enable, &paused_group, &l, RuleLevel::Adgroups);
        assert_eq!(p.new.as_deref(), Some("ENABLED"));
        let add = |group: &str| Action::AddKeyword {
            campaign_id: "10".into(),
            ad_group_id: group.into(),
            match_type: "EXACT".into(),
            bid: None,
        };
        assert_eq!(
            run(add("100"), &r, &l, RuleLevel::Searchterms).skipped,
            Some("Already a keyword there")
        );
        assert_eq!(
            run(add("101"), &r, &l, RuleLevel::Searchterms).skipped,
            None
        );
        let neg = Action::AddNegative {
            r#where: crate::rules::NegativePlace::Campaign,
            match_type: "EXACT".into(),
        };
        assert_eq!(
            run(neg.clone(), &r, &l, RuleLevel::Searchterms).skipped,
            None
        );
        let mut free = r.clone();
        free.name = "FREE".into();
        assert_eq!(
            run(neg, &free, &l, RuleLevel::Searchterms).skipped,
            Some("Already a negative keyword there")
        );
        assert!(
            plan(
                &Action::Alert {
                    channels: vec![],
                    emails: vec![]
                },
                &r,
                &PlanScope {
                    level: RuleLevel::Keywords,
                    limits: &l,
                    targets: Targets::default(),
                    keywords: &HashSet::new(),
                    negatives: &HashSet::new(),
                }
            )
            .is_none()
        );
    }

    #[test]
    fn max_entities_keeps_the_largest_spenders() {
        let rows: Vec<EntityRow> = [(1, 5), (2, 50), (3, 20), (4, 50)]
            .into_iter()
            .map(|(id, spend)| {
                let mut r = row(1_000_000, 0, 0, spend);
                r.id = id;
                r
            })
            .collect();
        let refs: Vec<&EntityRow> = rows.iter().collect();
        assert_eq!(limit(&refs, Some(2)), HashSet::from([1, 3]));
        assert_eq!(limit(&refs, Some(3)), HashSet::from([1, 2, 3]));
        assert_eq!(limit(&refs, None).len(), 4);
    }
}
