//! Automated rules (`rules`, `rule_campaigns`, migration `20261129001000_rules.sql`;
//! contract `docs/api/rules.md`): a rule's schema-v1 JSON is kept whole in `body` and read
//! back into [`Rule`] with the columns the server owns (id, enabled, author, times); the
//! attached campaigns live in `rule_campaigns`.
//!
//! Beside the rows: the list with its filters ([`list`]), replacing a rule ([`replace`]:
//! `enabled_at` moves to now when it goes from disabled to enabled), deleting several
//! ([`delete_many`]), the attachments (attach, [`detach`], [`detach_except`],
//! [`detach_campaign_except`], [`toggle`]), what they feed (the campaigns of the rules of a
//! list, [`links`]; the rules of campaigns for the campaigns table, [`rules_of_campaigns`])
//! and the counts the plan limits read ([`count`], [`attached_campaigns`]) after
//! [`lock_workspace`] in the writer's transaction. A rule's
//! `lastRun` is not here: it comes from the runs the rules engine stores.

pub mod schema;

use sqlx::Row;

use super::{Exec, placeholders};
pub use schema::{Rule, RuleLevel};

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
    sqlx::query(sqlx::AssertSqlSafe(format!(
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

/// Integer ids inlined into SQL (no bind limit to mind).
fn id_list(ids: &[i64]) -> String {
    ids.iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ")
}

/// What [`list`] narrows the workspace's rules to (every field optional).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct RuleFilter {
    pub account_id: Option<String>,
    pub org_id: Option<i64>,
    /// Rules attached to this campaign.
    pub campaign_id: Option<i64>,
}

/// The rules of `workspace_id` that pass `filter`, newest first, each with its campaign
/// group's currency (`rule.currency`, from the synced org).
pub async fn list(
    ex: impl Exec<'_>,
    workspace_id: &str,
    filter: &RuleFilter,
) -> Result<Vec<RuleRow>, sqlx::Error> {
    let mut sql = format!(
        "SELECT {}, o.currency AS currency FROM rules r \
         LEFT JOIN sync_orgs o ON o.account_id = r.account_id AND o.org_id = r.org_id \
         WHERE r.workspace_id = $1",
        qualified()
    );
    let mut n = 1;
    if filter.account_id.is_some() {
        n += 1;
        sql.push_str(&format!(" AND r.account_id = ${n}"));
    }
    if filter.org_id.is_some() {
        n += 1;
        sql.push_str(&format!(" AND r.org_id = ${n}"));
    }
    if filter.campaign_id.is_some() {
        n += 1;
        sql.push_str(&format!(
            " AND EXISTS (SELECT 1 FROM rule_campaigns rc WHERE rc.rule_id = r.id AND rc.campaign_id = ${n})"
        ));
    }
    sql.push_str(" ORDER BY r.created_at DESC, r.id DESC");
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(workspace_id);
    if let Some(a) = &filter.account_id {
        q = q.bind(a.clone());
    }
    if let Some(o) = filter.org_id {
        q = q.bind(o);
    }
    if let Some(c) = filter.campaign_id {
        q = q.bind(c);
    }
    q.fetch_all(ex)
        .await?
        .iter()
        .map(|row| {
            let mut r = rule_row(row)?;
            r.rule.currency = row.try_get("currency")?;
            Ok(r)
        })
        .collect()
}

/// [`COLUMNS`] qualified by the alias `r`.
fn qualified() -> String {
    COLUMNS
        .split(',')
        .map(|c| format!("r.{}", c.trim()))
        .collect::<Vec<_>>()
        .join(", ")
}

/// Replaces rule `rule.id` of `workspace_id` with `rule` (its scope, name, level, enabled
/// flag and body; `updated_at` = `now`); `enabled_at` becomes `now` when the rule goes from
/// disabled to enabled. False when there is no such rule.
pub async fn replace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    rule: &Rule,
    org_id: i64,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE rules SET account_id = $3, org_id = $4, name = $5, level = $6, \
           enabled_at = CASE WHEN enabled = 0 AND $7 = 1 THEN $9 ELSE enabled_at END, \
           enabled = $7, body = $8, updated_at = $9 \
         WHERE workspace_id = $1 AND id = $2",
    )
    .bind(workspace_id)
    .bind(&rule.id)
    .bind(&rule.account_id)
    .bind(org_id)
    .bind(&rule.name)
    .bind(rule.level.as_str())
    .bind(i64::from(rule.enabled))
    .bind(body(rule)?)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Deletes the rules `ids` of `workspace_id` (their attachments go with them); returns how
/// many were deleted.
pub async fn delete_many(
    ex: impl Exec<'_>,
    workspace_id: &str,
    ids: &[String],
) -> Result<u64, sqlx::Error> {
    if ids.is_empty() {
        return Ok(0);
    }
    let sql = format!(
        "DELETE FROM rules WHERE workspace_id = $1 AND id IN ({})",
        placeholders(2, ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(workspace_id);
    for id in ids {
        q = q.bind(id.clone());
    }
    Ok(q.execute(ex).await?.rows_affected())
}

/// Which of `ids` are rules of `workspace_id`.
pub async fn existing(
    ex: impl Exec<'_>,
    workspace_id: &str,
    ids: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT id FROM rules WHERE workspace_id = $1 AND id IN ({}) ORDER BY id",
        placeholders(2, ids.len())
    );
    let mut q = sqlx::query_scalar(sqlx::AssertSqlSafe(sql)).bind(workspace_id);
    for id in ids {
        q = q.bind(id.clone());
    }
    q.fetch_all(ex).await
}

/// Detaches rule `rule_id` from `campaign_id`; false when it was not attached.
pub async fn detach(
    ex: impl Exec<'_>,
    rule_id: &str,
    campaign_id: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM rule_campaigns WHERE rule_id = $1 AND campaign_id = $2")
        .bind(rule_id)
        .bind(campaign_id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// Detaches rule `rule_id` from every campaign but `keep`; returns how many it left.
pub async fn detach_except(
    ex: impl Exec<'_>,
    rule_id: &str,
    keep: &[i64],
) -> Result<u64, sqlx::Error> {
    let sql = if keep.is_empty() {
        "DELETE FROM rule_campaigns WHERE rule_id = $1".to_string()
    } else {
        format!(
            "DELETE FROM rule_campaigns WHERE rule_id = $1 AND campaign_id NOT IN ({})",
            id_list(keep)
        )
    };
    Ok(sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(rule_id)
        .execute(ex)
        .await?
        .rows_affected())
}

/// Detaches campaign `campaign_id` from every rule of `workspace_id` but `keep`; returns how
/// many rules it left.
pub async fn detach_campaign_except(
    ex: impl Exec<'_>,
    workspace_id: &str,
    campaign_id: i64,
    keep: &[String],
) -> Result<u64, sqlx::Error> {
    let mut sql = "DELETE FROM rule_campaigns WHERE campaign_id = $2 AND rule_id IN \
                   (SELECT id FROM rules WHERE workspace_id = $1)"
        .to_string();
    if !keep.is_empty() {
        sql.push_str(&format!(
            " AND rule_id NOT IN ({})",
            placeholders(3, keep.len())
        ));
    }
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(campaign_id);
    for id in keep {
        q = q.bind(id.clone());
    }
    Ok(q.execute(ex).await?.rows_affected())
}

/// Turns rule `rule_id` on or off for one attached campaign; false when it is not attached.
pub async fn toggle(
    ex: impl Exec<'_>,
    rule_id: &str,
    campaign_id: i64,
    enabled: bool,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE rule_campaigns SET enabled = $3 WHERE rule_id = $1 AND campaign_id = $2",
    )
    .bind(rule_id)
    .bind(campaign_id)
    .bind(i64::from(enabled))
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Every attachment of the rules of `workspace_id`: (rule id, campaign id, on for it), by
/// rule then campaign.
pub async fn links(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<(String, i64, bool)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT rc.rule_id, rc.campaign_id, rc.enabled FROM rule_campaigns rc \
         JOIN rules r ON r.id = rc.rule_id WHERE r.workspace_id = $1 \
         ORDER BY rc.rule_id, rc.campaign_id",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("rule_id")?,
                r.try_get("campaign_id")?,
                r.try_get::<i64, _>("enabled")? != 0,
            ))
        })
        .collect()
}

