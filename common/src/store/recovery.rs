//! Password-recovery codes: stored hashed, single use, replaced by any newer code.

use super::Exec;

/// Marks every open code of a user used (a new code replaces them).
pub async fn retire_open(ex: impl Exec<'_>, user_id: &str, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("UPDATE recovery_codes SET used_at = $2 WHERE user_id = $1 AND used_at IS NULL")
        .bind(user_id)
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}

/// A new code's row.
#[derive(Debug, Clone, Copy)]
pub struct NewCode<'a> {
    pub id: &'a str,
    pub user_id: &'a str,
    pub code_hash: &'a str,
    pub expires_at: i64,
    pub now: i64,
}

/// Inserts a code.
pub async fn insert(ex: impl Exec<'_>, code: NewCode<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO recovery_codes (id, user_id, code_hash, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(code.id)
    .bind(code.user_id)
    .bind(code.code_hash)
    .bind(code.expires_at)
    .bind(code.now)
    .execute(ex)
    .await?;
    Ok(())
}

/// The id of the unused, unexpired code with this hash.
pub async fn find_valid(
    ex: impl Exec<'_>,
    code_hash: &str,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "SELECT id FROM recovery_codes WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(code_hash)
    .bind(now)
    .fetch_optional(ex)
    .await
}

/// Uses up the valid code with this hash in one atomic update; returns its user.
pub async fn consume(
    ex: impl Exec<'_>,
    code_hash: &str,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query_scalar(
        "UPDATE recovery_codes SET used_at = $2 WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2 \
         RETURNING user_id",
    )
    .bind(code_hash)
    .bind(now)
    .fetch_optional(ex)
    .await
}
