//! Password-recovery codes: stored hashed, single use, replaced by any newer code, found by
//! a selector (their leading characters) and dead after a few wrong guesses.

use sqlx::Row;

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
    /// The code's leading characters, in clear, to find it by.
    pub selector: &'a str,
    pub expires_at: i64,
    pub now: i64,
}

/// Inserts a code.
pub async fn insert(ex: impl Exec<'_>, code: NewCode<'_>) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO recovery_codes (id, user_id, code_hash, selector, expires_at, created_at) \
         VALUES ($1, $2, $3, $4, $5, $6)",
    )
    .bind(code.id)
    .bind(code.user_id)
    .bind(code.code_hash)
    .bind(code.selector)
    .bind(code.expires_at)
    .bind(code.now)
    .execute(ex)
    .await?;
    Ok(())
}

/// A live code as found by its selector.
#[derive(Debug, Clone)]
pub struct LiveCode {
    pub id: String,
    pub user_id: String,
    pub code_hash: String,
}

/// The unused, unexpired codes with this selector that have fewer than `max_attempts`
/// wrong guesses.
pub async fn live_by_selector(
    ex: impl Exec<'_>,
    selector: &str,
    now: i64,
    max_attempts: i64,
) -> Result<Vec<LiveCode>, sqlx::Error> {
    let rows = sqlx::query(
        "SELECT id, user_id, code_hash FROM recovery_codes \
         WHERE selector = $1 AND used_at IS NULL AND expires_at > $2 AND attempts < $3",
    )
    .bind(selector)
    .bind(now)
    .bind(max_attempts)
    .fetch_all(ex)
    .await?;
    rows.iter()
        .map(|r| {
            Ok(LiveCode {
                id: r.try_get("id")?,
                user_id: r.try_get("user_id")?,
                code_hash: r.try_get("code_hash")?,
            })
        })
        .collect()
}

/// Counts a wrong guess against every live code with this selector.
pub async fn count_wrong_guess(
    ex: impl Exec<'_>,
    selector: &str,
    now: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "UPDATE recovery_codes SET attempts = attempts + 1 \
         WHERE selector = $1 AND used_at IS NULL AND expires_at > $2",
    )
    .bind(selector)
    .bind(now)
    .execute(ex)
    .await?;
    Ok(())
}

/// Uses up the code `id` in one atomic update, if it is still live; false when it was not.
pub async fn consume(
    ex: impl Exec<'_>,
    id: &str,
    now: i64,
    max_attempts: i64,
) -> Result<bool, sqlx::Error> {
    let done = sqlx::query(
        "UPDATE recovery_codes SET used_at = $2 \
         WHERE id = $1 AND used_at IS NULL AND expires_at > $2 AND attempts < $3",
    )
    .bind(id)
    .bind(now)
    .bind(max_attempts)
    .execute(ex)
    .await?;
    Ok(done.rows_affected() == 1)
}

/// Deletes codes used or expired before `before`; returns how many.
pub async fn delete_spent(ex: impl Exec<'_>, before: i64) -> Result<u64, sqlx::Error> {
    let done = sqlx::query(
        "DELETE FROM recovery_codes WHERE (used_at IS NOT NULL AND used_at < $1) OR expires_at < $1",
    )
    .bind(before)
    .execute(ex)
    .await?;
    Ok(done.rows_affected())
}
