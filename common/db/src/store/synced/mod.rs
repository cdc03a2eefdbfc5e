//! What a sync keeps of an Apple Ads connection (migration `20261123000000_synced_entities`):
//! the synced campaign groups (`sync_orgs`, one small `org_key` each) and their sync state,
//! batched upserts of every entity table, marking entities a complete listing no longer
//! returns as deleted, the search-term dimension, and [`metrics::replace_days`], the one
//! writer of `asa_day_metrics`.
//!
//! One of the four stores over the synced data, each with one role: this one writes it (the
//! sync and the edits that write back what Apple answered) and reads the sync's own state,
//! [`super::report_facts`] holds the daily metrics reports sum, [`super::report_entities`]
//! gives the report engine the rows of its tables, and [`super::campaign_views`] answers
//! lookups of single campaigns and ad groups outside the report tables.
//!
//! Bulk writes are multi-row `INSERT … ON CONFLICT` statements, the same SQL on both
//! backends, cut into chunks of at most [`MAX_BINDS`] parameters (under SQLite's limit of
//! 32,766 variables and PostgreSQL's 65,535). Functions that run several statements take a
//! connection (`&mut *tx`, `&mut *conn`); single statements take any [`Exec`].

pub mod bulk;
pub mod edits;
pub mod entities;
pub mod metrics;

use sqlx::{AnyConnection, Row};

use super::Exec;

/// Most bind parameters one statement of this module uses.
pub const MAX_BINDS: usize = 32_000;

/// A synced campaign group (v1 ad account) of a connection and where its sync stands: the
/// one reader of a `sync_orgs` row ([`org`], [`org_of`], [`orgs_of`], [`orgs_of_workspace`]),
/// which the sync, the report engine and the report area's routes all use.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncOrg {
    pub org_key: i64,
    pub account_id: String,
    pub org_id: i64,
    pub currency: Option<String>,
    pub time_zone: Option<String>,
    /// When the entities were last synced completely (unix seconds).
    pub entities_synced_at: Option<i64>,
    /// The newest and the oldest stored day of metrics (YYYY-MM-DD).
    pub metrics_through: Option<String>,
    pub metrics_from: Option<String>,
    /// When the metrics were last synced (unix seconds).
    pub metrics_synced_at: Option<i64>,
    /// The `sync-reports` job that last stored them (a re-run of that job skips the group).
    pub metrics_job: Option<String>,
}

/// The columns of [`SyncOrg`], qualified by the table alias `o`.
const ORG_COLUMNS: &str = "o.org_key, o.account_id, o.org_id, o.currency, o.time_zone, \
     o.entities_synced_at, o.metrics_through, o.metrics_from, o.metrics_synced_at, o.metrics_job";

fn sync_org(row: &sqlx::any::AnyRow) -> Result<SyncOrg, sqlx::Error> {
    Ok(SyncOrg {
        org_key: row.try_get("org_key")?,
        account_id: row.try_get("account_id")?,
        org_id: row.try_get("org_id")?,
        currency: row.try_get("currency")?,
        time_zone: row.try_get("time_zone")?,
        entities_synced_at: row.try_get("entities_synced_at")?,
        metrics_through: row.try_get("metrics_through")?,
        metrics_from: row.try_get("metrics_from")?,
        metrics_synced_at: row.try_get("metrics_synced_at")?,
        metrics_job: row.try_get("metrics_job")?,
    })
}

/// The `org_key` of campaign group `org_id` of connection `account_id`, created on first
/// use; a known currency or time zone replaces the stored one.
pub async fn ensure_org(
    ex: impl Exec<'_>,
    account_id: &str,
    org_id: i64,
    currency: Option<&str>,
    time_zone: Option<&str>,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO sync_orgs (account_id, org_id, currency, time_zone) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (account_id, org_id) DO UPDATE SET \
           currency = COALESCE(excluded.currency, sync_orgs.currency), \
           time_zone = COALESCE(excluded.time_zone, sync_orgs.time_zone) \
         RETURNING org_key",
    )
    .bind(account_id)
    .bind(org_id)
    .bind(currency)
    .bind(time_zone)
    .fetch_one(ex)
    .await
}

