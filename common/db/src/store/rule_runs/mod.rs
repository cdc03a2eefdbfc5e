//! Runs of automated rules and goal optimisations (`rule_runs`, `rule_run_items`, migration
//! `20261129003000_rule_runs.sql`; contract `docs/api/rules.md` "A run"), and the reads the
//! run-rule job and the scheduler need of rules and optimisations.
//!
//! A run is keyed by (`rule_key`, `period`): [`insert_run`] stores it with every planned
//! item in the caller's transaction, or finds the one stored before (a job run again after
//! its worker died resumes that plan, never plans twice). Items keep absolute old and new
//! values; their results move from `PLANNED` as the job sends them.

mod progress;
mod scheduled;

use std::collections::{BTreeMap, HashMap, HashSet};

use sqlx::{AssertSqlSafe, Row};

use crate::store::Exec;

pub use progress::{
    entity_names, fail_unfinished, finish, items, set_item, set_status, set_undone,
};
pub use scheduled::{
    Optimization, ScheduledRule, disable_rule, enabled_campaigns, keyword_ids_in, keywords_in,
    negatives_in, optimization_key, optimization_of, optimizations, parse_optimization_key,
    rule_workspace, scheduled_rules,
};

/// Run statuses.
pub const PLANNED: &str = "PLANNED";
pub const APPLYING: &str = "APPLYING";
pub const DONE: &str = "DONE";
pub const SKIPPED: &str = "SKIPPED";
pub const FAILED: &str = "FAILED";

/// Item results.
pub const ITEM_PLANNED: &str = "PLANNED";
pub const ITEM_APPLIED: &str = "APPLIED";
pub const ITEM_REFUSED: &str = "REFUSED";
pub const ITEM_SKIPPED: &str = "SKIPPED";
pub const ITEM_UNDONE: &str = "UNDONE";

/// A run as stored (without its items).
#[derive(Debug, Clone, PartialEq)]
pub struct RunRow {
    pub id: String,
    pub workspace_id: String,
    pub rule_key: String,
    pub rule_id: Option<String>,
    pub account_id: String,
    pub org_id: i64,
    /// `auto_rules` or `goal_optimization`.
    pub source: String,
    pub rule_name: String,
    /// The rule as evaluated (schema-v1 JSON).
    pub body: String,
    pub currency: Option<String>,
    /// SCHEDULE, MANUAL, UNDO.
    pub trigger: String,
    pub period: String,
    pub status: String,
    pub reason: Option<String>,
    pub window_start: Option<String>,
    pub window_end: Option<String>,
    pub newest_complete_day: Option<String>,
    /// The Cohort metrics the run judged and the installs each read (JSON
    /// `[{metric, ageDays, from, through}]`; None when the rule names none).
    pub cohorts: Option<String>,
    pub matched: i64,
    pub applied: i64,
    pub refused: i64,
    pub skipped: i64,
    pub undo_of: Option<String>,
    pub undone_by: Option<String>,
    pub user_id: Option<String>,
    pub user_email: Option<String>,
    pub created_at: i64,
    pub started_at: i64,
    pub finished_at: Option<i64>,
}

/// One item of a run.
#[derive(Debug, Clone, PartialEq)]
pub struct ItemRow {
    pub seq: i64,
    /// CAMPAIGN, AD_GROUP, KEYWORD, SEARCH_TERM.
    pub level: String,
    pub entity_id: i64,
    pub name: String,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    /// The metric values that matched, by name (decimal strings or null).
    pub values: BTreeMap<String, serde_json::Value>,
    pub action: String,
    pub field: String,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    /// Creations: where and what (`{campaignId, adGroupId, text, matchType, bid}`) and the
    /// created id once known.
    pub detail: Option<serde_json::Value>,
    pub result: String,
    pub message: Option<String>,
}

const RUN_COLUMNS: &str = "id, workspace_id, rule_key, rule_id, account_id, org_id, source, \
    rule_name, body, currency, trigger, period, status, reason, window_start, window_end, \
    newest_complete_day, cohorts, matched, applied, refused, skipped, undo_of, undone_by, \
    user_id, user_email, created_at, started_at, finished_at";

