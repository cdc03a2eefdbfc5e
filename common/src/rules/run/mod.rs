//! One evaluation of a rule over our synced data, as a run, its preview and each day of
//! its backtest do it (`docs/api/rules.md` "A run"): the window's days from "today" in the
//! campaign group's time zone, every entity of the rule's level in its campaigns read once
//! through the report engine ([`crate::report::entity_rows`]), the conditions and
//! `minData` ([`evaluate`](super::evaluate)), then per matched entity and action the
//! absolute change ([`plan`](super::plan)), the largest spenders first up to
//! `maxEntities`. Nothing is stored or sent here.
//!
//! Data completeness: the newest complete day of a campaign group is the newest day Apple has
//! delivered whole for it ([`newest_complete_day`]): the day before the provider's own today
//! when the last metrics sync read it (`metrics_through`), and never a day that had not
//! ended when that sync finished (`metrics_synced_at`). A window ending after it is
//! incomplete ([`incomplete_reason`]): a day Apple has not delivered reads as zeros in our
//! store, and a rule must never act on those zeros.

mod conversions;
mod guards;
mod load;

use std::collections::{HashMap, HashSet};

use rust_decimal::Decimal;
use serde_json::{Value, json};
use time::{Date, Duration};

use super::{
    Action, Condition, Rule, RuleLevel,
    evaluate::{self, Scope, Targets},
    named,
    plan::{self, Limits, PlanScope},
    window,
};
use crate::{
    Db,
    money::currency::MoneyRule,
    report::{Cancel, DateRange, EntityRead, EntityRow, Level, ReportError},
    store::{self, report_entities::SyncOrg, rule_runs::ItemRow},
};

pub use conversions::{CONVERSIONS_STALE_HOURS, conversions_reason, stale_reason};
pub use guards::{
    DEFAULT_MAX_CHANGE_SHARE, changed_entities, collapse_guard, incomplete_reason, item_level,
    newest_complete_day, over_share, report_level,
};
pub use load::{Loaded, load, optimization_rule, subject, targets};

/// What a rule acts in: its rule, campaigns, campaign group and the goal targets of those
/// campaigns.
#[derive(Debug, Clone)]
pub struct Subject {
    pub workspace_id: String,
    pub rule: Rule,
    pub campaigns: Vec<i64>,
    pub org: SyncOrg,
    /// The campaign group's currency.
    pub currency: String,
    /// Goal-optimisation targets by campaign (`targetCpa`, `targetCpt`, and what
    /// `bidToTarget` aims at without an amount).
    pub targets: HashMap<i64, Targets>,
}

/// An evaluation: its window and what it would do.
#[derive(Debug, Clone, PartialEq)]
pub struct Evaluated {
    pub window: (Date, Date),
    /// Entities that met the conditions (acted on or over the entity limit).
    pub matched: usize,
    /// One item per matched entity and action (alerts have none), `PLANNED` or `SKIPPED`.
    pub items: Vec<ItemRow>,
    /// The matched entities (for an alert): level, id, name, values.
    pub entities: Vec<(String, i64, String)>,
    /// Entities of the rule's level read in its campaigns (what the collapse guard's share
    /// is of).
    pub read: usize,
    /// Their impressions and spend (micros) over the window.
    pub delivery: Delivery,
}

/// Impressions and spend (micros) summed over some entities and days.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Delivery {
    pub impressions: i64,
    pub spend_micros: i64,
}

impl Delivery {
    pub fn of(rows: &[EntityRow]) -> Self {
        rows.iter().fold(Self::default(), |d, r| Self {
            impressions: d.impressions + r.counters.impressions(),
            spend_micros: d.spend_micros + r.counters.spend_micros(),
        })
    }

    /// Whether this window's delivery fell to less than half of `before`'s (impressions or
    /// spend), `before` having some.
    pub fn collapsed_from(&self, before: &Delivery) -> bool {
        let fell = |now: i64, then: i64| then > 0 && now.saturating_mul(2) < then;
        fell(self.impressions, before.impressions) || fell(self.spend_micros, before.spend_micros)
    }
}

fn conditions_use(rule: &Rule, f: impl Fn(&Condition) -> bool) -> bool {
    rule.conditions
        .groups
        .iter()
        .any(|g| g.conditions.iter().any(&f))
}

/// Evaluates `subject` as of `today` (the campaign group's date): nothing stored, nothing
/// sent.
pub async fn evaluate(
    db: &Db,
    caches: &crate::report::Caches,
    subject: &Subject,
    today: Date,
    cancel: &Cancel,
) -> Result<Evaluated, ReportError> {
    let rule = &subject.rule;
    let (from, to) = window::days(&rule.window, today);
    let read = EntityRead {
        level: report_level(rule.level),
        campaigns: subject.campaigns.clone(),
        range: DateRange { from, to },
        tags: conditions_use(rule, |c| matches!(c, Condition::Tag { .. })),
        popularity: named::names(rule, "popularity"),
        conversions: named::reads_conversions(rule).then_some(today),
    };
    let rows = crate::report::entity_rows(
        db,
        caches,
        &subject.workspace_id,
        &subject.org,
        &read,
        cancel,
    )
    .await?;
    // What additions would duplicate.
    let mut keywords = HashSet::new();
    let mut negatives = HashSet::new();
    if rule.level == RuleLevel::Searchterms {
        let groups: Vec<i64> = rule
            .actions
            .iter()
            .filter_map(|a| match a {
                Action::AddKeyword { ad_group_id, .. } => ad_group_id.parse().ok(),
                _ => None,
            })
            .collect();
        keywords = store::rule_runs::keywords_in(&db.pool, subject.org.org_key, &groups).await?;
        if rule
            .actions
            .iter()
            .any(|a| matches!(a, Action::AddNegative { .. }))
        {
            negatives =
                store::rule_runs::negatives_in(&db.pool, subject.org.org_key, &subject.campaigns)
                    .await?;
        }
    }
    let mut evaluated = evaluate_rows(subject, (from, to), &rows, &mut keywords, &mut negatives);
    evaluated.read = rows.len();
    evaluated.delivery = Delivery::of(&rows);
    Ok(evaluated)
}

