//! Goal optimisation of campaigns (`campaign_optimizations`, migration
//! `20261129001000_rules.sql`; contract `docs/api/rules.md`, routes `optimization/*`): per
//! campaign of a campaign group, the type (`CPA_GOAL`, `CPT_GOAL`), the target in micros of the
//! group's currency (null: the ad groups' CPA goals) and the largest bid step per run. The
//! rules engine reads [`list`] to run the built-in "bid toward the target" rule; the
//! campaigns table reads [`of_campaigns`] for its `optimizationTypes` column.

use searchdeck_model::money::currency::MoneyRule;
use sqlx::Row;

use super::Exec;

/// Optimisation types.
pub const CPA_GOAL: &str = "CPA_GOAL";
pub const CPT_GOAL: &str = "CPT_GOAL";
pub const COST_PER_TRIAL_GOAL: &str = "COST_PER_TRIAL_GOAL";
pub const COST_PER_PURCHASE_GOAL: &str = "COST_PER_PURCHASE_GOAL";
pub const ROAS_GOAL: &str = "ROAS_GOAL";

/// Whether optimisation type `kind`'s target is a percentage (a ROAS) rather than money.
pub fn target_is_percent(kind: &str) -> bool {
    kind == ROAS_GOAL
}

/// A stored target as answered: money in the group's currency (`"2.50"`), or a
/// [`ROAS_GOAL`]'s percentage (`"120"`).
pub fn target_text(kind: &str, micros: i64, money: &MoneyRule) -> String {
    if target_is_percent(kind) {
        rust_decimal::Decimal::new(micros, 6)
            .normalize()
            .to_string()
    } else {
        money.micros(micros).to_string()
    }
}

/// Whether optimisation type `kind` reads the attributed conversions.
pub fn reads_conversions(kind: &str) -> bool {
    matches!(
        kind,
        COST_PER_TRIAL_GOAL | COST_PER_PURCHASE_GOAL | ROAS_GOAL
    )
}

/// One campaign's goal optimisation.
#[derive(Debug, Clone, PartialEq)]
pub struct Optimization {
    pub workspace_id: String,
    pub account_id: String,
    pub org_id: i64,
    pub campaign_id: i64,
    /// One of the types above.
    pub kind: String,
    /// Micros of the campaign group's currency; None: the ad groups' CPA goals. A
    /// [`ROAS_GOAL`]'s: micros of the percentage (120 % = 120,000,000).
    pub target_micros: Option<i64>,
    /// The days after the install a [`ROAS_GOAL`] is judged on (`roasD7`: 7); None otherwise.
    pub cohort_days: Option<i64>,
    /// Largest bid step per run, in percent (1–100).
    pub max_step_percent: i64,
    pub created_by_email: Option<String>,
    /// When it was turned on, or its type last changed (Unix seconds).
    pub enabled_at: i64,
    /// Unix seconds.
    pub updated_at: i64,
}

const COLUMNS: &str = "workspace_id, account_id, org_id, campaign_id, type, target_micros, \
     cohort_days, max_step_percent, created_by_email, enabled_at, updated_at";

fn decode(r: &sqlx::any::AnyRow) -> Result<Optimization, sqlx::Error> {
    Ok(Optimization {
        workspace_id: r.try_get("workspace_id")?,
        account_id: r.try_get("account_id")?,
        org_id: r.try_get("org_id")?,
        campaign_id: r.try_get("campaign_id")?,
        kind: r.try_get("type")?,
        target_micros: r.try_get("target_micros")?,
        cohort_days: r.try_get("cohort_days")?,
        max_step_percent: r.try_get("max_step_percent")?,
        created_by_email: r.try_get("created_by_email")?,
        enabled_at: r.try_get("enabled_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

/// Stores `o` as its campaign's optimisation (replacing one there; `enabled_at` is kept
/// unless the type changed).
pub async fn set(ex: impl Exec<'_>, o: &Optimization) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO campaign_optimizations (workspace_id, account_id, org_id, campaign_id, type, \
           target_micros, max_step_percent, created_by_email, enabled_at, updated_at, \
           cohort_days) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) \
         ON CONFLICT (workspace_id, account_id, org_id, campaign_id) DO UPDATE SET \
           enabled_at = CASE WHEN campaign_optimizations.type = excluded.type \
             THEN campaign_optimizations.enabled_at ELSE excluded.enabled_at END, \
           type = excluded.type, target_micros = excluded.target_micros, \
           max_step_percent = excluded.max_step_percent, updated_at = excluded.updated_at, \
           cohort_days = excluded.cohort_days",
    )
    .bind(&o.workspace_id)
    .bind(&o.account_id)
    .bind(o.org_id)
    .bind(o.campaign_id)
    .bind(&o.kind)
    .bind(o.target_micros)
    .bind(o.max_step_percent)
    .bind(&o.created_by_email)
    .bind(o.enabled_at)
    .bind(o.updated_at)
    .bind(o.cohort_days)
    .execute(ex)
    .await?;
    Ok(())
}

/// The optimisation of campaign `campaign_id` of (`account_id`, `org_id`) in `workspace_id`.
pub async fn get(
    ex: impl Exec<'_>,
    workspace_id: &str,
    account_id: &str,
    org_id: i64,
    campaign_id: i64,
) -> Result<Option<Optimization>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM campaign_optimizations \
         WHERE workspace_id = $1 AND account_id = $2 AND org_id = $3 AND campaign_id = $4"
    )))
    .bind(workspace_id)
    .bind(account_id)
    .bind(org_id)
    .bind(campaign_id)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(decode)
    .transpose()
}

/// Turns off the optimisation of one campaign, only when of type `kind` if given; false when
/// there was none.
pub async fn delete(
    ex: impl Exec<'_>,
    workspace_id: &str,
    account_id: &str,
    org_id: i64,
    campaign_id: i64,
    kind: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "DELETE FROM campaign_optimizations WHERE workspace_id = $1 AND account_id = $2 \
           AND org_id = $3 AND campaign_id = $4 AND ($5 IS NULL OR type = $5)",
    )
    .bind(workspace_id)
    .bind(account_id)
    .bind(org_id)
    .bind(campaign_id)
    .bind(kind)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// The optimised campaigns of `workspace_id`, narrowed to a connection and a campaign group
/// when given; by account, org, campaign.
pub async fn list(
    ex: impl Exec<'_>,
    workspace_id: &str,
    account_id: Option<&str>,
    org_id: Option<i64>,
) -> Result<Vec<Optimization>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM campaign_optimizations WHERE workspace_id = $1 \
           AND ($2 IS NULL OR account_id = $2) AND ($3 IS NULL OR org_id = $3) \
         ORDER BY account_id, org_id, campaign_id"
    )))
    .bind(workspace_id)
    .bind(account_id)
    .bind(org_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(decode)
    .collect()
}

/// The optimisations of `campaign_ids` in campaign group (`account_id`, `org_id`) of
/// `workspace_id`, by campaign.
pub async fn of_campaigns(
    ex: impl Exec<'_>,
    workspace_id: &str,
    account_id: &str,
    org_id: i64,
    campaign_ids: &[i64],
) -> Result<Vec<Optimization>, sqlx::Error> {
    if campaign_ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = campaign_ids
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM campaign_optimizations WHERE workspace_id = $1 \
           AND account_id = $2 AND org_id = $3 AND campaign_id IN ({list}) ORDER BY campaign_id"
    )))
    .bind(workspace_id)
    .bind(account_id)
    .bind(org_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(decode)
    .collect()
}