/// One synced campaign group by key.
pub async fn org(ex: impl Exec<'_>, org_key: i64) -> Result<Option<SyncOrg>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ORG_COLUMNS} FROM sync_orgs o WHERE o.org_key = $1"
    )))
    .bind(org_key)
    .fetch_optional(ex)
    .await?
    .map(|r| sync_org(&r))
    .transpose()
}

/// Campaign group `org_id` of connection `account_id`, if synced.
pub async fn org_of(
    ex: impl Exec<'_>,
    account_id: &str,
    org_id: i64,
) -> Result<Option<SyncOrg>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ORG_COLUMNS} FROM sync_orgs o WHERE o.account_id = $1 AND o.org_id = $2"
    )))
    .bind(account_id)
    .bind(org_id)
    .fetch_optional(ex)
    .await?
    .map(|r| sync_org(&r))
    .transpose()
}

/// The synced campaign groups of a connection, by org id.
pub async fn orgs_of(ex: impl Exec<'_>, account_id: &str) -> Result<Vec<SyncOrg>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ORG_COLUMNS} FROM sync_orgs o WHERE o.account_id = $1 ORDER BY o.org_id"
    )))
    .bind(account_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(sync_org)
    .collect()
}

/// The synced campaign groups of every connection of a workspace, by `org_key`.
pub async fn orgs_of_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<SyncOrg>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {ORG_COLUMNS} FROM sync_orgs o JOIN accounts a ON a.id = o.account_id \
         WHERE a.workspace_id = $1 ORDER BY o.org_key"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(sync_org)
    .collect()
}

/// Records that the synced entities of `org_key` changed (added, removed, marked deleted or
/// edited): sets `entities_version` to a fresh random number, so every process's report
/// cache of the group's entities sees it stale (`store::report_facts::cache`). Every writer
/// of the entity tables calls it in the transaction of its write.
pub async fn entities_changed(ex: impl Exec<'_>, org_key: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sync_orgs SET entities_version = $2 WHERE org_key = $1")
        .bind(org_key)
        .bind(crate::store::new_stamp())
        .execute(ex)
        .await?;
    Ok(())
}

/// The current `entities_version` of `org_key` (0 when unknown: nothing is cached).
pub async fn entities_version(db: &crate::Db, org_key: i64) -> Result<i64, sqlx::Error> {
    use crate::{db::Native, store::on_native};
    let sql = "SELECT entities_version FROM sync_orgs WHERE org_key = $1";
    let v: Option<i64> = on_native!(db, pool => {
        sqlx::query_scalar(sql).bind(org_key).fetch_optional(pool).await?
    });
    Ok(v.unwrap_or(0))
}

/// Records a complete entity sync of `org_key` at `at` (unix seconds).
pub async fn set_entities_synced(
    ex: impl Exec<'_>,
    org_key: i64,
    at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sync_orgs SET entities_synced_at = $2 WHERE org_key = $1")
        .bind(org_key)
        .bind(at)
        .execute(ex)
        .await?;
    Ok(())
}

/// Records that job `job_id` stored the metrics of days `from..=through` (YYYY-MM-DD) as of
/// `at` (unix seconds): the stored range only ever widens.
pub async fn set_metrics_synced(
    ex: impl Exec<'_>,
    org_key: i64,
    from: &str,
    through: &str,
    at: i64,
    job_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE sync_orgs SET \
           metrics_from = CASE WHEN metrics_from IS NULL OR $2 < metrics_from THEN $2 ELSE metrics_from END, \
           metrics_through = CASE WHEN metrics_through IS NULL OR $3 > metrics_through THEN $3 ELSE metrics_through END, \
           metrics_synced_at = $4, metrics_job = $5 WHERE org_key = $1",
    )
    .bind(org_key)
    .bind(from)
    .bind(through)
    .bind(at)
    .bind(job_id)
    .execute(ex)
    .await?;
    Ok(())
}

/// Records when a connection's data was last synced (unix ms, served as `lastSyncedAt`).
pub async fn set_last_synced(
    ex: impl Exec<'_>,
    account_id: &str,
    at_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE accounts SET last_synced_at = $2 WHERE id = $1")
        .bind(account_id)
        .bind(at_ms)
        .execute(ex)
        .await?;
    Ok(())
}

