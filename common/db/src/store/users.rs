//! Users: accounts, their password hashes and their own values.

use sqlx::Row;

use super::Exec;

/// A new account's row.
#[derive(Debug, Clone, Copy)]
pub struct NewUser<'a> {
    pub id: &'a str,
    pub email: &'a str,
    pub password_hash: &'a str,
    pub full_name: &'a str,
    pub source: &'a str,
    pub now: i64,
}

/// Inserts an account; a taken email fails with a unique violation.
pub async fn insert(ex: impl Exec<'_>, user: NewUser<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO users (id, email, password_hash, full_name, source, created_at, updated_at) \
         VALUES ($1, $2, $3, $4, $5, $6, $6)",
    )
    .bind(user.id)
    .bind(user.email)
    .bind(user.password_hash)
    .bind(user.full_name)
    .bind(user.source)
    .bind(user.now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The id of the account with this (normalised) email.
pub async fn id_by_email(ex: impl Exec<'_>, email: &str) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar("SELECT id FROM users WHERE email = $1")
        .bind(email)
        .fetch_optional(ex)
        .await
}

/// What login needs of an account: its password hash and the workspace a session starts in.
#[derive(Debug, Clone)]
pub struct LoginRow {
    pub user_id: String,
    pub password_hash: String,
    pub workspace_id: String,
}

/// The account with this email and the workspace its session opens: the one it last
/// switched to ([`set_last_workspace`]) while it is still a member there, else its first
/// workspace (by join date).
pub async fn for_login(ex: impl Exec<'_>, email: &str) -> Result<Option<LoginRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT u.id, u.password_hash, m.workspace_id FROM users u \
         JOIN memberships m ON m.user_id = u.id WHERE u.email = $1 \
         ORDER BY CASE WHEN m.workspace_id = u.last_workspace_id THEN 0 ELSE 1 END, \
         m.created_at, m.workspace_id LIMIT 1",
    )
    .bind(email)
    .fetch_optional(ex)
    .await?;
    row.map(|r| {
        Ok(LoginRow {
            user_id: r.try_get("id")?,
            password_hash: r.try_get("password_hash")?,
            workspace_id: r.try_get("workspace_id")?,
        })
    })
    .transpose()
}

/// Records the workspace the user last switched to (where their next sign-in opens).
pub async fn set_last_workspace(
    ex: impl Exec<'_>,
    user_id: &str,
    workspace_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET last_workspace_id = $2 WHERE id = $1")
        .bind(user_id)
        .bind(workspace_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// The stored password hash of an account.
pub async fn password_hash(ex: impl Exec<'_>, user_id: &str) -> Result<String, sqlx::Error> {
    sqlx::query_scalar("SELECT password_hash FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_one(ex)
        .await
}

/// Replaces an account's password hash.
pub async fn set_password(
    ex: impl Exec<'_>,
    user_id: &str,
    hash: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET password_hash = $2, updated_at = $3 WHERE id = $1")
        .bind(user_id)
        .bind(hash)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// Sets (or with `None` clears) the address invoices also go to.
pub async fn set_alternative_invoice_email(
    ex: impl Exec<'_>,
    user_id: &str,
    email: Option<&str>,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE users SET alternative_invoice_email = $2, updated_at = $3 WHERE id = $1")
        .bind(user_id)
        .bind(email)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// A member as seen in one workspace: the account's values and the role there.
#[derive(Debug, Clone)]
pub struct MemberRow {
    pub id: String,
    pub email: String,
    pub full_name: String,
    pub alternative_invoice_email: Option<String>,
    /// `owner`, `admin`, `writer` or `reader`.
    pub role: String,
}

/// The account `user_id` as a member of `workspace_id`, if it is one.
pub async fn member(
    ex: impl Exec<'_>,
    user_id: &str,
    workspace_id: &str,
) -> Result<Option<MemberRow>, sqlx::Error> {
    let row = sqlx::query(
        "SELECT u.id, u.email, u.full_name, u.alternative_invoice_email, m.role \
         FROM users u JOIN memberships m ON m.user_id = u.id WHERE u.id = $1 AND m.workspace_id = $2",
    )
    .bind(user_id)
    .bind(workspace_id)
    .fetch_optional(ex)
    .await?;
    row.map(|r| {
        Ok(MemberRow {
            id: r.try_get("id")?,
            email: r.try_get("email")?,
            full_name: r.try_get("full_name")?,
            alternative_invoice_email: r.try_get("alternative_invoice_email")?,
            role: r.try_get("role")?,
        })
    })
    .transpose()
}
