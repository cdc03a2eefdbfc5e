//! Verification of the ES256 client secret: a JWT with header `kid` = key id and claims
//! `sub` = client id, `iss` = team id, `aud` = `https://appleid.apple.com`, `iat`, and
//! `exp` no more than 180 days after `iat`, signed by the registered key.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::Signature;
use p256::ecdsa::signature::Verifier;
use serde::Deserialize;

use super::store::{AuthStore, Credential};

/// The audience Apple requires.
pub const AUDIENCE: &str = "https://appleid.apple.com";
/// Longest allowed secret lifetime.
pub const MAX_LIFETIME_SECS: i64 = 180 * 24 * 3600;

#[derive(Deserialize)]
struct Header {
    alg: String,
    kid: Option<String>,
}

#[derive(Deserialize)]
struct Claims {
    sub: Option<String>,
    iss: Option<String>,
    aud: Option<serde_json::Value>,
    iat: Option<i64>,
    exp: Option<i64>,
}

fn decode<T: for<'de> Deserialize<'de>>(part: &str, what: &str) -> Result<T, String> {
    let bytes = URL_SAFE_NO_PAD
        .decode(part)
        .map_err(|_| format!("{what} is not base64url"))?;
    serde_json::from_slice(&bytes).map_err(|e| format!("{what} is not valid JSON: {e}"))
}

/// Verifies `secret` for `client_id` at `now` (epoch seconds); returns the credential.
pub fn verify(
    store: &AuthStore,
    client_id: &str,
    secret: &str,
    now: i64,
) -> Result<Credential, String> {
    let credential = store
        .credential(client_id)
        .ok_or_else(|| format!("unknown client_id {client_id}"))?;
    let parts: Vec<&str> = secret.split('.').collect();
    let [header_b64, claims_b64, signature_b64] = parts.as_slice() else {
        return Err("client_secret is not a JWT".into());
    };
    let header: Header = decode(header_b64, "JWT header")?;
    if header.alg != "ES256" {
        return Err(format!("alg must be ES256, got {}", header.alg));
    }
    if header.kid.as_deref() != Some(credential.key_id.as_str()) {
        return Err("kid does not match the key id of this client".into());
    }
    let signature = URL_SAFE_NO_PAD
        .decode(signature_b64)
        .map_err(|_| "signature is not base64url".to_string())?;
    let signature = Signature::from_slice(&signature)
        .map_err(|_| "signature is not a 64-byte ES256 signature".to_string())?;
    let signed = format!("{header_b64}.{claims_b64}");
    credential
        .key
        .verify(signed.as_bytes(), &signature)
        .map_err(|_| "signature does not verify".to_string())?;
    let claims: Claims = decode(claims_b64, "JWT claims")?;
    if claims.sub.as_deref() != Some(client_id) {
        return Err("sub must be the client id".into());
    }
    if claims.iss.as_deref() != Some(credential.team_id.as_str()) {
        return Err("iss must be the team id".into());
    }
    let aud_ok = match &claims.aud {
        Some(serde_json::Value::String(a)) => a == AUDIENCE,
        Some(serde_json::Value::Array(a)) => a.iter().any(|v| v == AUDIENCE),
        _ => false,
    };
    if !aud_ok {
        return Err(format!("aud must be {AUDIENCE}"));
    }
    let (Some(iat), Some(exp)) = (claims.iat, claims.exp) else {
        return Err("iat and exp are required".into());
    };
    if exp <= now {
        return Err("client secret has expired".into());
    }
    if iat > now + 300 {
        return Err("iat is in the future".into());
    }
    if exp - iat > MAX_LIFETIME_SECS {
        return Err("client secret may live at most 180 days".into());
    }
    Ok(credential)
}
