//! What a run evaluates, loaded: the rule (or a goal optimisation as a rule), its campaigns
//! and campaign group, and the goal targets of those campaigns.

use super::*;

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
/// active keywords' bids moved toward the target, daily at 06:00, at most the setting's step
/// per run, once a keyword has 10 taps in the window. The window is 14 days: for Apple's
/// costs the last 14 excluding today; for a cost per trial or purchase the 14 ending the
/// day before yesterday (a day's installs report most of their trials and purchases by the
/// end of the next); for a ROAS DN goal the 14 newest install days at least N full days old
/// (`N + 14` to `N + 1` days ago), so a cohort is never judged before it matured.
pub fn optimization_rule(o: &store::rule_runs::Optimization) -> Rule {
    use store::optimizations as kinds;
    let step = o.max_step_percent.to_string();
    let money = || {
        o.target_micros
            .map(|m| plan::money_text(Decimal::new(m, 6)))
    };
    let days = o.cohort_days.unwrap_or(7).clamp(0, 30);
    let (target, amount, window) = match o.kind.as_str() {
        kinds::CPT_GOAL => (
            "CPT".to_string(),
            money(),
            json!({"type": "last", "days": 14, "excludeToday": true}),
        ),
        kinds::COST_PER_TRIAL_GOAL | kinds::COST_PER_PURCHASE_GOAL => (
            o.kind.trim_end_matches("_GOAL").to_string(),
            money(),
            json!({"type": "between", "fromDaysAgo": 15, "toDaysAgo": 2}),
        ),
        kinds::ROAS_GOAL => (
            format!("ROAS_D{days}"),
            o.target_micros
                .map(|m| plan::money_text(Decimal::new(m, 6) / Decimal::from(100))),
            json!({"type": "between", "fromDaysAgo": days + 14, "toDaysAgo": days + 1}),
        ),
        _ => (
            "CPA".to_string(),
            money(),
            json!({"type": "last", "days": 14, "excludeToday": true}),
        ),
    };
    let mut rule: Rule = serde_json::from_value(json!({
        "name": format!("Goal optimisation ({})", o.kind),
        "accountId": o.account_id,
        "orgId": o.org_id.to_string(),
        "level": "KEYWORDS",
        "campaignIds": [o.campaign_id.to_string()],
        "conditions": {"operator": "AND", "groups": [{"operator": "AND", "conditions": [
            {"type": "status", "values": ["ACTIVE"]}]}]},
        "window": window,
        "frequency": {"type": "daily", "hour": 6},
        "actions": [{"type": "bidToTarget", "target": target, "amount": amount,
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
            let t = match o.kind.as_str() {
                store::optimizations::CPT_GOAL => Targets {
                    cpa: None,
                    cpt: amount,
                },
                store::optimizations::CPA_GOAL => Targets {
                    cpa: amount,
                    cpt: None,
                },
                // The conversion goals carry their target in the rule's action.
                _ => Targets::default(),
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
            source: store::activity::changes::GOAL_OPTIMIZATION,
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
        source: store::activity::changes::AUTO_RULES,
        enabled: row.rule.enabled,
        account_id,
        org_id,
        enabled_at: row.enabled_at,
    }))
}
