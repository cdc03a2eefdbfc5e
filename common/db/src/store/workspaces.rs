//! Workspaces and their memberships (who belongs, with which role).

use sqlx::Row;

use super::Exec;

/// Creates a workspace.
pub async fn insert(ex: impl Exec<'_>, id: &str, name: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("INSERT INTO workspaces (id, name, created_at) VALUES ($1, $2, $3)")
        .bind(id)
        .bind(name)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Renames workspace `id`.
pub async fn rename(ex: impl Exec<'_>, id: &str, name: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE workspaces SET name = $2 WHERE id = $1")
        .bind(id)
        .bind(name)
        .execute(ex)
        .await?;
    Ok(())
}

/// Makes `user_id` a member of `workspace_id` with `role` (`owner`, `admin`, `writer`,
/// `reader`; the schema refuses any other).
pub async fn add_member(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    role: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO memberships (workspace_id, user_id, role, created_at) VALUES ($1, $2, $3, $4)",
    )
    .bind(workspace_id)
    .bind(user_id)
    .bind(role)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The emails of the owners and admins of `workspace_id` (who receive its alerts), by email.
pub async fn manager_emails(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT u.email FROM memberships m JOIN users u ON u.id = m.user_id \
         WHERE m.workspace_id = $1 AND m.role IN ('owner', 'admin') ORDER BY u.email",
    )
    .bind(workspace_id)
    .fetch_all(ex)
    .await
}

/// The name of workspace `id`, if it exists.
pub async fn name(ex: impl Exec<'_>, id: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT name FROM workspaces WHERE id = $1")
        .bind(id)
        .fetch_optional(ex)
        .await
}

/// One workspace a user belongs to, with their role there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UserWorkspace {
    pub id: String,
    pub name: String,
    /// `owner`, `admin`, `writer` or `reader`.
    pub role: String,
    /// When the user joined it (ms).
    pub joined_at: i64,
}

/// The workspaces `user_id` is a member of, in the order they joined them (then by id).
pub async fn of_user(ex: impl Exec<'_>, user_id: &str) -> Result<Vec<UserWorkspace>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT w.id, w.name, m.role, m.created_at FROM memberships m \
         JOIN workspaces w ON w.id = m.workspace_id \
         WHERE m.user_id = $1 ORDER BY m.created_at, w.id",
    )
    .bind(user_id)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(UserWorkspace {
                id: r.try_get("id")?,
                name: r.try_get("name")?,
                role: r.try_get("role")?,
                joined_at: r.try_get("created_at")?,
            })
        })
        .collect()
}
