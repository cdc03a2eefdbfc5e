//! Automated rules (`rules`, `rule_campaigns`, migration `20261129001000_rules.sql`;
//! contract `docs/api/rules.md`): a rule's schema-v1 JSON is kept whole in `body` and read
//! back into [`Rule`] with the columns the server owns (id, enabled, author, times); the
//! attached campaigns live in `rule_campaigns`.

use sqlx::{AssertSqlSafe, Row};

use super::Exec;
use crate::rules::{Rule, RuleLevel};

/// A stored rule with what only the store knows.
#[derive(Debug, Clone, PartialEq)]
pub struct RuleRow {
    pub workspace_id: String,
    pub created_by_user_id: Option<String>,
    /// When the rule was created or last enabled (Unix seconds).
    pub enabled_at: i64,
    /// The rule as the API answers it (without `campaignIds`, `currency` and `lastRun`,
    /// which come from other tables).
    pub rule: Rule,
}

const COLUMNS: &str = "id, workspace_id, account_id, org_id, name, level, enabled, body, \
    created_by_user_id, created_by_email, created_at, updated_at, enabled_at";

fn rule_row(row: &sqlx::any::AnyRow) -> Result<RuleRow, sqlx::Error> {
    let body: String = row.try_get("body")?;
    let mut rule: Rule =
        serde_json::from_str(&body).map_err(|e| sqlx::Error::Decode(Box::new(e)))?;
    rule.id = row.try_get("id")?;
    rule.account_id = row.try_get("account_id")?;
    rule.org_id = row.try_get::<i64, _>("org_id")?.to_string();
    rule.name = row.try_get("name")?;
    rule.enabled = row.try_get::<i64, _>("enabled")? != 0;
    rule.created_by = row.try_get("created_by_email")?;
    rule.created_at = row.try_get("created_at")?;
    rule.updated_at = row.try_get("updated_at")?;
    rule.campaign_ids = None;
    Ok(RuleRow {
        workspace_id: row.try_get("workspace_id")?,
        created_by_user_id: row.try_get("created_by_user_id")?,
        enabled_at: row.try_get("enabled_at")?,
        rule,
    })
}

/// The JSON kept in `body`: the rule without what the columns or other tables hold.
fn body(rule: &Rule) -> Result<String, sqlx::Error> {
    let mut stored = rule.clone();
    stored.campaign_ids = None;
    stored.last_run = None;
    stored.currency = None;
    serde_json::to_string(&stored).map_err(|e| sqlx::Error::Encode(Box::new(e)))
}

/// Stores a new rule `rule` (its `id`, `created_at`, `updated_at` set by the caller) of
/// `workspace_id`, written by `user_id`.
pub async fn insert(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: Option<&str>,
    rule: &Rule,
    org_id: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO rules (id, workspace_id, account_id, org_id, name, level, enabled, body, \
           created_by_user_id, created_by_email, created_at, updated_at, enabled_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(&rule.id)
    .bind(workspace_id)
    .bind(&rule.account_id)
    .bind(org_id)
    .bind(&rule.name)
    .bind(rule.level.as_str())
    .bind(i64::from(rule.enabled))
    .bind(body(rule)?)
    .bind(user_id)
    .bind(&rule.created_by)
    .bind(rule.created_at)
    .bind(rule.updated_at)
    .bind(rule.created_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Rule `id` of `workspace_id`.
pub async fn get(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<RuleRow>, sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM rules WHERE workspace_id = $1 AND id = $2"
    )))
    .bind(workspace_id)
    .bind(id)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(rule_row)
    .transpose()
}

/// The campaigns rule `rule_id` is attached to, with whether it is on for each, by id.
pub async fn campaigns(ex: impl Exec<'_>, rule_id: &str) -> Result<Vec<(i64, bool)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT campaign_id, enabled FROM rule_campaigns WHERE rule_id = $1 ORDER BY campaign_id",
    )
    .bind(rule_id)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("campaign_id")?,
                r.try_get::<i64, _>("enabled")? != 0,
            ))
        })
        .collect()
}

/// Attaches rule `rule_id` to `campaign_id` (kept as it is when already attached).
pub async fn attach(
    ex: impl Exec<'_>,
    rule_id: &str,
    campaign_id: i64,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO rule_campaigns (rule_id, campaign_id, enabled, created_at) \
         VALUES ($1, $2, 1, $3) ON CONFLICT (rule_id, campaign_id) DO NOTHING",
    )
    .bind(rule_id)
    .bind(campaign_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The level stored for a rule, by its wire name.
pub fn level(text: &str) -> Option<RuleLevel> {
    serde_json::from_value(serde_json::Value::String(text.to_string())).ok()
}
