//! Runs of automated rules and goal optimisations (`rule_runs`, `rule_run_items`, migration
//! `20261129003000_rule_runs.sql`; contract `docs/api/rules.md` "A run"), and the reads the
//! run-rule job and the scheduler need of rules and optimisations.
//!
//! A run is keyed by (`rule_key`, `period`): [`insert_run`] stores it with every planned
//! item in the caller's transaction, or finds the one stored before (a job run again after
//! its worker died resumes that plan, never plans twice). Items keep absolute old and new
//! values; their results move from `PLANNED` as the job sends them.

use std::collections::{BTreeMap, HashMap, HashSet};

use sqlx::{AssertSqlSafe, Row};

use super::Exec;

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
    newest_complete_day, matched, applied, refused, skipped, undo_of, undone_by, user_id, \
    user_email, created_at, started_at, finished_at";

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
           newest_complete_day, matched, applied, refused, skipped, undo_of, undone_by, user_id, \
           user_email, created_at, started_at, finished_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, \
           $19, $20, $21, $22, $23, $24, $25, $26, $27, $28) \
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

/// The items of run `run_id`, in order.
pub async fn items(ex: impl Exec<'_>, run_id: &str) -> Result<Vec<ItemRow>, sqlx::Error> {
    sqlx::query(
        "SELECT seq, level, entity_id, name, campaign_id, ad_group_id, vals, action, field, \
           old_value, new_value, detail, result, message \
         FROM rule_run_items WHERE run_id = $1 ORDER BY seq",
    )
    .bind(run_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(item_row)
    .collect()
}

/// Sets the result of item `seq` of run `run_id` (and its detail, when given).
pub async fn set_item(
    ex: impl Exec<'_>,
    run_id: &str,
    seq: i64,
    result: &str,
    message: Option<&str>,
    detail: Option<&serde_json::Value>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE rule_run_items SET result = $3, message = $4, \
           detail = COALESCE($5, detail) WHERE run_id = $1 AND seq = $2",
    )
    .bind(run_id)
    .bind(seq)
    .bind(result)
    .bind(message)
    .bind(detail.map(|d| d.to_string()))
    .execute(ex)
    .await?;
    Ok(())
}

/// Sets run `id`'s status (and reason).
pub async fn set_status(
    ex: impl Exec<'_>,
    id: &str,
    status: &str,
    reason: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE rule_runs SET status = $2, reason = $3 WHERE id = $1")
        .bind(id)
        .bind(status)
        .bind(reason)
        .execute(ex)
        .await?;
    Ok(())
}

/// Ends run `id` with `status`, its item counts from its items, at `at`.
pub async fn finish(
    ex: &mut sqlx::AnyConnection,
    id: &str,
    status: &str,
    reason: Option<&str>,
    at: i64,
) -> Result<RunRow, sqlx::Error> {
    sqlx::query(
        "UPDATE rule_runs SET status = $2, reason = $3, finished_at = $4, \
           applied = (SELECT COUNT(*) FROM rule_run_items i WHERE i.run_id = $1 AND i.result = 'APPLIED'), \
           refused = (SELECT COUNT(*) FROM rule_run_items i WHERE i.run_id = $1 AND i.result = 'REFUSED'), \
           skipped = (SELECT COUNT(*) FROM rule_run_items i WHERE i.run_id = $1 AND i.result = 'SKIPPED') \
         WHERE id = $1",
    )
    .bind(id)
    .bind(status)
    .bind(reason)
    .bind(at)
    .execute(&mut *ex)
    .await?;
    let row = sqlx::query(AssertSqlSafe(format!(
        "SELECT {RUN_COLUMNS} FROM rule_runs WHERE id = $1"
    )))
    .bind(id)
    .fetch_one(&mut *ex)
    .await?;
    run_row(&row)
}

/// Ends the run of (`rule_key`, `period`) `FAILED` with `reason` when it is still
/// `PLANNED` or `APPLYING` (its job was given up: nothing will send the rest); answers the
/// run so ended, None when there is no such run or it had ended. Items keep their results:
/// those applied stay applied (and undoable), those never sent stay `PLANNED`.
pub async fn fail_unfinished(
    conn: &mut sqlx::AnyConnection,
    rule_key: &str,
    period: &str,
    reason: &str,
    at: i64,
) -> Result<Option<RunRow>, sqlx::Error> {
    let id: Option<String> = sqlx::query_scalar(
        "SELECT id FROM rule_runs WHERE rule_key = $1 AND period = $2 \
         AND status IN ('PLANNED', 'APPLYING')",
    )
    .bind(rule_key)
    .bind(period)
    .fetch_optional(&mut *conn)
    .await?;
    match id {
        Some(id) => Ok(Some(finish(conn, &id, FAILED, Some(reason), at).await?)),
        None => Ok(None),
    }
}

/// Ids per bound `IN` list of [`entity_names`] (far under either backend's bind limit).
const NAMES_CHUNK: usize = 500;

/// The names of campaigns `campaigns` and ad groups `ad_groups` of campaign group `org_key`
/// by id (deleted ones included: a run's history names what it touched even after Apple
/// deleted it) — what a run's items show beside their ids. Unknown ids are absent.
pub async fn entity_names(
    conn: &mut sqlx::AnyConnection,
    org_key: i64,
    campaigns: &[i64],
    ad_groups: &[i64],
) -> Result<(HashMap<i64, String>, HashMap<i64, String>), sqlx::Error> {
    let mut out = (HashMap::new(), HashMap::new());
    for (table, ids, names) in [
        ("asa_campaigns", campaigns, &mut out.0),
        ("asa_ad_groups", ad_groups, &mut out.1),
    ] {
        for chunk in ids.chunks(NAMES_CHUNK) {
            let sql = format!(
                "SELECT id, name FROM {table} WHERE org_key = $1 AND id IN ({})",
                super::placeholders(2, chunk.len())
            );
            let mut q = sqlx::query(AssertSqlSafe(sql)).bind(org_key);
            for id in chunk {
                q = q.bind(*id);
            }
            for r in q.fetch_all(&mut *conn).await? {
                names.insert(r.try_get::<i64, _>(0)?, r.try_get::<String, _>(1)?);
            }
        }
    }
    Ok(out)
}

/// Marks run `id` undone by run `undo_id`, and its items `seqs` UNDONE.
pub async fn set_undone(
    ex: &mut sqlx::AnyConnection,
    id: &str,
    undo_id: &str,
    seqs: &[i64],
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE rule_runs SET undone_by = $2 WHERE id = $1")
        .bind(id)
        .bind(undo_id)
        .execute(&mut *ex)
        .await?;
    for seq in seqs {
        sqlx::query("UPDATE rule_run_items SET result = 'UNDONE' WHERE run_id = $1 AND seq = $2")
            .bind(id)
            .bind(seq)
            .execute(&mut *ex)
            .await?;
    }
    Ok(())
}

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
    /// CPA_GOAL or CPT_GOAL.
    pub kind: String,
    pub target_micros: Option<i64>,
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
       AND o.org_id = p.org_id) AS time_zone FROM campaign_optimizations p";

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
