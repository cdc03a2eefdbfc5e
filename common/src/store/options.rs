//! Options saved per user for the web app: one row per key, the value JSON text, each row
//! stamped with the version of the save that wrote it (`users.options_version` counts saves).

use sqlx::Row;

use super::Exec;

/// One saved option as stored.
#[derive(Debug, Clone)]
pub struct OptionRow {
    pub key: String,
    /// The JSON value as text.
    pub value: String,
    pub updated_at: i64,
}

/// Every option row of a user.
pub async fn all(ex: impl Exec<'_>, user_id: &str) -> Result<Vec<OptionRow>, sqlx::Error> {
    let rows = sqlx::query("SELECT key, value, updated_at FROM user_options WHERE user_id = $1")
        .bind(user_id)
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

/// Removes one option of a user.
pub async fn delete(ex: impl Exec<'_>, user_id: &str, key: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM user_options WHERE user_id = $1 AND key = $2")
        .bind(user_id)
        .bind(key)
        .execute(ex)
        .await?;
    Ok(())
}

/// Saves one option (replacing its value), `value` being JSON text, stamped with the
/// options version of the save that wrote it.
pub async fn upsert(
    ex: impl Exec<'_>,
    user_id: &str,
    key: &str,
    value: &str,
    now: i64,
    version: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO user_options (user_id, key, value, updated_at, version) VALUES ($1, $2, $3, $4, $5) \
         ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, \
         updated_at = excluded.updated_at, version = excluded.version",
    )
    .bind(user_id)
    .bind(key)
    .bind(value)
    .bind(now)
    .bind(version)
    .execute(ex)
    .await?;
    Ok(())
}

/// The current version of a user's options (0 before the first save).
pub async fn version(ex: impl Exec<'_>, user_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar("SELECT options_version FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(ex)
        .await
}

/// Starts a save: bumps the user's options version and returns the new one. In a
/// transaction this also serialises concurrent saves of one user.
pub async fn bump_version(ex: impl Exec<'_>, user_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE users SET options_version = options_version + 1 WHERE id = $1 RETURNING options_version",
    )
    .bind(user_id)
    .fetch_one(ex)
    .await
}

/// Whether a save after `version` wrote `key`.
pub async fn changed_since(
    ex: impl Exec<'_>,
    user_id: &str,
    key: &str,
    version: i64,
) -> Result<bool, sqlx::Error> {
    let found: Option<i64> = sqlx::query_scalar(
        "SELECT version FROM user_options WHERE user_id = $1 AND key = $2 AND version > $3",
    )
    .bind(user_id)
    .bind(key)
    .bind(version)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}
