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
    money::currency::MoneyRule,
    report::{Cancel, DateRange, EntityRead, EntityRow, Level, ReportError},
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

/// The share (percent) of its entities a run may change on a window whose delivery collapsed
/// (`guardrails.maxChangeShare`'s default).
pub const DEFAULT_MAX_CHANGE_SHARE: u32 = 50;

/// Distinct entities `evaluated` would change (its `PLANNED` items).
pub fn changed_entities(evaluated: &Evaluated) -> usize {
    evaluated
        .items
        .iter()
        .filter(|i| i.result == store::rule_runs::ITEM_PLANNED)
        .map(|i| i.entity_id)
        .collect::<HashSet<_>>()
        .len()
}

/// Whether `evaluated` would change more than the rule's share of its entities (see
/// [`collapse_guard`]).
pub fn over_share(rule: &Rule, evaluated: &Evaluated) -> bool {
    let share = rule
        .guardrails
        .max_change_share
        .unwrap_or(DEFAULT_MAX_CHANGE_SHARE) as usize;
    evaluated.read > 0 && changed_entities(evaluated) * 100 > share * evaluated.read
}

/// The collapse guard (`guardrails.maxChangeShare`): a run that would change more than that
/// share of the rule's entities (default 50 %) while the window's impressions or spend fell
/// to less than half of the same days a week earlier stops instead of acting — the signature
/// of data that went missing (a delivery gap, a restatement) rather than of the campaigns.
/// The reason, in the user's words, when it stops; the week before is read only when the
/// share is exceeded.
pub async fn collapse_guard(
    db: &Db,
    caches: &crate::report::Caches,
    subject: &Subject,
    evaluated: &Evaluated,
    cancel: &Cancel,
) -> Result<Option<String>, ReportError> {
    if !over_share(&subject.rule, evaluated) {
        return Ok(None);
    }
    let (from, to) = evaluated.window;
    let week = Duration::days(7);
    let read = EntityRead {
        level: report_level(subject.rule.level),
        campaigns: subject.campaigns.clone(),
        range: DateRange {
            from: from - week,
            to: to - week,
        },
        tags: false,
        popularity: false,
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
    let before = Delivery::of(&rows);
    Ok(evaluated.delivery.collapsed_from(&before).then(|| {
        let share = subject
            .rule
            .guardrails
            .max_change_share
            .unwrap_or(DEFAULT_MAX_CHANGE_SHARE);
        format!(
            "Stopped by the rule's guard: it would change {} of its {} entities (over {share} %) \
             while their impressions over {from}..{to} fell to {} from {} the week before. \
             Check the data, then run the rule again or raise the guard's share",
            changed_entities(evaluated),
            evaluated.read,
            evaluated.delivery.impressions,
            before.impressions,
        )
    }))
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

/// The newest complete day of `org`; None before its first metrics sync.
///
/// Two bounds, the earlier wins: the day before the newest day the provider served
/// (`metrics_through` is the ad account's today by Apple's clock when the sync read it, a day
/// still in progress), and the day before the one (its time zone, our clock) on which the
/// last metrics sync finished. When Apple's reporting lags — its clock days behind ours — the
/// first bound holds the rule to the days Apple actually delivered.
pub fn newest_complete_day(org: &SyncOrg) -> Option<Date> {
    let at = org.metrics_synced_at?;
    let synced = window::today(at, org.time_zone.as_deref()) - Duration::days(1);
    let through = org.metrics_through.as_deref().and_then(|d| {
        Date::parse(d, time::macros::format_description!("[year]-[month]-[day]")).ok()
    })?;
    Some(synced.min(through - Duration::days(1)))
}

/// Why a window ending on `end` cannot be acted on yet, in the user's words; None when every
/// day of it is complete (see [`newest_complete_day`]). A run with a reason is `SKIPPED`
/// with it, the preview shows it before the rule is saved, the backtest leaves the day out.
pub fn incomplete_reason(org: &SyncOrg, end: Date) -> Option<String> {
    match newest_complete_day(org) {
        None => Some(format!(
            "Metrics for {end} are not synced yet: this campaign group's metrics have not been synced"
        )),
        Some(newest) if end > newest => Some(format!(
            "Metrics for {end} are not synced yet: Apple Ads has delivered this campaign group's \
             metrics through {newest}, and days it has not delivered are never read as zeros"
        )),
        Some(_) => None,
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
        popularity: conditions_use(rule, |c| {
            matches!(c, Condition::Metric { metric, .. } | Condition::Compare { metric, .. } if metric == "popularity")
                || matches!(c, Condition::Compare { other, .. } if other == "popularity")
        }) || rule
            .guardrails
            .min_data
            .iter()
            .any(|m| m.metric == "popularity"),
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

#[cfg(test)]
mod tests {
    use time::macros::date;

    use super::*;
    use crate::store::report_facts::Counters;

    /// 2026-12-01T10:00:00Z.
    const NOW: i64 = 1_796_119_200;

    fn org(synced_at: Option<i64>, through: Option<&str>) -> SyncOrg {
        SyncOrg {
            org_key: 1,
            account_id: "acc".into(),
            org_id: 42,
            currency: Some("USD".into()),
            time_zone: Some("UTC".into()),
            entities_synced_at: synced_at,
            metrics_through: through.map(str::to_string),
            metrics_from: Some("2026-09-01".into()),
            metrics_synced_at: synced_at,
            metrics_job: None,
        }
    }

    fn keyword(id: i64, impressions: i64, spend_micros: i64) -> EntityRow {
        let mut c = [0i64; 11];
        c[0] = impressions;
        c[10] = spend_micros;
        EntityRow {
            id,
            campaign_id: 10,
            ad_group_id: 100,
            name: format!("keyword {id}"),
            status: Some("ACTIVE".into()),
            match_type: Some("EXACT".into()),
            tags: vec![],
            bid_micros: Some(1_000_000),
            default_bid_micros: None,
            cpa_goal_micros: None,
            daily_budget_micros: None,
            popularity: None,
            counters: Counters(c),
        }
    }

    fn subject(rule: serde_json::Value) -> Subject {
        let mut body = json!({
            "name": "Pause the silent", "accountId": "acc", "orgId": "42", "level": "KEYWORDS",
            "campaignIds": ["10"],
            "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
                {"type": "metric", "metric": "impressions", "operator": "EQUALS", "value": "0"}]}]},
            "window": {"type": "last", "days": 2},
            "frequency": {"type": "daily", "hour": 6},
            "actions": [{"type": "pause"}]
        });
        if let (Some(b), Some(extra)) = (body.as_object_mut(), rule.as_object()) {
            b.extend(extra.clone());
        }
        Subject {
            workspace_id: "ws".into(),
            rule: serde_json::from_value(body).expect("a rule"),
            campaigns: vec![10],
            org: org(Some(NOW), Some("2026-12-01")),
            currency: "USD".into(),
            targets: HashMap::new(),
        }
    }

    #[test]
    fn the_newest_complete_day_is_the_newest_day_apple_delivered_whole() {
        // Apple's clock is ours: its today (served in part) is not complete, yesterday is.
        assert_eq!(
            newest_complete_day(&org(Some(NOW), Some("2026-12-01"))),
            Some(date!(2026 - 11 - 30))
        );
        // Apple's reporting three days behind ours: only what it delivered counts, however
        // recently our sync ran.
        assert_eq!(
            newest_complete_day(&org(Some(NOW), Some("2026-11-28"))),
            Some(date!(2026 - 11 - 27))
        );
        // A sync that finished long ago bounds it too (Apple served the day, but it had not
        // ended when we read it).
        assert_eq!(
            newest_complete_day(&org(Some(NOW - 3 * 86_400), Some("2026-12-01"))),
            Some(date!(2026 - 11 - 27))
        );
        // Never synced, or synced without a served day: nothing is complete.
        assert_eq!(newest_complete_day(&org(None, None)), None);
        assert_eq!(newest_complete_day(&org(Some(NOW), None)), None);
    }

    #[test]
    fn a_window_past_the_delivered_days_has_a_reason_in_words() {
        let lagging = org(Some(NOW), Some("2026-11-28"));
        let reason = incomplete_reason(&lagging, date!(2026 - 11 - 30)).expect("incomplete");
        assert!(
            reason.starts_with("Metrics for 2026-11-30 are not synced yet")
                && reason.contains("through 2026-11-27"),
            "{reason}"
        );
        assert_eq!(incomplete_reason(&lagging, date!(2026 - 11 - 27)), None);
        assert!(incomplete_reason(&org(None, None), date!(2026 - 11 - 27)).is_some());
    }

    #[test]
    fn delivery_collapses_when_impressions_or_spend_halve() {
        let d = |impressions, spend_micros| Delivery {
            impressions,
            spend_micros,
        };
        assert!(d(0, 0).collapsed_from(&d(10_000, 5_000_000)));
        assert!(d(4_999, 5_000_000).collapsed_from(&d(10_000, 5_000_000)));
        assert!(d(10_000, 2_000_000).collapsed_from(&d(10_000, 5_000_000)));
        assert!(!d(5_000, 2_500_000).collapsed_from(&d(10_000, 5_000_000)));
        // Nothing the week before: nothing to collapse from.
        assert!(!d(0, 0).collapsed_from(&d(0, 0)));
    }

    #[test]
    fn the_share_guard_counts_distinct_changed_entities_of_those_read() {
        let s = subject(json!({}));
        // 3 of 4 keywords silent: 75 % would be paused, over the default 50 %.
        let rows = [
            keyword(1, 0, 0),
            keyword(2, 0, 0),
            keyword(3, 0, 0),
            keyword(4, 900, 3_000_000),
        ];
        let e = evaluate_rows(
            &s,
            (date!(2026 - 11 - 29), date!(2026 - 11 - 30)),
            &rows,
            &mut HashSet::new(),
            &mut HashSet::new(),
        );
        assert_eq!((e.matched, e.read, changed_entities(&e)), (3, 4, 3));
        assert_eq!(
            e.delivery,
            Delivery {
                impressions: 900,
                spend_micros: 3_000_000
            }
        );
        assert!(over_share(&s.rule, &e));
        // The rule's own share.
        let lenient = subject(json!({"guardrails": {"maxChangeShare": 75}}));
        assert!(!over_share(&lenient.rule, &e));
        // 2 of 4 is not over 50 %.
        let half = evaluate_rows(
            &s,
            (date!(2026 - 11 - 29), date!(2026 - 11 - 30)),
            &rows[1..],
            &mut HashSet::new(),
            &mut HashSet::new(),
        );
        assert_eq!((half.read, changed_entities(&half)), (3, 2));
        assert!(over_share(&s.rule, &half));
        let two_of_four = evaluate_rows(
            &s,
            (date!(2026 - 11 - 29), date!(2026 - 11 - 30)),
            &[
                rows[0].clone(),
                rows[1].clone(),
                rows[3].clone(),
                keyword(5, 10, 1),
            ],
            &mut HashSet::new(),
            &mut HashSet::new(),
        );
        assert!(!over_share(&s.rule, &two_of_four));
    }
}
