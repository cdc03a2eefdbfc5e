//! A connection's cached campaign groups (v1 ad accounts), each member's selected account
//! and org, and what depends on a campaign group before it is removed.

use super::*;

/// The cached campaign groups of a connection, by org id.
pub async fn orgs(ex: impl Exec<'_>, account_id: &str) -> Result<Vec<OrgRow>, sqlx::Error> {
    sqlx::query(
        "SELECT org_id, display_name, currency, time_zone, permission, selected \
         FROM account_orgs WHERE account_id = $1 ORDER BY org_id",
    )
    .bind(account_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(|row| {
        Ok(OrgRow {
            org_id: row.try_get("org_id")?,
            display_name: row.try_get("display_name")?,
            currency: row.try_get("currency")?,
            time_zone: row.try_get("time_zone")?,
            permission: row.try_get("permission")?,
            selected: row.try_get::<i64, _>("selected")? != 0,
        })
    })
    .collect()
}

/// Saves one campaign group as fetched now, keeping its selection when already cached.
pub async fn upsert_org(
    ex: impl Exec<'_>,
    account_id: &str,
    org: &OrgRow,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO account_orgs (account_id, org_id, display_name, currency, time_zone, \
           permission, selected, refreshed_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (account_id, org_id) DO UPDATE SET display_name = excluded.display_name, \
           currency = excluded.currency, time_zone = excluded.time_zone, \
           permission = excluded.permission, refreshed_at = excluded.refreshed_at",
    )
    .bind(account_id)
    .bind(org.org_id)
    .bind(&org.display_name)
    .bind(&org.currency)
    .bind(&org.time_zone)
    .bind(&org.permission)
    .bind(i64::from(org.selected))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Drops the cached campaign groups not refreshed at `now` (gone from the provider).
pub async fn delete_stale_orgs(
    ex: impl Exec<'_>,
    account_id: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM account_orgs WHERE account_id = $1 AND refreshed_at <> $2")
        .bind(account_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Marks one campaign group as used (or not) by the connection.
pub async fn select_org(
    ex: impl Exec<'_>,
    account_id: &str,
    org_id: i64,
    selected: bool,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE account_orgs SET selected = $3 WHERE account_id = $1 AND org_id = $2")
        .bind(account_id)
        .bind(org_id)
        .bind(i64::from(selected))
        .execute(ex)
        .await?;
    Ok(())
}

/// Makes `account_id` the member's active account with `org_id` (none clears the org).
pub async fn set_active(
    ex: impl Exec<'_>,
    user_id: &str,
    workspace_id: &str,
    active: &Active,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO active_accounts (user_id, workspace_id, account_id, org_id, updated_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, workspace_id) DO UPDATE SET \
         account_id = excluded.account_id, org_id = excluded.org_id, \
         updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(workspace_id)
    .bind(&active.account_id)
    .bind(active.org_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The member's active account, if one is set.
pub async fn active(
    ex: impl Exec<'_>,
    user_id: &str,
    workspace_id: &str,
) -> Result<Option<Active>, sqlx::Error> {
    sqlx::query(
        "SELECT account_id, org_id FROM active_accounts WHERE user_id = $1 AND workspace_id = $2",
    )
    .bind(user_id)
    .bind(workspace_id)
    .fetch_optional(ex)
    .await?
    .map(|row| {
        Ok(Active {
            account_id: row.try_get("account_id")?,
            org_id: row.try_get("org_id")?,
        })
    })
    .transpose()
}

/// Clears the member's active account.
pub async fn clear_active(
    ex: impl Exec<'_>,
    user_id: &str,
    workspace_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM active_accounts WHERE user_id = $1 AND workspace_id = $2")
        .bind(user_id)
        .bind(workspace_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// What depends on campaign group `org_id` of connection `account_id`: the names of its
/// rules and of the negative keyword lists applied in it, each sorted.
pub async fn dependents_of_org(
    ex: &mut sqlx::AnyConnection,
    account_id: &str,
    org_id: i64,
) -> Result<(Vec<String>, Vec<String>), sqlx::Error> {
    let rules: Vec<String> = sqlx::query_scalar(
        "SELECT name FROM rules WHERE account_id = $1 AND org_id = $2 ORDER BY name",
    )
    .bind(account_id)
    .bind(org_id)
    .fetch_all(&mut *ex)
    .await?;
    let lists: Vec<String> = sqlx::query_scalar(
        "SELECT DISTINCT l.name FROM negative_lists l JOIN negative_list_places p ON p.list_id = l.id \
         WHERE p.account_id = $1 AND p.org_id = $2 ORDER BY l.name",
    )
    .bind(account_id)
    .bind(org_id)
    .fetch_all(&mut *ex)
    .await?;
    Ok((rules, lists))
}
