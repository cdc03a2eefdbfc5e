//! The team of a workspace (contract `docs/api/team.md`): its members with their roles and
//! last activity, and its invitations (`team_invitations`, migration
//! `20261202001000_team_invitations`).
//!
//! An invitation's code is stored only as its hash (as session tokens), is single use
//! ([`consume`] is one atomic update) and expires; a new invitation for the same email
//! replaces the workspace's unused one ([`replace_unused`]); expired and used ones are
//! kept [`EXPIRED_KEPT_MS`], then the clean-up deletes them ([`delete_stale`]). Removing a member
//! ([`remove_member`]) deletes the membership and every session of that member in that
//! workspace in one go, so their next request there is refused. The role rules (who may
//! change whom, the last owner) are the API's; [`owners`] gives it the count they need.

use sqlx::Row;

use super::{Exec, placeholders};

/// A member of a workspace as the team screen lists them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TeamMember {
    pub user_id: String,
    pub email: String,
    pub full_name: String,
    /// `owner`, `admin`, `writer` or `reader`.
    pub role: String,
    /// When the membership was made (unix milliseconds).
    pub joined_at: i64,
    /// The last use of the member's most recent live session in this workspace (unix
    /// milliseconds), if any.
    pub last_active: Option<i64>,
}

const MEMBER_COLUMNS: &str = "u.id, u.email, u.full_name, m.role, m.created_at, \
     (SELECT MAX(s.last_seen_at) FROM sessions s \
       WHERE s.user_id = m.user_id AND s.workspace_id = m.workspace_id) AS last_active";

fn member_of(r: &sqlx::any::AnyRow) -> Result<TeamMember, sqlx::Error> {
    Ok(TeamMember {
        user_id: r.try_get("id")?,
        email: r.try_get("email")?,
        full_name: r.try_get("full_name")?,
        role: r.try_get("role")?,
        joined_at: r.try_get("created_at")?,
        last_active: r.try_get("last_active")?,
    })
}