fn run_row(r: &sqlx::any::AnyRow) -> Result<RunRow, sqlx::Error> {
    Ok(RunRow {
        id: r.try_get("id")?,
        workspace_id: r.try_get("workspace_id")?,
        rule_key: r.try_get("rule_key")?,
        rule_id: r.try_get("rule_id")?,
        account_id: r.try_get("account_id")?,
        org_id: r.try_get("org_id")?,
        source: r.try_get("source")?,
        rule_name: r.try_get("rule_name")?,
        body: r.try_get("body")?,
        currency: r.try_get("currency")?,
        trigger: r.try_get("trigger")?,
        period: r.try_get("period")?,
        status: r.try_get("status")?,
        reason: r.try_get("reason")?,
        window_start: r.try_get("window_start")?,
        window_end: r.try_get("window_end")?,
        newest_complete_day: r.try_get("newest_complete_day")?,
        cohorts: r.try_get("cohorts")?,
        matched: r.try_get("matched")?,
        applied: r.try_get("applied")?,
        refused: r.try_get("refused")?,
        skipped: r.try_get("skipped")?,
        undo_of: r.try_get("undo_of")?,
        undone_by: r.try_get("undone_by")?,
        user_id: r.try_get("user_id")?,
        user_email: r.try_get("user_email")?,
        created_at: r.try_get("created_at")?,
        started_at: r.try_get("started_at")?,
        finished_at: r.try_get("finished_at")?,
    })
}

fn item_row(r: &sqlx::any::AnyRow) -> Result<ItemRow, sqlx::Error> {
    let vals: String = r.try_get("vals")?;
    let detail: Option<String> = r.try_get("detail")?;
    let decode = |e: serde_json::Error| sqlx::Error::Decode(Box::new(e));
    Ok(ItemRow {
        seq: r.try_get("seq")?,
        level: r.try_get("level")?,
        entity_id: r.try_get("entity_id")?,
        name: r.try_get("name")?,
        campaign_id: r.try_get("campaign_id")?,
        ad_group_id: r.try_get("ad_group_id")?,
        values: serde_json::from_str(&vals).map_err(decode)?,
        action: r.try_get("action")?,
        field: r.try_get("field")?,
        old_value: r.try_get("old_value")?,
        new_value: r.try_get("new_value")?,
        detail: detail
            .map(|d| serde_json::from_str(&d))
            .transpose()
            .map_err(decode)?,
        result: r.try_get("result")?,
        message: r.try_get("message")?,
    })
}

/// Stores `run` unless a run of the same (`rule_key`, `period`) exists; returns whether it
/// was stored. The caller stores its items with [`insert_items`] in the same transaction.
pub async fn insert_run(ex: impl Exec<'_>, run: &RunRow) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO rule_runs (id, workspace_id, rule_key, rule_id, account_id, org_id, source, \
           rule_name, body, currency, trigger, period, status, reason, window_start, window_end, \
           newest_complete_day, cohorts, matched, applied, refused, skipped, undo_of, undone_by, \
           user_id, user_email, created_at, started_at, finished_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
           $19, $20, $21, $22, $23, $24, $25, $26, $27, $28, $29) \
         ON CONFLICT (rule_key, period) DO NOTHING",
    )
    .bind(&run.id)
    .bind(&run.workspace_id)
    .bind(&run.rule_key)
    .bind(&run.rule_id)
    .bind(&run.account_id)
    .bind(run.org_id)
    .bind(&run.source)
    .bind(&run.rule_name)
    .bind(&run.body)
    .bind(&run.currency)
    .bind(&run.trigger)
    .bind(&run.period)
    .bind(&run.status)
    .bind(&run.reason)
    .bind(&run.window_start)
    .bind(&run.window_end)
    .bind(&run.newest_complete_day)
    .bind(&run.cohorts)
    .bind(run.matched)
    .bind(run.applied)
    .bind(run.refused)
    .bind(run.skipped)
    .bind(&run.undo_of)
    .bind(&run.undone_by)
    .bind(&run.user_id)
    .bind(&run.user_email)
    .bind(run.created_at)
    .bind(run.started_at)
    .bind(run.finished_at)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Stores the items of run `run_id` (their `seq` as given).