/// Key of a connection's periodic sync in the `schedules` table. The scheduler enqueues one
/// job per period under `schedule:<key>:<period start>`, the uniqueness key per connection
/// and period.
pub fn schedule_key(account_id: &str) -> String {
    format!("sync:{account_id}")
}

/// Registers (or keeps) the periodic sync of a connection: job `kind` with `payload` every
/// `every_ms`. The row names the connection (`schedules.account_id`, migration
/// `20261123000110`), so it goes when the connection is deleted.
pub async fn set_schedule(
    ex: impl Exec<'_>,
    account_id: &str,
    workspace_id: &str,
    kind: &str,
    payload: &serde_json::Value,
    every_ms: i64,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO schedules (key, workspace_id, account_id, every_ms, kind, payload, enabled, \
           created_at, updated_at) \
         VALUES ($1, $2, $7, $3, $4, $5, 1, $6, $6) ON CONFLICT (key) DO UPDATE SET \
           every_ms = excluded.every_ms, kind = excluded.kind, payload = excluded.payload, \
           enabled = 1, updated_at = excluded.updated_at",
    )
    .bind(schedule_key(account_id))
    .bind(workspace_id)
    .bind(every_ms)
    .bind(kind)
    .bind(payload.to_string())
    .bind(now_ms)
    .bind(account_id)
    .execute(ex)
    .await?;
    Ok(())
}

/// Removes the periodic sync of a connection (the connection is gone).
pub async fn delete_schedule(ex: impl Exec<'_>, account_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM schedules WHERE key = $1")
        .bind(schedule_key(account_id))
        .execute(ex)
        .await?;
    Ok(())
}

/// One bound value of a bulk statement.
#[derive(Debug, Clone)]
pub enum Val {
    Int(Option<i64>),
    Text(Option<String>),
}

impl From<i64> for Val {
    fn from(v: i64) -> Val {
        Val::Int(Some(v))
    }
}
impl From<Option<i64>> for Val {
    fn from(v: Option<i64>) -> Val {
        Val::Int(v)
    }
}
impl From<bool> for Val {
    fn from(v: bool) -> Val {
        Val::Int(Some(i64::from(v)))
    }
}
impl From<&str> for Val {
    fn from(v: &str) -> Val {
        Val::Text(Some(v.to_string()))
    }
}
impl From<String> for Val {
    fn from(v: String) -> Val {
        Val::Text(Some(v))
    }
}
impl From<Option<String>> for Val {
    fn from(v: Option<String>) -> Val {
        Val::Text(v)
    }
}

/// Inserts `rows` (values in `columns` order) into `table` in multi-row statements of at
/// most [`MAX_BINDS`] parameters each; `conflict` is the statement's `ON CONFLICT …` tail.
/// `casts[i]`, when set, wraps parameter `i` of every row (e.g. `CAST(? AS DATE)` on
/// PostgreSQL). Returns the rows written.
pub(crate) async fn insert_rows(
    conn: &mut AnyConnection,
    table: &str,
    columns: &[&str],
    casts: &[Option<&str>],
    conflict: &str,
    rows: &[Vec<Val>],
) -> Result<u64, sqlx::Error> {
    let per_row = columns.len();
    let chunk = (MAX_BINDS / per_row).max(1);
    // SQLite looks every named parameter (`$n`, `?n`) up in a list, once when parsing and
    // once per bind: over thousands of parameters that is quadratic and took 90 % of a
    // sync's time. Anonymous `?` parameters are bound in order without a lookup.
    let sqlite = conn.backend_name() == "SQLite";
    let mut written = 0;
    for part in rows.chunks(chunk) {
        let mut sql = format!("INSERT INTO {table} ({}) VALUES ", columns.join(", "));
        let mut n = 0;
        for (r, _) in part.iter().enumerate() {
            if r > 0 {
                sql.push_str(", ");
            }
            sql.push('(');
            for c in 0..per_row {
                n += 1;
                if c > 0 {
                    sql.push_str(", ");
                }
                let param = if sqlite {
                    "?".to_string()
                } else {
                    format!("${n}")
                };
                match casts.get(c).copied().flatten() {
                    Some(ty) => sql.push_str(&format!("CAST({param} AS {ty})")),
                    None => sql.push_str(&param),
                }
            }
            sql.push(')');
        }
        sql.push(' ');
        sql.push_str(conflict);
        let mut query = sqlx::query(sqlx::AssertSqlSafe(sql));
        for row in part {
            debug_assert_eq!(row.len(), per_row);
            for v in row {
                query = match v {
                    Val::Int(i) => query.bind(*i),
                    Val::Text(t) => query.bind(t.clone()),
                };
            }
        }
        written += query.execute(&mut *conn).await?.rows_affected();
    }
    Ok(written)
}

