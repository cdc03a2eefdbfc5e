//! Registering a key pair with the Apple Ads sandbox (`POST /sandbox/keys`), as every
//! sandbox-backed test, bench and demo setup does before it can get a token.

use anyhow::Context;
use serde_json::Value;

use crate::KeyPair;

/// The ids the sandbox issued for a registered key (`clientId`, `teamId`, `keyId`).
#[derive(Debug, Clone)]
pub struct SandboxKey {
    pub key: KeyPair,
    pub client_id: String,
    pub team_id: String,
    pub key_id: String,
}

/// Registers a fresh key pair with the sandbox at `sandbox` (`POST /sandbox/keys`).
pub async fn register_key(http: &reqwest::Client, sandbox: &str) -> anyhow::Result<SandboxKey> {
    let key = KeyPair::generate();
    let ids: Value = http
        .post(format!("{sandbox}/sandbox/keys"))
        .body(key.public_pem())
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let field = |k: &str| {
        ids[k]
            .as_str()
            .map(str::to_string)
            .with_context(|| format!("POST /sandbox/keys answered without {k}: {ids}"))
    };
    Ok(SandboxKey {
        client_id: field("clientId")?,
        team_id: field("teamId")?,
        key_id: field("keyId")?,
        key,
    })
}
