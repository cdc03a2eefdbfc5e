//! A connection's provider credentials: sealing them for storage, opening them into
//! [`Credentials`] for a client, and turning provider failures into clear answers.
//!
//! Every sealed value is bound to its place (`account:<workspace>:<apple user>:<field>`), so a
//! value copied into another row or field does not open.

use axum::http::StatusCode;
use searchdeck_common::store::accounts::AccountRow;
use searchdeck_provider::{Credentials, KeyPair, ProviderError};
use secrecy::SecretString;

use crate::{error::ApiError, state::AppState};

/// The sealing context of `field` of the connection of `apple_user_id` in `workspace_id`.
pub fn context(workspace_id: &str, apple_user_id: i64, field: &str) -> String {
    format!("account:{workspace_id}:{apple_user_id}:{field}")
}

/// The sealing context of a member's pending private key.
pub fn pending_context(workspace_id: &str, user_id: &str) -> String {
    format!("pending_key:{workspace_id}:{user_id}")
}

/// Opens a sealed value; a value that does not open is an internal error (wrong key or
/// tampering), never shown.
pub fn open(state: &AppState, context: &str, sealed: &str) -> Result<SecretString, ApiError> {
    state
        .secrets
        .open_str(context, sealed)
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("stored credential does not open: {e}")))
}

/// The credentials a client of connection `row` uses.
pub fn of(state: &AppState, row: &AccountRow) -> Result<Credentials, ApiError> {
    let field = |name: &str| context(&row.workspace_id, row.provider_user_id, name);
    let missing = || ApiError::Internal(anyhow::anyhow!("connection {} lacks credentials", row.id));
    match row.method.as_str() {
        "key" => {
            let sealed = row.private_key_sealed.as_deref().ok_or_else(missing)?;
            let pem = open(state, &field("private_key"), sealed)?;
            let key = key_pair(&pem)?;
            Ok(Credentials::ClientCredentials {
                client_id: row.client_id.clone(),
                team_id: row.team_id.clone().ok_or_else(missing)?,
                key_id: row.key_id.clone().ok_or_else(missing)?,
                key,
            })
        }
        _ => {
            let sealed = row.refresh_token_sealed.as_deref().ok_or_else(missing)?;
            Ok(Credentials::RefreshToken {
                client_id: row.client_id.clone(),
                refresh_token: open(state, &field("refresh_token"), sealed)?,
                key: None,
            })
        }
    }
}

/// Reads a stored PEM private key.
pub fn key_pair(pem: &SecretString) -> Result<KeyPair, ApiError> {
    use secrecy::ExposeSecret;
    KeyPair::from_pkcs8_pem(pem.expose_secret())
        .map_err(|e| ApiError::Internal(anyhow::anyhow!("stored private key: {e}")))
}

/// A provider failure as the caller should see it: refused credentials and rejected
/// requests are 400 with the provider's reason; an unreachable or failing provider is 502.
pub fn provider_error(err: ProviderError) -> ApiError {
    match err {
        ProviderError::Auth(reason) => {
            ApiError::bad_request(format!("Apple Ads refused these credentials: {reason}"))
        }
        ProviderError::Permanent { message, .. } => {
            ApiError::bad_request(format!("Apple Ads refused the request: {message}"))
        }
        other => {
            tracing::warn!(error = %other, "provider call failed");
            ApiError::status(
                StatusCode::BAD_GATEWAY,
                "Apple Ads could not be reached. Please try again later",
            )
        }
    }
}