/// `ON CONFLICT (keys) DO UPDATE SET c = excluded.c, …` for every column not in `keys`.
pub(crate) fn upsert_tail(columns: &[&str], keys: &[&str]) -> String {
    let sets: Vec<String> = columns
        .iter()
        .filter(|c| !keys.contains(c))
        .map(|c| format!("{c} = excluded.{c}"))
        .collect();
    format!(
        "ON CONFLICT ({}) DO UPDATE SET {}",
        keys.join(", "),
        sets.join(", ")
    )
}

/// The workspace and member a task belongs to (a job's follow-up task reports to the same
/// member).
pub async fn task_owner(
    ex: impl Exec<'_>,
    task_id: &str,
) -> Result<Option<(String, Option<String>)>, sqlx::Error> {
    sqlx::query("SELECT workspace_id, user_id FROM tasks WHERE id = $1")
        .bind(task_id)
        .fetch_optional(ex)
        .await?
        .map(|r| Ok((r.try_get("workspace_id")?, r.try_get("user_id")?)))
        .transpose()
}

/// Ids of every campaign of a synced group, deleted ones included (their past metrics are
/// still reported).
pub async fn campaign_ids(ex: impl Exec<'_>, org_key: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM asa_campaigns WHERE org_key = $1 ORDER BY id")
        .bind(org_key)
        .fetch_all(ex)
        .await
}

/// The day (YYYY-MM-DD) the group's oldest campaign was created or started, if known:
/// no metrics exist before it.
pub async fn earliest_campaign_day(
    ex: impl Exec<'_>,
    org_key: i64,
) -> Result<Option<String>, sqlx::Error> {
    let first: Option<String> = sqlx::query_scalar(
        "SELECT MIN(CASE WHEN start_time IS NOT NULL AND start_time < COALESCE(creation_time, start_time) \
           THEN start_time ELSE COALESCE(creation_time, start_time) END) \
         FROM asa_campaigns WHERE org_key = $1",
    )
    .bind(org_key)
    .fetch_one(ex)
    .await?;
    Ok(first.and_then(|t| t.get(..10).map(str::to_string)))
}

/// The apps a synced group promotes or has product pages of.
pub async fn app_ids(ex: impl Exec<'_>, org_key: i64) -> Result<Vec<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT adam_id FROM asa_campaigns WHERE org_key = $1 AND adam_id IS NOT NULL \
         UNION SELECT adam_id FROM asa_product_pages WHERE org_key = $1 ORDER BY 1",
    )
    .bind(org_key)
    .fetch_all(ex)
    .await
}

/// Records how far job `marker` (`<job id>:<level>`) got with a group's metrics, so a run of
/// the same job after its worker died resumes after the last finished level.
pub async fn set_metrics_checkpoint(
    ex: impl Exec<'_>,
    org_key: i64,
    marker: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sync_orgs SET metrics_job = $2 WHERE org_key = $1")
        .bind(org_key)
        .bind(marker)
        .execute(ex)
        .await?;
    Ok(())
}

/// The provider JSON last synced for campaigns `ids` of `org_key` (those stored): (id, body),
/// by id. The sync reads it before it stores a listed page, to see which serving-state
/// reasons newly appear (`workers::jobs::sync_account::campaign_alerts`).
pub async fn campaign_bodies(
    ex: impl Exec<'_>,
    org_key: i64,
    ids: &[i64],
) -> Result<Vec<(i64, Option<String>)>, sqlx::Error> {
    if ids.is_empty() {
        return Ok(Vec::new());
    }
    let list = ids
        .iter()
        .map(i64::to_string)
        .collect::<Vec<_>>()
        .join(", ");
    sqlx::query_as(sqlx::AssertSqlSafe(format!(
        "SELECT id, body FROM asa_campaigns WHERE org_key = $1 AND id IN ({list}) ORDER BY id"
    )))
    .bind(org_key)
    .fetch_all(ex)
    .await
}
