//! Workspaces and their memberships (who belongs, with which role).

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