/// A rule as the campaigns table's `rules` column shows it.
#[derive(Debug, Clone, PartialEq, serde::Serialize, utoipa::ToSchema)]
pub struct RuleRef {
    pub id: String,
    pub name: String,
    /// Whether the rule acts on the campaign: enabled, and not turned off for it.
    pub enabled: bool,
}

/// The rules of `workspace_id` in campaign group (`account_id`, `org_id`) attached to each of
/// `campaign_ids`: (campaign id, rule), by campaign then rule name.
pub async fn rules_of_campaigns(
    ex: impl Exec<'_>,
    workspace_id: &str,
    account_id: &str,
    org_id: i64,
    campaign_ids: &[i64],
) -> Result<Vec<(i64, RuleRef)>, sqlx::Error> {
    if campaign_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT rc.campaign_id, r.id, r.name, r.enabled, rc.enabled AS on_campaign \
         FROM rule_campaigns rc JOIN rules r ON r.id = rc.rule_id \
         WHERE r.workspace_id = $1 AND r.account_id = $2 AND r.org_id = $3 \
           AND rc.campaign_id IN ({}) ORDER BY rc.campaign_id, r.name, r.id",
        id_list(campaign_ids)
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(account_id)
        .bind(org_id)
        .fetch_all(ex)
        .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("campaign_id")?,
                RuleRef {
                    id: r.try_get("id")?,
                    name: r.try_get("name")?,
                    enabled: r.try_get::<i64, _>("enabled")? != 0
                        && r.try_get::<i64, _>("on_campaign")? != 0,
                },
            ))
        })
        .collect()
}

/// Serialises the rule writes of one workspace that plan limits bound: a no-op update of
/// the workspace's row, which takes its row lock on PostgreSQL and the write lock on SQLite,
/// so that a count of rules or attached campaigns and the insert after it, in the same
/// transaction, cannot be raced past the limit by a concurrent request.
pub async fn lock_workspace(ex: impl Exec<'_>, workspace_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE workspaces SET name = name WHERE id = $1")
        .bind(workspace_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// How many rules `workspace_id` has (plan limit `AVAILABLERULES`).
pub async fn count(ex: impl Exec<'_>, workspace_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT COUNT(*) FROM rules WHERE workspace_id = $1")
        .bind(workspace_id)
        .fetch_one(ex)
        .await
}

/// The distinct campaigns with at least one rule of `workspace_id` attached (plan limit
/// `AVAILABLERULESCAMPAIGNS`), by id.
pub async fn attached_campaigns(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT DISTINCT rc.campaign_id FROM rule_campaigns rc JOIN rules r ON r.id = rc.rule_id \
         WHERE r.workspace_id = $1 ORDER BY rc.campaign_id",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await
}
