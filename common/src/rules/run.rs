//! One evaluation of a rule over our synced data, as a run, its preview and each day of
//! its backtest do it (`docs/api/rules.md` "A run"): the window's days from "today" in the
//! campaign group's time zone, every entity of the rule's level in its campaigns read once
//! through the report engine ([`crate::report::entity_rows`]), the conditions and
//! `minData` ([`evaluate`](super::evaluate)), then per matched entity and action the
//! absolute change ([`plan`](super::plan)), the largest spenders first up to
//! `maxEntities`. Nothing is stored or sent here.
//!
//! Data completeness: the newest complete day of a campaign group is the last day (its time
//! zone) that ended before its last metrics sync finished ([`newest_complete_day`]); a
//! window ending after it is incomplete.

use std::collections::{HashMap, HashSet};

use rust_decimal::Decimal;
use serde_json::{Value, json};
use time::{Date, Duration};

use super::{
    Action, Condition, Rule, RuleLevel,
    evaluate::{self, Scope, Targets},
    plan::{self, Limits, PlanScope},
    window,
};
use crate::{
    Db,
    report::{Cancel, DateRange, EntityRead, EntityRow, Level, ReportError, currency::MoneyRule},
    store::{self, report_entities::SyncOrg, rule_runs::ItemRow},
};

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
}

/// The report level of a rule level.
pub fn report_level(level: RuleLevel) -> Level {
    match level {
        RuleLevel::Campaigns => Level::Campaigns,
        RuleLevel::Adgroups => Level::Groups,
        RuleLevel::Keywords => Level::Keywords,
        RuleLevel::Searchterms => Level::Searchterms,
    }
}

/// The item level of a rule level (as change records name levels; search terms apart).
pub fn item_level(level: RuleLevel) -> &'static str {
    match level {
        RuleLevel::Campaigns => "CAMPAIGN",
        RuleLevel::Adgroups => "AD_GROUP",
        RuleLevel::Keywords => "KEYWORD",
        RuleLevel::Searchterms => "SEARCH_TERM",
    }
}

/// The newest complete day of `org`: the day before the one (in its time zone) its last
/// metrics sync finished on; None before a first sync.
pub fn newest_complete_day(org: &SyncOrg) -> Option<Date> {
    let at = org.metrics_synced_at?;
    Some(window::today(at, org.time_zone.as_deref()) - Duration::days(1))
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
        popularity: conditions_use(rule, |c| {
            matches!(c, Condition::Metric { metric, .. } | Condition::Compare { metric, .. } if metric == "popularity")
                || matches!(c, Condition::Compare { other, .. } if other == "popularity")
        }) || rule
            .guardrails
            .min_data
            .iter()
            .any(|m| m.metric == "popularity"),
    };
    let rows =
        crate::report::entity_rows(db, &subject.workspace_id, &subject.org, &read, cancel).await?;
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
    Ok(evaluate_rows(
        subject,
        (from, to),
        &rows,
        &mut keywords,
        &mut negatives,
    ))
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

/// A rule or goal optimisation loaded for a run.
#[derive(Debug, Clone)]
pub struct Loaded {
    pub subject: Subject,
    /// The rule's id (None for a goal optimisation).
    pub rule_id: Option<String>,
    /// The change records' source: `auto_rules` or `goal_optimization`.
    pub source: &'static str,
    pub enabled: bool,
    pub account_id: String,
    pub org_id: i64,
    /// When it was created or enabled (Unix seconds).
    pub enabled_at: i64,
}

/// The built-in rule a campaign's goal optimisation runs as (`docs/api/rules.md`): its
/// active keywords' bids moved toward the target over the last 14 days excluding today,
/// daily at 06:00, at most the setting's step per run, once a keyword has 10 taps.
pub fn optimization_rule(o: &store::rule_runs::Optimization) -> Rule {
    let target = if o.kind == "CPT_GOAL" { "CPT" } else { "CPA" };
    let step = o.max_step_percent.to_string();
    let mut rule: Rule = serde_json::from_value(json!({
        "name": format!("Goal optimisation ({})", o.kind),
        "accountId": o.account_id,
        "orgId": o.org_id.to_string(),
        "level": "KEYWORDS",
        "campaignIds": [o.campaign_id.to_string()],
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "status", "values": ["ACTIVE"]}]}]},
        "window": {"type": "last", "days": 14, "excludeToday": true},
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "bidToTarget", "target": target,
            "amount": o.target_micros.map(|m| plan::money_text(Decimal::new(m, 6))),
            "maxStepPercent": step}],
        "guardrails": {"maxChangePercent": step, "minData": [{"metric": "taps", "value": "10"}]}
    }))
    .expect("the built-in rule reads as a rule");
    rule.created_by = o.created_by_email.clone();
    rule.created_at = o.enabled_at;
    rule
}

