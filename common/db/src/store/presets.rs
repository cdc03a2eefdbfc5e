//! Column presets (docs/product.md#3-column-preset): each user's saved column choices per table
//! type in one workspace. The built-in Default preset of each type is not stored; the API builds
//! it from the report catalog. Names are unique per user, workspace and type regardless of
//! case (`name_key`, enforced by a unique index); the limit of saved presets per type is
//! checked by the caller after [`lock_owner`], in the same transaction.

use sqlx::Row;

use super::Exec;

/// A saved column preset.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PresetRow {
    pub id: String,
    pub workspace_id: String,
    pub user_id: String,
    /// The table type (`KEYWORDS`).
    pub kind: String,
    pub name: String,
    /// The column keys in display order.
    pub fields: Vec<String>,
    pub created_at: i64,
    pub updated_at: i64,
}

/// A preset to save.
#[derive(Debug, Clone, Copy)]
pub struct NewPreset<'a> {
    pub id: &'a str,
    pub workspace_id: &'a str,
    pub user_id: &'a str,
    pub kind: &'a str,
    pub name: &'a str,
    pub fields: &'a [String],
    pub now: i64,
}

/// The key names are compared by: trimmed and lower-cased.
pub fn name_key(name: &str) -> String {
    name.trim().to_lowercase()
}

/// The selected columns, as a macro so that queries stay string literals.
macro_rules! columns {
    () => {
        "id, workspace_id, user_id, type, name, fields, created_at, updated_at"
    };
}

fn decode(r: &sqlx::any::AnyRow) -> Result<PresetRow, sqlx::Error> {
    let fields: String = r.try_get("fields")?;
    Ok(PresetRow {
        id: r.try_get("id")?,
        workspace_id: r.try_get("workspace_id")?,
        user_id: r.try_get("user_id")?,
        kind: r.try_get("type")?,
        name: r.try_get("name")?,
        fields: serde_json::from_str(&fields).map_err(|e| sqlx::Error::Decode(Box::new(e)))?,
        created_at: r.try_get("created_at")?,
        updated_at: r.try_get("updated_at")?,
    })
}

fn fields_json(fields: &[String]) -> String {
    serde_json::to_string(fields).expect("a list of strings serialises")
}

/// Serialises preset writes of one user: a no-op update of the user's row, which takes its
/// row lock on PostgreSQL and the write lock on SQLite, so a count-then-insert in the same
/// transaction cannot be raced past the limit.
pub async fn lock_owner(ex: impl Exec<'_>, user_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET options_version = options_version WHERE id = $1")
        .bind(user_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Saves a new preset. A name already used by the same user for the same type (in any
/// case) fails with a unique violation.
pub async fn insert(ex: impl Exec<'_>, p: NewPreset<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO column_presets (id, workspace_id, user_id, type, name, name_key, fields, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8)",
    )
    .bind(p.id)
    .bind(p.workspace_id)
    .bind(p.user_id)
    .bind(p.kind)
    .bind(p.name.trim())
    .bind(name_key(p.name))
    .bind(fields_json(p.fields))
    .bind(p.now)
    .execute(ex)
    .await?;
    Ok(())
}

/// How many presets a user saved for a type in a workspace.
pub async fn count(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    kind: &str,
) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM column_presets WHERE workspace_id = $1 AND user_id = $2 AND type = $3",
    )
    .bind(workspace_id)
    .bind(user_id)
    .bind(kind)
    .fetch_one(ex)
    .await
}

/// A user's presets of a type in a workspace, oldest first.
pub async fn list(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    kind: &str,
) -> Result<Vec<PresetRow>, sqlx::Error> {
    let rows = sqlx::query(concat!(
        "SELECT ",
        columns!(),
        " FROM column_presets WHERE workspace_id = $1 AND user_id = $2 AND type = $3 \
         ORDER BY created_at, id"
    ))
    .bind(workspace_id)
    .bind(user_id)
    .bind(kind)
    .fetch_all(ex)
    .await?;
    rows.iter().map(decode).collect()
}

/// The preset `id` if it belongs to `workspace_id` (whoever saved it).
pub async fn in_workspace(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
) -> Result<Option<PresetRow>, sqlx::Error> {
    let row = sqlx::query(concat!(
        "SELECT ",
        columns!(),
        " FROM column_presets WHERE id = $1 AND workspace_id = $2"
    ))
    .bind(id)
    .bind(workspace_id)
    .fetch_optional(ex)
    .await?;
    row.as_ref().map(decode).transpose()
}

/// Whether the user already has another preset of `kind` called `name` (in any case).
pub async fn name_taken(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    kind: &str,
    name: &str,
    except_id: Option<&str>,
) -> Result<bool, sqlx::Error> {
    let n: i64 = sqlx::query_scalar(
        "SELECT COUNT(*) FROM column_presets WHERE workspace_id = $1 AND user_id = $2 AND type = $3 \
         AND name_key = $4 AND id <> $5",
    )
    .bind(workspace_id)
    .bind(user_id)
    .bind(kind)
    .bind(name_key(name))
    .bind(except_id.unwrap_or(""))
    .fetch_one(ex)
    .await?;
    Ok(n > 0)
}

/// Renames a preset and/or replaces its columns (`None` keeps the current value). Returns
/// whether the preset exists. A name taken by another preset fails with a unique violation.
pub async fn update(
    ex: impl Exec<'_>,
    id: &str,
    name: Option<&str>,
    fields: Option<&[String]>,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE column_presets SET name = COALESCE($2, name), name_key = COALESCE($3, name_key), \
         fields = COALESCE($4, fields), updated_at = $5 WHERE id = $1",
    )
    .bind(id)
    .bind(name.map(str::trim))
    .bind(name.map(name_key))
    .bind(fields.map(fields_json))
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() > 0)
}

/// Deletes a preset; returns whether it existed.
pub async fn delete(ex: impl Exec<'_>, id: &str) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM column_presets WHERE id = $1")
        .bind(id)
        .execute(ex)
        .await?;
    Ok(done.rows_affected() > 0)
}
