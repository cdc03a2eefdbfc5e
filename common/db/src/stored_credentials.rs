//! A stored connection's credentials, opened: the one place that knows how a connection's
//! secrets are sealed (`account:<workspace>:<apple user>:<field>`, so a value copied into
//! another row or field does not open) and reads them out of its row. The API (connect,
//! every route that calls Apple for a connection) and the workers (sync, bulk edits) both
//! use it; the provider client turns the result into its own credentials
//! (`searchdeck_provider::Credentials::from_stored`) and knows nothing of our tables.

use secrecy::SecretString;

use crate::{
    secrets::SecretBox,
    store::accounts::{AccountRow, ExtraKey},
};

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

/// Every key of a connection, opened: its first one, and the keys beside it with the
/// campaign groups calls reach through each (`searchdeck_provider::PerKey` dispatches by
/// them).
#[derive(Debug)]
pub struct StoredKeys {
    pub first: StoredCredentials,
    pub beside: Vec<(Vec<i64>, StoredCredentials)>,
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
        &row.extra_keys,
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

/// The sealing field of `field` of extra key `key_id` (`extra:<id>:<field>`), so a key's
/// secret does not open as another key's.
pub fn extra_field(key_id: &str, field: &str) -> String {
    format!("extra:{key_id}:{field}")
}

/// The credentials of connection `row`'s first key: its key pair (`key` connections) or its
/// refresh token (popup connections).
pub fn of(secrets: &SecretBox, row: &AccountRow) -> Result<StoredCredentials, StoredError> {
    let sealed = Sealed {
        method: &row.method,
        client_id: &row.client_id,
        team_id: row.team_id.as_deref(),
        key_id: row.key_id.as_deref(),
        private_key: row.private_key_sealed.as_deref(),
        refresh_token: row.refresh_token_sealed.as_deref(),
    };
    sealed.open(secrets, row, |name| name.to_string())
}

/// Every key of connection `row`, opened ([`of`] for the first).
pub fn keys(secrets: &SecretBox, row: &AccountRow) -> Result<StoredKeys, StoredError> {
    let beside = row
        .extra_keys
        .iter()
        .map(|key: &ExtraKey| {
            let sealed = Sealed {
                method: &key.method,
                client_id: &key.client_id,
                team_id: key.team_id.as_deref(),
                key_id: key.key_id.as_deref(),
                private_key: key.private_key_sealed.as_deref(),
                refresh_token: key.refresh_token_sealed.as_deref(),
            };
            let opened = sealed.open(secrets, row, |name| extra_field(&key.id, name))?;
            Ok((key.org_ids.clone(), opened))
        })
        .collect::<Result<_, StoredError>>()?;
    Ok(StoredKeys {
        first: of(secrets, row)?,
        beside,
    })
}

/// One key's stored fields, secrets sealed.
struct Sealed<'a> {
    method: &'a str,
    client_id: &'a str,
    team_id: Option<&'a str>,
    key_id: Option<&'a str>,
    private_key: Option<&'a str>,
    refresh_token: Option<&'a str>,
}

impl Sealed<'_> {
    /// Opens the key's secret, its sealing field named by `field`.
    fn open(
        &self,
        secrets: &SecretBox,
        row: &AccountRow,
        field: impl Fn(&str) -> String,
    ) -> Result<StoredCredentials, StoredError> {
        let context = |name: &str| context(&row.workspace_id, row.provider_user_id, &field(name));
        let missing = || StoredError::Missing(row.id.clone());
        match self.method {
            "key" => Ok(StoredCredentials::KeyPair {
                client_id: self.client_id.to_string(),
                team_id: self.team_id.ok_or_else(missing)?.to_string(),
                key_id: self.key_id.ok_or_else(missing)?.to_string(),
                private_key: open(
                    secrets,
                    &context("private_key"),
                    self.private_key.ok_or_else(missing)?,
                )?,
            }),
            _ => Ok(StoredCredentials::RefreshToken {
                client_id: self.client_id.to_string(),
                refresh_token: open(
                    secrets,
                    &context("refresh_token"),
                    self.refresh_token.ok_or_else(missing)?,
                )?,
            }),
        }
    }
}
