//! A connection's provider credentials as the connect routes handle them: the sealing
//! contexts of its stored secrets and of a member's pending key, and opening them.
//!
//! Every sealed value is bound to its place (`account:<workspace>:<apple user>:<field>`), so a
//! value copied into another row or field does not open. Opening a connection's credentials
//! lives in `searchdeck_common::stored_credentials`, shared with the workers; a route reaches a stored
//! connection's client through [`crate::provider::Provider::client_of`].

use searchdeck_common::stored_credentials as stored;
use searchdeck_provider::KeyPair;
use secrecy::{ExposeSecret, SecretString};

use crate::{error::ApiError, state::AppState};

/// The sealing context of `field` of the connection of `apple_user_id` in `workspace_id`
/// (shared with the workers: [`stored::context`]).
pub fn context(workspace_id: &str, apple_user_id: i64, field: &str) -> String {
    stored::context(workspace_id, apple_user_id, field)
}

/// The sealing context of a member's pending private key.
pub fn pending_context(workspace_id: &str, user_id: &str) -> String {
    format!("pending_key:{workspace_id}:{user_id}")
}

/// A stored secret that does not open or read is an internal error (wrong key or
/// tampering), never shown.
fn internal(e: impl std::fmt::Display) -> ApiError {
    ApiError::Internal(anyhow::anyhow!("{e}"))
}

/// Opens a sealed value.
pub fn open(state: &AppState, context: &str, sealed: &str) -> Result<SecretString, ApiError> {
    stored::open(&state.secrets, context, sealed).map_err(internal)
}

/// Reads a stored PEM private key.
pub fn key_pair(pem: &SecretString) -> Result<KeyPair, ApiError> {
    KeyPair::from_pkcs8_pem(pem.expose_secret())
        .map_err(|e| internal(format!("stored private key: {e}")))
}
