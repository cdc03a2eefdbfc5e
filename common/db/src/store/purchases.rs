//! A workspace's purchases (`purchases`; docs/product.md#3-purchase, docs/api/plans.md): the plans
//! bought and the trials started, which the plan is derived from (`plan::derive`). Each
//! trial kind can be had once per workspace; the unique index refuses a second, so a
//! racing second start fails in the database rather than in a check before it.

use sqlx::Row;

use super::Exec;
use serde::Serialize;
use utoipa::ToSchema;

/// Which trial a trial purchase is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum TrialKind {
    /// The 14-day Pro trial (`usedTrial`; `pay/giveMeTrial`).
    Pro,
    /// The pre-trial (`usedPreTrial`; plan `pro_free_trial`).
    Pre,
    /// The 30-day Growth trial (`usedGrowthTrial`).
    Growth,
}

impl TrialKind {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            TrialKind::Pro => "pro",
            TrialKind::Pre => "pre",
            TrialKind::Growth => "growth",
        }
    }

    /// The kind of a stored name.
    pub fn parse(text: &str) -> Option<TrialKind> {
        [TrialKind::Pro, TrialKind::Pre, TrialKind::Growth]
            .into_iter()
            .find(|k| k.as_str() == text)
    }
}

/// A purchase with its flags (docs/product.md#3-purchase).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Purchase {
    pub id: String,
    /// The plan's name (`pro`, `growth`, `agency`, `free`).
    pub name: String,
    pub free: bool,
    pub trial: bool,
    pub full: bool,
    pub organization: bool,
    /// Which trial this row is, for a trial.
    pub trial_kind: Option<TrialKind>,
    pub suggester: bool,
    pub payment_failed: bool,
    pub started_at: i64,
    /// The plan's end (`offAccountTime`); None: no end.
    pub off_account_time: Option<i64>,
}

impl Purchase {
    /// The trial this purchase is, if it is one (rows without a recorded kind: a Growth
    /// trial when for an organisation, else the Pro trial).
    pub fn trial(&self) -> Option<TrialKind> {
        if !self.trial {
            return None;
        }
        Some(self.trial_kind.unwrap_or(if self.organization {
            TrialKind::Growth
        } else {
            TrialKind::Pro
        }))
    }
}

const COLUMNS: &str = "id, name, is_free, is_trial, is_full, is_organization, trial_kind, \
                       suggester, payment_failed, started_at, off_account_time";

/// Stores a purchase of `workspace_id`. A second trial of a kind the workspace has had is
/// refused with the database's unique violation (see [`crate::Db::is_unique_violation`]).
pub async fn insert(
    ex: impl Exec<'_>,
    workspace_id: &str,
    p: &Purchase,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO purchases (id, workspace_id, name, is_free, is_trial, is_full, is_organization, \
         trial_kind, suggester, payment_failed, started_at, off_account_time, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)",
    )
    .bind(&p.id)
    .bind(workspace_id)
    .bind(&p.name)
    .bind(i64::from(p.free))
    .bind(i64::from(p.trial))
    .bind(i64::from(p.full))
    .bind(i64::from(p.organization))
    .bind(p.trial_kind.map(TrialKind::as_str))
    .bind(i64::from(p.suggester))
    .bind(i64::from(p.payment_failed))
    .bind(p.started_at)
    .bind(p.off_account_time)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Every purchase of `workspace_id`, newest first (by start, then id).
pub async fn all(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<Purchase>, sqlx::Error> {
    let rows = sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM purchases WHERE workspace_id = $1 ORDER BY started_at DESC, id DESC"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            let flag =
                |name: &str| -> Result<bool, sqlx::Error> { Ok(r.try_get::<i64, _>(name)? != 0) };
            let kind: Option<String> = r.try_get("trial_kind")?;
            Ok(Purchase {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                free: flag("is_free")?,
                trial: flag("is_trial")?,
                full: flag("is_full")?,
                organization: flag("is_organization")?,
                trial_kind: kind.as_deref().and_then(TrialKind::parse),
                suggester: flag("suggester")?,
                payment_failed: flag("payment_failed")?,
                started_at: r.try_get("started_at")?,
                off_account_time: r.try_get("off_account_time")?,
            })
        })
        .collect()
}

/// Marks the payment of purchase `id` of `workspace_id` failed or not (billing sets it when
/// a renewal fails or is paid); false when no such purchase.
pub async fn set_payment_failed(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
    failed: bool,
) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("UPDATE purchases SET payment_failed = $1 WHERE workspace_id = $2 AND id = $3")
            .bind(i64::from(failed))
            .bind(workspace_id)
            .bind(id)
            .execute(ex)
            .await?;
    Ok(done.rows_affected() > 0)
}
