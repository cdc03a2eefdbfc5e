//! What connecting an Apple Ads account needs before the connection exists: the key pair
//! waiting for `account/create` (one per member and workspace, private key sealed) and the
//! single-use, expiring states of popup connects (stored hashed).

use sqlx::Row;

use super::Exec;

/// The key pair waiting for the member's `account/create`: (public PEM, sealed private).
pub async fn pending_key(
    ex: impl Exec<'_>,
    user_id: &str,
    workspace_id: &str,
) -> Result<Option<(String, String)>, sqlx::Error> {
    sqlx::query(
        "SELECT public_key, private_key_sealed FROM pending_keys \
         WHERE user_id = $1 AND workspace_id = $2",
    )
    .bind(user_id)
    .bind(workspace_id)
    .fetch_optional(ex)
    .await?
    .map(|row| {
        Ok((
            row.try_get("public_key")?,
            row.try_get("private_key_sealed")?,
        ))
    })
    .transpose()
}

/// Stores a pending key pair unless the member already has one; returns the public key
/// that is pending afterwards (the existing one wins, so a key the user already registered
/// with Apple stays valid).
pub async fn insert_pending_key(
    ex: impl Exec<'_>,
    user_id: &str,
    workspace_id: &str,
    public_key: &str,
    private_key_sealed: &str,
    now: i64,
) -> Result<String, sqlx::Error> {
    sqlx::query_scalar(
        "INSERT INTO pending_keys (user_id, workspace_id, public_key, private_key_sealed, created_at) \
         VALUES ($1, $2, $3, $4, $5) ON CONFLICT (user_id, workspace_id) \
         DO UPDATE SET created_at = pending_keys.created_at RETURNING public_key",
    )
    .bind(user_id)
    .bind(workspace_id)
    .bind(public_key)
    .bind(private_key_sealed)
    .bind(now)
    .fetch_one(ex)
    .await
}

/// Forgets the member's pending key pair (it now belongs to a connection).
pub async fn delete_pending_key(
    ex: impl Exec<'_>,
    user_id: &str,
    workspace_id: &str,
) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM pending_keys WHERE user_id = $1 AND workspace_id = $2")
        .bind(user_id)
        .bind(workspace_id)
        .execute(ex)
        .await?;
    Ok(())
}

/// Records a popup-connect state (by its hash) for the member until `expires_at`.
pub async fn insert_state(
    ex: impl Exec<'_>,
    state_hash: &str,
    user_id: &str,
    workspace_id: &str,
    account_name: &str,
    expires_at: i64,
) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO oauth_states (state_hash, user_id, workspace_id, account_name, expires_at) \
         VALUES ($1, $2, $3, $4, $5)",
    )
    .bind(state_hash)
    .bind(user_id)
    .bind(workspace_id)
    .bind(account_name)
    .bind(expires_at)
    .execute(ex)
    .await?;
    Ok(())
}

/// Consumes the member's state with this hash: deletes it and returns its account name if
/// it existed for this member and had not expired at `now`. A state answers once.
pub async fn take_state(
    ex: impl Exec<'_>,
    state_hash: &str,
    user_id: &str,
    workspace_id: &str,
    now: i64,
) -> Result<Option<String>, sqlx::Error> {
    sqlx::query(
        "DELETE FROM oauth_states WHERE state_hash = $1 AND user_id = $2 AND workspace_id = $3 \
         RETURNING account_name, expires_at",
    )
    .bind(state_hash)
    .bind(user_id)
    .bind(workspace_id)
    .fetch_optional(ex)
    .await?
    .map(|row| Ok((row.try_get("account_name")?, row.try_get("expires_at")?)))
    .transpose()
    .map(|taken: Option<(String, i64)>| {
        taken
            .filter(|(_, expires)| *expires > now)
            .map(|(name, _)| name)
    })
}

/// Deletes states that expired before `now`.
pub async fn purge_states(ex: impl Exec<'_>, now: i64) -> Result<(), sqlx::Error> {
    sqlx::query("DELETE FROM oauth_states WHERE expires_at <= $1")
        .bind(now)
        .execute(ex)
        .await?;
    Ok(())
}
