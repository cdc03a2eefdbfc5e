//! Credentials: the P-256 key pair we generate per connection (its PEM public key is what the
//! user registers with Apple), the ES256 client secret signed with it, and popup-connect
//! refresh tokens.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use p256::ecdsa::signature::Signer;
use p256::ecdsa::{Signature, SigningKey};
use p256::pkcs8::{DecodePrivateKey, EncodePrivateKey, EncodePublicKey, LineEnding};
use rand::RngCore;
use searchdeck_common::stored_credentials::StoredCredentials;
use secrecy::{ExposeSecret, SecretString};
use serde_json::json;

/// Audience of the client secret.
pub const AUDIENCE: &str = "https://appleid.apple.com";
/// Longest client-secret lifetime Apple accepts.
pub const MAX_SECRET_LIFETIME_SECS: i64 = 180 * 24 * 3600;

/// A P-256 key pair.
#[derive(Clone)]
pub struct KeyPair {
    key: SigningKey,
}

impl std::fmt::Debug for KeyPair {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("KeyPair(<private>)")
    }
}

impl KeyPair {
    /// Generates a fresh key pair from the OS random source.
    pub fn generate() -> Self {
        loop {
            let mut bytes = [0u8; 32];
            rand::rng().fill_bytes(&mut bytes);
            if let Ok(key) = SigningKey::from_slice(&bytes) {
                return KeyPair { key };
            }
        }
    }

    /// Loads a PKCS#8 PEM private key.
    pub fn from_pkcs8_pem(pem: &str) -> Result<Self, String> {
        SigningKey::from_pkcs8_pem(pem)
            .map(|key| KeyPair { key })
            .map_err(|e| format!("invalid private key: {e}"))
    }

    /// The private key as PKCS#8 PEM (encrypt it before storing).
    pub fn private_pem(&self) -> SecretString {
        let pem = self
            .key
            .to_pkcs8_pem(LineEnding::LF)
            .expect("P-256 keys encode");
        SecretString::from(pem.to_string())
    }

    /// The public key as SPKI PEM — what the user pastes into Apple.
    pub fn public_pem(&self) -> String {
        self.key
            .verifying_key()
            .to_public_key_pem(LineEnding::LF)
            .expect("P-256 keys encode")
    }

    /// Signs an ES256 JWT over `header` and `claims`.
    pub fn sign_jwt(&self, header: &serde_json::Value, claims: &serde_json::Value) -> String {
        let h = URL_SAFE_NO_PAD.encode(header.to_string());
        let c = URL_SAFE_NO_PAD.encode(claims.to_string());
        let signature: Signature = self.key.sign(format!("{h}.{c}").as_bytes());
        format!("{h}.{c}.{}", URL_SAFE_NO_PAD.encode(signature.to_bytes()))
    }
}

/// How the client authenticates.
#[derive(Debug, Clone)]
pub enum Credentials {
    /// API key pair: clientId, teamId, keyId from Apple, and our private key.
    ClientCredentials {
        client_id: String,
        team_id: String,
        key_id: String,
        key: KeyPair,
    },
    /// Popup connect: a refresh token from the authorization-code exchange.
    RefreshToken {
        client_id: String,
        refresh_token: SecretString,
        key: Option<(String, String, KeyPair)>,
    },
}

impl Credentials {
    /// The credentials of a stored connection, opened by the caller
    /// ([`searchdeck_common::stored_credentials`]); fails when its private key does not read.
    pub fn from_stored(stored: StoredCredentials) -> Result<Credentials, String> {
        Ok(match stored {
            StoredCredentials::KeyPair {
                client_id,
                team_id,
                key_id,
                private_key,
            } => Credentials::ClientCredentials {
                client_id,
                team_id,
                key_id,
                key: KeyPair::from_pkcs8_pem(private_key.expose_secret())
                    .map_err(|e| format!("stored private key: {e}"))?,
            },
            StoredCredentials::RefreshToken {
                client_id,
                refresh_token,
            } => Credentials::RefreshToken {
                client_id,
                refresh_token,
                key: None,
            },
        })
    }

    /// The client id.
    pub fn client_id(&self) -> &str {
        match self {
            Credentials::ClientCredentials { client_id, .. }
            | Credentials::RefreshToken { client_id, .. } => client_id,
        }
    }

    /// The form to post to the token endpoint.
    pub fn token_form(&self, now: i64) -> Vec<(&'static str, String)> {
        match self {
            Credentials::ClientCredentials {
                client_id,
                team_id,
                key_id,
                key,
            } => vec![
                ("grant_type", "client_credentials".into()),
                ("client_id", client_id.clone()),
                (
                    "client_secret",
                    client_secret(
                        key,
                        client_id,
                        team_id,
                        key_id,
                        now,
                        MAX_SECRET_LIFETIME_SECS,
                    ),
                ),
                ("scope", "searchadsorg".into()),
            ],
            Credentials::RefreshToken {
                client_id,
                refresh_token,
                key,
            } => {
                let mut form = vec![
                    ("grant_type", "refresh_token".into()),
                    ("client_id", client_id.clone()),
                    ("refresh_token", refresh_token.expose_secret().to_string()),
                ];
                if let Some((team_id, key_id, key)) = key {
                    form.push((
                        "client_secret",
                        client_secret(
                            key,
                            client_id,
                            team_id,
                            key_id,
                            now,
                            MAX_SECRET_LIFETIME_SECS,
                        ),
                    ));
                }
                form
            }
        }
    }
}

/// The ES256 client secret: header kid=keyId; sub=clientId, iss=teamId, aud, iat, exp.
pub fn client_secret(
    key: &KeyPair,
    client_id: &str,
    team_id: &str,
    key_id: &str,
    now: i64,
    lifetime_secs: i64,
) -> String {
    let lifetime = lifetime_secs.min(MAX_SECRET_LIFETIME_SECS);
    key.sign_jwt(
        &json!({ "alg": "ES256", "kid": key_id, "typ": "JWT" }),
        &json!({ "sub": client_id, "iss": team_id, "aud": AUDIENCE, "iat": now, "exp": now + lifetime }),
    )
}
