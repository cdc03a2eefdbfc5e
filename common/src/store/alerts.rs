//! Alerts (`alerts`, migration `20261129001000_rules.sql`; contract `docs/api/rules.md`
//! "Alerts"): what a rule's alert action, a rule that paused itself and the sync's view of a
//! campaign raise. One alert per cause and workspace (`cause_key`); [`insert`] is how every
//! raiser stores one, in the transaction that pushes its `deliver-alert` job
//! ([`crate::jobs::DeliverAlert`]).

use super::Exec;

/// Alert kinds.
pub const RULE: &str = "RULE";
pub const RULE_PAUSED: &str = "RULE_PAUSED";
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
