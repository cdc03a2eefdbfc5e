//! `POST /sandbox/keys`: a public key registered the way Apple's UI registers one, with
//! the client, team and key ids derived from it, optionally limited to some ad accounts
//! and to reads.

use std::collections::BTreeSet;
use std::sync::Arc;

use axum::Json;
use axum::body::Bytes;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use p256::ecdsa::VerifyingKey;
use p256::pkcs8::DecodePublicKey;
use serde::Deserialize;
use serde_json::json;
use sha2::{Digest, Sha256};

use super::bad_request;
use crate::auth::store::{Access, Credential};
use crate::state::Sandbox;
use crate::world::Id;

/// A UUID-shaped id derived from a digest, so one key always gets the same ids.
fn uuid_like(digest: &[u8]) -> String {
    let h = hex::encode(&digest[..16]);
    format!(
        "{}-{}-{}-{}-{}",
        &h[0..8],
        &h[8..12],
        &h[12..16],
        &h[16..20],
        &h[20..32]
    )
}

/// The JSON form of a key registration: the PEM and the access of its API user.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct KeyRequest {
    public_key: String,
    /// Limited Access: the only ad accounts the key may use.
    ad_account_ids: Option<Vec<Id>>,
    /// Read Only: every write is refused with 403.
    #[serde(default)]
    read_only: bool,
}

/// `POST /sandbox/keys`: body is a PEM public key, or JSON `{"publicKey": pem,
/// "adAccountIds": [id, …], "readOnly": bool}` to limit what the key's user may do.
pub(super) async fn register_key(State(sandbox): State<Arc<Sandbox>>, body: Bytes) -> Response {
    let text = String::from_utf8_lossy(&body).to_string();
    let request = if text.trim_start().starts_with('{') {
        match serde_json::from_str::<KeyRequest>(&text) {
            Ok(r) => r,
            Err(e) => return bad_request(format!("invalid key registration: {e}")),
        }
    } else {
        KeyRequest {
            public_key: text,
            ad_account_ids: None,
            read_only: false,
        }
    };
    let pem = request.public_key;
    let key = match VerifyingKey::from_public_key_pem(pem.trim()) {
        Ok(k) => k,
        Err(e) => return bad_request(format!("body must be a PEM P-256 public key: {e}")),
    };
    let accounts: Option<BTreeSet<Id>> =
        request.ad_account_ids.map(|ids| ids.into_iter().collect());
    if let Some(ids) = &accounts {
        let w = sandbox.world.read();
        if let Some(unknown) = ids.iter().find(|id| !w.accounts.contains_key(id)) {
            return bad_request(format!("adAccountIds: ad account {unknown} does not exist"));
        }
    }
    let digest = Sha256::digest(pem.trim().as_bytes());
    let team_digest = Sha256::digest(digest);
    let credential = Credential {
        client_id: format!("SEARCHADS.{}", uuid_like(&digest)),
        team_id: format!("SEARCHADS.{}", uuid_like(&team_digest)),
        key_id: uuid_like(&digest[16..]),
        key,
        access: Access {
            accounts,
            read_only: request.read_only,
        },
    };
    let body = json!({
        "clientId": credential.client_id, "teamId": credential.team_id, "keyId": credential.key_id,
        "role": credential.access.role(),
    });
    sandbox.auth.register(credential);
    (StatusCode::CREATED, Json(body)).into_response()
}