pub async fn insert_items(
    conn: &mut sqlx::AnyConnection,
    run_id: &str,
    items: &[ItemRow],
) -> Result<(), sqlx::Error> {
    for i in items {
        let vals =
            serde_json::to_string(&i.values).map_err(|e| sqlx::Error::Encode(Box::new(e)))?;
        sqlx::query(
            "INSERT INTO rule_run_items (run_id, seq, level, entity_id, name, campaign_id, \
               ad_group_id, vals, action, field, old_value, new_value, detail, result, message) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15)",
        )
        .bind(run_id)
        .bind(i.seq)
        .bind(&i.level)
        .bind(i.entity_id)
        .bind(&i.name)
        .bind(i.campaign_id)
        .bind(i.ad_group_id)
        .bind(vals)
        .bind(&i.action)
        .bind(&i.field)
        .bind(&i.old_value)
        .bind(&i.new_value)
        .bind(i.detail.as_ref().map(|d| d.to_string()))
        .bind(&i.result)
        .bind(&i.message)
        .execute(&mut *conn)
        .await?;
    }
    Ok(())
}

/// The run of (`rule_key`, `period`), if stored.
pub async fn by_period(
    ex: impl Exec<'_>,
    rule_key: &str,
    period: &str,
) -> Result<Option<RunRow>, sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "SELECT {RUN_COLUMNS} FROM rule_runs WHERE rule_key = $1 AND period = $2"
    )))
    .bind(rule_key)
    .bind(period)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(run_row)
    .transpose()
}

/// Run `id` of `workspace_id`.
pub async fn get(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<RunRow>, sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "SELECT {RUN_COLUMNS} FROM rule_runs WHERE workspace_id = $1 AND id = $2"
    )))
    .bind(workspace_id)
    .bind(id)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(run_row)
    .transpose()
}

/// The runs of `rule_key` in `workspace_id`, newest first, one page (`page` from 1), and
/// how many there are.
pub async fn of_rule(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
    rule_key: &str,
    page: u32,
    page_size: u32,
) -> Result<(Vec<RunRow>, i64), sqlx::Error> {
    let total: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM rule_runs WHERE workspace_id = $1 AND rule_key = $2",
    )
    .bind(workspace_id)
    .bind(rule_key)
    .fetch_one(&mut *ex)
    .await?;
    let rows = sqlx::query(AssertSqlSafe(format!(
        "SELECT {RUN_COLUMNS} FROM rule_runs WHERE workspace_id = $1 AND rule_key = $2 \
         ORDER BY created_at DESC, id DESC LIMIT $3 OFFSET $4"
    )))
    .bind(workspace_id)
    .bind(rule_key)
    .bind(i64::from(page_size))
    .bind(i64::from(page.saturating_sub(1)) * i64::from(page_size))
    .fetch_all(&mut *ex)
    .await?;
    Ok((rows.iter().map(run_row).collect::<Result<_, _>>()?, total))
}

/// The latest run of `rule_key` (the rules list's `lastRun`).
pub async fn latest(ex: impl Exec<'_>, rule_key: &str) -> Result<Option<RunRow>, sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "SELECT {RUN_COLUMNS} FROM rule_runs WHERE rule_key = $1 \
         ORDER BY created_at DESC, id DESC LIMIT 1"
    )))
    .bind(rule_key)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(run_row)
    .transpose()
}

/// The newest run of `rule_key` that started at or after `since` (unix seconds), acted or is
/// acting (`PLANNED` or `APPLYING`, or `DONE` with changes applied) and was not undone: what
/// a new run on the same delivered data would repeat (run-rule's "once per intent").
pub async fn acted_since(
    ex: impl Exec<'_>,
    rule_key: &str,
    since: i64,
) -> Result<Option<RunRow>, sqlx::Error> {
    sqlx::query(AssertSqlSafe(format!(
        "SELECT {RUN_COLUMNS} FROM rule_runs WHERE rule_key = $1 AND started_at >= $2 \
         AND trigger <> 'UNDO' AND undone_by IS NULL \
         AND (status IN ('PLANNED', 'APPLYING') OR (status = 'DONE' AND applied > 0)) \
         ORDER BY started_at DESC, id DESC LIMIT 1"
    )))
    .bind(rule_key)
    .bind(since)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(run_row)
    .transpose()
}
