//! Change records (`change_records`, migration `20261123003000_change_records`): one row per
//! field of one entity changed through Searchdeck — who, when, which connection and campaign
//! group, the entity level and id (with its campaign and ad group), the field, the old and
//! the new value, the source (the activity log's notification tags) and the bulk-edit job, if
//! any. Quick edits and bulk edits write them in the transaction that writes the synced row;
//! the activity log reads them by workspace and time, by source and by entity.

use sqlx::Row;

use super::notifications;
use crate::store::Exec;

/// Entity levels a change record can name.
pub const LEVELS: &[&str] = &["CAMPAIGN", "AD_GROUP", "KEYWORD", "NEGATIVE_KEYWORD", "AD"];

/// A change a member made by hand (quick edit or bulk edit): the activity log's
/// "Manual change" filter (docs/product.md#3-notification tag `manual_change`).
pub const MANUAL: &str = "manual_change";
/// A change an automated rule made (`auto_rules`).
pub const AUTO_RULES: &str = "auto_rules";
/// A change a campaign's goal optimisation made (`goal_optimization`).
pub const GOAL_OPTIMIZATION: &str = "goal_optimization";
/// Campaigns, ad groups and keywords created or copied (`quick_start`).
pub const QUICK_START: &str = "quick_start";

/// One change to record.
#[derive(Debug, Clone, PartialEq)]
pub struct NewChange {
    pub id: String,
    pub workspace_id: String,
    pub user_id: Option<String>,
    pub user_email: Option<String>,
    pub account_id: Option<String>,
    pub org_id: i64,
    /// One of [`LEVELS`].
    pub level: &'static str,
    pub entity_id: i64,
    pub campaign_id: i64,
    pub ad_group_id: Option<i64>,
    pub entity_name: String,
    pub campaign_name: String,
    pub field: String,
    pub old_value: Option<String>,
    pub new_value: Option<String>,
    /// The currency of money values.
    pub currency: Option<String>,
    pub source: &'static str,
    pub job_id: Option<String>,
    /// Unix seconds.
    pub created_at: i64,
    /// The notification of the action that made it (`store::activity::notifications::record`).
    pub notification_id: Option<String>,
}

/// A stored change record.
pub type ChangeRow = NewChange;

/// Records one change. A bulk-edit job's item already recorded for the same field is kept
/// (the unique `(job_id, level, entity_id, field)` index): a retried job does not record
/// twice. A written change adds its campaign to its notification's. Returns whether a row
/// was written.
pub async fn insert(ex: &mut sqlx::AnyConnection, c: &NewChange) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "INSERT INTO change_records (id, workspace_id, user_id, user_email, account_id, org_id, \
           level, entity_id, campaign_id, ad_group_id, entity_name, campaign_name, field, \
           old_value, new_value, currency, source, job_id, created_at, notification_id) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, \
           $20) \
         ON CONFLICT DO NOTHING",
    )
    .bind(&c.id)
    .bind(&c.workspace_id)
    .bind(&c.user_id)
    .bind(&c.user_email)
    .bind(&c.account_id)
    .bind(c.org_id)
    .bind(c.level)
    .bind(c.entity_id)
    .bind(c.campaign_id)
    .bind(c.ad_group_id)
    .bind(&c.entity_name)
    .bind(&c.campaign_name)
    .bind(&c.field)
    .bind(&c.old_value)
    .bind(&c.new_value)
    .bind(&c.currency)
    .bind(c.source)
    .bind(&c.job_id)
    .bind(c.created_at)
    .bind(&c.notification_id)
    .execute(&mut *ex)
    .await?;
    let written = done.rows_affected() == 1;
    if let (true, Some(n)) = (written, &c.notification_id) {
        notifications::add_campaign(&mut *ex, n, c.campaign_id, &c.campaign_name).await?;
    }
    Ok(written)
}

/// Which records to list: a workspace's, within `[from, to)` unix seconds, optionally of one
/// source, one level and one entity.
#[derive(Debug, Clone, Default)]
pub struct Filter<'a> {
    pub workspace_id: &'a str,
    pub from: Option<i64>,
    pub to: Option<i64>,
    pub source: Option<&'a str>,
    pub level: Option<&'a str>,
    pub entity_id: Option<i64>,
}

fn level_of(stored: &str) -> &'static str {
    LEVELS
        .iter()
        .find(|l| **l == stored)
        .copied()
        .unwrap_or("CAMPAIGN")
}

