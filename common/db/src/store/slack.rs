//! The workspace's Slack incoming webhook (`workspace_slack`, migration
//! `20261129002000_alert_delivery.sql`): where the `deliver-alert` job posts alerts. The URL
//! is a secret (whoever holds it posts to the channel), so only its sealed form is stored
//! ([`crate::secrets::SecretBox`] under [`context`]); the API seals it, the job opens it.

use super::Exec;

/// The sealing context of `workspace_id`'s webhook URL (a value copied to another workspace
/// does not open).
pub fn context(workspace_id: &str) -> String {
    format!("slack:{workspace_id}:webhook")
}

/// Stores (or replaces) the sealed webhook URL of `workspace_id`.
pub async fn set(
    ex: impl Exec<'_>,
    workspace_id: &str,
    url_sealed: &str,
    by_email: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO workspace_slack (workspace_id, url_sealed, updated_by_email, updated_at) \
         VALUES ($1, $2, $3, $4) ON CONFLICT (workspace_id) DO UPDATE SET \
           url_sealed = excluded.url_sealed, updated_by_email = excluded.updated_by_email, \
           updated_at = excluded.updated_at",
    )
    .bind(workspace_id)
    .bind(url_sealed)
    .bind(by_email)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Removes the webhook of `workspace_id`; false when there was none.
pub async fn clear(ex: impl Exec<'_>, workspace_id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM workspace_slack WHERE workspace_id = $1")
        .bind(workspace_id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// The sealed webhook URL of `workspace_id`, if one is set.
pub async fn sealed(ex: impl Exec<'_>, workspace_id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT url_sealed FROM workspace_slack WHERE workspace_id = $1")
        .bind(workspace_id)
        .fetch_optional(ex)
        .await
}
