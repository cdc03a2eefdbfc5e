//! A provider's pull (docs/api/attribution.md "Pull"): the API token of its reporting API,
//! stored sealed and shown masked, the provider's settings (JSON: app ids, currency, event
//! names), and how the last pulls went — when one last succeeded and the last error in the
//! user's words. One per workspace and connected provider; disconnecting removes it.

use sqlx::Row;

use crate::store::Exec;

/// A stored pull.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pull {
    pub workspace_id: String,
    pub provider: String,
    /// The API token, sealed (context [`token_context`]).
    pub token_sealed: String,
    /// The token's last four characters.
    pub token_hint: String,
    /// The provider's settings, JSON.
    pub settings: String,
    pub created_by: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    pub updated_at: i64,
    pub last_success_at: Option<i64>,
    pub last_error: Option<String>,
    pub last_error_at: Option<i64>,
}

/// The sealing context of a workspace's API token for `provider`.
pub fn token_context(workspace_id: &str, provider: &str) -> String {
    format!("attribution-pull:{workspace_id}:{provider}")
}

const COLUMNS: &str = "workspace_id, provider, token_sealed, token_hint, settings, created_by, \
     created_at, updated_at, last_success_at, last_error, last_error_at";

fn read(row: &sqlx::any::AnyRow) -> Result<Pull, sqlx::Error> {
    Ok(Pull {
        workspace_id: row.try_get("workspace_id")?,
        provider: row.try_get("provider")?,
        token_sealed: row.try_get("token_sealed")?,
        token_hint: row.try_get("token_hint")?,
        settings: row.try_get("settings")?,
        created_by: row.try_get("created_by")?,
        created_at: row.try_get("created_at")?,
        updated_at: row.try_get("updated_at")?,
        last_success_at: row.try_get("last_success_at")?,
        last_error: row.try_get("last_error")?,
        last_error_at: row.try_get("last_error_at")?,
    })
}

/// The workspace's pulls, by provider name.
pub async fn all(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<Pull>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM attribution_pulls WHERE workspace_id = $1 ORDER BY provider"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(read)
    .collect()
}

/// The workspace's pull of `provider`.
pub async fn get(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
) -> Result<Option<Pull>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM attribution_pulls WHERE workspace_id = $1 AND provider = $2"
    )))
    .bind(workspace_id)
    .bind(provider)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(read)
    .transpose()
}

/// What a user sets: the sealed token, its hint and the settings.
#[derive(Debug, Clone)]
pub struct NewPull<'a> {
    pub token_sealed: &'a str,
    pub token_hint: &'a str,
    pub settings: &'a str,
    pub created_by: &'a str,
}

/// Sets or replaces the pull of `provider`; a replaced one forgets its last error (the new
/// token has not failed yet) and keeps when it last succeeded.
pub async fn upsert(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
    pull: &NewPull<'_>,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO attribution_pulls (workspace_id, provider, token_sealed, token_hint, \
           settings, created_by, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $7) \
         ON CONFLICT (workspace_id, provider) DO UPDATE SET \
           token_sealed = excluded.token_sealed, token_hint = excluded.token_hint, \
           settings = excluded.settings, updated_at = excluded.updated_at, \
           last_error = NULL, last_error_at = NULL",
    )
    .bind(workspace_id)
    .bind(provider)
    .bind(pull.token_sealed)
    .bind(pull.token_hint)
    .bind(pull.settings)
    .bind(pull.created_by)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Removes the pull of `provider`; false when there was none. The facts pulled stay.
pub async fn delete(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
) -> Result<bool, sqlx::Error> {
    let done =
        sqlx::query("DELETE FROM attribution_pulls WHERE workspace_id = $1 AND provider = $2")
            .bind(workspace_id)
            .bind(provider)
            .execute(ex)
            .await?;
    Ok(done.rows_affected() == 1)
}

/// Records a successful pull at `now_ms` (the last error is cleared).
pub async fn succeeded(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE attribution_pulls SET last_success_at = $3, last_error = NULL, \
           last_error_at = NULL WHERE workspace_id = $1 AND provider = $2",
    )
    .bind(workspace_id)
    .bind(provider)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Records that a pull failed at `now_ms` with `message` (the user's words).
pub async fn failed(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
    message: &str,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE attribution_pulls SET last_error = $3, last_error_at = $4 \
         WHERE workspace_id = $1 AND provider = $2",
    )
    .bind(workspace_id)
    .bind(provider)
    .bind(message)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Registers (or keeps) the daily pull of a workspace's provider in `schedules` under
/// `key`: job `kind` with `payload` every `every_ms`, first firing at the period boundary
/// after `now_ms` (the setup enqueues its own backfill).
pub async fn set_schedule(
    ex: impl Exec<'_>,
    key: &str,
    workspace_id: &str,
    kind: &str,
    payload: &str,
    every_ms: i64,
    now_ms: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO schedules (key, workspace_id, every_ms, kind, payload, enabled, created_at, \
           updated_at) VALUES ($1, $2, $3, $4, $5, 1, $6, $6) ON CONFLICT (key) DO UPDATE SET \
           every_ms = excluded.every_ms, kind = excluded.kind, payload = excluded.payload, \
           enabled = 1, updated_at = excluded.updated_at",
    )
    .bind(key)
    .bind(workspace_id)
    .bind(every_ms)
    .bind(kind)
    .bind(payload)
    .bind(now_ms)
    .execute(ex)
    .await?;
    Ok(())
}

/// Removes the `schedules` row `key` (the pull was removed).
pub async fn delete_schedule(ex: impl Exec<'_>, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM schedules WHERE key = $1")
        .bind(key)
        .execute(ex)
        .await?;
    Ok(())
}