fn source_of(stored: &str) -> &'static str {
    [MANUAL, AUTO_RULES, GOAL_OPTIMIZATION, QUICK_START, "team"]
        .into_iter()
        .find(|s| *s == stored)
        .unwrap_or(MANUAL)
}

/// Reads a `change_records` row.
pub fn row(r: &sqlx::any::AnyRow) -> Result<ChangeRow, sqlx::Error> {
    Ok(ChangeRow {
        id: r.try_get("id")?,
        workspace_id: r.try_get("workspace_id")?,
        user_id: r.try_get("user_id")?,
        user_email: r.try_get("user_email")?,
        account_id: r.try_get("account_id")?,
        org_id: r.try_get("org_id")?,
        level: level_of(&r.try_get::<String, _>("level")?),
        entity_id: r.try_get("entity_id")?,
        campaign_id: r.try_get("campaign_id")?,
        ad_group_id: r.try_get("ad_group_id")?,
        entity_name: r.try_get("entity_name")?,
        campaign_name: r.try_get("campaign_name")?,
        field: r.try_get("field")?,
        old_value: r.try_get("old_value")?,
        new_value: r.try_get("new_value")?,
        currency: r.try_get("currency")?,
        source: source_of(&r.try_get::<String, _>("source")?),
        job_id: r.try_get("job_id")?,
        created_at: r.try_get("created_at")?,
        notification_id: r.try_get("notification_id")?,
    })
}

/// The records `f` selects, newest first, at most `limit`.
pub async fn list(
    ex: impl Exec<'_>,
    f: &Filter<'_>,
    limit: i64,
) -> Result<Vec<ChangeRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT * FROM change_records WHERE workspace_id = $1 \
           AND ($2 = 0 OR created_at >= $3) AND ($4 = 0 OR created_at < $5) \
           AND ($6 = '' OR source = $6) AND ($7 = '' OR level = $7) \
           AND ($8 = 0 OR entity_id = $9) \
         ORDER BY created_at DESC, id DESC LIMIT $10",
    )
    .bind(f.workspace_id)
    .bind(i64::from(f.from.is_some()))
    .bind(f.from.unwrap_or(0))
    .bind(i64::from(f.to.is_some()))
    .bind(f.to.unwrap_or(0))
    .bind(f.source.unwrap_or(""))
    .bind(f.level.unwrap_or(""))
    .bind(i64::from(f.entity_id.is_some()))
    .bind(f.entity_id.unwrap_or(0))
    .bind(limit)
    .fetch_all(ex)
    .await?;
    rows.iter().map(row).collect()
}

/// What bulk-edit job `job_id` recorded for `field` of `level`: entity id, old and new value
/// (a retried job reports these items applied without sending them again).
pub async fn of_job(
    ex: impl Exec<'_>,
    job_id: &str,
    level: &str,
    field: &str,
) -> Result<Vec<(i64, Option<String>, Option<String>)>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT entity_id, old_value, new_value FROM change_records \
         WHERE job_id = $1 AND level = $2 AND field = $3",
    )
    .bind(job_id)
    .bind(level)
    .bind(field)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok((
                r.try_get("entity_id")?,
                r.try_get("old_value")?,
                r.try_get("new_value")?,
            ))
        })
        .collect()
}

/// A page of notification `id`'s changes in the order they were applied, and how many it
/// has.
pub async fn page_of_notification(
    ex: &mut sqlx::AnyConnection,
    id: &str,
    limit: i64,
    skip: i64,
) -> Result<(Vec<ChangeRow>, i64), sqlx::Error> {
    let rows = sqlx::query(
        "SELECT * FROM change_records WHERE notification_id = $1 \
         ORDER BY created_at, id LIMIT $2 OFFSET $3",
    )
    .bind(id)
    .bind(limit)
    .bind(skip)
    .fetch_all(&mut *ex)
    .await?;
    let total: i64 =
        sqlx::query("SELECT COUNT(*) AS n FROM change_records WHERE notification_id = $1")
            .bind(id)
            .fetch_one(&mut *ex)
            .await?
            .try_get("n")?;
    let rows = rows.iter().map(row).collect::<Result<_, _>>()?;
    Ok((rows, total))
}

/// Every change of notification `id`, in the order they were applied (the undo's plan).
pub async fn of_notification(ex: impl Exec<'_>, id: &str) -> Result<Vec<ChangeRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT * FROM change_records WHERE notification_id = $1 ORDER BY created_at, id",
    )
    .bind(id)
    .fetch_all(ex)
    .await?;
    rows.iter().map(row).collect()
}
