//! Sessions: rows keyed by the SHA-256 of the cookie token (the token itself is never stored).

use sqlx::Row;

use super::Exec;

/// A new session's row.
#[derive(Debug, Clone, Copy)]
pub struct NewSession<'a> {
    pub id: &'a str,
    pub token_hash: &'a str,
    pub user_id: &'a str,
    pub workspace_id: &'a str,
    pub now: i64,
    pub expires_at: i64,
}

/// Inserts a session.
pub async fn insert(ex: impl Exec<'_>, s: NewSession<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO sessions (id, token_hash, user_id, workspace_id, created_at, last_seen_at, expires_at) \
         VALUES ($1, $2, $3, $4, $5, $5, $6)",
    )
    .bind(s.id)
    .bind(s.token_hash)
    .bind(s.user_id)
    .bind(s.workspace_id)
    .bind(s.now)
    .bind(s.expires_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Deletes the session with this token hash, if any.
pub async fn delete_by_token_hash(ex: impl Exec<'_>, token_hash: &str) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
        .bind(token_hash)
        .execute(ex)
        .await?;
    Ok(())
}

/// A valid session with its user's email and role in the session's workspace.
#[derive(Debug, Clone)]
pub struct SessionRow {
    pub id: String,
    pub user_id: String,
    pub workspace_id: String,
    pub last_seen_at: i64,
    pub email: String,
    /// `owner`, `admin`, `writer` or `reader`.
    pub role: String,
}

/// The unexpired session with this token hash whose user is still a member of its workspace.
pub async fn find_valid(
    ex: impl Exec<'_>,
    token_hash: &str,
    now: i64,
) -> Result<Option<SessionRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT s.id, s.user_id, s.workspace_id, s.last_seen_at, u.email, m.role \
         FROM sessions s JOIN users u ON u.id = s.user_id \
         JOIN memberships m ON m.user_id = s.user_id AND m.workspace_id = s.workspace_id \
         WHERE s.token_hash = $1 AND s.expires_at > $2",
    )
    .bind(token_hash)
    .bind(now)
    .fetch_optional(ex)
    .await?;
    row.map(|r| {
        Ok(SessionRow {
            id: r.try_get("id")?,
            user_id: r.try_get("user_id")?,
            workspace_id: r.try_get("workspace_id")?,
            last_seen_at: r.try_get("last_seen_at")?,
            email: r.try_get("email")?,
            role: r.try_get("role")?,
        })
    })
    .transpose()
}

/// Records that the session was used at `now`.
pub async fn touch(ex: impl Exec<'_>, id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE sessions SET last_seen_at = $2 WHERE id = $1")
        .bind(id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Ends every session of a user except `keep` (after a password change).
pub async fn delete_others(
    ex: impl Exec<'_>,
    user_id: &str,
    keep: Option<&str>,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM sessions WHERE user_id = $1 AND id <> $2")
        .bind(user_id)
        .bind(keep.unwrap_or(""))
        .execute(ex)
        .await?;
    Ok(())
}

/// Deletes sessions that expired before `now`; returns how many.
pub async fn delete_expired(ex: impl Exec<'_>, now: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM sessions WHERE expires_at < $1")
        .bind(now)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}

/// Moves session `id` to `workspace_id` when its user is a member there (the one statement
/// checks the membership, so a removal cannot slip between check and move); returns whether
/// it moved.
pub async fn move_to_workspace(
    ex: impl Exec<'_>,
    id: &str,
    workspace_id: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE sessions SET workspace_id = $2 WHERE id = $1 AND EXISTS \
         (SELECT 1 FROM memberships m WHERE m.user_id = sessions.user_id AND m.workspace_id = $2)",
    )
    .bind(id)
    .bind(workspace_id)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// How long the reason a session was ended is kept for its next request.
pub const ENDING_KEPT_MS: i64 = 30 * 24 * 60 * 60 * 1000;

/// Why a session ended without its owner ending it: removed from a workspace, and by whom.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionEnding {
    pub workspace_name: String,
    pub removed_by: String,
}

/// Records, for every session of `user_id` in `workspace_id` (about to be deleted), that it
/// ends because `removed_by` removed the user from the workspace named `workspace_name`;
/// endings older than [`ENDING_KEPT_MS`] go.
pub async fn note_removal(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
    user_id: &str,
    workspace_name: &str,
    removed_by: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM session_endings WHERE created_at < $1")
        .bind(now - ENDING_KEPT_MS)
        .execute(&mut *ex)
        .await?;
    sqlx::query(
        "INSERT INTO session_endings (token_hash, workspace_name, removed_by, created_at) \
         SELECT token_hash, $3, $4, $5 FROM sessions WHERE workspace_id = $1 AND user_id = $2 \
         ON CONFLICT (token_hash) DO NOTHING",
    )
    .bind(workspace_id)
    .bind(user_id)
    .bind(workspace_name)
    .bind(removed_by)
    .bind(now)
    .execute(&mut *ex)
    .await?;
    Ok(())
}

/// Why the session of `token_hash` was ended, if it was by a removal.
pub async fn ending(
    ex: impl Exec<'_>,
    token_hash: &str,
    now: i64,
) -> Result<Option<SessionEnding>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT workspace_name, removed_by FROM session_endings \
         WHERE token_hash = $1 AND created_at >= $2",
    )
    .bind(token_hash)
    .bind(now - ENDING_KEPT_MS)
    .fetch_optional(ex)
    .await?;
    row.map(|r| {
        Ok(SessionEnding {
            workspace_name: r.try_get("workspace_name")?,
            removed_by: r.try_get("removed_by")?,
        })
    })
    .transpose()
}
