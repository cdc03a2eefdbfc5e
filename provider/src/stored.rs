//! A stored connection's credentials, opened for a client: the one place that knows how a
//! connection's secrets are sealed (`account:<workspace>:<apple user>:<field>`, so a value
//! copied into another row or field does not open) and turns them into [`Credentials`]. The
//! API (connect, campaign-group refresh) and the workers (sync) both use it.

use searchdeck_common::{secrets::SecretBox, store::accounts::AccountRow};
use secrecy::{ExposeSecret, SecretString};

use crate::credentials::{Credentials, KeyPair};

/// Why stored credentials did not open: always an internal fault (wrong key, tampering, a
/// row saved without its secrets), never the user's; the message names no secret.
#[derive(Debug, thiserror::Error)]
pub enum StoredError {
    #[error("stored credential does not open: {0}")]
    Sealed(String),
    #[error("connection {0} lacks credentials")]
    Missing(String),
    #[error("stored private key: {0}")]
    Key(String),
}

/// The sealing context of `field` of the connection of `apple_user_id` in `workspace_id`.
pub fn context(workspace_id: &str, apple_user_id: i64, field: &str) -> String {
    format!("account:{workspace_id}:{apple_user_id}:{field}")
}

/// Opens one sealed value.
pub fn open(secrets: &SecretBox, context: &str, sealed: &str) -> Result<SecretString, StoredError> {
    secrets
        .open_str(context, sealed)
        .map_err(|e| StoredError::Sealed(e.to_string()))
}

/// Reads a PEM private key.
pub fn key_pair(pem: &SecretString) -> Result<KeyPair, StoredError> {
    KeyPair::from_pkcs8_pem(pem.expose_secret()).map_err(StoredError::Key)
}

/// The credentials a client of connection `row` uses: its key pair (`key` connections) or
/// its refresh token (popup connections).
pub fn credentials(secrets: &SecretBox, row: &AccountRow) -> Result<Credentials, StoredError> {
    let field = |name: &str| context(&row.workspace_id, row.provider_user_id, name);
    let missing = || StoredError::Missing(row.id.clone());
    match row.method.as_str() {
        "key" => {
            let sealed = row.private_key_sealed.as_deref().ok_or_else(missing)?;
            let pem = open(secrets, &field("private_key"), sealed)?;
            Ok(Credentials::ClientCredentials {
                client_id: row.client_id.clone(),
                team_id: row.team_id.clone().ok_or_else(missing)?,
                key_id: row.key_id.clone().ok_or_else(missing)?,
                key: key_pair(&pem)?,
            })
        }
        _ => {
            let sealed = row.refresh_token_sealed.as_deref().ok_or_else(missing)?;
            Ok(Credentials::RefreshToken {
                client_id: row.client_id.clone(),
                refresh_token: open(secrets, &field("refresh_token"), sealed)?,
                key: None,
            })
        }
    }
}
