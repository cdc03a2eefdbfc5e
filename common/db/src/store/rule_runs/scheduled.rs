//! The reads the run-rule job and the scheduler need of rules and goal optimisations: the
//! rules due on a schedule, the optimisations and their keys, a rule's enabled campaigns,
//! the keywords and negatives in them, and a rule's workspace; and the rule a run disables.

use super::*;

/// Turns rule `rule_id` off (a rule that paused itself).
pub async fn disable_rule(ex: impl Exec<'_>, rule_id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE rules SET enabled = 0, updated_at = $2 WHERE id = $1")
        .bind(rule_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// An enabled rule with at least one enabled campaign, as the scheduler reads it.
#[derive(Debug, Clone, PartialEq)]
pub struct ScheduledRule {
    pub rule_id: String,
    /// The rule's schema-v1 JSON (for its frequency).
    pub body: String,
    pub enabled_at: i64,
    /// The campaign group's time zone (None until synced: UTC).
    pub time_zone: Option<String>,
}

/// Every enabled rule with at least one enabled campaign.
pub async fn scheduled_rules(ex: impl Exec<'_>) -> Result<Vec<ScheduledRule>, sqlx::Error> {
    sqlx::query(
        "SELECT r.id, r.body, r.enabled_at, \
           (SELECT MAX(o.time_zone) FROM sync_orgs o WHERE o.account_id = r.account_id \
              AND o.org_id = r.org_id) AS time_zone \
         FROM rules r WHERE r.enabled = 1 AND EXISTS (SELECT 1 FROM rule_campaigns c \
           WHERE c.rule_id = r.id AND c.enabled = 1) ORDER BY r.id",
    )
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(ScheduledRule {
            rule_id: r.try_get(0)?,
            body: r.try_get(1)?,
            enabled_at: r.try_get(2)?,
            time_zone: r.try_get(3)?,
        })
    })
    .collect()
}

/// A campaign's goal optimisation (`campaign_optimizations`).
#[derive(Debug, Clone, PartialEq)]
pub struct Optimization {
    pub workspace_id: String,
    pub account_id: String,
    pub org_id: i64,
    pub campaign_id: i64,
    /// A type of `store::optimizations` (`CPA_GOAL`, … `ROAS_GOAL`).
    pub kind: String,
    pub target_micros: Option<i64>,
    /// The cohort a ROAS goal is judged on, in days after the install.
    pub cohort_days: Option<i64>,
    pub max_step_percent: i64,
    pub created_by_email: Option<String>,
    pub enabled_at: i64,
    pub time_zone: Option<String>,
}

impl Optimization {
    /// Its key among rule runs: `optimization:<account>:<org>:<campaign>`.
    pub fn key(&self) -> String {
        optimization_key(&self.account_id, self.org_id, self.campaign_id)
    }
}

/// The run key of a campaign's goal optimisation.
pub fn optimization_key(account_id: &str, org_id: i64, campaign_id: i64) -> String {
    format!("optimization:{account_id}:{org_id}:{campaign_id}")
}

/// The parts of a key written by [`optimization_key`].
pub fn parse_optimization_key(key: &str) -> Option<(String, i64, i64)> {
    let rest = key.strip_prefix("optimization:")?;
    let (rest, campaign) = rest.rsplit_once(':')?;
    let (account, org) = rest.rsplit_once(':')?;
    Some((
        account.to_string(),
        org.parse().ok()?,
        campaign.parse().ok()?,
    ))
}

const OPT_SELECT: &str = "SELECT p.workspace_id, p.account_id, p.org_id, p.campaign_id, p.type, \
    p.target_micros, p.max_step_percent, p.created_by_email, p.enabled_at, \
    (SELECT MAX(o.time_zone) FROM sync_orgs o WHERE o.account_id = p.account_id \
       AND o.org_id = p.org_id) AS time_zone, p.cohort_days FROM campaign_optimizations p";

