//! A stored connection's credentials, opened: the one place that knows how a connection's
//! secrets are sealed (`account:<workspace>:<apple user>:<field>`, so a value copied into
//! another row or field does not open) and reads them out of its row. The API (connect,
//! every route that calls Apple for a connection) and the workers (sync, bulk edits) both
//! use it; the provider client turns the result into its own credentials
//! (`searchdeck_provider::Credentials::from_stored`) and knows nothing of our tables.

use secrecy::SecretString;

use crate::{secrets::SecretBox, store::accounts::AccountRow};

/// Why stored credentials did not open: always an internal fault (wrong key, tampering, a
/// row saved without its secrets), never the user's; the message names no secret.
#[derive(Debug, thiserror::Error)]
pub enum StoredError {
    #[error("stored credential does not open: {0}")]
    Sealed(String),
    #[error("connection {0} lacks credentials")]
    Missing(String),
}

/// A connection's credentials, secrets in clear.
#[derive(Debug)]
pub enum StoredCredentials {
    /// A `key` connection: the API key pair registered with Apple.
    KeyPair {
        client_id: String,
        team_id: String,
        key_id: String,
        /// The PKCS#8 PEM private key.
        private_key: SecretString,
    },
    /// A popup connection: its refresh token.
    RefreshToken {
        client_id: String,
        refresh_token: SecretString,
    },
}

/// The sealing context of `field` of the connection of `apple_user_id` in `workspace_id`.
pub fn context(workspace_id: &str, apple_user_id: i64, field: &str) -> String {
    format!("account:{workspace_id}:{apple_user_id}:{field}")
}

/// A fingerprint of what connection `row`'s credentials are built from (ids, sealed secrets,
/// last update): a cached client of the connection is reused while it is unchanged, and a
/// reconnect with new credentials gets a new one (`searchdeck_provider::ClientCache`).
pub fn fingerprint(row: &AccountRow) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (
        &row.client_id,
        &row.team_id,
        &row.key_id,
        &row.private_key_sealed,
        &row.refresh_token_sealed,
        row.updated_at,
    )
        .hash(&mut hasher);
    hasher.finish()
}

/// Opens one sealed value.
pub fn open(secrets: &SecretBox, context: &str, sealed: &str) -> Result<SecretString, StoredError> {
    secrets
        .open_str(context, sealed)
        .map_err(|e| StoredError::Sealed(e.to_string()))
}

/// The credentials of connection `row`: its key pair (`key` connections) or its refresh
/// token (popup connections).
pub fn of(secrets: &SecretBox, row: &AccountRow) -> Result<StoredCredentials, StoredError> {
    let field = |name: &str| context(&row.workspace_id, row.provider_user_id, name);
    let missing = || StoredError::Missing(row.id.clone());
    match row.method.as_str() {
        "key" => {
            let sealed = row.private_key_sealed.as_deref().ok_or_else(missing)?;
            Ok(StoredCredentials::KeyPair {
                client_id: row.client_id.clone(),
                team_id: row.team_id.clone().ok_or_else(missing)?,
                key_id: row.key_id.clone().ok_or_else(missing)?,
                private_key: open(secrets, &field("private_key"), sealed)?,
            })
        }
        _ => {
            let sealed = row.refresh_token_sealed.as_deref().ok_or_else(missing)?;
            Ok(StoredCredentials::RefreshToken {
                client_id: row.client_id.clone(),
                refresh_token: open(secrets, &field("refresh_token"), sealed)?,
            })
        }
    }
}