/// The members of `workspace_id`, oldest membership first.
pub async fn members(
    ex: impl Exec<'_>,
    workspace_id: &str,
) -> Result<Vec<TeamMember>, sqlx::Error> {
    let sql = format!(
        "SELECT {MEMBER_COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id \
         WHERE m.workspace_id = $1 ORDER BY m.created_at, u.id"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .fetch_all(ex)
        .await?;
    rows.iter().map(member_of).collect()
}

/// The members of `workspace_id` among `user_ids` (ids of no member are left out).
pub async fn members_among(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_ids: &[String],
) -> Result<Vec<TeamMember>, sqlx::Error> {
    if user_ids.is_empty() {
        return Ok(Vec::new());
    }
    let sql = format!(
        "SELECT {MEMBER_COLUMNS} FROM memberships m JOIN users u ON u.id = m.user_id \
         WHERE m.workspace_id = $1 AND m.user_id IN ({}) ORDER BY m.created_at, u.id",
        placeholders(2, user_ids.len())
    );
    let mut q = sqlx::query(sqlx::AssertSqlSafe(sql)).bind(workspace_id);
    for id in user_ids {
        q = q.bind(id);
    }
    let rows = q.fetch_all(ex).await?;
    rows.iter().map(member_of).collect()
}

/// The member `user_id` of `workspace_id`, if they are one.
pub async fn member(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
) -> Result<Option<TeamMember>, sqlx::Error> {
    Ok(members_among(ex, workspace_id, &[user_id.to_string()])
        .await?
        .pop())
}

/// Whether a user with `email` is a member of `workspace_id`.
pub async fn is_member_email(
    ex: impl Exec<'_>,
    workspace_id: &str,
    email: &str,
) -> Result<bool, sqlx::Error> {
    let found: Option<String> = sqlx::query_scalar(
        "SELECT u.id FROM memberships m JOIN users u ON u.id = m.user_id \
         WHERE m.workspace_id = $1 AND u.email = $2",
    )
    .bind(workspace_id)
    .bind(email)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// Takes the workspace's row lock for the rest of the transaction (a no-op update): team
/// changes of one workspace run one after the other, so two managers demoting the two last
/// owners at once cannot leave it with none. Works alike on SQLite (one writer) and
/// PostgreSQL (the row lock).
pub async fn lock_workspace(ex: impl Exec<'_>, workspace_id: &str) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE workspaces SET name = name WHERE id = $1")
        .bind(workspace_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// How many owners `workspace_id` has.
pub async fn owners(ex: impl Exec<'_>, workspace_id: &str) -> Result<i64, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT COUNT(*) FROM memberships WHERE workspace_id = $1 AND role = 'owner'",
    )
    .bind(workspace_id)
    .fetch_one(ex)
    .await
}

/// Sets member `user_id`'s role in `workspace_id`; false when they are no member or already
/// had it.
pub async fn set_role(
    ex: impl Exec<'_>,
    workspace_id: &str,
    user_id: &str,
    role: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE memberships SET role = $3 WHERE workspace_id = $1 AND user_id = $2 AND role <> $3",
    )
    .bind(workspace_id)
    .bind(user_id)
    .bind(role)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Removes member `user_id` from `workspace_id` and ends their sessions there (their
/// sessions in other workspaces stay); false when they were no member.
pub async fn remove_member(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
    user_id: &str,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query("DELETE FROM memberships WHERE workspace_id = $1 AND user_id = $2")
        .bind(workspace_id)
        .bind(user_id)
        .execute(&mut *ex)
        .await?;
    sqlx::query("DELETE FROM sessions WHERE workspace_id = $1 AND user_id = $2")
        .bind(workspace_id)
        .bind(user_id)
        .execute(&mut *ex)
        .await?;
    Ok(done.rows_affected() == 1)
}

/// A new invitation's row.
#[derive(Debug, Clone, Copy)]
pub struct NewInvitation<'a> {
    pub id: &'a str,
    pub workspace_id: &'a str,
    /// Normalised as at sign-up.
    pub email: &'a str,
    pub role: &'a str,
    /// SHA-256 of the code.
    pub code_hash: &'a str,
    pub invited_by: &'a str,
    pub now: i64,
    pub expires_at: i64,
}

/// Stores `inv`, first deleting the workspace's unused invitation for the same email,
/// pending or expired (a resend: the old code stops working, and the list shows one row).
pub async fn replace_unused(
    ex: &mut sqlx::AnyConnection,
    inv: NewInvitation<'_>,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "DELETE FROM team_invitations WHERE workspace_id = $1 AND email = $2 AND used_at IS NULL",
    )
    .bind(inv.workspace_id)
    .bind(inv.email)
    .execute(&mut *ex)
    .await?;
    sqlx::query(
        "INSERT INTO team_invitations (id, workspace_id, email, role, code_hash, invited_by, \
           created_at, expires_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(inv.id)
    .bind(inv.workspace_id)
    .bind(inv.email)
    .bind(inv.role)
    .bind(inv.code_hash)
    .bind(inv.invited_by)
    .bind(inv.now)
    .bind(inv.expires_at)
    .execute(&mut *ex)
    .await?;
    Ok(())
}

/// How long an unused invitation is kept after it expired: the team screen lists it as
/// expired (to resend or revoke) meanwhile, and the clean-up deletes it then; a used one is
/// kept as long after its use ([`delete_stale`]).
pub const EXPIRED_KEPT_MS: i64 = 30 * 24 * 3600 * 1000;

/// A stored invitation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Invitation {
    pub id: String,
    pub workspace_id: String,
    pub email: String,
    pub role: String,
    /// The inviter's email (None once they are gone).
    pub invited_by: Option<String>,
    /// The inviter's full name (None once they are gone; empty when they gave none).
    pub invited_by_name: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

const INVITATION_COLUMNS: &str = "i.id, i.workspace_id, i.email, i.role, u.email AS invited_by, \
     u.full_name AS invited_by_name, i.created_at, i.expires_at, i.used_at";

fn invitation_of(r: &sqlx::any::AnyRow) -> Result<Invitation, sqlx::Error> {
    Ok(Invitation {
        id: r.try_get("id")?,
        workspace_id: r.try_get("workspace_id")?,
        email: r.try_get("email")?,
        role: r.try_get("role")?,
        invited_by: r.try_get("invited_by")?,
        invited_by_name: r.try_get("invited_by_name")?,
        created_at: r.try_get("created_at")?,
        expires_at: r.try_get("expires_at")?,
        used_at: r.try_get("used_at")?,
    })
}

/// The unused invitations of `workspace_id` that expire after `expires_after` (unix ms):
/// with `now`, the pending ones; with `now - EXPIRED_KEPT_MS`, the recently expired too.
/// Newest first; with `id`, that one only.
async fn unused_where(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: Option<&str>,
    expires_after: i64,
) -> Result<Vec<Invitation>, sqlx::Error> {
    let sql = format!(
        "SELECT {INVITATION_COLUMNS} FROM team_invitations i \
         LEFT JOIN users u ON u.id = i.invited_by \
         WHERE i.workspace_id = $1 AND i.used_at IS NULL AND i.expires_at > $2 \
         AND ($3 IS NULL OR i.id = $3) \
         ORDER BY i.created_at DESC, i.id DESC"
    );
    let rows = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(workspace_id)
        .bind(expires_after)
        .bind(id)
        .fetch_all(ex)
        .await?;
    rows.iter().map(invitation_of).collect()
}

/// The unused invitations of `workspace_id` that expire after `expires_after`, newest
/// first (see [`unused_where`]).
pub async fn unused(
    ex: impl Exec<'_>,
    workspace_id: &str,
    expires_after: i64,
) -> Result<Vec<Invitation>, sqlx::Error> {
    unused_where(ex, workspace_id, None, expires_after).await
}

/// The unused invitation `id` of `workspace_id` if it expires after `expires_after`.
pub async fn unused_one(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
    expires_after: i64,
) -> Result<Option<Invitation>, sqlx::Error> {
    Ok(unused_where(ex, workspace_id, Some(id), expires_after)
        .await?
        .pop())
}

/// Whether `email` has a pending invitation to `workspace_id`.
pub async fn is_invited(
    ex: impl Exec<'_>,
    workspace_id: &str,
    email: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let found: Option<String> = sqlx::query_scalar(
        "SELECT id FROM team_invitations WHERE workspace_id = $1 AND email = $2 \
         AND used_at IS NULL AND expires_at > $3",
    )
    .bind(workspace_id)
    .bind(email)
    .bind(now)
    .fetch_optional(ex)
    .await?;
    Ok(found.is_some())
}

/// The invitation whose code hashes to `code_hash`, used or expired too (the caller tells
/// which it is).
pub async fn by_code_hash(
    ex: impl Exec<'_>,
    code_hash: &str,
) -> Result<Option<Invitation>, sqlx::Error> {
    let sql = format!(
        "SELECT {INVITATION_COLUMNS} FROM team_invitations i \
         LEFT JOIN users u ON u.id = i.invited_by WHERE i.code_hash = $1"
    );
    let row = sqlx::query(sqlx::AssertSqlSafe(sql))
        .bind(code_hash)
        .fetch_optional(ex)
        .await?;
    row.as_ref().map(invitation_of).transpose()
}

/// Uses up invitation `id` for `user_id` in one atomic update, if it is still pending; false
/// when it was not (used meanwhile, expired or revoked).
pub async fn consume(
    ex: impl Exec<'_>,
    id: &str,
    user_id: &str,
    now: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE team_invitations SET used_at = $3, used_by = $2 \
         WHERE id = $1 AND used_at IS NULL AND expires_at > $3",
    )
    .bind(id)
    .bind(user_id)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Revokes (deletes) the unused invitation `id` of `workspace_id` that expires after
/// `expires_after` (pending, or expired but still listed); false when there was none.
pub async fn revoke(
    ex: impl Exec<'_>,
    workspace_id: &str,
    id: &str,
    expires_after: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "DELETE FROM team_invitations WHERE workspace_id = $1 AND id = $2 \
         AND used_at IS NULL AND expires_at > $3",
    )
    .bind(workspace_id)
    .bind(id)
    .bind(expires_after)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Revokes (deletes) the unused invitations of `workspace_id` that `user_id` sent — of
/// `roles` only when given —, pending or expired: a member removed or demoted no longer
/// vouches for whom they invited. Returns the invited emails, sorted.
pub async fn revoke_sent_by(
    ex: &mut sqlx::AnyConnection,
    workspace_id: &str,
    user_id: &str,
    roles: Option<&[&str]>,
) -> Result<Vec<String>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, email, role FROM team_invitations WHERE workspace_id = $1 AND invited_by = $2 \
         AND used_at IS NULL ORDER BY email",
    )
    .bind(workspace_id)
    .bind(user_id)
    .fetch_all(&mut *ex)
    .await?;
    let mut emails = Vec::new();
    for r in &rows {
        let role: String = r.try_get("role")?;
        if roles.is_some_and(|only| !only.contains(&role.as_str())) {
            continue;
        }
        let id: String = r.try_get("id")?;
        sqlx::query("DELETE FROM team_invitations WHERE id = $1 AND used_at IS NULL")
            .bind(&id)
            .execute(&mut *ex)
            .await?;
        emails.push(r.try_get("email")?);
    }
    Ok(emails)
}

/// Deletes the invitations that expired, or were used, before `before` (the clean-up passes
/// `now - EXPIRED_KEPT_MS`); returns how many.
pub async fn delete_stale(ex: impl Exec<'_>, before: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query("DELETE FROM team_invitations WHERE expires_at < $1 OR used_at < $1")
        .bind(before)
        .execute(ex)
        .await?;
    Ok(done.rows_affected())
}