fn optimization(r: &sqlx::any::AnyRow) -> Result<Optimization, sqlx::Error> {
    Ok(Optimization {
        workspace_id: r.try_get(0)?,
        account_id: r.try_get(1)?,
        org_id: r.try_get(2)?,
        campaign_id: r.try_get(3)?,
        kind: r.try_get(4)?,
        target_micros: r.try_get(5)?,
        max_step_percent: r.try_get(6)?,
        created_by_email: r.try_get(7)?,
        enabled_at: r.try_get(8)?,
        time_zone: r.try_get(9)?,
        cohort_days: r.try_get(10)?,
    })
}

/// Every goal optimisation that is on.
pub async fn optimizations(ex: impl Exec<'_>) -> Result<Vec<Optimization>, sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "{OPT_SELECT} ORDER BY p.account_id, p.org_id, p.campaign_id"
    )))
    .fetch_all(ex)
    .await?
    .iter()
    .map(optimization)
    .collect()
}

/// The goal optimisation of `campaign_id` in (`account_id`, `org_id`), if on.
pub async fn optimization_of(
    ex: impl Exec<'_>,
    account_id: &str,
    org_id: i64,
    campaign_id: i64,
) -> Result<Option<Optimization>, sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "{OPT_SELECT} WHERE p.account_id = $1 AND p.org_id = $2 AND p.campaign_id = $3"
    )))
    .bind(account_id)
    .bind(org_id)
    .bind(campaign_id)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(optimization)
    .transpose()
}

/// The enabled campaigns of rule `rule_id`.
pub async fn enabled_campaigns(ex: impl Exec<'_>, rule_id: &str) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT campaign_id FROM rule_campaigns WHERE rule_id = $1 AND enabled = 1 ORDER BY campaign_id",
    )
    .bind(rule_id)
    .fetch_all(ex)
    .await
}

/// The (ad group id, lower-case text, match type) of the non-deleted keywords of `org_key`
/// in `ad_groups` (where a rule adds keywords).
pub async fn keywords_in(
    ex: impl Exec<'_>,
    org_key: i64,
    ad_groups: &[i64],
) -> Result<HashSet<(i64, String, String)>, sqlx::Error> {
    if ad_groups.is_empty() {
        return Ok(HashSet::new());
    }
    let list = ad_groups
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT ad_group_id, text, match_type FROM asa_keywords \
         WHERE org_key = $1 AND deleted = 0 AND ad_group_id IN ({list})"
    )))
    .bind(org_key)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get(0)?,
                r.try_get::<String, _>(1)?.to_lowercase(),
                r.try_get(2)?,
            ))
        })
        .collect()
}

/// The (campaign id, ad group id, lower-case text, match type) of the non-deleted negative
/// keywords of `org_key` in `campaigns`.
pub async fn negatives_in(
    ex: impl Exec<'_>,
    org_key: i64,
    campaigns: &[i64],
) -> Result<HashSet<(i64, Option<i64>, String, String)>, sqlx::Error> {
    if campaigns.is_empty() {
        return Ok(HashSet::new());
    }
    let list = campaigns
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT campaign_id, ad_group_id, text, match_type FROM asa_negative_keywords \
         WHERE org_key = $1 AND deleted = 0 AND campaign_id IN ({list})"
    )))
    .bind(org_key)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get(0)?,
                r.try_get(1)?,
                r.try_get::<String, _>(2)?.to_lowercase(),
                r.try_get(3)?,
            ))
        })
        .collect()
}

/// The workspace of rule `rule_id`, if it exists (the job knows rules by id only).
pub async fn rule_workspace(
    ex: impl Exec<'_>,
    rule_id: &str,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT workspace_id FROM rules WHERE id = $1")
        .bind(rule_id)
        .fetch_optional(ex)
        .await
}

/// The non-deleted keywords of ad group `ad_group_id` of `org_key`: (lower-case text, match
/// type) → id.
pub async fn keyword_ids_in(
    ex: impl Exec<'_>,
    org_key: i64,
    ad_group_id: i64,
) -> Result<std::collections::HashMap<(String, String), i64>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, text, match_type FROM asa_keywords \
         WHERE org_key = $1 AND ad_group_id = $2 AND deleted = 0",
    )
    .bind(org_key)
    .bind(ad_group_id)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                (r.try_get::<String, _>(1)?.to_lowercase(), r.try_get(2)?),
                r.try_get(0)?,
            ))
        })
        .collect()
}
