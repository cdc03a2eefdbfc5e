//! A connection's provider credentials: sealing them for storage, opening them into
//! [`Credentials`] for a client, and turning provider failures into clear answers.
//!
//! Every sealed value is bound to its place (`account:<workspace>:<apple user>:<field>`), so a
//! value copied into another row or field does not open. Opening a connection's credentials
//! lives in `searchdeck_provider::stored`, shared with the workers.

use axum::http::StatusCode;
use searchdeck_common::store::accounts::AccountRow;
use searchdeck_provider::{Credentials, KeyPair, ProviderError, stored};
use secrecy::SecretString;

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

/// A stored secret that does not open is an internal error (wrong key or tampering), never
/// shown.
fn internal(e: stored::StoredError) -> ApiError {
    ApiError::Internal(anyhow::anyhow!(e))
}

/// Opens a sealed value.
pub fn open(state: &AppState, context: &str, sealed: &str) -> Result<SecretString, ApiError> {
    stored::open(&state.secrets, context, sealed).map_err(internal)
}

/// The credentials a client of connection `row` uses (the same function the sync jobs
/// use: [`stored::credentials`]).
pub fn of(state: &AppState, row: &AccountRow) -> Result<Credentials, ApiError> {
    stored::credentials(&state.secrets, row).map_err(internal)
}

/// Reads a stored PEM private key.
pub fn key_pair(pem: &SecretString) -> Result<KeyPair, ApiError> {
    stored::key_pair(pem).map_err(internal)
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
