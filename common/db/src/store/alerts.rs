//! Alerts (`alerts`, migration `20261129001000_rules.sql`; contract `docs/api/rules.md`
//! "Alerts"): what a rule's alert action, a rule that paused itself and the sync's view of a
//! campaign raise. One alert per cause and workspace (`cause_key`); [`insert`] is how every
//! raiser stores one, in the transaction that pushes its `deliver-alert` job
//! ([`crate::jobs::DeliverAlert`]).
//!
//! The API lists a workspace's alerts ([`list`], not dismissed, newest first) and dismisses
//! them ([`dismiss`]); the `deliver-alert` job reads one ([`get`]) and records what it sent
//! ([`mark_emailed`], [`mark_slack_sent`]) so that a retry sends nothing twice.

use sqlx::Row;

use super::Exec;

/// Alert kinds.
pub const RULE: &str = "RULE";
pub const RULE_PAUSED: &str = "RULE_PAUSED";
/// A run the collapse guard stopped before it acted (`rules::run::collapse_guard`).
pub const RULE_STOPPED: &str = "RULE_STOPPED";
pub const BUDGET_EXHAUSTED: &str = "BUDGET_EXHAUSTED";
pub const AD_GROUP_MISSING: &str = "AD_GROUP_MISSING";
pub const PAUSED_BY_SYSTEM: &str = "PAUSED_BY_SYSTEM";

/// An alert to raise.
#[derive(Debug, Clone, PartialEq)]
pub struct NewAlert {
    pub id: String,
    pub workspace_id: String,
    /// One of the kinds above.
    pub kind: &'static str,
    /// What raised it; a second alert of the same cause is not stored.
    pub cause_key: String,
    pub account_id: Option<String>,
    pub org_id: Option<i64>,
    pub campaign_id: Option<i64>,
    pub rule_id: Option<String>,
    pub run_id: Option<String>,
    pub title: String,
    pub message: String,
    /// Email recipients (empty: the workspace's owners and admins).
    pub emails: Vec<String>,
    /// Whether to email it and post it to the workspace's Slack webhook.
    pub email: bool,
    pub slack: bool,
    /// Unix seconds.
    pub created_at: i64,
}

