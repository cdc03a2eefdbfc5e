//! One integration per workspace and provider: the postback token (stored hashed; shown to
//! the user once, when connected or rotated), the custom server's signing secret (sealed),
//! and when the newest event arrived.

use sqlx::Row;

use crate::store::Exec;

/// A stored integration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Integration {
    pub id: String,
    pub workspace_id: String,
    /// The provider's wire name (`appsflyer`).
    pub provider: String,
    /// The last four characters of the token, to recognise the URL pasted.
    pub token_hint: String,
    /// The custom server's signing secret, sealed (None for the other providers).
    pub secret_sealed: Option<String>,
    pub created_by: Option<String>,
    /// Unix ms.
    pub created_at: i64,
    pub rotated_at: Option<i64>,
    pub last_event_at: Option<i64>,
}

const COLUMNS: &str = "id, workspace_id, provider, token_hint, secret_sealed, created_by, \
     created_at, rotated_at, last_event_at";

fn read(row: &sqlx::any::AnyRow) -> Result<Integration, sqlx::Error> {
    Ok(Integration {
        id: row.try_get("id")?,
        workspace_id: row.try_get("workspace_id")?,
        provider: row.try_get("provider")?,
        token_hint: row.try_get("token_hint")?,
        secret_sealed: row.try_get("secret_sealed")?,
        created_by: row.try_get("created_by")?,
        created_at: row.try_get("created_at")?,
        rotated_at: row.try_get("rotated_at")?,
        last_event_at: row.try_get("last_event_at")?,
    })
}

/// The workspace's integrations, by provider name.
pub async fn all(ex: impl Exec<'_>, workspace_id: &str) -> Result<Vec<Integration>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM attribution_integrations WHERE workspace_id = $1 ORDER BY provider"
    )))
    .bind(workspace_id)
    .fetch_all(ex)
    .await?
    .iter()
    .map(read)
    .collect()
}

/// The workspace's integration with `provider`.
pub async fn get(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
) -> Result<Option<Integration>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM attribution_integrations WHERE workspace_id = $1 AND provider = $2"
    )))
    .bind(workspace_id)
    .bind(provider)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(read)
    .transpose()
}

/// The integration whose token hashes to `token_hash`, if it is `provider`'s: what a
/// postback's URL names. Another provider's token answers None, as an unknown one.
pub async fn by_token(
    ex: impl Exec<'_>,
    provider: &str,
    token_hash: &str,
) -> Result<Option<Integration>, sqlx::Error> {
    sqlx::query(sqlx::AssertSqlSafe(format!(
        "SELECT {COLUMNS} FROM attribution_integrations WHERE token_hash = $1 AND provider = $2"
    )))
    .bind(token_hash)
    .bind(provider)
    .fetch_optional(ex)
    .await?
    .as_ref()
    .map(read)
    .transpose()
}

/// A new integration's or a rotation's token.
#[derive(Debug, Clone)]
pub struct Token<'a> {
    pub hash: &'a str,
    pub hint: &'a str,
    pub secret_sealed: Option<&'a str>,
}

/// Connects `provider` for the workspace with `token`, or gives an existing integration a
/// new token (the old URL stops working at once); returns the integration's id.
pub async fn upsert(
    ex: impl Exec<'_>,
    id: &str,
    workspace_id: &str,
    provider: &str,
    token: &Token<'_>,
    created_by: &str,
    now_ms: i64,
) -> Result<String, sqlx::Error> {
    sqlx::query(
        "INSERT INTO attribution_integrations \
           (id, workspace_id, provider, token_hash, token_hint, secret_sealed, created_by, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) \
         ON CONFLICT (workspace_id, provider) DO UPDATE SET token_hash = excluded.token_hash, \
           token_hint = excluded.token_hint, secret_sealed = excluded.secret_sealed, \
           rotated_at = excluded.created_at \
         RETURNING id",
    )
    .bind(id)
    .bind(workspace_id)
    .bind(provider)
    .bind(token.hash)
    .bind(token.hint)
    .bind(token.secret_sealed)
    .bind(created_by)
    .bind(now_ms)
    .fetch_one(ex)
    .await?
    .try_get("id")
}

/// Disconnects `provider`: its URL stops working. The events received stay (the reports
/// keep what was earned); connecting again gives a new URL.
pub async fn delete(
    ex: impl Exec<'_>,
    workspace_id: &str,
    provider: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "DELETE FROM attribution_integrations WHERE workspace_id = $1 AND provider = $2",
    )
    .bind(workspace_id)
    .bind(provider)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// How stale the integration's `last_event_at` may get (ms): every postback of a busy
/// provider would otherwise update the one row and queue behind the others' transactions.
pub const TOUCH_EVERY_MS: i64 = 1_000;

/// Records that events arrived at `now_ms` (to the second: a row touched less than
/// [`TOUCH_EVERY_MS`] ago is left as it is).
pub async fn touch(ex: impl Exec<'_>, id: &str, now_ms: i64) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE attribution_integrations SET last_event_at = $2 WHERE id = $1 \
         AND (last_event_at IS NULL OR last_event_at <= $3)",
    )
    .bind(id)
    .bind(now_ms)
    .bind(now_ms - TOUCH_EVERY_MS)
    .execute(ex)
    .await?;
    Ok(())
}