/// [`evaluate`] over rows already read (pure; the backtest reads once per day).
pub fn evaluate_rows(
    subject: &Subject,
    window: (Date, Date),
    rows: &[EntityRow],
    keywords: &mut HashSet<(i64, String, String)>,
    negatives: &mut HashSet<(i64, Option<i64>, String, String)>,
) -> Evaluated {
    let rule = &subject.rule;
    let money = MoneyRule::of(Some(&subject.currency));
    let limits = Limits::of(&rule.guardrails, &subject.currency);
    let scope_of = |row: &EntityRow| Scope {
        level: rule.level,
        money,
        targets: subject
            .targets
            .get(&row.campaign_id)
            .copied()
            .unwrap_or_default(),
    };
    let matched: Vec<&EntityRow> = rows
        .iter()
        .filter(|r| evaluate::matches(rule, r, &scope_of(r)))
        .collect();
    let acted = plan::limit(&matched, rule.guardrails.max_entities);
    // Items in the order of spend (largest first), then id.
    let mut order: Vec<usize> = (0..matched.len()).collect();
    order.sort_by(|&a, &b| {
        matched[b]
            .counters
            .spend_micros()
            .cmp(&matched[a].counters.spend_micros())
            .then(matched[a].id.cmp(&matched[b].id))
    });
    let level = item_level(rule.level);
    let mut items = Vec::new();
    let mut entities = Vec::new();
    // One change per field of an entity per run (setBid and changeBid both asked).
    let mut changed: HashSet<(i64, &'static str)> = HashSet::new();
    for i in order {
        let row = matched[i];
        let scope = scope_of(row);
        let values = evaluate::values(rule, row, &scope);
        entities.push((level.to_string(), row.id, row.name.clone()));
        for action in &rule.actions {
            let planned = {
                let ps = PlanScope {
                    level: rule.level,
                    limits: &limits,
                    targets: scope.targets,
                    keywords,
                    negatives,
                };
                plan::plan(action, row, &ps)
            };
            let Some(mut p) = planned else {
                continue;
            };
            if !acted.contains(&i) {
                p.skipped = Some("Over the rule's entity limit");
            } else if p.skipped.is_none()
                && !matches!(
                    action,
                    Action::AddKeyword { .. } | Action::AddNegative { .. }
                )
                && !changed.insert((row.id, p.field))
            {
                p.skipped = Some("Another action of the rule changes it");
            }
            let detail = addition(action, row);
            // A second search term with the same text adds nothing more.
            if p.skipped.is_none() {
                match action {
                    Action::AddKeyword {
                        ad_group_id,
                        match_type,
                        ..
                    } => {
                        if let Ok(g) = ad_group_id.parse() {
                            keywords.insert((g, row.name.to_lowercase(), match_type.clone()));
                        }
                    }
                    Action::AddNegative {
                        r#where,
                        match_type,
                    } => {
                        let g = matches!(r#where, super::NegativePlace::AdGroup)
                            .then_some(row.ad_group_id);
                        negatives.insert((
                            row.campaign_id,
                            g,
                            row.name.to_lowercase(),
                            match_type.clone(),
                        ));
                    }
                    _ => {}
                }
            }
            items.push(ItemRow {
                seq: items.len() as i64,
                level: level.to_string(),
                entity_id: row.id,
                name: row.name.clone(),
                campaign_id: row.campaign_id,
                ad_group_id: (row.ad_group_id != 0).then_some(row.ad_group_id),
                values: values.clone(),
                action: p.action.to_string(),
                field: p.field.to_string(),
                old_value: p.old,
                new_value: p.new,
                detail,
                result: if p.skipped.is_some() {
                    "SKIPPED"
                } else {
                    "PLANNED"
                }
                .to_string(),
                message: p.skipped.map(str::to_string),
            });
        }
    }
    Evaluated {
        window,
        matched: matched.len(),
        items,
        entities,
        read: rows.len(),
        delivery: Delivery::of(rows),
    }
}

/// Where and what an addition adds (`detail` of its item).
fn addition(action: &Action, row: &EntityRow) -> Option<Value> {
    match action {
        Action::AddKeyword {
            campaign_id,
            ad_group_id,
            match_type,
            bid,
        } => Some(json!({
            "campaignId": campaign_id, "adGroupId": ad_group_id, "text": row.name,
            "matchType": match_type,
            "bid": bid.as_deref().and_then(super::decimal).map(|b: Decimal| plan::money_text(b)),
        })),
        Action::AddNegative {
            r#where,
            match_type,
        } => Some(json!({
            "campaignId": row.campaign_id.to_string(),
            "adGroupId": matches!(r#where, super::NegativePlace::AdGroup).then(|| row.ad_group_id.to_string()),
            "text": row.name, "matchType": match_type,
        })),
        _ => None,
    }
}

#[cfg(test)]
mod tests;