/// The goal targets of `campaigns` of (`account_id`, `org_id`).
pub async fn targets(
    db: &Db,
    account_id: &str,
    org_id: i64,
    campaigns: &[i64],
) -> Result<HashMap<i64, Targets>, sqlx::Error> {
    let mut out = HashMap::new();
    for &c in campaigns {
        if let Some(o) = store::rule_runs::optimization_of(&db.pool, account_id, org_id, c).await? {
            let amount = o.target_micros.map(|m| Decimal::new(m, 6));
            let t = if o.kind == "CPT_GOAL" {
                Targets {
                    cpa: None,
                    cpt: amount,
                }
            } else {
                Targets {
                    cpa: amount,
                    cpt: None,
                }
            };
            out.insert(c, t);
        }
    }
    Ok(out)
}

/// The subject of `rule` of `workspace_id` over `campaigns`; None while its campaign group
/// is not synced.
pub async fn subject(
    db: &Db,
    workspace_id: &str,
    rule: &Rule,
    campaigns: Vec<i64>,
) -> Result<Option<Subject>, sqlx::Error> {
    let Ok(org_id) = rule.org_id.parse::<i64>() else {
        return Ok(None);
    };
    let Some(org) = store::report_entities::sync_org_of(&db.pool, &rule.account_id, org_id).await?
    else {
        return Ok(None);
    };
    let currency = org.currency.clone().unwrap_or_else(|| "USD".to_string());
    let targets = targets(db, &rule.account_id, org_id, &campaigns).await?;
    let mut rule = rule.clone();
    rule.currency = Some(currency.clone());
    Ok(Some(Subject {
        workspace_id: workspace_id.to_string(),
        rule,
        campaigns,
        org,
        currency,
        targets,
    }))
}

/// The rule or goal optimisation of run key `key` (see `store::rule_runs`), with its
/// enabled campaigns; None when it is gone or its campaign group is not synced.
pub async fn load(db: &Db, key: &str) -> Result<Option<Loaded>, sqlx::Error> {
    if let Some((account_id, org_id, campaign_id)) = store::rule_runs::parse_optimization_key(key) {
        let Some(o) =
            store::rule_runs::optimization_of(&db.pool, &account_id, org_id, campaign_id).await?
        else {
            return Ok(None);
        };
        let rule = optimization_rule(&o);
        let Some(subject) = subject(db, &o.workspace_id, &rule, vec![campaign_id]).await? else {
            return Ok(None);
        };
        return Ok(Some(Loaded {
            subject,
            rule_id: None,
            source: store::changes::GOAL_OPTIMIZATION,
            enabled: true,
            account_id,
            org_id,
            enabled_at: o.enabled_at,
        }));
    }
    let Some(workspace_id) = store::rule_runs::rule_workspace(&db.pool, key).await? else {
        return Ok(None);
    };
    let Some(row) = store::rules::get(&db.pool, &workspace_id, key).await? else {
        return Ok(None);
    };
    let campaigns = store::rule_runs::enabled_campaigns(&db.pool, key).await?;
    let org_id = row.rule.org_id.parse().unwrap_or_default();
    let account_id = row.rule.account_id.clone();
    let Some(subject) = subject(db, &workspace_id, &row.rule, campaigns).await? else {
        return Ok(None);
    };
    Ok(Some(Loaded {
        subject,
        rule_id: Some(key.to_string()),
        source: store::changes::AUTO_RULES,
        enabled: row.rule.enabled,
        account_id,
        org_id,
        enabled_at: row.enabled_at,
    }))
}
