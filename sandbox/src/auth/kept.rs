//! What the auth store keeps across restarts: registered keys, refresh tokens and
//! authorisation codes (and the codes spent), one journal line each (`{"auth": …}`), so a
//! restarted sandbox still knows every client that connected. Access tokens are not kept:
//! clients get new ones with their refresh token or signed secret, as from Apple after an
//! access token expires.

use std::collections::BTreeSet;

use p256::ecdsa::VerifyingKey;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::credential::{Access, Credential};
use crate::world::Id;

/// One change of the auth store, as journaled.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum AuthLine {
    /// A key registered through `POST /sandbox/keys` (a newer one replaces it).
    #[serde(rename_all = "camelCase")]
    Credential {
        client_id: String,
        team_id: String,
        key_id: String,
        /// The public key, SEC1 uncompressed, hex.
        public_key: String,
        accounts: Option<BTreeSet<Id>>,
        read_only: bool,
    },
    /// A refresh token issued to a client.
    #[serde(rename_all = "camelCase")]
    RefreshToken { token: String, client_id: String },
    /// An authorisation code of the consent page.
    #[serde(rename_all = "camelCase")]
    Code {
        code: String,
        client_id: String,
        redirect_uri: String,
        #[serde(with = "time::serde::rfc3339")]
        expires: OffsetDateTime,
    },
    /// A code exchanged (or refused), which no later exchange may use.
    #[serde(rename_all = "camelCase")]
    CodeUsed { code: String },
}

impl AuthLine {
    /// The line of a registered credential.
    pub fn credential(c: &Credential) -> AuthLine {
        AuthLine::Credential {
            client_id: c.client_id.clone(),
            team_id: c.team_id.clone(),
            key_id: c.key_id.clone(),
            public_key: hex::encode(c.key.to_encoded_point(false).as_bytes()),
            accounts: c.access.accounts.clone(),
            read_only: c.access.read_only,
        }
    }

    /// The credential of a [`AuthLine::Credential`] line.
    pub fn to_credential(&self) -> anyhow::Result<Option<Credential>> {
        let AuthLine::Credential {
            client_id,
            team_id,
            key_id,
            public_key,
            accounts,
            read_only,
        } = self
        else {
            return Ok(None);
        };
        let key = VerifyingKey::from_sec1_bytes(&hex::decode(public_key)?)
            .map_err(|e| anyhow::anyhow!("journaled public key of {client_id}: {e}"))?;
        Ok(Some(Credential {
            client_id: client_id.clone(),
            team_id: team_id.clone(),
            key_id: key_id.clone(),
            key,
            access: Access {
                accounts: accounts.clone(),
                read_only: *read_only,
            },
        }))
    }

    /// Adds `self` to the lines `kept` a compaction writes: the latest credential per
    /// client, every refresh token, and the codes not spent.
    pub fn keep(self, kept: &mut Vec<AuthLine>) {
        match &self {
            AuthLine::Credential { client_id, .. } => kept.retain(
                |l| !matches!(l, AuthLine::Credential { client_id: c, .. } if c == client_id),
            ),
            AuthLine::CodeUsed { code } => {
                kept.retain(|l| !matches!(l, AuthLine::Code { code: c, .. } if c == code));
                return;
            }
            _ => {}
        }
        kept.push(self);
    }
}

/// Receives the lines of the auth store's changes (the journal of a sandbox with a data
/// dir).
pub trait AuthSink: Send + Sync {
    fn append_auth(&self, line: &AuthLine);
}
