//! Options saved per user for the web app: one row per key, the value JSON text.

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

/// Saves one option (replacing its value), `value` being JSON text.
pub async fn upsert(
    ex: impl Exec<'_>,
    user_id: &str,
    key: &str,
    value: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO user_options (user_id, key, value, updated_at) VALUES ($1, $2, $3, $4) \
         ON CONFLICT (user_id, key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at",
    )
    .bind(user_id)
    .bind(key)
    .bind(value)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}