/// Stores `alert` unless one of the same cause exists in its workspace; returns whether it
/// was stored (the caller then pushes its delivery job in the same transaction).
pub async fn insert(ex: impl Exec<'_>, alert: &NewAlert) -> Result<bool, sqlx::Error> {
    let emails =
        serde_json::to_string(&alert.emails).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
    let done = sqlx::query(
        "INSERT INTO alerts (id, workspace_id, kind, cause_key, account_id, org_id, campaign_id, \
           rule_id, run_id, title, message, emails, email, slack, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15) \
         ON CONFLICT (workspace_id, cause_key) DO NOTHING",
    )
    .bind(&alert.id)
    .bind(&alert.workspace_id)
    .bind(alert.kind)
    .bind(&alert.cause_key)
    .bind(&alert.account_id)
    .bind(alert.org_id)
    .bind(alert.campaign_id)
    .bind(&alert.rule_id)
    .bind(&alert.run_id)
    .bind(&alert.title)
    .bind(&alert.message)
    .bind(emails)
    .bind(i64::from(alert.email))
    .bind(i64::from(alert.slack))
    .bind(alert.created_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// A stored alert.
#[derive(Debug, Clone, PartialEq)]
pub struct AlertRow {
    pub id: String,
    pub workspace_id: String,
    pub kind: String,
    pub account_id: Option<String>,
    pub org_id: Option<i64>,
    pub campaign_id: Option<i64>,
    pub rule_id: Option<String>,
    pub run_id: Option<String>,
    pub title: String,
    pub message: String,
    /// Email recipients (empty: the workspace's owners and admins).
    pub emails: Vec<String>,
    pub email: bool,
    pub slack: bool,
    /// Unix seconds.
    pub created_at: i64,
    pub dismissed_at: Option<i64>,
    /// When the delivery job queued its emails / posted it to Slack (Unix seconds).
    pub emailed_at: Option<i64>,
    pub slack_sent_at: Option<i64>,
}

const COLUMNS: &str = "id, workspace_id, kind, account_id, org_id, campaign_id, rule_id, run_id, \
     title, message, emails, email, slack, created_at, dismissed_at, emailed_at, slack_sent_at";

fn decode(r: &sqlx::any::AnyRow) -> Result<AlertRow, sqlx::Error> {
    let emails: String = r.try_get("emails")?;
    Ok(AlertRow {
        id: r.try_get("id")?,
        workspace_id: r.try_get("workspace_id")?,
        kind: r.try_get("kind")?,
        account_id: r.try_get("account_id")?,
        org_id: r.try_get("org_id")?,
        campaign_id: r.try_get("campaign_id")?,
        rule_id: r.try_get("rule_id")?,
        run_id: r.try_get("run_id")?,
        title: r.try_get("title")?,
        message: r.try_get("message")?,
        emails: serde_json::from_str(&emails).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
        email: r.try_get::<i64, _>("email")? != 0,
        slack: r.try_get::<i64, _>("slack")? != 0,
        created_at: r.try_get("created_at")?,
        dismissed_at: r.try_get("dismissed_at")?,
        emailed_at: r.try_get("emailed_at")?,
        slack_sent_at: r.try_get("slack_sent_at")?,
    })
}

/// Most alerts [`list`] answers.
pub const LIST_MAX: i64 = 500;

/// The alerts of `workspace_id` not dismissed, newest first (at most [`LIST_MAX`]); only
/// those of `campaign_ids` when given.
pub async fn list(
    ex: impl Exec<'_>,
    workspace_id: &str,
    campaign_ids: Option<&[i64]>,
) -> Result<Vec<AlertRow>, sqlx::Error> {
    let only = match campaign_ids {
        Some([]) => return Ok(Vec::new()),
        Some(ids) => format!(
            " AND campaign_id IN ({})",
            ids.iter()
                .map(i64::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        ),
        None => String::new(),
    };
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM alerts WHERE workspace_id = $1 AND dismissed_at IS NULL{only} \
         ORDER BY created_at DESC, id DESC LIMIT {LIST_MAX}"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(decode)
    .collect()
}

/// Alert `id`, whatever its workspace (the delivery job's read).
pub async fn get(ex: impl Exec<'_>, id: &str) -> Result<Option<AlertRow>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM alerts WHERE id = $1"
    )))
    .bind(id)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(decode)
    .transpose()
}

/// Which of `ids` are alerts of `workspace_id` not dismissed yet.
pub async fn open_ids(
    ex: impl Exec<'_>,
    workspace_id: &str,
    ids: &[String],
) -> Result<Vec<String>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let marks = (2..ids.len() + 2)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut q = sqlx::query_scalar(sqlx::AssertSqlSafe(format!(
        "SELECT id FROM alerts WHERE workspace_id = $1 AND dismissed_at IS NULL AND id IN ({marks}) \
         ORDER BY id"
    )))
    .bind(workspace_id);
    for id in ids {
        q = q.bind(id.clone());
    }
    q.fetch_all(ex).await
}

/// Dismisses the alerts `ids` of `workspace_id` (those not dismissed yet) at `now`; returns
/// how many it dismissed.
pub async fn dismiss(
    ex: impl Exec<'_>,
    workspace_id: &str,
    ids: &[String],
    now: i64,
) -> Result<u64, sqlx::Error> {
    if ids.is_empty() {
        return Ok(0);
    }
    let marks = (3..ids.len() + 3)
        .map(|i| format!("${i}"))
        .collect::<Vec<_>>()
        .join(", ");
    let mut q = sqlx::query(sqlx::AssertSqlSafe(format!(
        "UPDATE alerts SET dismissed_at = $2 WHERE workspace_id = $1 AND dismissed_at IS NULL \
         AND id IN ({marks})"
    )))
    .bind(workspace_id)
    .bind(now);
    for id in ids {
        q = q.bind(id.clone());
    }
    Ok(q.execute(ex).await?.rows_affected())
}

/// Records that the emails of alert `id` were queued at `now`.
pub async fn mark_emailed(ex: impl Exec<'_>, id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE alerts SET emailed_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Records that alert `id` was posted to Slack at `now`.
pub async fn mark_slack_sent(ex: impl Exec<'_>, id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE alerts SET slack_sent_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}
