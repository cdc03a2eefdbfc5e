//! What the workspace's synced connections know about apps and developers (`asa_apps`,
//! written by the sync; see migration `20261123000000_synced_entities.sql`), and the
//! `org_key` of a synced campaign group.

use sqlx::Row;

use super::Exec;

/// A synced App Store app of a campaign group.
#[derive(Debug, Clone, PartialEq)]
pub struct SyncedApp {
    pub org_id: i64,
    pub adam_id: i64,
    pub app_name: String,
    pub developer_name: Option<String>,
}

/// The synced apps of connection `account_id`, of campaign group `org_id` when given, by
/// campaign group then app id.
pub async fn apps(
    ex: impl Exec<'_>,
    account_id: &str,
    org_id: Option<i64>,
) -> Result<Vec<SyncedApp>, sqlx::Error> {
    sqlx::query(
        "SELECT o.org_id, a.adam_id, a.app_name, a.developer_name \
         FROM asa_apps a JOIN sync_orgs o ON o.org_key = a.org_key \
         WHERE o.account_id = $1 AND ($2 IS NULL OR o.org_id = $2) \
         ORDER BY o.org_id, a.adam_id",
    )
    .bind(account_id)
    .bind(org_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| {
        Ok(SyncedApp {
            org_id: r.try_get("org_id")?,
            adam_id: r.try_get("adam_id")?,
            app_name: r.try_get("app_name")?,
            developer_name: r.try_get("developer_name")?,
        })
    })
    .collect()
}

/// Each distinct (developer name, app id) of the apps synced for the connections of
/// `workspace_id`, by developer then app; apps without a developer name are left out.
pub async fn developers(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<(String, i64)>, sqlx::Error> {
    sqlx::query(
        "SELECT DISTINCT a.developer_name, a.adam_id \
         FROM asa_apps a JOIN sync_orgs o ON o.org_key = a.org_key \
           JOIN accounts c ON c.id = o.account_id \
         WHERE c.workspace_id = $1 AND a.developer_name IS NOT NULL AND a.developer_name <> '' \
         ORDER BY a.developer_name, a.adam_id",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|r| Ok((r.try_get(0)?, r.try_get(1)?)))
    .collect()
}

/// How many distinct apps and distinct developer names the connections of `workspace_id`
/// have synced (what the plan's app limits count).
pub async fn usage(ex: impl Exec<'_>, workspace_id: &str) -> Result<(i64, i64), sqlx::Error> {
    let row = sqlx::query(
        "SELECT COUNT(DISTINCT a.adam_id), COUNT(DISTINCT NULLIF(a.developer_name, '')) \
         FROM asa_apps a JOIN sync_orgs o ON o.org_key = a.org_key \
           JOIN accounts c ON c.id = o.account_id \
         WHERE c.workspace_id = $1",
    )
    .bind(workspace_id)
    .fetch_one(ex)
    .await?;
    Ok((row.try_get(0)?, row.try_get(1)?))
}

/// The `org_key` of campaign group `org_id` of connection `account_id` when that connection
/// belongs to `workspace_id` and the group has been synced.
pub async fn org_key(
    ex: impl Exec<'_>,
    workspace_id: &str,
    account_id: &str,
    org_id: i64,
) -> Result<Option<i64>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT o.org_key FROM sync_orgs o JOIN accounts c ON c.id = o.account_id \
         WHERE c.workspace_id = $1 AND o.account_id = $2 AND o.org_id = $3",
    )
    .bind(workspace_id)
    .bind(account_id)
    .bind(org_id)
    .fetch_optional(ex)
    .await
}
