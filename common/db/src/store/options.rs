//! Options saved for the web app: one row per key, the value JSON text, each row stamped with
//! the version of the save that wrote it (`users.options_version` counts a user's saves).
//!
//! Most options belong to the user *in one workspace* (`member_options`, migration
//! `20261203004000_member_options`): column and filter presets, the suggester's entry, the
//! reporting currency — a user in several workspaces keeps a separate set in each, as the
//! active account. The personal ones ([`is_personal`]: language, theme, `onboarding-*`
//! flags) are the user's wherever they work (`user_options`). Every function takes the
//! [`Owner`] and picks the table by the key, so callers see one set of options.

use sqlx::Row;

use super::Exec;

/// Keys kept per user, not per workspace (besides the [`PERSONAL_PREFIX`] ones).
pub const PERSONAL_KEYS: &[&str] = &["language", "theme"];
/// Keys starting with this are personal too (tours and hints the user has seen).
pub const PERSONAL_PREFIX: &str = "onboarding-";

/// Whether `key` is one of the user's own options (the same in every workspace).
pub fn is_personal(key: &str) -> bool {
    PERSONAL_KEYS.contains(&key) || key.starts_with(PERSONAL_PREFIX)
}

/// Whose options: a user as a member of one workspace (personal keys ignore the workspace).
#[derive(Debug, Clone, Copy)]
pub struct Owner<'a> {
    pub user_id: &'a str,
    pub workspace_id: &'a str,
}

/// One saved option as stored.
#[derive(Debug, Clone)]
pub struct OptionRow {
    pub key: String,
    /// The JSON value as text.
    pub value: String,
    pub updated_at: i64,
}

/// Every option of the user in the workspace: their personal ones and the workspace's.
pub async fn all(ex: impl Exec<'_>, owner: Owner<'_>) -> Result<Vec<OptionRow>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT key, value, updated_at FROM user_options WHERE user_id = $1 \
         UNION ALL SELECT key, value, updated_at FROM member_options \
         WHERE user_id = $1 AND workspace_id = $2 ORDER BY key",
    )
    .bind(owner.user_id)
    .bind(owner.workspace_id)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(OptionRow {
                key: r.try_get("key")?,
                value: r.try_get("value")?,
                updated_at: r.try_get("updated_at")?,
            })
        })
        .collect()
}

/// Removes one option.
pub async fn delete(ex: impl Exec<'_>, owner: Owner<'_>, key: &str) -> Result<(), sqlx::Error> {
    let query = if is_personal(key) {
        sqlx::query("DELETE FROM user_options WHERE user_id = $1 AND key = $2")
            .bind(owner.user_id)
            .bind(key)
    } else {
        sqlx::query(
            "DELETE FROM member_options WHERE user_id = $1 AND key = $2 AND workspace_id = $3",
        )
        .bind(owner.user_id)
        .bind(key)
        .bind(owner.workspace_id)
    };
    query.execute(ex).await?;
    Ok(())
}

/// Saves one option (replacing its value), `value` being JSON text, stamped with the
/// options version of the save that wrote it.
pub async fn upsert(
    ex: impl Exec<'_>,
    owner: Owner<'_>,
    key: &str,
    value: &str,
    now: i64,
    version: i64,
) -> Result<(), sqlx::Error> {
    let query = if is_personal(key) {
        sqlx::query(
            "INSERT INTO user_options (user_id, key, value, updated_at, version) \
             VALUES ($1, $2, $3, $4, $5) \
             ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, \
             updated_at = excluded.updated_at, version = excluded.version",
        )
    } else {
        sqlx::query(
            "INSERT INTO member_options (user_id, key, value, updated_at, version, workspace_id) \
             VALUES ($1, $2, $3, $4, $5, $6) \
             ON CONFLICT (workspace_id, user_id, key) DO UPDATE SET value = excluded.value, \
             updated_at = excluded.updated_at, version = excluded.version",
        )
    };
    let query = query
        .bind(owner.user_id)
        .bind(key)
        .bind(value)
        .bind(now)
        .bind(version);
    let query = if is_personal(key) {
        query
    } else {
        query.bind(owner.workspace_id)
    };
    query.execute(ex).await?;
    Ok(())
}

/// The current version of a user's options (0 before the first save), across workspaces.
pub async fn version(ex: impl Exec<'_>, user_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT options_version FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(ex)
        .await
}

/// Starts a save: bumps the user's options version and returns the new one. In a
/// transaction this also serialises concurrent saves of one user (in any workspace).
pub async fn bump_version(ex: impl Exec<'_>, user_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE users SET options_version = options_version + 1 WHERE id = $1 RETURNING options_version",
    )
    .bind(user_id)
    .fetch_one(ex)
    .await
}

/// Whether a save after `version` wrote `key` (in this workspace, for a workspace key).
pub async fn changed_since(
    ex: impl Exec<'_>,
    owner: Owner<'_>,
    key: &str,
    version: i64,
) -> Result<bool, sqlx::Error> {
    let query = if is_personal(key) {
        sqlx::query_scalar(
            "SELECT version FROM user_options WHERE user_id = $1 AND key = $2 AND version > $3",
        )
        .bind(owner.user_id)
        .bind(key)
        .bind(version)
    } else {
        sqlx::query_scalar(
            "SELECT version FROM member_options WHERE user_id = $1 AND key = $2 \
             AND version > $3 AND workspace_id = $4",
        )
        .bind(owner.user_id)
        .bind(key)
        .bind(version)
        .bind(owner.workspace_id)
    };
    let found: Option<i64> = query.fetch_optional(ex).await?;
    Ok(found.is_some())
}
